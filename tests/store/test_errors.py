"""Clear errors: a schema newer than the code, a read-only database, a full disk, a lost server."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from bot.store import SchemaTooNew, SQLiteStore, StoreError, open_store
from tests.store.helpers import cut_connection_running, playing


async def test_a_newer_schema_is_refused_at_open(backend):
    s = await backend.open()
    if backend.name == "sqlite":
        await s.execute("PRAGMA user_version = 99")
    else:
        await s.execute("UPDATE deckhand_schema SET version = 99")
    await s.close()
    with pytest.raises(SchemaTooNew) as e:
        await backend.open()
    assert "schema version 99" in str(e.value)
    assert "knows versions up to" in str(e.value)


class ReadOnly:
    """Makes a file truly read-only, also for root (chattr +i), and undoes it."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        if os.geteuid() == 0:
            done = subprocess.run(["chattr", "+i", str(self.path)], capture_output=True, text=True)
            assert done.returncode == 0, f"cannot make a file read-only as root here: {done.stderr}"
        else:
            self.path.chmod(0o444)
        return self

    def __exit__(self, *exc):
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(self.path)], check=True)
        else:
            self.path.chmod(0o644)


async def test_sqlite_read_only_file_is_refused_at_open(tmp_path):
    path = tmp_path / "db.sqlite3"
    s = await SQLiteStore.open(path)
    await s.save(playing(1), None)
    await s.close()
    with ReadOnly(path):
        with pytest.raises(StoreError) as e:
            await SQLiteStore.open(path)
    assert "read-only" in str(e.value)
    assert str(path) in str(e.value)


async def test_postgres_read_only_is_refused_at_open(pg_server):
    from bot.store.postgres import PostgresStore

    admin = await PostgresStore.open(pg_server.dsn, schema="ro_setup")
    await admin.execute("CREATE ROLE reader LOGIN")
    await admin.execute("ALTER ROLE reader SET default_transaction_read_only = on")
    await admin.close()
    dsn = pg_server.dsn.replace("postgres@", "reader@")
    with pytest.raises(StoreError) as e:
        await PostgresStore.open(dsn, schema="ro_setup")
    assert "read-only" in str(e.value)


async def test_sqlite_disk_full_is_named_and_the_store_recovers(tmp_path):
    s = await SQLiteStore.open(tmp_path / "db.sqlite3")
    await s.save(playing(1), None)
    (pages,) = (await s.execute("PRAGMA page_count"))[0]
    await s.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk fills after two more pages
    big = await s.get(1)
    big.state = {"blob": "x" * 200_000}
    big.moves = [[0, "m" * 50, 1.0]] * 500
    big.revision = 2
    with pytest.raises(StoreError) as e:
        await s.save(big, 1)
    assert "disk is full" in str(e.value)
    assert "cannot rollback" not in str(e.value)
    got = await s.get(1)
    assert (got.revision, got.moves) == (1, [])  # nothing half-written
    await s.execute("PRAGMA max_page_count = 1000000")
    await s.save(big, 1)  # the next write works
    assert (await s.get(1)).revision == 2
    await s.close()


async def test_sqlite_a_file_that_is_not_a_database_is_named(tmp_path):
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"not a database at all " * 100)
    with pytest.raises(StoreError) as e:
        await SQLiteStore.open(path)
    assert "not a SQLite database" in str(e.value) and str(path) in str(e.value)


async def test_postgres_a_lost_connection_is_named_and_the_store_recovers(pg_server):
    from bot.store.postgres import PostgresStore

    s = await PostgresStore.open(pg_server.dsn, schema="lost", max_size=2)
    await s.save(playing(1), None)
    busy = asyncio.ensure_future(s.execute("SELECT pg_sleep(30)"))
    await cut_connection_running(pg_server.dsn, "lost", "SELECT pg_sleep(30)")
    with pytest.raises(StoreError) as e:
        await busy
    assert "PostgreSQL" in str(e.value) and ("shut down" in str(e.value) or "connection" in str(e.value))
    t = await s.get(1)  # the pool reconnects: the next operation works
    t.revision = 2
    await s.save(t, 1)
    assert (await s.get(1)).revision == 2
    await s.close()


async def test_open_store_picks_the_back_end(tmp_path, pg_server):
    s = await open_store(tmp_path / "x.sqlite3")
    assert s.backend == "sqlite"
    await s.close()
    s = await open_store(None, env={"DECKHAND_DATABASE": str(tmp_path / "y.sqlite3")})
    assert s.backend == "sqlite" and s.path == tmp_path / "y.sqlite3"
    await s.close()
    s = await open_store(None, env={"DATABASE_URL": pg_server.dsn})
    assert s.backend == "postgres"
    await s.close()


def test_open_store_names_the_extra_when_asyncpg_is_missing():
    code = (
        "import sys, asyncio; sys.modules['asyncpg'] = None\n"
        "from bot.store import open_store, StoreError\n"
        "try:\n    asyncio.run(open_store('postgresql://u@/db'))\n"
        "except StoreError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "pip install '.[postgres]'" in out.stdout, out.stderr
