"""Every game's table picture, public and a seat's: a PNG drawn 800 px wide whose every text is
as tall as a card rank (readable at 400 px on a phone), that matches its snapshot, and a public
picture that shows nothing of the cards the public cannot see.

Snapshots live in ``tests/render/snapshots/<game>_public.png`` and ``<game>_seat.png``; run
with ``DECKHAND_UPDATE_SNAPSHOTS=1`` to rewrite them after a deliberate change, and look at them.
"""

from __future__ import annotations

import importlib
import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.render import drawing as dr

from .pictures import POSITIONS, positions, redeal

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("DECKHAND_UPDATE_SNAPSHOTS") == "1"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Pixels may differ a little between Pillow/FreeType versions (anti-aliasing): allow a pixel to
# differ by up to DELTA in a channel, and at most SHARE of the pixels to differ by more.
DELTA = 48
SHARE = 0.005


def _render(game_id: str):
    return importlib.import_module(f"bot.render.{game_id}")


def _image(data: bytes) -> Image.Image:
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > DELTA else 0)
    hist = diff.histogram()
    return hist[255] / (a.width * a.height)


def _check_snapshot(name: str, data: bytes) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_bytes(data)
    assert path.exists(), f"no snapshot {path}: run with DECKHAND_UPDATE_SNAPSHOTS=1 and look at it"
    got, want = _image(data), _image(path.read_bytes())
    assert got.size == want.size, f"{name}: picture is {got.size}, snapshot {want.size}"
    share = _differing_share(got, want)
    assert share <= SHARE, f"{name}: {share:.2%} of the pixels differ from the snapshot"


SEAT_PICTURES = ("celestial_emperor", "cardchess2", "maginot_line")  # views with cards of a seat's own
CASES = [(g, "public") for g in POSITIONS] + [(g, "seat") for g in POSITIONS if g in SEAT_PICTURES]
CODE = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b|@\d|\b(?i:ace|king|queen|jack|joker) [SHDC]\b")


def _draw(game_id: str, who: str, game) -> bytes | None:
    render = _render(game_id)
    if who == "public":
        return render.picture(game.view(None))
    return render.seat_picture(game.view(POSITIONS[game_id][2]))


@pytest.mark.parametrize(("game_id", "who"), CASES, ids=[f"{g}-{w}" for g, w in CASES])
def test_picture_is_a_png_of_phone_width_matching_its_snapshot(game_id: str, who: str) -> None:
    game = positions(game_id)[-1]
    assert not game.is_over(), "the snapshot position should be mid-game"
    data = _draw(game_id, who, game)
    img = _image(data)
    assert img.width == dr.WIDTH
    assert img.height >= 200
    _check_snapshot(f"{game_id}_{who}.png", data)


@pytest.mark.parametrize(("game_id", "who"), CASES, ids=[f"{g}-{w}" for g, w in CASES])
def test_every_text_is_as_tall_as_a_card_rank_and_in_plain_words(game_id: str, who: str, monkeypatch) -> None:
    """Each text drawn (at a 800 px design width, shown at 400 px on a phone) is at least
    ``TEXT`` px, a card rank's size; no card codes ("KS", "ace S"); Gridcannon names its cells
    as the buttons do (r1c1…r3c3)."""
    drawn: list[tuple[str, int]] = []
    real, real_kit = ImageDraw.ImageDraw.text, dr.draw_text

    def record(self, xy, text, fill=None, font=None, *args, **kwargs):  # Pillow's own text
        drawn.append((text, font.size))
        return real(self, xy, text, fill, font, *args, **kwargs)

    def record_kit(d, xy, s, fill, size, anchor="la"):  # the kit's cached glyphs
        drawn.append((s, size))
        return real_kit(d, xy, s, fill, size, anchor)

    for game in positions(game_id)[-8:]:
        _draw(game_id, who, game)  # the card faces drawn and cached, as in a running worker
        forget = getattr(_render(game_id), "forget_tiles", None)
        if forget is not None:  # a table place drawn before is pasted, its words not drawn again
            forget()
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
        monkeypatch.setattr(dr, "draw_text", record_kit)
        _draw(game_id, who, game)
        monkeypatch.undo()
    assert drawn, f"{game_id}: no text drawn"
    small = sorted({(t, size) for t, size in drawn if size < dr.TEXT})
    assert not small, f"{game_id}: text smaller than a card rank: {small[:5]}"
    codes = sorted({t for t, _ in drawn if CODE.search(t)})
    assert not codes, f"{game_id}: card codes in the picture: {codes[:5]}"
    if game_id == "gridcannon":
        words = " ".join(t for t, _ in drawn)
        assert all(f"r{r}c{c}" in words for r in (1, 2, 3) for c in (1, 2, 3))


@pytest.mark.parametrize("game_id", SEAT_PICTURES)
def test_a_seat_picture_shows_its_own_cards(game_id: str) -> None:
    """Celestial Emperor's and the Maginot Line's hands, Cardchess2's own hand and face-down
    cards: drawn in the seat's picture, which changes when only those cards change (re-dealt)."""
    render = _render(game_id)
    seat = POSITIONS[game_id][2]
    changed = 0
    for k, game in enumerate(positions(game_id)[-30::3]):
        other, moved = redeal(game, None, seed=k)
        if moved:
            assert render.picture(other.view(None)) == render.picture(game.view(None))
            changed += render.seat_picture(other.view(seat)) != render.seat_picture(game.view(seat))
    assert changed, f"{game_id}: re-dealing never changed a seat's own picture"


@pytest.mark.parametrize("game_id", list(POSITIONS))
def test_public_picture_is_unchanged_when_unseen_cards_are_redealt(game_id: str) -> None:
    render = _render(game_id)
    checked = 0
    states = positions(game_id)
    step = max(3, len(states) // 20)
    for k, game in enumerate(states[::step]):
        other, moved = redeal(game, None, seed=k)
        if not moved:
            continue
        assert other.known(None) == game.known(None)
        assert render.picture(other.view(None)) == render.picture(game.view(None)), \
            f"{game_id}: the public picture changed when unseen cards were re-dealt (position {step * k})"
        checked += 1
    assert checked >= 3, f"{game_id}: too few positions with unseen cards to re-deal"
