"""The Maginot Line's sprites (views only): unit blocks, Aces and chips drawn once per look, the
legend, and the one shared palette every picture is mapped to. The page they are laid out on is
``maginot_picture``."""

from __future__ import annotations

import functools
from typing import Any

from bot.i18n import words
from bot.render import drawing as dr
from bot.render.maginot_words import card


# ----- picture ------------------------------------------------------------------------------
# Drawn 800 px wide (shown 400 px wide on a phone). Every board is a band: a line with the name and
# counts, a row of chips (Aces with their life, fallen Aces, resources, cards being built and
# finished), a row of unit blocks; then the battle as a diagram. Blocks and chips are sprites drawn
# once per look (lru caches); the sheet is sized to fit before drawing.
BLOCK_W, BLOCK_H, GAP = 146, 92, 6
CHIP_H = 40
INK = dr.BLACK
PAPER = (246, 243, 232)
PATROL = (236, 186, 64)
GUARD = (64, 104, 168)
TAPPED = (235, 110, 20)
WOUND = (200, 30, 40)
TEMP = (20, 120, 190)
BOOST = (190, 120, 0)
SHADE = (60, 60, 60, 70)
LIGHT_BAND, DARK_BAND, ACTIVE_BAND, BATTLE_BAND = dr.FELT_LIGHT, dr.FELT_DARK, (78, 66, 20), (70, 28, 28)


def _code(c: Any) -> Any:
    return c.partition("@")[0] if isinstance(c, str) else c


def _label(c: Any) -> str:
    """A card as written on a chip: ``7♥``, ``A♦``; ``?`` when hidden."""
    return card(c) if isinstance(c, str) else "?"


def _rgba(w: int, h: int) -> tuple[Any, Any]:
    from PIL import Image

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    return img, dr.draw_on(img)


def _hatch(img: Any, w: int, h: int) -> None:
    """Diagonal stripes over a tapped thing (with its orange frame): unmistakable, not a shade."""
    from PIL import Image, ImageDraw

    over = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    for k in range(-h, w, 14):
        d.line([(k, h), (k + h, 0)], fill=SHADE, width=3)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, w - 1, h - 1], radius=8, fill=255)
    img.alpha_composite(Image.composite(over, Image.new("RGBA", (w, h), (0, 0, 0, 0)), mask))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, w - 1, h - 1], radius=8, outline=TAPPED, width=4)


def _shield(d: Any, x: float, y: float, fill: Any, s: float = 1.0) -> None:
    """An armor shield icon, 20 px wide and 24 tall (x, y its top left)."""
    d.polygon([(x, y + 2 * s), (x + 10 * s, y), (x + 20 * s, y + 2 * s), (x + 20 * s, y + 12 * s),
               (x + 10 * s, y + 24 * s), (x, y + 12 * s)], fill=fill)


def _heart(d: Any, x: float, y: float, fill: Any) -> None:
    dr.suit_shape(d, "H", x + 11, y + 13, 11, fill)


def _sword(d: Any, x: float, y: float, fill: Any) -> None:
    """An attack icon: a sword, point up (x, y its top left; 22 x 26 px)."""
    d.polygon([(x + 11, y), (x + 16, y + 6), (x + 16, y + 16), (x + 6, y + 16), (x + 6, y + 6)], fill=fill)
    d.rectangle([x + 1, y + 16, x + 21, y + 20], fill=fill)
    d.rectangle([x + 8, y + 20, x + 14, y + 26], fill=fill)


def _pips(d: Any, x: float, y: float, n: int, fill: Any) -> None:
    """A unit's class as 1–3 bars (Light, Medium, Heavy)."""
    for k in range(n):
        d.rectangle([x + k * 9, y + 16 - 5 * k, x + k * 9 + 6, y + 24], fill=fill)


def _value_at(d: Any, x: float, value: str, changed: bool) -> None:
    """A number in a block's middle row; one this battle changed sits on a gold patch."""
    if changed:
        w = dr.width_of(value)
        d.rounded_rectangle([x - 3, 33, x + w + 3, 61], radius=5, fill=dr.GOLD, outline=INK, width=1)
    dr.text(d, (x, 32), value, INK, red=None)


def _draw_unit(zone: str, cls: int, attack: int, armor: int, life: int, wounds: int, tapped: bool,
                 temp: int = 0, shielded: bool = False, boosted: tuple[bool, bool] = (False, False),
                 lang: str = "en") -> Any:
    """One unit as a card-like block: its zone and class on top, Attack and Armor, then its life
    left (wounds in red), temporary life (blue) and K♠; hatched with an orange frame when tapped."""
    img, d = _rgba(BLOCK_W, BLOCK_H)
    head = PATROL if zone == "patrol" else GUARD
    d.rounded_rectangle([0, 0, BLOCK_W - 1, BLOCK_H - 1], radius=8, fill=PAPER, outline=(40, 40, 40), width=2)
    d.rounded_rectangle([2, 2, BLOCK_W - 3, 31], radius=7, fill=head)
    hink = INK if zone == "patrol" else dr.WHITE
    w = words(lang)
    dr.text(d, (8, 3), w.t("Patrol") if zone == "patrol" else w.t("Guard"), hink, red=None)
    if shielded:
        dr.text(d, (BLOCK_W - 8, 3), "K♠", hink, red=None, anchor="ra")
    else:
        _pips(d, BLOCK_W - 34, 4, cls, hink)
    _sword(d, 8, 34, INK)
    _value_at(d, 34, str(attack), boosted[0])
    _shield(d, 78, 35, INK)
    _value_at(d, 104, str(armor), boosted[1])
    _heart(d, 8, 63, WOUND)
    left = f"{life - wounds}/{life}" if wounds else str(life)
    w = dr.text(d, (34, 60), left, WOUND if wounds else INK, red=None)
    if temp:
        dr.text(d, (34 + w + 6, 60), f"+{temp}", TEMP, red=None)
    if tapped:
        _hatch(img, BLOCK_W, BLOCK_H)
        d.ellipse([BLOCK_W - 34, BLOCK_H - 34, BLOCK_W - 4, BLOCK_H - 4], fill=TAPPED)
        dr.text(d, (BLOCK_W - 19, BLOCK_H - 19), "↻", dr.WHITE, red=None, anchor="mm")
    return img


def _draw_ace(title: str, life: int, wounded: bool, armor: int, temp: int, shielded: bool) -> Any:
    """A targeted Ace in the battle diagram, as a block: Armor, life left and temporary life."""
    img, d = _rgba(BLOCK_W, BLOCK_H)
    d.rounded_rectangle([0, 0, BLOCK_W - 1, BLOCK_H - 1], radius=8, fill=PAPER, outline=dr.GOLD, width=3)
    d.rounded_rectangle([3, 3, BLOCK_W - 4, 31], radius=7, fill=(120, 30, 40))
    dr.text(d, (8, 2), title, dr.WHITE, red=dr.PINK)
    _shield(d, 8, 35, INK)
    dr.text(d, (34, 32), str(armor), INK, red=None)
    if shielded:
        dr.text(d, (BLOCK_W - 8, 32), "K♠", INK, red=None, anchor="ra")
    _heart(d, 8, 63, WOUND)
    w = dr.text(d, (34, 60), str(life), WOUND if wounded else INK, red=None)
    if temp:
        dr.text(d, (34 + w + 6, 60), f"+{temp}", TEMP, red=None)
    return img


DRAWERS: dict[str, Any] = {}


def _tile_rgb(kind: str, args: tuple, bg: tuple[int, int, int]) -> Any:
    """A sprite drawn once per look and background, flattened onto the band it goes on (RGB)."""
    return _kept_rgb(kind, args, bg, dr.joker_word())


def _tile(kind: str, args: tuple, bg: tuple[int, int, int]) -> Any:
    """The same sprite in the shared palette: putting it on the page is a plain copy."""
    return _kept(kind, args, bg, dr.joker_word())


# bench: picture CPU p99 — a sprite drawn once, pasted many times (kept by its look and the joker's name
# in the picture's language, which a sprite's words may write)
@functools.lru_cache(maxsize=4096)
def _kept_rgb(kind: str, args: tuple, bg: tuple[int, int, int], joker: str) -> Any:
    from PIL import Image

    rgba = DRAWERS[kind](*args)
    flat = Image.new("RGBA", rgba.size, bg + (255,))
    flat.alpha_composite(rgba)
    return flat.convert("RGB")


# bench: picture CPU p99 — a sprite quantized once
@functools.lru_cache(maxsize=4096)
def _kept(kind: str, args: tuple, bg: tuple[int, int, int], joker: str) -> Any:
    return _quantize(_kept_rgb(kind, args, bg, joker))


def _unit_sprite(*args: Any, bg: tuple[int, int, int], rgb: bool = False) -> Any:
    return (_tile_rgb if rgb else _tile)("unit", args, bg)


def _ace_sprite(*args: Any, bg: tuple[int, int, int], rgb: bool = False) -> Any:
    return (_tile_rgb if rgb else _tile)("ace", args, bg)


def _chip(*args: Any, bg: tuple[int, int, int], rgb: bool = False) -> Any:
    return (_tile_rgb if rgb else _tile)("chip", args, bg)


CHIP_FILL = {"ace": (PAPER, dr.GOLD), "fallen": ((120, 120, 120), (80, 80, 80)), "res": (PAPER, (150, 40, 40)),
             "build": ((52, 40, 30), (200, 170, 120)), "hand": (PAPER, (60, 60, 60))}


def _draw_chip(parts: tuple[tuple[str, tuple[int, int, int]], ...], kind: str, tapped: bool) -> Any:
    """A one-line tile, as wide as its words: an Ace and its life, a fallen Ace (crossed), a
    resource (+Q), a card being built and its markers; hatched with an orange frame when tapped."""
    widths = [dr.width_of(t) for t, _ in parts]
    w = int(sum(widths) + 6 * (len(parts) - 1) + 16)
    img, d = _rgba(w, CHIP_H)
    fill, edge = CHIP_FILL[kind]
    d.rounded_rectangle([0, 0, w - 1, CHIP_H - 1], radius=7, fill=fill, outline=edge, width=3)
    x = 8
    for (t, ink), tw in zip(parts, widths, strict=True):
        dr.text(d, (x, 4), t, ink, red=None)
        x += tw + 6
    if kind == "fallen":
        d.line([(4, CHIP_H - 6), (w - 5, 5)], fill=WOUND, width=4)
    if tapped:
        _hatch(img, w, CHIP_H)
    return img


def _card_ink(c: Any, dark: bool = False) -> tuple[int, int, int]:
    if not isinstance(c, str):
        return dr.WHITE if dark else INK
    return (dr.PINK if dark else dr.RED) if _code(c)[1:2] in ("H", "D") else (dr.WHITE if dark else INK)


DRAWERS.update(unit=_draw_unit, ace=_draw_ace, chip=_draw_chip)


def _value(c: str) -> int:
    r = c[0]
    return "23456789T".index(r) + 2 if r in "23456789T" else 0


INNER = dr.WIDTH - 2 * dr.PAD


def _draw_label(text_: str, ink: tuple[int, int, int]) -> Any:
    """Words as a tile of the flow (no frame), as tall as a chip."""
    w = int(min(INNER, dr.width_of(text_)) + 4)
    img, d = _rgba(w, CHIP_H)
    dr.text(d, (0, 4), dr.fit(text_, INNER - 4), ink)
    return img


DRAWERS["label"] = _draw_label


def _arrow(d: Any, x: float, y: float, left: bool) -> None:
    """→ to the target Ace, or ⇄ between an attacker and its guardians."""
    d.line([(x + 2, y), (x + 34, y)], fill=dr.GOLD, width=5)
    d.polygon([(x + 36, y), (x + 24, y - 9), (x + 24, y + 9)], fill=dr.GOLD)
    if left:
        d.polygon([(x, y), (x + 12, y - 9), (x + 12, y + 9)], fill=dr.GOLD)


BANDS = (dr.FELT, DARK_BAND, LIGHT_BAND, ACTIVE_BAND, BATTLE_BAND)


# bench: picture CPU p99 — the palette chosen once a process
@functools.lru_cache(maxsize=1)
def _palette() -> Any:
    """One 256-colour palette for every picture, chosen once from a sample of everything this
    module draws (each band, its texts, blocks and chips): each picture then only maps its pixels
    to it, instead of choosing a palette of its own."""
    from PIL import Image

    sheet = dr.Sheet(height=len(BANDS) * 420)
    for bg in BANDS:
        sheet.band(420, bg)
        y = sheet.y
        for k, ink in enumerate((dr.WHITE, dr.GOLD, dr.MUTED, dr.PINK)):
            dr.text(sheet.d, (dr.PAD, y + k * dr.LINE), "Ana ▶ 0123456789 ♥♦♠♣ hand · deck", ink)
        x = dr.PAD
        for k, (zone, tapped, wounds, temp) in enumerate((("patrol", False, 0, 0), ("guard", True, 2, 3),
                                                           ("patrol", True, 3, 0), ("guard", False, 0, 2))):
            sheet.img.paste(_unit_sprite(zone, 1 + k % 3, 7, 5, 6, wounds, tapped, temp, k == 3, (k == 1, k == 2),
                                         bg=bg, rgb=True), (int(x), y + 150))
            x += BLOCK_W + GAP
        sheet.img.paste(_ace_sprite("#1 A♥", 9, True, 3, 3, True, bg=bg, rgb=True), (int(x), y + 150))
        x = dr.PAD
        for args in ((("A♦", dr.RED), ("16", WOUND)), "ace", True), ((("A♣", INK), ("9", (90, 90, 90))), "ace", False), \
                    ((("A♥", (225, 225, 225)),), "fallen", False), ((("5♦", dr.RED), ("+Q", BOOST)), "res", True), \
                    ((("7♥", dr.PINK), ("●3/7", dr.GOLD)), "build", False):
            t = _chip(*args, bg=bg, rgb=True)
            sheet.img.paste(t, (int(x), y + 260))
            x += t.width + GAP
        t = _chip((("10♥", dr.RED),), "hand", False, bg=bg, rgb=True)
        sheet.img.paste(t, (int(x), y + 260))
        _legend(sheet, y + 320)
        _arrow(sheet.d, 600, y + 360, True)
        sheet.y += 420
    return sheet.img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _quantize(img: Any) -> Any:
    from PIL import Image

    return img.quantize(palette=_palette(), dither=Image.Dither.NONE)


# bench: picture CPU p99 — a colour's palette entry found once
@functools.lru_cache(maxsize=16)
def _index(colour: tuple[int, int, int]) -> int:
    """The palette entry nearest ``colour``."""
    from PIL import Image

    return _quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))


def _legend(sheet: dr.Sheet, at: float | None = None, lang: str = "en") -> None:
    w = words(lang)
    d = sheet.d
    y = sheet.y if at is None else at
    x = dr.PAD
    _sword(d, x, y + 4, dr.WHITE)
    x += dr.text(d, (x + 26, y), w.t("Attack"), dr.MUTED) + 40
    _shield(d, x, y + 4, dr.WHITE)
    x += dr.text(d, (x + 26, y), w.t("Armor"), dr.MUTED) + 40
    _heart(d, x, y + 4, dr.PINK)
    x += dr.text(d, (x + 26, y), w.t("Life"), dr.MUTED) + 40
    d.rounded_rectangle([x, y + 2, x + 28, y + 30], radius=6, outline=TAPPED, width=4)
    dr.text(d, (x + 36, y), w.t("tapped · ● markers"), dr.MUTED)
    if at is None:
        sheet.space(dr.LINE)


# bench: picture CPU p99 — the legend drawn once
@functools.lru_cache(maxsize=4)  # one a language
def _legend_strip(lang: str = "en") -> Any:
    sheet = dr.Sheet(height=dr.LINE)
    _legend(sheet, 0, lang)
    return _quantize(sheet.img)
