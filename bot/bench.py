"""``python -m bot bench``: speed figures printed beside their targets (never asserted in tests).

1. Engine: actions/s replaying recorded games (apply only) and whole games/s with the built-in
   player choosing every action, per game.
2. Interactions, server-side: what the bot does for one button press (load, check, apply,
   save, the public table's embed and components; with and without the picture) on a real
   SQLite file, measured through the table service and the Discord layer's message builder —
   the network and discord.py's own parsing are not included.
3. Many tables at once: every table's move dispatched together (asyncio.gather), then settled;
   throughput, errors and lost updates, and the longest the event loop was blocked.

``--json`` prints ``{"figures": [{"name", "value", "unit", "target", "met"}]}`` as the last line.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli import default_players, play_auto
from bot.engine.registry import GAME_IDS, spec


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = False

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    def line(self) -> str:
        target = ""
        if self.target is not None:
            sign = "≥" if self.higher_is_better else "≤"
            target = f"target {sign} {self.target:g} {self.unit}  {'met' if self.met else 'NOT MET'}"
        return f"{self.name:<58} {self.value:>10.2f} {self.unit:<8} {target}"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": round(self.value, 3), "unit": self.unit, "target": self.target,
                "met": self.met}


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


# ----- 1. engines -------------------------------------------------------------------------
def engine_figures(game_id: str, games: int) -> list[Figure]:
    cls = spec(game_id).state
    names = default_players(game_id, 4 if cls.max_players >= 4 else None)
    recorded: list[tuple[int, list[list[Any]]]] = []
    start = time.perf_counter()
    total = 0
    for i in range(games):
        game, moves = play_auto(cls.new(names, seed=i), random.Random(i))
        recorded.append((i, moves))
        total += len(moves)
    auto_elapsed = time.perf_counter() - start
    start = time.perf_counter()
    for seed, moves in recorded:
        game = cls.new(names, seed=seed)
        for seat, move in moves:
            game, _ = game.apply(seat, move)
    apply_elapsed = time.perf_counter() - start
    return [Figure(f"{game_id}: apply (replaying {total} actions)", total / apply_elapsed, "actions/s"),
            Figure(f"{game_id}: whole games, built-in players", games / auto_elapsed, "games/s")]


# ----- 2 and 3. interactions --------------------------------------------------------------
class LoopWatch:
    """Measures the longest stretch the event loop went without running a 1 ms ticker."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last - 0.001)
            last = now

    def __enter__(self) -> "LoopWatch":
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._task:
            self._task.cancel()


async def _table(service: Any, channel: int, game_id: str, players: int, seed: int) -> None:
    from bot.tables import Actor

    actors = [Actor(1000 + i, f"P{i + 1}") for i in range(players)]
    await service.new_table(channel, 1, actors[0], game_id, seed=seed)
    for a in actors[1:]:
        await service.join(channel, a)
    if players > 1:
        await service.start(channel, actors[0])


async def _one_move(service: Any, channel: int, rng: random.Random, picture: bool) -> None:
    """One interaction's server-side work: load, check, apply, save, then the public message."""
    from bot import ui
    from bot.tables import Actor, load_game

    table = await service.require(channel)
    game = load_game(table)
    seat = min(game.to_act())
    move = str(spec(table.game).player(game, seat, rng))
    user = table.seats[seat]
    change = await service.move(channel, Actor(user.user_id, user.name), move)
    ui.table_message(change.table, with_picture=picture)


async def interaction_figures(quick: bool) -> list[Figure]:
    from bot.store import Store
    from bot.tables import TableService

    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store)
        try:
            # A long Court Wars table (many moves stored), then timed moves on it.
            for picture, target in ((False, 5.0), (True, 25.0)):
                channel = 10 if not picture else 11
                await _table(service, channel, "court_wars", 2, seed=7)
                rng = random.Random(1)
                warm = 60 if quick else 300
                n = 0
                while n < warm and (await service.require(channel)).status == "playing":
                    await _one_move(service, channel, rng, False)
                    n += 1
                times = []
                for _ in range(30 if quick else 100):
                    table = await service.require(channel)
                    if table.status != "playing":
                        break
                    start = time.perf_counter()
                    await _one_move(service, channel, rng, picture)
                    times.append((time.perf_counter() - start) * 1000)
                what = "with its picture" if picture else "no picture"
                figures.append(Figure(f"one interaction, {len(table.moves)}-move table, {what}: p50",
                                      statistics.median(times), "ms"))
                figures.append(Figure(f"one interaction, {len(table.moves)}-move table, {what}: p99",
                                      percentile(times, 99), "ms", target))
            # Many tables at once: each round dispatches one move on every table, then settles.
            tables = 40 if quick else 200
            for i in range(tables):
                await _table(service, 1000 + i, "court_wars", 2, seed=i)
            errors = 0
            done = 0
            rounds = 3 if quick else 10
            before = {i: (await service.require(1000 + i)).revision for i in range(tables)}
            with LoopWatch() as watch:
                start = time.perf_counter()
                for r in range(rounds):
                    results = await asyncio.gather(
                        *(_one_move(service, 1000 + i, random.Random(r * 7919 + i), False) for i in range(tables)),
                        return_exceptions=True)
                    errors += sum(1 for x in results if isinstance(x, BaseException))
                    done += sum(1 for x in results if not isinstance(x, BaseException))
                elapsed = time.perf_counter() - start
            after = {i: (await service.require(1000 + i)).revision for i in range(tables)}
            lost = done - sum(after[i] - before[i] for i in range(tables))
            figures.append(Figure(f"{tables} tables at once: interactions/s (no pictures)", done / elapsed,
                                  "ops/s", 1000, higher_is_better=True))
            figures.append(Figure(f"{tables} tables at once: errors", errors, "count", 0))
            figures.append(Figure(f"{tables} tables at once: lost updates", lost, "count", 0))
            figures.append(Figure(f"{tables} tables at once: event loop blocked at most", watch.worst * 1000, "ms", 20))
        finally:
            await store.close()
    return figures


def run_bench(quick: bool = False, as_json: bool = False) -> int:
    figures: list[Figure] = []
    games = 10 if quick else 40
    print("Engines (built-in players; apply = replaying the recorded actions)")
    for game_id in GAME_IDS:
        for f in engine_figures(game_id, games):
            figures.append(f)
            print(f.line())
    print("\nInteractions, server-side (SQLite file; load, check, apply, save, embed and components)")
    for f in asyncio.run(interaction_figures(quick)):
        figures.append(f)
        print(f.line())
    if as_json:
        print(json.dumps({"figures": [f.as_json() for f in figures]}))
    return 0
