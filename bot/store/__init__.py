"""The store: one Protocol (:class:`TableStore`), two back ends.

* SQLite (the default, a file): ``Store.open(path)`` — ``Store`` is :class:`SQLiteStore`.
* PostgreSQL (``pip install '.[postgres]'``): :class:`bot.store.postgres.PostgresStore`.

``open_store()`` picks one: a ``postgresql://`` URL (given, or in ``DATABASE_URL``) opens
PostgreSQL; anything else is a SQLite file path (default ``DECKHAND_DATABASE`` or
``data/deckhand.sqlite3``).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from pathlib import Path

from bot.store.base import (
    AlreadySeen, DamagedTable, Draft, MoveLog, PackedState, SchemaTooNew, Seat, StaleRevision, StoreError, TableRow,
    TableStore, new_table_id, unpacked,
)
from bot.store.sqlite import SQLiteStore

Store = SQLiteStore

__all__ = ["AlreadySeen", "DamagedTable", "Draft", "MoveLog", "PackedState", "SchemaTooNew", "Seat", "StaleRevision", "Store",
           "StoreError", "TableRow", "TableStore", "SQLiteStore", "new_table_id", "open_store", "is_postgres_url",
           "unpacked"]

DEFAULT_PATH = Path("data") / "deckhand.sqlite3"


def is_postgres_url(value: str | Path) -> bool:
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))


async def open_store(url_or_path: str | Path | None = None, *, env: Mapping[str, str] | None = None,
                     games: Collection[str] | None = None) -> TableStore:
    """Open the store named by ``url_or_path``, else by ``DATABASE_URL``, else the SQLite file of
    ``DECKHAND_DATABASE`` (default ``data/deckhand.sqlite3``)."""
    env = os.environ if env is None else env
    target: str | Path = (url_or_path or env.get("DATABASE_URL", "").strip()
                          or env.get("DECKHAND_DATABASE", "").strip() or DEFAULT_PATH)
    if is_postgres_url(target):
        try:
            from bot.store.postgres import PostgresStore
        except ImportError as e:
            raise StoreError(
                f"DATABASE_URL names PostgreSQL, but its driver is not installed ({e.name or 'asyncpg'} is missing): "
                "install Deckhand with the postgres extra, `pip install '.[postgres]'`."
            ) from None
        return await PostgresStore.open(str(target), games=games)
    return await SQLiteStore.open(target, games=games)
