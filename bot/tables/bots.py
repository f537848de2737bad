"""Bot seats: the built-in player seated by the host at a level (Easy, Normal or Strong). Easy and
Normal play their turns inside the change that handed them over; a Strong seat thinks off the
event loop (``bot.tables.thinking``): the change only marks the table for it."""

from __future__ import annotations

import logging
import random

from bot.engine.words import Phrase, Typed, say
from bot.engine import levels
from bot.engine.core import Game, IllegalMove
from bot.engine.registry import spec
from bot.store import Seat, TableRow
from bot.store.base import BOT_THINKING
from bot.tables.base import MAX_BOT_STEPS, BOT_NAME, Actor, Change, acting_users, is_bot
from bot.tables.errors import TableError
from bot.tables.games import load_game

log = logging.getLogger("bot.tables")


BOT_FASTEST = 1.0  # seconds: a bot in a race never answers quicker than a person could read the table
PERSON = 2.0  # seconds a person takes to answer a race, for whom the bots' pace is made fair


THINKING_LEVELS = frozenset({"strong"})  # levels whose moves are thought off the loop (about a second of CPU)


def bot_level(seat: Seat) -> str:
    """A bot seat's level (a seat stored before levels, or with a level unknown here, plays Normal)."""
    return seat.level if seat.level in levels.LEVELS else levels.DEFAULT_LEVEL


def level_name(level: str) -> str:
    """A level as players read it: Easy, Normal, Strong."""
    return levels.LEVEL_NAMES.get(level, level.title())


def seated(host: str, bot: str, level: str) -> Phrase:
    """The lobby's line when the host seats a bot: "Ana seated Deckhand bot 1 (Normal, the built-in player)."."""
    if level == "easy":
        return say("{name} seated {bot} (Easy, the built-in player).", name=Typed(host), bot=Typed(bot))
    if level == "strong":
        return say("{name} seated {bot} (Strong, the built-in player).", name=Typed(host), bot=Typed(bot))
    return say("{name} seated {bot} (Normal, the built-in player).", name=Typed(host), bot=Typed(bot))


def parse_level(text: str | None) -> str:
    """A level from a player's words (``strong``, ``Strong``; empty: Normal); TableError otherwise."""
    word = (text or "").strip().lower() or levels.DEFAULT_LEVEL
    if word not in levels.LEVELS:
        names = ", ".join(level_name(v) for v in levels.LEVELS)
        raise TableError(say("A bot's level is one of {names}, not {value}.", names=names, value=repr(str(text)[:20])))
    return word


def thinks(t: TableRow, seat: int) -> bool:
    """Whether the seat is a bot whose moves are thought off the loop (a Strong one)."""
    s = t.seats[seat]
    return is_bot(s.user_id) and bot_level(s) in THINKING_LEVELS


def thinker(t: TableRow, game: Game) -> int | None:
    """The thinking bot seat to act now (the lowest), or None."""
    if t.status != "playing" or game.is_over():
        return None
    seats = sorted(s for s in game.to_act() if s not in game.forfeited and thinks(t, s))
    return seats[0] if seats else None


def racing(t: TableRow, game: Game) -> tuple[list[int], list[int]]:
    """A race against a person: the bot seats and the people in open decisions that run on the
    rulebook's clock (KRPD's Open Race: anyone may play at any time). Empty when no person races."""
    timed = [d.seat for d in game.decisions() if d.clock_seconds is not None and d.seat not in game.forfeited]
    bots = [s for s in timed if is_bot(t.seats[s].user_id)]
    people = [s for s in timed if not is_bot(t.seats[s].user_id)]
    return (bots, people) if bots and people else ([], [])


def race_slowest(bots: int) -> float:
    """The slowest a bot answers (seconds) with ``bots`` bots in the race: each bot waits uniformly
    between BOT_FASTEST and this, so a person answering in PERSON seconds wins about as often as
    each bot (P(all bots slower) = 1 / (bots + 1))."""
    q = (1.0 / (bots + 1)) ** (1.0 / bots)  # each bot slower than the person with this chance
    return BOT_FASTEST + (PERSON - BOT_FASTEST) / (1.0 - q)


def bot_delay(t: TableRow, seat: int, bots: int) -> float:
    """How long the bot at ``seat`` takes to answer this race, from the last play: drawn from the
    table's seeded generator (the same table and moves give the same pace)."""
    rng = random.Random(f"botdelay:{t.seed}:{len(t.moves)}:{seat}")
    return rng.uniform(BOT_FASTEST, race_slowest(bots))


def ready_bots(t: TableRow, game: Game, now: float) -> list[int]:
    """The bot seats that may act now, lowest first: at once, except in a race against a person,
    where a bot answers only when its human-like delay since the last play has passed."""
    bots = sorted(s for s in game.to_act() if is_bot(t.seats[s].user_id))
    racing_bots, _ = racing(t, game)
    if not racing_bots:
        return bots
    since = t.turn_since if t.turn_since is not None else now
    return [s for s in bots if s not in racing_bots or now >= since + bot_delay(t, s, len(racing_bots))]


def next_bot_at(t: TableRow, game: Game) -> float | None:
    """When the next racing bot answers (unix time), or None when no bot is waiting in a race."""
    racing_bots, _ = racing(t, game)
    paced = [s for s in racing_bots if not thinks(t, s)]  # a thinking seat keeps its own pace (bot.tables.thinking)
    if not paced or t.status != "playing":
        return None
    since = t.turn_since or 0.0
    return min(since + bot_delay(t, s, len(racing_bots)) for s in paced)


class Bots:
    """Bot seats (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def play_due_bots(self, channel_id: int) -> Change:
        """Play the racing bots whose delay has passed (TableError when none is due: nothing saved)."""

        def fn(t: TableRow) -> Change:
            if t.status != "playing":
                raise TableError(say("There is no game in progress here."))
            due = next_bot_at(t, load_game(t))
            if due is None or due > self.clock():
                raise TableError(say("No bot is due to answer yet."))
            return Change(t)  # the change's own bot step plays them

        return await self._update(channel_id, fn)

    async def add_bot(self, channel_id: int, actor: Actor, revision: int | None = None,
                      level: str = levels.DEFAULT_LEVEL) -> Change:
        """Seat a built-in player at ``level`` (the host's choice, in the lobby of a game for several)."""
        level = parse_level(level)

        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError(say("Bots can only be seated in the lobby, before the game starts."))
            if actor.user_id != t.host_id:
                raise TableError(say("Only the host can add a bot."))
            if cls.max_players < 2:
                raise TableError(say("{title} is a game for one: there is no seat for a bot.", title=cls.title))
            if len(t.seats) >= cls.max_players:
                raise TableError(say("The table is full ({most} players).", most=cls.max_players))
            taken = {-s.user_id for s in t.seats if is_bot(s.user_id)}
            n = next(i for i in range(1, cls.max_players + 2) if i not in taken)
            name = f"{BOT_NAME} {n}"
            t.seats.append(Seat(-n, name, level))
            return Change(t, events=[seated(actor.name, name, level)])

        return await self._update(channel_id, fn, revision=revision)

    def _play_bots(self, change: Change) -> None:
        """While a bot seat must act, play it with the game's built-in player, in the same
        update as the change that handed it the turn (bounded by ``MAX_BOT_STEPS``)."""
        t = change.table
        if not any(is_bot(s.user_id) for s in t.seats):
            return
        for s in [s for s in change.private if is_bot(t.seats[s].user_id)]:
            del change.private[s]  # what only a bot may read goes nowhere
        if t.status != "playing":
            if BOT_THINKING in t.series:
                t.series = {k: v for k, v in t.series.items() if k != BOT_THINKING}
            return
        game = load_game(t)
        people = [s.user_id for s in t.seats if not is_bot(s.user_id)]
        pings = set(change.pings)
        acting = acting_users(t, game)
        played = False
        for _ in range(MAX_BOT_STEPS):
            if game.is_over():
                break
            bots = [s for s in ready_bots(t, game, self.clock()) if s not in game.forfeited and not thinks(t, s)]
            if not bots:
                break
            seat = bots[0]
            rng = random.Random(f"bot:{t.seed}:{len(t.moves)}")
            try:
                step = self._apply(t, game, seat, str(levels.choose(bot_level(t.seats[seat]), game, seat, rng)))
            except (TableError, IllegalMove) as e:  # a built-in player's slip never undoes a person's move
                log.error("the built-in player of %s failed at table %s: %s", t.game, t.channel_id, e)
                break
            played = True
            change.events += step.events
            for s, lines in step.private.items():
                if not is_bot(t.seats[s].user_id):
                    change.private.setdefault(s, []).extend(lines)
            change.finished = change.finished or step.finished
            game = load_game(t)
            now = acting_users(t, game)
            pings |= now - acting
            acting = now
        # A thinking seat to act: the table is marked (due for the sweep at once), and thought for off the loop.
        if thinker(t, game) is not None:
            t.series = {**t.series, BOT_THINKING: round(self.clock(), 3)}
        elif BOT_THINKING in t.series:
            t.series = {k: v for k, v in t.series.items() if k != BOT_THINKING}
        # Ping the people whose turn it now is (never a bot; nobody at a table with one person).
        if played or len(people) < 2:
            change.pings = sorted(u for u in pings if u in acting and not is_bot(u)) if len(people) > 1 else []

