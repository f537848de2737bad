"""Tournaments in the store: one row each (``tournaments``, migration ``*_tournaments.sql``).

The row's ``data`` is the whole tournament as JSON (``bot.tables.tournaments`` reads and writes
it); every save names the revision it was computed from, so two processes (or a press and the
clock) never both apply a change to the same revision. ``alarm`` is when the tournament clock
must next look at it, indexed: the clock reads only what is due, and each process of a shard
cluster only the tournaments of its own shards' servers (as the turn-limit sweep does).

The same methods over either back end (SQLite or PostgreSQL), beside the table store.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.store.base import StaleRevision, StoreError, dumps, shard_ids


@dataclass
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    status: str  # signup | running | finished | cancelled
    data: dict[str, Any]
    revision: int
    alarm: float | None
    created_at: float
    updated_at: float


def _row(r: Any) -> TournamentRow:
    try:
        data = json.loads(r["data"])
    except (TypeError, ValueError):
        raise StoreError(f"tournament {r['id']} cannot be read (its data is not JSON)") from None
    return TournamentRow(int(r["id"]), r["guild_id"], int(r["channel_id"]), str(r["status"]), data,
                         int(r["revision"]), r["alarm"], float(r["created_at"]), float(r["updated_at"]))


class TournamentStore:
    """Tournament rows over an open table store (SQLite or PostgreSQL)."""

    def __init__(self, store: Any):
        self.store = store
        self.pg = getattr(store, "backend", "") == "postgres"

    async def create(self, guild_id: int | None, channel_id: int, status: str, data: dict[str, Any],
                     alarm: float | None) -> TournamentRow:
        now = time.time()
        text = dumps(data)
        if self.pg:
            async def fn(c: Any) -> int:
                return await c.fetchval(
                    "INSERT INTO tournaments (guild_id, channel_id, status, data, revision, alarm, created_at, "
                    "updated_at) VALUES ($1, $2, $3, $4, 1, $5, $6, $6) RETURNING id",
                    guild_id, channel_id, status, text, alarm, now)

            tid = await self.store._run("create a tournament", fn)
        else:
            def sq(c: Any) -> int:
                cur = c.execute("INSERT INTO tournaments (guild_id, channel_id, status, data, revision, alarm, "
                                "created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                                (guild_id, channel_id, status, text, alarm, now, now))
                return int(cur.lastrowid)

            tid = await self.store._write("create a tournament", sq)
        return TournamentRow(int(tid), guild_id, channel_id, status, data, 1, alarm, now, now)

    async def get(self, tid: int) -> TournamentRow | None:
        rows = await self._select("WHERE id = {0}", [tid])
        return rows[0] if rows else None

    async def in_channel(self, channel_id: int) -> list[TournamentRow]:
        """The channel's tournaments, newest first."""
        return await self._select("WHERE channel_id = {0} ORDER BY id DESC", [channel_id])

    async def due(self, now: float, limit: int = 50, *,
                  shards: tuple[int, Collection[int]] | None = None) -> list[TournamentRow]:
        """Tournaments whose alarm is at or before ``now`` (of these shards' servers only)."""
        where, args = "WHERE alarm IS NOT NULL AND alarm <= {0}", [now]
        if (mine := shard_ids(shards)) is not None:
            if self.pg:
                where += " AND COALESCE((guild_id >> 22) % {1}, 0) = ANY({2}::bigint[])"
                args += [mine[0], mine[1]]
            else:
                where += " AND COALESCE((guild_id >> 22) % {1}, 0) IN (" + ", ".join("?" * len(mine[1])) + ")"
                args += [mine[0], *mine[1]]
        where += f" ORDER BY alarm, id LIMIT {{{len(args)}}}" if self.pg else " ORDER BY alarm, id LIMIT ?"
        args.append(limit)
        return await self._select(where, args)

    async def save(self, row: TournamentRow, expected_revision: int) -> None:
        """Write the row at ``expected_revision + 1``; StaleRevision (nothing written) if it moved."""
        now = time.time()
        text = dumps(row.data)
        if self.pg:
            async def fn(c: Any) -> str:
                return await c.execute(
                    "UPDATE tournaments SET status = $1, data = $2, revision = $3, alarm = $4, updated_at = $5 "
                    "WHERE id = $6 AND revision = $7", row.status, text, expected_revision + 1, row.alarm, now,
                    row.id, expected_revision)

            done = (await self.store._run("save a tournament", fn)).endswith(" 1")
        else:
            def sq(c: Any) -> bool:
                cur = c.execute("UPDATE tournaments SET status = ?, data = ?, revision = ?, alarm = ?, updated_at = ? "
                                "WHERE id = ? AND revision = ?",
                                (row.status, text, expected_revision + 1, row.alarm, now, row.id, expected_revision))
                return cur.rowcount == 1

            done = await self.store._write("save a tournament", sq)
        if not done:
            raise StaleRevision(f"tournament {row.id} moved on")
        row.revision = expected_revision + 1
        row.updated_at = now

    async def _select(self, where: str, args: list[Any]) -> list[TournamentRow]:
        if self.pg:
            sql = "SELECT * FROM tournaments " + where.format(*(f"${i + 1}" for i in range(len(args))))
            rows = await self.store._fetch("read tournaments", sql, *args)
        else:
            sql = "SELECT * FROM tournaments " + where.format(*("?" for _ in args))
            rows = await self.store._read("read tournaments", lambda c: c.execute(sql, args).fetchall())
        return [_row(r) for r in rows]
