"""The move log: a save appends only the new moves; a finished table keeps its record once;
deadlines are an indexed column and ``due`` pages through only what is due."""

from __future__ import annotations

from bot.store import MoveLog, Seat
from tests.store.helpers import playing, row


async def count(store, sql: str, *args) -> int:
    q = sql if store.backend == "sqlite" else sql.replace("?", "$1")
    return (await store.execute(q, args))[0][0]


async def test_a_move_appends_to_the_log(store):
    t = playing(1)
    await store.save(t, None)
    for n in range(10):
        t = await store.get(1)
        t.moves.append([n % 2, f"move {n}", 100.0 + n])
        t.revision += 1
        await store.save(t, t.revision - 1)
    got = await store.get(1)
    assert got.moves == [[n % 2, f"move {n}", 100.0 + n] for n in range(10)]
    assert await count(store, "SELECT COUNT(*) FROM moves WHERE table_id = ?", t.table_id) == 10


async def test_moves_cleared_in_a_save_leave_the_log(store):
    t = playing(1, moves=[[0, "a", 1.0], [0, "b", 2.0]])
    await store.save(t, None)
    t.moves = []
    t.revision = 2
    await store.save(t, 1)
    assert (await store.get(1)).moves == []
    assert await count(store, "SELECT COUNT(*) FROM moves WHERE table_id = ?", t.table_id) == 0


async def test_finished_table_keeps_its_moves_once_in_the_record(store):
    t = playing(1, moves=[[0, "a", 1.0], [0, "b", 2.0]])
    await store.save(t, None)
    t.status = "finished"
    t.turn_since = None
    t.moves.append([0, "c", 3.0])
    t.revision = 2
    record = {"format": 1, "game": "gridcannon", "moves": [[0, "a"], [0, "b"], [0, "c"]]}
    await store.save(t, 1, record=record, result="finished", results=[(7, "Ana", "win")])
    assert await count(store, "SELECT COUNT(*) FROM moves WHERE table_id = ?", t.table_id) == 0
    got = await store.get(1)
    assert got.moves == [[0, "a", None], [0, "b", None], [0, "c", None]]  # from the record; times not kept
    assert got.state == t.state  # the final state stays for rematches and the last picture
    got.revision = 3
    got.turn_limit = 120
    await store.save(got, 2)  # a later change to a finished table appends nothing
    assert len((await store.get(1)).moves) == 3
    assert await store.last_record(1) == record


async def test_a_new_game_in_the_channel_is_a_new_table(store):
    first = row(1)
    assert first.table_id == ""  # not saved yet
    await store.save(first, None)
    assert len(first.table_id) == 16
    rematch = row(1, rev=2, seats=[Seat(7, "Ana"), Seat(8, "Ben")])
    await store.save(rematch, None)
    got = await store.get(1)
    assert got.table_id == rematch.table_id != first.table_id


async def test_deadline_follows_the_turn_clock(store):
    t = playing(1, since=1000.0, limit=60)
    assert t.deadline == 1060.0
    await store.save(t, None)
    assert [x.channel_id for x in await store.due(1059.0)] == []
    assert [x.channel_id for x in await store.due(1060.0)] == [1]
    t.timed_out = True
    t.revision = 2
    await store.save(t, 1)
    assert await store.due(5000.0) == []
    assert row(2).deadline is None  # a lobby has no clock


async def test_due_reads_pages_in_deadline_order(store):
    for ch in range(1, 26):
        await store.save(playing(ch, since=1000.0 + (ch * 7) % 25, limit=60), None)
    await store.save(playing(99, since=5000.0), None)  # not due
    await store.save(row(98), None)  # a lobby
    seen, after = [], None
    while True:
        page = await store.due(2000.0, limit=10, after=after)
        assert len(page) <= 10
        seen += page
        if len(page) < 10:
            break
        after = (page[-1].deadline, page[-1].channel_id)
    assert sorted(t.channel_id for t in seen) == list(range(1, 26))
    assert [t.deadline for t in seen] == sorted(t.deadline for t in seen)


async def test_the_deadline_index_is_gone_and_the_sweep_reads_the_alarm_index(tmp_path):
    """The sweep's query goes through the alarm index; the old deadline index, which nothing
    read, is dropped (a save writes one index fewer)."""
    from bot.store import SQLiteStore

    s = await SQLiteStore.open(tmp_path / "db.sqlite3")
    indexes = {r[0] for r in await s.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    plan = await s.execute("EXPLAIN QUERY PLAN SELECT * FROM tables WHERE alarm IS NOT NULL AND alarm <= 5 "
                           "ORDER BY alarm, channel_id LIMIT 10")
    await s.close()
    assert "tables_deadline" not in indexes and "tables_alarm" in indexes
    assert any("tables_alarm" in str(step) for step in plan)


async def test_a_known_row_lends_its_log_only_while_the_store_is_at_it(store):
    """``get(known=...)``: the log of a row the caller holds stands for the stored one only at the
    same table, revision and length; once another writer moved on, the stored log is read."""
    t = playing(1, moves=[[0, "a", 1.0], [1, "b", 2.0]])
    await store.save(t, None)
    held = await store.get(1)
    again = await store.get(1, known=held)
    assert again.moves == [[0, "a", 1.0], [1, "b", 2.0]] and again.revision == held.revision
    assert again.moves is not held.moves  # a copy: a change to one leaves the other alone
    elsewhere = await store.get(1)  # another process moves on
    elsewhere.moves.append([0, "c", 3.0])
    elsewhere.revision += 1
    await store.save(elsewhere, elsewhere.revision - 1)
    moved = await store.get(1, known=held)
    assert moved.moves == [[0, "a", 1.0], [1, "b", 2.0], [0, "c", 3.0]] and moved.revision == held.revision + 1
    stale = await store.get(1)
    stale.moves = MoveLog(stale.moves[:1])  # same revision, another length: not the stored log
    assert (await store.get(1, known=stale)).moves == moved.moves
