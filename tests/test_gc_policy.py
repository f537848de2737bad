"""The collector's settings once the bot has started (bot.app.settle_memory): full collections
wait for a quiet event loop, and never longer than FULL_WAIT seconds."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from bot import app


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_an_overdue_full_collection_goes_back_to_the_collector(thresholds):
    fc = app._FullCollections()
    fc.active = True
    gc.set_threshold(*app.GC_THRESHOLD)
    fc.on_gc("stop", {"generation": 1})
    assert gc.get_threshold() == app.GC_THRESHOLD  # not due yet: full collections stay off
    fc.last = time.monotonic() - app.FULL_WAIT - 1
    fc.on_gc("stop", {"generation": 0})
    assert gc.get_threshold() == app.GC_THRESHOLD
    fc.on_gc("stop", {"generation": 1})
    assert gc.get_threshold() == (app.GC_YOUNG, app.GC_MIDDLE, app.FULL_DUE)  # the collector's own rule
    fc.on_gc("stop", {"generation": 2})  # ... ran it
    assert gc.get_threshold() == app.GC_THRESHOLD
    assert fc.overdue_runs == 1 and time.monotonic() - fc.last < 1


def test_the_collector_is_left_alone_until_settle_memory(thresholds):
    fc = app._FullCollections()
    gc.set_threshold(700, 10, 10)
    fc.last = time.monotonic() - app.FULL_WAIT - 1
    for generation in (1, 2):
        fc.on_gc("stop", {"generation": generation})
    assert gc.get_threshold() == (700, 10, 10)


async def test_a_due_full_collection_waits_while_the_loop_is_busy(monkeypatch):
    monkeypatch.setattr(app, "FULL_DUE", 0)  # always due
    monkeypatch.setattr(app, "FULL_GAP", 0.0)
    monkeypatch.setattr(app, "QUIET_PERIOD", 0.02)
    fc = app._FullCollections()
    fc.keep()
    fc.keep()  # one task per loop
    assert len(fc.keepers) == 1
    stop = time.monotonic() + 0.4
    while time.monotonic() < stop:  # busy: the loop turns, but the process uses a whole core
        end = time.perf_counter() + 0.004
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0)
    assert fc.quiet_runs == 0
    for _ in range(100):  # quiet now
        await asyncio.sleep(0.02)
        if fc.quiet_runs:
            break
    assert fc.quiet_runs >= 1
    for task in fc.keepers.values():
        task.cancel()
