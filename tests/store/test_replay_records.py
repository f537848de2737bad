"""The replay viewer's reads on both back ends: a channel's recent records (and the server's ones
the viewer played in), one record by id with its people and its daily day; and a game finished
at a table, replayed from the store, with whose eyes each viewer may use."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import spec
from bot.i18n import words
from bot.tables import Actor, TableError
from bot.tables.replays import Replays, stored_key
from bot.tables.service import TableService
from tests.service_helpers import turns
from tests.store.helpers import row


async def finished(store, channel: int, guild: int | None, people: list[tuple[int, str]], record: dict,
                   table_id: str = "") -> None:
    t = row(channel, guild_id=guild)
    if table_id:
        t.table_id = table_id
    await store.save(t, None)
    t.revision = 2
    t.status = "finished"
    await store.save(t, 1, record=record, result="finished",
                     results=[(u, n, "win" if i == 0 else "loss") for i, (u, n) in enumerate(people)])


def rec(n: int, players: list[str]) -> dict:
    return {"format": 1, "game": "court_wars", "players": players, "options": [], "seed": n, "moves": [[0, f"m{n}"]]}


async def test_recent_records_of_a_channel_and_of_a_server_the_viewer_played_in(store):
    await finished(store, 10, 1, [(7, "Ana"), (8, "Ben")], rec(1, ["Ana", "Ben"]))
    await finished(store, 11, 1, [(8, "Ben"), (9, "Cat")], rec(2, ["Ben", "Cat"]))  # elsewhere, Ana not in it
    await finished(store, 12, 1, [(7, "Ana")], rec(3, ["Ana", "Deckhand bot 1"]))  # elsewhere, Ana in it
    await finished(store, 13, 2, [(7, "Ana")], rec(4, ["Ana", "Ben"]))  # another server
    await finished(store, 10, 1, [(9, "Cat")], rec(5, ["Cat", "Ben"]))
    got = await store.recent_records(10, 1, 7)
    assert [r.record["seed"] for r in got] == [5, 3, 1], "newest first: this channel's, and the server's Ana played"
    assert [r.channel_id for r in got] == [10, 12, 10]
    assert got[1].people == ((7, "Ana", "win"),) and got[2].people == ((7, "Ana", "win"), (8, "Ben", "loss"))
    assert all(r.daily is None and r.guild_id == 1 and r.result == "finished" for r in got)
    assert [r.record["seed"] for r in await store.recent_records(10, 1, 7, limit=1)] == [5]
    assert [r.record["seed"] for r in await store.recent_records(99, None, 7)] == [], "a DM: its own channel only"
    one = await store.stored_record(got[1].id)
    assert one == got[1]
    assert await store.stored_record(10_000) is None


async def test_a_daily_record_knows_its_day(store):
    assert await store.daily_claim("2026-11-25", 7, "Ana", "t-daily", 100.0)
    await finished(store, 20, None, [(7, "Ana")], rec(6, ["Ana"]), table_id="t-daily")
    (got,) = await store.recent_records(20, None, 7)
    assert got.daily == "2026-11-25" and got.table_id == "t-daily"
    assert (await store.stored_record(got.id)).daily == "2026-11-25"


async def test_a_finished_table_replays_from_the_store_with_the_eyes_its_policy_allows(store, clock):
    service = TableService(store, clock=clock)
    ana, ben = Actor(7, "Ana"), Actor(8, "Ben")
    for channel, game in ((30, "court_wars"), (31, "celestial_emperor")):
        await service.new_table(channel, 1, ana, game)
        await service.join(channel, ben)
        await service.start(channel, ana)
        rng = random.Random(channel)
        async for table, g, seat in turns(service, channel, 3000):
            who = ana if table.seats[seat].user_id == 7 else ben
            await service.move(channel, who, str(spec(game).player(g, seat, random.Random(rng.random()))))
    replays = Replays(store, clock)
    listed = await replays.recent(31, 1, 9)
    assert [x.game for x in listed] == ["celestial_emperor"], "Cat sees this channel's game only"
    assert [x.game for x in await replays.recent(31, 1, 8)] == ["celestial_emperor", "court_wars"]
    court = next(x for x in await replays.recent(30, 1, 9))
    everyone = await replays.open(court.key, 30, 1, 9)
    assert everyone.eyes == (None, 0, 1) and everyone.replay.steps == court.moves + 1
    final = everyone.reader(everyone.replay.last, None)
    assert final.table.status == "finished" and final.view.over
    emperor = listed[0].key
    assert (await replays.open(emperor, 31, 1, 9)).eyes == (None,), "the public view only"
    assert (await replays.open(emperor, 31, 1, 8)).eyes == (None, 1), "and a player's own"
    assert (await replays.open(emperor, 30, 1, 7)).eyes == (None, 0), "from elsewhere in the server, by a player"
    with pytest.raises(TableError, match="no finished game"):
        await replays.open(emperor, 30, 1, 9)  # elsewhere, and Cat did not play
    with pytest.raises(TableError, match="no finished game"):
        await replays.open(emperor, 40, 2, 8)  # a channel of another server
    with pytest.raises(TableError, match="no finished game"):
        await replays.open(stored_key(999), 31, 1, 8)
    # the list says how each game ended in its reader's language; a record from before, as it wrote it
    es = words("es")
    said = es.line(listed[0].summary)
    assert said != str(listed[0].summary) and listed[0].label(es).endswith(said)
    old = {**rec(1, ["Ana", "Ben"]), "result": {"winners": [0], "winner_names": ["Ana"], "score": None,
                                                 "summary": "Ana wins: the last court standing."}}
    await finished(store, 32, 1, [(7, "Ana"), (8, "Ben")], old)
    (older,) = [x for x in await replays.recent(32, 1, 7) if x.here]
    assert older.label(es).endswith(" — Ana wins: the last court standing.")
    with pytest.raises(TableError):
        (await replays.open(emperor, 31, 1, 8)).reader(0, 0)  # Ana's seat is not Ben's to look through
