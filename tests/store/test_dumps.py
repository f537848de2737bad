"""The store's JSON text (``bot.store.rows.dumps``, orjson where it can) reads back with
``json.loads`` exactly as the stdlib's text did: the same types, the same floats (not-a-number,
infinities and minus zero included), the same text, whatever the keys."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store.base import Seat, TableRow
from bot.store.rows import dumps, encode_row


def stdlib(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types (1, 1.0 and True apart; NaN is NaN; -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


scalars = (st.none() | st.booleans() | st.integers() | st.integers(-(2**63), 2**64 - 1)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text() | st.text(alphabet=st.characters(
               categories=["Cs", "Cc", "Zl", "Zp", "Lo", "So"]), max_size=8))  # lone surrogates, controls
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=5)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=25)


@settings(max_examples=600, deadline=None)
@given(values)
def test_reads_back_as_the_stdlib_text(value: Any) -> None:
    assert same(json.loads(dumps(value)), json.loads(stdlib(value)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-(2**62), 2**62), st.text()), max_size=6), st.lists(st.text(), max_size=4),
       st.lists(st.text(), max_size=8), st.dictionaries(st.text(max_size=8), scalars | st.lists(st.integers()), max_size=4),
       st.one_of(st.none(), st.dictionaries(st.text(max_size=6), values, max_size=6)))
def test_a_rows_columns_read_back_as_before(seats: list, options: list, events: list, series: dict,
                                          state: dict | None) -> None:
    row = TableRow(1, None, "gridcannon", "playing", 2, [Seat(u, n) for u, n in seats], options, 3, state=state,
                   events=events, series=series)
    for name, text in encode_row(row, (state, 0)).items():
        if isinstance(text, str) and name in ("seats", "options", "events", "series", "state"):
            before = {"seats": [[s.user_id, s.name] for s in row.seats], "options": options, "events": events,
                      "series": series, "state": state}[name]
            assert same(json.loads(text), json.loads(stdlib(before))), name


def test_what_orjson_would_write_otherwise_is_the_stdlibs() -> None:
    for value in (float("nan"), [float("inf"), -float("inf")], {1: "a", None: 2}, 2**70, "\ud800", {"k": None}):
        assert dumps(value) == stdlib(value)
    assert dumps({"name": "Zoë ☃", "n": [1, 2.5, True]}) == '{"name":"Zoë ☃","n":[1,2.5,true]}'


def test_a_rows_options_text_is_kept_while_they_are_the_same() -> None:
    row = TableRow(1, None, "maginot_line", "playing", 2, [Seat(2, "Ana")], ["Teams", "Zoë"], 3)
    first = encode_row(row)["options"]
    assert first == '["Teams","Zoë"]' and encode_row(row)["options"] is first  # kept, not written again
    row.options.append("Fast")  # changed in place: written again
    assert json.loads(encode_row(row)["options"]) == ["Teams", "Zoë", "Fast"]
    row.options = []
    assert encode_row(row)["options"] == "[]" and encode_row(row)["series"] == "{}"
    row.series = {"daily": "2026-11-26", "games": 2}
    assert json.loads(encode_row(row)["series"]) == row.series
