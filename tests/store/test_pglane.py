"""The PostgreSQL store's lane (bot.store.pglane): a press's statements on connections kept at
hand, without the pool's round per statement; a broken, cancelled or closed connection goes back
to the pool, which mends it; a full lane sends the statement through the pool. A real server."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import StoreError
from bot.store.pglane import _usable
from tests.store.helpers import cut_connection_running, playing


@pytest.fixture
async def pg(pg_server, request):
    from bot.store.postgres import PostgresStore

    s = await PostgresStore.open(pg_server.dsn, schema=f"lane_{request.node.name[5:30]}", max_size=4)
    yield s
    await s.close()


async def _pid(s) -> int:
    return (await s.lane.fetch("SELECT pg_backend_pid() AS pid"))[0]["pid"]


async def test_a_press_s_statements_reuse_one_connection_without_the_pool(pg, monkeypatch):
    await pg.save(playing(1), None)
    taken = []
    real = asyncpg.Pool.acquire
    monkeypatch.setattr(asyncpg.Pool, "acquire", lambda self, *a, **k: taken.append(1) or real(self, *a, **k))
    t = await pg.get(1)
    for rev in range(1, 6):  # moves: one statement each
        t.revision = rev + 1
        await pg.save(t, rev)
        t = await pg.get(1, t)
        assert await pg.seen_interaction(1000 + rev) is False
    assert len(taken) <= 1  # the lane took its one connection once (or had it already)
    assert pg.lane.held == 1 and len(pg.lane.idle) == 1
    assert (await pg.get(1)).revision == 6
    assert pg.lane.size == 2  # half the pool: transactions always find connections there


async def test_a_connection_cut_while_kept_is_mended_by_the_pool(pg, pg_server):
    from bot.store.postgres import PostgresStore

    await pg.save(playing(1), None)
    pid = await _pid(pg)
    other = await PostgresStore.open(pg_server.dsn, schema="lane_other", max_size=1)
    await other.execute("SELECT pg_terminate_backend($1)", (pid,))
    await other.close()
    for _ in range(100):  # the client notices the server hung up
        if not _usable(pg.lane.idle[0]):
            break
        await asyncio.sleep(0.01)
    assert (await pg.get(1)).channel_id == 1  # no error: the closed one went back, another was taken
    assert await _pid(pg) != pid
    assert pg.lane.held == 1


async def test_a_failed_statement_gives_its_connection_back_to_the_pool(pg, pg_server):

    await pg.save(playing(1), None)
    busy = asyncio.ensure_future(pg.lane.fetch("SELECT pg_sleep(30)"))
    await cut_connection_running(pg_server.dsn, "lane_other2", "SELECT pg_sleep(30)")
    with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, OSError)):
        await busy
    assert pg.lane.held == 0 and not pg.lane.idle  # back to the pool, not kept
    t = await pg.get(1)  # the pool reconnects: the next statements work
    t.revision = 2
    await pg.save(t, 1)
    assert (await pg.get(1)).revision == 2


async def test_a_cancelled_statement_gives_its_connection_back_and_the_next_works(pg):
    await pg.save(playing(1), None)
    busy = asyncio.ensure_future(pg.lane.fetch("SELECT pg_sleep(30)"))
    await asyncio.sleep(0.2)
    busy.cancel()
    with pytest.raises(asyncio.CancelledError):
        await busy
    assert pg.lane.held == 0
    assert (await pg.get(1)).channel_id == 1
    assert [r["n"] for r in await pg.lane.fetch("SELECT 7 AS n")] == [7]


async def test_a_full_lane_sends_statements_through_the_pool(pg):
    await pg.save(playing(1), None)
    slow = [asyncio.ensure_future(pg.lane.fetch("SELECT pg_sleep(0.3)")) for _ in range(3)]
    await asyncio.sleep(0.05)
    assert pg.lane.held == pg.lane.size == 2  # two in the lane, the third through the pool
    assert (await pg.get(1)).channel_id == 1  # and a fourth as well, at once
    await asyncio.gather(*slow)
    assert pg.lane.held == 2 and len(pg.lane.idle) == 2


async def test_closing_gives_every_connection_back(pg_server):
    from bot.store.postgres import PostgresStore

    s = await PostgresStore.open(pg_server.dsn, schema="lane_close", max_size=4)
    await s.save(playing(1), None)
    busy = asyncio.ensure_future(s.lane.fetch("SELECT pg_sleep(0.3)"))
    await s.get(1)
    await asyncio.sleep(0.05)
    await asyncio.wait_for(s.close(), 10)  # waits for the busy statement, which gives its connection back
    assert busy.done() and s.lane.held == 0
    with pytest.raises(StoreError):
        await s.get(1)
