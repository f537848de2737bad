"""The bench's levels cell: Strong's playouts per second per game (untargeted) — the game's speed
is what bounds the strongest built-in player at its CPU budget — and, in the full bench, Strong's
win rate at its default budget over a few seeded Court Wars games (untargeted)."""

from __future__ import annotations

import random
import time
from typing import Any

from bot.engine.levels import choose, strong_budget
from bot.engine.registry import GAME_IDS, spec
from bot.engine.strong import NORMAL_ONLY


def playout_figures(quick: bool, report: Any, figure: type) -> None:
    """For each game, Strong's search on a few positions of a seeded game (a playout cap): its
    playouts a second of CPU, each a sampled deal played to the end by the Normal player."""
    moves, cap = (2, 6) if quick else (6, 24)
    for game_id in GAME_IDS:
        if game_id in NORMAL_ONLY:
            continue
        s = spec(game_id)
        n = 1 if s.max_players == 1 else max(2, s.min_players)
        game = s.state.new([f"P{i + 1}" for i in range(n)], (), seed=17)
        rng = random.Random(17)
        spent = played = 0.0
        for step in range(400):
            if game.is_over():
                break
            seat = game.decisions()[0].seat
            if step % 5 == 2 and played < moves * cap:
                start = time.process_time()
                action = choose("strong", game, seat, random.Random(step), playouts=cap)
                spent += time.process_time() - start
                played += cap
            else:
                action = s.player(game, seat, rng)
            game, _ = game.apply(seat, str(action))
        report(figure(f"{game_id}: Strong's playouts ({int(played)} at {n} player{'s' * (n > 1)}, untargeted)",
                      played / max(spent, 1e-9), "playouts/s"))


STRONG_RATE_GAMES = 4  # Court Wars games, 2 players, seats alternated: a few minutes of CPU


def strong_rate_figure(report: Any, figure: type, games: int = STRONG_RATE_GAMES, budget: float | None = None) -> None:
    """Strong's win rate against Normal at its default CPU budget a move (``strong_budget``), over
    ``games`` seeded two-player Court Wars games, with its 95 % interval in the figure's name: too
    few games for a target (``python -m bot strength court_wars`` measures it properly).
    ``budget``: another CPU budget a move (the tests' few milliseconds)."""
    from bot.strength import measure, wilson

    what = "its default budget, " if budget is None else ""
    budget = strong_budget() if budget is None else budget
    rate = measure("court_wars", games, [2], budget=budget, levels=("strong",), progress=None)[0]
    low, high = wilson(rate.wins, rate.games)
    report(figure(f"court_wars: Strong's win rate vs Normal at {what}{budget:g} s a move ("
                  f"{rate.wins:g} of {rate.games} games, 95 % {100 * low:.0f}–{100 * high:.0f} %, untargeted)",
                  100 * rate.wins / rate.games, "%"))
