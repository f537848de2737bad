"""The turn-limit sweep's alarm, on both back ends: an indexed column holding the next time a
playing table needs the sweep (the warning when a quarter of the turn is left, once per turn,
else the deadline); ``due`` reads only the rows whose alarm is due, and a damaged row never
stops the sweep."""

from __future__ import annotations

import pytest


import bot.tables
from bot.store import Seat, SQLiteStore
from bot.tables import TIME_UP, Actor
from bot.tables.service import TableService
from tests.conftest import Clock
from tests.store.helpers import playing, schema1_database

TWO = [Seat(7, "Ana"), Seat(8, "Ben")]


async def stored_alarm(store, channel: int) -> tuple[float | None, float | None]:
    return tuple(await store.execute(f"SELECT alarm, warned_for FROM tables WHERE channel_id = {channel}"))[0]


async def test_the_alarm_is_the_warning_then_the_deadline(store):
    t = playing(1, since=1000.0, limit=60, seats=list(TWO))
    assert (t.warn_at, t.deadline, t.alarm) == (1045.0, 1060.0, 1045.0)
    await store.save(t, None)
    assert await stored_alarm(store, 1) == (1045.0, None)
    assert await store.due(1044.9) == []
    assert [x.channel_id for x in await store.due(1045.0)] == [1]
    # Warned: the alarm moves on to the deadline, and this turn is never warned again.
    t.warned_for, t.revision = t.turn_since, 2
    await store.save(t, 1)
    got = await store.get(1)
    assert (got.warned_for, got.warn_at, got.alarm) == (1000.0, None, 1060.0)
    assert await stored_alarm(store, 1) == (1060.0, 1000.0)
    assert await store.due(1059.9) == []
    assert [x.channel_id for x in await store.due(1060.0)] == [1]
    # Told that time is up: no alarm until the turn passes; the next turn has its own warning.
    t.timed_out, t.revision = True, 3
    await store.save(t, 2)
    assert await store.due(1e12) == []
    t.timed_out, t.turn_since, t.revision = False, 1100.0, 4
    await store.save(t, 3)
    assert await stored_alarm(store, 1) == (1145.0, 1000.0)
    assert [x.channel_id for x in await store.due(1145.0)] == [1]


async def test_a_solo_table_has_no_warning(store):
    t = playing(1, since=1000.0, limit=60)
    assert (t.warn_at, t.alarm) == (None, 1060.0)
    await store.save(t, None)
    assert await store.due(1059.0) == []


async def test_a_damaged_row_leaves_the_sweep_for_good(store):
    await store.save(playing(1, since=1000.0, seats=list(TWO)), None)
    await store.save(playing(2, since=1000.0, seats=list(TWO)), None)
    await store.execute("UPDATE tables SET state = substr(state, 1, 5) WHERE channel_id = 1")
    assert [t.channel_id for t in await store.due(5000.0)] == [2]
    assert await stored_alarm(store, 1) == (None, None)


async def test_the_sweep_pages_past_damaged_rows(store, monkeypatch):
    """Pages of 3; the second due table is damaged, so the first page holds 2 sound tables: the
    sweep still reaches every other due table, and tells each once."""
    monkeypatch.setattr(bot.tables.clock, "SWEEP_PAGE", 3)
    clock = Clock()
    service = TableService(store, clock=clock)
    ana, ben = Actor(100, "Ana"), Actor(101, "Ben")
    channels = list(range(10, 18))
    for ch in channels:
        await service.new_table(ch, 1, ana, "cardchess2")
        await service.join(ch, ben)
        await service.set_turn_limit(ch, ana, 60)
        await service.start(ch, ana)
    await store.save(playing(99, since=clock() + 3600, seats=list(TWO)), None)  # not due
    await store.execute(f"UPDATE tables SET state = substr(state, 1, 9) WHERE channel_id = {channels[1]}")
    clock.advance(61)
    changes = await service.check_timeouts()
    assert sorted(c.table.channel_id for c in changes) == [ch for ch in channels if ch != channels[1]]
    assert all(c.notice is not None and c.notice.kind == TIME_UP for c in changes)
    assert await service.check_timeouts() == []
    assert await stored_alarm(store, channels[1]) == (None, None)


async def test_the_sweep_reads_through_the_alarm_index(tmp_path):
    """EXPLAIN QUERY PLAN of the very statements ``due`` runs (first page and a later page): a
    range search of the alarm index, no scan of the table and no sort."""
    s = await SQLiteStore.open(tmp_path / "db.sqlite3")
    try:
        for ch in range(1, 30):
            await s.save(playing(ch, since=1000.0 + ch, seats=list(TWO)), None)
        ran: list[str] = []
        s._reader.conn.set_trace_callback(ran.append)
        page = await s.due(5000.0, 10)
        await s.due(5000.0, 10, (page[-1].alarm, page[-1].channel_id))
        s._reader.conn.set_trace_callback(None)
        queries = [q for q in ran if q.lstrip().upper().startswith("SELECT") and "alarm" in q]
        assert len(queries) == 2, ran
        for q in queries:
            plan = " | ".join(str(tuple(step)) for step in await s.execute("EXPLAIN QUERY PLAN " + q))
            assert "USING INDEX tables_alarm" in plan, plan
            assert "SCAN tables" not in plan and "TEMP B-TREE" not in plan, plan
    finally:
        await s.close()


async def test_an_old_database_gets_alarms_that_match_its_rows(tmp_path):
    """A turn in progress at the upgrade counts as warned: its alarm is its deadline, and the
    stored alarm is exactly what the row computes (the sweep's paging key)."""
    path = schema1_database(tmp_path / "old.sqlite3")
    s = await SQLiteStore.open(path)
    try:
        stored = dict(((c, (a, w)) for c, a, w in await s.execute("SELECT channel_id, alarm, warned_for FROM tables")))
        playing_rows = await s.tables("playing")
        assert playing_rows
        for t in await s.tables():
            assert stored[t.channel_id] == (t.alarm, t.warned_for)
            if t.status == "playing":
                assert t.alarm == t.deadline is not None and t.warned_for == t.turn_since
            else:
                assert t.alarm is None
    finally:
        await s.close()


async def test_a_warning_saved_at_the_same_revision_is_never_lost_nor_lost_over(store):
    """The sweep's warning is saved without bumping the revision (the table's buttons stay
    valid); the store checks the warning mark beside the revision, so neither a move computed
    from the row before it nor a second sweep that read the same row writes over it, and a move
    that read the row before it never lands on top of it silently."""
    from bot.store import StaleRevision

    t = playing(1, rev=1, since=1000.0, limit=60, seats=list(TWO))
    await store.save(t, None)
    read = await store.get(1)  # a move and two sweeps all read the row at revision 1, not warned
    mover, sweep, other_sweep = [await store.get(1) for _ in range(3)]
    assert read.stored_warned == (None,) and read.revision == 1
    sweep.warned_for = sweep.turn_since  # the warning: same revision
    assert await store.save_many([(sweep, 1)]) == [True]
    assert sweep.stored_warned == (1000.0,) and sweep.revision == 1
    assert await stored_alarm(store, 1) == (1060.0, 1000.0)
    # The other sweep's mark of the same turn is refused (it would tell the player twice).
    other_sweep.warned_for = other_sweep.turn_since
    assert await store.save_many([(other_sweep, 1)]) == [False]
    # The move computed from the row before the warning is refused, in both kinds of save.
    mover.revision, mover.events = 2, ["Ana moved."]
    with pytest.raises(StaleRevision):
        await store.save(mover, 1)
    assert await store.save_many([(mover, 1)]) == [False]
    mover.saved_moves = None  # the save that reads the stored move count first
    with pytest.raises(StaleRevision):
        await store.save(mover, 1)
    got = await store.get(1)
    assert (got.revision, got.warned_for, got.events) == (1, 1000.0, [])
    # Decided again on the stored row (as the table service does), the move lands and keeps the mark.
    got.revision, got.events = 2, ["Ana moved."]
    await store.save(got, 1)
    got = await store.get(1)
    assert (got.revision, got.warned_for, got.events, got.warn_at) == (2, 1000.0, ["Ana moved."], None)
    # A sweep that read the row before that move cannot save its mark over it either.
    late = await store.get(1)
    late.revision = 1
    late.stored_warned = (None,)
    late.warned_for = 1000.0
    assert await store.save_many([(late, 1)]) == [False]
    assert (await store.get(1)).events == ["Ana moved."]


async def test_a_move_in_another_process_after_a_warning_keeps_it(backend):
    """Two processes on one database: one sweeps (a warning, at the same revision), the other holds
    the row from before it and its player moves with the button's revision. The move is decided
    again on the stored row (not refused, not written over the mark): the turn is warned once."""
    from bot.tables import WARNING
    from bot.tables.games import load_game

    clock = Clock()
    people = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat"])]
    sweeper, mover = TableService(await backend.open(), clock=clock), TableService(await backend.open(), clock=clock)
    try:
        await mover.new_table(5, 1, people[0], "court_wars", seed=5)
        for p in people[1:]:
            await mover.join(5, p)
        await mover.set_turn_limit(5, people[0], 600)
        await mover.start(5, people[0])
        held = mover.cached(5)
        late = min(load_game(held).to_act())
        clock.advance(450)
        [change] = await sweeper.check_timeouts()
        assert change.notice.kind == WARNING and change.table.revision == held.revision
        moved = await mover.move(5, people[late], "draw", held.revision)  # its cached row is from before
        assert moved.table.revision == held.revision + 1 and moved.table.warned_for == held.turn_since
        assert await sweeper.check_timeouts() == [], "warned once"
        stored = await sweeper.get(5)
        assert (stored.revision, stored.warned_for, len(stored.moves)) == (held.revision + 1, held.turn_since,
                                                                          len(held.moves) + 1)
    finally:
        await sweeper.store.close()
        await mover.store.close()
