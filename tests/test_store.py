"""The SQLite store: migrations, WAL, revisions, records."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import MIGRATIONS, Seat, StaleRevision, Store, TableRow


def row(channel: int = 1, rev: int = 1) -> TableRow:
    return TableRow(channel_id=channel, guild_id=None, game="gridcannon", status="lobby", host_id=7,
                    seats=[Seat(7, "Ana")], options=["No Jokers"], seed=42, revision=rev)


async def test_migrations_numbered_and_wal(store, db_path):
    (version,) = await (await store.db.execute("PRAGMA user_version")).fetchone()
    assert version == len(MIGRATIONS)
    (mode,) = await (await store.db.execute("PRAGMA journal_mode")).fetchone()
    assert mode == "wal"
    assert await store.migrate() == len(MIGRATIONS)  # idempotent


async def test_database_file_and_folder_created(tmp_path):
    path = tmp_path / "new" / "folder" / "db.sqlite3"
    s = await Store.open(path)
    await s.close()
    assert path.exists()


async def test_save_and_load_round_trip(store):
    t = row()
    t.state = {"x": [1, 2]}
    t.moves = [[0, "draw", 1.5]]
    await store.save(t, None)
    got = await store.get(1)
    assert got is not None
    assert (got.seats, got.options, got.state, got.moves, got.revision) == (t.seats, t.options, t.state, t.moves, 1)


async def test_stale_revision_refused(store):
    await store.save(row(), None)
    t = await store.get(1)
    t.revision = 2
    await store.save(t, 1)
    t.revision = 3
    with pytest.raises(StaleRevision):
        await store.save(t, 1)  # computed from revision 1, but 2 is stored
    assert (await store.get(1)).revision == 2


async def test_failed_transaction_writes_nothing(store):
    await store.save(row(), None)
    t = await store.get(1)
    t.revision = 2
    with pytest.raises(sqlite3.Error):
        # A record whose JSON cannot be stored as results (user id None violates NOT NULL).
        await store.save(t, 1, record={"a": 1}, result="finished", results=[(None, "x", "win")])  # type: ignore[list-item]
    assert (await store.get(1)).revision == 1
    assert await store.last_record(1) is None


async def test_records_and_stats(store):
    t = row()
    await store.save(t, None)
    t.revision = 2
    await store.save(t, 1, record={"game": "gridcannon", "moves": []}, result="finished",
                     results=[(7, "Ana", "win")])
    assert await store.last_record(1) == {"game": "gridcannon", "moves": []}
    stats = await store.stats(None, "gridcannon", None)
    assert stats == [{"game": "gridcannon", "user_id": 7, "name": "Ana", "played": 1, "won": 1, "lost": 0,
                      "drawn": 0}]


async def test_reopen_keeps_everything(db_path):
    s = await Store.open(db_path)
    await s.save(row(5), None)
    await s.close()
    s2 = await Store.open(db_path)
    assert (await s2.get(5)).seed == 42
    await s2.close()
