"""``python -m bot bench``: speed figures, printed (never asserted in tests).

1. Engine: moves/s replaying recorded games (apply only), and whole games/s with the
   built-in player choosing every move.
2. Interactions: the server-side cost of a button press through the Discord stand-in
   (tests/standin.py, a fake Discord on 127.0.0.1): p50/p99 ms for sequential moves on one
   table, and for many tables at once. Needs a source checkout (the stand-in lives in tests/).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bot.cli import default_players, play_auto
from bot.engine import GAME_IDS, game_class


def engine_figures(game_id: str, games: int) -> dict[str, Any]:
    cls = game_class(game_id)
    names = default_players(game_id, 4 if cls.max_players >= 4 else None)
    recorded: list[tuple[int, list[list[Any]]]] = []
    start = time.perf_counter()
    total = 0
    for i in range(games):
        game = cls.new(names, seed=i)
        game, moves = play_auto(game, random.Random(i))
        recorded.append((i, moves))
        total += len(moves)
    auto_elapsed = time.perf_counter() - start
    start = time.perf_counter()
    for seed, moves in recorded:
        game = cls.new(names, seed=seed)
        for seat, move in moves:
            game, _ = game.apply(seat, move)
    apply_elapsed = time.perf_counter() - start
    return {
        "game": game_id,
        "players": len(names),
        "games": games,
        "moves": total,
        "apply_moves_per_s": round(total / apply_elapsed),
        "auto_games_per_s": round(games / auto_elapsed, 1),
    }


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def run_bench(quick: bool = False) -> int:
    games = 10 if quick else 40
    print("Engine (built-in players; apply = replaying the recorded moves)")
    print(f"{'game':<30} {'players':>7} {'moves':>7} {'apply moves/s':>14} {'auto games/s':>13}")
    for game_id in GAME_IDS:
        f = engine_figures(game_id, games)
        print(f"{f['game']:<30} {f['players']:>7} {f['moves']:>7} {f['apply_moves_per_s']:>14} "
              f"{f['auto_games_per_s']:>13}")
    root = Path(__file__).resolve().parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        from tests.bench_interactions import interaction_figures  # a source checkout has it
    except ImportError as e:
        print(f"\nInteractions: skipped ({e}); run from a source checkout.")
        return 0
    print("\nInteractions through the Discord stand-in (server-side handling, ms)")
    figures = asyncio.run(interaction_figures(moves=60 if quick else 200, tables=10 if quick else 40))
    for name, values in figures.items():
        if "moves/s" in name:
            print(f"{name:<44} " + "  ".join(f"{v:.0f}" for v in values))
            continue
        print(f"{name:<44} n={len(values):<5} p50={statistics.median(values):7.2f}  "
              f"p99={percentile(values, 99):7.2f}  mean={statistics.fmean(values):7.2f}")
    print("(Each press is timed from the interaction entering discord.py until every reply is sent; with many\n"
          " presses at once they queue on one event loop, so latency grows with the crowd.)")
    return 0
