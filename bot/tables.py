"""Tables: everything about a game in a channel that is not the rules.

Lobby (host, seats, join/leave/start), whose turn and since when, turn limits,
forfeits, abandon, rematch, the move log and records. Every action takes the
channel's lock, loads the row, computes the change, saves it in one transaction
(checked against the revision it was computed from) and returns a :class:`Change`
for the Discord layer (or the terminal) to show.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
import math
import random
import secrets
import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.engine.core import Event, Game, IllegalMove
from bot.engine.registry import spec, with_article
from bot.records import FORFEIT, apply_logged, make_record
from bot.store import Seat, StaleRevision, Store, StoreError, TableRow, new_table_id
from bot.store.base import WARN_FRACTION, DailyEntry

log = logging.getLogger(__name__)

DEFAULT_TURN_LIMIT = 24 * 3600
MIN_TURN_LIMIT = 60
KEEP_EVENTS = 40
MAX_MOVE_TEXT = 4000
MAX_SKIP_STEPS = 200  # a skipped turn is played to its end, within reason
SWEEP_PAGE = 200  # due tables read per page by the turn-limit sweep
MAX_BOT_STEPS = 1000  # bot seats play at once after every change, within reason (a few ms a step)
BOT_NAME = "Deckhand bot"
DAILY_GAME = "gridcannon"  # the daily challenge: everyone gets the same deal of this game each UTC day


STALE = "That table has moved on since this was posted: use the newest table message (or press **Show table**)."


class TableError(Exception):
    """A refusal to show the user (ephemerally); nothing was changed."""


class _NotDue(TableError):
    """The sweep found a table not due after all: nothing to save."""


@dataclass(frozen=True)
class Actor:
    """Who is acting: a Discord user (or a terminal player)."""

    user_id: int
    name: str
    can_manage: bool = False  # Manage Messages in the channel


@dataclass
class Change:
    """What an action did: the table after it, public and private events, who to ping."""

    table: TableRow
    events: list[str] = field(default_factory=list)
    private: dict[int, list[str]] = field(default_factory=dict)  # seat -> texts
    pings: list[int] = field(default_factory=list)  # user ids whose turn it now is
    finished: bool = False
    record: dict[str, Any] | None = None
    secret: bool = False  # the move answered a private decision: tell the mover privately
    notice: Notice | None = None  # the sweep's short message (a warning, time up, a clock run out)


WARNING, TIME_UP, CLOCK = "warning", "time_up", "clock"


@dataclass(frozen=True)
class Notice:
    """What the turn-limit sweep has to say about a table: one short message that mentions only
    ``users`` (the late players; for a rulebook clock that ran out, whoever is to act now).
    The table itself is ``Change.table``; the table message shows it, this only notifies."""

    kind: str  # WARNING | TIME_UP | CLOCK
    users: tuple[int, ...]
    text: str  # plain words, after the mentions

    def message(self) -> str:
        mentions = " ".join(f"<@{u}>" for u in self.users)
        return f"{mentions} — {self.text}" if mentions else self.text[:1].upper() + self.text[1:]


def table_key(table: TableRow) -> str:
    """A short id naming this table (not just its channel): a new game gets a new one."""
    tid = getattr(table, "table_id", None)
    if tid:
        return str(tid)
    digest = hashlib.blake2s(f"{table.created_at!r}:{table.seed}".encode(), digest_size=5).hexdigest()
    return digest


class _GameCache:
    """The game of each recent table at its latest revision, by table id: a move neither parses a
    state nor replays the log when its table was loaded or saved in this process. A hit needs the
    same (table id, revision). Games never change (``apply`` makes a new one), so one may be
    shared; thread-safe (messages and pictures are built in worker threads)."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._games: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table: TableRow) -> Game | None:
        with self._lock:
            found = self._games.get(table.table_id) if table.table_id else None
        return found[1] if found is not None and found[0] == table.revision else None

    def put(self, table: TableRow, game: Game) -> None:
        if not table.table_id:
            return
        with self._lock:
            held = self._games.get(table.table_id)
            if held is not None and held[0] > table.revision:
                return  # a newer revision is already held
            self._games[table.table_id] = (table.revision, game)
            self._games.move_to_end(table.table_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


GAMES = _GameCache()


def load_game(table: TableRow) -> Game:
    """The table's current game: the one the service holds, else the cached one of this table and
    revision, else its snapshot (``state``) with the moves after it (``state_ply``) replayed."""
    if table.state is None:
        raise TableError("The game has not started yet.")
    if table.live is not None:
        return table.live
    game = GAMES.get(table)
    if game is None:
        game = spec(table.game).state.from_json(table.state)
        if table.state_ply is not None:
            for seat, move, *_ in table.moves[table.state_ply:]:
                game = apply_logged(game, int(seat), str(move))
        GAMES.put(table, game)
    table.live = game
    return game


def _working_copy(row: TableRow) -> TableRow:
    """A copy of a cached row that a change may alter (its lists and series are its own)."""
    t = copy.copy(row)
    t.seats, t.moves, t.events, t.options = list(row.seats), list(row.moves), list(row.events), list(row.options)
    t.series = dict(row.series)
    return t


def is_bot(user_id: int) -> bool:
    """Bot seats (the built-in player, added with **Add a bot**) have negative user ids."""
    return user_id < 0


def acting_users(table: TableRow, game: Game | None = None) -> set[int]:
    if table.status != "playing":
        return set()
    game = game or load_game(table)
    return {table.seats[s].user_id for s in game.to_act()}


class TableService:
    """The table operations. One instance per bot (or terminal), sharing one store."""

    sweep_shards: tuple[int, tuple[int, ...]] | None = None  # (count, ids): a shard cluster's process sweeps its own
    ROW_CACHE = 2048  # channels whose last saved row is kept for the next change
    # Changes computed and saving at once: SQLite has one writer, PostgreSQL a pool of connections.
    IN_FLIGHT = {"sqlite": 4, "postgres": 8}

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # The row each recent channel's last change saved: the next change starts from it and
        # the save's revision check proves it current — one database hop per change.
        self._rows: OrderedDict[int, TableRow] = OrderedDict()
        # At most this many changes computed and saving at once: a burst of presses waits here,
        # parked, instead of crowding one turn of the event loop with all their work.
        self._in_flight = asyncio.Semaphore(self.IN_FLIGHT.get(getattr(store, "backend", ""), 4))

    def _remember(self, table: TableRow) -> None:
        self._rows[table.channel_id] = table
        self._rows.move_to_end(table.channel_id)
        while len(self._rows) > self.ROW_CACHE:
            self._rows.popitem(last=False)
        if table.live is not None:
            GAMES.put(table, table.live)

    # ----- reading -------------------------------------------------------------------
    async def get(self, channel_id: int) -> TableRow | None:
        return await self.store.get(channel_id)

    async def require(self, channel_id: int) -> TableRow:
        table = await self.store.get(channel_id)
        if table is None:
            raise TableError("There is no table in this channel. Start one with `/game new`.")
        return table

    # ----- the one write path --------------------------------------------------------
    async def _update(self, channel_id: int, fn: Callable[[TableRow], Change], *, revision: int | None = None,
                      fresh: TableRow | None = None) -> Change:
        """Change a table and save it. ``fresh``: the row as just read from the store (the sweep's
        due rows), used instead of this process's cached row."""
        async with self._locks[channel_id], self._in_flight:
            cached = self._rows.pop(channel_id, None)
            if fresh is not None:
                cached = fresh
            if cached is not None:  # one hop: the save's revision check proves the cached row current
                try:
                    return await self._change(_working_copy(cached), fn, revision)
                except (TableError, StaleRevision):
                    # Refused or stale: the cached row may be behind the store; decide on the stored one
                    # (a refusal of the same revision stands as it is).
                    stored = await self.require(channel_id)
                    if stored.revision == cached.revision and stored.table_id == cached.table_id:
                        self._remember(cached)
                        raise
                    return await self._change(stored, fn, revision)
            return await self._change(await self.require(channel_id), fn, revision)

    async def _change(self, table: TableRow, fn: Callable[[TableRow], Change], revision: int | None) -> Change:
        if revision is not None and revision != table.revision:
            raise TableError(STALE)
        before = table.revision
        change = fn(table)
        self._play_bots(change)
        change.table.revision = before + 1
        record, result, results = None, "", []
        if change.finished:
            record, result, results = self._finish(change.table)
            change.record = record
        if change.table.status != "playing" and change.table.state is not None:
            load_game(change.table)  # out of play: the final state is written once, as the snapshot
        try:
            await self.store.save(change.table, before, record, result, results)
        except StaleRevision:
            raise TableError("Someone else moved at the same moment; look at the table and try again.") from None
        self._remember(change.table)
        if change.finished:
            await self._after_finish(change.table)
        return change

    def _finish(self, table: TableRow) -> tuple[dict[str, Any], str, list[tuple[int, str, str]]]:
        game = load_game(table)  # only games that started finish
        record = make_record(game, [m[:2] for m in table.moves], status=table.status)
        outcome = game.outcome()
        results: list[tuple[int, str, str]] = []
        if outcome is None:  # abandoned
            return record, "abandoned", []
        solo = len(table.seats) == 1
        for i, seat in enumerate(table.seats):
            if is_bot(seat.user_id):  # bots keep no stats; the people they played against do
                continue
            if i in outcome.winners:
                res = "win"
            elif i in game.forfeited or solo or outcome.winners:
                res = "loss"
            else:
                res = "draw"
            results.append((seat.user_id, seat.name, res))
        return record, "finished", results

    # ----- lobby ---------------------------------------------------------------------
    async def new_table(self, channel_id: int, guild_id: int | None, actor: Actor, game_id: str,
                        options: list[str] | None = None, seed: int | None = None) -> Change:
        try:
            cls = spec(game_id)
        except KeyError as e:
            raise TableError(str(e.args[0])) from None
        try:
            opts = cls.options.parse(options or []).dump()
        except IllegalMove as e:
            raise TableError(str(e)) from None
        async with self._locks[channel_id]:
            old = await self.store.get(channel_id)
            if old is not None and old.status in ("lobby", "playing"):
                what = "lobby" if old.status == "lobby" else "game"
                raise TableError(f"This channel already has {with_article('a', spec(old.game).title)} {what}. "
                                 "Finish it, or have the host use `/game abandon` first.")
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=guild_id, game=game_id, status="lobby", host_id=actor.user_id,
                seats=[Seat(actor.user_id, actor.name)], options=opts,
                seed=secrets.randbits(63) if seed is None else seed, revision=1,
                turn_limit=old.turn_limit if old else DEFAULT_TURN_LIMIT, created_at=now, updated_at=now,
            )
            change = Change(table, events=[f"{actor.name} opened {with_article('a', cls.title)} table."])
            if cls.max_players == 1:
                self._start(table, change)
            await self.store.save(table, None)
            self._remember(table)
            return change

    async def join(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError("This table is not taking players: the game has started or ended.")
            if t.seat_of(actor.user_id) is not None:
                raise TableError("You are already seated at this table.")
            if len(t.seats) >= cls.max_players:
                raise TableError(f"The table is full ({cls.max_players} players).")
            t.seats.append(Seat(actor.user_id, actor.name))
            return Change(t, events=[f"{actor.name} joined."])

        return await self._update(channel_id, fn)

    async def leave(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            seat = t.seat_of(actor.user_id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            if t.status == "lobby":
                t.seats.pop(seat)
                change = Change(t, events=[f"{actor.name} left."])
                people = [s for s in t.seats if not is_bot(s.user_id)]
                if not people:
                    t.status = "abandoned"
                    change.events.append("The lobby is empty and closes.")
                elif t.host_id == actor.user_id:
                    t.host_id = people[0].user_id
                    change.events.append(f"{people[0].name} is now the host.")
                return change
            if t.status == "playing":
                return self._forfeit(t, seat, f"{actor.name} left the game.")
            raise TableError("This game is over.")

        return await self._update(channel_id, fn)

    async def start(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError("This table has already started." if t.status == "playing" else "This table is closed.")
            if actor.user_id != t.host_id:
                raise TableError("Only the host can start the game.")
            if len(t.seats) < cls.min_players:
                raise TableError(f"{cls.title} needs at least {cls.min_players} players; "
                                 f"{len(t.seats)} seated.")
            change = Change(t)
            self._start(t, change)
            return change

        return await self._update(channel_id, fn)

    def _start(self, t: TableRow, change: Change) -> None:
        cls = spec(t.game)
        try:
            game = cls.state.new([s.name for s in t.seats], t.options, seed=t.seed)
        except IllegalMove as e:
            raise TableError(str(e)) from None
        t.state = game.to_json()
        t.state_ply = None  # the state holds every move (none yet)
        t.live = game
        t.status = "playing"
        t.moves = []
        t.turn_since = self.clock()
        t.timed_out = False
        change.events.append(f"{cls.title} begins: {', '.join(s.name for s in t.seats)}.")
        if len(t.seats) > 1:
            change.pings = sorted(acting_users(t, game))

    async def cancel(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            if t.status != "lobby":
                raise TableError("Only a lobby can be cancelled; use `/game abandon` for a game.")
            if actor.user_id != t.host_id and not actor.can_manage:
                raise TableError("Only the host can cancel this lobby.")
            t.status = "abandoned"
            return Change(t, events=[f"{actor.name} cancelled the table."])

        return await self._update(channel_id, fn)

    async def abandon(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            if t.status not in ("lobby", "playing"):
                raise TableError("There is no game in progress here.")
            if actor.user_id != t.host_id and not actor.can_manage:
                raise TableError("Only the host (or someone with Manage Messages here) can abandon this table.")
            was_playing = t.status == "playing"
            t.status = "abandoned"
            change = Change(t, events=[f"{actor.name} abandoned the table."])
            change.finished = was_playing
            return change

        return await self._update(channel_id, fn)

    async def set_turn_limit(self, channel_id: int, actor: Actor, seconds: int) -> Change:
        def fn(t: TableRow) -> Change:
            if actor.user_id != t.host_id:
                raise TableError("Only the host can set the turn limit.")
            if seconds < MIN_TURN_LIMIT:
                raise TableError("The turn limit is at least 1 minute.")
            t.turn_limit = int(seconds)
            t.timed_out = False
            return Change(t, events=[f"Turn limit set to {format_duration(seconds)}."])

        return await self._update(channel_id, fn)

    # ----- play ----------------------------------------------------------------------
    async def move(self, channel_id: int, actor: Actor, move: str, revision: int | None = None, *,
                   table: str | None = None, opened: int | None = None) -> Change:
        """Play ``move`` for the actor. ``table``/``opened`` (from a button) must still name this
        table and the point at which the actor's decision opened; ``revision`` the table's."""
        if len(move) > MAX_MOVE_TEXT:
            raise TableError(f"That move is too long ({len(move)} characters); nothing was changed.")

        def fn(t: TableRow) -> Change:
            game, seat = self._player(t, actor.user_id)
            self._check_fresh(t, game, seat, table, opened)
            return self._apply(t, game, seat, move)

        return await self._update(channel_id, fn, revision=revision)

    @staticmethod
    def _check_fresh(t: TableRow, game: Game, seat: int, table: str | None, opened: int | None) -> None:
        if table is not None and table != table_key(t):
            raise TableError(STALE)
        if seat not in game.to_act():
            current = {game.opened_at(s) for s in game.to_act()}
            if opened is not None and opened not in current:
                raise TableError(STALE)  # a button of a decision that has closed
            raise TableError(game.waiting_for())
        if opened is not None and opened != game.opened_at(seat):
            raise TableError(STALE)

    async def to_move(self, channel_id: int, user_id: int, table: str, opened: int) -> tuple[TableRow, Game, int]:
        """For offering moves (pickers, text boxes): the table, game and seat, if this user's
        decision is still the one the picker was made for; otherwise the refusal a move would get."""
        row = await self.require(channel_id)
        game, seat = self._player(row, user_id)
        self._check_fresh(row, game, seat, table, opened)
        return row, game, seat

    async def save_drafts(self, drafts: Any, table: TableRow, seat: int, opened: int) -> None:
        """Store the partial actions a picker names by id (see ``ui.Drafts``)."""
        for key, tokens in getattr(drafts, "pending", {}).items():
            await self.store.put_draft(table_key(table), seat, opened, list(tokens), draft_id=key)
        if hasattr(drafts, "pending"):
            drafts.pending.clear()

    async def get_draft(self, key: str) -> tuple[str, ...]:
        draft = await self.store.get_draft(key)
        if draft is None:
            raise TableError("That picker has expired. Press **My hand** to choose again.")
        return tuple(str(t) for t in draft.tokens)

    async def first_delivery(self, interaction_id: int) -> bool:
        """False when this interaction was already handled (Discord delivered it twice)."""
        return not await self.store.seen_interaction(interaction_id)

    @staticmethod
    def _player(t: TableRow, user_id: int) -> tuple[Game, int]:
        if t.status == "lobby":
            raise TableError("The game has not started yet.")
        if t.status != "playing":
            raise TableError("This game is over. Start a new one with `/game new`.")
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("You are not playing at this table.")
        game = load_game(t)
        if seat in game.forfeited:
            raise TableError("You have left this game.")
        return game, seat

    def _apply(self, t: TableRow, game: Game, seat: int, move: str, *, forfeit: bool = False) -> Change:
        """Apply a player's move (never a forfeit: that is ``forfeit=True``, not text anyone sends)."""
        before = acting_users(t, game)
        decision = game.decision_of(seat)
        try:
            if forfeit:
                new, events = game.forfeit(seat)
            else:
                new, events = game.apply(seat, move)
        except IllegalMove as e:
            raise TableError(str(e)) from None
        if t.state_ply is None:  # the state held every move so far: it is the snapshot of them
            t.state_ply = len(t.moves)
            t.snapshot_unsaved = True  # (it may not be stored yet: a start and moves in one change)
        t.live = new  # the state stays the snapshot; the store writes a new one when it is due
        t.moves.append([seat, FORFEIT if forfeit else move.strip(), round(self.clock(), 3)])
        change = self._after(t, new, before, events)
        change.secret = decision is not None and not decision.public
        return change

    def _after(self, t: TableRow, new: Game, before: set[int], events: list[Event]) -> Change:
        change = Change(t)
        for e in events:
            private = getattr(e, "private", None)
            if private is not None:  # a v2 event: the public text, and each seat's own text
                if e.public:
                    change.events.append(e.public)
                for s, text in private.items():
                    change.private.setdefault(s, []).append(text)
            elif e.to is None:
                change.events.append(e.text)
            else:
                for s in e.to:
                    change.private.setdefault(s, []).append(e.text)
        t.events = (t.events + change.events)[-KEEP_EVENTS:]
        if new.is_over():
            t.status = "finished"
            t.turn_since = None
            change.finished = True
            outcome = new.outcome()
            if outcome is not None and outcome.summary:
                change.events.append(outcome.summary)
                t.events = (t.events + [outcome.summary])[-KEEP_EVENTS:]
            t.series = self._series_after(t, new)
            return change
        after = acting_users(t, new)
        clocks = [d.clock_seconds for d in new.decisions() if d.clock_seconds is not None]
        clock = float(min(clocks)) if clocks else None
        if after != before or clock != t.game_clock or clock is not None:
            t.turn_since = self.clock()  # a rulebook clock restarts at every answer (the race's "no play")
            t.timed_out = False
        t.game_clock = clock
        if len(t.seats) > 1:
            change.pings = sorted(after - before)
        return change

    def _series_after(self, t: TableRow, game: Game) -> dict[str, Any]:
        outcome = game.outcome()
        series = dict(t.series)
        series["games"] = series.get("games", 0) + 1
        series["first"] = getattr(game.opts, "first", None)
        series["winners"] = list(outcome.winners) if outcome else []
        return series

    def _forfeit(self, t: TableRow, seat: int, why: str) -> Change:
        game = load_game(t)
        change = self._apply(t, game, seat, "", forfeit=True)
        change.events.insert(0, why)
        return change

    async def skip(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """After a timeout: the late player's whole turn is played for them — each decision's
        timeout default where the rulebook has one, else the built-in player's choice."""

        def fn(t: TableRow) -> Change:
            game = self._check_timeout_power(t, actor)
            late = min(game.to_act())
            player = spec(t.game).player
            rng = random.Random(f"skip:{t.seed}:{len(t.moves)}")
            change: Change | None = None
            texts: list[str] = []
            private: dict[int, list[str]] = {}
            for _ in range(MAX_SKIP_STEPS):
                decision = game.decision_of(late)
                if decision is None or game.is_over():
                    break
                move = decision.default if decision.default is not None else str(player(game, late, rng))
                change = self._apply(t, game, late, move)
                texts += change.events
                for s, lines in change.private.items():
                    private.setdefault(s, []).extend(lines)
                game = load_game(t)
                if change.finished or late not in game.to_act() or len(t.seats) == 1:
                    break
            assert change is not None
            change.events = [f"{actor.name} skipped {t.seats[late].name}'s turn (the bot played for them).", *texts]
            change.private = private
            return change

        return await self._update(channel_id, fn, revision=revision)

    async def remove(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """After a timeout: the late player is removed (a forfeit)."""

        def fn(t: TableRow) -> Change:
            game = self._check_timeout_power(t, actor)
            seat = min(game.to_act())
            return self._forfeit(t, seat, f"{actor.name} removed {t.seats[seat].name} (out of time).")

        return await self._update(channel_id, fn, revision=revision)

    def _check_timeout_power(self, t: TableRow, actor: Actor) -> Game:
        if t.status != "playing":
            raise TableError("There is no game in progress here.")
        if not t.timed_out:
            raise TableError("Nobody has run out of time.")
        game = load_game(t)
        late = {t.seats[s].user_id for s in game.to_act()}
        seat = t.seat_of(actor.user_id)
        is_other_player = seat is not None and actor.user_id not in late and seat not in game.forfeited
        if not (is_other_player or actor.user_id == t.host_id or actor.can_manage):
            raise TableError("Only the other players or the host can do that.")
        return game

    async def check_timeouts(self) -> list[Change]:
        """The turn-limit sweep: for each table whose alarm is due, warn the player to act when a
        quarter of the turn limit is left (once per turn), mark the turn timed out when it is up
        (once), or run out a rulebook clock. Returns the changes, each with its ``notice``.

        Only due tables are read (the store's indexed alarm), a page at a time; a damaged row or
        one table's trouble never stops the sweep."""
        out: list[Change] = []
        now = self.clock()
        after: tuple[float, int] | None = None
        while True:
            page = await self.store.due(now, SWEEP_PAGE, after, shards=self.sweep_shards)
            if not page:
                break
            for row in page:
                try:
                    out.append(await self._update(row.channel_id, lambda t: self._sweep(t, now), fresh=row))
                except (TableError, StoreError):  # not due any more, or this table's own trouble
                    continue
            last = page[-1]
            key = (last.alarm if last.alarm is not None else now, last.channel_id)
            if after is not None and key <= after:  # no progress (a row that keeps failing): next sweep
                break
            after = key
        return out

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
                text = f"the clock ran out at {title} ({seconds} s with no play)"
                change.notice = Notice(CLOCK, tuple(change.pings), text + ("; your turn." if change.pings else "."))
            return change
        if not t.timed_out and t.turn_since is not None and t.turn_since + t.turn_limit <= now:
            names = " and ".join(t.seats[s].name for s in sorted(game.to_act()))
            t.timed_out = True
            t.warned_for = t.turn_since  # no warning after the time is up
            text = f"Time is up for {names}. The other players or the host may skip or remove them."
            t.events = (t.events + [text])[-KEEP_EVENTS:]
            if len(t.seats) > 1:
                what = "the other players or the host may **Skip** your turn (the bot plays it) or **Remove** you."
            else:
                what = "you may **Skip** your turn (the bot plays it) or **Remove** yourself (the game ends)."
            notice = Notice(TIME_UP, late, f"time is up at {title}; {what}")
            return Change(t, events=[text], notice=notice)
        warn_at = t.warn_at
        if warn_at is not None and warn_at <= now:
            t.warned_for = t.turn_since
            left = about(t.turn_limit * (1 - WARN_FRACTION))
            return Change(t, notice=Notice(WARNING, late, f"a quarter of your turn is left at {title} "
                                                          f"(about {left} to go)."))
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
        change.events = [f"The clock ran out ({seconds} s with no play).", *texts]
        return change

    async def rematch(self, channel_id: int, actor: Actor) -> Change:
        """A new game with the same seats; the first player as the rulebook says for a series."""
        async with self._locks[channel_id]:
            old = await self.require(channel_id)
            if old.status not in ("finished", "abandoned") or old.state is None:
                raise TableError("A rematch needs a finished game here.")
            if old.seat_of(actor.user_id) is None:
                raise TableError("Only the players of the last game can start a rematch.")
            cls = spec(old.game)
            options = [o for o in old.options if not o.startswith("first=")]
            first = self._series_first(old, cls)
            if first is not None:
                options.append(f"first={first}")
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=old.guild_id, game=old.game, status="lobby", host_id=old.host_id,
                seats=list(old.seats), options=options, seed=secrets.randbits(63), revision=old.revision + 1,
                turn_limit=old.turn_limit, series=old.series, created_at=now, updated_at=now,
            )
            change = Change(table, events=[f"{actor.name} called a rematch."])
            self._start(table, change)
            self._play_bots(change)
            await self.store.save(table, None)
            self._remember(table)
            return change

    @staticmethod
    def _series_first(old: TableRow, cls: Any) -> int | None:
        """Who starts a rematch: the game's own series rule (its spec), else chosen at random."""
        if old.state is None or not any(i.key == "first" for i in cls.options.infos()):
            return None
        game = load_game(old)
        last_first = game.opts.first
        if last_first < 0:
            last_first = int(getattr(game.view(None), "first", 0))
        return cls.rematch_first(len(old.seats), last_first, game.outcome())

    # ----- bot seats ---------------------------------------------------------------------
    async def add_bot(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """Seat a built-in player (the host's choice, in the lobby of a game for several)."""

        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError("Bots can only be seated in the lobby, before the game starts.")
            if actor.user_id != t.host_id:
                raise TableError("Only the host can add a bot.")
            if cls.max_players < 2:
                raise TableError(f"{cls.title} is a game for one: there is no seat for a bot.")
            if len(t.seats) >= cls.max_players:
                raise TableError(f"The table is full ({cls.max_players} players).")
            taken = {-s.user_id for s in t.seats if is_bot(s.user_id)}
            n = next(i for i in range(1, cls.max_players + 2) if i not in taken)
            name = f"{BOT_NAME} {n}"
            t.seats.append(Seat(-n, name))
            return Change(t, events=[f"{actor.name} seated {name} (the built-in player)."])

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
            return
        game = load_game(t)
        player = spec(t.game).player
        people = [s.user_id for s in t.seats if not is_bot(s.user_id)]
        pings = set(change.pings)
        acting = acting_users(t, game)
        played = False
        for _ in range(MAX_BOT_STEPS):
            if game.is_over():
                break
            bots = sorted(s for s in game.to_act() if is_bot(t.seats[s].user_id) and s not in game.forfeited)
            if not bots:
                break
            seat = bots[0]
            rng = random.Random(f"bot:{t.seed}:{len(t.moves)}")
            try:
                step = self._apply(t, game, seat, str(player(game, seat, rng)))
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
        # Ping the people whose turn it now is (never a bot; nobody at a table with one person).
        if played or len(people) < 2:
            change.pings = sorted(u for u in pings if u in acting and not is_bot(u)) if len(people) > 1 else []

    # ----- the daily challenge -------------------------------------------------------------
    async def start_daily(self, channel_id: int, actor: Actor, day: str | None = None) -> Change:
        """Deal ``day``'s challenge (default: today, UTC) at the user's own (DM) table: the same deck
        for everyone that day; one attempt per player per day, taken when the deal is made."""
        day = day or daily_day(self.clock())
        cls = spec(DAILY_GAME)
        async with self._locks[channel_id]:
            old = await self.store.get(channel_id)
            if old is not None and old.status in ("lobby", "playing"):
                raise TableError(f"There is {with_article('a', spec(old.game).title)} table open in our DMs already: "
                                 "finish it, or `/game abandon` it there, then ask for the daily challenge again.")
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=None, game=DAILY_GAME, status="lobby", host_id=actor.user_id,
                seats=[Seat(actor.user_id, actor.name)], options=cls.options.parse([]).dump(), seed=daily_seed(day),
                revision=1, turn_limit=old.turn_limit if old else DEFAULT_TURN_LIMIT, series={"daily": day},
                created_at=now, updated_at=now, table_id=new_table_id(),
            )
            if not await self.store.daily_claim(day, actor.user_id, actor.name, table.table_id, now):
                raise TableError(f"You have played the daily challenge of {day} already (one attempt a day). "
                                 "A new deal comes at midnight UTC; `/game daily leaderboard:True` shows the day's board.")
            change = Change(table, events=[f"{actor.name} takes on the daily challenge of {day}."])
            try:
                self._start(table, change)
                await self.store.save(table, None)
            except BaseException:
                await self.store.daily_release(day, actor.user_id, table.table_id)
                raise
            return change

    async def _after_finish(self, table: TableRow) -> None:
        """A daily challenge's game ended (won, lost or abandoned): its attempt gets the result."""
        day = table.series.get("daily")
        if not day or table.state is None:
            return
        game = load_game(table)
        outcome = game.outcome()
        won = outcome is not None and bool(outcome.winners)
        details = dict(outcome.details or {}) if outcome is not None else {}
        kills = details.get("kills")
        try:
            await self.store.daily_finish(table.table_id, self.clock(), won,
                                          outcome.score if won and outcome else None,
                                          int(kills) if isinstance(kills, int) else None)
        except StoreError as e:  # the move itself is saved; only the day's board misses this result
            log.error("could not record the daily result of table %s: %s", table.table_id, e)

    async def daily_board(self, day: str | None = None) -> list[DailyEntry]:
        """The day's finished attempts, best first: wins before losses, then the higher score, then
        more royals killed, then the quicker time."""
        day = day or daily_day(self.clock())
        done = [e for e in await self.store.daily_entries(day) if e.finished_at is not None]
        return sorted(done, key=lambda e: (not e.won, -(e.score if e.score is not None else -1),
                                           -(e.kills or 0), e.seconds or 0.0, e.user_id))

    async def daily_attempt(self, user_id: int, day: str | None = None) -> DailyEntry | None:
        day = day or daily_day(self.clock())
        return next((e for e in await self.store.daily_entries(day) if e.user_id == user_id), None)

    # ----- stats -----------------------------------------------------------------------
    async def stats(self, guild_id: int | None, game: str | None = None, user_id: int | None = None) -> list[dict[str, Any]]:
        rows = await self.store.stats(guild_id, game, user_id)
        for r in rows:
            r["rating"] = wilson_lower_bound(r["won"], r["played"])
        rows.sort(key=lambda r: (r["game"], -r["rating"], -r["played"], r["name"]))
        return rows


def daily_day(now: float) -> str:
    """The UTC date of ``now`` (unix seconds), e.g. ``"2026-11-23"``: the daily challenge's name."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def daily_seed(day: str) -> int:
    """The day's deal: the same 63-bit seed for everyone, from the date alone."""
    return int.from_bytes(hashlib.blake2s(f"deckhand-daily:{day}".encode(), digest_size=8).digest(), "big") >> 1


def wilson_lower_bound(wins: int, games: int, z: float = 1.96) -> float:
    """A win rate that one lucky game cannot top: the 95% Wilson score lower bound."""
    if games == 0:
        return 0.0
    p = wins / games
    denom = 1 + z * z / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / denom


def format_duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds % 86400 == 0:
        return f"{seconds // 86400} d"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def about(seconds: float) -> str:
    """A length of time in plain words, rounded as a person would: "6 h", "25 min", "2 min 30 s"."""
    seconds = max(0, round(seconds))
    if seconds >= 2 * 3600:
        return f"{round(seconds / 3600)} h"
    if seconds >= 10 * 60:
        return f"{round(seconds / 60)} min"
    minutes, rest = divmod(seconds, 60)
    return " ".join(part for part in (f"{minutes} min" if minutes else "", f"{rest} s" if rest else "") if part) \
        or "0 s"
