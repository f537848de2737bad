"""A tournament survives kill -9 at any point: its driver (tests/tournament_kill.py) is killed
again and again, between and during rounds, and started again on the same database; it finishes
with four rounds of distinct pairings, four byes to four players, every game recorded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.store import Store
from bot.tables.tournaments import FINISHED, Tournaments
from bot.tables.service import TableService

ROOT = Path(__file__).resolve().parent.parent


def run_until(db: Path, lines: int | None) -> str:
    """Run the driver; kill -9 it after ``lines`` lines of progress (None: let it finish)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.tournament_kill", str(db)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line.strip())
        if lines is not None and len(seen) >= lines:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=300)
    if lines is None:
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    return "\n".join(seen)


async def test_a_tournament_survives_kill_minus_nine(tmp_path):
    db = tmp_path / "t.sqlite3"
    for lines in (5, 11, 19, 23, 31, 17, 13):  # 119 of ~150 lines: killed while opening, playing and closing rounds
        run_until(db, lines)
    out = run_until(db, None)
    assert out.endswith("finished"), out[-500:]
    store = await Store.open(db)
    try:
        tours = Tournaments(TableService(store))
        view = await tours.in_channel(55)
        assert view is not None and view.status == FINISHED
        t = await tours.load(view.id)
        pairs = [frozenset(b.players) for r in t.rounds for b in r if not b.bye]
        assert len(t.rounds) == 4 and len(pairs) == len(set(pairs)) == 16, "four rounds, no pairing twice"
        byes = [b.players[0] for r in t.rounds for b in r if b.bye]
        assert len(byes) == len(set(byes)) == 4
        assert sum(s.points for s in view.standings) == 4 * 5
        for r in t.rounds:
            for b in r:
                if not b.bye:
                    assert b.done
    finally:
        await store.close()
