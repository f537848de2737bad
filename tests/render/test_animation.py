"""The whole game as an animation (``bot.render.animation``): every frame of the public animation
is the picture of the public reader's view of its step (pixel for pixel), a seat's animation that
seat's; a frame drawn from the deciding seat's view is caught; every frame shares one palette and
the GIF keeps only each frame's changed box.

The expected frames are made here from the record replayed move by move through the engine (the
view each reader had at each step, and the step's events as that reader read them), not through
:meth:`Replay.frames`, which makes the animation. One short seeded game a game by default, every
frame checked to be drawn from its reader's view and the first frames' pixels compared;
``DECKHAND_ANIMATION_SEEDS=n`` plays ``n`` games and compares every frame's pixels."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.cli import play_auto
from bot.engine.registry import spec
from bot.records import make_record
from bot.render import animation
from bot.render.animation import Frame, boxes, caption_text, frame_images, read_frames
from bot.tables.replays import Replay, Viewing, eyes_for, file_key
from tests.render.animations import expected_frames, mismatches

HIDDEN = ("court_wars", "celestial_emperor", "knight_rogue_princess_dragon", "cardchess2", "maginot_line")
SHORT = {"maginot_line": ["rounds=3"]}  # the quick options, or shorter still
# A short seeded game of each (15 to 90 moves); more seeds on request.
FIRST_SEED = {"court_wars": 8, "celestial_emperor": 1, "knight_rogue_princess_dragon": 4, "cardchess2": 3,
              "maginot_line": 9, "gridcannon": 8}
SEEDS = max(1, int(os.environ.get("DECKHAND_ANIMATION_SEEDS", "1") or 1))
LONG = SEEDS > 1  # a long run checks every frame's pixels; the default run, the first PIXEL_STEPS
PIXEL_STEPS = 16
LEAK_STEPS = 6
# Where a seat's picture shows more than the public's (planted leak: the deciding seat's view):
# Court Wars has no private cards, so its seats' pictures are the public's.
SEAT_SHOWS_MORE = ("celestial_emperor", "knight_rogue_princess_dragon", "cardchess2", "maginot_line")


def record_of(game_id: str, seed: int) -> dict[str, Any]:
    s = spec(game_id)
    players = [f"Player {i + 1}" for i in range(max(2, s.min_players) if s.max_players > 1 else 1)]
    options = s.state.check_options(SHORT.get(game_id, list(s.quick_options)))
    game = s.state.new(players, options, seed=seed)
    game, moves = play_auto(game, random.Random(seed))
    return make_record(game, moves, status="finished")


def deciding(step: int, game: Any) -> int:
    """The seat deciding at this step (the first to act; the first seat once the game is over)."""
    acting = sorted(game.to_act())
    return acting[0] if acting else 0


def drawn_from_elsewhere(frames: Sequence[Frame], expected: Sequence[Frame]) -> list[int]:
    """The steps whose frame is not drawn from the expected reader's view and line."""
    if len(frames) != len(expected):
        return list(range(max(len(frames), len(expected))))
    return [k for k, (f, e) in enumerate(zip(frames, expected, strict=True))
            if f.view != e.view or f.caption != e.caption]


@pytest.mark.parametrize("game_id", HIDDEN)
def test_every_frame_of_the_public_animation_is_the_public_readers_picture(game_id):
    for seed in range(FIRST_SEED[game_id], FIRST_SEED[game_id] + SEEDS):
        record = record_of(game_id, seed)
        replay = Replay(file_key(record), record)
        frames = replay.frames(None)
        public = expected_frames(record, lambda step, game: None)
        # Drawn from: every step's frame is the public reader's view of that step and its public line.
        assert drawn_from_elsewhere(frames, public) == [], f"{game_id} seed {seed}"
        # Pixel for pixel: the animation's frames are those views' pictures (the whole game on a long run).
        steps = len(frames) if LONG else min(len(frames), PIXEL_STEPS)
        made = animation.draw(game_id, frames[:steps])
        assert made is not None and made.frames >= 2
        assert mismatches(game_id, made.data, public[:steps]) == [], f"{game_id} seed {seed}"
        # A planted leak: frames drawn from the deciding seat's views are caught by both checks.
        leaky_frames = expected_frames(record, deciding)
        if game_id in SEAT_SHOWS_MORE:
            assert drawn_from_elsewhere(leaky_frames, public), f"{game_id}: the leak was not caught"
            short = min(len(public), LEAK_STEPS)
            leaky = animation.draw(game_id, leaky_frames[:short])
            assert leaky is not None
            assert mismatches(game_id, leaky.data, public[:short]), f"{game_id}: the leaky pictures were not caught"


def test_a_seats_animation_is_that_seats_reader_of_every_step():
    game_id = "court_wars"
    record = record_of(game_id, FIRST_SEED[game_id])
    replay = Replay(file_key(record), record)
    viewing = Viewing(replay, eyes_for(game_id, replay.players))
    assert viewing.tells_all and viewing.may_film(1)
    frames = replay.frames(1)
    own = expected_frames(record, lambda step, game: 1)
    assert drawn_from_elsewhere(frames, own) == []
    assert drawn_from_elsewhere(frames, expected_frames(record, lambda step, game: 0)), "seat 0's eyes are not seat 1's"
    made = animation.draw(game_id, frames[:LEAK_STEPS])
    assert made is not None
    assert mismatches(game_id, made.data, own[:LEAK_STEPS]) == []


def test_a_seat_of_a_game_that_keeps_its_secrets_is_not_filmed():
    record = record_of("cardchess2", 2)
    replay = Replay(file_key(record), record)
    mine = Viewing(replay, eyes_for("cardchess2", replay.players, own=(0,)))
    assert mine.allowed(0) and not mine.may_film(0) and mine.may_film(None)
    assert not mine.may_film(1)


def test_frames_share_one_palette_and_the_gif_keeps_each_frames_changed_box_only():
    record = record_of("gridcannon", FIRST_SEED["gridcannon"])
    replay = Replay(file_key(record), record)
    frames = replay.frames(None)[:PIXEL_STEPS]
    images = frame_images("gridcannon", frames)
    assert len({im.size for im in images}) == 1 and images[0].width == 400, "one size: phone size"
    assert len({bytes(im.getpalette()) for im in images}) == 1, "one palette for every frame"
    gif = animation.encode(images, "GIF")
    written = boxes(gif)
    from PIL import ImageChops

    # The box each frame writes is the box of what changed since the frame before (frames that
    # change nothing are merged into the one before).
    expected = [(0, 0, *images[0].size)]
    last = images[0]
    for im in images[1:]:
        box = ImageChops.difference(im.convert("RGB"), last.convert("RGB")).getbbox()
        if box is None:
            continue
        expected.append((box[0], box[1], box[2] - box[0], box[3] - box[1]))
        last = im
    assert written == expected
    full = images[0].width * images[0].height
    assert sum(w * h for _, _, w, h in written[1:]) < full * (len(written) - 1), "not every frame is whole"
    assert [im.tobytes() for im in read_frames(gif)][-1] == images[-1].convert("RGB").tobytes()


def test_the_alt_text_tells_the_game():
    record = record_of("court_wars", FIRST_SEED["court_wars"])
    replay = Replay(file_key(record), record)
    text = animation.alt_text(replay.title, replay.players, replay.last, replay.summary, replay.notable(None))
    assert len(text) <= 1024
    assert "Court Wars" in text and "Player 1, Player 2" in text and f"{replay.last} moves" in text
    assert replay.summary.split()[0] in text
    long = animation.alt_text("T", ["x" * 600, "y" * 600], 3, "z")
    assert len(long) <= 1024


def test_caption_names_the_move_and_its_line():
    assert caption_text(0, 12, "", ()) == "The deal · 12 moves follow"
    assert caption_text(3, 12, "ana  b", ("plays 7S",)) == "Move 3 of 12 · ana b: plays 7S"


def test_a_webp_is_tried_past_the_gifs_size_and_kept_where_smaller(monkeypatch):
    record = record_of("court_wars", FIRST_SEED["court_wars"])
    frames = Replay(file_key(record), record).frames(None)[:LEAK_STEPS]
    images = frame_images("court_wars", frames)
    webp = animation.encode(images, "WEBP")
    assert [im.tobytes() for im in read_frames(webp)] == [im.convert("RGB").tobytes() for im in images], "lossless"
    gif = animation.encode(images, "GIF")
    monkeypatch.setattr(animation, "WEBP_PAST", 0)
    made = animation.draw("court_wars", frames)
    assert made is not None and made.fmt == ("webp" if len(webp) < len(gif) else "gif")
    assert made.filename == f"game.{made.fmt}"


@pytest.mark.parametrize("game_id", ("gridcannon", "maginot_line"))
def test_a_frame_halved_where_it_changed_is_the_whole_picture_halved(game_id):
    """Each frame's picture part, made from the frame before where the picture changed, is the
    whole picture halved and mapped (a whole game: the pictures grow and shrink along it)."""
    from PIL import Image

    record = record_of(game_id, FIRST_SEED[game_id])
    pictures = [animation.picture_image(game_id, f.view) for f in Replay(file_key(record), record).frames(None)]
    shared = Image.new("P", (1, 1), 0)
    shared.putpalette(pictures[0].getpalette())
    before = None
    for k, p in enumerate(pictures):
        small, data = animation._small(p, shared, before)
        whole, _ = animation._small(p, shared, None)
        assert (small.size, small.getpalette(), small.tobytes()) == (whole.size, whole.getpalette(), whole.tobytes()), \
            f"{game_id}: frame {k}"
        before = (p, small, data)
    assert len({p.height for p in pictures}) > 1
