"""Gridcannon's table places and paragraphs kept as tiles (``bot.render.gridcannon``): a place in
a state drawn before is its box pasted again, a paragraph drawn before its rows, and every picture
is pixel for pixel the one drawn with nothing kept (every place and line drawn again), over whole
seeded games of every variant the engine offers.

The tiles are sound because each place draws inside its own box only: that is checked too, for
every state a place takes in these games, so that a place pasted beside a neighbour in a state
never seen with it still leaves the neighbour's pixels alone."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.engine.gridcannon import options as o
from bot.engine.registry import spec
from bot.render import drawing as dr
from bot.render import gridcannon as gc

# Every variant at least once (Classic and Revised Old Version cannot be combined), a seed each.
GAMES = (
    (3, ()),
    (5, (o.MEMORY_AID, o.LOWEST_HEALTH, o.KEEP_PLOYS, o.DRAW_ORDER)),
    (8, (o.CLASSIC, o.MEMORY_AID, o.NO_JOKERS)),
    (11, (o.REVISED_OLD, o.PLOYS_FIRST, o.EXACT, o.STASH_ONLY)),
    (19, (o.SOURCE_THRESHOLDS, o.NO_JOKERS)),
)


def views(seed: int, options: tuple[str, ...]) -> list[Any]:
    """The public view of every step of a whole game of the built-in player (and every fourth
    step's player's view)."""
    s = spec("gridcannon")
    game = s.state.new(["Ana"], s.state.check_options(list(options)), seed=seed)
    rng = random.Random(seed)
    out = []
    for step in itertools.count():
        out += [game.view(None)] + ([game.view(0)] if step % 4 == 0 else [])
        decisions = game.decisions()
        if not decisions:
            return out
        game, _ = game.apply(decisions[0].seat, str(s.player(game, decisions[0].seat, rng)))


def drawn(view: Any) -> Image.Image:
    with dr.kept() as images:
        gc.picture(view)
    return images[-1]


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.getpalette() == b.getpalette() and a.tobytes() == b.tobytes()


@pytest.mark.parametrize(("seed", "options"), GAMES, ids=[" + ".join(opts) or "Version 2" for _, opts in GAMES])
def test_a_picture_with_places_kept_is_the_picture_drawn_afresh(seed: int, options: tuple[str, ...]) -> None:
    gc.forget_tiles()
    game = views(seed, options)
    assert game[-1].over
    status_lines = set()
    for k, view in enumerate(game):
        kept = drawn(view)  # the places of the game so far kept
        keep = gc._tiles.copy()
        gc.forget_tiles()
        afresh = drawn(view)  # every place drawn
        gc._tiles.clear()
        gc._tiles.update(keep)
        assert same(kept, afresh), f"seed {seed} {options}: view {k} differs"
        status_lines.add(len(dr.wrap(gc.status(view), dr.WIDTH - 2 * dr.PAD)[:3]))
        assert len(gc._tiles) <= gc.TILES and len(gc._paragraphs) <= gc.PARAGRAPHS
    # The table's top moves with the status's lines: places are pasted at another top than drawn.
    assert len(status_lines) > 1


def test_every_place_draws_inside_its_own_box() -> None:
    seen: set[tuple[Any, ...]] = set()
    top = 190
    for seed, options in GAMES:
        for view in views(seed, options):
            sheet = dr.Sheet(1400, mode="P")
            for col, row, key, draw in gc._places(sheet, view, top):
                if (col, row, key) in seen:
                    continue
                seen.add((col, row, key))
                before = sheet.img.copy()
                draw()
                changed = ImageChops.difference(before, sheet.img).getbbox()
                if changed is None:  # a corner with nothing to show
                    continue
                left, upper, right, lower = gc.place_box(col, row, top)
                assert left <= changed[0] and upper <= changed[1] and changed[2] <= right and changed[3] <= lower, \
                    f"place {col},{row} in {key} draws {changed}, outside its box {(left, upper, right, lower)}"
    assert len(seen) > 300
