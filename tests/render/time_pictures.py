"""Time each game's picture (median of 50 draws, public and a seat's view) at the test positions.

    /work/main/.venv/bin/python -m tests.render.time_pictures
"""

from __future__ import annotations

import importlib
import statistics
import time

from tests.render.pictures import POSITIONS, positions


def main(runs: int = 50) -> None:
    for game_id, (_, _, seat) in POSITIONS.items():
        render = importlib.import_module(f"bot.render.{game_id}")
        game = positions(game_id)[-1]
        for who, s in (("public", None), ("seat", seat)):
            view = game.view(s)
            render.picture(view)  # warm the font and card caches, as a running bot has them
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                data = render.picture(view)
                times.append(time.perf_counter() - t)
            print(f"{game_id:30} {who:6} median {statistics.median(times) * 1000:6.1f} ms  {len(data) // 1024} KiB")


if __name__ == "__main__":
    main()
