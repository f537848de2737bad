"""A burst of moves for the kill -9 test: a Maginot Line table played by the built-in players
through the table service (snapshots written as they fall due); prints ``ack N`` after move N has
been saved.

    python -m tests.store.burst sqlite PATH
    python -m tests.store.burst postgres DSN#SCHEMA
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.engine.registry import spec
from bot.tables import Actor
from bot.tables.games import load_game
from bot.tables.service import TableService

GAME = "maginot_line"


async def main(backend: str, target: str) -> None:
    if backend == "sqlite":
        from bot.store import SQLiteStore

        store = await SQLiteStore.open(target)
    else:
        from bot.store.postgres import PostgresStore

        dsn, schema = target.split("#")
        store = await PostgresStore.open(dsn, schema=schema)
    service = TableService(store)
    ana, ben = Actor(1, "Ana"), Actor(2, "Ben")
    await service.new_table(1, None, ana, GAME, seed=5)
    await service.join(1, ben)
    await service.start(1, ana)
    print("ack 0", flush=True)
    rng = random.Random(5)
    n = 0
    while True:
        table = await service.require(1)
        game = load_game(table)
        seat = min(game.to_act())
        await service.move(1, [ana, ben][seat], str(spec(GAME).player(game, seat, rng)))
        n += 1
        print(f"ack {n}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
