"""Writes in groups for the kill -9 test of tests/store/test_groups.py: eight interactions
remembered at once, again and again, each printed (``ack N``) once its write was answered.

    python -m tests.store.group_burst PATH
"""

from __future__ import annotations

import asyncio
import sys

from bot.store import SQLiteStore


async def main(path: str) -> None:
    store = await SQLiteStore.open(path)
    n = 0
    while True:
        ids = range(n, n + 8)
        n += 8

        async def one(i: int) -> None:
            assert not await store.seen_interaction(i)
            print(f"ack {i}", flush=True)

        await asyncio.gather(*(one(i) for i in ids))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
