"""Every game's table picture, public and a seat's: a PNG 400–1000 px wide that matches its
snapshot, and a public picture that shows nothing of the cards the public cannot see.

Snapshots live in ``tests/render/snapshots/<game>_public.png`` and ``<game>_seat.png``; run
with ``DECKHAND_UPDATE_SNAPSHOTS=1`` to rewrite them after a deliberate change, and look at them.
"""

from __future__ import annotations

import importlib
import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

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


CASES = [(g, who) for g in POSITIONS for who in ("public", "seat")]


@pytest.mark.parametrize(("game_id", "who"), CASES, ids=[f"{g}-{w}" for g, w in CASES])
def test_picture_is_a_png_of_phone_width_matching_its_snapshot(game_id: str, who: str) -> None:
    game = positions(game_id)[-1]
    assert not game.is_over(), "the snapshot position should be mid-game"
    seat = None if who == "public" else POSITIONS[game_id][2]
    data = _render(game_id).picture(game.view(seat))
    img = _image(data)
    assert 400 <= img.width <= 1000
    assert img.height >= 200
    _check_snapshot(f"{game_id}_{who}.png", data)


def test_a_seat_picture_shows_its_own_cards_where_the_public_one_does_not() -> None:
    """Celestial Emperor's hand and Cardchess2's own hand and face-down cards: only in the seat's picture."""
    for game_id in ("celestial_emperor", "cardchess2"):
        game = positions(game_id)[-1]
        seat = POSITIONS[game_id][2]
        render = _render(game_id)
        public, own = _image(render.picture(game.view(None))), _image(render.picture(game.view(seat)))
        assert own.height > public.height, f"{game_id}: the seat's picture has no room for its hand"


@pytest.mark.parametrize("game_id", list(POSITIONS))
def test_public_picture_is_unchanged_when_unseen_cards_are_redealt(game_id: str) -> None:
    render = _render(game_id)
    checked = changed = 0
    for k, game in enumerate(positions(game_id)[::3]):
        other, moved = redeal(game, None, seed=k)
        if not moved:
            continue
        assert other.known(None) == game.known(None)
        assert render.picture(other.view(None)) == render.picture(game.view(None)), \
            f"{game_id}: the public picture changed when unseen cards were re-dealt (position {3 * k})"
        checked += 1
        if game_id in ("celestial_emperor", "cardchess2"):  # the re-deal is real: a seat's own cards moved
            seat = POSITIONS[game_id][2]
            changed += render.picture(other.view(seat)) != render.picture(game.view(seat))
    if game_id in ("celestial_emperor", "cardchess2"):
        assert changed, f"{game_id}: re-dealing never changed a seat's own picture"
    assert checked >= 3, f"{game_id}: too few positions with unseen cards to re-deal"
