"""Renders of Cardchess2 read views only and show nothing a recipient may not know."""

from __future__ import annotations

import io

from bot.render.cardchess2 import board_text, panel, picture, text

from .helpers import leaks, position


def attack_window():
    g = position("TH a5 2H e5 QD* d1", "9S d5 5C* c3 2C g7", hands=(["8H"], ["KD"]))
    g, _ = g.apply(0, "attack d5 a5 e5")
    return g


def test_text_and_panel_show_the_board_counts_and_window_without_leaks():
    g = attack_window()
    for seat in (None, 0, 1):
        v = g.view(seat)
        for out in (text(v), panel(v, with_picture=False).as_text()):
            assert "Σ 100" in out and "Out of play" in out
            assert not leaks(out, g, seat)
        beside = panel(v).as_text()  # beside the picture: what is asked, no text board
        assert "Σ 100" in beside and "```" not in beside and not leaks(beside, g, seat)
    assert "▲Q♦*" in board_text(g.view(0)) and "▲##" in board_text(g.view(1))
    assert "Your hand: 8♥" in text(g.view(0)) and "8♥" not in text(g.view(1))


def test_picture_is_a_png_readable_at_400_px():
    from PIL import Image

    g = attack_window()
    for seat in (None, 0):
        data = picture(g.view(seat))
        img = Image.open(io.BytesIO(data))
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and img.width >= 400


def test_render_imports_no_state_class():
    import bot.render.cardchess2 as mod

    src = open(mod.__file__, encoding="utf-8").read()
    assert "engine.cardchess2" not in src and "Cardchess2(" not in src
