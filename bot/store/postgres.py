"""The PostgreSQL store (asyncpg; ``pip install '.[postgres]'``), the same behaviour as SQLite.

A pool of connections: each operation takes one for the length of its transaction, so any number
of tables save at once. A save locks its row (``SELECT … FOR UPDATE`` checked against the
expected revision), updates it and appends the new moves in one transaction; a reader gets a
table, its record and its move log in one statement (one snapshot). Migrations run under a
transaction-level advisory lock, so two processes never migrate at once.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import asyncpg

from bot.store.base import (
    AlreadySeen, DailyEntry, DamagedTable, DamageLog, Draft, FinishedRecord, PlayerRating, SchemaTooNew, StaleRatings,
    StaleRevision, StoreError, TableRow, daily_entry, decode_row, dumps, encode_row, finished_record, known_games,
    new_draft_id, new_table_id, player_rating, shard_ids, wrote_snapshot,
)
from bot.store.base import StoredRecord, stored_record
from bot.store.migrations import migrations

MIGRATIONS = migrations("postgres")
SCHEMA_VERSION = len(MIGRATIONS)
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


class PostgresStore:
    """``await PostgresStore.open("postgresql://…", schema=None)``."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, dsn: str, schema: str | None, games: Collection[str]):
        self.pool = pool
        self.dsn = dsn
        self.schema = schema
        self.games = games
        self.damage = DamageLog()

    @classmethod
    async def open(cls, dsn: str, *, schema: str | None = None, games: Collection[str] | None = None,
                   min_size: int = 1, max_size: int = 10) -> "PostgresStore":
        """Connect (to ``schema`` if given: created if missing, and the only one the store sees)."""
        settings = {"search_path": schema} if schema else None
        try:
            pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, server_settings=settings)
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
                for _number, _name, sql in MIGRATIONS[version:]:
                    await c.execute(sql)
                await c.execute("DELETE FROM deckhand_schema")
                await c.execute("INSERT INTO deckhand_schema (version) VALUES ($1)", SCHEMA_VERSION)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise StoreError(f"Cannot prepare the PostgreSQL database at {safe_dsn(self.dsn)}: {cause_of(e)} ({e}).") \
                from None
        return SCHEMA_VERSION

    # ----- reading tables --------------------------------------------------------------------------
    def _decode(self, r: asyncpg.Record) -> TableRow:
        record_text = None
        if r["record_id"] is not None:
            record_text = r["record_text"] if r["record_text"] is not None else "null"
        return decode_row(r, r["entries"] or [], record_text, self.games)

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
            return await self.pool.fetch(sql, *args)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, what) from e

    async def get(self, channel_id: int) -> TableRow | None:
        rows = await self._fetch("load a table", f"{_SELECT} WHERE t.channel_id = $1", channel_id)
        return self._decode(rows[0]) if rows else None

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
        table.updated_at = time.time()
        if expected_revision is None and not table.table_id:
            table.table_id = new_table_id()
        snap = table.snapshot_due()
        if snap is None and expected_revision is None:
            snap = (table.state, table.state_ply or 0)
        cols = encode_row(table, snap)
        names = list(cols)
        values = list(cols.values())
        n = len(table.moves)
        known = table.saved_moves if expected_revision is not None else None
        if known is not None and known <= n and record is None:
            fresh = [dumps(m) for m in table.moves[known:]]
            sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(names[2:], start=4))
            k = len(names) + 2
            # The press itself (its interaction id) is remembered in the same statement: a press
            # Discord delivers twice finds it there and writes nothing.
            seen = (f"i AS (INSERT INTO interactions (id, seen_at) VALUES (${k + 2}, ${k + 3}) ON CONFLICT (id) DO NOTHING "
                    "RETURNING id), " if interaction_id is not None else "")
            guard = " AND EXISTS (SELECT 1 FROM i)" if interaction_id is not None else ""
            sql = (f"WITH {seen}u AS (UPDATE tables SET {sets} WHERE channel_id = $1 AND table_id = $2 AND revision = $3"
                   f"{guard} RETURNING table_id), "
                   f"a AS (INSERT INTO moves (table_id, ply, entry) SELECT u.table_id, p, e FROM u, "
                   f"unnest(${k}::int[], ${k + 1}::text[]) AS n(p, e)) "
                   f"SELECT (SELECT count(*) FROM u), {'(SELECT count(*) FROM i)' if seen else '1'}")
            extra = [str(interaction_id), time.time()] if interaction_id is not None else []
            try:
                updated, fresh_press = await self.pool.fetchrow(sql, table.channel_id, table.table_id,
                                                                expected_revision, *values[2:], list(range(known, n)),
                                                                fresh, *extra)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
                raise self._error(e, "save the table") from e
            if fresh_press != 1:
                raise AlreadySeen(f"interaction {interaction_id} was handled already")
            if updated != 1:
                raise StaleRevision(table.channel_id)
            wrote_snapshot(table, snap)
            return
        marks = ", ".join(f"${i}" for i in range(1, len(names) + 1))
        upsert = ", ".join(f"{c} = EXCLUDED.{c}" for c in names[1:])
        sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(names[2:], start=2))

        async def fn(c: asyncpg.Connection) -> None:
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
                                        "AND revision = $3 FOR UPDATE", table.channel_id, table.table_id,
                                        expected_revision)
                if base is None:
                    raise StaleRevision(table.channel_id)
                await c.execute(f"UPDATE tables SET {sets} WHERE channel_id = $1", table.channel_id, *values[2:])
                if n < base:
                    await c.execute("DELETE FROM moves WHERE table_id = $1 AND ply >= $2", table.table_id, n)
            if n > base:
                await c.execute("INSERT INTO moves (table_id, ply, entry) "
                                "SELECT $1, p, e FROM unnest($2::int[], $3::text[]) AS n(p, e)",
                                table.table_id, list(range(base, n)), [dumps(m) for m in table.moves[base:]])
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

        await self._run("save the table", fn)
        wrote_snapshot(table, snap)

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
            await self.pool.execute(
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
        # One statement, its own transaction: one round trip (no BEGIN/COMMIT around it).
        try:
            status = await self.pool.execute(
                "INSERT INTO interactions (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
                str(interaction_id), time.time())
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            raise self._error(e, "remember an interaction") from e
        return status.endswith(" 0")

    # ----- the public table message ---------------------------------------------------------------
    async def message_id(self, channel_id: int) -> int | None:
        rows = await self._fetch("load the table message", "SELECT CASE WHEN message_table = table_id "
                                 "THEN message_id END AS message_id FROM tables WHERE channel_id = $1", channel_id)
        return None if not rows or rows[0]["message_id"] is None else int(rows[0]["message_id"])

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        await self._run("record the table message", lambda c: c.execute(
            "UPDATE tables SET message_id = $1, message_table = table_id WHERE channel_id = $2",
            message_id, channel_id))

    # ----- the daily challenge ---------------------------------------------------------------------
    async def daily_claim(self, day: str, user_id: int, name: str, table_id: str, started_at: float) -> bool:
        status = await self._run("take a daily attempt", lambda c: c.execute(
            "INSERT INTO daily (day, user_id, name, table_id, started_at) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (day, user_id) DO NOTHING", day, user_id, name, table_id, started_at))
        return status.endswith(" 1")

    async def daily_release(self, day: str, user_id: int, table_id: str) -> None:
        await self._run("give back a daily attempt", lambda c: c.execute(
            "DELETE FROM daily WHERE day = $1 AND user_id = $2 AND table_id = $3 AND finished_at IS NULL",
            day, user_id, table_id))

    async def daily_finish(self, table_id: str, finished_at: float, won: bool, score: int | None,
                           kills: int | None) -> bool:
        status = await self._run("record a daily result", lambda c: c.execute(
            "UPDATE daily SET finished_at = $1, won = $2, score = $3, kills = $4 "
            "WHERE table_id = $5 AND finished_at IS NULL", finished_at, int(won), score, kills, table_id))
        return not status.endswith(" 0")

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        rows = await self._fetch("read the daily challenge", "SELECT * FROM daily WHERE day = $1", day)
        return [daily_entry(r) for r in rows]

    # ----- ratings ---------------------------------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, user_ids: Collection[int]) -> dict[int, PlayerRating]:
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 "
                                 "AND user_id = ANY($3::bigint[])", guild_id, game, ids)
        return {int(r["user_id"]): player_rating(r) for r in rows}

    async def save_ratings(self, key: str, guild_id: int, game: str, rows: Sequence[PlayerRating],
                           expected: Mapping[int, int], rated_at: float) -> bool:
        async def fn(c: asyncpg.Connection) -> bool:
            status = await c.execute("INSERT INTO rated_games (game_key, guild_id, game, rated_at) "
                                     "VALUES ($1, $2, $3, $4) ON CONFLICT (game_key) DO NOTHING",
                                     key, guild_id, game, rated_at)
            if status.endswith(" 0"):
                return False
            ids = sorted(expected)
            found = {r["user_id"]: r["games"] for r in await c.fetch(
                "SELECT user_id, games FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[]) "
                "FOR UPDATE", guild_id, game, ids)}
            for user_id in ids:
                if found.get(user_id, 0) != expected[user_id]:
                    raise StaleRatings(f"the rating of user {user_id} in {game} changed")
            # A player rated for the first time has no row to lock: a game saved at the same moment may
            # insert it first. The upsert then finds that row and updates it only if its games count is
            # still the expected one (checked on the committed row), else nothing: stale.
            for r in rows:
                status = await c.execute(
                    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, last_change, "
                    "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                    "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                    "name = EXCLUDED.name, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal, "
                    "games = EXCLUDED.games, last_change = EXCLUDED.last_change, updated_at = EXCLUDED.updated_at "
                    "WHERE ratings.games = $11",
                    guild_id, game, r.user_id, r.name, r.mu, r.sigma, r.ordinal, r.games, r.last_change, r.updated_at,
                    expected.get(r.user_id, 0))
                if status.endswith(" 0"):
                    raise StaleRatings(f"the rating of user {r.user_id} in {game} changed")
            return True

        return await self._run("save ratings", fn)

    async def is_rated(self, key: str) -> bool:
        return bool(await self._fetch("read rated games", "SELECT 1 FROM rated_games WHERE game_key = $1", key))

    async def leaderboard(self, guild_id: int, game: str, min_games: int = 1, limit: int = 10) -> list[PlayerRating]:
        rows = await self._fetch("read a leaderboard", "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 "
                                 "AND games >= $3 ORDER BY ordinal DESC, games DESC, user_id LIMIT $4",
                                 guild_id, game, min_games, limit)
        return [player_rating(r) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int, game: str | None = None) -> list[PlayerRating]:
        if game is None:
            rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 "
                                     "ORDER BY game", guild_id, user_id)
        else:
            rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 "
                                     "AND game = $3 ORDER BY game", guild_id, user_id, game)
        return [player_rating(r) for r in rows]

    async def rating_place(self, guild_id: int, game: str, user_id: int, min_games: int = 1) -> int | None:
        rows = await self._fetch(
            "read a leaderboard place",
            "SELECT (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = m.guild_id AND o.game = m.game AND o.games >= $4 "
            "AND (o.ordinal, o.games, -o.user_id) > (m.ordinal, m.games, -m.user_id)) AS above "
            "FROM ratings m WHERE m.guild_id = $1 AND m.game = $2 AND m.user_id = $3 AND m.games >= $4",
            guild_id, game, user_id, min_games)
        return int(rows[0]["above"]) + 1 if rows else None

    async def finished_records(self, after: tuple[float, int] | None, limit: int) -> list[FinishedRecord]:
        where, args = "", []
        if after is not None:
            where, args = "WHERE (r.finished_at, r.id) > ($2, $3)", [float(after[0]), int(after[1])]
        rows = await self._fetch(
            "read finished games",
            "SELECT r.*, (SELECT array_agg(ARRAY[x.user_id::text, x.name, x.outcome]) FROM results x "
            f"WHERE x.record_id = r.id) AS people FROM records r {where} ORDER BY r.finished_at, r.id LIMIT $1",
            limit, *args)
        return [finished_record(r, [(int(u), n, o) for u, n, o in (r["people"] or [])]) for r in rows]

    # ----- the replay viewer ------------------------------------------------------------------------
    _RECORD_COLUMNS = ("SELECT r.id, r.channel_id, r.guild_id, r.table_id, r.game, r.result, r.record, r.finished_at, "
                       "(SELECT d.day FROM daily d WHERE d.table_id = r.table_id LIMIT 1) AS daily, "
                       "(SELECT array_agg(ARRAY[x.user_id::text, x.name, x.outcome] ORDER BY x.ctid) FROM results x "
                       "WHERE x.record_id = r.id) AS people FROM records r ")

    async def recent_records(self, channel_id: int, guild_id: int | None, user_id: int,
                             limit: int = 25) -> list[StoredRecord]:
        rows = await self._fetch(
            "read recent games",
            self._RECORD_COLUMNS + "WHERE r.channel_id = $1 OR (r.guild_id = $2 AND EXISTS (SELECT 1 FROM results x "
            "WHERE x.record_id = r.id AND x.user_id = $3)) ORDER BY r.id DESC LIMIT $4",
            channel_id, guild_id, user_id, limit)
        return [stored_record(r, [(int(u), n, o) for u, n, o in (r["people"] or [])]) for r in rows]

    async def stored_record(self, record_id: int) -> StoredRecord | None:
        rows = await self._fetch("read a game record", self._RECORD_COLUMNS + "WHERE r.id = $1", record_id)
        return stored_record(rows[0], [(int(u), n, o) for u, n, o in (rows[0]["people"] or [])]) if rows else None

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
