"""Concurrent saves through one store (the fault of issue 11: `BEGIN IMMEDIATE` of a second save
failed with "cannot start a transaction within a transaction")."""

from __future__ import annotations

import asyncio

from bot.store import StaleRevision
from tests.store.helpers import playing

TABLES = 40
ROUNDS = 5


async def test_forty_channels_saving_at_once_all_succeed(store):
    await asyncio.gather(*(store.save(playing(ch), None) for ch in range(1, TABLES + 1)))

    async def move(ch: int, n: int) -> None:
        t = await store.get(ch)
        t.moves.append([0, f"m{n}", float(n)])
        t.revision += 1
        await store.save(t, t.revision - 1)

    for n in range(ROUNDS):  # each round: every table saves at the same moment
        results = await asyncio.gather(*(move(ch, n) for ch in range(1, TABLES + 1)), return_exceptions=True)
        assert [r for r in results if r is not None] == []
    for t in await store.tables("playing"):
        assert t.revision == 1 + ROUNDS  # no lost update
        assert [m[1] for m in t.moves] == [f"m{n}" for n in range(ROUNDS)]
    assert len(await store.tables("playing")) == TABLES


async def test_concurrent_writes_to_one_table_one_wins_per_revision(store):
    await store.save(playing(1), None)
    for rev in range(1, 6):
        base = await store.get(1)
        writers = []
        for w in range(8):
            t = await store.get(1)
            t.moves.append([0, f"r{rev}w{w}", 0.0])
            t.revision = rev + 1
            writers.append(store.save(t, rev))
        results = await asyncio.gather(*writers, return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, StaleRevision) for r in results if r is not None)
        got = await store.get(1)
        assert got.revision == rev + 1
        assert len(got.moves) == len(base.moves) + 1  # exactly the winner's move was appended


async def test_reads_during_writes_see_whole_saves(store):
    await store.save(playing(1), None)

    async def writer() -> None:
        for n in range(30):
            t = await store.get(1)
            t.moves.append([0, f"m{n}", 0.0])
            t.events = [f"event {n}"]
            t.revision += 1
            await store.save(t, t.revision - 1)

    seen = []

    async def reader() -> None:
        for _ in range(60):
            t = await store.get(1)
            seen.append((t.revision, len(t.moves), t.events))
            await asyncio.sleep(0)

    await asyncio.gather(writer(), reader(), reader())
    # Every read saw a committed save: the row and its move log from the same moment.
    assert all(len_moves == rev - 1 for rev, len_moves, _ in seen)
    assert all(events == ([] if rev == 1 else [f"event {rev - 2}"]) for rev, _, events in seen)
