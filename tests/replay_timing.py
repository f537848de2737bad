"""The replay viewer's step time, printed (not a test): ``python tests/replay_timing.py [game]``.

A game is finished by the built-in players on a fresh SQLite file, ``/game replay`` is opened
through the Discord stand-in (real discord.py), ▶ is pressed step by step (first visits: each
picture drawn), then ◀ back to the deal (every step cached). Two figures each way: the press's
round trip (discord.py, the handler, the edit through the stand-in) and the handler's frame work
alone (reader, picture, payload).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

STEPS = 60


def summary(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"median {statistics.median(xs) * 1000:.1f} ms, p90 {xs[int(len(xs) * 0.9)] * 1000:.1f} ms, "
            f"max {xs[-1] * 1000:.1f} ms")


async def main(game: str) -> None:
    from bot.app import DeckhandBot
    from bot.ui import replay as ui
    from bot.standin import GUILD_READY_TIMEOUT, logged_in, running_standin
    from tests.test_discord_replay import finish, parts

    async with running_standin() as standin:
        db = Path(tempfile.mkdtemp()) / "deckhand.sqlite3"
        async with logged_in(DeckhandBot(db, run_timeouts=False, guild_ready_timeout=GUILD_READY_TIMEOUT)) as bot:
            g = standin.guild()
            users = [standin.user(name=n) for n in ("ana", "ben")]
            for u in users:
                g.add_member(u)
            await finish(bot, int(g.channel["id"]), g.id, game, users, seed=4)
            mid = (await standin.slash(bot, "game replay", user=users[0], guild=g)).message_id
            work: list[float] = []
            frame = ui.frame

            async def timed(*args, **kw):
                t = time.perf_counter()
                out = await frame(*args, **kw)
                work.append(time.perf_counter() - t)
                return out

            ui.frame = timed
            first: list[float] = []
            n = 0
            while n < STEPS and not parts(standin, mid)["n"].get("disabled"):
                t = time.perf_counter()
                await standin.click(bot, mid, parts(standin, mid)["n"]["custom_id"], user=users[0])
                first.append(time.perf_counter() - t)
                n += 1
            first_work, work[:] = work[:], []
            cached: list[float] = []
            for _ in range(n):
                t = time.perf_counter()
                await standin.click(bot, mid, parts(standin, mid)["b"]["custom_id"], user=users[0])
                cached.append(time.perf_counter() - t)
            ui.frame = frame
            print(f"{game}: {n} steps forward, then back")
            print(f"first visit, press round trip: {summary(first)}")
            print(f"first visit, frame work:       {summary(first_work)}")
            print(f"cached, press round trip:      {summary(cached)}")
            print(f"cached, frame work:            {summary(work)}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "court_wars"))
