"""A real PostgreSQL server for the tests: started once per test session (per xdist worker),
socket-only in a private folder, stopped at the end. No server is a failure, never a skip."""

from __future__ import annotations

from bot.store.pgserver import PrivatePostgres, ServerError

__all__ = ["PostgresServer", "ServerError"]


class PostgresServer(PrivatePostgres):
    """The tests' server: durability off (every test database is thrown away), room for many pools."""

    def __init__(self) -> None:
        super().__init__("deckhand-pg-", "-c fsync=off -c full_page_writes=off -c max_connections=200 "
                         "-c shared_buffers=32MB")
