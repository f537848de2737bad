"""The store on both back ends: round trips, revisions, records, stats, table ids, reopening."""

from __future__ import annotations

import pytest

from bot.store import Seat, StaleRevision, StoreError, TableStore
from bot.store.sqlite import SCHEMA_VERSION as SQLITE_VERSION
from bot.store.sqlite import SQLiteStore
from tests.store.helpers import playing, row


async def test_both_back_ends_follow_the_protocol(store):
    assert isinstance(store, TableStore)
    assert await store.migrate() >= 1  # idempotent


async def test_sqlite_wal_and_numbered_migrations(tmp_path):
    s = await SQLiteStore.open(tmp_path / "a" / "b" / "db.sqlite3")  # folders created
    assert await s.execute("PRAGMA user_version") == [(SQLITE_VERSION,)]
    assert await s.execute("PRAGMA journal_mode") == [("wal",)]
    assert await s.migrate() == SQLITE_VERSION
    await s.close()


async def test_save_and_load_round_trip(store):
    t = row()
    t.state = {"x": [1, 2], "name": "Zoë ♥"}
    t.moves = [[0, "draw", 1.5]]
    t.events = ["Ana opened a table."]
    t.series = {"games": 2}
    await store.save(t, None)
    got = await store.get(1)
    assert (got.seats, got.options, got.state, got.moves, got.events, got.series, got.revision, got.table_id) == (
        t.seats, t.options, t.state, t.moves, t.events, t.series, 1, t.table_id)
    assert await store.get(2) is None


async def test_stale_revision_refused(store):
    await store.save(row(), None)
    t = await store.get(1)
    t.revision = 2
    await store.save(t, 1)
    t.revision = 3
    with pytest.raises(StaleRevision):
        await store.save(t, 1)  # computed from revision 1, but 2 is stored
    assert (await store.get(1)).revision == 2


async def test_a_replaced_table_refuses_a_save_computed_from_the_old_one(store):
    old = row(rev=1)
    await store.save(old, None)
    new = row(rev=1)  # a new game in the channel, again at revision 1
    await store.save(new, None)
    assert new.table_id != old.table_id
    old.seats.append(Seat(8, "Ben"))
    with pytest.raises(StaleRevision):
        await store.save(old, 1)
    assert (await store.get(1)).seats == [Seat(7, "Ana")]


async def test_failed_transaction_writes_nothing(store):
    await store.save(row(), None)
    t = await store.get(1)
    t.revision = 2
    t.moves = [[0, "x", 1.0]]
    with pytest.raises(StoreError) as e:
        # A user id None breaks results' NOT NULL: the whole save is undone.
        await store.save(t, 1, record={"a": 1}, result="finished", results=[(None, "x", "win")])  # type: ignore[list-item]
    assert "save the table" in str(e.value)
    got = await store.get(1)
    assert (got.revision, got.moves) == (1, [])
    assert await store.last_record(1) is None


async def test_records_and_stats(store):
    t = row()
    await store.save(t, None)
    t.revision = 2
    await store.save(t, 1, record={"game": "gridcannon", "moves": []}, result="finished", results=[(7, "Ana", "win")])
    assert await store.last_record(1) == {"game": "gridcannon", "moves": []}
    assert await store.stats(None, "gridcannon", None) == [
        {"game": "gridcannon", "user_id": 7, "name": "Ana", "played": 1, "won": 1, "lost": 0, "drawn": 0}]
    assert await store.stats(None, "gridcannon", 8) == []
    assert await store.stats(5, None, None) == []


async def test_reopen_keeps_everything(backend):
    s = await backend.open()
    await s.save(row(5, moves=[[0, "a", 1.0]]), None)
    await s.close()
    s2 = await backend.open()
    got = await s2.get(5)
    assert (got.seed, got.moves) == (42, [[0, "a", 1.0]])
    await s2.close()


async def test_listing_by_status(store):
    await store.save(row(1), None)
    await store.save(playing(2), None)
    await store.save(row(3, status="finished"), None)
    assert [t.channel_id for t in await store.tables("playing")] == [2]
    assert [t.channel_id for t in await store.tables()] == [1, 2, 3]
    await store.delete(2)
    assert await store.get(2) is None
    assert [t.channel_id for t in await store.tables()] == [1, 3]


async def test_drafts_named_by_id(store):
    a = await store.put_draft("tbl1", 0, 7, ["attack", {"from": "d3"}])
    b = await store.put_draft("tbl1", 0, 7, ["attack"])
    assert a != b and len(a) <= 16
    got = await store.get_draft(a)
    assert (got.table_id, got.seat, got.decision_rev, got.tokens) == ("tbl1", 0, 7, ["attack", {"from": "d3"}])
    assert await store.get_draft("nope") is None


async def test_an_interaction_is_seen_once(store):
    assert await store.seen_interaction(1234567890123456789) is False
    assert await store.seen_interaction(1234567890123456789) is True
    assert await store.seen_interaction("other") is False


async def test_save_many_writes_each_table_and_refuses_only_the_stale_ones(store):
    """Several tables' changes in one transaction: each written as save would (revision, columns,
    new moves, alarm), a stale one refused alone and left as stored."""
    for ch in (1, 2, 3):
        await store.save(playing(ch, since=1000.0, seats=[Seat(7, "Ana"), Seat(8, "Ben")]), None)
    a, b, c = [await store.get(ch) for ch in (1, 2, 3)]
    b2 = await store.get(2)  # someone else saves table 2 first
    b2.revision = 2
    b2.events = ["Ben moved."]
    await store.save(b2, 1)
    for t, text in ((a, "Time is up for Ana."), (b, "Time is up for Ben."), (c, "Time is up for Cat.")):
        t.timed_out = True
        t.warned_for = t.turn_since
        t.events = [text]
        t.revision = 2
    a.moves = [[0, "draw", 1.0]]  # a change may append moves too
    c.saved_moves = None  # the moves the store holds unknown: read in the transaction
    assert await store.save_many([(a, 1), (b, 1), (c, 1)]) == [True, False, True]
    got = {ch: await store.get(ch) for ch in (1, 2, 3)}
    assert (got[1].revision, got[1].timed_out, got[1].events, got[1].moves) == (2, True, ["Time is up for Ana."],
                                                                                [[0, "draw", 1.0]])
    assert (got[3].revision, got[3].timed_out, got[3].events) == (2, True, ["Time is up for Cat."])
    assert (got[2].revision, got[2].timed_out, got[2].events) == (2, False, ["Ben moved."]), "the stale one untouched"
    assert got[1].alarm is None and got[3].alarm is None  # told: out of the sweep until the turn changes
    assert [t.channel_id for t in await store.due(10_000.0, 10)] == [2]
    assert await store.save_many([]) == []
    a.revision = 3
    a.moves.append([1, "place 5", 2.0])  # the moves the store holds are known from the last save
    assert await store.save_many([(a, 2)]) == [True]
    assert (await store.get(1)).moves == [[0, "draw", 1.0], [1, "place 5", 2.0]]
