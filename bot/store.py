"""SQLite storage (aiosqlite, WAL): one table row per channel, finished games as records.

Schema changes are numbered migrations, applied in order and remembered in
``PRAGMA user_version``. Every write of a table row checks its revision, so two
writers can never both commit on top of the same state.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS: tuple[str, ...] = (
    # 1: tables and records
    """
    CREATE TABLE tables (
        channel_id   INTEGER PRIMARY KEY,
        guild_id     INTEGER,
        game         TEXT    NOT NULL,
        status       TEXT    NOT NULL,
        host_id      INTEGER NOT NULL,
        seats        TEXT    NOT NULL,
        options      TEXT    NOT NULL,
        seed         INTEGER NOT NULL,
        state        TEXT,
        moves        TEXT    NOT NULL,
        events       TEXT    NOT NULL,
        revision     INTEGER NOT NULL,
        turn_limit   INTEGER NOT NULL,
        turn_since   REAL,
        timed_out    INTEGER NOT NULL DEFAULT 0,
        series       TEXT    NOT NULL,
        created_at   REAL    NOT NULL,
        updated_at   REAL    NOT NULL
    );
    CREATE TABLE records (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER,
        game        TEXT    NOT NULL,
        result      TEXT    NOT NULL,
        record      TEXT    NOT NULL,
        finished_at REAL    NOT NULL
    );
    CREATE INDEX records_channel ON records (channel_id, finished_at);
    CREATE TABLE results (
        record_id INTEGER NOT NULL REFERENCES records (id),
        guild_id  INTEGER,
        game      TEXT    NOT NULL,
        user_id   INTEGER NOT NULL,
        name      TEXT    NOT NULL,
        outcome   TEXT    NOT NULL
    );
    CREATE INDEX results_guild_game ON results (guild_id, game, user_id);
    """,
)


class StaleRevision(Exception):
    """Someone else committed to this table first."""


@dataclass
class Seat:
    user_id: int
    name: str


@dataclass
class TableRow:
    """A channel's table as stored. ``state`` is the engine's JSON (None in the lobby)."""

    channel_id: int
    guild_id: int | None
    game: str
    status: str  # lobby | playing | finished | abandoned
    host_id: int
    seats: list[Seat]
    options: list[str]
    seed: int
    state: dict[str, Any] | None = None
    moves: list[list[Any]] = field(default_factory=list)  # [seat, move, unix time]
    events: list[str] = field(default_factory=list)  # recent public events, newest last
    revision: int = 0
    turn_limit: int = 24 * 3600
    turn_since: float | None = None
    timed_out: bool = False
    series: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None


_COLUMNS = (
    "channel_id guild_id game status host_id seats options seed state moves events revision "
    "turn_limit turn_since timed_out series created_at updated_at"
).split()


def _to_row(t: TableRow) -> tuple[Any, ...]:
    return (
        t.channel_id, t.guild_id, t.game, t.status, t.host_id,
        json.dumps([[s.user_id, s.name] for s in t.seats]), json.dumps(t.options), t.seed,
        None if t.state is None else json.dumps(t.state, separators=(",", ":")),
        json.dumps(t.moves, separators=(",", ":")), json.dumps(t.events), t.revision,
        t.turn_limit, t.turn_since, int(t.timed_out), json.dumps(t.series), t.created_at, t.updated_at,
    )


def _from_row(r: aiosqlite.Row) -> TableRow:
    return TableRow(
        channel_id=r["channel_id"], guild_id=r["guild_id"], game=r["game"], status=r["status"],
        host_id=r["host_id"], seats=[Seat(u, n) for u, n in json.loads(r["seats"])],
        options=json.loads(r["options"]), seed=r["seed"],
        state=None if r["state"] is None else json.loads(r["state"]),
        moves=json.loads(r["moves"]), events=json.loads(r["events"]), revision=r["revision"],
        turn_limit=r["turn_limit"], turn_since=r["turn_since"], timed_out=bool(r["timed_out"]),
        series=json.loads(r["series"]), created_at=r["created_at"], updated_at=r["updated_at"],
    )


class Store:
    """The database. ``await Store.open(path)``; one connection, used by one event loop."""

    def __init__(self, db: aiosqlite.Connection, path: Path):
        self.db = db
        self.path = path

    @classmethod
    async def open(cls, path: Path | str) -> "Store":
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> int:
        """Apply the migrations not applied yet; returns the schema version."""
        (version,) = await (await self.db.execute("PRAGMA user_version")).fetchone()
        for number, sql in enumerate(MIGRATIONS, start=1):
            if number <= version:
                continue
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in sql.split(";"):
                    if statement.strip():
                        await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        return len(MIGRATIONS)

    async def get(self, channel_id: int) -> TableRow | None:
        cur = await self.db.execute("SELECT * FROM tables WHERE channel_id = ?", (channel_id,))
        row = await cur.fetchone()
        return None if row is None else _from_row(row)

    async def tables(self, status: str | None = None) -> list[TableRow]:
        if status is None:
            cur = await self.db.execute("SELECT * FROM tables")
        else:
            cur = await self.db.execute("SELECT * FROM tables WHERE status = ?", (status,))
        return [_from_row(r) for r in await cur.fetchall()]

    async def save(self, table: TableRow, expected_revision: int | None,
                   record: dict[str, Any] | None = None, result: str = "",
                   results: list[tuple[int, str, str]] = ()) -> None:
        """Write ``table`` (and a finished game's record) in one transaction.

        ``expected_revision`` is the revision the change was computed from (None for a
        new table replacing whatever was there). Raises StaleRevision if it moved.
        """
        table.updated_at = time.time()
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            if expected_revision is None:
                await self.db.execute("DELETE FROM tables WHERE channel_id = ?", (table.channel_id,))
                cols = ", ".join(_COLUMNS)
                marks = ", ".join("?" for _ in _COLUMNS)
                await self.db.execute(f"INSERT INTO tables ({cols}) VALUES ({marks})", _to_row(table))
            else:
                sets = ", ".join(f"{c} = ?" for c in _COLUMNS[1:])
                cur = await self.db.execute(
                    f"UPDATE tables SET {sets} WHERE channel_id = ? AND revision = ?",
                    (*_to_row(table)[1:], table.channel_id, expected_revision),
                )
                if cur.rowcount != 1:
                    raise StaleRevision(table.channel_id)
            if record is not None:
                cur = await self.db.execute(
                    "INSERT INTO records (channel_id, guild_id, game, result, record, finished_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (table.channel_id, table.guild_id, table.game, result, json.dumps(record), time.time()),
                )
                record_id = cur.lastrowid
                for user_id, name, outcome in results:
                    await self.db.execute(
                        "INSERT INTO results (record_id, guild_id, game, user_id, name, outcome) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (record_id, table.guild_id, table.game, user_id, name, outcome),
                    )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def delete(self, channel_id: int) -> None:
        await self.db.execute("DELETE FROM tables WHERE channel_id = ?", (channel_id,))

    async def last_record(self, channel_id: int) -> dict[str, Any] | None:
        cur = await self.db.execute(
            "SELECT record FROM records WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        row = await cur.fetchone()
        return None if row is None else json.loads(row["record"])

    async def stats(self, guild_id: int | None, game: str | None, user_id: int | None) -> list[dict[str, Any]]:
        """Per player and game: played, won, lost, drawn (shared or no-winner games)."""
        where, args = ["guild_id IS ?"], [guild_id]
        if game:
            where.append("game = ?")
            args.append(game)
        if user_id:
            where.append("user_id = ?")
            args.append(user_id)
        cur = await self.db.execute(
            "SELECT game, user_id, MAX(name) AS name, COUNT(*) AS played, "
            "SUM(outcome = 'win') AS won, SUM(outcome = 'loss') AS lost, SUM(outcome = 'draw') AS drawn "
            f"FROM results WHERE {' AND '.join(where)} GROUP BY game, user_id",
            args,
        )
        return [dict(r) for r in await cur.fetchall()]
