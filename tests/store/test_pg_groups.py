"""The PostgreSQL store's one-row statements in groups (bot.store.pg_group): the calls made while one
of the same text is on its way go next, together, in one pipeline; each answers exactly what it
answers alone (a failing one raises to its caller only); a press remembered twice in one group is
new once."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import pytest

from bot.store import AlreadySeen, StaleRevision
from bot.store.postgres import PostgresStore
from tests.store.helpers import playing


@pytest.fixture
async def pg(pg_server):
    s = await PostgresStore.open(pg_server.dsn, schema=f"t_{uuid.uuid4().hex[:12]}")
    yield s
    await s.close()


class Spy:
    """Counts the one-row statements and the pipelines the grouping sends to the pool."""

    def __init__(self, store: PostgresStore):
        self.rows = 0
        self.pipelines: list[int] = []
        self.pool = store._grouped.pool
        store._grouped.pool = self

    async def fetchrow(self, sql, *args, **kw):
        self.rows += 1
        return await self.pool.fetchrow(sql, *args, **kw)

    async def fetchmany(self, sql, args, **kw):
        self.pipelines.append(len(args))
        return await self.pool.fetchmany(sql, args, **kw)


async def test_presses_remembered_at_once_go_in_groups_and_a_repeat_is_seen(pg):
    spy = Spy(pg)
    ids = [f"i{n}" for n in range(30)] + ["i3", "i7"]  # two presses delivered twice in the same burst
    seen = await asyncio.gather(*(pg.seen_interaction(i) for i in ids))
    assert seen[:30] == [False] * 30 and seen[30:] == [True, True]
    assert spy.rows == 1 and sum(spy.pipelines) == 31  # the first alone, the rest in one pipeline or a few
    assert await pg.seen_interaction("i0") and not await pg.seen_interaction("new")


async def test_moves_saved_at_once_each_answer_as_alone(pg):
    channels = range(1, 21)
    await asyncio.gather(*(pg.save(playing(ch), None) for ch in channels))
    spy = Spy(pg)

    async def move(ch: int, stale: bool, press: str) -> None:
        t = await pg.get(ch)
        t.moves.append([0, f"m{ch}", 1.0])
        t.revision += 1
        await pg.save(t, t.revision - 1 - (1 if stale else 0), interaction_id=press)

    results = await asyncio.gather(*(move(ch, ch == 5, f"p{ch}" if ch != 9 else "p8") for ch in channels),
                                   return_exceptions=True)
    assert isinstance(results[4], StaleRevision)  # channel 5: its revision was not the stored one
    assert isinstance(results[8], AlreadySeen) != isinstance(results[7], AlreadySeen)  # p8 pressed twice: once played
    assert [r for i, r in enumerate(results) if i not in (4, 7, 8)] == [None] * 17
    assert spy.pipelines  # saves went together
    for ch in channels:
        t = await pg.get(ch)
        played = isinstance(results[ch - 1], BaseException) is False
        assert (t.revision, len(t.moves)) == ((2, 1) if played else (1, 0))


async def test_a_statement_that_fails_in_a_group_fails_alone(pg):
    grouped = pg._grouped
    sql = "SELECT 10 / $1::int"
    results = await asyncio.gather(*(grouped.fetchrow(sql, [n]) for n in (1, 2, 0, 5, 0, 10)), return_exceptions=True)
    assert [r if isinstance(r, BaseException) else r[0] for r in results][:2] == [10, 5]
    assert isinstance(results[2], asyncpg.DivisionByZeroError) and isinstance(results[4], asyncpg.DivisionByZeroError)
    assert [results[3][0], results[5][0]] == [2, 1]
    assert not grouped._busy and not grouped._waiting  # nothing left behind
