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

import sys

from bot.benchkit.pictures import measure, varied_views, warm
from bot.engine import GAME_IDS

__all__ = ["measure", "varied_views", "main"]


def main(n: int = 200, games: list[str] | None = None) -> None:
    warm()
    print(f"{'game':30} {'views':>5} {'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8} {'bytes p50':>10} {'max':>8}")
    for game_id in games or GAME_IDS:
        p50, q99, top, b50, bmax = measure(game_id, n)
        print(f"{game_id:30} {n:5} {p50:6.1f}ms {q99:6.1f}ms {top:6.1f}ms {b50:10} {bmax:8}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, sys.argv[2:] or None)
