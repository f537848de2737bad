"""The turn-limit sweep shares the event loop: a page's due tables are decided, and remembered once
saved, a few a turn of the loop (presses go in between), every table told once; while it works
through due tables the collector's young and middle generations are kept small, and its threshold is set back
afterwards (unless something else changed it meanwhile), and the interpreter's lock is handed
over more often."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections import Counter

import pytest

import bot.tables.clock as clock_module
from bot.tables import TIME_UP
from bot.tables.clock import SWEEP_MIDDLE, SWEEP_SWITCH, SWEEP_TURN, SWEEP_YOUNG

CW = "court_wars"
TABLES = 3 * SWEEP_TURN + 7
BASE = 9000


async def due_tables(service, clock, people, count: int = TABLES) -> list[int]:
    channels = [BASE + i for i in range(count)]
    for ch in channels:
        await service.new_table(ch, 1, people[0], CW, seed=ch)
        for p in people[1:3]:
            await service.join(ch, p)
        await service.set_turn_limit(ch, people[0], 600)
        await service.start(ch, people[0])
    clock.advance(601)
    return channels


async def test_a_page_is_decided_and_remembered_a_few_tables_a_turn_each_told_once(service, clock, people,
                                                                                   monkeypatch):
    channels = await due_tables(service, clock, people)
    turns = 0

    async def ticker() -> None:
        nonlocal turns
        while True:
            await asyncio.sleep(0)
            turns += 1

    decided: list[int] = []
    remembered: list[int] = []
    sweep, remember = service._sweep, service._remember

    def counted_sweep(t, now):
        decided.append(turns)
        return sweep(t, now)

    def counted_remember(table):
        remembered.append(turns)
        return remember(table)

    monkeypatch.setattr(service, "_sweep", counted_sweep)
    monkeypatch.setattr(service, "_remember", counted_remember)
    ticking = asyncio.create_task(ticker())
    try:
        changes = await service.check_timeouts()
    finally:
        ticking.cancel()
    assert sorted(c.table.channel_id for c in changes) == channels, "every due table told, once"
    assert all(c.notice.kind == TIME_UP for c in changes)
    for seen in (decided, remembered):
        assert len(seen) == len(channels)
        per_turn = Counter(seen)
        assert max(per_turn.values()) <= SWEEP_TURN, per_turn
        assert len(per_turn) >= -(-len(channels) // SWEEP_TURN)
    assert await service.check_timeouts() == [], "told once"


async def test_the_loop_goes_first_while_due_tables_are_swept(service, clock, people, monkeypatch):
    """The collector's young and middle generations kept small and the interpreter's lock handed over often,
    while due tables are swept (not for a sweep that finds none); both set back afterwards, each
    unless something else changed it meanwhile."""
    saved = gc.get_threshold(), sys.getswitchinterval()
    try:
        gc.set_threshold(5000, 10, 100)
        sys.setswitchinterval(0.005)
        seen: list[tuple[tuple[int, int, int], float]] = []
        sweep = service._sweep

        def watched(t, now):
            seen.append((gc.get_threshold(), sys.getswitchinterval()))
            return sweep(t, now)

        monkeypatch.setattr(service, "_sweep", watched)
        monkeypatch.setattr(clock_module.gc, "set_threshold", counted(gc.set_threshold, calls := []))
        assert await service.check_timeouts() == []
        assert calls == [], "nothing due: nothing changed"
        await due_tables(service, clock, people, 3)
        assert len(await service.check_timeouts()) == 3
        assert seen == [((SWEEP_YOUNG, SWEEP_MIDDLE, 100), pytest.approx(SWEEP_SWITCH))] * 3
        assert gc.get_threshold() == (5000, 10, 100) and sys.getswitchinterval() == pytest.approx(0.005), "set back"

        # Changed by something else meanwhile: left as that made it.
        def changed(t, now):
            gc.set_threshold(700, 10, 10)
            sys.setswitchinterval(0.002)
            return sweep(t, now)

        await service.new_table(BASE - 1, 1, people[0], CW, seed=1)
        for p in people[1:3]:
            await service.join(BASE - 1, p)
        await service.set_turn_limit(BASE - 1, people[0], 600)
        await service.start(BASE - 1, people[0])
        clock.advance(601)
        monkeypatch.setattr(service, "_sweep", changed)
        assert len(await service.check_timeouts()) == 1
        assert gc.get_threshold() == (700, 10, 10) and sys.getswitchinterval() == pytest.approx(0.002)
    finally:
        gc.set_threshold(*saved[0])
        sys.setswitchinterval(saved[1])


def counted(fn, calls: list):
    def call(*args):
        calls.append(args)
        return fn(*args)

    return call
