"""Each game's picture: the CPU time of drawing one (draw and encode, as a picture process does),
over many varied views — seeded games of the built-in players (every player count the game
allows), their public views and, for games with a seat picture, the acting seat's views, sampled
evenly along each game. The process first warms up as a picture worker does
(``bot.render.pictures.warm`` and the registry's sample views); then each view is drawn once, as a
running bot draws a new table picture once. CPU time, not wall time: the figures hold on a busy
machine."""

from __future__ import annotations

import importlib
import random
import statistics
from typing import Any

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


def warm() -> None:
    """As a picture process starts: fonts, sprites and every game's sample views drawn once."""
    pictures.warm()
    for kind, game_id, view in sample_views(moves=10):
        pictures.DRAW[kind](game_id, view)


def measure(game_id: str, n: int) -> tuple[float, float, float, int, int]:
    """CPU p50, p99 and max (ms) of one picture over ``n`` varied views; bytes p50 and max."""
    import time

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


def picture_figures(quick: bool, report: Any, figure: Any) -> None:
    from bot.engine import GAME_IDS

    n = 40 if quick else 200
    warm()
    slowest = (0.0, "")
    for game_id in GAME_IDS:
        p50, q99, _, b50, bmax = measure(game_id, n)
        report(figure(f"{game_id}: one picture drawn and encoded ({n} varied views), CPU p50", p50, "ms"))
        report(figure(f"{game_id}: one picture drawn and encoded, CPU p99", q99, "ms"))
        report(figure(f"{game_id}: one picture's bytes, p50 (largest {bmax:,})", b50, "bytes"))
        slowest = max(slowest, (p50, game_id))
    report(figure(f"pictures: the slowest game's p50 ({slowest[1]})", slowest[0], "ms"))
