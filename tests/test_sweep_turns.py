"""The turn-limit sweep shares the event loop: a page's due tables are decided, and remembered once
saved, a few a turn of the loop (presses go in between), every table told once."""

from __future__ import annotations

import asyncio
from collections import Counter


from bot.tables import TIME_UP
from bot.tables.clock import SWEEP_TURN

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


