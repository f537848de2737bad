"""Print the contract suite's figures per game (playouts, steps, leak checks…) at the end of a
run, gathered from the workers when the run is spread over several (``-n 2``).

``DECKHAND_FIGURES=<file>``: each worker also rewrites ``<file>.<worker>`` with its figures so
far after every test (JSON), so a long run shows where it stands."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def pytest_runtest_logfinish(nodeid, location):
    figures = os.environ.get("DECKHAND_FIGURES")
    if figures:
        from tests.contract.harness import COUNTS

        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(f"{figures}.{worker}").write_text(json.dumps([[g, f, n] for (g, f), n in sorted(COUNTS.items())]))


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a worker: hand the figures to the controller
        from tests.contract.harness import COUNTS

        workeroutput["contract_counts"] = [[game, figure, n] for (game, figure), n in COUNTS.items()]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    from tests.contract.harness import COUNTS

    for game, figure, n in getattr(node, "workeroutput", {}).get("contract_counts", []):
        COUNTS[(game, figure)] += n


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from tests.contract.harness import COUNTS

    games = sorted({game for game, _ in COUNTS})
    for game in games:
        figures = ", ".join(f"{figure}: {n}" for (g, figure), n in sorted(COUNTS.items()) if g == game)
        terminalreporter.write_line(f"contract suite figures, {game} — {figures}")
