"""Time each game's picture at the test positions: draw + encode (median and p99 of ``runs``
draws, public and a seat's view), the encoding alone, and the bytes; then the picture road
(bot.render.pictures): a cache hit, one picture awaited from the pool, and the pool's throughput
with ``workers`` processes (and the longest the event loop waited meanwhile).

    PYTHONPATH=. python -m tests.render.time_pictures [runs] [workers]

With ``varied``, the CPU time and bytes of each game's picture over many varied views instead
(``tests/render/measure_pictures.py``: seeded games of the built-in players, each view drawn once):

    PYTHONPATH=. python -m tests.render.time_pictures varied [views per game] [game …]
"""

from __future__ import annotations

import asyncio
import importlib
import io
import statistics
import sys
import time

from PIL import Image

from bot.render import drawing as dr
from bot.render import pictures
from tests.render.pictures import POSITIONS, positions


def p99(times: list[float]) -> float:
    return sorted(times)[max(0, round(len(times) * 0.99) - 1)]


def main(runs: int = 50) -> None:
    print(f"{'game':30} {'view':6} {'median':>8} {'p99':>8} {'cpu med':>8} {'enc cpu':>8} {'bytes':>8}")
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
            times, cpu = [], []
            for _ in range(runs):
                t, c = time.perf_counter(), time.process_time()
                data = draw(view)
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
            img = Image.open(io.BytesIO(data))
            img.load()
            encode = dr.png if img.mode == "P" else dr.encode  # a palette sheet is written as it is
            if img.mode != "P":
                img = img.convert("RGB")
            enc = []
            for _ in range(max(5, runs // 5)):
                c = time.process_time()
                encode(img)
                enc.append(time.process_time() - c)
            print(f"{game_id:30} {who:6} {statistics.median(times) * 1000:6.1f}ms {p99(times) * 1000:6.1f}ms "
                  f"{statistics.median(cpu) * 1000:6.1f}ms {statistics.median(enc) * 1000:6.1f}ms {len(data):8} "
                  f"{img.width}x{img.height}")


def _views(per_game: int) -> list[tuple[str, object]]:
    """Distinct public views: the last ``per_game`` positions of each game's test game."""
    out = []
    for game_id in POSITIONS:
        out += [(game_id, g.view(None)) for g in positions(game_id)[-per_game:]]
    return out


async def road(workers: int, per_game: int = 20) -> None:
    pictures.configure(workers=workers)
    pictures.cache_clear()
    views = _views(per_game)
    game_id, view = views[-1]
    await pictures.table_picture(game_id, view)  # the pool started and warmed
    times = []
    for _ in range(200):
        t = time.perf_counter()
        await pictures.table_picture(game_id, view)
        times.append(time.perf_counter() - t)
    print(f"cache hit (Maginot Line view): median {statistics.median(times) * 1e6:.0f} µs, "
          f"p99 {p99(times) * 1e6:.0f} µs")
    pool = pictures.start()
    times = []
    for _ in range(200):
        t = time.perf_counter()
        await asyncio.wrap_future(pool.submit(repr, view))
        times.append(time.perf_counter() - t)
    print(f"pool round trip (a Maginot Line view there, its repr back): median "
          f"{statistics.median(times) * 1000:.2f} ms, p99 {p99(times) * 1000:.2f} ms")
    # One picture at a time, each new: what an interaction that draws one waits.
    pictures.cache_clear()
    times = []
    for gid, v in views:
        t = time.perf_counter()
        await pictures.table_picture(gid, v)
        times.append(time.perf_counter() - t)
    print(f"one new picture awaited ({len(views)} views, {workers} workers): median "
          f"{statistics.median(times) * 1000:.1f} ms, p99 {p99(times) * 1000:.1f} ms")
    # All at once: throughput, and the longest the loop waited for its turn meanwhile.
    pictures.cache_clear()
    loop = asyncio.get_running_loop()
    gaps: list[float] = []
    done = False

    async def tick() -> None:
        last = loop.time()
        while not done:
            await asyncio.sleep(0.001)
            gaps.append(loop.time() - last)
            last = loop.time()

    ticker = asyncio.create_task(tick())
    t = time.perf_counter()
    got = await asyncio.gather(*(pictures.table_picture(gid, v) for gid, v in views))
    elapsed = time.perf_counter() - t
    done = True
    await ticker
    assert all(got)
    print(f"throughput: {len(views) / elapsed:.0f} pictures/s with {workers} workers "
          f"({len(views)} pictures in {elapsed:.2f} s); longest loop wait {max(gaps) * 1000:.1f} ms")
    t = time.perf_counter()
    for gid, v in views:
        pictures.draw_table(gid, v)
    print(f"for comparison, drawn one after another in this process: {len(views) / (time.perf_counter() - t):.0f} "
          "pictures/s")
    pictures.shutdown()


if __name__ == "__main__":
    if sys.argv[1:2] == ["varied"]:
        from tests.render import measure_pictures

        measure_pictures.main(int(sys.argv[2]) if len(sys.argv) > 2 else 200, sys.argv[3:] or None)
        sys.exit(0)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
    asyncio.run(road(int(sys.argv[2]) if len(sys.argv) > 2 else 2))
