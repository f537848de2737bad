"""Court Wars renders: panel, text and picture, from views only."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.engine.court_wars import CourtWarsGame, auto_move
from bot.render.court_wars import court_line, panel, picture, stack_text, text
from tests.games.court_wars.test_rules import W, position


def test_stack_text_and_court_line():
    v = W().view(None)
    ana = v.seats[0]
    assert court_line(v, ana) == ("♠ P1 Ana — K♠ with 8♣ 4♦ (attack 12, defence 22) · Q♠ unguarded (attack 0, defence 10) · "
                                "J♠ with 7♣ (attack 7, defence 17)")
    g = position([["KS[]", "QS(x)+JK[5H]", "JS(x)"], ["KH[]", "QH[]", "JH[]"]])
    positions = g.view(None).seats[0].positions
    assert [stack_text(p) for p in positions] == ["K♠ unguarded (attack 0, defence 10)",
                                                    "Q♠ defeated, 🃏 with 5♥ (attack 5, defence 15)", "J♠ defeated"]


def test_panel_shows_courts_piles_and_turn():
    g = W(discard=["7D", "5C"], draw=["2H"] * 3)
    beside = panel(g.view(None))  # beside the picture: whose turn and what is asked, no stacks, no credit line
    assert beside.title == "Court Wars — Ben's turn" and "**Ben** defends" in beside.description
    assert not beside.fields and "Kroc Camen" not in beside.footer
    p = panel(g.view(None), with_picture=False)
    assert p.title == "Court Wars — Ben's turn"
    assert "**Ben** defends" in p.description
    names = [f[0] for f in p.fields]
    assert names[0].startswith("♠ P1 Ana") and names[1].endswith("◀")
    assert "Q♥ with 7♦ 5♣ (attack 12, defence 22)" in p.fields[1][1]
    piles = p.fields[-1][1]
    assert "Discard (2): 7♦ 5♣ ← top" in piles and "Draw pile: 3" in piles
    assert len(p.fields) <= 25 and all(len(v) <= 1024 for _, v, _ in p.fields)


def test_text_and_panel_after_the_game():
    g, _ = W().apply(1, "resign")
    v = g.view(None)
    assert "Ana wins" in text(v) and "game over" in panel(v).title
    assert "eliminated" in text(v)


def test_public_draw_order_shown_after_turnover():
    g, _ = W(current=0, draw=[], discard=["5H", "QD", "9S"]).apply(0, "defend")
    assert "next: Q♦ 9♠" in text(g.view(None))


def test_picture_is_a_png_of_the_courts():
    g = CourtWarsGame.new(["Ana", "Ben", "Cat", "Dee"], seed=5)
    rng = random.Random(1)
    for _ in range(60):
        if g.is_over():
            break
        g, _ = g.apply(g.current, auto_move(g, g.current, rng))
    for view in (g.view(None), W().view(None), position([["KS[]", "QS(x)+JK[5H]", "JS(x)"],
                                                         ["KH[]", "QH[]", "JH[]"]]).view(None)):
        png = picture(view)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 300_000
        img = Image.open(io.BytesIO(png))
        assert img.size[0] == 800 and img.size[1] > 300
    over, _ = W().apply(1, "resign")
    assert picture(over.view(None))[:4] == b"\x89PNG"


def test_a_player_who_left_is_shown_as_having_left_not_defeated(monkeypatch):
    """Ben leaves the table with three living stacks: his courts go face down (out with him), but no
    words, picture or field says they were defeated; the ending is said once in the text."""
    from bot.render import court_wars

    over, _ = W(current=0).forfeit(1)
    v = over.view(None)
    ben = v.seats[1]
    assert ben.left and ben.eliminated and not v.seats[0].left
    assert court_line(v, ben) == "♥ P2 Ben (left the game) — K♥ out · Q♥ out · J♥ out"
    fields = panel(v, with_picture=False).fields
    assert fields[1][0].endswith("Ben — left the game") and "defeated" not in fields[1][1]
    assert "defeated" not in court_wars.alt_text(v)
    assert text(v).count(v.result) == 1 and "left the game" in text(v)
    drawn = []
    real = court_wars.dr.text

    def text_drawn(d, xy, words, *args, **kw):  # the words the picture draws
        drawn.append(words)
        return real(d, xy, words, *args, **kw)

    monkeypatch.setattr(court_wars.dr, "text", text_drawn)
    assert picture(v)[:4] == b"\x89PNG"
    assert any("Ben (left the game)" in w for w in drawn)
    assert [w for w in drawn if w.endswith(" out")] == ["K out", "Q out", "J out"]
    assert not any("defeated" in w for w in drawn), drawn
