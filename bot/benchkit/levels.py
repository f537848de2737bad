"""The bench's levels cell: Strong's playouts per second per game (untargeted) — the game's speed
is what bounds the strongest built-in player at its CPU budget."""

from __future__ import annotations

import random
import time
from typing import Any

from bot.engine.levels import choose
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
