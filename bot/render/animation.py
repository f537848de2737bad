"""A whole game as an animation: one frame a step (the deal, then each move), each frame the
table picture of that step's view with a caption band (the move's number, who moved and its
line as that view's reader read it), at phone size (400 px wide: the pictures' text is made to
be read there), written as a GIF, or an animated WebP where the GIF is large and the WebP smaller.

Only views and words come here (:class:`Frame`), never a game: a frame shows what its view
shows, so an animation made from a reader's views shows no more than that reader saw at each
step. Every game's pictures are drawn in one fixed palette of its own, so every frame of an
animation shares one palette: Pillow's GIF writer then compares frames by palette index and
writes each one's changed box only (with ``optimize``, the unchanged pixels inside the box made
transparent), the way lichess's lila-gif writes a game. :func:`boxes` reads the written boxes
back, so a test and the bench can see that this is what happens.

A frame's picture is halved and mapped to the shared palette only where it differs from the
picture before (:func:`_small`): a move changes a few boxes of the table, and the rest of the
frame is the frame before's, pixel for pixel what halving the whole picture makes.

Drawing takes about one to one and a half CPU seconds for a 150-move game, more on a loaded
machine (the table pictures, then the frames and the GIF's writing in about equal parts): it runs
in a picture process (:func:`bot.render.pictures.animation`), never in the event loop's thread.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import pretty_text
from bot.i18n import words
from bot.render import drawing as dr
from bot.render import renderer

FRAME_MS = 900  # each move on screen
LAST_MS = 4000  # the final table stays a while before the loop starts again
CAPTION_LINES = 2
CAPTION = CAPTION_LINES * dr.LINE + dr.PAD  # the caption band's height, px
CAPTION_BG = dr.FELT_DARK
SCALE = 2  # the pictures' design width (800 px) to phone size
MAX_BYTES = 8 << 20  # Discord's smallest upload limit: a larger animation is not sent
WEBP_PAST = 4_000_000  # bytes of GIF past which an animated WebP is tried too


@dataclass(frozen=True)
class Frame:
    """One step as one reader saw it: the view, and the caption's words (already in the reader's
    terms: the move's line as that reader read it)."""

    view: Any
    caption: str
    lang: str = "en"  # the language the picture's words are drawn in (the caption comes said already)


def caption_text(step: int, last: int, mover: str, lines: Sequence[str], lang: str = "en") -> str:
    """The caption of a step: "Move 12 of 150 · ana: …" (the deal: "The deal"), in ``lang``."""
    w = words(lang)
    if step == 0:
        return w.n("The deal · {n} move follows", "The deal · {n} moves follow", last)
    said = " ".join(" ".join((t if w.english else w.line(t)).split()) for t in lines[:2]) or w.t("(nothing to see)")
    who = " ".join(mover.split())
    return w.t("Move {step} of {last}", step=step, last=last) + (f" · {who}: {said}" if who else f" · {said}")


def picture_image(game_id: str, view: Any, lang: str = "en") -> Any:
    """The table picture of ``view`` as an image (as drawn: no PNG written), or None; its words in ``lang``."""
    with dr.kept() as images:
        png = renderer(game_id).said("picture", view, lang)
    if images:
        return images[-1]
    if not png:
        return None
    from PIL import Image

    return Image.open(io.BytesIO(png))


def _caption(width: int, text: str, ground: tuple[int, int, int]) -> Any:
    """The caption band at phone size, drawn there (its text :data:`dr.TEXT` px at design width)."""
    from PIL import Image, ImageDraw

    band = Image.new("RGB", (width, CAPTION // SCALE), ground)
    d = ImageDraw.Draw(band)
    size = dr.TEXT // SCALE
    lines = dr.wrap(dr.words(pretty_text(text)), (width - dr.PAD) * SCALE)[:CAPTION_LINES]
    for k, ln in enumerate(lines):
        if k == CAPTION_LINES - 1 and len(lines) == CAPTION_LINES:
            ln = dr.fit(ln, (width - dr.PAD) * SCALE)
        d.text((dr.PAD // SCALE, dr.PAD // (2 * SCALE) + k * dr.LINE // SCALE), ln, fill=dr.WHITE, font=dr.font(size))
    return band


def frame_images(game_id: str, frames: Sequence[Frame]) -> list[Any]:
    """Every frame as an image of one size and one palette, at phone size (half the pictures'
    design width: their text is made to be read there): the caption band on top, the picture
    below it, padded at its foot with its own background colour. The palette is the game's own
    (its first picture's), so every frame shares it."""
    from PIL import Image

    pictures = [picture_image(game_id, f.view, f.lang) for f in frames]
    if not pictures or any(p is None for p in pictures):
        return []
    width = max(p.width for p in pictures) // SCALE
    height = (CAPTION + max(p.height for p in pictures)) // SCALE
    first = pictures[0]
    if first.mode == "P":
        shared = Image.new("P", (1, 1), 0)
        shared.putpalette(first.getpalette())
    else:  # a picture of its own colours: a palette chosen from the first one
        shared = first.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    blanks: dict[Any, Any] = {}
    out = []
    before: tuple[Any, Any, bytes] | None = None  # the picture before, its bytes and its frame's picture part
    for f, p in zip(frames, pictures, strict=True):
        small, data = _small(p, shared, before)
        before = (p, small, data)
        ground = _ground(p)
        page = blanks.get(ground)
        if page is None:
            page = blanks[ground] = Image.new("RGB", (width, height), ground).quantize(
                palette=shared, dither=Image.Dither.NONE)
        page = page.copy()
        with dr.speaking(f.lang):  # a joker in the caption named in the frame's language
            caption = _caption(width, f.caption, CAPTION_BG)
        page.paste(caption.quantize(palette=shared, dither=Image.Dither.NONE), (0, 0))
        page.paste(small, (0, CAPTION // SCALE))
        out.append(page)
    return out


BAND = 32  # rows of a picture compared with the picture before at a time (even: whole halving blocks)


def _small(picture: Any, shared: Any, before: tuple[Any, Any, bytes] | None) -> tuple[Any, bytes]:
    """``picture`` at phone size in the shared palette, and the picture's bytes. Where the picture
    before (``before``: it, its phone size, its bytes) is as wide and in the same palette, only the
    boxes that differ from it (and the rows past its foot) are halved and mapped again, the rest is
    the frame before's: each pixel of the result is its own 2x2 block's mean mapped to its nearest
    colour, wherever it is made."""
    from PIL import Image

    data = picture.tobytes() if picture.mode == "P" else b""
    if before is None or before[0].width != picture.width or before[0].mode != "P" or picture.mode != "P" \
            or before[0].getpalette() != picture.getpalette():
        return picture.convert("RGB").reduce(SCALE).quantize(palette=shared, dither=Image.Dither.NONE), data
    old, old_small, old_data = before
    common = min(old.height, picture.height) // SCALE * SCALE  # rows of whole blocks in both
    boxes = _changed(old, picture, old_data, data, common)
    if common < picture.height:
        boxes.append((0, common, picture.width, picture.height))
    small = old_small.crop((0, 0, picture.width // SCALE, -(-picture.height // SCALE)))
    for box in boxes:
        part = picture.crop(box).convert("RGB").reduce(SCALE).quantize(palette=shared, dither=Image.Dither.NONE)
        small.paste(part, (box[0] // SCALE, box[1] // SCALE))
    return small, data


def _changed(old: Any, new: Any, a: bytes, b: bytes, rows: int) -> list[tuple[int, int, int, int]]:
    """The boxes where ``new`` differs from ``old`` (as wide, in the same palette; ``b`` and ``a``
    their bytes) in their first ``rows`` rows: a box for each run of :data:`BAND`-row bands whose
    bytes differ, as wide as its changed pixels, its edges on :data:`SCALE`'s blocks."""
    from PIL import ImageChops

    width = new.width
    runs: list[list[int]] = []
    for y in range(0, rows, BAND):
        end = min(y + BAND, rows)
        if a[y * width:end * width] != b[y * width:end * width]:
            if runs and runs[-1][1] == y:
                runs[-1][1] = end
            else:
                runs.append([y, end])
    out = []
    for top, bottom in runs:
        box = (0, top, width, bottom)
        got = ImageChops.difference(old.crop(box), new.crop(box)).getbbox() or (0, 0, width, bottom - top)
        left, right = got[0] // SCALE * SCALE, min(width, -(-got[2] // SCALE) * SCALE)
        out.append((left, top + got[1] // SCALE * SCALE, right, min(bottom, top + -(-got[3] // SCALE) * SCALE)))
    return out


def _ground(picture: Any) -> tuple[int, int, int]:
    """The colour of the picture's bottom left corner at phone size (its last halving block's mean)."""
    foot = (picture.height - 1) // SCALE * SCALE
    return picture.crop((0, foot, SCALE, picture.height)).convert("RGB").reduce(SCALE).getpixel((0, 0))


def encode(images: Sequence[Any], fmt: str = "GIF") -> bytes:
    """The frames as an animation (Pillow's documented ``save_all``): each frame
    :data:`FRAME_MS`, the last :data:`LAST_MS`, looping."""
    buf = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    first, rest = images[0], list(images[1:])
    if fmt == "GIF":
        first.save(buf, format="GIF", save_all=True, append_images=rest, duration=durations, loop=0, optimize=True)
    else:
        first.save(buf, format="WEBP", save_all=True, append_images=rest, duration=durations, loop=0,
                   lossless=True, quality=0, method=0)
    return buf.getvalue()


@dataclass(frozen=True)
class Animation:
    """An animation's bytes, its format and how many frames were drawn."""

    data: bytes
    fmt: str  # "gif" | "webp"
    frames: int

    @property
    def filename(self) -> str:
        return f"game.{self.fmt}"


def draw(game_id: str, frames: Sequence[Frame]) -> Animation | None:
    """The animation of ``frames`` (None: nothing to draw, or too large to send): a GIF, or an
    animated WebP where the GIF is past :data:`WEBP_PAST` and the WebP is smaller (a WebP takes
    two to five times as long to write, and was larger for every game measured below that)."""
    images = frame_images(game_id, frames)
    if not images:
        return None
    best = Animation(encode(images, "GIF"), "gif", len(images))
    if len(best.data) > WEBP_PAST:
        other = encode(images, "WEBP")
        if len(other) < len(best.data):
            best = Animation(other, "webp", len(images))
    return best if len(best.data) <= MAX_BYTES else None


def boxes(gif: bytes) -> list[tuple[int, int, int, int]]:
    """The box (left, top, width, height) each frame of a GIF writes, read from its image
    descriptors: what the writer really put in the file."""
    if gif[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    at = 13
    flags = gif[10]
    if flags & 0x80:
        at += 3 << ((flags & 7) + 1)
    out = []
    while at < len(gif):
        block = gif[at]
        if block == 0x3B:  # the trailer
            break
        if block == 0x21:  # an extension: its label, then sub-blocks
            at += 2
            while gif[at]:
                at += gif[at] + 1
            at += 1
            continue
        if block != 0x2C:
            raise ValueError(f"unexpected block {block:#x} at {at}")
        left, top, w, h, f = struct.unpack("<HHHHB", gif[at + 1:at + 10])
        out.append((left, top, w, h))
        at += 10
        if f & 0x80:
            at += 3 << ((f & 7) + 1)
        at += 1  # the LZW minimum code size
        while gif[at]:
            at += gif[at] + 1
        at += 1
    return out


def read_frames(data: bytes) -> list[Any]:
    """An animation's frames as Pillow shows them (each the whole picture, in RGB): what a
    viewer sees, for the tests' checks."""
    from PIL import Image, ImageSequence

    with Image.open(io.BytesIO(data)) as im:
        return [f.convert("RGB") for f in ImageSequence.Iterator(im)]


def alt_text(title: str, players: Sequence[str], moves: int, summary: str, notable: str = "",
             eyes: str = "", lang: str = "en") -> str:
    """The animation in a few sentences for screen readers: who played, how many moves, how it
    ended, and a notable moment (``summary``, ``notable`` and ``eyes`` said in ``lang`` already)."""
    w = words(lang)
    who = ", ".join(" ".join(p.split()) for p in players) or w.t("nobody")
    if eyes:
        head = w.n("An animation of a game of {title} through {eyes}, one frame a move: {who} played {n} move.",
                   "An animation of a game of {title} through {eyes}, one frame a move: {who} played {n} moves.",
                   moves, title=title, eyes=eyes, who=who)
    else:
        head = w.n("An animation of a game of {title}, one frame a move: {who} played {n} move.",
                   "An animation of a game of {title}, one frame a move: {who} played {n} moves.", moves,
                   title=title, who=who)
    out = [head]
    if summary:
        out.append(pretty_text(" ".join(summary.split())).rstrip(".") + ".")
    if notable:
        out.append(w.t("A notable moment: {moment}.", moment=pretty_text(" ".join(notable.split())).rstrip(".")))
    text = " ".join(out)
    return text if len(text) <= 1024 else text[:1023] + "…"
