"""The SQLite store's calls in groups: every call made in one turn of the event loop, or while the
previous group is on the connection's thread, goes into the next group, run whole on the thread
and handed back to the loop in one callback that answers every caller — not a round trip (an
executor's future, a wake-up of the thread, a wake-up of the loop) per call.

Writes (:func:`write_group`): one ``BEGIN IMMEDIATE … COMMIT`` for the group, each write inside a
``SAVEPOINT`` of its own, so a write that fails (a stale revision, an interaction seen already, a
broken rule of the schema) is rolled back alone and raises to its caller only, exactly what it
raised alone. A write is answered only after its group's COMMIT; a COMMIT that fails fails every
write of the group that had succeeded with the error that write would have raised alone.

Reads (:func:`read_group`): one read transaction for the group (WAL: it never waits for the
writer), begun after every read of the group was asked for, so each read sees every write
answered before it was made.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from bot.store.sqlite_conn import StoreThread, rollback

GROUP_LIMIT = 64  # calls in one group at most: one commit never holds many callers long

Outcome = tuple[bool, Any]  # (True, the value) or (False, the exception to raise)


class Call:
    """One call of a group: ``fn(conn, *args)``; ``what`` names it in an error ("save the table")."""

    __slots__ = ("what", "fn", "args", "future")

    def __init__(self, what: str, fn: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]):
        self.what, self.fn, self.args, self.future = what, fn, args, future


class Grouped:
    """Calls run on ``thread`` in groups (at most ``limit`` each) by ``run(conn, calls)``, which
    returns one :data:`Outcome` a call. The thread takes the next group as soon as it has handed
    the last one back (it never waits for the loop), and is woken only when it was idle: a call
    asked while it is busy costs the loop a queue append. ``done(n)`` is told on the loop after
    each group of ``n`` calls was answered."""

    def __init__(self, thread: StoreThread, run: Callable[[sqlite3.Connection, list[Call]], list[Outcome]],
                 done: Callable[[int], None] | None = None, limit: int = GROUP_LIMIT):
        self._thread = thread
        self._run = run
        self._done = done
        self._limit = limit
        self._lock = threading.Lock()  # the queue and ``_running``, shared with the thread
        self._queue: deque[Call] = deque()
        self._running = False  # the thread is taking groups (or is about to)
        self._unanswered = 0  # calls asked and not answered yet
        self._idle: list[asyncio.Future[None]] = []  # close() waiting for the last group

    def call(self, what: str, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._lock:
            self._unanswered += 1
            self._queue.append(Call(what, fn, args, future))
            if self._running:
                return future
            self._running = True
        # The thread starts once this turn of the loop has asked what it will: one group.
        loop.call_soon(self._wake)
        return future

    def _wake(self) -> None:
        try:
            self._thread.pool.submit(self._work)
        except RuntimeError as e:  # the thread was shut down
            with self._lock:
                group, self._running = list(self._queue), False
                self._queue.clear()
            self._answer(group, [(False, e)] * len(group))

    def _work(self) -> None:
        """On the thread: groups until the queue is empty."""
        queue = self._queue
        while True:
            with self._lock:
                if not queue:
                    self._running = False
                    return
                group = [queue.popleft() for _ in range(min(self._limit, len(queue)))]
            try:
                outcomes = self._run(self._thread.conn, group)  # type: ignore[arg-type]
            except BaseException as e:  # noqa: BLE001 — every caller is answered, whatever happened
                outcomes = [(False, e)] * len(group)
            loop = group[0].future.get_loop()
            if any(c.future.get_loop() is not loop for c in group):  # callers of several loops: each its own
                for c, o in zip(group, outcomes, strict=True):
                    _hand_back(c.future.get_loop(), self._answer, [c], [o])
            else:
                _hand_back(loop, self._answer, group, outcomes)

    def _answer(self, group: list[Call], outcomes: list[Outcome]) -> None:
        for c, (ok, value) in zip(group, outcomes, strict=True):
            if not c.future.done():  # a caller cancelled meanwhile: the call was still made
                if ok:
                    c.future.set_result(value)
                else:
                    try:
                        c.future.set_exception(value)
                    except TypeError:  # StopIteration cannot travel in a future
                        c.future.set_exception(RuntimeError(f"{c.what}: {value!r}"))
        with self._lock:
            self._unanswered -= len(group)
        if self._done is not None:
            self._done(len(group))
        if not self._unanswered:
            idle, self._idle = self._idle, []
            for f in idle:
                if not f.done():
                    f.set_result(None)

    async def drain(self) -> None:
        """Until every call asked so far was answered."""
        while self._unanswered:
            f = asyncio.get_running_loop().create_future()
            self._idle.append(f)
            await f


def _hand_back(loop: asyncio.AbstractEventLoop, answer: Callable[..., None], *args: Any) -> None:
    try:
        loop.call_soon_threadsafe(answer, *args)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        pass


def write_group(conn: sqlite3.Connection, calls: list[Call], error: Callable[[str, sqlite3.Error], Exception]
                ) -> list[Outcome]:
    """The group's writes in one transaction, each in a savepoint of its own (a write alone: no
    savepoint, the transaction is the write). ``error(what, e)``: the StoreError a write raises
    for SQLite's error ``e``. When SQLite ends the transaction itself (a full disk), the writes
    made in it before are made again in a new one, without the write that failed."""
    out: list[Outcome | None] = [None] * len(calls)
    pending = list(range(len(calls)))
    while pending:
        alone = len(pending) == 1
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            for i in pending:
                out[i] = (False, error(calls[i].what, e))
            break
        written: list[int] = []
        again: list[int] | None = None
        for k, i in enumerate(pending):
            c = calls[i]
            try:
                if not alone:
                    conn.execute("SAVEPOINT one_write")
                value = c.fn(conn, *c.args)
                if not alone:
                    conn.execute("RELEASE one_write")
                out[i] = (True, value)
                written.append(i)
            except BaseException as e:  # noqa: BLE001 — raised to this write's caller only
                out[i] = (False, error(c.what, e) if isinstance(e, sqlite3.Error) else e)
                if alone:  # the write was the whole transaction
                    rollback(conn)
                    break
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK TO one_write")
                        conn.execute("RELEASE one_write")
                        continue
                    except sqlite3.Error:
                        rollback(conn)
                again = written + pending[k + 1:]  # the transaction ended: the others' writes went with it
                break
        if again is not None:
            pending = again
            continue
        if written:
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as e:
                rollback(conn)
                for i in written:
                    out[i] = (False, error(calls[i].what, e))
        else:
            rollback(conn)
        break
    return out  # type: ignore[return-value]


def read_group(conn: sqlite3.Connection, calls: list[Call], error: Callable[[str, sqlite3.Error], Exception]
               ) -> list[Outcome]:
    """The group's reads in one read transaction (a new one after a read whose error ended it)."""
    out: list[Outcome] = []
    try:
        for c in calls:
            try:
                if not conn.in_transaction:
                    conn.execute("BEGIN")
                out.append((True, c.fn(conn, *c.args)))
            except sqlite3.Error as e:
                out.append((False, error(c.what, e)))
            except BaseException as e:  # noqa: BLE001 — raised to this read's caller only (a damaged row…)
                out.append((False, e))
    finally:
        rollback(conn)
    return out
