"""Shared fixtures. The Discord stand-in and its fixture blocks live in bot/standin/."""

from __future__ import annotations

import gc
import os

import pytest

from bot.store import Store
from bot.tables import Actor
from bot.tables.service import TableService


LONG_TESTS = os.environ.get("DECKHAND_LONG_TESTS", "") == "1"  # the long runs too (README, "Tests"; CI sets it)


def seeds(n: int, first: int = 0, step: int = 1) -> range:
    """The seeds a test of many seeded games plays: ``n`` of them (from ``first``, ``step`` apart) in the
    long run, the first third of them (at least one) otherwise."""
    return range(first, first + step * (n if LONG_TESTS else max(1, -(-n // 3))), step)


def pytest_collection_modifyitems(config, items):
    """A test marked ``long`` runs only with DECKHAND_LONG_TESTS=1 (it is skipped, saying so, otherwise)."""
    if LONG_TESTS:
        return
    skip = pytest.mark.skip(reason="a long run: DECKHAND_LONG_TESTS=1 runs it")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)


class Clock:
    """A clock the tests move by hand (turn limits)."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server, one per session (per xdist worker), for every test that needs one.
    Defined here only: a module that imported it would get a server of its own."""
    from tests.store.pgserver import PostgresServer

    try:
        server = PostgresServer().start()
    except Exception as e:  # never a skip: the PostgreSQL half of the suite must run
        pytest.fail(f"PostgreSQL could not start for the store tests: {e}", pytrace=False)
    yield server
    server.stop()


class _PoolKeptAcrossBots:
    """``bot.app``'s view of :mod:`bot.render.pictures` in the tests: everything passes through,
    but a bot's close leaves a healthy picture pool running for the next test's bot (the app stops
    it at every close; started again, it cost a spawned Python and its warm-up per test). A pool
    that broke, or threads drawing instead, are stopped as before, and so is every pool at the end."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def shutdown(self, wait: bool = True) -> None:
        if self._real.healthy():
            return
        self._real.shutdown(wait)


@pytest.fixture(scope="session", autouse=True)
def picture_pool_per_session():
    import bot.app

    real = bot.app.pictures
    bot.app.pictures = _PoolKeptAcrossBots(real)
    try:
        yield
    finally:
        bot.app.pictures = real
        real.shutdown()


# The cyclic garbage collector's thresholds while a test runs. A test process lives long and holds much
# (discord.py, every engine, the leak checks' caches of texts already read), and with Python's
# defaults (700, 10, 10) its collections, full ones walking all of that, took 10-20 % of the
# contract suite's CPU. Collected less often: the same tests, the same garbage collected, later.
TEST_GC_THRESHOLD = (4000, 20, 100)


@pytest.fixture(autouse=True)
def collector_thresholds():
    before = gc.get_threshold()
    gc.set_threshold(*TEST_GC_THRESHOLD)
    yield
    gc.set_threshold(*before)


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


# ----- Discord: the stand-in and bots pointed at it ---------------------------------------
@pytest.fixture
async def standin():
    from bot.standin import running_standin

    async with running_standin() as s:
        yield s


def end_animation(request) -> bool:
    """Whether the test's bot draws the end message's animation (DECKHAND_END_ANIMATION): only in a
    test marked ``end_animation`` (one that reads the animation or the end message's attachments).
    Drawing a whole game takes a CPU second or two; every other test's end message goes out without it."""
    return request.node.get_closest_marker("end_animation") is not None


@pytest.fixture
def make_bot(db_path, request):
    """Build a fresh DeckhandBot on the test's database file (call again to 'restart'). It waits
    milliseconds, not discord.py's 2 s, for the GUILD_CREATEs that follow READY when it connects;
    its end message carries the game's animation only in a test marked ``end_animation``."""
    from bot.app import DeckhandBot
    from bot.standin import GUILD_READY_TIMEOUT

    from tests.discord_helpers import no_deferral_deadline

    films = end_animation(request)

    def make():
        return no_deferral_deadline(DeckhandBot(db_path, run_timeouts=False, guild_ready_timeout=GUILD_READY_TIMEOUT,
                                                end_animation=films))

    return make


@pytest.fixture
async def bot(standin, make_bot):
    """A DeckhandBot logged in and connected to the stand-in's gateway (ready)."""
    from bot.standin import logged_in

    async with logged_in(make_bot()) as b:
        yield b
