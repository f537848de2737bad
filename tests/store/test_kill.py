"""kill -9 during a burst of moves loses no acknowledged move (both back ends), and the table
loads whole afterwards: its snapshot plus the logged moves after it are the game replayed from
its seed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.engine.registry import spec
from bot.records import apply_logged
from bot.store.base import SNAPSHOT_EVERY
from bot.tables.games import GAMES, load_game

ROOT = Path(__file__).resolve().parents[2]


async def test_kill_9_loses_no_acknowledged_move(backend):
    proc = subprocess.Popen([sys.executable, "-m", "tests.store.burst", backend.name, backend.target], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acked = -1
    try:
        for line in proc.stdout:
            acked = int(line.split()[1])
            if acked >= 2 * SNAPSHOT_EVERY + 5:  # past a few snapshots
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert acked >= 2 * SNAPSHOT_EVERY + 5, proc.stderr.read()
    GAMES.clear()
    store = await backend.open()
    t = await store.get(1)
    await store.close()
    assert len(t.moves) >= acked  # every acknowledged move is there (one more may have committed unseen)
    assert t.revision == 3 + len(t.moves)  # opened, joined, started, then one revision a move
    game = spec(t.game).state.new([s.name for s in t.seats], t.options, seed=t.seed)
    for seat, move, *_ in t.moves:
        game = apply_logged(game, int(seat), str(move))
    assert load_game(t).to_json() == game.to_json()
