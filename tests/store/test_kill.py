"""kill -9 during a burst of saves loses no acknowledged save (both back ends)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def test_kill_9_loses_no_acknowledged_save(backend):
    proc = subprocess.Popen([sys.executable, "-m", "tests.store.burst", backend.name, backend.target], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acked = -1
    try:
        for line in proc.stdout:
            acked = int(line.split()[1])
            if acked >= 60:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert acked >= 60, proc.stderr.read()
    store = await backend.open()
    t = await store.get(1)
    await store.close()
    assert t.revision >= acked + 1  # every acknowledged save is there (one more may have committed unseen)
    assert [m[1] for m in t.moves[:acked]] == [f"move {n}" for n in range(1, acked + 1)]
    assert len(t.moves) == t.revision - 1
