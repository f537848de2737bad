"""Print the contract suite's figures (playouts, steps checked) at the end of a run (-n0)."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from tests.contract.harness import COUNTS

    if COUNTS:
        figures = ", ".join(f"{k}: {v}" for k, v in sorted(COUNTS.items()))
        terminalreporter.write_line(f"contract suite figures — {figures}")
