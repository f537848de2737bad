"""The layer contracts fail on a planted forbidden import: the Discord layer reaching for a game,
the service or the store, and a render reaching for the tables (run on a copy of the code)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANTS = {
    "bot/ui/payloads.py": "from bot.tables.games import load_game  # planted\n",
    "cogs/extras.py": "import bot.store  # planted\n",
    "bot/render/court_wars.py": "from bot.tables import reader  # planted\n",
}


def test_planted_forbidden_imports_break_the_contracts(tmp_path):
    for part in ("bot", "cogs"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for path, line in PLANTS.items():
        with open(tmp_path / path, "a", encoding="utf-8") as f:
            f.write(line)
    lint = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([str(lint), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    report = out.stdout + out.stderr
    assert out.returncode != 0, report
    assert "The Discord layer holds readers" in report and "BROKEN" in report, report
    for planted in ("bot.ui.payloads -> bot.tables.games", "cogs.extras -> bot.store",
                    "bot.render.court_wars -> bot.tables"):
        assert planted in report, (planted, report)
