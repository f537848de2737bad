"""One table's failure never stops the turn-limit sweep: damaged rows whose moves fail on replay
(an illegal or foreign log entry, a seat out of range, an entry that is not a list, a snapshot
ply off by one, a state that is valid JSON but no game) sit among healthy due tables, and every
healthy table still gets its notice, on both back ends. A damaged table is reported once, not
retried on every pass."""

from __future__ import annotations

import json
import logging
import random

import pytest

from bot.engine.registry import spec
from bot.tables import TIME_UP, Actor
from bot.tables.games import GAMES, load_game
from bot.tables.service import TableService
from tests.conftest import Clock
from tests.store.conftest import backend, store  # noqa: F401 — fixtures: both back ends (PostgreSQL: tests/conftest.py)

CW = "court_wars"
PEOPLE = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat"])]

DAMAGES = {
    "an illegal log entry": ("entry", lambda seat, move: json.dumps([seat, "no such move at all", 1.0])),
    "a foreign log entry": ("entry", lambda seat, move: json.dumps([seat, "play 5C on 3", 1.0])),
    "a seat out of range": ("entry", lambda seat, move: json.dumps([9, move, 1.0])),
    "an entry that is not a list": ("entry", lambda seat, move: json.dumps(7)),
    "an entry that is an object": ("entry", lambda seat, move: json.dumps({"seat": seat, "move": move})),
    "a snapshot ply off by one": ("ply", None),
    "a state that is no game": ("state", None),
}


async def table(service, channel: int, moves: int, limit: int = 600, seed: int = 5) -> None:
    await service.new_table(channel, 1, PEOPLE[0], CW, seed=seed)
    for p in PEOPLE[1:]:
        await service.join(channel, p)
    await service.set_turn_limit(channel, PEOPLE[0], limit)
    await service.start(channel, PEOPLE[0])
    rng = random.Random(channel)
    for _ in range(moves):
        t = await service.get(channel)
        game = load_game(t)
        seat = min(game.to_act())
        move = str(spec(CW).player(game, seat, rng))
        await service.move(channel, PEOPLE[seat], move)


async def damage(db, channel: int, kind: str) -> None:
    what, entry = DAMAGES[kind]
    [(tid, ply, count)] = await db.execute(
        f"SELECT table_id, state_ply, move_count FROM tables WHERE channel_id = {channel}")
    assert count >= 2 and ply is not None and ply < count, (ply, count)
    if what == "entry":
        [(raw,)] = await db.execute(f"SELECT entry FROM moves WHERE table_id = '{tid}' AND ply = {count - 1}")
        seat, move, *_ = json.loads(raw)
        bad = entry(seat, move).replace("'", "''")
        await db.execute(f"UPDATE moves SET entry = '{bad}' WHERE table_id = '{tid}' AND ply = {count - 1}")
    elif what == "ply":
        await db.execute(f"UPDATE tables SET state_ply = state_ply + 1 WHERE channel_id = {channel}")
    else:
        await db.execute(f"UPDATE tables SET state = '{{\"court\": [1, 2], \"turn\": \"x\"}}' "
                            f"WHERE channel_id = {channel}")


async def test_damaged_tables_never_stop_the_sweep(store, caplog):  # noqa: F811 — both back ends
    clock = Clock()
    service = TableService(store, clock=clock)
    damaged = {}
    for i, kind in enumerate(DAMAGES):  # due first: their alarms come before the healthy ones'
        await table(service, 100 + i, moves=2)
        damaged[100 + i] = kind
    clock.advance(10)
    for ch in range(1, 8):
        await table(service, ch, moves=1)
    for ch, kind in damaged.items():
        await damage(store, ch, kind)
    GAMES.clear()  # as after a restart: nothing cached hides the damage
    fresh = TableService(store, clock=clock)
    for ch in damaged:  # each really fails to rebuild
        with pytest.raises(Exception):  # noqa: B017 — any failure: that is the point
            load_game(await store.get(ch))
        GAMES.clear()
    clock.advance(2 * 86400)  # two days past the limit
    with caplog.at_level(logging.ERROR, logger="bot.tables"):
        changes = await fresh.check_timeouts()
        assert sorted(c.table.channel_id for c in changes) == list(range(1, 8))
        assert all(c.notice is not None and c.notice.kind == TIME_UP for c in changes)
        for ch in range(1, 8):
            assert (await store.get(ch)).timed_out
        # The next passes neither retry the damaged tables nor report them again.
        assert await fresh.check_timeouts() == []
        assert await fresh.check_timeouts() == []
    for ch, kind in damaged.items():
        reports = [r for r in caplog.records if f"channel {ch}" in r.getMessage()]
        assert len(reports) == 1, (kind, [r.getMessage() for r in caplog.records])


async def test_any_exception_of_one_table_is_isolated(store, monkeypatch):  # noqa: F811 — both back ends
    clock = Clock()
    service = TableService(store, clock=clock)
    for ch in range(1, 5):
        await table(service, ch, moves=1)
    clock.advance(2 * 86400)
    real = service._sweep

    def flaky(t, now):
        if t.channel_id == 2:
            raise RuntimeError("boom")
        if t.channel_id == 3:
            raise KeyError("gone")
        return real(t, now)

    monkeypatch.setattr(service, "_sweep", flaky)
    changes = await service.check_timeouts()
    assert sorted(c.table.channel_id for c in changes) == [1, 4]
