"""Tournaments: sign-up, rounds of tables, results, standings — the service side.

A tournament lives in one store row (``bot.store.tournaments``); nothing in memory matters, so
a restart (or a kill) at any point loses nothing, and every write is checked against the
revision it was computed from. Its tables are ordinary tables, each in its own channel (a
thread the Discord layer opens), tagged ``series["tournament"] = [id, round, board]``: they use
the turn limit, Skip and Remove as any table does, and rate their people when they end.

The **clock** (:meth:`Tournaments.step`, run by the Discord layer's loop for the tournaments
whose alarm is due — on a shard cluster, each process for its own shards' servers) does
everything that happens by itself, one idempotent step at a time, and hands back the
:class:`Work` only Discord can do (open a thread, post and ping, post standings); each piece
of work is acknowledged when done, so a step cut short is done again, never lost:

1. a sign-up whose start time came starts;
2. tables of built-in players only are played at once in a channel of their own (no thread);
3. a round past its end has its unfinished tables settled by the organiser's rule (a win for
   the player ahead by the rulebook's own ranking where the game has one — Court Wars, The
   Maginot Line — else a draw; or a draw) and closed;
4. a round whose tables all ended closes; its standings are posted; the next round is paired
   and opened, or the tournament ends.

A table's end reaches the tournament through :func:`table_ended` (called by the table service
when any game ends).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine.core import IllegalMove, Outcome
from bot.engine.registry import spec
from bot.ratings import NEW, _rest_key, finishing_places
from bot.store import Seat, StaleRevision, StoreError, TableRow
from bot.store.tournaments import TournamentRow, TournamentStore
from bot.tables.base import BOT_NAME, MIN_TURN_LIMIT, Actor, Change, ServiceBase
from bot.tables.errors import TableError
from bot.tables.games import load_game
from bot.tables.pairing import (
    ELIMINATION, FILL, FORMATS, SWISS, TABLES, Board, Entrant, Standing, elimination_round, elimination_rounds,
    knocked_out, standings, swiss_round, swiss_rounds, tables_round,
)

log = logging.getLogger("bot.tables")

AHEAD, DRAW = "ahead", "draw"
SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
TRIES = 8  # saves retried on a revision race
MAX_ENTRANTS = 64


@dataclass
class Tournament:
    """A tournament as stored (``TournamentRow.data``), with the row's id and revision."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    revision: int
    organiser_id: int
    organiser: str
    game: str
    format: str
    size: int  # seats a table
    rounds_planned: int  # 0: decided at the start
    round_seconds: int
    turn_limit: int
    bots: int  # built-in players entered
    fill: bool  # built-in players fill short tables
    settle: str  # AHEAD | DRAW
    options: list[str]
    starts_at: float | None
    round_ends: float | None = None
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[list[Board]] = field(default_factory=list)
    posted: int = 0  # rounds whose standings were posted
    message_id: int | None = None
    alarm: float | None = None

    # ----- the stored form ----------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        return {
            "v": 1, "organiser": [self.organiser_id, self.organiser], "game": self.game, "format": self.format,
            "size": self.size, "rounds_planned": self.rounds_planned, "round_seconds": self.round_seconds,
            "turn_limit": self.turn_limit, "bots": self.bots, "fill": self.fill, "settle": self.settle,
            "options": self.options, "starts_at": self.starts_at, "round_ends": self.round_ends,
            "entrants": [e.to_json() for e in self.entrants],
            "rounds": [[b.to_json() for b in r] for r in self.rounds], "posted": self.posted,
            "message_id": self.message_id,
        }

    @classmethod
    def of(cls, row: TournamentRow) -> "Tournament":
        d = row.data
        return cls(row.id, row.guild_id, row.channel_id, row.status, row.revision, int(d["organiser"][0]),
                   str(d["organiser"][1]), d["game"], d["format"], int(d["size"]), int(d["rounds_planned"]),
                   int(d["round_seconds"]), int(d["turn_limit"]), int(d["bots"]), bool(d["fill"]), d["settle"],
                   list(d["options"]), d.get("starts_at"), d.get("round_ends"),
                   [Entrant.from_json(e) for e in d["entrants"]],
                   [[Board.from_json(b) for b in r] for r in d["rounds"]], int(d.get("posted", 0)),
                   d.get("message_id"), row.alarm)

    def row(self) -> TournamentRow:
        return TournamentRow(self.id, self.guild_id, self.channel_id, self.status, self.data(), self.revision,
                             self.alarm, 0.0, 0.0)

    # ----- reading ---------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return spec(self.game).title

    def name_of(self, user_id: int) -> str:
        for e in self.entrants:
            if e.user_id == user_id:
                return e.name
        return f"{BOT_NAME} (a fill-in)" if user_id <= FILL else str(user_id)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def people(self) -> list[Entrant]:
        return [e for e in self.entrants if e.user_id > 0]

    def standings(self) -> list[Standing]:
        table = standings(self.entrants, self.rounds)
        if self.format == ELIMINATION:
            out = knocked_out(self.entrants, self.rounds)
            for s in table:
                s.out = s.user_id in out
            table.sort(key=lambda s: (s.out, -s.points, -s.rating, s.name.lower(), s.user_id))
        return table

    @property
    def current(self) -> list[Board]:
        return self.rounds[-1] if self.rounds else []

    def board_of(self, user_id: int) -> tuple[int, Board] | None:
        for i, b in enumerate(self.current):
            if user_id in b.players and not b.bye:
                return i, b
        return None

    def next_alarm(self, now: float) -> float | None:
        """When the clock must look next: now while work waits, else the start or the round's end."""
        if self.status == SIGNUP:
            return self.starts_at
        if self.status in (FINISHED, CANCELLED):
            return now if self.posted < len(self.rounds) else None
        if self.posted < len([r for r in self.rounds if all(b.done for b in r)]):
            return now
        for b in self.current:
            people = any(u > 0 for u in b.players)
            if not b.done and (b.channel is None or (people and not b.announced)):
                return now
        return self.round_ends


# ----- the Discord layer's part of a step ---------------------------------------------------------
@dataclass(frozen=True)
class OpenBoard:
    """Open a thread for this table, then call :meth:`Tournaments.open_board` with its id."""

    tournament: int
    round: int
    board: int
    name: str  # the thread's name


@dataclass(frozen=True)
class Announce:
    """Post the table in its channel and ping its people, then :meth:`Tournaments.announced`."""

    tournament: int
    round: int
    board: int
    channel_id: int
    users: tuple[int, ...]  # the people to ping
    text: str


@dataclass(frozen=True)
class Settled:
    """A table the round's end settled: show it as it ended and say why."""

    channel_id: int
    text: str


@dataclass(frozen=True)
class PostStandings:
    """Post the standings after ``round`` (1-based) in the tournament's channel, then
    :meth:`Tournaments.posted_standings`."""

    tournament: int
    round: int
    final: bool


Work = OpenBoard | Announce | Settled | PostStandings


@dataclass(frozen=True)
class BoardFacts:
    players: tuple[str, ...]
    channel_id: int | None
    done: bool
    bye: bool
    result: str  # "" while it plays


@dataclass(frozen=True)
class TournamentView:
    """What anyone may know of a tournament (the Discord layer's object; no store, no game)."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    status: str
    title: str
    game: str
    format: str
    size: int
    organiser_id: int
    organiser: str
    round: int  # rounds opened so far
    rounds_planned: int
    round_seconds: int
    round_ends: float | None
    starts_at: float | None
    settle: str
    fill: bool
    entrants: tuple[tuple[int, str, bool], ...]  # (user id, name, dropped)
    standings: tuple[Standing, ...]
    boards: tuple[BoardFacts, ...]  # the current round's
    revision: int

    @classmethod
    def of(cls, t: Tournament) -> "TournamentView":
        boards = []
        for b in t.current:
            names = tuple(t.name_of(u) for u in b.players)
            result = ""
            if b.bye:
                result = "a bye"
            elif b.places is not None:
                best = min(b.places)
                win = [names[i] for i, p in enumerate(b.places) if p == best]
                result = (f"{win[0]} won" if len(win) == 1 else "shared: " + ", ".join(win)) + \
                    (" (settled at the round's end)" if b.how == "settled" else
                     " (the table was abandoned)" if b.how == "abandoned" else "")
            boards.append(BoardFacts(names, b.channel, b.done, b.bye, result))
        return cls(t.id, t.guild_id, t.channel_id, t.message_id, t.status, t.title, t.game, t.format, t.size,
                   t.organiser_id, t.organiser, len(t.rounds), t.rounds_planned, t.round_seconds, t.round_ends,
                   t.starts_at, t.settle, t.fill, tuple((e.user_id, e.name, e.dropped) for e in t.entrants),
                   tuple(t.standings()), tuple(boards), t.revision)


def tag(t: Tournament, r: int, i: int) -> list[int]:
    return [t.id, r, i]


def bot_channel(t: Tournament, r: int, i: int) -> int:
    """The channel of a table of built-in players only: none in Discord (a negative id)."""
    return -(t.id * 1_000_000 + r * 1_000 + i + 1)


class Tournaments:
    """Tournaments over a table service (its tables, its store, its clock)."""

    def __init__(self, service: ServiceBase):
        self.service = service
        self.store = TournamentStore(service.store)

    @property
    def now(self) -> float:
        return self.service.clock()

    # ----- the one write path: load → change → save at the revision ------------------------
    async def load(self, tid: int) -> Tournament:
        row = await self.store.get(tid)
        if row is None:
            raise TableError("There is no such tournament.")
        return Tournament.of(row)

    async def _mutate(self, tid: int, fn: Callable[[Tournament], Any]) -> tuple[Tournament, Any]:
        for _ in range(TRIES):
            t = await self.load(tid)
            before = t.revision
            out = fn(t)
            t.alarm = t.next_alarm(self.now)
            row = t.row()
            try:
                await self.store.save(row, before)
            except StaleRevision:
                continue
            t.revision = row.revision
            return t, out
        raise TableError("The tournament is busy; try again in a moment.")

    # ----- sign-up -----------------------------------------------------------------------------
    async def create(self, guild_id: int | None, channel_id: int, actor: Actor, game: str, fmt: str, *,
                     rounds: int | None = None, round_seconds: int = 24 * 3600, bots: int = 0, fill: bool = False,
                     settle: str = AHEAD, seats: int | None = None, starts_in: float | None = None,
                     options: list[str] | None = None, turn_limit: int | None = None) -> TournamentView:
        if guild_id is None:
            raise TableError("Tournaments are for servers.")
        try:
            cls = spec(game)
        except KeyError as e:
            raise TableError(str(e.args[0])) from None
        if fmt not in FORMATS:
            raise TableError(f"The format is one of {', '.join(FORMATS)}.")
        if cls.max_players < 2:
            raise TableError(f"{cls.title} is a game for one; a tournament needs opponents.")
        if fmt in (SWISS, ELIMINATION):
            if cls.min_players > 2:
                raise TableError(f"{cls.title} is for {cls.min_players} or more: use the format `tables`.")
            size = 2
        else:
            size = seats or max(cls.min_players, min(4, cls.max_players))
            if not (max(3, cls.min_players) <= size <= cls.max_players):
                raise TableError(f"{cls.title} tables seat {max(3, cls.min_players)} to {cls.max_players} "
                                 "in the format `tables` (two-player tables: `swiss` or `elimination`).")
        if settle not in (AHEAD, DRAW):
            raise TableError("A table left unfinished is settled as `ahead` or `draw`.")
        if not 0 <= bots <= MAX_ENTRANTS:
            raise TableError(f"At most {MAX_ENTRANTS} built-in players.")
        if round_seconds < 10 * 60:
            raise TableError("A round lasts at least 10 minutes.")
        try:
            opts = cls.options.parse(options or []).dump()
        except IllegalMove as e:
            raise TableError(str(e)) from None
        limit = turn_limit or max(MIN_TURN_LIMIT, round_seconds // 6)
        now = self.now
        t = Tournament(0, guild_id, channel_id, SIGNUP, 1, actor.user_id, actor.name, game, fmt, size, rounds or 0,
                       round_seconds, limit, bots, fill, settle, opts,
                       None if starts_in is None else now + starts_in)
        t.entrants = [Entrant(-k, f"{BOT_NAME} {k}") for k in range(1, bots + 1)]
        t.alarm = t.next_alarm(now)
        row = await self.store.create(guild_id, channel_id, SIGNUP, t.data(), t.alarm)
        t.id = row.id
        return TournamentView.of(t)

    async def view(self, tid: int) -> TournamentView:
        return TournamentView.of(await self.load(tid))

    async def in_channel(self, channel_id: int) -> TournamentView | None:
        """The channel's newest tournament."""
        rows = await self.store.in_channel(channel_id)
        return TournamentView.of(Tournament.of(rows[0])) if rows else None

    async def set_message(self, tid: int, message_id: int) -> None:
        def fn(t: Tournament) -> None:
            t.message_id = message_id

        await self._mutate(tid, fn)

    async def join(self, tid: int, actor: Actor) -> TournamentView:
        def fn(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise TableError("Sign-up has closed: the tournament has started or ended.")
            if t.entrant(actor.user_id) is not None:
                raise TableError("You have signed up already.")
            if len(t.entrants) >= MAX_ENTRANTS:
                raise TableError(f"The tournament is full ({MAX_ENTRANTS} players).")
            t.entrants.append(Entrant(actor.user_id, actor.name))

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def leave(self, tid: int, actor: Actor) -> TournamentView:
        """Before the start: take the name off the list. After: drop out (see :meth:`drop`)."""
        t = await self.load(tid)
        if t.status == RUNNING:
            return await self.drop(tid, actor)

        def fn(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise TableError("The tournament is over.")
            e = t.entrant(actor.user_id)
            if e is None:
                raise TableError("You have not signed up.")
            t.entrants.remove(e)

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def drop(self, tid: int, actor: Actor) -> TournamentView:
        """Drop out of a running tournament: no more pairings; an unfinished table is a forfeit."""
        def fn(t: Tournament) -> int | None:
            if t.status != RUNNING:
                raise TableError("Only a running tournament can be dropped out of.")
            e = t.entrant(actor.user_id)
            if e is None:
                raise TableError("You are not playing in this tournament.")
            if e.dropped:
                raise TableError("You have dropped out already.")
            e.dropped = True
            found = t.board_of(actor.user_id)
            return found[1].channel if found and not found[1].done and found[1].channel else None

        t, channel = await self._mutate(tid, fn)
        if channel is not None:
            try:
                await self.service.leave(channel, actor)  # type: ignore[attr-defined]
            except TableError:
                pass  # the table ended meanwhile
        return TournamentView.of(await self.load(tid))

    async def cancel(self, tid: int, actor: Actor) -> TournamentView:
        def fn(t: Tournament) -> None:
            if actor.user_id != t.organiser_id and not actor.can_manage:
                raise TableError("Only the organiser can cancel the tournament.")
            if t.status != SIGNUP:
                raise TableError("Only a tournament still signing up can be cancelled.")
            t.status = CANCELLED

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def start(self, tid: int, actor: Actor | None) -> TournamentView:
        """The organiser's Start (``actor`` None: the start time came)."""
        t = await self.load(tid)
        ratings = {}
        if t.guild_id is not None:
            try:
                found = await self.service.store.ratings(t.guild_id, t.game, [e.user_id for e in t.people])
                ratings = {u: r.ordinal for u, r in found.items()}
            except StoreError as e:
                log.warning("no ratings for the seeding of tournament %s: %s", tid, e)

        def fn(t: Tournament) -> None:
            if actor is not None and actor.user_id != t.organiser_id:
                raise TableError("Only the organiser can start the tournament.")
            if t.status != SIGNUP:
                raise TableError("The tournament has started already." if t.status == RUNNING
                                 else "The tournament is closed.")
            cls = spec(t.game)
            if len(t.entrants) < 2 or not t.people:
                raise TableError("A tournament needs at least two players, one of them a person.")
            if t.format == TABLES and len(t.entrants) < cls.min_players and not t.fill:
                raise TableError(f"{cls.title} needs at least {cls.min_players} players a table.")
            for e in t.entrants:
                e.rating = ratings.get(e.user_id, NEW.ordinal)
            n = len(t.entrants)
            if not t.rounds_planned:
                t.rounds_planned = {SWISS: swiss_rounds(n), ELIMINATION: elimination_rounds(n)}.get(t.format, 3)
            t.status = RUNNING
            self._open_round(t)

        return TournamentView.of((await self._mutate(tid, fn))[0])

    def _open_round(self, t: Tournament) -> None:
        cls = spec(t.game)
        if t.format == SWISS:
            boards = swiss_round(t.entrants, t.rounds)
        elif t.format == ELIMINATION:
            boards = elimination_round(t.entrants, t.rounds)
        else:
            boards = tables_round(t.entrants, t.rounds, t.size, cls.min_players, cls.max_players, t.fill)
        t.rounds.append(boards)
        t.round_ends = self.now + t.round_seconds

    # ----- the clock -------------------------------------------------------------------------
    async def due(self, shards: tuple[int, tuple[int, ...]] | None = None) -> list[int]:
        return [r.id for r in await self.store.due(self.now, shards=shards)]

    async def step(self, tid: int) -> list[Work]:
        """One pass of the clock over one tournament: what changed is saved; what Discord must do
        is returned (do it, then acknowledge each piece)."""
        t = await self.load(tid)
        now = self.now
        if t.status == SIGNUP:
            if t.starts_at is not None and t.starts_at <= now:
                try:
                    await self.start(tid, None)
                except TableError as e:  # too few players at the start time: the sign-up closes
                    log.info("tournament %s could not start: %s", tid, e)

                    def close(t: Tournament) -> None:
                        if t.status == SIGNUP:
                            t.status = CANCELLED

                    await self._mutate(tid, close)
                t = await self.load(tid)
            else:
                return []
        work: list[Work] = []
        if t.status == RUNNING and t.round_ends is not None and t.round_ends <= now:
            work += await self._settle_round(t)
            t = await self.load(tid)
        if t.status == RUNNING and t.current and all(b.done for b in t.current):
            t = await self._close_round(tid)
        # standings not posted yet
        closed = len(t.rounds) if t.status == FINISHED else len(t.rounds) - 1
        if t.status == RUNNING and t.current and all(b.done for b in t.current):
            closed = len(t.rounds)
        for r in range(t.posted, closed):
            work.append(PostStandings(t.id, r + 1, t.status == FINISHED and r + 1 == len(t.rounds)))
        if t.status == RUNNING:
            r = len(t.rounds) - 1
            for i, b in enumerate(t.current):
                if b.bye or b.done:
                    continue
                people = [u for u in b.players if u > 0]
                if b.channel is None:
                    if people:
                        work.append(OpenBoard(t.id, r, i, f"{t.title} · round {r + 1} · table {i + 1}"[:100]))
                    else:
                        await self.open_board(t.id, r, i, bot_channel(t, r, i))
                elif not b.announced and people:
                    names = " v ".join(t.name_of(u) for u in b.players)
                    work.append(Announce(t.id, r, i, b.channel, tuple(people),
                                         f"round {r + 1} of the {t.title} tournament: {names}. "
                                         f"Your table is here; the round ends <t:{int(t.round_ends or now)}:R>."))
        # the alarm says whether anything is left to do
        await self._mutate(tid, lambda t: None)
        return work

    async def _close_round(self, tid: int) -> Tournament:
        def fn(t: Tournament) -> None:
            if t.status != RUNNING or not t.current or not all(b.done for b in t.current):
                return
            active = [e for e in t.entrants if not e.dropped]
            if t.format == ELIMINATION:
                if len(t.current) == 1:  # the final (or a walk-over): one player is left
                    t.status = FINISHED
                    return
            elif len(t.rounds) >= t.rounds_planned or len(active) < 2:
                t.status = FINISHED
                return
            self._open_round(t)

        t, _ = await self._mutate(tid, fn)
        return t

    async def _settle_round(self, t: Tournament) -> list[Work]:
        """The round is over: every table still playing is settled by the organiser's rule."""
        work: list[Work] = []
        r = len(t.rounds) - 1
        for i, b in enumerate(t.current):
            if b.bye or (b.done and b.how != "settled"):
                continue
            row = await self._table(b.channel) if b.channel is not None else None
            if b.done:  # settled before a restart cut the step short: its table may still be playing
                places, fresh = list(b.places or []), True
            else:
                places = [0] * len(b.players)
                if row is not None and row.status == "playing" and t.settle == AHEAD:
                    places = self._ahead(row)

                def fn(t: Tournament, i: int = i, places: list[int] = places) -> bool:
                    board = t.rounds[r][i]
                    if board.done:
                        return False
                    board.places, board.how = places, "settled"
                    return True

                _, fresh = await self._mutate(t.id, fn)
            if fresh and row is not None and row.status == "playing" and row.series.get("tournament") == tag(t, r, i):
                best = min(places)
                winners = [row.seats[s].name for s, p in enumerate(places) if p == best]
                how = (f"a win for {winners[0]} (ahead)" if len(winners) == 1 and len(places) > 1
                       else "a draw")
                text = f"The round's time is up: this table is settled as {how}."
                try:
                    await self.service._update(b.channel, lambda tb, text=text: self._close_table(tb, text))
                except TableError:
                    pass
                if b.channel > 0:  # a table of built-in players has no channel in Discord to tell
                    work.append(Settled(b.channel, text))
        return work

    @staticmethod
    def _close_table(tb: TableRow, text: str) -> Change:
        if tb.status != "playing":
            raise TableError("This game is over.")
        tb.status = "abandoned"
        tb.turn_since = None
        tb.events = (tb.events + [text])[-40:]
        change = Change(tb, events=[text])
        change.finished = True
        return change

    def _ahead(self, row: TableRow) -> list[int]:
        """The places of an unfinished table by the rulebook's own ranking (else all shared)."""
        try:
            game = load_game(row)
            n = len(row.seats)
            key = _rest_key(row.game, Outcome(()), n, game.view(None))
            gone = list(game.forfeited)
            keys = {s: key(s) for s in range(n) if s not in gone}
            order = sorted(set(keys.values()), reverse=True)
            places = [0] * n
            for s in range(n):
                places[s] = order.index(keys[s]) if s in keys else len(order) + gone[::-1].index(s)
            return places
        except Exception:  # no ranking to be had: a draw
            log.exception("no ranking for the unfinished table %s", row.table_id)
            return [0] * len(row.seats)

    async def _table(self, channel_id: int) -> TableRow | None:
        try:
            return await self.service.store.get(channel_id)
        except StoreError:
            return None

    # ----- the Discord layer's acknowledgements ------------------------------------------------
    async def open_board(self, tid: int, r: int, i: int, channel_id: int) -> bool:
        """Open the table of board ``i`` of round ``r`` (0-based) in ``channel_id``: the channel is
        recorded first, then the table dealt (bots play at once). False if it was opened already."""
        def claim(t: Tournament) -> tuple[Tournament, Board] | None:
            b = t.rounds[r][i]
            if b.channel is not None and b.channel != channel_id:
                return None
            b.channel = channel_id
            return t, b

        t, got = await self._mutate(tid, claim)
        if got is None:
            return False
        board = t.rounds[r][i]
        svc = self.service
        async with svc._locks[channel_id]:
            old = await svc.store.get(channel_id)
            if old is not None and old.series.get("tournament") == tag(t, r, i):
                return True  # dealt before a restart
            if old is not None and old.status in ("lobby", "playing"):
                raise TableError("That channel has a table already.")
            now = self.now
            row = TableRow(channel_id=channel_id, guild_id=t.guild_id, game=t.game, status="lobby",
                           host_id=t.organiser_id, seats=[Seat(u, t.name_of(u)) for u in board.players],
                           options=list(t.options), seed=secrets.randbits(63), revision=1, turn_limit=t.turn_limit,
                           series={"tournament": tag(t, r, i)}, created_at=now, updated_at=now)
            await svc.store.save(row, None)
            svc._remember(row)

        def deal(tb: TableRow) -> Change:
            change = Change(tb)
            svc._start(tb, change)  # type: ignore[attr-defined]
            return change

        change = await svc._update(channel_id, deal)

        def opened(t: Tournament) -> None:
            t.rounds[r][i].table = change.table.table_id

        await self._mutate(tid, opened)
        return True

    async def announced(self, tid: int, r: int, i: int) -> None:
        def fn(t: Tournament) -> None:
            t.rounds[r][i].announced = True

        await self._mutate(tid, fn)

    async def posted_standings(self, tid: int, r: int) -> None:
        def fn(t: Tournament) -> None:
            t.posted = max(t.posted, r)

        await self._mutate(tid, fn)


async def table_ended(service: ServiceBase, table: TableRow) -> None:
    """A tournament table's game ended (finished, abandoned or settled): its board gets the
    result (finishing places; an abandoned table: a draw) unless it has one already."""
    ref = table.series.get("tournament")
    if not ref:
        return
    tid, r, i = (int(x) for x in ref)
    n = len(table.seats)
    places, how = [0] * n, "abandoned"
    if table.status == "finished" and table.state is not None:
        game = load_game(table)
        outcome = game.outcome()
        if outcome is not None:
            try:
                view = game.view(None)
            except Exception:
                view = None
            places, how = finishing_places(table.game, outcome, n, list(game.forfeited), view), ""

    def fn(t: Tournament) -> None:
        if r >= len(t.rounds) or i >= len(t.rounds[r]):
            return
        b = t.rounds[r][i]
        if b.done or b.channel != table.channel_id:
            return
        b.places, b.how = places, how

    try:
        await Tournaments(service)._mutate(tid, fn)
    except (TableError, StoreError) as e:  # the game is saved; the clock's deadline settles the board
        log.error("could not record table %s in tournament %s: %s", table.table_id, tid, e)
