"""The SQLite store (the default: one file, nothing to install).

Each operation is one function run whole on a connection's own thread: writes on the writer
connection (one thread, so one transaction at a time, never interleaved — any number of tables
may save at once), reads on a reader connection in a read transaction (WAL: readers never wait
for the writer). The calls are made in groups (``bot.store.sqlite_group``): the writes asked in
one turn of the loop, or while the writer is busy, share one ``BEGIN IMMEDIATE … COMMIT``, each in
a savepoint of its own, so one that fails is rolled back alone; a write is answered after its
group's COMMIT. A failure rolls back only if a transaction is still open (SQLite ends it itself
on a full disk) and is raised as a :class:`StoreError` naming the cause. Migrations run under
``BEGIN EXCLUSIVE``, so a second process opening the same file waits and then finds them
applied. The WAL is written back to the database file by a checkpointer of its own (a third
connection and thread) every few hundred writes, never inside a commit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.store.base import (
    AlreadySeen, DamagedTable, DamageLog, Draft, SchemaTooNew, StaleRevision, StoreError, TableRow, decode_row, dumps,
    known_games, known_log, move_texts, new_draft_id, prepare_save, shard_ids, warned_guard, wrote_snapshot,
)
from bot.store.migrations import migrations, statements
from bot.store.sqlite_conn import CHECKPOINT_EVERY, StoreThread, cause_of, checkpoint_wal, no_autocheckpoint, rollback, use_wal
from bot.store.sqlite_extras import (SQLiteDaily, SQLiteLessons, SQLitePings, SQLiteRatings, SQLiteReplays,
                                     SQLiteWatchers)
from bot.store.sqlite_group import Grouped, read_group, write_group

T = TypeVar("T")
log = logging.getLogger(__name__)

MIGRATIONS = migrations("sqlite")
SCHEMA_VERSION = MIGRATIONS[-1][0]  # the last number (a reserved one may be missing)

class SQLiteStore(SQLiteDaily, SQLiteRatings, SQLiteReplays, SQLiteWatchers, SQLitePings, SQLiteLessons):
    """``await SQLiteStore.open(path)``. Safe for any number of concurrent tables in one loop."""

    backend = "sqlite"

    def __init__(self, path: Path, writer: StoreThread, reader: StoreThread, games: Collection[str],
                 checkpointer: StoreThread | None = None):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer  # None: an in-memory database (no WAL)
        self._commits = 0  # writes since the last checkpoint was started
        self._checkpoint: asyncio.Task[Any] | None = None
        self.games = games
        self.damage = DamageLog()
        self._writes = Grouped(writer, lambda conn, calls: write_group(conn, calls, self._write_error), self._committed)
        self._reads = Grouped(reader, lambda conn, calls: read_group(conn, calls, self._read_error))

    # ----- opening ---------------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: Path | str, *, games: Collection[str] | None = None) -> "SQLiteStore":
        memory = str(path) == ":memory:"
        path = Path(path)
        if not memory:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"Cannot create the folder of the database {path}: {e.strerror}.") from None
            if path.exists() and not os.access(path, os.W_OK):
                raise StoreError(f"The database file {path} is read-only: give Deckhand write access to it.")
            if not os.access(path.parent, os.W_OK):
                raise StoreError(f"The folder of the database {path} is read-only: Deckhand needs to write "
                                 "its journal files beside the database.")
        writer = StoreThread("store-writer")
        reader = writer if memory else StoreThread("store-reader")
        checkpointer = None if memory else StoreThread("store-checkpoint")
        store = cls(path, writer, reader, games if games is not None else known_games(), checkpointer)
        try:
            await writer.connect(str(path))
            await writer.run(use_wal)
            if reader is not writer:
                await reader.connect(str(path))
            if checkpointer is not None:
                await writer.run(no_autocheckpoint)
                await checkpointer.connect(str(path))
            await store.migrate()
        except sqlite3.Error as e:
            await store.close()
            raise StoreError(f"Cannot open the database {path}: {cause_of(e)} ({e}).") from None
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        await self._writes.drain()  # a group in flight (and any asked before close) is answered first
        await self._reads.drain()
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()  # the last connection closed checkpoints what is left

    def _committed(self, writes: int = 1) -> None:
        """Every ``CHECKPOINT_EVERY`` writes, a checkpoint on the checkpointer's own thread and
        connection (one at a time), while the writer goes on committing. Writes, not commits, are
        counted: the WAL grows with what is written, and a group's commit writes up to
        ``GROUP_LIMIT`` writes' pages, so counting commits would let it grow that much larger."""
        self._commits += writes
        if self._checkpointer is None or self._commits < CHECKPOINT_EVERY or \
                (self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._commits = 0
        self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_now(), name="store-checkpoint")

    async def _checkpoint_now(self) -> tuple[int, int, int] | None:
        assert self._checkpointer is not None
        try:
            return await self._checkpointer.run(checkpoint_wal)
        except sqlite3.Error as e:  # the next one tries again; the WAL keeps everything meanwhile
            log.warning("Could not checkpoint %s: %s (%s).", self.path, cause_of(e), e)
            return None

    async def migrate(self) -> int:
        """Apply the migrations not applied yet (under an exclusive lock); returns the schema version."""
        return await self._writer.run(self._migrate)

    def _migrate(self, conn: sqlite3.Connection) -> int:
        conn.execute("BEGIN EXCLUSIVE")  # a second process waits here, then finds the work done
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"The database {self.path} has schema version {version}, but this Deckhand knows versions up "
                    f"to {SCHEMA_VERSION}: run the newer Deckhand that wrote it (or restore a backup)."
                )
            for number, _name, sql in (m for m in MIGRATIONS if m[0] > version):
                for statement in statements(sql):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # also proves the file is writable
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise
        return SCHEMA_VERSION

    # ----- transactions ----------------------------------------------------------------------------
    def _write_error(self, what: str, e: sqlite3.Error) -> StoreError:
        err = StoreError(f"Could not {what} in {self.path}: {cause_of(e)} ({e}).")
        err.__cause__ = e
        return err

    def _read_error(self, what: str, e: sqlite3.Error) -> StoreError:
        err = StoreError(f"Could not {what} from {self.path}: {cause_of(e)} ({e}).")
        err.__cause__ = e
        return err

    def _write(self, what: str, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(conn, *args)`` in the next group of writes (bot.store.sqlite_group); the future
        is answered after its COMMIT."""
        return self._writes.call(what, fn, *args)

    def _read(self, what: str, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(conn, *args)`` in the next group of reads, in a read transaction."""
        return self._reads.call(what, fn, *args)

    # ----- reading tables --------------------------------------------------------------------------
    def _decode(self, conn: sqlite3.Connection, r: sqlite3.Row, known: TableRow | None = None) -> TableRow:
        record_text = None
        entries: Sequence[str] = []
        if r["record_id"] is not None:
            found = conn.execute("SELECT record FROM records WHERE id = ?", (r["record_id"],)).fetchone()
            record_text = found[0] if found else "null"
        elif (held := known_log(r, known)) is not None:
            entries = held
        elif r["move_count"]:
            cur = conn.cursor()
            cur.row_factory = None  # plain tuples: a long log is read without a Row object a move
            entries = [e for (e,) in cur.execute("SELECT entry FROM moves WHERE table_id = ? ORDER BY ply",
                                                 (r["table_id"],))]
        return decode_row(r, entries, record_text, self.games)

    def _decode_all(self, conn: sqlite3.Connection, rows: Sequence[sqlite3.Row]) -> tuple[list[TableRow],
                                                                                       list[DamagedTable]]:
        out, damaged = [], []
        for r in rows:
            try:
                out.append(self._decode(conn, r))
            except DamagedTable as e:
                damaged.append(e)
        return out, damaged

    async def get(self, channel_id: int, known: TableRow | None = None) -> TableRow | None:
        """The channel's table (None if there is none); raises DamagedTable if it cannot be read.
        ``known``: see :meth:`bot.store.base.TableStore.get`."""

        def fn(conn: sqlite3.Connection) -> TableRow | None:
            r = conn.execute("SELECT * FROM tables WHERE channel_id = ?", (channel_id,)).fetchone()
            return None if r is None else self._decode(conn, r, known)

        return await self._read("load a table", fn)

    async def tables(self, status: str | None = None) -> list[TableRow]:
        def fn(conn: sqlite3.Connection) -> tuple[list[TableRow], list[DamagedTable]]:
            if status is None:
                rows = conn.execute("SELECT * FROM tables ORDER BY channel_id").fetchall()
            else:
                rows = conn.execute("SELECT * FROM tables WHERE status = ? ORDER BY channel_id", (status,)).fetchall()
            return self._decode_all(conn, rows)

        out, damaged = await self._read("list tables", fn)
        for e in damaged:
            self.damage.report(e)
        return out

    async def due(self, now: float, limit: int = 100, after: tuple[float, int] | None = None, *,
                  shards: tuple[int, Collection[int]] | None = None) -> list[TableRow]:
        where, args = "alarm IS NOT NULL AND alarm <= ?", [now]
        if after is not None:
            where += " AND (alarm, channel_id) > (?, ?)"
            args += [after[0], after[1]]
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where += f" AND COALESCE((guild_id >> 22) % ?, 0) IN ({', '.join('?' * len(mine[1]))})"
            args += [mine[0], *mine[1]]

        def fn(conn: sqlite3.Connection) -> tuple[list[TableRow], list[DamagedTable]]:
            rows = conn.execute(f"SELECT * FROM tables WHERE {where} ORDER BY alarm, channel_id LIMIT ?",
                                (*args, limit)).fetchall()
            return self._decode_all(conn, rows)

        out, damaged = await self._read("find tables whose turn ran out", fn)
        for e in damaged:
            self.damage.report(e)
        if damaged:  # out of the sweep's index for good: they cannot time out until set aside
            ids = [(e.channel_id,) for e in damaged]
            await self._write("take damaged tables out of the sweep",
                              lambda c: c.executemany("UPDATE tables SET deadline = NULL, alarm = NULL "
                                                      "WHERE channel_id = ?", ids))
        return out

    # ----- writing tables --------------------------------------------------------------------------
    async def save(self, table: TableRow, expected_revision: int | None, record: dict[str, Any] | None = None,
                   result: str = "", results: Sequence[tuple[int, str, str]] = (),
                   interaction_id: int | str | None = None) -> None:
        """Write ``table`` and a finished game's record in one transaction: the row's small
        columns, the moves it gained since ``expected_revision`` appended to the move log, and its
        state only when a snapshot is due (:meth:`TableRow.snapshot_due`).

        ``expected_revision`` is the revision the change was computed from (None for a new table
        replacing whatever was there). Raises StaleRevision if it moved (or the table was replaced).
        """
        prepared = self._prepare(table, expected_revision)
        await self._write("save the table", lambda conn: self._save_in(conn, table, expected_revision, prepared, record,
                                                                      result, results, interaction_id))
        wrote_snapshot(table, prepared[0])

    async def save_many(self, tables: Sequence[tuple[TableRow, int]]) -> list[bool]:
        """Several tables' changes (no record, no interaction) in one transaction, each written as
        ``save(table, expected_revision)`` would; True for each written, False (nothing of it
        written, the others still are) for each whose stored revision is not the expected one."""
        todo = [(t, rev, self._prepare(t, rev)) for t, rev in tables]

        def fn(conn: sqlite3.Connection) -> list[bool]:
            out = []
            for t, rev, prepared in todo:
                try:
                    self._save_in(conn, t, rev, prepared, None, "", (), None)
                    out.append(True)
                except StaleRevision:  # raised before any of this table's writes
                    out.append(False)
            return out

        written = await self._write("save the tables", fn) if todo else []
        for (t, _, prepared), ok in zip(todo, written, strict=True):
            if ok:
                wrote_snapshot(t, prepared[0])
        return written

    @staticmethod
    def _prepare(table: TableRow, expected_revision: int | None) -> tuple[Any, ...]:
        """What a save writes, encoded before the transaction: (snapshot, column names, values,
        moves, moves the store holds, the new moves' entries)."""
        snap, cols = prepare_save(table, expected_revision)
        names = list(cols)
        values = list(cols.values())
        n = len(table.moves)
        known = table.saved_moves if expected_revision is not None else 0
        # Only the moves after what the store holds are encoded (when that is known): O(1) a move.
        fresh = move_texts(table.moves, known) if known is not None and known <= n else None
        return snap, names, values, n, known, fresh

    @staticmethod
    def _save_in(conn: sqlite3.Connection, table: TableRow, expected_revision: int | None, prepared: tuple[Any, ...],
                 record: dict[str, Any] | None, result: str, results: Sequence[tuple[int, str, str]],
                 interaction_id: int | str | None) -> None:
        """One table's save inside a transaction (StaleRevision before any write of it)."""
        _, names, values, n, known, fresh = prepared
        if interaction_id is not None and conn.execute(  # the press remembered in the same transaction
                "INSERT OR IGNORE INTO interactions (id, seen_at) VALUES (?, ?)",
                (str(interaction_id), time.time())).rowcount == 0:
            raise AlreadySeen(f"interaction {interaction_id} was handled already")
        if expected_revision is None:
            old = conn.execute("SELECT table_id FROM tables WHERE channel_id = ?", (table.channel_id,)).fetchone()
            if old is not None:
                conn.execute("DELETE FROM moves WHERE table_id = ?", (old[0],))
                conn.execute("DELETE FROM tables WHERE channel_id = ?", (table.channel_id,))
            conn.execute("DELETE FROM moves WHERE table_id = ?", (table.table_id,))
            conn.execute(f"INSERT INTO tables ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                         values)
            base = 0
        else:
            # The revision, and the warning mark the sweep writes at the same revision (see
            # TableRow.stored_warned), both as the change was computed from.
            guard = (table.channel_id, table.table_id, expected_revision, *warned_guard(table))
            if known is None:
                found = conn.execute("SELECT move_count FROM tables WHERE channel_id = ? AND table_id = ? "
                                     "AND revision = ? AND (NOT ? OR warned_for IS ?)", guard).fetchone()
                if found is None:
                    raise StaleRevision(table.channel_id)
                base = found[0]
            else:
                base = known
            cur = conn.execute(f"UPDATE tables SET {', '.join(f'{c} = ?' for c in names[2:])} "
                               "WHERE channel_id = ? AND table_id = ? AND revision = ? AND (NOT ? OR warned_for IS ?)",
                               (*values[2:], *guard))
            if cur.rowcount != 1:
                raise StaleRevision(table.channel_id)
            if n < base:
                conn.execute("DELETE FROM moves WHERE table_id = ? AND ply >= ?", (table.table_id, n))
        if n > base:
            entries = fresh if fresh is not None and base == known else move_texts(table.moves, base)
            conn.executemany("INSERT INTO moves (table_id, ply, entry) VALUES (?, ?, ?)",
                             [(table.table_id, base + i, e) for i, e in enumerate(entries)])
        if record is not None:
            cur = conn.execute(
                "INSERT INTO records (channel_id, table_id, guild_id, game, result, record, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table.channel_id, table.table_id, table.guild_id, table.game, result, dumps(record), time.time()),
            )
            record_id = cur.lastrowid
            conn.executemany(
                "INSERT INTO results (record_id, guild_id, game, user_id, name, outcome) VALUES (?, ?, ?, ?, ?, ?)",
                [(record_id, table.guild_id, table.game, u, name, o) for u, name, o in results],
            )
            # The record holds the moves: the log's copy goes (kept once).
            conn.execute("UPDATE tables SET record_id = ? WHERE channel_id = ?", (record_id, table.channel_id))
            conn.execute("DELETE FROM moves WHERE table_id = ?", (table.table_id,))

    async def set_aside(self, channel_id: int, reason: str | None = None) -> bool:
        """Keep a (damaged) table's raw row in ``set_aside`` and leave an empty abandoned table."""

        def fn(conn: sqlite3.Connection) -> bool:
            r = conn.execute("SELECT * FROM tables WHERE channel_id = ?", (channel_id,)).fetchone()
            if r is None:
                return False
            why = reason
            if why is None:
                try:
                    self._decode(conn, r)
                    why = "set aside by hand"
                except DamagedTable as e:
                    why = e.reason
            raw = dict(r)
            raw["move_log"] = [e for (e,) in conn.execute("SELECT entry FROM moves WHERE table_id = ? ORDER BY ply",
                                                          (r["table_id"],))]
            conn.execute("INSERT INTO set_aside (channel_id, table_id, reason, raw, set_at) VALUES (?, ?, ?, ?, ?)",
                         (channel_id, r["table_id"], why, dumps(raw), time.time()))
            conn.execute("DELETE FROM moves WHERE table_id = ?", (r["table_id"],))
            conn.execute(
                "UPDATE tables SET status = 'abandoned', seats = '[]', options = '[]', state = NULL, events = '[]', "
                "series = '{}', move_count = 0, turn_since = NULL, timed_out = 0, deadline = NULL, alarm = NULL, "
                "record_id = NULL, "
                "raw_moves = NULL, damaged = ?, revision = revision + 1, updated_at = ? WHERE channel_id = ?",
                (why, time.time(), channel_id),
            )
            return True

        return await self._write("set the table aside", fn)

    async def set_aside_rows(self, channel_id: int) -> list[dict[str, Any]]:
        """The raw rows set aside for a channel, oldest first (for an operator)."""

        def fn(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            return [dict(r) for r in conn.execute("SELECT * FROM set_aside WHERE channel_id = ? ORDER BY id",
                                                  (channel_id,))]

        return await self._read("read set-aside tables", fn)

    async def delete(self, channel_id: int) -> None:
        def fn(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM moves WHERE table_id IN (SELECT table_id FROM tables WHERE channel_id = ?)",
                         (channel_id,))
            conn.execute("DELETE FROM tables WHERE channel_id = ?", (channel_id,))

        await self._write("delete the table", fn)

    # ----- records and stats -----------------------------------------------------------------------
    async def last_record(self, channel_id: int) -> dict[str, Any] | None:
        def fn(conn: sqlite3.Connection) -> str | None:
            r = conn.execute("SELECT record FROM records WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                             (channel_id,)).fetchone()
            return None if r is None else r[0]

        text = await self._read("load the last record", fn)
        return None if text is None else json.loads(text)

    async def stats(self, guild_id: int | None, game: str | None, user_id: int | None) -> list[dict[str, Any]]:
        """Per player and game: played, won, lost, drawn (shared or no-winner games)."""
        where, args = ["guild_id IS ?"], [guild_id]
        if game:
            where.append("game = ?")
            args.append(game)
        if user_id:
            where.append("user_id = ?")
            args.append(user_id)

        def fn(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            return [dict(r) for r in conn.execute(
                "SELECT game, user_id, MAX(name) AS name, COUNT(*) AS played, "
                "SUM(outcome = 'win') AS won, SUM(outcome = 'loss') AS lost, SUM(outcome = 'draw') AS drawn "
                f"FROM results WHERE {' AND '.join(where)} GROUP BY game, user_id ORDER BY game, user_id", args)]

        return await self._read("count results", fn)

    # ----- drafts and interactions -----------------------------------------------------------------
    async def put_draft(self, table_id: str, seat: int, decision_rev: int, tokens: Sequence[Any],
                        draft_id: str | None = None) -> str:
        draft_id = draft_id or new_draft_id()
        await self._write("save a draft", lambda c: c.execute(
            "INSERT INTO drafts (id, table_id, seat, decision_rev, tokens, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (draft_id, table_id, seat, decision_rev, dumps(list(tokens)), time.time())))
        return draft_id

    async def get_draft(self, draft_id: str) -> Draft | None:
        r = await self._read("load a draft", lambda c: c.execute("SELECT * FROM drafts WHERE id = ?",
                                                                  (draft_id,)).fetchone())
        if r is None:
            return None
        return Draft(r["id"], r["table_id"], r["seat"], r["decision_rev"], json.loads(r["tokens"]), r["created_at"])

    async def seen_interaction(self, interaction_id: int | str) -> bool:
        cur = await self._write("remember an interaction", lambda c: c.execute(
            "INSERT OR IGNORE INTO interactions (id, seen_at) VALUES (?, ?)", (str(interaction_id), time.time())))
        return cur.rowcount == 0

    # ----- the public table message ---------------------------------------------------------------
    async def message_id(self, channel_id: int) -> int | None:
        r = await self._read("load the table message", lambda c: c.execute(
            "SELECT CASE WHEN message_table = table_id THEN message_id END FROM tables WHERE channel_id = ?",
            (channel_id,)).fetchone())
        return None if r is None or r[0] is None else int(r[0])

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        await self._write("record the table message", lambda c: c.execute(
            "UPDATE tables SET message_id = ?, message_table = table_id WHERE channel_id = ?", (message_id, channel_id)))

    async def mark_shown(self, shown: Sequence[tuple[int, str, int]]) -> None:
        rows = [(rev, ch, tid, rev) for ch, tid, rev in shown]
        await self._write("record what the table messages show", lambda c: c.executemany(
            "UPDATE tables SET message_shows = ? WHERE channel_id = ? AND table_id = ? "
            "AND (message_shows IS NULL OR message_shows < ?)", rows))

    async def behind(self, shards: tuple[int, Collection[int]] | None = None) -> list[int]:
        where, args = ("message_id IS NOT NULL AND message_table = table_id "
                       "AND (message_shows IS NULL OR message_shows < revision)"), []
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where += f" AND COALESCE((guild_id >> 22) % ?, 0) IN ({', '.join('?' * len(mine[1]))})"
            args += [mine[0], *mine[1]]
        found = await self._read("find tables whose message is behind", lambda c: c.execute(
            f"SELECT channel_id FROM tables WHERE {where} ORDER BY updated_at DESC", args).fetchall())
        return [int(r[0]) for r in found]

    # ----- one-off jobs (the daily challenge, ratings and replay records: bot.store.sqlite_extras) -----
    async def job_done(self, name: str) -> bool:
        r = await self._read("read done jobs", lambda c: c.execute("SELECT 1 FROM jobs WHERE name = ?",
                                                                    (name,)).fetchone())
        return r is not None

    async def mark_job_done(self, name: str) -> None:
        await self._write("mark a job done", lambda c: c.execute(
            "INSERT OR IGNORE INTO jobs (name, done_at) VALUES (?, ?)", (name, time.time())))

    # ----- for tests and operators -----------------------------------------------------------------
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement on the writer connection in its own transaction (tests, operators)."""
        return await self._write("run a statement", lambda c: [tuple(r) for r in c.execute(sql, args).fetchall()])
