"""A burst of saves for the kill -9 test: prints ``ack N`` after save N has committed.

    python -m tests.store.burst sqlite PATH
    python -m tests.store.burst postgres DSN#SCHEMA
"""

from __future__ import annotations

import asyncio
import sys

from tests.store.helpers import playing


async def main(backend: str, target: str) -> None:
    if backend == "sqlite":
        from bot.store import SQLiteStore

        store = await SQLiteStore.open(target)
    else:
        from bot.store.postgres import PostgresStore

        dsn, schema = target.split("#")
        store = await PostgresStore.open(dsn, schema=schema)
    await store.save(playing(1), None)
    print("ack 0", flush=True)
    n = 0
    while True:
        t = await store.get(1)
        n += 1
        t.moves.append([0, f"move {n}", float(n)])
        t.revision += 1
        await store.save(t, t.revision - 1)
        print(f"ack {n}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
