"""A few of the pool's connections kept at hand for the statements every press makes.

asyncpg's pool takes a connection and gives it back around each statement: a queue, a timeout
context, a shielded task for the give-back, the connection's reset. Measured here, that was 33 µs
of the event loop's CPU around a statement that itself cost 23 µs (a table's load; 56 µs through
the pool). A move's save, a press remembered and a table's load are one statement each, outside
any transaction, so they need none of that: the lane keeps up to ``size`` connections taken from
the pool and hands them out and back with a list.

- A connection that failed or was cancelled in a statement goes back to the pool, whose give-back
  knows what to do with it (waits for the cancellation, resets it, or closes it and opens another
  on the next take). A connection found closed when taken goes back the same way (one the server
  hung up on was already taken back by the pool itself, which leaves its proxy released).
- When every connection of the lane is busy, the statement goes through the pool, as before.
- The lane holds at most half the pool, so transactions always find connections there.
"""

from __future__ import annotations

from typing import Any

import asyncpg


class Lane:
    """``await lane.fetchrow(sql, *args)`` (and ``fetch``, ``execute``) on a connection kept at hand."""

    def __init__(self, pool: asyncpg.Pool, size: int):
        self.pool = pool
        self.size = size
        self.idle: list[Any] = []  # connections taken from the pool, free
        self.held = 0  # connections taken from the pool, free or busy
        self.closed = False

    async def _take(self) -> Any | None:
        """A free connection of the lane, one more taken from the pool, or None (the lane is full)."""
        while self.idle:
            c = self.idle.pop()
            if _usable(c):
                return c
            await self._drop(c)
        if self.held >= self.size or self.closed:
            return None
        self.held += 1
        try:
            return await self.pool.acquire()
        except BaseException:
            self.held -= 1
            raise

    async def _drop(self, c: Any) -> None:
        """Back to the pool for good (it resets it, or replaces a broken one on its next take)."""
        self.held -= 1
        await self.pool.release(c)

    async def _run(self, method: str, sql: str, args: tuple[Any, ...]) -> Any:
        c = await self._take()
        if c is None:
            return await getattr(self.pool, method)(sql, *args)
        try:
            out = await getattr(c, method)(sql, *args)
        except BaseException:
            await self._drop(c)
            raise
        if self.closed:
            await self._drop(c)
        else:
            self.idle.append(c)
        return out

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        return await self._run("fetchrow", sql, args)

    async def fetch(self, sql: str, *args: Any) -> Any:
        return await self._run("fetch", sql, args)

    async def execute(self, sql: str, *args: Any) -> Any:
        return await self._run("execute", sql, args)

    async def fetchmany(self, sql: str, args: Any) -> Any:
        """``sql`` run for each of ``args`` in one pipeline (bot.store.pg_group)."""
        return await self._run("fetchmany", sql, (args,))

    async def close(self) -> None:
        """Every free connection back to the pool; busy ones go back when their statement ends."""
        self.closed = True
        while self.idle:
            await self._drop(self.idle.pop())


def _usable(c: Any) -> bool:
    """Open, and still lent by the pool (a connection the server hung up on is taken back at once)."""
    try:
        return not c.is_closed()
    except asyncpg.InterfaceError:  # released: the pool took it back
        return False
