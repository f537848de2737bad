"""The SQLite store's connections: each lives on a thread of its own (``StoreThread``), and the
pragmas and statements that make the file WAL, keep the writer from checkpointing and let the
checkpointer write the WAL back; the causes of SQLite's errors in plain words."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


_CAUSES = {
    "SQLITE_FULL": "the disk is full (or the database reached its size limit)",
    "SQLITE_READONLY": "the database file is read-only",
    "SQLITE_IOERR": "an input/output error on the disk",
    "SQLITE_CORRUPT": "the database file is corrupt",
    "SQLITE_NOTADB": "the file is not a SQLite database",
    "SQLITE_BUSY": "another process kept the database locked",
    "SQLITE_LOCKED": "the database is locked",
    "SQLITE_CANTOPEN": "the database file cannot be opened",
    "SQLITE_CONSTRAINT": "a value broke a rule of the schema",
}


def cause_of(e: sqlite3.Error) -> str:
    name = getattr(e, "sqlite_errorname", "") or ""
    for prefix, cause in _CAUSES.items():
        if name.startswith(prefix):
            return cause
    return "a database error"


class StoreThread:
    """One sqlite3 connection living on its own thread; ``run(fn)`` calls ``fn(conn)`` there."""

    def __init__(self, name: str):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self.conn: sqlite3.Connection | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, self.conn, *args)

    async def connect(self, path: str) -> None:
        def connect(_: None) -> None:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=10000")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self.conn = conn

        await asyncio.get_running_loop().run_in_executor(self.pool, connect, None)

    async def close(self) -> None:
        if self.conn is not None:
            await asyncio.get_running_loop().run_in_executor(self.pool, self.conn.close)
            self.conn = None
        self.pool.shutdown(wait=True)


def use_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL. SQLite may answer "database is locked" at once here, without its
    busy handler, while another process or connection is opening the same new file: try again."""
    for _ in range(100):
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            time.sleep(0.05)
    conn.execute("PRAGMA journal_mode=WAL").fetchone()


CHECKPOINT_EVERY = 200  # writes between two checkpoints of the WAL, made beside the writer


def no_autocheckpoint(conn: sqlite3.Connection) -> None:
    """The writer never checkpoints: SQLite's automatic checkpoint runs inside the commit that
    fills the WAL past 1,000 pages, writing the WAL back to the database file and syncing both,
    so one press in a few hundred waited milliseconds for its commit (3,000 commits like a
    press's: p99 6.6–7.8 ms with it, 0.11 ms without). The store's checkpointer does it instead."""
    conn.execute("PRAGMA wal_autocheckpoint=0").fetchone()


def checkpoint_wal(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """As much of the WAL as no reader still needs written back (PASSIVE: never waits for the
    writer or a reader); (busy, WAL pages, pages written back)."""
    return tuple(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())  # type: ignore[return-value]


def rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the original error is the one to report
