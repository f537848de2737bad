"""Bot seats that think: a Strong seat's move is computed off the event loop and outside the
store's update, then applied with the table's revision checked.

Easy and Normal seats play inside the change that hands them the turn (``bot.tables.bots``). A
Strong seat may take about a second of CPU a move (``levels.STRONG_BUDGET``; the setting
``DECKHAND_STRONG_SECONDS``), so the change that hands it the turn only marks the table
(``series[BOT_THINKING]``, which makes the table due for the sweep at once, see
``TableRow.alarm``) and wakes a task of the channel:

1. the task reads the table, sends the game's exact JSON, the seat and its seeded generator to a
   process of the pool, where ``levels.choose`` thinks (the event loop only waits);
2. in a race against a person, it waits for the seat's human-like delay, as any bot does;
3. it plays the move through the one write path, at the revision it thought on: when the table
   moved meanwhile (a person's answer in a simultaneous decision, an abandon) it thinks again
   on the new table, or stops when the seat's turn is gone;
4. whoever listens (``on_bot_move``: the desk, for the Discord layer) shows the change as any
   other move's.

Nothing is lost by a crash or restart mid-think: the mark is stored with the table, so the
start-up's :meth:`Thinking.resume_thinking` and every sweep wake the tables still marked.

The pool is like the pictures' (``bot.render.pictures``): processes spawned clean, one per core
but one by default (``DECKHAND_THINK_WORKERS``; ``0`` thinks in threads: off the loop, not off
its core), started at the first Strong move, restarted a few times when it breaks.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine.words import say
from bot.engine import levels
from bot.engine.core import Game
from bot.engine.registry import spec
from bot.store import StoreError, TableRow
from bot.store.base import BOT_THINKING
from bot.tables.base import Change
from bot.tables.bots import bot_level, racing, bot_delay, thinker
from bot.tables.errors import StaleError, TableError
from bot.tables.games import load_game
from bot.workers import Workers, cores, count_from

log = logging.getLogger("bot.tables")

MAX_TRIES = 1000  # moves thought by one wake of a channel, within reason (then the next sweep's)
RESUME_PAGE = 200  # due tables read a page at a time at start-up


# ----- the budget and the pool ------------------------------------------------------------
def strong_budget() -> float:
    """A Strong move's CPU seconds: ``DECKHAND_STRONG_SECONDS`` (checked by ``bot.config``), else the default."""
    text = os.environ.get("DECKHAND_STRONG_SECONDS", "").strip()
    try:
        return float(text) if text else levels.STRONG_BUDGET
    except ValueError:
        return levels.STRONG_BUDGET


def workers() -> int:
    """How many processes think (0: threads)."""
    return count_from("DECKHAND_THINK_WORKERS", lambda: max(1, cores() - 1), "thinking")  # the event loop keeps a core


def _warm() -> None:
    """A thinking process's start: the games' modules imported before the first move."""
    from bot.engine.registry import GAME_IDS

    for g in GAME_IDS:
        spec(g)


_workers = Workers("thinking", count=workers, context=lambda n: multiprocessing.get_context("spawn"),
                   initializer=_warm, threads=lambda n: max(1, n), thread_name="think")


def shutdown(wait: bool = True) -> None:
    """Stop the thinking processes and threads (a later Strong move starts them again)."""
    _workers.shutdown(wait)


def choose_move(game_id: str, state: dict[str, Any], seat: int, level: str, seed: str, budget: float) -> str:
    """In a thinking process: the game rebuilt from its exact JSON, the seat's move as notation."""
    game = spec(game_id).state.from_json(state)
    return str(levels.choose(level, game, seat, random.Random(seed), budget))


async def think(game: Game, seat: int, level: str, seed: str, budget: float) -> str:
    """The move ``seat`` plays at ``level``, thought in the pool (the event loop only waits)."""
    state = game.to_json()
    args = (game.game_id, state, seat, level, seed, budget)
    loop = asyncio.get_running_loop()
    ex = _workers.executor()
    try:
        return await loop.run_in_executor(ex, choose_move, *args)
    except BrokenProcessPool:
        _workers.broke(ex)
        return await loop.run_in_executor(_workers.executor(), choose_move, *args)


def bot_seed(t: TableRow) -> str:
    """A bot's generator for the table's next move (the same table and moves give the same seed)."""
    return f"bot:{t.seed}:{len(t.moves)}"


# ----- the service's part -----------------------------------------------------------------
class Thinking:
    """Strong bot seats' moves, thought off the loop (a mixin of :class:`~bot.tables.service.TableService`)."""

    # Told each change a thinking seat made (the desk shows it in Discord); None: nobody listens.
    on_bot_move: Callable[[Change], Awaitable[None]] | None = None
    strong_seconds: float | None = None  # a Strong move's budget (None: strong_budget())

    def _thinkers(self) -> tuple[dict[int, asyncio.Task], set[int]]:
        """The channels' think tasks, and the channels woken again while theirs ran."""
        found = self.__dict__.get("_think_tasks")
        if found is None:
            found = self.__dict__["_think_tasks"] = ({}, set())
        return found

    def wake_thinking(self, channel_id: int) -> None:
        """Make sure the channel's thinking seat is thought for (a task of the channel; one at a time)."""
        tasks, again = self._thinkers()
        task = tasks.get(channel_id)
        if task is not None and not task.done():
            again.add(channel_id)  # it looks at the table once more before it ends
            return
        tasks[channel_id] = asyncio.get_running_loop().create_task(
            self._think_for(channel_id), name=f"deckhand: a bot thinks in {channel_id}")

    def thinking(self) -> list[int]:
        """The channels whose bot is thinking now, in this process."""
        return [ch for ch, task in self._thinkers()[0].items() if not task.done()]

    async def stop_thinking(self) -> None:
        """Stop every think task of this process (what they thought is lost, never half saved:
        their tables stay marked and are resumed by the next start)."""
        tasks, again = self._thinkers()
        running = [t for t in tasks.values() if not t.done()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        tasks.clear()
        again.clear()

    async def resume_thinking(self) -> int:
        """At start-up: wake every table (of this process's shards) whose bot was thinking when the
        last process stopped. Returns how many were woken."""
        now = self.clock()  # type: ignore[attr-defined]
        after: tuple[float, int] | None = None
        woken = 0
        while True:
            page = await self.store.due(now, RESUME_PAGE, after, shards=self.sweep_shards)  # type: ignore[attr-defined]
            if not page:
                return woken
            for row in page:
                if row.status == "playing" and row.series.get(BOT_THINKING) is not None:
                    self.wake_thinking(row.channel_id)
                    woken += 1
            last = page[-1]
            key = (last.alarm if last.alarm is not None else now, last.channel_id)
            if after is not None and key <= after:
                return woken
            after = key

    async def _think_for(self, channel_id: int) -> None:
        _, again = self._thinkers()
        try:
            for _ in range(MAX_TRIES):
                again.discard(channel_id)
                if not await self._think_once(channel_id) and channel_id not in again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot's trouble never breaks the table: the sweep wakes it again
            log.exception("a bot could not think in channel %s", channel_id)

    async def _think_once(self, channel_id: int) -> bool:
        """Think for the channel's thinking seat and play its move; False when no seat thinks there."""
        try:
            row = self.cached(channel_id) or await self.get(channel_id)  # type: ignore[attr-defined]
        except StoreError as e:
            log.warning("a bot could not read its table in channel %s: %s", channel_id, e)
            return False
        if row is None or row.status != "playing" or row.series.get(BOT_THINKING) is None:
            return False
        game = load_game(row)
        seat = thinker(row, game)
        if seat is None:
            return False
        level = bot_level(row.seats[seat])
        budget = self.strong_seconds if self.strong_seconds is not None else strong_budget()
        try:
            move = await think(game, seat, level, bot_seed(row), budget)
        except Exception:  # noqa: BLE001 — its level's slip: it plays as Normal does rather than hold the table
            log.exception("the %s player of %s failed at table %s; it plays as Normal", level, row.game,
                          row.channel_id)
            move = str(levels.choose(levels.DEFAULT_LEVEL, game, seat, random.Random(bot_seed(row))))
        racing_bots, _ = racing(row, game)
        if seat in racing_bots:  # a race against a person: not quicker than a person could read the table
            since = row.turn_since if row.turn_since is not None else self.clock()  # type: ignore[attr-defined]
            wait = since + bot_delay(row, seat, len(racing_bots)) - self.clock()  # type: ignore[attr-defined]
            if wait > 0:
                await asyncio.sleep(wait)

        def fn(t: TableRow) -> Change:
            if t.status != "playing":
                raise TableError(say("There is no game in progress here."))
            now = load_game(t)
            if thinker(t, now) != seat:
                raise StaleError()
            try:
                return self._apply(t, now, seat, move)  # type: ignore[attr-defined]
            except TableError as e:  # its level's slip never holds the table: Normal's move instead
                log.error("the %s player of %s chose a refused move at table %s: %s", level, t.game, t.channel_id, e)
                normal = levels.choose(levels.DEFAULT_LEVEL, now, seat, random.Random(bot_seed(t)))
                return self._apply(t, now, seat, str(normal))  # type: ignore[attr-defined]

        try:
            change = await self._update(channel_id, fn, revision=row.revision)  # type: ignore[attr-defined]
        except StaleError:
            return True  # the table moved while the bot thought: think again on it
        except TableError as e:
            log.info("a bot's move at table %s was not played: %s", row.channel_id, e)
            return True
        if self.on_bot_move is not None:
            try:
                await self.on_bot_move(change)
            except Exception:  # noqa: BLE001 — the move is saved; showing it is the listener's
                log.exception("showing a bot's move in channel %s failed", channel_id)
        return True
