"""The store tests run against both back ends: SQLite (a file per test) and a real PostgreSQL
server started once per session (per xdist worker; the ``pg_server`` fixture of tests/conftest.py),
a fresh schema per test."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.store import SQLiteStore, TableStore

@dataclass
class Backend:
    """Opens stores on one database (the same file or schema each time)."""

    name: str
    path: Path | None = None
    dsn: str | None = None
    schema: str | None = None

    async def open(self, **kw: Any) -> TableStore:
        if self.name == "sqlite":
            return await SQLiteStore.open(self.path, **kw)
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(self.dsn, schema=self.schema, **kw)

    @property
    def target(self) -> str:
        """What a subprocess needs to open the same database."""
        return str(self.path) if self.name == "sqlite" else f"{self.dsn}#{self.schema}"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, tmp_path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", path=tmp_path / "deckhand.sqlite3")
    server = request.getfixturevalue("pg_server")
    return Backend("postgres", dsn=server.dsn, schema=f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture
async def store(backend):
    s = await backend.open()
    yield s
    await s.close()
