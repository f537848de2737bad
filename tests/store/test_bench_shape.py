"""The bench's machine-readable figures: the --json shape, and a back end that could not be
measured says why instead of passing or failing (the figures' values are never asserted)."""

from __future__ import annotations

import json
import math

from bot.bench import Figure


def test_a_figure_prints_as_name_value_unit_target_met():
    fast = Figure("one interaction: p99", 3.2, "ms", 5.0)
    slow = Figure("tables at once", 400.0, "ops/s", 1000, higher_is_better=True)
    plain = Figure("cold load: p50", 9.0, "ms")
    out = json.loads(json.dumps({"figures": [f.as_json() for f in (fast, slow, plain)]}))
    assert [set(f) for f in out["figures"]] == [{"name", "value", "unit", "target", "met"}] * 3
    assert [f["met"] for f in out["figures"]] == [True, False, None]
    assert "PASS" in fast.line() and "FAIL" in slow.line()


def test_a_figure_not_measured_says_why():
    f = Figure("[postgres] one interaction: p99", math.nan, "ms", 5.0, note="not measured: no server programs")
    got = f.as_json()
    assert got["value"] is None and got["met"] is None and got["note"].startswith("not measured")
    assert "not measured: no server programs" in f.line() and "FAIL" not in f.line()
    json.dumps(got, allow_nan=False)  # valid JSON for machines (no NaN)
