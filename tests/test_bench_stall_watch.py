"""The sweep bench's stall watch: the longest stretch without a turn of the loop, in wall time, in
the loop thread's CPU, and in wall time less the thread's waits for a core (Linux only)."""

from __future__ import annotations

import asyncio
import sys
import time

from bot.benchkit.sweep import run_queue_reader, stall_watch


async def test_a_blocked_loop_is_seen_in_every_figure():
    """On Linux (CI) all three figures; elsewhere the third is not reported (None), never a guess."""
    reads_waits = run_queue_reader() is not None
    if sys.platform.startswith("linux"):
        assert reads_waits  # /proc/self/task/<tid>/schedstat
    with stall_watch() as watch:
        await asyncio.sleep(0.01)
        time.sleep(0.03)  # the loop blocked, its thread not running: its own doing all the same
        await asyncio.sleep(0.01)
        start = time.thread_time()
        while time.thread_time() - start < 0.02:  # the loop blocked, its thread busy
            pass
        await asyncio.sleep(0.01)
    assert watch.worst >= 0.029
    assert 0.019 <= watch.worst_cpu < 0.029
    if not reads_waits:
        assert watch.worst_own is None
        return
    assert watch.worst_own is not None and watch.worst_own >= 0.029 - 0.002
    assert watch.worst_own <= watch.worst + 1e-6
