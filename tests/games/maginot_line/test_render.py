"""The renders take views only and never show what the recipient may not know."""

from __future__ import annotations

import re

from bot.render import maginot_line as render
from tests.render.pictures import self_play

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


def _selfplay(n: int, seed: int, steps: int):
    return self_play("maginot_line", NAMES6[:n], seed, steps)


NAMES6 = ["Ana", "Ben", "Cat", "Dee", "Eve", "Fay"]


def _size(png: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    return Image.open(io.BytesIO(png)).size


def test_the_picture_fits_a_phone_with_six_players():
    states = _selfplay(6, 12, 1500)
    tallest = max(_size(render.picture(g.view(None)))[1] for g in states[::25])
    assert tallest <= 1600
    assert any(g.battle for g in states[::25])  # a battle diagram among them


def _pixels_near(png: bytes, colour: tuple[int, int, int], tol: int = 30) -> int:
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    data = img.tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for p in pixels if all(abs(a - b) <= tol for a, b in zip(p, colour, strict=True)))


def test_tapped_is_marked_by_an_orange_frame_not_a_shade():
    g = begin(2)
    unit(g, 0, "5H", "6S", "7C")
    plain = render.picture(g.view(None))
    g.boards[0]["units"][0]["tapped"] = True
    tapped = render.picture(g.view(None))
    # the legend's orange square is in both; a tapped unit adds its frame and its ↻ badge
    assert _pixels_near(tapped, render.TAPPED) - _pixels_near(plain, render.TAPPED) > 1000


def test_alt_text_reads_the_table_in_at_most_1000_characters():
    g = _battle_state()
    g, _ = act(g, 1, "commit KS@1 6H@1")  # Ben, without initiative, commits first
    alt = render.alt_text(g.view(None))
    assert len(alt) <= 1000 and "Ana" in alt and "Ben" in alt and "Cat" in alt
    assert "Battle: Ana attacks Ben" in alt
    assert "[6♥ 5♠ 7♣]: Attack 7, Armor 7, K♠: takes no wounds" in alt  # 5♠ + Q♠, as the outcome will use it
    assert not re.search(r"\b(?:10|[2-9TJQKA])[SHDC]\b|@\d", alt)
    for g in _selfplay(6, 14, 600)[::60]:
        assert len(render.alt_text(g.view(None))) <= 1000


def test_panel_beside_the_picture_says_only_what_the_picture_cannot():
    g = _battle_state()
    short = render.panel(g.view(None))
    full = render.panel(g.view(None), with_picture=False)
    assert CREDIT_WORD not in short.footer and CREDIT_WORD in full.footer
    assert "Ana's turn" in short.description and "Waiting for Ben" in short.description
    assert "commit" in short.description.lower()  # what is asked
    assert not short.fields or [n for n, _, _ in short.fields] == ["Recent"]
    assert any("Ana" in n for n, _, _ in full.fields) and "Battle" in [n for n, _, _ in full.fields]
