"""The PostgreSQL store (asyncpg; ``pip install '.[postgres]'``), the same behaviour as SQLite.

A pool of connections: each operation takes one for the length of its transaction, so any number
of tables save at once. A save locks its row (``SELECT … FOR UPDATE`` checked against the
expected revision), updates it and appends the new moves in one transaction; a reader gets a
table, its record and its move log in one statement (one snapshot). Migrations run under a
transaction-level advisory lock, so two processes never migrate at once.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Collection, Sequence
from typing import Any

import asyncpg

from bot.store.base import (
    AlreadySeen, DamagedTable, DamageLog, Draft, MoveLog, SchemaTooNew, StaleRevision, StoreError, TableRow, decode_row,
    dumps, known_games, known_log, move_texts, new_draft_id, prepare_save, shard_ids,
    warned_guard, wrote_snapshot,
)
from bot.store.migrations import migrations
from bot.store.pg_group import Grouped
from bot.store.pglane import Lane
from bot.store.postgres_extras import (PostgresDaily, PostgresLessons, PostgresPings, PostgresRatings, PostgresReplays,
                                       PostgresWatchers)

MIGRATIONS = migrations("postgres")
SCHEMA_VERSION = MIGRATIONS[-1][0]  # the last number (a reserved one may be missing)
MIGRATION_LOCK = 0x44454B  # "DEK": the advisory lock's first key; the second is the schema's hash

_CAUSES = {
    "53100": "the disk is full",
    "53200": "the server is out of memory",
    "25006": "the database is read-only",
    "42501": "Deckhand's database user lacks the permission",
    "57P01": "the server was shut down",
    "57P03": "the server is starting up or shutting down",
    "58030": "an input/output error on the server's disk",
    "08006": "the connection to the server was lost",
    "40P01": "a deadlock",
}

_SELECT = (
    "SELECT t.*, r.record AS record_text, "
    "(SELECT array_agg(m.entry ORDER BY m.ply) FROM moves m WHERE m.table_id = t.table_id AND t.record_id IS NULL) "
    "AS entries FROM tables t LEFT JOIN records r ON r.id = t.record_id"
)

_SELECT_UNLESS_KNOWN = (
    "SELECT t.*, r.record AS record_text, CASE WHEN t.table_id = $2 AND t.revision = $3 AND t.move_count = $4 THEN NULL "
    "ELSE "
    "(SELECT array_agg(m.entry ORDER BY m.ply) FROM moves m WHERE m.table_id = t.table_id AND t.record_id IS NULL) "
    "END AS entries FROM tables t LEFT JOIN records r ON r.id = t.record_id"
)


def safe_dsn(dsn: str) -> str:
    """The URL without its password (for messages)."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", dsn)


def cause_of(e: BaseException) -> str:
    code = getattr(e, "sqlstate", None)
    if code in _CAUSES:
        return _CAUSES[code]
    if code and code.startswith("53"):
        return "the server ran out of a resource"
    if code and code.startswith("08") or isinstance(e, (OSError, asyncpg.InterfaceError)):
        return "the connection to the server failed"
    return "a database error"


# A press remembered (its interaction id): one row, 1 if it is new, 0 if it was seen already.
SEEN_SQL = ("WITH i AS (INSERT INTO interactions (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING "
            "RETURNING id) SELECT count(*) FROM i")


async def _keep_session(connection: asyncpg.Connection) -> None:
    """A connection's reset when it goes back to the pool: nothing to undo. asyncpg's default
    (``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``) is one more round trip
    after every statement, and this store leaves nothing behind: it sets no session setting (the
    schema's search_path is given at connect, which RESET ALL would keep anyway), opens no cursor,
    listens to nothing and takes only transaction-level advisory locks. A transaction left open
    is still rolled back by asyncpg before this is called."""


class PostgresStore(PostgresDaily, PostgresRatings, PostgresReplays, PostgresWatchers, PostgresPings, PostgresLessons):
    """``await PostgresStore.open("postgresql://…", schema=None)``."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, dsn: str, schema: str | None, games: Collection[str]):
        self.pool = pool
        self.lane = Lane(pool, max(1, pool.get_max_size() // 2))  # a press's statements, without the pool's round
        self.dsn = dsn
        self.schema = schema
        self.games = games
        self.damage = DamageLog()
        self._grouped = Grouped(self.lane)  # a move's save and a press's id: sent with those asked meanwhile

    @classmethod
    async def open(cls, dsn: str, *, schema: str | None = None, games: Collection[str] | None = None,
                   min_size: int = 1, max_size: int = 10) -> "PostgresStore":
        """Connect (to ``schema`` if given: created if missing, and the only one the store sees)."""
        settings = {"search_path": schema} if schema else None
        try:
            pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, server_settings=settings,
                                             reset=_keep_session, max_inactive_connection_lifetime=0)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreError(f"Cannot connect to PostgreSQL at {safe_dsn(dsn)}: {cause_of(e)} ({e}).") from None
        store = cls(pool, dsn, schema, games if games is not None else known_games())
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        await self.lane.close()
        await self.pool.close()

    def _error(self, e: BaseException, what: str) -> StoreError:
        return StoreError(f"Could not {what} in PostgreSQL ({safe_dsn(self.dsn)}): {cause_of(e)} ({e}).")

    async def migrate(self) -> int:
        """Apply the migrations not applied yet (under an advisory lock); returns the schema version."""
        try:
            async with self.pool.acquire() as c, c.transaction():
                # One migrator per schema at a time: a second process waits here, then finds the work done.
                await c.execute("SELECT pg_advisory_xact_lock($1, hashtext(current_setting('search_path')))",
                                MIGRATION_LOCK)
                if self.schema and not await c.fetchval("SELECT TRUE FROM pg_namespace WHERE nspname = $1", self.schema):
                    await c.execute(f'CREATE SCHEMA "{self.schema}"')
                await c.execute("CREATE TABLE IF NOT EXISTS deckhand_schema (version INTEGER NOT NULL)")
                version = await c.fetchval("SELECT max(version) FROM deckhand_schema") or 0
                if version > SCHEMA_VERSION:
                    raise SchemaTooNew(
                        f"The PostgreSQL database at {safe_dsn(self.dsn)} has schema version {version}, but this "
                        f"Deckhand knows versions up to {SCHEMA_VERSION}: run the newer Deckhand that wrote it."
                    )
                for _number, _name, sql in (m for m in MIGRATIONS if m[0] > version):
                    await c.execute(sql)
                await c.execute("DELETE FROM deckhand_schema")
                await c.execute("INSERT INTO deckhand_schema (version) VALUES ($1)", SCHEMA_VERSION)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreError(f"Cannot prepare the PostgreSQL database at {safe_dsn(self.dsn)}: {cause_of(e)} ({e}).") \
                from None
        return SCHEMA_VERSION

    # ----- reading tables --------------------------------------------------------------------------
    def _decode(self, r: asyncpg.Record, known: TableRow | None = None) -> TableRow:
        record_text = None
        if r["record_id"] is not None:
            record_text = r["record_text"] if r["record_text"] is not None else "null"
        held = known_log(r, known) if r["entries"] is None else None
        return decode_row(r, held if held is not None else r["entries"] or [], record_text, self.games)

    def _decode_all(self, rows: Sequence[asyncpg.Record]) -> list[TableRow]:
        out = []
        for r in rows:
            try:
                out.append(self._decode(r))
            except DamagedTable as e:
                self.damage.report(e)
        return out

    async def _fetch(self, what: str, sql: str, *args: Any) -> list[asyncpg.Record]:
        try:
            return await self.lane.fetch(sql, *args)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, what) from e

    async def get(self, channel_id: int, known: TableRow | None = None) -> TableRow | None:
        if known is None or not known.table_id or not isinstance(known.moves, MoveLog):
            rows = await self._fetch("load a table", f"{_SELECT} WHERE t.channel_id = $1", channel_id)
            return self._decode(rows[0]) if rows else None
        # The log is left out when the row is at the known table and revision (its log is the one held).
        rows = await self._fetch("load a table", f"{_SELECT_UNLESS_KNOWN} WHERE t.channel_id = $1", channel_id,
                                 known.table_id, known.revision, len(known.moves))
        return self._decode(rows[0], known) if rows else None

    async def tables(self, status: str | None = None) -> list[TableRow]:
        if status is None:
            rows = await self._fetch("list tables", f"{_SELECT} ORDER BY t.channel_id")
        else:
            rows = await self._fetch("list tables", f"{_SELECT} WHERE t.status = $1 ORDER BY t.channel_id", status)
        return self._decode_all(rows)

    async def due(self, now: float, limit: int = 100, after: tuple[float, int] | None = None, *,
                  shards: tuple[int, Collection[int]] | None = None) -> list[TableRow]:
        where, args = ["t.alarm IS NOT NULL", "t.alarm <= $1"], [now]
        if after is not None:
            where.append(f"(t.alarm, t.channel_id) > (${len(args) + 1}, ${len(args) + 2})")
            args += [float(after[0]), after[1]]
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where.append(f"COALESCE((t.guild_id >> 22) % ${len(args) + 1}, 0) = ANY(${len(args) + 2}::bigint[])")
            args += [mine[0], mine[1]]
        rows = await self._fetch("find tables whose turn ran out",
                                 f"{_SELECT} WHERE {' AND '.join(where)} ORDER BY t.alarm, t.channel_id "
                                 f"LIMIT ${len(args) + 1}", *args, limit)
        out = []
        damaged = []
        for r in rows:
            try:
                out.append(self._decode(r))
            except DamagedTable as e:
                self.damage.report(e)
                damaged.append(e.channel_id)
        if damaged:  # out of the sweep's index for good: they cannot time out until set aside
            await self._run("take damaged tables out of the sweep",
                            lambda c: c.execute("UPDATE tables SET deadline = NULL, alarm = NULL "
                                                "WHERE channel_id = ANY($1::bigint[])",
                                                damaged))
        return out

    # ----- writing ---------------------------------------------------------------------------------
    async def _run(self, what: str, fn: Any) -> Any:
        """``await fn(conn)`` in one transaction; database failures become StoreError."""
        try:
            async with self.pool.acquire() as c, c.transaction():
                return await fn(c)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, what) from e

    async def save(self, table: TableRow, expected_revision: int | None, record: dict[str, Any] | None = None,
                   result: str = "", results: Sequence[tuple[int, str, str]] = (),
                   interaction_id: int | str | None = None) -> None:
        """As :meth:`bot.store.sqlite.SQLiteStore.save`. A move (the revision checked, the moves
        stored known, no record) is one statement: the row's update and the log's append."""
        snap, cols = prepare_save(table, expected_revision)
        names = list(cols)
        values = list(cols.values())
        n = len(table.moves)
        known = table.saved_moves if expected_revision is not None else None
        if known is not None and known <= n and record is None:
            sql = self._move_sql(names, interaction_id is not None)
            extra = [str(interaction_id), time.time()] if interaction_id is not None else []
            extra += warned_guard(table)
            try:
                updated, fresh_press = await self._grouped.fetchrow(
                    sql, [*self._move_args(table, expected_revision, values, known), *extra])
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
                raise self._error(e, "save the table") from e
            if fresh_press != 1:
                raise AlreadySeen(f"interaction {interaction_id} was handled already")
            if updated != 1:
                raise StaleRevision(table.channel_id)
            wrote_snapshot(table, snap)
            return
        await self._run("save the table", lambda c: self._save_in(c, table, expected_revision, names, values, record,
                                                                 result, results, interaction_id))
        wrote_snapshot(table, snap)

    @staticmethod
    def _move_sql(names: list[str], with_interaction: bool) -> str:
        """:func:`_move_statement` of these columns (a row's columns are the same few at every save:
        the text is made once per column list, not at every move)."""
        return _move_statement(tuple(names), with_interaction)

    @staticmethod
    def _move_args(table: TableRow, expected_revision: int, values: list[Any], known: int) -> list[Any]:
        n = len(table.moves)
        return [table.channel_id, table.table_id, expected_revision, *values[2:], list(range(known, n)),
                move_texts(table.moves, known)]

    async def save_many(self, tables: Sequence[tuple[TableRow, int]]) -> list[bool]:
        """As :meth:`bot.store.sqlite.SQLiteStore.save_many`: one transaction on one connection; the
        tables whose stored moves are known are written by one statement run for each, pipelined."""
        todo = []
        for t, rev in tables:
            snap, cols = prepare_save(t, rev)
            todo.append((t, rev, snap, list(cols), list(cols.values())))
        quick = [i for i, (t, *_) in enumerate(todo) if t.saved_moves is not None and t.saved_moves <= len(t.moves)]

        async def fn(c: asyncpg.Connection) -> list[bool]:
            out = [False] * len(todo)
            if quick:
                sql = self._move_sql(todo[quick[0]][3], False)
                rows = await c.fetchmany(sql, [[*self._move_args(todo[i][0], todo[i][1], todo[i][4],
                                                                 todo[i][0].saved_moves or 0),
                                                *warned_guard(todo[i][0])] for i in quick])
                for i, r in zip(quick, rows, strict=True):
                    out[i] = r[0] == 1
            done = set(quick)
            for i, (t, rev, _, names, values) in enumerate(todo):
                if i in done:
                    continue
                try:
                    await self._save_in(c, t, rev, names, values, None, "", (), None)
                    out[i] = True
                except StaleRevision:  # raised before any of this table's writes
                    pass
            return out

        written = await self._run("save the tables", fn) if todo else []
        for (t, _, snap, _, _), ok in zip(todo, written, strict=True):
            if ok:
                wrote_snapshot(t, snap)
        return written

    @staticmethod
    async def _save_in(c: asyncpg.Connection, table: TableRow, expected_revision: int | None, names: list[str],
                       values: list[Any], record: dict[str, Any] | None, result: str,
                       results: Sequence[tuple[int, str, str]], interaction_id: int | str | None) -> None:
        """One table's save inside a transaction (StaleRevision before any write of it)."""
        n = len(table.moves)
        marks = ", ".join(f"${i}" for i in range(1, len(names) + 1))
        upsert = ", ".join(f"{c} = EXCLUDED.{c}" for c in names[1:])
        sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(names[2:], start=2))
        if interaction_id is not None and (await c.execute(
                "INSERT INTO interactions (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
                str(interaction_id), time.time())).endswith(" 0"):
            raise AlreadySeen(f"interaction {interaction_id} was handled already")
        if expected_revision is None:
            old = await c.fetchval("SELECT table_id FROM tables WHERE channel_id = $1 FOR UPDATE", table.channel_id)
            await c.execute("DELETE FROM moves WHERE table_id = ANY($1::text[])",
                            [table.table_id] + ([old] if old else []))
            await c.execute(f"INSERT INTO tables ({', '.join(names)}) VALUES ({marks}) "
                            f"ON CONFLICT (channel_id) DO UPDATE SET {upsert}, record_id = NULL, damaged = NULL, "
                            "raw_moves = NULL", *values)
            base = 0
        else:
            base = await c.fetchval("SELECT move_count FROM tables WHERE channel_id = $1 AND table_id = $2 "
                                    "AND revision = $3 AND (NOT $4::boolean OR warned_for IS NOT DISTINCT FROM "
                                    "$5::double precision) FOR UPDATE", table.channel_id, table.table_id,
                                    expected_revision, *warned_guard(table))
            if base is None:
                raise StaleRevision(table.channel_id)
            await c.execute(f"UPDATE tables SET {sets} WHERE channel_id = $1", table.channel_id, *values[2:])
            if n < base:
                await c.execute("DELETE FROM moves WHERE table_id = $1 AND ply >= $2", table.table_id, n)
        if n > base:
            await c.execute("INSERT INTO moves (table_id, ply, entry) "
                            "SELECT $1, p, e FROM unnest($2::int[], $3::text[]) AS n(p, e)",
                            table.table_id, list(range(base, n)), move_texts(table.moves, base))
        if record is not None:
            record_id = await c.fetchval(
                "INSERT INTO records (channel_id, table_id, guild_id, game, result, record, finished_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                table.channel_id, table.table_id, table.guild_id, table.game, result, dumps(record), time.time())
            if results:
                await c.executemany(
                    "INSERT INTO results (record_id, guild_id, game, user_id, name, outcome) "
                    "VALUES ($1, $2, $3, $4, $5, $6)",
                    [(record_id, table.guild_id, table.game, u, name, o) for u, name, o in results])
            await c.execute("UPDATE tables SET record_id = $1 WHERE channel_id = $2", record_id, table.channel_id)
            await c.execute("DELETE FROM moves WHERE table_id = $1", table.table_id)

    async def set_aside(self, channel_id: int, reason: str | None = None) -> bool:
        async def fn(c: asyncpg.Connection) -> bool:
            r = await c.fetchrow(f"{_SELECT} WHERE t.channel_id = $1 FOR UPDATE OF t", channel_id)
            if r is None:
                return False
            why = reason
            if why is None:
                try:
                    self._decode(r)
                    why = "set aside by hand"
                except DamagedTable as e:
                    why = e.reason
            raw = {k: v for k, v in dict(r).items() if k not in ("entries", "record_text")}
            raw["move_log"] = list(r["entries"] or [])
            await c.execute("INSERT INTO set_aside (channel_id, table_id, reason, raw, set_at) VALUES ($1, $2, $3, $4, $5)",
                            channel_id, r["table_id"], why, dumps(raw), time.time())
            await c.execute("DELETE FROM moves WHERE table_id = $1", r["table_id"])
            await c.execute(
                "UPDATE tables SET status = 'abandoned', seats = '[]', options = '[]', state = NULL, events = '[]', "
                "series = '{}', move_count = 0, turn_since = NULL, timed_out = FALSE, deadline = NULL, alarm = NULL, "
                "record_id = NULL, "
                "raw_moves = NULL, damaged = $1, revision = revision + 1, updated_at = $2 WHERE channel_id = $3",
                why, time.time(), channel_id)
            return True

        return await self._run("set the table aside", fn)

    async def set_aside_rows(self, channel_id: int) -> list[dict[str, Any]]:
        return [dict(r) for r in await self._fetch("read set-aside tables",
                                                   "SELECT * FROM set_aside WHERE channel_id = $1 ORDER BY id",
                                                   channel_id)]

    async def delete(self, channel_id: int) -> None:
        async def fn(c: asyncpg.Connection) -> None:
            await c.execute("DELETE FROM moves WHERE table_id IN (SELECT table_id FROM tables WHERE channel_id = $1)",
                            channel_id)
            await c.execute("DELETE FROM tables WHERE channel_id = $1", channel_id)

        await self._run("delete the table", fn)

    # ----- records and stats -----------------------------------------------------------------------
    async def last_record(self, channel_id: int) -> dict[str, Any] | None:
        rows = await self._fetch("load the last record",
                                 "SELECT record FROM records WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id)
        return json.loads(rows[0]["record"]) if rows else None

    async def stats(self, guild_id: int | None, game: str | None, user_id: int | None) -> list[dict[str, Any]]:
        where, args = ["guild_id IS NOT DISTINCT FROM $1"], [guild_id]
        if game:
            args.append(game)
            where.append(f"game = ${len(args)}")
        if user_id:
            args.append(user_id)
            where.append(f"user_id = ${len(args)}")
        rows = await self._fetch(
            "count results",
            "SELECT game, user_id, MAX(name) AS name, COUNT(*)::int AS played, "
            "(COUNT(*) FILTER (WHERE outcome = 'win'))::int AS won, (COUNT(*) FILTER (WHERE outcome = 'loss'))::int AS lost, "
            "(COUNT(*) FILTER (WHERE outcome = 'draw'))::int AS drawn "
            f"FROM results WHERE {' AND '.join(where)} GROUP BY game, user_id ORDER BY game, user_id", *args)
        return [dict(r) for r in rows]

    # ----- drafts and interactions -----------------------------------------------------------------
    async def put_draft(self, table_id: str, seat: int, decision_rev: int, tokens: Sequence[Any],
                        draft_id: str | None = None) -> str:
        draft_id = draft_id or new_draft_id()
        try:
            await self.lane.execute(
                "INSERT INTO drafts (id, table_id, seat, decision_rev, tokens, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                draft_id, table_id, seat, decision_rev, dumps(list(tokens)), time.time())
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, "save a draft") from e
        return draft_id

    async def get_draft(self, draft_id: str) -> Draft | None:
        rows = await self._fetch("load a draft", "SELECT * FROM drafts WHERE id = $1", draft_id)
        if not rows:
            return None
        r = rows[0]
        return Draft(r["id"], r["table_id"], r["seat"], r["decision_rev"], json.loads(r["tokens"]), r["created_at"])

    async def seen_interaction(self, interaction_id: int | str) -> bool:
        # One statement, with the presses remembered meanwhile (bot.store.pg_group): one round trip.
        try:
            (inserted,) = await self._grouped.fetchrow(SEEN_SQL, [str(interaction_id), time.time()])
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, "remember an interaction") from e
        return inserted == 0

    # ----- the public table message ---------------------------------------------------------------
    async def message_id(self, channel_id: int) -> int | None:
        rows = await self._fetch("load the table message", "SELECT CASE WHEN message_table = table_id "
                                 "THEN message_id END AS message_id FROM tables WHERE channel_id = $1", channel_id)
        return None if not rows or rows[0]["message_id"] is None else int(rows[0]["message_id"])

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        await self._run("record the table message", lambda c: c.execute(
            "UPDATE tables SET message_id = $1, message_table = table_id WHERE channel_id = $2",
            message_id, channel_id))

    async def mark_shown(self, shown: Sequence[tuple[int, str, int]]) -> None:
        rows = [(rev, ch, tid) for ch, tid, rev in shown]
        await self._run("record what the table messages show", lambda c: c.executemany(
            "UPDATE tables SET message_shows = $1 WHERE channel_id = $2 AND table_id = $3 "
            "AND (message_shows IS NULL OR message_shows < $1)", rows))

    async def behind(self, shards: tuple[int, Collection[int]] | None = None) -> list[int]:
        where, args = ("message_id IS NOT NULL AND message_table = table_id "
                       "AND (message_shows IS NULL OR message_shows < revision)"), []
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where += " AND COALESCE((guild_id >> 22) % $1, 0) = ANY($2::bigint[])"
            args += [mine[0], mine[1]]
        rows = await self._fetch("find tables whose message is behind",
                                 f"SELECT channel_id FROM tables WHERE {where} ORDER BY updated_at DESC", *args)
        return [int(r["channel_id"]) for r in rows]

    # ----- one-off jobs (the daily challenge, ratings and replay records: bot.store.postgres_extras) ---
    async def job_done(self, name: str) -> bool:
        return bool(await self._fetch("read done jobs", "SELECT 1 FROM jobs WHERE name = $1", name))

    async def mark_job_done(self, name: str) -> None:
        await self._run("mark a job done", lambda c: c.execute(
            "INSERT INTO jobs (name, done_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", name, time.time()))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in its own transaction (tests, operators)."""
        return await self._run("run a statement", lambda c: _fetch_tuples(c, sql, args))


async def _fetch_tuples(c: asyncpg.Connection, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await c.fetch(sql, *args)]


@functools.lru_cache(maxsize=64)
def _move_statement(names: tuple[str, ...], with_interaction: bool) -> str:
    """A move's save in one statement: the row's update (its revision checked) and the log's
    append of the moves after those the store holds (nothing at all when the revision moved)."""
    sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(names[2:], start=4))
    k = len(names) + 2
    # The press itself (its interaction id) is remembered in the same statement: a press
    # Discord delivers twice finds it there and writes nothing.
    seen = (f"i AS (INSERT INTO interactions (id, seen_at) VALUES (${k + 2}, ${k + 3}) ON CONFLICT (id) DO NOTHING "
            "RETURNING id), " if with_interaction else "")
    guard = " AND EXISTS (SELECT 1 FROM i)" if with_interaction else ""
    w = k + 4 if with_interaction else k + 2  # the warning mark's check (see TableRow.stored_warned)
    return (f"WITH {seen}u AS (UPDATE tables SET {sets} WHERE channel_id = $1 AND table_id = $2 AND revision = $3"
            f" AND (NOT ${w}::boolean OR warned_for IS NOT DISTINCT FROM ${w + 1}::double precision)"
            f"{guard} RETURNING table_id), "
            f"a AS (INSERT INTO moves (table_id, ply, entry) SELECT u.table_id, p, e FROM u, "
            f"unnest(${k}::int[], ${k + 1}::text[]) AS n(p, e)) "
            f"SELECT (SELECT count(*) FROM u), {'(SELECT count(*) FROM i)' if seen else '1'}")
