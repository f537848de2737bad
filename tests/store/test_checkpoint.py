"""SQLite's WAL is written back by the store's checkpointer, beside the writer, never inside a
commit (SQLite's automatic checkpoint would make one commit in a few hundred wait for it)."""

from __future__ import annotations

import asyncio
import os
import threading

from bot.store import SQLiteStore
from bot.store.sqlite import CHECKPOINT_EVERY


async def test_the_writer_never_checkpoints_and_the_checkpointer_keeps_the_wal_small(tmp_path):
    path = tmp_path / "deckhand.db"
    store = await SQLiteStore.open(path)
    try:
        assert await store._writer.run(lambda c: c.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == 0
        wal = path.with_name(path.name + "-wal")
        sizes = []
        for n in range(5 * CHECKPOINT_EVERY):
            assert not await store.seen_interaction(10**17 + n)
            if n % CHECKPOINT_EVERY == CHECKPOINT_EVERY - 1:
                assert store._checkpoint is not None
                busy, pages, written = await store._checkpoint
                assert (busy, written) == (0, pages) and pages > 0  # all of it written back
                sizes.append(os.path.getsize(wal))
        # Written back, the WAL is reused from its start: it stops growing after the first round.
        assert sizes[-1] == sizes[1], sizes
        assert await store.seen_interaction(10**17)  # every commit is there
    finally:
        await store.close()
    assert not any(t.name.startswith("store-checkpoint") for t in threading.enumerate())


async def test_a_checkpoint_in_flight_is_finished_by_close(tmp_path):
    path = tmp_path / "deckhand.db"
    store = await SQLiteStore.open(path)
    for n in range(CHECKPOINT_EVERY):
        await store.seen_interaction(n)
    task = store._checkpoint
    assert task is not None
    await store.close()
    assert task.done() and not task.cancelled() and task.result() is not None
    again = await SQLiteStore.open(path)
    try:
        assert await again.seen_interaction(CHECKPOINT_EVERY - 1)
    finally:
        await again.close()


async def test_an_in_memory_store_has_no_checkpointer():
    store = await SQLiteStore.open(":memory:")
    try:
        for n in range(CHECKPOINT_EVERY + 1):
            await store.seen_interaction(n)
        await asyncio.sleep(0)
        assert store._checkpoint is None
    finally:
        await store.close()
