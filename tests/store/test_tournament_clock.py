"""Two processes on one database (SQLite file or PostgreSQL): each runs the tournament clock for
its own shards only, and racing writes to one tournament never lose a result."""

from __future__ import annotations

import asyncio
import random

from bot.engine.registry import spec
from bot.tables import Actor
from bot.tables.games import load_game
from bot.tables.service import TableService
from bot.tables.tournaments import FINISHED, Tournaments
from tests.service_helpers import Threads

ORG = Actor(7, "Org", can_manage=True)


async def test_each_process_clocks_its_own_shards_and_races_lose_nothing(backend):
    s1, s2 = await backend.open(), await backend.open()
    try:
        one, two = TableService(s1), TableService(s2)
        shard = {0: (2, (0,)), 1: (2, (1,))}
        t1, t2 = Tournaments(one), Tournaments(two)
        ids = {}
        for k, guild in ((0, 2 << 22), (1, 3 << 22)):  # shard 0 and shard 1 of 2
            tid = (await t1.create(guild, 55 + k, ORG, "cardchess2", "swiss", round_seconds=3600, rounds=2)).id
            for i in range(4):
                await t1.join(tid, Actor(100 + i, f"P{i}"))
            await t1.start(tid, ORG)
            ids[k] = tid
        assert await t1.due(shard[0]) == [ids[0]] and await t2.due(shard[1]) == [ids[1]]
        threads = Threads(10_000)
        for _ in range(2):
            for k, tours, svc in ((0, t1, one), (1, t2, two)):
                await threads.run(tours, ids[k])
                t = await tours.load(ids[k])
                rng = random.Random(k)

                async def finish(channel: int, svc: TableService = svc, rng: random.Random = rng) -> None:
                    while (row := await svc.get(channel)).status == "playing":
                        game = load_game(row)
                        seat = min(game.to_act())
                        await svc.move(channel, Actor(row.seats[seat].user_id, "x"),
                                       str(spec(row.game).player(game, seat, rng)))

                # the two tables end at once, one through each process: both results are kept
                await asyncio.gather(finish(t.current[0].channel, one), finish(t.current[1].channel, two),
                                     tours.step(ids[k]))
                t = await tours.load(ids[k])
                assert all(b.done for b in t.current)
                await threads.run(tours, ids[k])
        for k in (0, 1):
            assert (await t1.load(ids[k])).status == FINISHED
        assert await t1.due() == [] and await t2.due() == []
    finally:
        await s1.close()
        await s2.close()
