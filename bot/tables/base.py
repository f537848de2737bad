"""The table service's shared parts: its errors, who acts, what a change did, and the one
write path (the channel's lock → the row → the change → one save, checked against the revision)."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
import time
import weakref
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from bot.engine.core import Game
from bot.ratings import RatingChange, record_result
from bot.records import make_record
from bot.store import MoveLog, PackedState, StaleRevision, Store, StoreError, TableRow
from bot.store.base import BOT_THINKING
from bot.tables.errors import StaleError, TableError
from bot.tables.games import GAMES, MB, load_game, row_bytes

log = logging.getLogger("bot.tables")

if TYPE_CHECKING:
    from bot.tables.clock import Notice

DEFAULT_TURN_LIMIT = 24 * 3600
MIN_TURN_LIMIT = 60
KEEP_EVENTS = 40
MAX_MOVE_TEXT = 4000
MAX_SKIP_STEPS = 200  # a skipped turn is played to its end, within reason
MAX_BOT_STEPS = 1000  # bot seats play at once after every change, within reason (a few ms a step)
BOT_NAME = "Deckhand bot"


@dataclass(frozen=True)
class Actor:
    """Who is acting: a Discord user (or a terminal player)."""

    user_id: int
    name: str
    can_manage: bool = False  # Manage Messages in the channel
    lang: str = "en"  # the language the actor reads (their Discord language): en, es or de
    table_lang: str = "en"  # the language of a table the actor opens: the server's, or the actor's in a DM


@dataclass
class Change:
    """What an action did: the table after it, public and private events, who to ping."""

    table: TableRow
    events: list[str] = field(default_factory=list)
    private: dict[int, list[str]] = field(default_factory=dict)  # seat -> texts
    pings: list[int] = field(default_factory=list)  # user ids whose turn it now is
    finished: bool = False
    record: dict[str, Any] | None = None
    secret: bool = False  # the move stays hidden from the others (``Game.redact``): the mover is told it is secret
    ratings: list[RatingChange] = field(default_factory=list)  # each person's change when a rated game ends
    notice: Notice | None = None  # the sweep's short message (a warning, time up, a clock run out)
    # Nothing a player sees on the table changed (the sweep's warning): saved without bumping the
    # revision, so the table message needs no edit and its buttons stay valid. The store's check of
    # the warning mark beside the revision (TableRow.stored_warned) keeps a lost update impossible.
    quiet: bool = False


def table_key(table: TableRow) -> str:
    """A short id naming this table (not just its channel): a new game gets a new one."""
    tid = getattr(table, "table_id", None)
    if tid:
        return str(tid)
    digest = hashlib.blake2s(f"{table.created_at!r}:{table.seed}".encode(), digest_size=5).hexdigest()
    return digest


def _working_copy(row: TableRow) -> TableRow:
    """A copy of a cached row that a change may alter (its lists and series are its own)."""
    t = copy.copy(row)
    t.seats, t.events, t.options = list(row.seats), list(row.events), list(row.options)
    t.moves = MoveLog.of(row.moves)  # compact (a list of texts), whatever the row held
    t.series = dict(row.series)
    t.held = False
    return t


def is_bot(user_id: int) -> bool:
    """Bot seats (the built-in player, added with **Add … bot** at a level) have negative user ids."""
    return user_id < 0


def acting_users(table: TableRow, game: Game | None = None) -> set[int]:
    if table.status != "playing":
        return set()
    game = game or load_game(table)
    return {table.seats[s].user_id for s in game.to_act()}



class _Rows:
    """The last saved row of recent channels, least recently saved dropped first once their
    estimated size passes ``max_bytes`` (a long game's row weighs more than a short one's). A
    row's state is held packed (:class:`~bot.store.PackedState`); a change rarely reads it (its
    game is cached beside it)."""
    # bench: event loop blocked — a full collection over 1,000 hot tables walked each row's lists and dicts

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._rows: OrderedDict[int, tuple[TableRow, int]] = OrderedDict()
        # Rows taken out while a change of their channel is in flight, as long as that change holds
        # them: a read for a reader meanwhile (``get``) borrows the move log — the store lends it
        # only to the same table at the same revision (bot.store.base.known_log); the change
        # appends to a copy of it (_working_copy) — instead of reading the whole log again.
        self._taken: weakref.WeakValueDictionary[int, TableRow] = weakref.WeakValueDictionary()

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, channel_id: int) -> TableRow | None:
        found = self._rows.get(channel_id)
        return found[0] if found is not None else None

    def known(self, channel_id: int) -> TableRow | None:
        """The row held, else the one a change in flight took out (for a read to borrow its log)."""
        found = self._rows.get(channel_id)
        return found[0] if found is not None else self._taken.get(channel_id)

    def taken(self, channel_id: int) -> TableRow | None:
        """The row a change in flight took out (the last one saved), if that change still holds it."""
        return self._taken.get(channel_id)

    def pop(self, channel_id: int, default: TableRow | None = None) -> TableRow | None:
        found = self._rows.pop(channel_id, None)
        if found is None:
            return default
        self.bytes -= found[1]
        self._taken[channel_id] = found[0]
        return found[0]

    def clear(self) -> None:
        """Forget every row (the next change of each channel reads the store)."""
        self._rows.clear()
        self._taken.clear()
        self.bytes = 0

    def put(self, table: TableRow, drop_game: bool = False) -> None:
        if isinstance(table.state, dict):  # one object for the collector, not one per list of the state
            table.state = PackedState(table.state)
        table.held = True
        if drop_game:  # its game is in the cache of games (packed when not recent)
            table.live = None
        self.pop(table.channel_id)
        self._taken.pop(table.channel_id, None)  # a newer row is saved: the one taken out is behind
        size = row_bytes(table)
        self._rows[table.channel_id] = (table, size)
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._rows) > 1:
            _, (_, dropped) = self._rows.popitem(last=False)
            self.bytes -= dropped


class ServiceBase:
    """The table service's state and its one write path (see :class:`~bot.tables.service.TableService`)."""

    sweep_shards: tuple[int, tuple[int, ...]] | None = None  # (count, ids): a shard cluster's process sweeps its own
    rates_games = True  # a finished game updates its players' ratings
    ROW_CACHE_BYTES = 64 * MB  # the last saved rows kept for the next change, bounded in (estimated) bytes
    # Changes computed and saving at once: SQLite has one writer, PostgreSQL a pool of connections.
    IN_FLIGHT = {"sqlite": 4, "postgres": 8}

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # The row each recent channel's last change saved: the next change starts from it and
        # the save's revision check proves it current — one database hop per change.
        self._rows = _Rows(self.ROW_CACHE_BYTES)
        # At most this many changes computed and saving at once: a burst of presses waits here,
        # parked, instead of crowding one turn of the event loop with all their work.
        self._in_flight = asyncio.Semaphore(self.IN_FLIGHT.get(getattr(store, "backend", ""), 4))

    def wake_thinking(self, channel_id: int) -> None:
        """A bot seat of the channel thinks over its move (``bot.tables.thinking``; here: nobody thinks)."""

    def _remember(self, table: TableRow) -> None:
        # The row's game goes to the cache of games; the row keeps it only if that cache did not
        # take it (it holds a newer revision of the table).
        kept = table.live is not None and GAMES.put(table, table.live)
        self._rows.put(table, drop_game=kept)

    # ----- reading -------------------------------------------------------------------
    def cached(self, channel_id: int) -> TableRow | None:
        """The row this process last saved for the channel (no store read; may be behind)."""
        return self._rows.get(channel_id)

    def last_saved(self, channel_id: int) -> TableRow | None:
        """:meth:`cached`, or while a change of the channel is in flight the row it took out: the
        row this process saved last, which the store holds until that change is saved (no store
        read; for what may be behind: a reader's words, a private panel whose moves are checked
        when played)."""
        row = self._rows.get(channel_id)
        if row is None:
            lock = self._locks.get(channel_id)
            if lock is not None and lock.locked():
                row = self._rows.taken(channel_id)
        return row

    async def message_id(self, channel_id: int) -> int | None:
        return await self.store.message_id(channel_id)

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        await self.store.set_message_id(channel_id, message_id)
        row = self._rows.get(channel_id)
        if row is not None:  # the next change's row (and its readers) carry it: no read to find it
            row.message_id = message_id

    async def mark_shown(self, shown: Sequence[tuple[int, str, int]]) -> None:
        await self.store.mark_shown(shown)

    async def behind(self) -> list[int]:
        """This process's channels whose table message shows an older revision than its table's."""
        return await self.store.behind(self.sweep_shards)

    async def last_record(self, channel_id: int) -> dict[str, Any] | None:
        return await self.store.last_record(channel_id)

    async def set_aside(self, channel_id: int, reason: str | None = None) -> bool:
        """Set a damaged table aside (its raw row kept for an operator): the channel can play again."""
        async with self._locks[channel_id]:
            self._rows.pop(channel_id, None)
            return await self.store.set_aside(channel_id, reason)

    async def get(self, channel_id: int) -> TableRow | None:
        # The row this process holds lends its move log when the stored row is still at it.
        return await self.store.get(channel_id, known=self._rows.known(channel_id))

    async def require(self, channel_id: int) -> TableRow:
        table = await self.store.get(channel_id, known=self._rows.get(channel_id))
        if table is None:
            raise TableError("There is no table in this channel. Start one with `/game new`.")
        return table

    # ----- the one write path --------------------------------------------------------
    async def _update(self, channel_id: int, fn: Callable[[TableRow], Change], *, revision: int | None = None,
                      fresh: TableRow | None = None, interaction: int | None = None) -> Change:
        """Change a table and save it. ``fresh``: the row as just read from the store (the sweep's
        due rows), used instead of this process's cached row."""
        async with self._locks[channel_id], self._in_flight:
            cached = self._rows.pop(channel_id, None)
            if fresh is not None:
                cached = fresh
            if cached is not None:  # one hop: the save's revision check proves the cached row current
                try:
                    return await self._change(_working_copy(cached), fn, revision, interaction)
                except (TableError, StaleRevision):
                    # Refused or stale: the cached row may be behind the store; decide on the stored one
                    # (a refusal of the same revision stands as it is).
                    stored = await self.require(channel_id)
                    if (stored.revision == cached.revision and stored.table_id == cached.table_id
                            and stored.warned_for == cached.warned_for):  # a warning keeps the revision
                        self._remember(cached)
                        raise
                    return await self._change(stored, fn, revision, interaction)
            return await self._change(await self.require(channel_id), fn, revision, interaction)

    async def _change(self, table: TableRow, fn: Callable[[TableRow], Change], revision: int | None,
                      interaction: int | None = None) -> Change:
        """Compute the change on ``table`` and save it in one transaction, with ``interaction`` (the
        press's id) remembered in the same write: one round trip to the store for a cached table."""
        if revision is not None and revision != table.revision:
            raise StaleError()
        before, moves = table.revision, len(table.moves)
        change = fn(table)
        self._play_bots(change)
        if change.quiet and (change.events or change.finished or len(change.table.moves) != moves):
            change.quiet = False  # bot seats played in it: the table shows it
        change.table.revision = before if change.quiet else before + 1
        record, result, results = None, "", []
        if change.finished:
            record, result, results = self._finish(change.table)
            change.record = record
        if change.table.status != "playing" and change.table.state is not None:
            load_game(change.table)  # out of play: the final state is written once, as the snapshot
        try:
            await self.store.save(change.table, before, record, result, results, interaction_id=interaction)
        except StaleRevision:
            raise TableError("Someone else moved at the same moment; look at the table and try again.") from None
        self._remember(change.table)
        if change.table.status == "playing" and change.table.series.get(BOT_THINKING) is not None:
            self.wake_thinking(change.table.channel_id)  # a Strong seat to act: thought for off the loop
        if change.finished:
            await self._after_finish(change.table)
            if self.rates_games:  # the game is saved; its ratings follow (a game is rated once)
                try:
                    change.ratings = await record_result(self.store, change.table, load_game(change.table))
                except StoreError as e:
                    log.error("could not rate table %s: %s", change.table.table_id, e)
            if change.table.series.get("tournament"):  # its round hears of it (bot.tables.tournaments)
                from bot.tables.tournaments import table_ended

                await table_ended(self, change.table)
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

