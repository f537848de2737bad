"""The turn-limit sweep at scale and the bot's memory, through the real bot and the stand-in.

Sweep: 100,000 stored tables (made by the database itself), 1,000 of them due; the cog's
``check_timeouts`` reads them, saves each change, edits each table message and posts each
notice. Memory: the same 100,000 tables plus 1,000 hot tables of 300+ moves, each pressed
through the real path with its picture; the resident memory of the bot's process and of its
picture processes.

The memory is read in a fresh process started on this module, which picture processes import
as their main module (``python -m bot`` is not: multiprocessing skips a ``__main__`` module): so
this module imports nothing at its top that the bot's picture processes would not (the stand-in,
discord.py and the rest are imported where they are used)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DUE = 1000
STORED = 100_000
HOT = 1000
HOT_BASE = 2_000_000


async def stored_tables(store: Any, backend: str, count: int) -> None:
    """``count`` idle tables, half finished and half ongoing, cloned by the database."""
    from bot.bench import MANY_GAME
    from bot.benchkit.service import _fill, _next_move, _table
    from bot.tables.service import TableService

    service = TableService(store)
    await _table(service, 1, MANY_GAME, 2, seed=1)
    rng = random.Random(1)
    for _ in range(12):
        await service.move(1, *(await _next_move(service, 1, rng) or ()))
    await _table(service, 2, "knight_rogue_princess_dragon", 4, seed=2)
    krng = random.Random(2)
    while (nxt := await _next_move(service, 2, krng)) is not None:
        await service.move(2, *nxt)
    await _fill(store, backend, 1, 2, count - 2)


async def make_due(store: Any, backend: str, count: int, now: float, *, warning: bool = False,
                   skip: int = 0) -> list[int]:
    """Make ``count`` of the ongoing idle tables (after the first ``skip``) due now, each with a table
    message: their turn is up, or (``warning``) a quarter of it is left."""
    from bot.store.base import WARN_FRACTION

    q = "?" if backend == "sqlite" else "$1"
    rows = await store.execute(f"SELECT channel_id, turn_limit FROM tables WHERE status = 'playing' AND channel_id > "
                               f"1000000000 ORDER BY channel_id LIMIT {q}", (count + skip,))
    rows = rows[skip:]
    channels = [int(r[0]) for r in rows]
    limit = int(rows[0][1] or 86400)
    args = (now - limit * WARN_FRACTION - 30 if warning else now - limit - 60, now - 30)
    if backend == "sqlite":
        sql = ("UPDATE tables SET turn_since = ?, alarm = ?, timed_out = 0, warned_for = NULL, "
               "message_id = 7000000000000000000 + channel_id, message_table = table_id "
               f"WHERE channel_id IN ({', '.join('?' * len(channels))})")
        await store.execute(sql, (*args, *channels))
    else:
        sql = ("UPDATE tables SET turn_since = $1, alarm = $2, timed_out = FALSE, warned_for = NULL, "
               "message_id = 7000000000000000000 + channel_id, message_table = table_id "
               "WHERE channel_id = ANY($3::bigint[])")
        await store.execute(sql, (*args, channels))
    return channels


def rss_kb(pid: int, field: str = "VmRSS:", source: str = "status") -> int:
    """A process's resident memory in KB (``Pss:`` from ``smaps_rollup``: shared pages counted
    once across the processes that share them, e.g. the forked picture workers)."""
    try:
        for line in Path(f"/proc/{pid}/{source}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kb(pid: int) -> int:
    return rss_kb(pid, "Pss:", "smaps_rollup")


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            for c in map(int, text):
                out += [c, *children(c)]
    except OSError:
        pass
    return out


def run_queue_reader() -> Any:
    """A reader of the calling thread's time spent runnable but waiting for a core, in seconds
    (Linux's ``/proc/self/task/<tid>/schedstat``; about 2 µs a read), or None where there is none."""
    import threading

    try:
        fd = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)
    except (OSError, AttributeError):
        return None

    def waited() -> float:
        return int(os.pread(fd, 64, 0).split()[1]) / 1e9

    try:
        waited()
    except (OSError, IndexError, ValueError):
        os.close(fd)
        return None
    waited.close = lambda: os.close(fd)  # type: ignore[attr-defined]
    return waited


def stall_watch() -> Any:
    """bot.bench's LoopWatch, that also reads how long the loop's thread waited for a core in each
    stretch (``worst_own``: the longest stretch less that wait; None where it cannot be read). On a
    machine busy with other work the wall figure grows with the load; this one is what the bot
    itself kept the loop from running (its own work, its other threads holding the interpreter's
    lock, the collector), whatever else the machine runs."""
    from bot.bench import LoopWatch

    class StallWatch(LoopWatch):
        def __init__(self) -> None:
            super().__init__()
            self.worst_own: float | None = None

        async def _tick(self) -> None:
            waited = run_queue_reader()
            if waited is None:
                return await super()._tick()
            self.worst_own = 0.0
            try:
                last, last_cpu, last_q = time.perf_counter(), time.thread_time(), waited()
                while True:
                    await asyncio.sleep(0.001)
                    now, cpu, q = time.perf_counter(), time.thread_time(), waited()
                    gap = now - last - 0.001
                    self.worst = max(self.worst, gap)
                    self.worst_cpu = max(self.worst_cpu, cpu - last_cpu)
                    self.worst_own = max(self.worst_own, gap - (q - last_q))
                    last, last_cpu, last_q = now, cpu, q
            finally:
                waited.close()

    return StallWatch()


def sender_seconds(bot: Any) -> float:
    """The CPU time of the bot's sweep sender thread so far (bot.ui.courier; 0 without one)."""
    courier = getattr(bot, "courier", None)
    return courier.cpu_seconds() if courier is not None else 0.0


async def timed_sweep(bot: Any, cog: Any, name: str, due: list[int], report: Any, target: float | None) -> None:
    """One sweep of ``due`` tables, with no stall watcher running (its ticker costs the loop time
    of its own): the loop thread's time beside the sender thread's CPU, the wall time, the notices."""
    from bot.bench import Figure
    from bot.tables.games import GAMES

    GAMES.clear()
    sender_cpu = sender_seconds(bot)
    start, loop_cpu = time.perf_counter(), time.thread_time()
    told = await cog.check_timeouts()
    wall, loop = time.perf_counter() - start, time.thread_time() - loop_cpu
    sender = sender_seconds(bot) - sender_cpu
    report(Figure(f"{name}: event-loop time", loop * 1000, "ms", target))
    report(Figure(f"{name}: sender thread CPU (its requests; beside the loop, sharing the GIL)", sender * 1000, "ms"))
    report(Figure(f"{name}: wall time", wall * 1000, "ms"))
    report(Figure(f"{name}: notices posted", told, "count", None))
    if told != len(due):
        report(Figure(f"{name}: due tables not told", len(due) - told, "count", 0))


async def sweep_and_memory(backend: Any, quick: bool, report: Any) -> None:
    from bot.bench import Figure
    from bot.benchkit.feeder import running_bot
    from bot.benchkit.press import clone, load, template
    from bot.tables.games import GAMES
    from bot.tables.service import TableService

    tag = f"[{backend.name}]"
    stored = 10_000 if quick else STORED
    due = 100 if quick else DUE
    hot = 50 if quick else HOT
    store = await backend.open("sweep")
    try:
        t0 = time.perf_counter()
        await stored_tables(store, backend.name, stored)
        now = time.time()
        channels = await make_due(store, backend.name, due, now)
        print(f"  ({tag} {stored:,} stored tables made in {time.perf_counter() - t0:.1f} s; {len(channels)} due; "
              f"load {load():.1f})", flush=True)
        async with running_bot(store, pictures_on=False) as (bot, feeder, counting):
            cog = bot.get_cog("Tables")
            # The loop's time is measured on its own: the stall watcher's 1 ms ticker costs the loop
            # time of its own (about 70 ms over a sweep's two seconds), so the stall is measured on a
            # second batch of as many due tables.
            name = f"{tag} sweep, {len(channels):,} of {stored:,} tables due (notices posted, table messages edited)"
            await timed_sweep(bot, cog, name, channels, report, 200 if due >= DUE else None)
            again = await make_due(store, backend.name, due, time.time(), skip=due)
            GAMES.clear()
            with stall_watch() as watch:
                loop_cpu = time.thread_time()
                told = await cog.check_timeouts()
                watched = time.thread_time() - loop_cpu
            name = f"{tag} sweep, another {len(again):,} due, watched for stalls (a 1 ms ticker on the loop)"
            report(Figure(f"{name}: event-loop time, the ticker's included", watched * 1000, "ms"))
            report(Figure(f"{name}: event loop blocked at most (wall)", watch.worst * 1000, "ms", 20))
            report(Figure(f"{name}: event loop blocked at most (its thread's CPU)", watch.worst_cpu * 1000, "ms",
                          20))
            if watch.worst_own is not None:
                report(Figure(f"{name}: event loop blocked at most (wall, less its thread's waits for a core: "
                              "the machine's other work)", watch.worst_own * 1000, "ms"))
            if told != len(again):
                report(Figure(f"{name}: due tables not told", len(again) - told, "count", 0))
            # Warnings: the notice only (the table message is left as it is: nothing on it changed).
            warned = await make_due(store, backend.name, due, time.time(), warning=True, skip=2 * due)
            name = f"{tag} sweep, {len(warned):,} of {stored:,} tables due a warning (notices posted, no table edit)"
            await timed_sweep(bot, cog, name, warned, report, None)
        # memory: 1,000 hot tables of 300+ moves, each pressed with its picture, in a fresh process
        kinds = 5 if quick else 10  # distinct games (seeds), each copied; their presses differ again
        hot_channels = [HOT_BASE + i for i in range(hot)]
        t0 = time.perf_counter()
        for k in range(kinds):
            await template(TableService(store), 3 + k, 300 + 7 * k, seed=k)
            await clone(store, backend.name, 3 + k, hot_channels[k::kinds])
        print(f"  ({tag} {hot} hot tables of 300+ moves made in {time.perf_counter() - t0:.1f} s)", flush=True)
    finally:
        await store.close()
    # A fresh process, as a bot started on this database: this one's high-water marks stay out of it.
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot.benchkit.sweep", str(backend.folder),
                                                    str(hot)], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        report(Figure(f"{tag} memory", float("nan"), "MB", 300, note="not measured: " +
                      (done.stderr.strip().splitlines() or ["?"])[-1][:150]))
        return
    got = json.loads(done.stdout.strip().splitlines()[-1])
    name = f"{tag} memory, {stored:,} stored tables, {hot:,} hot ones of 300+ moves pressed twice with pictures"
    report(Figure(f"{name}: RSS, bot process", got["main_kb"] / 1024, "MB"))
    report(Figure(f"{name}: RSS, its {got['procs']} picture processes", got["pictures_kb"] / 1024, "MB"))
    report(Figure(f"{name}: RSS, bot and picture processes (summed: shared pages counted in each)",
                  (got["main_kb"] + got["pictures_kb"]) / 1024, "MB", 300))
    report(Figure(f"{name}: PSS, bot and picture processes (shared pages counted once)", got["pss_kb"] / 1024,
                  "MB", 300))
    report(Figure(f"{name}: the collection of everything made once the bot is quiet (CPU; "
                  f"{got['objects']:,} objects alive)", got["tidy_ms"], "ms"))
    print(f"  ({got['caches']}; load {load():.1f})", flush=True)


async def _memory(folder: Path, hot: int) -> dict[str, Any]:
    """In a fresh process: open the bench's database, press every hot table twice with its
    picture through the real path, then read the resident memory."""
    from bot.app import settle_memory
    from bot.bench import Backend
    from bot.benchkit.feeder import running_bot
    from bot.benchkit.press import Presser, Run
    from bot.engine.registry import sample_views
    from bot.render import pictures
    from bot.tables.games import GAMES
    from bot.ui.turnstile import tidy_up

    store = await Backend("sqlite", folder).open("sweep")
    try:
        async with running_bot(store, pictures_on=True) as (bot, feeder, counting):
            settle_memory()
            await pictures.prepare(sample_views())
            presser = Presser(bot, feeder, counting)
            hot_channels = [HOT_BASE + i for i in range(hot)]
            await presser.show(hot_channels)
            presser.fresh_pictures = False  # the pictures cache keeps what it may (bounded in bytes)
            run = Run()
            for _ in range(2):
                for ch in hot_channels:
                    await presser.press(ch, "slash", run)
            me = os.getpid()
            stand_in = feeder.server_pid
            procs = [p for p in children(me) if p != stand_in and p not in children(stand_in)]
            rows = bot.service._rows
            caches = (f"caches: games {len(GAMES)} ≈ {GAMES.bytes / 2**20:.1f} MB of {GAMES.max_bytes / 2**20:.0f}; "
                      f"rows {len(rows)} ≈ {rows.bytes / 2**20:.1f} MB of {rows.max_bytes / 2**20:.0f}; "
                      f"pictures {pictures.stats()['cached']} ≈ {pictures.stats()['cached_bytes'] / 2**20:.1f} MB; "
                      f"discord.py views held {len(bot._connection._view_store._views)}")
            got = {"main_kb": rss_kb(me), "pictures_kb": sum(rss_kb(p) for p in procs), "procs": len(procs),
                   "pss_kb": pss_kb(me) + sum(pss_kb(p) for p in procs), "caches": caches}
            cpu = time.thread_time()  # the collection of everything the bot makes once quiet
            tidy_up()
            got["tidy_ms"] = (time.thread_time() - cpu) * 1000
            got["objects"] = gc.get_freeze_count()
            return got
    finally:
        await store.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_memory(Path(sys.argv[1]), int(sys.argv[2])))))
