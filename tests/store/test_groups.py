"""The SQLite store's writes in groups (bot.store.sqlite_group): writes asked together share one
transaction, each in a savepoint of its own; one that fails is rolled back and raised alone; a
COMMIT that fails fails them all; a write is answered only once committed."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.store import AlreadySeen, SQLiteStore, StaleRevision, StoreError
from bot.store.sqlite_group import GROUP_LIMIT
from tests.store.helpers import playing

ROOT = Path(__file__).resolve().parents[2]


class Trail:
    """The statements the store's writer connection runs (SQLite's trace callback)."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    async def follow(self, store: SQLiteStore) -> Trail:
        await store._writer.run(lambda c: c.set_trace_callback(self.statements.append))
        return self

    def count(self, word: str) -> int:
        return sum(1 for s in self.statements if s.split()[0].upper() == word)

    def clear(self) -> None:
        self.statements.clear()


@pytest.fixture
async def sqlite(tmp_path):
    s = await SQLiteStore.open(tmp_path / "deckhand.sqlite3")
    yield s
    await s.close()


IDS: dict[int, str] = {}


async def new(store: SQLiteStore, *channels: int) -> None:
    for ch in channels:
        t = playing(ch)
        await store.save(t, None)
        IDS[ch] = t.table_id


def moved(channel: int, rev: int, moves: int):
    """The table of ``channel`` (made by :func:`new`) at revision ``rev + 1`` with ``moves`` moves,
    as a save from ``rev`` writes it."""
    t = playing(channel, rev + 1, table_id=IDS[channel])
    t.moves = [[0, f"m{i}", 1.0] for i in range(moves)]
    return t


async def test_saves_asked_together_are_one_transaction(sqlite):
    await new(sqlite, *range(1, 11))
    trail = await Trail().follow(sqlite)
    await asyncio.gather(*(sqlite.save(moved(ch, 1, 1), 1) for ch in range(1, 11)),
                         sqlite.seen_interaction(77))
    assert (trail.count("BEGIN"), trail.count("COMMIT")) == (1, 1), trail.statements
    assert trail.count("SAVEPOINT") == 11
    for ch in range(1, 11):
        got = await sqlite.get(ch)
        assert (got.revision, [m[1] for m in got.moves]) == (2, ["m0"])
    assert await sqlite.seen_interaction(77)


async def test_a_write_alone_is_one_transaction_without_a_savepoint(sqlite):
    await new(sqlite, 1)
    trail = await Trail().follow(sqlite)
    await sqlite.save(moved(1, 1, 1), 1)
    assert [s.split()[0] for s in trail.statements if s.split()[0] in ("BEGIN", "COMMIT", "SAVEPOINT")] == \
        ["BEGIN", "COMMIT"]


async def test_a_group_is_bounded(sqlite):
    trail = await Trail().follow(sqlite)
    await asyncio.gather(*(sqlite.seen_interaction(i) for i in range(GROUP_LIMIT * 2 + 1)))
    assert trail.count("COMMIT") == 3


async def test_a_stale_save_in_a_group_fails_alone_and_the_others_are_written(sqlite):
    await new(sqlite, 1, 2, 3)
    await sqlite.seen_interaction(500)
    trail = await Trail().follow(sqlite)
    got = await asyncio.gather(sqlite.save(moved(1, 1, 2), 1),
                               sqlite.save(moved(2, 7, 2), 7),  # computed from a revision the store never had
                               sqlite.save(moved(3, 1, 2), 1, interaction_id=500),  # delivered twice
                               sqlite.save(moved(3, 1, 3), 1, interaction_id=501),
                               return_exceptions=True)
    assert trail.count("COMMIT") == 1
    assert got[0] is None and got[3] is None
    assert type(got[1]) is StaleRevision and got[1].args == (2,)
    assert type(got[2]) is AlreadySeen
    assert [len((await sqlite.get(ch)).moves) for ch in (1, 2, 3)] == [2, 0, 3]
    assert [(await sqlite.get(ch)).revision for ch in (1, 2, 3)] == [2, 1, 2]
    assert await sqlite.seen_interaction(501)


async def test_a_broken_rule_in_a_group_is_named_and_fails_alone(sqlite):
    await new(sqlite, 1)
    got = await asyncio.gather(sqlite.execute("INSERT INTO jobs (name, done_at) VALUES ('a', 1)"),
                               sqlite.execute("INSERT INTO jobs (name, done_at) VALUES ('a', 2)"),  # the same key
                               sqlite.save(moved(1, 1, 1), 1), return_exceptions=True)
    assert got[0] == [] and got[2] is None
    assert type(got[1]) is StoreError and "Could not run a statement in" in str(got[1])
    assert "a value broke a rule of the schema" in str(got[1])
    assert isinstance(got[1].__cause__, sqlite3.IntegrityError)
    assert await sqlite.execute("SELECT name, done_at FROM jobs") == [("a", 1.0)]
    assert (await sqlite.get(1)).revision == 2


async def test_a_failing_commit_fails_every_write_of_the_group(sqlite):
    await new(sqlite, 1, 2)

    def orphan(conn: sqlite3.Connection) -> None:  # a result of no record: refused at COMMIT
        conn.execute("PRAGMA defer_foreign_keys = ON")
        conn.execute("INSERT INTO results (record_id, guild_id, game, user_id, name, outcome) "
                     "VALUES (999, NULL, 'gridcannon', 1, 'Ana', 'win')")

    trail = await Trail().follow(sqlite)
    got = await asyncio.gather(sqlite.save(moved(1, 1, 1), 1), sqlite._write("add an orphan", orphan),
                               sqlite.save(moved(2, 5, 1), 5), sqlite.seen_interaction(9), return_exceptions=True)
    assert trail.count("COMMIT") == 1
    assert type(got[2]) is StaleRevision  # its own failure stands
    for e, what in ((got[0], "save the table"), (got[1], "add an orphan"), (got[3], "remember an interaction")):
        assert type(e) is StoreError, got
        assert f"Could not {what} in" in str(e) and "a value broke a rule of the schema" in str(e)
    # Nothing of the group was written, and the next write works.
    assert [(await sqlite.get(ch)).revision for ch in (1, 2)] == [1, 1]
    assert await sqlite.execute("SELECT COUNT(*) FROM results") == [(0,)]
    assert not await sqlite.seen_interaction(9)
    await sqlite.save(moved(1, 1, 1), 1)
    assert (await sqlite.get(1)).revision == 2


async def test_writes_to_one_table_keep_their_order(sqlite):
    await new(sqlite, 1)
    trail = await Trail().follow(sqlite)
    # Each computed from the one before: any other order is stale.
    await asyncio.gather(*(sqlite.save(moved(1, rev, rev), rev) for rev in range(1, 9)))
    await asyncio.gather(*(sqlite.set_message_id(1, m) for m in range(100, 110)))
    assert trail.count("COMMIT") == 2
    got = await sqlite.get(1)
    assert (got.revision, [m[1] for m in got.moves]) == (9, [f"m{i}" for i in range(8)])
    assert await sqlite.message_id(1) == 109


async def test_reads_asked_together_are_one_read_transaction(sqlite):
    for ch in range(1, 6):
        await sqlite.save(playing(ch), None)
    reads: list[str] = []
    await sqlite._reader.run(lambda c: c.set_trace_callback(reads.append))
    got = await asyncio.gather(*(sqlite.get(ch) for ch in range(1, 8)), sqlite.message_id(1))
    assert [s for s in reads if s in ("BEGIN", "ROLLBACK")] == ["BEGIN", "ROLLBACK"]
    assert [t.channel_id for t in got[:5]] == [1, 2, 3, 4, 5] and got[5:] == [None, None, None]


async def test_a_crash_mid_group_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / "deckhand.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "tests.store.group_burst", str(path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acked: set[int] = set()
    try:
        for line in proc.stdout:
            acked.add(int(line.split()[1]))
            if len(acked) >= 400:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert len(acked) >= 400, proc.stderr.read()
    store = await SQLiteStore.open(path)
    try:
        stored = {int(i) for (i,) in await store.execute("SELECT id FROM interactions")}
    finally:
        await store.close()
    assert acked <= stored
    # Whole groups of eight: a group is committed whole or not at all.
    assert all(all(g * 8 + k in stored for k in range(8)) for g in {i // 8 for i in stored})


async def test_close_waits_for_a_group_in_flight(tmp_path):
    path = tmp_path / "deckhand.sqlite3"
    store = await SQLiteStore.open(path)
    on_thread, go = threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection) -> None:
        on_thread.set()
        go.wait(10)
        conn.execute("INSERT INTO jobs (name, done_at) VALUES ('slow', 1)")

    first = asyncio.ensure_future(store._write("mark a job done", slow))
    later = asyncio.ensure_future(store.seen_interaction(1))  # the same group
    await asyncio.to_thread(on_thread.wait, 10)
    after = asyncio.ensure_future(store.seen_interaction(2))  # asked while the group is on the thread
    closing = asyncio.ensure_future(store.close())
    await asyncio.sleep(0.05)
    assert not closing.done()
    go.set()
    await closing
    assert first.done() and later.done() and after.done()
    assert first.result() is None and later.result() is False and after.result() is False
    again = await SQLiteStore.open(path)
    try:
        assert await again.execute("SELECT name FROM jobs") == [("slow",)]
        assert await again.execute("SELECT id FROM interactions ORDER BY id") == [("1",), ("2",)]
    finally:
        await again.close()


async def test_a_caller_on_another_loop_is_answered_on_its_own(sqlite):
    def elsewhere() -> bool:  # another thread's loop, asking while this loop asks too
        return asyncio.run(sqlite.seen_interaction(5))

    got = await asyncio.gather(asyncio.to_thread(elsewhere), *(sqlite.seen_interaction(i) for i in range(6, 40)))
    assert got == [False] * 35
    assert await sqlite.seen_interaction(5)


async def test_a_full_disk_in_a_group_fails_the_write_that_filled_it(sqlite):
    await new(sqlite, 1, 2)
    (pages,) = (await sqlite.execute("PRAGMA page_count"))[0]
    await sqlite.execute(f"PRAGMA max_page_count = {pages + 4}")  # the disk fills after a few more pages
    big = moved(2, 1, 500)
    big.moves = [[0, "m" * 500, 1.0]] * 500
    trail = await Trail().follow(sqlite)
    got = await asyncio.gather(sqlite.save(moved(1, 1, 1), 1), sqlite.save(big, 1), sqlite.seen_interaction(3),
                               return_exceptions=True)
    # SQLite ends the whole transaction on a full disk: the write before is made again in a new one.
    assert (trail.count("BEGIN"), trail.count("COMMIT")) == (2, 1)
    assert got[0] is None and got[2] is False, got
    assert type(got[1]) is StoreError and "disk is full" in str(got[1]) and "Could not save the table" in str(got[1])
    assert [(await sqlite.get(ch)).revision for ch in (1, 2)] == [2, 1]
    assert (await sqlite.get(2)).moves == []
    assert await sqlite.seen_interaction(3)


async def test_the_checkpoint_counts_writes_not_commits(sqlite):
    from bot.store.sqlite_conn import CHECKPOINT_EVERY

    trail = await Trail().follow(sqlite)
    await asyncio.gather(*(sqlite.seen_interaction(i) for i in range(CHECKPOINT_EVERY)))
    assert trail.count("COMMIT") < CHECKPOINT_EVERY / 2
    assert sqlite._checkpoint is not None  # as many writes one at a time would have started one
    busy, pages, written = await sqlite._checkpoint
    assert busy == 0 and written == pages > 0
