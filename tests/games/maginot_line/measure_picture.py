"""CPU per Maginot Line picture (draw + encode, ``time.process_time``) over varied views: positions
of seeded built-in games with 2 and 6 players, public and a seat's views. Prints p50/p99 and the
tallest picture; asserts nothing (not a test).

    python -m tests.games.maginot_line.measure_picture [views] [repeat]
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time

from PIL import Image

from bot.engine.maginot_line import SPEC
from bot.render import drawing as dr
from bot.render import maginot_line as render


def views(count: int) -> list:
    out = []
    for n, seed in ((2, 11), (6, 12), (2, 13), (6, 14), (4, 15)):
        g = SPEC.state.new([f"Player {i + 1}" for i in range(n)], [], seed=seed)
        rng = random.Random(seed)
        states = [g]
        for _ in range(1500):
            if g.is_over():
                break
            seat = min(g.to_act())
            g, _ = g.apply(seat, SPEC.player(g, seat, rng))
            states.append(g)
        step = max(1, len(states) // (count // 5 // 2))
        for k, s in enumerate(states[::step]):
            out.append(s.view(None))
            out.append(s.view(k % n))
    return out


def main(count: int = 200, repeat: int = 1) -> None:
    vs = views(count)
    dr.warm()
    for v in vs[:10]:
        render.picture(v)
    times, heights = [], []
    for _ in range(repeat):
        for v in vs:
            c = time.process_time()
            data = render.picture(v)
            times.append(time.process_time() - c)
            heights.append(Image.open(io.BytesIO(data)).height)
    times.sort()
    p99 = times[max(0, round(len(times) * 0.99) - 1)]
    print(f"{len(times)} pictures of {len(vs)} views: CPU p50 {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms; height median {statistics.median(heights):.0f} px, max {max(heights)} px")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
