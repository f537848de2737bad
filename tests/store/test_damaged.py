"""A damaged row never bricks anything: ``get`` names the damage, listings and the sweep skip it
(logged once), and ``set_aside`` keeps its raw content and frees the channel."""

from __future__ import annotations

import logging

import pytest

from bot.store import DamagedTable
from tests.store.helpers import playing

DAMAGES = {
    "a truncated state": ("UPDATE tables SET state = substr(state, 1, 12) WHERE channel_id = 1", "game state"),
    "garbage seats": ("UPDATE tables SET seats = 'garbage' WHERE channel_id = 1", "seats"),
    "seats of the wrong shape": ("UPDATE tables SET seats = '[1, 2]' WHERE channel_id = 1", "seats"),
    "an unknown game": ("UPDATE tables SET game = 'poker' WHERE channel_id = 1", "game 'poker' is unknown"),
    "a broken move": ("UPDATE moves SET entry = '[0, \"dr' WHERE ply = 1", "move log"),
}


async def damaged_store(store, sql: str):
    t = playing(1, since=1000.0, moves=[[0, "a", 1.0], [0, "b", 2.0]])
    await store.save(t, None)
    await store.save(playing(2, since=1000.0), None)
    await store.execute(sql)
    return t


@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_get_names_the_damage(store, damage):
    sql, words = DAMAGES[damage]
    await damaged_store(store, sql)
    with pytest.raises(DamagedTable) as e:
        await store.get(1)
    assert e.value.channel_id == 1
    assert words in e.value.reason
    assert (await store.get(2)).channel_id == 2  # the other table is untouched


async def test_listing_and_sweep_skip_it_and_report_it_once(store, caplog):
    await damaged_store(store, DAMAGES["a truncated state"][0])
    with caplog.at_level(logging.ERROR, logger="bot.store"):
        assert [t.channel_id for t in await store.tables("playing")] == [2]
        assert [t.channel_id for t in await store.tables()] == [2]
        assert [t.channel_id for t in await store.due(5000.0)] == [2]
        assert [t.channel_id for t in await store.due(5000.0)] == [2]
    reports = [r for r in caplog.records if "channel 1" in r.getMessage()]
    assert len(reports) == 1
    assert "damaged" in reports[0].getMessage()
    # Out of the sweep's index: the sweep does not even read it again.
    sql = "SELECT deadline FROM tables WHERE channel_id = 1"
    assert await store.execute(sql) == [(None,)]


async def test_set_aside_keeps_the_raw_row_and_frees_the_channel(store):
    t = await damaged_store(store, DAMAGES["garbage seats"][0])
    assert await store.set_aside(1) is True
    got = await store.get(1)
    assert (got.status, got.seats, got.state, got.moves, got.deadline) == ("abandoned", [], None, [], None)
    assert "seats" in got.damaged
    kept = await store.set_aside_rows(1)
    assert len(kept) == 1 and "seats" in kept[0]["reason"]
    assert '"garbage"' in kept[0]["raw"] and "move_log" in kept[0]["raw"]
    # A new game can start in the channel.
    new = playing(1)
    await store.save(new, None)
    assert (await store.get(1)).table_id == new.table_id != t.table_id
    assert await store.set_aside(77) is False


async def test_an_unknown_game_set_aside_still_loads(store):
    await damaged_store(store, DAMAGES["an unknown game"][0])
    await store.set_aside(1)
    got = await store.get(1)
    assert (got.game, got.status) == ("poker", "abandoned")
    got.revision += 1
    got.turn_limit = 300
    await store.save(got, got.revision - 1)  # and can still be written (e.g. a new turn limit)
