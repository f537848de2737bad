"""The renders take views only and never show what the recipient may not know."""

from __future__ import annotations

import re

from bot.render import maginot_line as render

from .helpers import act, begin, hand, resource, unit


def _battle_state():
    g = begin(3, aces={1: "ASACADAH"})
    a = unit(g, 0, "5H", "6S", "7C")
    gd = unit(g, 1, "6H", "5S", "7C", zone="guardian", queen="QS")
    hand(g, 0, "JC", "9H")
    hand(g, 1, "KS", "8H")
    resource(g, 0, "4D", tapped=True)
    g.phase = "battle"
    g, _ = act(g, 0, f"attack @1 {a} #1@1")
    g, _ = act(g, 1, f"engage {gd} {a}")
    return g


def test_panel_text_and_picture_from_views():
    g = _battle_state()
    for seat in (None, 0, 1):
        v = g.view(seat)
        p = render.panel(v, with_picture=False)
        t = render.text(v)
        assert "Battle" in t and "Ana attacks Ben" in t and CREDIT_WORD in p.footer
        png = render.picture(v)
        assert png.startswith(b"\x89PNG") and len(png) > 1000
    assert "9♥" in render.text(g.view(0)) and "9♥" not in render.text(g.view(1))
    assert "Hand: 2 cards" in render.text(g.view(0))  # Ben's hand, seen by Ana


CREDIT_WORD = "Hysong"


def test_render_names_no_hidden_card():
    g = _battle_state()
    for seat in (None, 0, 1, 2):
        t = render.text(g.view(seat))
        hidden = {c for b in g.boards for c in b["hand"] + b["deck"]} - g.known(seat)
        names = set(re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", t))
        visible = {render.card(c) for c in g.known(seat)}
        assert names <= visible, names - visible
        assert hidden


def test_render_module_does_not_import_the_state():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(render))
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(m and m.startswith("bot.engine.maginot_line") for m in mods)
