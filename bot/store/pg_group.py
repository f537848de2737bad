"""The PostgreSQL store's one-row statements in groups: while a statement of one text is on its way
to the server and back, the calls of that same text made meanwhile wait, and go next together —
one pipeline (asyncpg's ``fetchmany``: every Bind/Execute written at once, one Sync), not one
write to the server's socket, one wake-up and one pool connection per call. The loop thread paid
about a tenth of its time for those writes in a burst of presses; a press alone is sent at once,
as before.

A group runs in one implicit transaction, in order, so each statement sees the ones before it (an
interaction id seen twice in one group: the first one is new, the second was seen). A statement of
a group that fails rolls the group back: each of its statements is then run again alone, and
answers its caller with exactly what it answers alone (its row or its error).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import asyncpg

GROUP_LIMIT = 64  # statements in one group at most: a group never holds many callers long


class Grouped:
    """One-row statements run in groups, per statement text, on ``pool``: asyncpg's pool or the
    store's lane (bot.store.pglane), anything with its ``fetchrow`` and ``fetchmany``."""

    def __init__(self, pool: Any):
        self.pool = pool
        self._waiting: dict[str, list[tuple[Sequence[Any], asyncio.Future[Any]]]] = {}
        self._busy: set[str] = set()

    async def fetchrow(self, sql: str, args: Sequence[Any]) -> Any:
        """The one row ``sql`` returns for ``args`` (the statement must return exactly one row)."""
        if sql in self._busy:  # one of this text is on its way: this one goes with the next group
            future = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(sql, []).append((args, future))
            return await future
        self._busy.add(sql)
        try:
            return await self.pool.fetchrow(sql, *args)
        finally:
            self._next(sql)

    def _next(self, sql: str) -> None:
        """The statement (or group) of ``sql`` is back: the calls made meanwhile go now, together."""
        waiting = self._waiting.pop(sql, None)
        if waiting:
            asyncio.ensure_future(self._run(sql, waiting))
        else:
            self._busy.discard(sql)

    async def _run(self, sql: str, calls: list[tuple[Sequence[Any], asyncio.Future[Any]]]) -> None:
        try:
            for i in range(0, len(calls), GROUP_LIMIT):
                await self._group(sql, calls[i:i + GROUP_LIMIT])
        except BaseException:  # cancelled (the loop is closing): no caller is left waiting for ever
            for _, future in calls:
                future.cancel()
            raise
        finally:
            self._next(sql)

    async def _group(self, sql: str, calls: list[tuple[Sequence[Any], asyncio.Future[Any]]]) -> None:
        if len(calls) > 1:
            try:
                rows = await self.pool.fetchmany(sql, [args for args, _ in calls])
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                rows = None  # rolled back as a whole: each alone below
            if rows is not None:
                if len(rows) != len(calls):  # committed, but not one row a statement: a caller's mistake
                    error = RuntimeError(f"a grouped statement returned {len(rows)} rows for {len(calls)} calls")
                    rows = [error] * len(calls)
                for (_, future), row in zip(calls, rows, strict=True):
                    if future.done():
                        continue
                    if isinstance(row, BaseException):
                        future.set_exception(row)
                    else:
                        future.set_result(row)
                return
        for args, future in calls:
            try:
                row = await self.pool.fetchrow(sql, *args)
            except BaseException as e:  # the caller raises it, as it would have alone
                if not future.done():
                    future.set_exception(e)
                if not isinstance(e, Exception):
                    raise
            else:
                if not future.done():
                    future.set_result(row)
