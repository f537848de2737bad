"""What the table message says beside its picture, and the picture in words.

- ``panel(view)`` beside a picture says only what the picture cannot (no text board, no stack
  fields, no credit line); ``panel(view, with_picture=False)`` carries the table in text.
- ``alt_text(view)``: the table in words for screen readers and clients that hide pictures —
  never empty, at most 1,000 characters, made from the view only: re-dealing the cards its
  reader cannot see changes nothing in it.
- Cardchess2's picture is drawn from the viewer's own side, each card on its owner's colour.
"""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image

from bot.render import cardchess2

from .pictures import POSITIONS, positions, redeal

MINE = ("gridcannon", "court_wars", "celestial_emperor", "knight_rogue_princess_dragon", "cardchess2")
CREDITS = ("Tom Francis", "Kroc Camen", "Game Poem", "forum post", "CC BY")


def _render(game_id: str):
    return importlib.import_module(f"bot.render.{game_id}")


@pytest.mark.parametrize("game_id", MINE)
def test_the_panel_beside_a_picture_is_short_and_the_text_one_is_whole(game_id: str) -> None:
    render = _render(game_id)
    seat = POSITIONS[game_id][2]
    for game in positions(game_id)[-6:]:
        for who in (None, seat):
            view = game.view(who)
            beside, whole = render.panel(view), render.panel(view, with_picture=False)
            assert "```" not in beside.as_text()
            assert len(beside.as_text()) < len(whole.as_text())
            assert not any(c in p.footer for c in CREDITS for p in (beside, whole))
            if who is None:  # at most how the scoring went, once a game is over
                assert all(n == "Scoring" for n, _, _ in beside.fields), f"{game_id}: {beside.fields}"
            assert beside.description and beside.description in whole.as_text()


@pytest.mark.parametrize("game_id", MINE)
def test_alt_text_tells_the_table_in_words_and_only_what_its_reader_may_know(game_id: str) -> None:
    render = _render(game_id)
    seat = POSITIONS[game_id][2]
    states = positions(game_id)
    checked = 0
    for k, game in enumerate(states[:: max(2, len(states) // 15)]):
        for who in (None, seat):
            words = render.alt_text(game.view(who))
            assert words.strip() and len(words) <= 1000
            other, moved = redeal(game, who, seed=k)
            if moved:
                assert render.alt_text(other.view(who)) == words, \
                    f"{game_id}: the alt text of {who} changed when unseen cards were re-dealt"
                checked += 1
    assert checked >= 3


def test_cardchess2_is_drawn_from_the_viewers_side_with_each_card_on_its_owners_colour() -> None:
    game = positions("cardchess2")[-1]
    south = game.view(None).south
    for who, near in ((None, "South"), (south, "South"), (1 - south, "North")):
        view = game.view(who)
        assert cardchess2.bottom_side(view) == near
        a1, a7 = cardchess2.cell_origin(view, "a1"), cardchess2.cell_origin(view, "a7")
        assert (a1[1] > a7[1]) == (near == "South"), "the viewer's home row is at the bottom"
        assert (a1[0] < cardchess2.cell_origin(view, "g1")[0]) == (near == "South")
        img = Image.open(io.BytesIO(cardchess2.picture(view))).convert("RGB")
        assert view.board
        for b in view.board:
            x, y = cardchess2.cell_origin(view, b.cell)
            band = img.getpixel((x + 7, y + cardchess2.CELL // 2))
            assert band == cardchess2.PICTURE_COLOUR[b.side], f"{b.cell}: not on its owner's colour"


def test_a_joker_in_a_line_of_a_picture_is_named_in_the_pictures_language() -> None:
    """The font has no 🃏: a line of a picture (a caption, a stash) writes the joker's name, as the
    reader's language names it while that reader's picture is drawn."""
    from bot.render import drawing as dr

    line = "Move 3 of 9 · Ana: 🃏 to the stash"
    assert dr.words(line) == "Move 3 of 9 · Ana: Joker to the stash"
    with dr.speaking("es"):
        assert dr.words(line) == "Move 3 of 9 · Ana: Comodín to the stash"
    assert dr.words(line).endswith("Joker to the stash"), "only while that picture is drawn"
    # a line measured in one language is measured again in another (a picture's layout follows its words)
    widths = {lang: None for lang in ("en", "es", "de")}
    for lang in widths:
        with dr.speaking(lang):
            widths[lang] = dr.width_of(line), dr.fit(line, dr.width_of(line) - 1), dr.wrap(line, 60)
            assert widths[lang][0] == dr.font(dr.TEXT).getlength(dr.words(line))
    assert widths["es"][0] > widths["en"][0] and widths["es"][1] != widths["en"][1]  # "Comodín", "Joker"


@pytest.mark.parametrize("game_id", ["maginot_line", "gridcannon"])
def test_a_picture_naming_a_joker_is_the_same_whatever_the_process_drew_before(game_id: str) -> None:
    """A picture's kept pieces (sprites, paragraphs, places, widths) are kept with the joker's name they
    were drawn with: a Spanish picture drawn after the English one is the Spanish picture drawn first."""
    from bot.render import drawing as dr, gridcannon, maginot_sprites
    from bot.render.pictures import InLanguage, draw_seat, draw_table

    def forget() -> None:
        gridcannon.forget_tiles()
        for kept in (maginot_sprites._kept_rgb, maginot_sprites._kept, dr._width):
            kept.cache_clear()

    if game_id == "maginot_line":  # a hand holding a joker, in its seat's picture
        draw, view = draw_seat, next(g.view(b.seat) for g in positions(game_id, 400) for b in g.view(None).boards
                                     if any("JK" in c for c in g.view(b.seat).boards[b.seat].hand))
    else:  # a spent joker, named in a line of the table's picture
        draw, view = draw_table, next(g.view(0) for g in positions(game_id, 200) if g.view(0).ploys_spent)
    forget()
    first = draw(game_id, InLanguage(view, "es"))
    forget()
    english = draw(game_id, InLanguage(view, "en"))
    assert draw(game_id, InLanguage(view, "es")) == first != english
