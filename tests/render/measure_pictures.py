"""CPU time and size of every game's picture over many varied views: seeded games played by the
built-in players (every player count the game allows), their public views and, for games with a
seat picture, the acting seat's views, sampled evenly along each game. Each process first warms
up as a picture worker does (``bot.render.pictures.warm`` and the registry's sample views); then
each view is drawn once, as a running bot draws a new table picture once.

    PYTHONPATH=. python -m tests.render.measure_pictures [views per game] [game …]
    PYTHONPATH=. python -m tests.render.time_pictures varied [views per game] [game …]  (the same)

Prints, per game, the p50 and p99 of the process CPU time (ms) of one picture and the p50 and
largest of its bytes. CPU time, not wall time: the figures hold on a busy machine.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from typing import Any

from bot.engine import GAME_IDS
from bot.engine.registry import sample_views, spec
from bot.render import pictures


def varied_views(game_id: str, n: int = 200, seed: int = 1) -> list[tuple[str, Any]]:
    """``n`` views ``(kind, view)`` spread over seeded games of ``game_id``."""
    sp = spec(game_id)
    module = importlib.import_module(f"bot.render.{game_id}")
    seat_kind = hasattr(module, "seat_picture")
    found: list[tuple[str, Any]] = []
    counts = list(range(sp.min_players, sp.max_players + 1)) or [sp.min_players]
    k = 0
    while len(found) < 4 * n and k < 40:
        players = [f"Player {i + 1}" for i in range(counts[k % len(counts)])]
        game = sp.state.new(players, (), seed=seed + k)
        rng = random.Random(seed + k)
        states = [game]
        for _ in range(2000):
            if game.is_over() or not game.to_act():
                break
            seat = min(game.to_act())
            game, _ = game.apply(seat, str(sp.player(game, seat, rng)))
            states.append(game)
        for i, g in enumerate(states):
            found.append(("table", g.view(None)))
            if seat_kind:
                acting = sorted(g.to_act()) or [0]
                found.append(("seat", g.view(acting[i % len(acting)])))
        k += 1
    step = len(found) / n
    return [found[int(i * step)] for i in range(n)]


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, round(len(values) * 0.99) - 1)]


def measure(game_id: str, n: int) -> tuple[float, float, float, int, int]:
    views = varied_views(game_id, n)
    cpu, sizes = [], []
    for kind, view in views:
        c = time.process_time()
        data = pictures.DRAW[kind](game_id, view)
        cpu.append(time.process_time() - c)
        if data is not None:
            sizes.append(len(data))
    return (statistics.median(cpu) * 1000, p99(cpu) * 1000, max(cpu) * 1000, int(statistics.median(sizes)),
            max(sizes))


def main(n: int = 200, games: list[str] | None = None) -> None:
    pictures.warm()
    for kind, game_id, view in sample_views(moves=10):
        pictures.DRAW[kind](game_id, view)
    print(f"{'game':30} {'views':>5} {'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8} {'bytes p50':>10} {'max':>8}")
    for game_id in games or GAME_IDS:
        p50, q99, top, b50, bmax = measure(game_id, n)
        print(f"{game_id:30} {n:5} {p50:6.1f}ms {q99:6.1f}ms {top:6.1f}ms {b50:10} {bmax:8}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, sys.argv[2:] or None)
