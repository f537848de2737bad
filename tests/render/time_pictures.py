"""Time each game's picture at the test positions: draw + encode (median and p99 of ``runs``
draws, public and a seat's view), the encoding alone, and the bytes.

    PYTHONPATH=. python -m tests.render.time_pictures [runs]
"""

from __future__ import annotations

import importlib
import io
import statistics
import sys
import time

from PIL import Image

from bot.render import drawing as dr
from tests.render.pictures import POSITIONS, positions


def p99(times: list[float]) -> float:
    return sorted(times)[max(0, round(len(times) * 0.99) - 1)]


def main(runs: int = 50) -> None:
    print(f"{'game':30} {'view':6} {'median':>8} {'p99':>8} {'encode':>8} {'bytes':>8}")
    for game_id, (_, _, seat) in POSITIONS.items():
        render = importlib.import_module(f"bot.render.{game_id}")
        game = positions(game_id)[-1]
        for who, s in (("public", None), ("seat", seat)):
            view = game.view(s)
            draw = render.picture if who == "public" else getattr(render, "seat_picture", render.picture)
            data = draw(view)  # warm the font and card caches, as a running bot has them
            if data is None:
                print(f"{game_id:30} {who:6} {'(none)':>8}")
                continue
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                data = draw(view)
                times.append(time.perf_counter() - t)
            img = Image.open(io.BytesIO(data)).convert("RGB")
            enc = []
            for _ in range(max(5, runs // 5)):
                t = time.perf_counter()
                dr.encode(img)
                enc.append(time.perf_counter() - t)
            print(f"{game_id:30} {who:6} {statistics.median(times) * 1000:6.1f}ms {p99(times) * 1000:6.1f}ms "
                  f"{statistics.median(enc) * 1000:6.1f}ms {len(data):8} {img.width}x{img.height}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
