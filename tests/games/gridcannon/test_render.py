"""Gridcannon renders: the panel, the terminal text and the PNG of the table."""

from __future__ import annotations

import io
import random

from bot.engine.gridcannon import GridcannonGame, auto_move
from bot.render.gridcannon import grid_block, panel, picture, text


def _midgame(options=(), seed=4, moves=40) -> GridcannonGame:
    g = GridcannonGame.new(["p"], options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over():
            break
        g, _ = g.apply(0, auto_move(g, 0, rng))
    return g


def test_picture_is_a_png_of_the_table():
    from PIL import Image

    for options in ((), ("Classic",), ("Memory Aid",)):
        g = _midgame(options)
        png = picture(g.view(0))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        img = Image.open(io.BytesIO(png))
        assert img.width == 800 and img.height > 800
        assert len(png) < 300_000


def test_picture_at_setup_and_at_the_end():
    g = GridcannonGame.new(["p"], seed=1)
    assert picture(g.view(0))[:4] == b"\x89PNG"
    end = _midgame(seed=2, moves=10_000)
    assert end.is_over()
    assert picture(end.view(0))[:4] == b"\x89PNG"


def test_panel_fits_discord_and_shows_the_table():
    g = _midgame()
    beside = panel(g.view(0))  # beside the picture: what is asked, no text grid, no credit line
    assert beside.title == "Gridcannon" and not beside.fields and "```" not in beside.as_text()
    assert "Tom Francis" not in beside.footer and "kills" in beside.footer
    p = panel(g.view(0), with_picture=False)
    assert p.title == "Gridcannon"
    assert len(p.description) <= 4096 and len(p.fields) <= 25
    assert all(len(v) <= 1024 and len(n) <= 256 for n, v, _ in p.fields)
    names = [n for n, _, _ in p.fields]
    assert names[:2] == ["Table", "Royals"] and "Pending card" in names and "Stash" in names
    assert p.fields[0][1].startswith("```") and "T1" in p.fields[0][1] and "R3" in p.fields[0][1]


def test_text_and_grid_block():
    g = _midgame()
    v = g.view(0)
    t = text(v)
    assert "Gridcannon" in t and "Deck:" in t and ">>" in t
    block = grid_block(v)
    assert len(block.splitlines()) == 8  # the slots' names above and below, the columns' names above the cells
    assert block.splitlines()[2].split() == ["c1", "c2", "c3"]
    assert block.splitlines()[3].startswith("L1") and " r1 " in block.splitlines()[3] and block.splitlines()[3].endswith("R1")


def test_panel_outcome_and_prompt():
    g = _midgame(seed=2, moves=10_000)
    v = g.view(0)
    assert v.result in panel(v).description
    fresh = GridcannonGame.new(["p"], seed=1)
    desc = panel(fresh.view(0)).description
    assert "Place" in desc or "Replace" in desc or "Draw" in desc
