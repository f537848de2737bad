"""Shared fixtures. The Discord stand-in fixtures live in tests/standin.py."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import Actor, TableService


class Clock:
    """A clock the tests move by hand (turn limits)."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "deckhand.sqlite3"


@pytest.fixture
async def store(db_path):
    s = await Store.open(db_path)
    yield s
    await s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def service(store, clock):
    return TableService(store, clock=clock)


@pytest.fixture
def people():
    return [Actor(100 + i, name) for i, name in enumerate(["Ana", "Ben", "Cat", "Dee", "Eve"])]
