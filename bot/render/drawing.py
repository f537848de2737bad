"""Drawing helpers shared by the table pictures (Pillow).

Pictures are designed 800 px wide and must stay readable at 400 px on a phone, so every piece
of text is at least :data:`TEXT` px tall, the same size as a card's rank. Drawing is cheap: the
font file is read once, card faces and backs are drawn once per (card, size) and pasted, and
PNGs are written as 256-colour palettes with ``compress_level=1``.

A sheet drawn in ``"P"`` mode (``Sheet(mode="P")``) is drawn straight into one fixed palette
(:data:`PALETTE`, built once from the colours of the pictures and the blends of their text
edges): no colours are chosen per picture, every pixel is one byte while drawing, card and text
tiles are turned into palette tiles once and then only pasted, and the PNG is written as it is.
A sheet in ``"RGB"`` mode (the default) is reduced to a palette of its own when written.
"""

from __future__ import annotations

import contextlib
import functools
import weakref
import io
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from bot.render.palette import (  # noqa: F401 — the colours and the palette are imported from here too
    ACTING, ARMOUR, BACK, BADGE, BLACK, CELL_DARK, CELL_LIGHT, CROSS, FELT, FELT_DARK, FELT_LIGHT, GOLD, GRIDCANNON_BACK,
    HEALTH, JOKER_INK, MUTED, NORTH, NORTH_DARK, OUTLINE, PALETTE, PINK, RED, SOUTH, SOUTH_DARK, STACK_EDGE, WHITE,
    _colour, _ramp, canvas, colour_at, lighter, palette_tile, to_palette,
)

WIDTH = 800  # the design width
TEXT = 28  # every text and every card rank, in px at the design width
PAD = 16

_FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "DejaVuSans-Bold.ttf")
_GLYPHS = {"🃏": "Joker", "🂠": "?"}  # emoji the font lacks, in words (the joker's: the picture's language's)
_JOKER: ContextVar[str] = ContextVar("the joker's name in the picture's language", default="Joker")


# bench: picture CPU p99 — the font file read once a process
@functools.lru_cache(maxsize=1)
def _font_bytes() -> bytes | None:
    for path in _FONT_FILES:
        try:
            with open(path, "rb") as fh:
                return fh.read()
        except OSError:
            continue
    return None


# bench: picture CPU p99 — a font loaded once a size
@functools.lru_cache(maxsize=16)
def font(size: int) -> Any:
    """The one picture font at ``size`` px (its file is read once)."""
    from PIL import ImageFont

    data = _font_bytes()
    if data is not None:
        return ImageFont.truetype(io.BytesIO(data), size)
    return ImageFont.load_default(size=size)


def words(text: str) -> str:
    """Text for the picture: emoji the font lacks replaced by words (a joker by its name in the
    picture's language, see :func:`speaking`); Markdown bold dropped."""
    for k, v in _GLYPHS.items():
        text = text.replace(k, _JOKER.get() if k == "🃏" else v)
    return text.replace("**", "").replace("`", "")


def joker_word() -> str:
    """The joker's name a line of the picture being drawn writes (see :func:`speaking`): a part of the
    key of any drawing kept for its words."""
    return _JOKER.get()


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Inside this block the pictures are drawn for a reader of ``lang``: a joker named in a line of
    text (a caption, a stash) is written as that language names it."""
    from bot.i18n import words as words_of

    token = _JOKER.set(words_of(lang).t("Joker"))
    try:
        yield
    finally:
        _JOKER.reset(token)


def suit_shape(d: Any, s: str, cx: float, cy: float, r: float, fill: Any) -> None:
    """Draw a suit symbol as shapes (no font needs the glyphs)."""
    if s == "D":
        d.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)
    elif s == "H":
        d.ellipse([cx - r, cy - r * 0.8, cx, cy + r * 0.2], fill=fill)
        d.ellipse([cx, cy - r * 0.8, cx + r, cy + r * 0.2], fill=fill)
        d.polygon([(cx - r * 0.97, cy - r * 0.15), (cx + r * 0.97, cy - r * 0.15), (cx, cy + r)], fill=fill)
    elif s == "S":
        d.ellipse([cx - r, cy - r * 0.35, cx, cy + r * 0.55], fill=fill)
        d.ellipse([cx, cy - r * 0.35, cx + r, cy + r * 0.55], fill=fill)
        d.polygon([(cx - r * 0.97, cy + r * 0.2), (cx + r * 0.97, cy + r * 0.2), (cx, cy - r)], fill=fill)
        d.polygon([(cx, cy + r * 0.1), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=fill)
    elif s == "C":
        q = r * 0.45
        for dx, dy in ((0, -r * 0.5), (-r * 0.5, r * 0.05), (r * 0.5, r * 0.05)):
            d.ellipse([cx + dx - q, cy + dy - q, cx + dx + q, cy + dy + q], fill=fill)
        d.polygon([(cx, cy), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=fill)


def _star(d: Any, cx: float, cy: float, r: float, fill: Any) -> None:
    import math

    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill)


# ----- cards, drawn once per (card, size) ---------------------------------------------------------
CARD_W, CARD_H = 72, 100  # the usual card; its rank is TEXT px


# bench: picture CPU p99 — drawn once, pasted many times (the render caches: 2–5 ms a picture; 6–27 ms without)
@functools.lru_cache(maxsize=512)
def face(card: str, w: int = CARD_W, h: int = CARD_H) -> Any:
    """A card face (RGBA), its rank in the corner at :data:`TEXT` px and a big pip or letter."""
    from PIL import Image

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = draw_on(img)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=max(5, w // 10), fill=WHITE, outline=OUTLINE, width=2)
    if card.startswith("JK"):
        d.text((6, 2), "★", fill=JOKER_INK, font=font(TEXT))
        _star(d, w / 2 + 4, h * 0.62, min(w, h) * 0.3, GOLD)
        d.text((w / 2 + 4, h * 0.62), "J", fill=JOKER_INK, font=font(TEXT), anchor="mm")
        return img
    rank, s = card[0], card[1]
    ink = RED if s in "HD" else BLACK
    label = "10" if rank == "T" else rank
    f = font(TEXT if label != "10" or w >= 80 else TEXT - 4)
    d.text((5, 3), label, fill=ink, font=f)
    suit_shape(d, s, 5 + 10, 3 + TEXT + 11, 9, ink)
    cx, cy = w / 2 + w * 0.12, h * 0.64
    if rank in "JQK":
        d.text((cx, cy), label, fill=ink, font=font(int(min(w, h) * 0.5)), anchor="mm")
    else:
        suit_shape(d, s, cx, cy, min(w, h) * 0.24, ink)
    return img


# bench: picture CPU p99 — drawn once, pasted many times
@functools.lru_cache(maxsize=32)
def back(w: int = CARD_W, h: int = CARD_H, colour: tuple[int, int, int] = BACK) -> Any:
    """A card back (RGBA)."""
    from PIL import Image

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = draw_on(img)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=max(5, w // 10), fill=colour, outline=WHITE, width=2)
    light = lighter(colour)
    d.rounded_rectangle([6, 6, w - 7, h - 7], radius=4, outline=light, width=2)
    for k in range(12, w - 10, 10):
        d.line([k, 10, k, h - 11], fill=light, width=1)
    return img


# bench: picture CPU p99 — drawn once, pasted many times
@functools.lru_cache(maxsize=32)
def slot(w: int = CARD_W, h: int = CARD_H, colour: tuple[int, int, int] = MUTED) -> Any:
    """An empty place for a card: an outline (RGBA)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([1, 1, w - 2, h - 2], radius=max(5, w // 10), outline=colour, width=2)
    return img


def put(img: Any, tile: Any, x: float, y: float) -> None:
    """Paste a cached tile (with its transparency) at (x, y); on a palette sheet, the tile's
    palette copy (made once) is pasted through its one-bit mask."""
    if img.mode == "P" and tile.mode == "RGBA":
        p, bit = palette_tile(tile)
        _paste(img, p, int(x), int(y), bit)
        return
    img.paste(tile, (int(x), int(y)), tile)


def _paste(img: Any, tile: Any, x: int, y: int, mask: Any) -> None:
    """Paste through a mask."""
    img.paste(tile, (x, y), mask)


# bench: picture CPU p99 — drawn once, pasted many times
@functools.lru_cache(maxsize=256)
def box(w: int, h: int, radius: int, fill: Any, outline: Any = None, width: int = 0) -> Any:
    """A rounded box (RGBA) drawn once per size and colours, then pasted with :func:`put`."""
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=fill, outline=outline, width=width)
    return img


def card(img: Any, code: Any, x: float, y: float, w: int = CARD_W, h: int = CARD_H) -> None:
    """A card face, or its back when ``code`` is not a string (a hidden card)."""
    put(img, face(code, w, h) if isinstance(code, str) else back(w, h), x, y)


def fan(img: Any, codes: Iterable[Any], x: float, y: float, width: float, w: int = CARD_W, h: int = CARD_H,
        step: float | None = None) -> float:
    """Cards left to right, overlapping to fit ``width``; returns the x after the last card."""
    codes = list(codes)
    if not codes:
        return x
    gap = step if step is not None else w + 6
    if len(codes) > 1:
        gap = min(gap, (width - w) / (len(codes) - 1))
    for i, c in enumerate(codes):
        card(img, c, x + i * gap, y, w, h)
    return x + (len(codes) - 1) * gap + w


# ----- text ----------------------------------------------------------------------------------------
_SHEETS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()  # a drawing -> its picture


def draw_on(img: Any) -> Any:
    """``ImageDraw.Draw(img)``, remembered with its picture (a palette sheet's words are pasted there)."""
    from PIL import ImageDraw

    d = ImageDraw.Draw(img)
    _SHEETS[d] = img
    return d


def draw_text(d: Any, xy: tuple[float, float], s: str, fill: Any, size: int, anchor: str = "la") -> None:
    """One run of text in one colour. On a palette sheet the run is drawn word by word, each word a
    palette tile made once per (word, size, ink, ground: the colour under it) and pasted through a
    one-bit mask, so its edges stay smooth in the sheet's palette."""
    f = font(size)
    if d.mode != "P" or "\n" in s or not hasattr(f, "getbbox"):
        d.text(xy, s, fill=fill, font=f, anchor=anchor)
        return
    _draw_words(d, xy, s, tuple(fill), size, anchor)


# bench: picture CPU p99 — a picture's words are measured once
@functools.lru_cache(maxsize=8192)
def _advance(word: str, size: int) -> float:
    """How far a word and the space after it move the pen."""
    return font(size).getlength(word + " ")


def _draw_words(d: Any, xy: tuple[float, float], s: str, ink: tuple[int, int, int], size: int,
                anchor: str) -> None:
    x, y = xy
    if anchor[0] != "l":
        total = width_of(s, size)
        x -= total if anchor[0] == "r" else total / 2
    anchor = "l" + anchor[1]
    ry = round(y)
    img = _SHEETS.get(d)
    if img is None:  # not made by draw_on: Pillow's own road
        d.text(xy, s, fill=ink, font=font(size), anchor=anchor)
        return
    for word in s.split(" "):
        if word:
            left, top = _word_box(word, size, anchor)
            px, py = round(x) + left, ry + top
            ground = colour_at(img, px, py)
            tile, bit = _text_tile(word, size, anchor, ink, ground)
            img.paste(tile, (px, py), bit)
        x += _advance(word, size)


# bench: picture CPU p99 — a picture's words are measured once
@functools.lru_cache(maxsize=4096)
def _word_box(word: str, size: int, anchor: str) -> tuple[int, int]:
    """Where a word's drawn pixels start from its anchor."""
    left, top, _, _ = font(size).getbbox(word, anchor=anchor)
    return int(left), int(top)


def text(d: Any, xy: tuple[float, float], s: str, fill: Any = WHITE, size: int = TEXT, red: Any = PINK,
         anchor: str = "la") -> float:
    """Draw one line; red suit symbols in ``red`` (None: all in ``fill``). Returns its width."""
    s = words(s)
    if red is None or not any(ch in s for ch in "♥♦"):
        draw_text(d, xy, s, fill, size, anchor)
        return width_of(s, size)
    total = width_of(s, size)
    x, y = xy
    if anchor[0] == "m":
        x -= total / 2
    elif anchor[0] == "r":
        x -= total
    anchor = "l" + anchor[1]
    part = ""
    for ch in s + "\0":
        if ch in "♥♦\0":
            if part:
                draw_text(d, (x, y), part, fill, size, anchor)
                x += width_of(part, size)
                part = ""
            if ch != "\0":
                draw_text(d, (x, y), ch, red, size, anchor)
                x += width_of(ch, size)
        else:
            part += ch
    return total


def width_of(s: str, size: int = TEXT) -> float:
    return _width(words(s), size)  # words() first: a joker's name is the picture's language's


# bench: picture CPU p99 — a picture's words are measured once
@functools.lru_cache(maxsize=8192)
def _width(text: str, size: int) -> float:
    return font(size).getlength(text)


def wrap(s: str, width: float, size: int = TEXT) -> list[str]:
    """``s`` broken into lines no wider than ``width`` px (its own line breaks kept). A line's
    width is its words' widths (each measured once) and the spaces between them."""
    out: list[str] = []
    space = width_of(" ", size)
    for para in words(s).split("\n"):
        line, used = "", 0.0
        for word in para.split(" "):
            w = width_of(word, size)
            if line and used + space + w > width:
                out.append(line)
                line, used = word, w
            elif line:
                line, used = f"{line} {word}", used + space + w
            else:
                line, used = word, w
        out.append(line)
    return out


def fit(s: str, width: float, size: int = TEXT) -> str:
    """``s`` cut with an ellipsis to fit ``width`` px (the longest prefix that fits, by halving)."""
    s = words(s)
    if width_of(s, size) <= width:
        return s
    lo, hi = 0, len(s)  # s[:lo] + "…" fits (or lo is 0); s[:hi] + "…" does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if width_of(s[:mid] + "…", size) <= width:
            lo = mid
        else:
            hi = mid
    return s[:lo].rstrip() + "…"


LINE = TEXT + 8  # the height of a line of text


class TooShort(ValueError):
    """A sheet drawn past its bottom edge."""


def sized(draw: Any, height: int) -> bytes:
    """``draw(height)`` on a sheet of ``height`` px, again on a taller one if it did not fit (a
    sheet as tall as most pictures need costs less to clear and to crop than a very tall one)."""
    for _ in range(3):
        try:
            return draw(height)
        except TooShort:
            height *= 2
    return draw(height)


class Sheet:
    """A picture :data:`WIDTH` px wide that grows downwards; :meth:`png` crops it to what was drawn.
    ``mode="P"`` draws it in the fixed :data:`PALETTE` (see the module's notes)."""

    def __init__(self, height: int = 2400, bg: tuple[int, int, int] = FELT, width: int = WIDTH,
                 mode: str = "RGB") -> None:

        self.width = width
        self.img = canvas(width, height, bg) if mode == "P" else _new_rgb(width, height, bg)
        self.d = draw_on(self.img)
        self.y = PAD

    def band(self, height: float, fill: tuple[int, int, int]) -> None:
        self.d.rectangle([0, self.y, self.width, self.y + height], fill=fill)

    def line(self, s: str, fill: Any = WHITE, x: float = PAD, wrap_to: float | None = None, limit: int = 6) -> None:
        """A paragraph of text at the cursor, wrapped to the sheet (at most ``limit`` lines)."""
        lines = wrap(s, wrap_to or (self.width - x - PAD))
        if len(lines) > limit:
            lines = lines[:limit]
            lines[-1] = fit(lines[-1] + " …", self.width - x - PAD)
        for ln in lines:
            text(self.d, (x, self.y), ln, fill)
            self.y += LINE

    def cards(self, codes: Iterable[Any], per_row: int = 14) -> None:
        """Rows of cards at the cursor, overlapping to fit the sheet's width."""
        rest = list(codes)
        while rest:
            part, rest = rest[:per_row], rest[per_row:]
            fan(self.img, part, PAD, self.y, self.width - 2 * PAD)
            self.y += CARD_H + 8

    def space(self, px: float) -> None:
        self.y += px

    def png(self) -> bytes:
        if self.y + PAD > self.img.height:
            raise TooShort(f"the picture needs {int(self.y + PAD)} px, the sheet has {self.img.height}")
        return finish(self.img.crop((0, 0, self.width, int(self.y + PAD))))


# bench: animation CPU s — an animation's frames skip a PNG's write and read (0.8 of 3 s for 152 frames)
_KEPT: ContextVar[list[Any] | None] = ContextVar("kept pictures", default=None)


@contextlib.contextmanager
def kept() -> Iterator[list[Any]]:
    """Inside this block a finished picture is kept as its image in the list given (its PNG is
    not written: :func:`finish` returns ``b""``)."""
    images: list[Any] = []
    token = _KEPT.set(images)
    try:
        yield images
    finally:
        _KEPT.reset(token)


def finish(img: Any) -> bytes:
    """A finished picture as PNG (a palette one as it is, an RGB one reduced to a palette
    first), or, inside :func:`kept`, kept as it is."""
    images = _KEPT.get()
    if images is not None:
        images.append(img)
        return b""
    return png(img) if img.mode == "P" else encode(img)


def encode(img: Any) -> bytes:
    """PNG at ``compress_level=1``, first reduced to a 256-colour palette (no dithering): a table
    picture has a few hundred colours, each within a few levels of its own, and the palette halves
    both the time to write it and its size. The palette is chosen on a quarter-size copy (a
    sixteenth of the pixels) and every pixel then takes its nearest colour: a third of the time of
    choosing it on the whole picture, the same picture to within a few levels."""
    from PIL import Image

    k = max(1, min(4, img.width // 64, img.height // 64))
    palette = img.reduce(k).quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _new_rgb(width: int, height: int, bg: tuple[int, int, int]) -> Any:
    from PIL import Image

    return Image.new("RGB", (width, height), bg)


def png(img: Any) -> bytes:
    """A palette picture as PNG, as it is (``compress_level=1``: a picture of flat colours
    compresses almost as well as at higher levels, at a third of the time)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


# bench: picture CPU p99 — a run of text is drawn once, pasted many times
@functools.lru_cache(maxsize=4096)
def _text_tile(s: str, size: int, anchor: str, ink: tuple[int, int, int],
               ground: tuple[int, int, int]) -> tuple[Any, Any]:
    """A run of text as a palette tile (each glyph pixel ``ink`` blended into ``ground`` by its
    coverage) and its one-bit mask (the pixels the glyphs cover)."""
    from PIL import Image, ImageDraw

    f = font(size)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    cover = Image.new("L", (max(1, int(right) - int(left)), max(1, int(bottom) - int(top))), 0)
    ImageDraw.Draw(cover).text((-int(left), -int(top)), s, fill=255, font=f, anchor=anchor)
    tile = Image.frombytes("P", cover.size, cover.point(_ramp(ink, ground)).tobytes())
    return tile, cover.point(_COVERED, "1")


_COVERED = [0] * 24 + [255] * 232  # a glyph pixel at least this covered is drawn


def warm() -> None:
    """Read the font and draw the usual card faces, backs and places once (a fresh worker calls
    this before it draws its first picture)."""
    for size in (TEXT, TEXT + 6):
        font(size)
    faces(CARD_W, CARD_H)
    for tile in (back(), slot()):
        palette_tile(tile)


def faces(w: int, h: int) -> None:
    """Draw every card's face at ``w`` x ``h`` into the cache (as :func:`card` asks for them),
    and its palette tile."""
    for s in "SHDC":
        for r in "23456789TJQKA":
            palette_tile(face(r + s, w, h))
    palette_tile(face("JK", w, h))
