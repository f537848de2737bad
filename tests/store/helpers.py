"""Rows and databases for the store tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Seat, TableRow

SCHEMA1 = Path(__file__).parent / "fixtures" / "schema1.sql"  # the schema-1 database (Deckhand 0.1) as SQL text


def schema1_database(path: Path) -> Path:
    """The schema-1 database, some tables in play, written at ``path`` (not migrated yet): the path."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA1.read_text(encoding="utf-8"))
    db.close()
    return path


def row(channel: int = 1, rev: int = 1, **kw) -> TableRow:
    base = dict(channel_id=channel, guild_id=None, game="gridcannon", status="lobby", host_id=7,
                seats=[Seat(7, "Ana")], options=["No Jokers"], seed=42, revision=rev)
    base.update(kw)
    return TableRow(**base)


def playing(channel: int = 1, rev: int = 1, since: float = 1000.0, limit: int = 60, **kw) -> TableRow:
    return row(channel, rev, status="playing", state={"game": "gridcannon", "turn": 0}, turn_since=since,
               turn_limit=limit, **kw)


async def cut_connection_running(dsn: str, schema: str, query: str) -> None:
    """Wait until a statement whose text is ``query`` runs on the server, then cut its connection
    (``pg_terminate_backend``), from a store of its own."""
    import asyncio

    from bot.store.postgres import PostgresStore

    other = await PostgresStore.open(dsn, schema=schema, max_size=1)
    try:
        for _ in range(200):
            pids = await other.execute("SELECT pid FROM pg_stat_activity WHERE query = $1", (query,))
            if pids:
                break
            await asyncio.sleep(0.01)
        await other.execute("SELECT pg_terminate_backend($1)", (pids[0][0],))
    finally:
        await other.close()
