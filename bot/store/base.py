"""What every store back end shares: the rows (:class:`TableRow`, :class:`Seat`, :class:`Draft`),
the errors, the :class:`TableStore` Protocol; the encoding of a row's columns is ``bot.store.rows``.

Storage layout (the same on SQLite and PostgreSQL, see ``migrations/``):

* ``tables``: one row per channel, the current table. ``state``, ``seats``, ``options``,
  ``events`` and ``series`` are JSON text (kept byte for byte as written). ``deadline`` is
  ``turn_since + turn_limit`` while the table is playing and not timed out, else NULL (kept for
  operators; not indexed). ``alarm`` is the next time the turn-limit sweep must look at a playing table: the
  warning when a quarter of the turn limit is left (once per turn: ``warned_for`` is the
  ``turn_since`` of the turn already warned), else the deadline; it is indexed and the sweep reads
  only rows whose alarm is due (:meth:`TableStore.due`), never decoding the others.
* ``moves``: the move log, one row per move ``(table_id, ply, entry)``. A save appends the moves
  the row gained since it was loaded and bumps the revision, in one transaction; the row never
  carries the log. ``get`` returns the moves in order.
* Snapshots: a move does not rewrite ``state``. The state is written when a game starts, every
  :data:`SNAPSHOT_EVERY` moves and when the table leaves play; ``state_ply`` says how many moves
  of the log it holds (NULL: all of them), and a load replays the moves after it
  (``bot.tables.load_game``). A move costs one row of the log plus the row's small columns.
* ``records`` and ``results``: finished (and abandoned) games. A record already holds the moves,
  so when a table's record is written its move-log rows are deleted and the row points at the
  record (``record_id``): the moves are kept once. A table with a record reads its moves back from
  the record, as ``[seat, move, None]`` (the move times are not kept after the game). The row keeps
  the final state (rematches and the final picture need it) and the last few public events.
* ``set_aside``: the raw content of damaged rows that were set aside (:meth:`TableStore.set_aside`).
* ``drafts``: a picker's partial action, by (table, seat, decision revision), named by a short id.
* ``interactions``: ids of Discord interactions already handled (a delivery twice is applied once).
* ``tables.message_id``: the table's one public message, which every action edits in place. It is
  read and written on its own (:meth:`TableStore.message_id`), never by ``save``, and belongs to the
  table it was recorded for (``message_table``): a new table in the channel starts without one.
* ``tables.message_shows``: the revision that message last showed (:meth:`TableStore.mark_shown`,
  in batches after the edits): a table whose message is behind (:meth:`TableStore.behind`) is edited
  when the bot starts again.
* ``daily``: the daily challenge, one attempt per (UTC day, user): its table and how it ended.
* ``ratings``: one rating per (guild, game, user) (``bot.ratings``): the model's μ and σ, the
  conservative ``ordinal`` (μ − 3σ) the leaderboard is ordered by, games rated, the display points
  the last game moved it. ``rated_games``: the key (table id) of every game already rated, written
  in the same transaction as its ratings, so a game is rated once. ``jobs``: one-off work done
  (the rating of the games finished before ratings existed).
* ``watchers``: messages elsewhere (another channel, a DM) that follow one table (its ``table_id``),
  each with the revision it last showed and its watcher's language; ``watch_invites``: the codes a player of a table in a DM
  gives friends so they may watch it. Both go when the table's game ends.

Damaged rows: a row whose columns cannot be decoded (a cut-off state, garbage seats, an unknown
game, an unreadable move) makes :meth:`TableStore.get` raise :class:`DamagedTable`; listings and
the sweep skip it and log it once per process; ``set_aside`` copies the raw row to ``set_aside``
and leaves an empty abandoned table in the channel, so ``/game new`` works again.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from bot.store.packed import MoveLog, PackedState, unpacked  # noqa: F401  (re-exported: rows hold them)

log = logging.getLogger("bot.store")

STATUSES = ("lobby", "playing", "finished", "abandoned")
WARN_FRACTION = 0.75  # the player to act is warned when a quarter of the turn limit is left
SNAPSHOT_EVERY = 32  # moves between two writes of a playing table's state (a load replays fewer)


class StoreError(Exception):
    """The database failed; the message names the cause (disk full, read-only file, …)."""


class StaleRevision(StoreError):
    """Someone else committed to this table first."""


class AlreadySeen(StoreError):
    """The interaction saved with a change was handled already (Discord delivered it twice):
    nothing was written."""


class SchemaTooNew(StoreError):
    """The database was written by a newer Deckhand than this one."""


class StaleRatings(StoreError):
    """A player's rating changed between reading it and saving the game's new ratings."""


class DamagedTable(StoreError):
    """A stored table cannot be read. It can be set aside with ``set_aside(channel_id)``."""

    def __init__(self, channel_id: int, reason: str):
        super().__init__(f"The table in channel {channel_id} is damaged: {reason}.")
        self.channel_id = channel_id
        self.reason = reason


def new_table_id() -> str:
    """A table's unique id: new for every game (a rematch is a new table)."""
    return secrets.token_hex(8)


def new_draft_id() -> str:
    return secrets.token_hex(6)  # 12 characters [0-9a-f]: fits a custom_id beside the rest


BOT_THINKING = "thinking"  # a table's series key: since when a bot seat thinks over its move (bot.tables.thinking)


@dataclass
class Seat:
    """Who sits at a seat. ``level``: a bot seat's level (``easy``, ``normal``, ``strong``); None
    for a person, and for a bot seated before levels existed (it plays as Normal)."""

    user_id: int
    name: str
    level: str | None = None


@dataclass
class TableRow:
    """A channel's table as stored. ``state`` is the engine's JSON (None in the lobby).

    ``table_id`` is empty until the table is first saved (``save(table, None)`` gives it a new
    one); ``damaged`` is None for a sound table; a table that was set aside is an empty abandoned
    table whose ``damaged`` says why (its raw content is kept in ``set_aside``).
    """

    channel_id: int
    guild_id: int | None
    game: str
    status: str  # lobby | playing | finished | abandoned
    host_id: int
    seats: list[Seat]
    options: list[str]
    seed: int
    state: dict[str, Any] | PackedState | None = None  # a PackedState in the table service's cache
    moves: MoveLog | list[list[Any]] = field(default_factory=MoveLog)  # [seat, move, unix time]
    events: list[str] = field(default_factory=list)  # recent public events, newest last
    revision: int = 0
    turn_limit: int = 24 * 3600
    turn_since: float | None = None
    timed_out: bool = False
    series: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0
    game_clock: float | None = None  # seconds: a rulebook clock on the open decision (KRPD's Open Race)
    warned_for: float | None = None  # the turn (its turn_since) whose warning was sent
    table_id: str = ""  # unique per table (per game, a rematch is new): the store assigns it at the first save
    damaged: str | None = None
    # How many of ``moves`` the ``state`` already holds (a snapshot; the rest are replayed on load).
    # None: ``state`` holds every move (a row built in memory, or whose state was just set).
    state_ply: int | None = None

    # Two notes kept beside the row, not fields of it (not compared, copied by asdict or shown):
    # ``live``: the current game (an engine ``Game``) when the table service has it, never stored;
    # a save that writes a snapshot takes the state from it (``live.to_json()``).
    # ``saved_moves``: how many moves the store holds for this row at ``revision`` (set by get and
    # save): a save appends only the moves after it without reading the row first. None: unknown.
    live = None
    saved_moves = None
    # ``message_id``: the table message (as stored with this table), when the row was read from the store.
    message_id = None
    # ``stored_warned``: ``(warned_for,)`` as the store holds it at ``revision`` (set by get and save),
    # None: unknown. The sweep's warning marks a turn warned without bumping the revision (the
    # table's buttons stay valid), so a save checks this beside the revision: a change computed
    # from the row before that mark is refused as stale, never writing over it.
    stored_warned = None
    # ``held``: the table service's cache of hot rows holds this row. Its game is kept in the cache
    # of games (bot.tables.games), packed once it is not among the most recent, never on the row.
    held = False
    # ``snapshot_unsaved``: ``state`` (at ``state_ply``) may not be in the store yet: a game that
    # started and moved in one change (bot seats playing at once) writes its start state with it.
    snapshot_unsaved = False

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    def snapshot_due(self, every: int = SNAPSHOT_EVERY) -> tuple[dict[str, Any] | None, int] | None:
        """The (state, state_ply) a save must write, or None when the stored snapshot may stay.

        Written: a state that holds every move (``state_ply`` None: the game just started, or a
        caller set it), a table out of play (its final state, once), a log cut short under its
        snapshot, or every ``every`` moves of a playing table (from ``live``)."""
        n = len(self.moves)
        if self.state is None:
            return (None, 0) if self.state_ply is None else None
        if self.state_ply is None:
            return self.state, n
        behind = n - self.state_ply
        if self.snapshot_unsaved and behind >= 0 and (self.live is None or (self.status == "playing" and behind < every)):
            return self.state, self.state_ply
        if behind < 0:  # the log was cut under the snapshot: the state is taken to hold what is left
            return (self.live.to_json() if self.live is not None else self.state), n
        if self.live is None or behind == 0:
            return None
        if self.status != "playing" or behind >= every:
            return self.live.to_json(), n
        return None

    @property
    def deadline(self) -> float | None:
        """When the current turn runs out (None if no turn clock is running)."""
        if self.status != "playing" or self.turn_since is None:
            return None
        limited = self.turn_limit > 0  # 0: the table has no turn limit (a rulebook clock still runs)
        if self.game_clock is not None:  # the rulebook's clock runs even after the turn limit was told
            if not limited:
                return self.turn_since + self.game_clock
            return self.turn_since + min(self.game_clock, self.turn_limit if not self.timed_out else self.game_clock)
        if self.timed_out or not limited:
            return None
        return self.turn_since + self.turn_limit

    @property
    def warn_at(self) -> float | None:
        """When the player to act is warned (a quarter of the turn limit left), once per turn;
        None for a solo table, a turn already warned or told it is up, or no turn clock."""
        if (self.status != "playing" or self.turn_since is None or self.timed_out or len(self.seats) < 2
                or self.turn_limit <= 0):
            return None
        if self.warned_for == self.turn_since:
            return None
        return self.turn_since + self.turn_limit * WARN_FRACTION

    @property
    def alarm(self) -> float | None:
        """The next time the sweep must look at this table: the warning or the deadline, or at once
        while a bot seat is thinking (``BOT_THINKING``: a restart resumes it)."""
        thinking = self.series.get(BOT_THINKING) if self.status == "playing" and self.series else None
        if not isinstance(thinking, (int, float)):
            thinking = None
        times = [x for x in (self.warn_at, self.deadline, thinking) if x is not None]
        return min(times) if times else None


@dataclass(frozen=True)
class Draft:
    """A picker's partial action: the tokens chosen so far by ``seat`` in the decision that
    opened at ``decision_rev`` of table ``table_id``."""

    id: str
    table_id: str
    seat: int
    decision_rev: int
    tokens: list[Any]
    created_at: float


@dataclass(frozen=True)
class DailyEntry:
    """One player's attempt at a day's challenge. ``finished_at`` is None while it is played."""

    day: str
    user_id: int
    name: str
    table_id: str
    started_at: float
    finished_at: float | None = None
    won: bool | None = None
    score: int | None = None
    kills: int | None = None

    @property
    def seconds(self) -> float | None:
        return None if self.finished_at is None else self.finished_at - self.started_at


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one game on one server (see ``bot.ratings`` for what it means)."""

    guild_id: int
    game: str
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the leaderboard is ordered by
    games: int  # games rated
    last_change: int  # display points the last rated game moved it
    updated_at: float


@dataclass(frozen=True)
class FinishedRecord:
    """A stored game record with its results (the people's ids and how each did), for rating
    the games finished before ratings existed."""

    id: int
    table_id: str | None
    guild_id: int | None
    game: str
    result: str  # finished | abandoned
    record: Any  # the record (JSON), None if it cannot be read
    finished_at: float
    results: tuple[tuple[int, str, str], ...]  # (user_id, name, outcome)


@dataclass(frozen=True)
class StoredRecord:
    """A stored game record for the replay viewer: where it was played, how it ended, its people
    (their ids and outcomes, seat order, bots left out) and, for a daily deal, its day."""

    id: int
    channel_id: int
    guild_id: int | None
    table_id: str | None
    game: str
    result: str  # finished | abandoned
    record: Any  # the record (JSON), None if it cannot be read
    finished_at: float
    people: tuple[tuple[int, str, str], ...]  # (user_id, name, outcome)
    daily: str | None = None  # the day of a daily challenge's game


@runtime_checkable
class TableStore(Protocol):
    """One store, safe for any number of concurrent tables in one event loop."""

    async def close(self) -> None: ...

    async def migrate(self) -> int:
        """Apply pending migrations (guarded against a second process); returns the schema version."""

    async def get(self, channel_id: int, known: TableRow | None = None) -> TableRow | None:
        """The channel's table; raises DamagedTable if it cannot be read. ``known``: a row of this
        channel the caller holds; when the stored row is at its table and revision, its move log
        is not read again (one round trip either way)."""

    async def tables(self, status: str | None = None) -> list[TableRow]:
        """Every table (of a status), damaged ones skipped and logged once."""

    async def due(self, now: float, limit: int = 100, after: tuple[float, int] | None = None, *,
                  shards: tuple[int, Collection[int]] | None = None) -> list[TableRow]:
        """Up to ``limit`` playing tables whose alarm (warning or deadline) is at or before ``now``,
        earliest first, after the ``(alarm, channel_id)`` key of the previous page; damaged ones are
        skipped and taken out of the sweep (their alarm cleared). ``shards=(count, ids)`` keeps the
        tables of those shards only (a guild's shard is ``(guild_id >> 22) % count``, a DM's is 0):
        each process of a shard cluster sweeps its own."""

    async def save(self, table: TableRow, expected_revision: int | None, record: dict[str, Any] | None = None,
                   result: str = "", results: Sequence[tuple[int, str, str]] = ()) -> None:
        """Write ``table`` (appending its new moves) and a finished game's record in one
        transaction. ``expected_revision`` None replaces whatever was there; otherwise
        StaleRevision if the stored revision is not that one."""

    async def save_many(self, tables: Sequence[tuple[TableRow, int]]) -> list[bool]:
        """Several tables' changes (each ``(table, expected_revision)``; no record, no interaction)
        in one transaction, each written as ``save`` would: True for each written, False for each
        whose stored revision moved (nothing of that one written; the others are)."""

    async def set_aside(self, channel_id: int, reason: str | None = None) -> bool:
        """Copy the raw row to ``set_aside`` and leave an empty abandoned table; False if none."""

    async def delete(self, channel_id: int) -> None: ...

    async def last_record(self, channel_id: int) -> dict[str, Any] | None: ...

    async def stats(self, guild_id: int | None, game: str | None, user_id: int | None) -> list[dict[str, Any]]: ...

    async def put_draft(self, table_id: str, seat: int, decision_rev: int, tokens: Sequence[Any],
                        draft_id: str | None = None) -> str: ...

    async def get_draft(self, draft_id: str) -> Draft | None: ...

    async def seen_interaction(self, interaction_id: int | str) -> bool:
        """Remember an interaction id; True if it was seen before (then do not handle it again)."""

    async def message_id(self, channel_id: int) -> int | None:
        """The id of the channel's public table message (None if none was recorded)."""

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        """Record the channel's public table message (a new table starts with none)."""

    async def mark_shown(self, shown: Sequence[tuple[int, str, int]]) -> None:
        """Record, for each (channel, table id, revision), that the table's message shows that revision
        (a later one already recorded stays)."""

    async def behind(self, shards: tuple[int, Collection[int]] | None = None) -> list[int]:
        """The channels (of these shards) whose table message shows an older revision than the table's."""

    async def daily_claim(self, day: str, user_id: int, name: str, table_id: str, started_at: float) -> bool:
        """Take the user's one attempt of ``day`` (for the table ``table_id``); False if taken already."""

    async def daily_release(self, day: str, user_id: int, table_id: str) -> None:
        """Give back an attempt whose table could not be dealt (only while it names ``table_id``)."""

    async def daily_finish(self, table_id: str, finished_at: float, won: bool, score: int | None,
                           kills: int | None) -> bool:
        """Record how the attempt played at ``table_id`` ended (once); False if no open attempt has it."""

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        """Every attempt of ``day``, finished or not, in no particular order."""

    async def ratings(self, guild_id: int, game: str, user_ids: Collection[int]) -> dict[int, PlayerRating]:
        """The stored ratings of these users in ``game`` on ``guild_id``, by user id (none: unrated)."""

    async def save_ratings(self, key: str, guild_id: int, game: str, rows: Sequence[PlayerRating],
                           expected: Mapping[int, int], rated_at: float) -> bool:
        """Write a game's new ratings and remember its ``key`` (its table id), in one transaction.
        False, writing nothing, if ``key`` was rated before. Raises StaleRatings, writing nothing,
        if a player's stored games count is not ``expected[user_id]`` (0: no rating yet)."""

    async def is_rated(self, key: str) -> bool:
        """Whether the game of ``key`` (its table id) was rated."""

    async def leaderboard(self, guild_id: int, game: str, min_games: int = 1, limit: int = 10) -> list[PlayerRating]:
        """The best ``limit`` ratings of ``game`` on ``guild_id`` with at least ``min_games`` games,
        highest ``ordinal`` first (then most games, then user id)."""

    async def player_ratings(self, guild_id: int, user_id: int, game: str | None = None) -> list[PlayerRating]:
        """A player's ratings on ``guild_id`` (in ``game`` only, if given), by game."""

    async def rating_place(self, guild_id: int, game: str, user_id: int, min_games: int = 1) -> int | None:
        """The player's place (1 = first) on the leaderboard of ``game``; None if not on it."""

    async def finished_records(self, after: tuple[float, int] | None, limit: int) -> list[FinishedRecord]:
        """Up to ``limit`` stored records in the order they finished (by ``finished_at``, then id),
        after the ``(finished_at, id)`` of the previous page, each with its results."""

    async def recent_records(self, channel_id: int, guild_id: int | None, user_id: int,
                             limit: int = 25) -> list[StoredRecord]:
        """The newest records first: this channel's, and those of the same server that ``user_id``
        played in (the replay viewer's list)."""
        ...

    async def stored_record(self, record_id: int) -> StoredRecord | None:
        """One record by id, with its people and daily day (None: no such record)."""
        ...

    async def live_tables(self, guild_id: int, limit: int = 100) -> list[LiveTable]:
        """The tables in play on ``guild_id``, most recently moved first."""

    async def add_watcher(self, table_id: str, table_channel: int, user_id: int, channel_id: int, message_id: int,
                          token: str | None = None, until: float | None = None, shows: int = 0,
                          lang: str = "") -> WatcherRow:
        """Remember a message that follows table ``table_id``, read in ``lang`` (its watcher's language;
        "": the table's); the row, with its new id."""

    async def watchers(self, table_id: str | None = None) -> list[WatcherRow]:
        """The watchers of ``table_id`` (None: of every table), oldest first."""

    async def drop_watchers(self, ids: Collection[int]) -> int:
        """Forget these watchers (a message closed, gone or refused); how many were forgotten."""

    async def end_watching(self, table_id: str) -> None:
        """Forget the watchers and watch invites of ``table_id`` (its game is over)."""

    async def mark_watchers_shown(self, shown: Sequence[tuple[int, int]]) -> None:
        """Record, for each (watcher id, revision), that its message shows that revision (a later one stays)."""

    async def put_watch_invite(self, code: str, table_id: str, table_channel: int, user_id: int) -> None:
        """Remember a code that lets anyone who has it watch table ``table_id``."""

    async def watch_invite(self, code: str) -> tuple[str, int] | None:
        """(table id, its channel) that ``code`` lets one watch, or None."""
    async def all_ping_prefs(self) -> list[PingPref]:
        """Every preference kept (the default, every turn, keeps no row): read once at start-up."""
        ...

    async def set_ping_pref(self, pref: PingPref, updated_at: float) -> None:
        """Keep ``pref`` (``every``: the default, forgets the row)."""

    async def put_ping_waits(self, waits: Sequence[PingWait]) -> None:
        """Hold these pings back (one a channel and user: a newer one replaces the older)."""

    async def due_ping_waits(self, now: float, limit: int = 100, *,
                             shards: tuple[int, Collection[int]] | None = None) -> list[PingWait]:
        """Up to ``limit`` held pings due at ``now`` (of these shards), earliest first; each is taken
        out (the caller sends it or finds it is no longer wanted)."""
        ...

    async def lesson(self, user_id: int, game: str) -> tuple[list[list[str]], int] | None:
        """A player's lesson of ``game``: its presses (the moves of each) and revision, or None."""

    async def save_lesson(self, user_id: int, game: str, presses: Sequence[Sequence[str]], expected: int | None) -> bool:
        """Keep the lesson's presses (revision ``len(presses)``) if its stored revision is still
        ``expected`` (None: no lesson kept); False, nothing written, otherwise."""
        ...

    async def offer_lesson(self, user_id: int, game: str) -> bool:
        """Note that ``game``'s lesson was offered to the player: True the first time only."""
        ...

    async def job_done(self, name: str) -> bool:
        """Whether the one-off job ``name`` was marked done."""

    async def mark_job_done(self, name: str) -> None: ...


class DamageLog:
    """Logs each damaged table once per process (per reason)."""

    def __init__(self) -> None:
        self._seen: set[tuple[int, str]] = set()

    def report(self, e: DamagedTable) -> None:
        key = (e.channel_id, e.reason)
        if key not in self._seen:
            self._seen.add(key)
            log.error("%s It is skipped; set it aside with `/game abandon` (store.set_aside).", e)


def shard_ids(shards: tuple[int, Collection[int]] | None) -> tuple[int, list[int]] | None:
    """``due``'s shard filter checked: (count, sorted ids), or None for every table."""
    if shards is None:
        return None
    count, ids = int(shards[0]), sorted({int(i) for i in shards[1]})
    if count < 1 or not ids or ids[0] < 0 or ids[-1] >= count:
        raise ValueError(f"shards must be (count, ids) with ids from 0 to count - 1, not {shards!r}")
    return count, ids


def known_games() -> tuple[str, ...]:
    from bot.engine.registry import GAME_IDS

    return GAME_IDS


# The encoding and decoding of rows (bot.store.rows) is imported from here too; imported last, as it
# builds on the rows above.
from bot.store.rows import (  # noqa: E402, F401
    ROW_COLUMNS, _Damage, _json, daily_entry, decode_row, dumps, encode_row, finished_record, known_log, move_texts,
    player_rating, prepare_save, stored_record, warned_guard, wrote_snapshot,
    LiveTable, PingPref, PingWait, WatcherRow, live_table, watcher_row,
)
