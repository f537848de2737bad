"""The picture colours and the one fixed palette the palette sheets are drawn in (``bot.render.drawing``):
:data:`PALETTE` holds every colour the pictures draw with and the blends of their text edges; RGB
tiles are mapped to it once (:func:`palette_tile`) and text is blended into it by a ramp."""

from __future__ import annotations

import functools
from typing import Any

FELT = (31, 97, 61)
FELT_DARK = (22, 74, 45)
FELT_LIGHT = (44, 122, 78)
WHITE = (250, 250, 245)
GOLD = (250, 210, 90)
MUTED = (190, 215, 195)
RED = (200, 30, 40)
BLACK = (20, 20, 20)
PINK = (255, 150, 150)  # a red suit symbol written on the felt
JOKER_INK = (120, 40, 160)
BACK = (120, 30, 40)
OUTLINE = (60, 60, 60)  # a card's edge


def lighter(colour: tuple[int, int, int], by: int = 70) -> tuple[int, int, int]:
    return (min(255, colour[0] + by), min(255, colour[1] + by), min(255, colour[2] + by))


# ----- the fixed palette ----------------------------------------------------------------------------
# Every colour the palette pictures draw with, and the grounds their text and card inks sit on: the
# palette holds these and three blends of each ink with each of its grounds (anti-aliased edges).
GRIDCANNON_BACK = (70, 45, 110)
STACK_EDGE = (215, 215, 205)
BADGE = (40, 40, 40)
HEALTH = (170, 30, 30)
ARMOUR = (50, 60, 150)
CROSS = (210, 50, 50)
ACTING = (70, 60, 20)
SOUTH = (40, 95, 175)  # Cardchess2's sides: blue and amber, never a suit's red
NORTH = (205, 110, 20)
SOUTH_DARK = (28, 62, 118)
NORTH_DARK = (130, 66, 10)
CELL_DARK = (58, 134, 88)
CELL_LIGHT = (70, 150, 100)
_FLAT = (FELT, FELT_DARK, FELT_LIGHT, WHITE, GOLD, MUTED, RED, BLACK, PINK, JOKER_INK, BACK, OUTLINE,
         GRIDCANNON_BACK, STACK_EDGE, BADGE, HEALTH, ARMOUR, CROSS, ACTING, SOUTH, NORTH, SOUTH_DARK, NORTH_DARK,
         CELL_DARK, CELL_LIGHT)
_LIGHT_INKS = (WHITE, GOLD, MUTED, PINK)
_DARK_GROUNDS = (FELT, FELT_DARK, FELT_LIGHT, ACTING, BADGE, HEALTH, ARMOUR, BACK, GRIDCANNON_BACK, SOUTH, NORTH,
                 SOUTH_DARK, NORTH_DARK, CELL_DARK, CELL_LIGHT)
_CARD_INKS = (BLACK, RED, JOKER_INK, OUTLINE, SOUTH, NORTH)  # on a card's white


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _palette() -> tuple[tuple[int, int, int], ...]:
    out: dict[tuple[int, int, int], None] = {}
    for c in _FLAT:
        out[c] = None
        out[lighter(c)] = None  # a card back's inner lines
    pairs = [(i, g) for i in _LIGHT_INKS for g in _DARK_GROUNDS] + [(i, WHITE) for i in _CARD_INKS]
    for ink, ground in pairs:
        for t in (0.25, 0.5, 0.75):
            out[_blend(ground, ink, t)] = None
    assert len(out) <= 240, len(out)  # room left for a colour drawn that is not listed
    return tuple(out)


PALETTE = _palette()


# bench: picture CPU p99 — made once a process
@functools.lru_cache(maxsize=1)
def _palette_image() -> Any:
    from PIL import Image

    img = Image.new("P", (1, 1), 0)
    img.putpalette(bytes(v for c in PALETTE for v in c))
    return img


# bench: picture CPU p99 — a blank page made once a size
@functools.lru_cache(maxsize=8)
def _blank(width: int, height: int, bg: tuple[int, int, int]) -> Any:
    from PIL import Image

    img = Image.new("P", (width, height), 0)
    img.putpalette(bytes(v for c in PALETTE for v in c))
    img.paste(PALETTE.index(bg) if bg in PALETTE else img.palette.getcolor(bg, img), (0, 0, width, height))
    return img


def canvas(width: int, height: int, bg: tuple[int, int, int] = FELT) -> Any:
    """A palette picture of ``bg`` (a copy of one made once)."""
    return _blank(width, height, bg).copy()


def colour_at(img: Any, x: int, y: int) -> tuple[int, int, int]:
    """The colour at (x, y) of a palette picture (its edge colour outside it)."""
    x = min(max(0, x), img.width - 1)
    y = min(max(0, y), img.height - 1)
    return _colour(img, img.getpixel((x, y)))


def _colour(img: Any, i: int) -> tuple[int, int, int]:
    if i < len(PALETTE):
        return PALETTE[i]
    pal = img.palette.palette
    return (pal[3 * i], pal[3 * i + 1], pal[3 * i + 2])


def to_palette(img: Any) -> Any:
    """An RGB picture mapped once to the fixed palette (each pixel its nearest colour)."""
    from PIL import Image

    return img.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


_tiles: dict[int, tuple[Any, Any, Any]] = {}


# bench: picture CPU p99 — a tile is mapped to the palette once, pasted many times
def palette_tile(tile: Any) -> tuple[Any, Any]:
    """A cached RGBA tile as (palette tile, one-bit mask), made once per tile."""
    got = _tiles.get(id(tile))
    if got is not None and got[0] is tile:
        return got[1], got[2]
    from PIL import Image

    p = to_palette(tile.convert("RGB"))
    bit = tile.getchannel("A").point(lambda a: 255 if a >= 128 else 0).convert("1", dither=Image.Dither.NONE)
    if len(_tiles) > 2048:
        _tiles.clear()
    _tiles[id(tile)] = (tile, p, bit)  # the tile kept alive with its copy: its id stays its own
    return p, bit


# bench: picture CPU p99 — a colour pair's blends found once
@functools.lru_cache(maxsize=256)
def _ramp(ink: tuple[int, int, int], ground: tuple[int, int, int]) -> list[int]:
    """For each coverage 0..255 of a glyph's pixel, the palette index of ``ink`` blended that
    much into ``ground``: the palette's own blends of the pair when it has them, else the
    nearest palette colour of 17 levels of the blend."""
    index = {c: i for i, c in enumerate(PALETTE)}
    steps = [_blend(ground, ink, t) for t in (0, 0.25, 0.5, 0.75, 1)]
    if all(c in index for c in steps):
        return [index[steps[min(4, (a + 32) // 64)]] for a in range(256)]

    def nearest(c: tuple[int, int, int]) -> int:
        return min(range(len(PALETTE)), key=lambda i: sum((a - b) ** 2 for a, b in zip(PALETTE[i], c, strict=True)))

    levels = [nearest(_blend(ground, ink, k / 16)) for k in range(17)]
    return [levels[(a + 8) // 16] for a in range(256)]
