"""Figures for Cardchess2: the built-in player's win rate against a random walk through
``choices``, random playouts per second, and the most options one ``Choices`` offered (and
the slowest single ``choices`` call: the exact attack search's worst case).

    python -m bot.engine.cardchess2.bench [GAMES] [SEED]
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from bot.engine.core import Game, subsets

from . import GAME, auto_move


def random_walk(game: Game, seat: int, rng: random.Random, stats: dict[str, Any] | None = None) -> str:
    tokens: list[str] = []
    while True:
        t0 = time.perf_counter()
        c = game.choices(seat, tuple(tokens))
        if stats is not None:
            stats["slowest"] = max(stats["slowest"], time.perf_counter() - t0)
            if len(c.options) > stats["most"]:
                stats["most"], stats["where"] = len(c.options), " ".join(tokens) or "(start)"
        opts: list[str | None] = list(c.tokens())
        if c.kind == "set":
            opts = [",".join(s) for s in subsets(c.tokens(), c.lo, c.hi)]
        if c.complete:
            opts.append(None)
        pick = rng.choice(opts)
        if pick is None:
            return " ".join(tokens)
        tokens.append(pick)


def run(games: int = 200, seed: int = 0) -> dict[str, Any]:
    stats: dict[str, Any] = {"most": 0, "where": "", "slowest": 0.0}
    wins = draws = 0
    t0 = time.perf_counter()
    for i in range(games):
        g = GAME.new(["bot", "random"], [], seed=seed + i)
        rng = random.Random(seed + i)
        bot = i % 2
        while not g.is_over():
            s = sorted(g.to_act())[0]
            g, _ = g.apply(s, auto_move(g, s, rng) if s == bot else random_walk(g, s, rng, stats))
        wins += bot in g.outcome().winners
        draws += not g.outcome().winners
    vs_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    moves = 0
    for i in range(games):
        g = GAME.new(["a", "b"], [], seed=seed + 10_000 + i)
        rng = random.Random(i)
        while not g.is_over():
            s = sorted(g.to_act())[0]
            g, _ = g.apply(s, random_walk(g, s, rng, stats))
            moves += 1
    rand_time = time.perf_counter() - t0
    return {"games": games, "bot_wins": wins, "draws": draws, "win_rate": wins / games,
            "bot_games_per_s": games / vs_time, "random_playouts_per_s": games / rand_time,
            "random_moves_per_s": moves / rand_time, "most_options": stats["most"], "most_options_at": stats["where"],
            "slowest_choices_ms": round(stats["slowest"] * 1000, 2)}


if __name__ == "__main__":  # pragma: no cover
    args = [int(a) for a in sys.argv[1:3]]
    for k, v in run(*args).items():
        print(f"{k}: {v}")
