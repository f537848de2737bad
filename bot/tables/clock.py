"""The turn clock: turn limits, their warnings, the rulebook clocks, and the sweep that finds due tables."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

from bot.engine.core import Game
from bot.engine.registry import spec
from bot.engine.words import Many, Phrase, Typed, say, say_n
from bot.i18n import Words
from bot.store import StoreError, TableRow
from bot.store.base import BOT_THINKING, WARN_FRACTION
from bot.tables.base import KEEP_EVENTS, Change, _working_copy, is_bot
from bot.tables.errors import TableError
from bot.tables.games import load_game

log = logging.getLogger("bot.tables")

SWEEP_PAGE = 200  # due tables read per page by the turn-limit sweep
SWEEP_TURN = 25  # of a page's tables, decided (or remembered once saved) in one turn of the event loop
WARNING, TIME_UP, CLOCK = "warning", "time_up", "clock"


def _rebuild(rows: list[TableRow]) -> None:
    """The games of due rows, rebuilt (in a worker thread) into the rows and the games cache. A
    game that cannot be rebuilt is left for the sweep to meet again on the loop, and report."""
    for row in rows:
        if row.state is None:
            continue
        try:
            load_game(row)
        except Exception:  # noqa: BLE001, S112 — reported by the sweep itself, once
            continue


def _plain(row: TableRow, now: float) -> bool:
    """A due row whose change is a warning or a time-up only, with no bot seat (no bot plays in the
    same change, no rulebook clock runs out): it can be saved together with others."""
    if any(is_bot(s.user_id) for s in row.seats):
        return False
    return row.game_clock is None or row.turn_since is None or row.turn_since + row.game_clock > now


class _NotDue(TableError):
    """The sweep found a table not due after all: nothing to save."""


@dataclass(frozen=True)
class Notice:
    """What the turn-limit sweep has to say about a table: one short message that mentions only
    ``users`` (the late players; for a rulebook clock that ran out, whoever is to act now).
    The table itself is ``Change.table``; the table message shows it, this only notifies."""

    kind: str  # WARNING | TIME_UP | CLOCK
    users: tuple[int, ...]
    text: str  # plain words, after the mentions (a phrase, said in the table's language)
    # The table did not change where players see it (a warning, saved at the same revision): its
    # table message is left as it is (its buttons stay valid), only the notice is posted.
    quiet: bool = False

    def message(self, w: Words | None = None) -> str:
        """The notice as posted, in the language of ``w`` (the table's words; None: English)."""
        text = w.say(self.text) if w is not None else str(self.text)
        mentions = " ".join(f"<@{u}>" for u in self.users)
        return f"{mentions} — {text}" if mentions else text[:1].upper() + text[1:]




class Clock:
    """The sweep (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def check_timeouts(self) -> list[Change]:
        """The turn-limit sweep: for each table whose alarm is due, warn the player to act when a
        quarter of the turn limit is left (once per turn), mark the turn timed out when it is up
        (once), or run out a rulebook clock. Returns the changes, each with its ``notice``.

        Only due tables are read (the store's indexed alarm), a page at a time; a damaged row or
        one table's trouble never stops the sweep."""
        return [change async for page in self.sweep_pages() for change in page]

    async def sweep_pages(self) -> AsyncIterator[list[Change]]:
        """The sweep of :meth:`check_timeouts`, one page of due tables at a time: a caller may tell
        a page's tables before the next page is read (fewer tables held at once)."""
        async with contextlib.aclosing(self._sweep_pages()) as pages:
            async for out in pages:
                yield out

    async def _sweep_pages(self) -> AsyncIterator[list[Change]]:
        now = self.clock()
        broken = self._broken_tables()
        after: tuple[float, int] | None = None
        while True:
            page = await self.store.due(now, SWEEP_PAGE, after, shards=self.sweep_shards)
            if not page:
                break
            todo = [row for row in page if broken.get(row.channel_id) != (row.table_id, row.revision)]
            for row in todo:  # a bot seat thinking (a restart, a lost task): thought for again
                if row.status == "playing" and row.series.get(BOT_THINKING) is not None:
                    self.wake_thinking(row.channel_id)  # type: ignore[attr-defined]
            # Each table's game (its snapshot and up to SNAPSHOT_EVERY moves replayed) is rebuilt in a
            # worker thread, the page at once, not on the event loop: who is late, and the table
            # message after the change, read it from there (bot.tables.games.GAMES).
            await asyncio.to_thread(_rebuild, todo)
            out, alone = await self._sweep_together(todo, now, broken)
            for row, fresh in alone:
                try:
                    out.append(await self._update(row.channel_id, lambda t: self._sweep(t, now), fresh=fresh))
                except (TableError, StoreError):  # not due any more, or this table's own trouble
                    continue
                except Exception as e:  # noqa: BLE001 — a damaged table (or any bug) never stops the sweep
                    self._skip_broken(broken, row, e)
                    continue
            for change in out:  # the notice says whether the table message needs its edit
                if change.notice is not None and change.notice.quiet != change.quiet:
                    change.notice = replace(change.notice, quiet=change.quiet)
            if out:
                yield out
            last = page[-1]
            key = (last.alarm if last.alarm is not None else now, last.channel_id)
            if after is not None and key <= after:  # no progress (a row that keeps failing): next sweep
                break
            after = key

    async def _sweep_together(self, rows: list[TableRow], now: float, broken: dict[int, tuple[str | None, int]]
                              ) -> tuple[list[Change], list[tuple[TableRow, TableRow | None]]]:
        """A page's warnings and times up, saved in one transaction. Returns the changes, and the
        rows left to be swept one at a time, each with the row to decide on (None: the stored one):
        a rulebook clock that runs out plays moves and bot seats may play at once (their own
        save each), a table busy with another action waits for it, and one that moved since it was
        read is decided again on the stored row."""
        alone: list[tuple[TableRow, TableRow | None]] = []
        plain: list[TableRow] = []
        for r in rows:
            if _plain(r, now):
                plain.append(r)
            else:
                alone.append((r, r))
        changes: list[tuple[Change, TableRow, int]] = []
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(self._in_flight)  # taken first: the semaphore is never awaited with locks held
            for i, row in enumerate(plain):
                if i and i % SWEEP_TURN == 0:  # a few tables a turn of the loop: presses go in between
                    await asyncio.sleep(0)
                lock = self._locks[row.channel_id]
                if lock.locked():  # another action on it: the table waits for it, alone
                    alone.append((row, row))
                    continue
                await held.enter_async_context(lock)  # free: taken at once
                t = _working_copy(row)
                before = t.revision
                try:
                    change = self._sweep(t, now)
                except TableError:  # not due after all
                    continue
                except Exception as e:  # noqa: BLE001 — a damaged table (or any bug) never stops the sweep
                    self._skip_broken(broken, row, e)
                    continue
                change.table.revision = before if change.quiet else before + 1
                changes.append((change, row, before))
            if not changes:
                return [], alone
            try:
                written = await self.store.save_many([(c.table, before) for c, _, before in changes])
            except StoreError as e:  # the database is away: these tables are still due at the next sweep
                log.warning("the sweep could not save %d tables: %s", len(changes), e)
                return [], alone
            out = []
            for i, ((change, row, _), ok) in enumerate(zip(changes, written, strict=True)):
                if i and i % SWEEP_TURN == 0:  # the tables stay locked meanwhile: nothing sees them half-remembered
                    await asyncio.sleep(0)
                if ok:
                    self._remember(change.table)
                    out.append(change)
                else:
                    alone.append((row, None))
        return out, alone

    @staticmethod
    def _skip_broken(broken: dict[int, tuple[str | None, int]], row: TableRow, e: Exception) -> None:
        broken[row.channel_id] = (row.table_id, row.revision)  # reported once; tried again when it changes
        log.error("the sweep skips the table in channel %s (damaged, it cannot be rebuilt): %s: %s",
                  row.channel_id, type(e).__name__, str(e).splitlines()[0] if str(e) else "",
                  exc_info=not isinstance(e, (ValueError, KeyError, TypeError, IndexError)))

    def _broken_tables(self) -> dict[int, tuple[str | None, int]]:
        """The tables the sweep could not handle, by channel, with the (table, revision) that
        failed: skipped (and not reported again) until the table changes."""
        found = getattr(self, "_sweep_broken", None)
        if found is None:
            found = self._sweep_broken = {}
        return found

    def _sweep(self, t: TableRow, now: float) -> Change:
        """One due table (under its lock): the change to save, or _NotDue to leave it untouched."""
        if t.alarm is None or t.alarm > now:  # moved (or already told) since it was read as due
            raise _NotDue()
        game = load_game(t)
        title = spec(t.game).title
        late = tuple(sorted({t.seats[s].user_id for s in game.to_act()}))
        if t.game_clock is not None and t.turn_since is not None and t.turn_since + t.game_clock <= now:
            seconds = int(t.game_clock)
            change = self._run_out_clock(t, game)
            if change.events:
                text = say("the clock ran out at {title} ({seconds} s with no play); your turn.", title=title,
                           seconds=seconds) if change.pings else \
                    say("the clock ran out at {title} ({seconds} s with no play).", title=title, seconds=seconds)
                change.notice = Notice(CLOCK, tuple(change.pings), text)
            return change
        if not t.timed_out and t.turn_since is not None and t.turn_limit > 0 and t.turn_since + t.turn_limit <= now:
            names = Many([Typed(t.seats[s].name) for s in sorted(game.to_act())], "and")
            t.timed_out = True
            t.warned_for = t.turn_since  # no warning after the time is up
            text = say("Time is up for {names}. The other players or the host may skip or remove them.", names=names)
            t.events = (t.events + [text])[-KEEP_EVENTS:]
            if len(t.seats) > 1:
                told = say("time is up at {title}; the other players or the host may **Skip** your turn (the bot "
                           "plays it) or **Remove** you.", title=title)
            else:
                told = say("time is up at {title}; you may **Skip** your turn (the bot plays it) or **Remove** "
                           "yourself (the game ends).", title=title)
            return Change(t, events=[text], notice=Notice(TIME_UP, late, told))
        warn_at = t.warn_at
        if warn_at is not None and warn_at <= now:
            t.warned_for = t.turn_since
            left = about(t.turn_limit * (1 - WARN_FRACTION))
            return Change(t, quiet=True, notice=Notice(WARNING, late, say(
                "a quarter of your turn is left at {title} (about {left} to go).", title=title, left=left), quiet=True))
        raise _NotDue()

    def _run_out_clock(self, t: TableRow, game: Game) -> Change:
        """The rulebook's own clock ran out: every open timed decision gets its default."""
        change: Change | None = None
        texts: list[str] = []
        seconds = int(t.game_clock or 0)  # before the defaults are played (they set the next clock)
        for d in game.decisions():
            if d.clock_seconds is None or d.default is None or game.is_over():
                continue
            if d.seat not in game.to_act():
                continue
            change = self._apply(t, game, d.seat, d.default)
            texts += change.events
            game = load_game(t)
        if change is None:
            t.game_clock = None
            return Change(t)
        change.events = [say("The clock ran out ({seconds} s with no play).", seconds=seconds), *texts]
        return change


# A length of time in its units' short words, said in each language (an English reader reads "5 min").
def _days(n: int) -> Phrase:
    # TRANSLATORS: a number of days, short ("2 d"; a whole word reads better where the language has no short one).
    return say_n("{n} d", "{n} d", n=n)


def _hours(n: int) -> Phrase:
    # TRANSLATORS: a number of hours, short ("2 h").
    return say_n("{n} h", "{n} h", n=n)


def _minutes(n: int) -> Phrase:
    # TRANSLATORS: a number of minutes, short ("2 min").
    return say_n("{n} min", "{n} min", n=n)


def _seconds(n: int) -> Phrase:
    # TRANSLATORS: a number of seconds, short ("30 s").
    return say_n("{n} s", "{n} s", n=n)


def format_duration(seconds: float, days: bool = True) -> Phrase:
    """A length of time in its largest whole unit ("2 d", "6 h", "30 min", "90 s"), a phrase its reader's
    words say (``Words.say``); ``days=False``: in hours at most ("48 h")."""
    seconds = int(seconds)
    if days and seconds and seconds % 86400 == 0:
        return _days(seconds // 86400)
    if seconds and seconds % 3600 == 0:
        return _hours(seconds // 3600)
    if seconds and seconds % 60 == 0:
        return _minutes(seconds // 60)
    return _seconds(seconds)


def about(seconds: float) -> str:
    """A length of time in plain words, rounded as a person would: "6 h", "25 min", "2 min 30 s" (a
    phrase, or two side by side, that its reader's words say)."""
    seconds = max(0, round(seconds))
    if seconds >= 2 * 3600:
        return _hours(round(seconds / 3600))
    if seconds >= 10 * 60:
        return _minutes(round(seconds / 60))
    minutes, rest = divmod(seconds, 60)
    parts = [p for p in (_minutes(minutes) if minutes else None, _seconds(rest) if rest else None) if p is not None]
    return Many(parts, " ") if len(parts) > 1 else parts[0] if parts else _seconds(0)
