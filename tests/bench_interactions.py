"""Interaction benchmark through the Discord stand-in (used by `python -m bot bench`).

Measures the server-side handling of button presses: from the INTERACTION_CREATE payload
entering discord.py to the bot having sent its last answer (the stand-in runs in the same
process, so its own work is included: an upper bound).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bot.app import DeckhandBot
from tests.discord_helpers import auto_move_for, press_move
from tests.standin import logged_in, running_standin


async def interaction_figures(moves: int = 200, tables: int = 40) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"sequential moves, one table": [], f"one move at each of {tables} tables at once": []}
    with tempfile.TemporaryDirectory() as tmp:
        async with running_standin(check_clean=False) as standin:
            async with logged_in(DeckhandBot(Path(tmp) / "bench.sqlite3", run_timeouts=False)) as bot:
                user = standin.user(name="bench")
                res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=user)
                channel = int(res.message["channel_id"])
                done = 0
                while done < moves:
                    table = await bot.service.get(channel)
                    if table.status != "playing":
                        await standin.slash(bot, "game new", {"game": "gridcannon"}, user=user)
                        continue
                    _, move = await auto_move_for(bot, channel, done)
                    t0 = time.perf_counter()
                    await press_move(standin, bot, channel, move, user)
                    out["sequential moves, one table"].append((time.perf_counter() - t0) * 1000)
                    done += 1
                users = [standin.user(name=f"p{i}") for i in range(tables)]
                channels = []
                for u in users:
                    r = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=u)
                    channels.append(int(r.message["channel_id"]))

                async def one(u: dict, ch: int, i: int) -> float:
                    _, move = await auto_move_for(bot, ch, i)
                    t0 = time.perf_counter()
                    await press_move(standin, bot, ch, move, u)
                    return (time.perf_counter() - t0) * 1000

                walls = []
                for round_ in range(3):
                    t0 = time.perf_counter()
                    times = await asyncio.gather(*(one(u, ch, round_) for u, ch in zip(users, channels, strict=True)))
                    walls.append(time.perf_counter() - t0)
                    out[f"one move at each of {tables} tables at once"].extend(times)
                out["throughput at once (moves/s, per round)"] = [tables / w for w in walls]
    return out
