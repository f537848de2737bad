"""The bench's Gridcannon comparison with the JavaScript engine: never downloaded, "not measured"
with the reason when it cannot run, the same decks for both sides."""

from __future__ import annotations

from bot.bench import Figure, comparison_script
from bot.engine import cards

js = comparison_script()


def reported(engine, monkeypatch, node="/usr/bin/node"):
    monkeypatch.setattr(js.shutil, "which", lambda name: node)
    out = []
    js.figures(engine, True, out.append, Figure)
    return out


def test_no_engine_given_is_not_measured_and_nothing_is_fetched(monkeypatch):
    def no_network(*a, **k):
        raise AssertionError("the bench must never download the engine")

    monkeypatch.setattr("urllib.request.urlopen", no_network)
    [f] = reported(None, monkeypatch)
    assert f.note.startswith("not measured: no engine.mjs given") and f.met is None and "not measured" in f.line()


def test_no_node_or_no_file_is_not_measured_with_the_reason(monkeypatch, tmp_path):
    engine = tmp_path / "engine.mjs"
    engine.write_text("export const x = 1;\n")
    [f] = reported(str(engine), monkeypatch, node=None)
    assert f.note == "not measured: Node.js (node) is not on PATH"
    [f] = reported(str(tmp_path / "missing.mjs"), monkeypatch)
    assert f.note == f"not measured: no engine.mjs at {tmp_path / 'missing.mjs'}"


def test_both_sides_get_the_same_full_decks():
    decks = js.same_decks(3)
    assert decks == js.same_decks(3) and len({tuple(d) for d in decks}) == 3
    for deck in decks:
        assert sorted(deck) == sorted(cards.deck(2))
        ids = [js.js_card(c)["id"] for c in deck]
        assert len(set(ids)) == 54
    assert js.js_card("TD") == {"id": "D10", "suit": "D", "rank": 10}
    assert js.js_card("JK2") == {"id": "X1", "suit": "X", "rank": 0}
