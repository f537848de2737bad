"""Tournament rows on both back ends: create, read, revision-checked saves, the due index by shard."""

from __future__ import annotations

import pytest

from bot.store import StaleRevision
from bot.store.tournaments import TournamentStore


async def test_create_get_save_and_stale(store):
    ts = TournamentStore(store)
    row = await ts.create(1 << 22, 55, "signup", {"game": "cardchess2", "entrants": []}, 100.0)
    again = await ts.get(row.id)
    assert again is not None and again.data == {"game": "cardchess2", "entrants": []} and again.revision == 1
    again.data["entrants"].append([1, "Ana", 0.0, False])
    again.status, again.alarm = "running", None
    await ts.save(again, 1)
    assert again.revision == 2
    stored = await ts.get(row.id)
    assert stored.status == "running" and stored.alarm is None and stored.data["entrants"] == [[1, "Ana", 0.0, False]]
    row.data["entrants"] = []
    with pytest.raises(StaleRevision):
        await ts.save(row, 1)  # computed from revision 1: someone saved since
    assert (await ts.get(row.id)).data["entrants"] == [[1, "Ana", 0.0, False]], "nothing written"
    assert [t.id for t in await ts.in_channel(55)] == [row.id]
    assert await ts.get(row.id + 100) is None


async def test_due_by_alarm_and_shard(store):
    ts = TournamentStore(store)
    a = await ts.create(0 << 22, 1, "running", {}, 10.0)  # shard 0 of 2
    b = await ts.create(1 << 22, 2, "running", {}, 20.0)  # shard 1 of 2
    await ts.create(1 << 22, 3, "running", {}, 99.0)  # not due
    await ts.create(0 << 22, 4, "finished", {}, None)  # nothing to do
    assert [t.id for t in await ts.due(50.0)] == [a.id, b.id]
    assert [t.id for t in await ts.due(50.0, shards=(2, (0,)))] == [a.id]
    assert [t.id for t in await ts.due(50.0, shards=(2, (1,)))] == [b.id]
    assert [t.id for t in await ts.due(15.0)] == [a.id]
