"""A tournament's standings as a picture: place, player, points, Buchholz, games, on the felt.

Made from plain rows (the Discord layer's standings), never from the tables or the store.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import words as words_of
from bot.render.drawing import FELT, FELT_DARK, FELT_LIGHT, GOLD, MUTED, PAD, WHITE, draw_on, font, words

ROW = 40
MAX_ROWS = 32


@dataclass(frozen=True)
class Line:
    place: int
    name: str
    points: float
    buchholz: float
    record: str  # e.g. "3–1–0" (won, shared, lost)
    note: str = ""  # dropped, out, bye…


def _num(x: float) -> str:
    return f"{x:g}" if x != int(x) else str(int(x))


def standings_png(title: str, subtitle: str, lines: Sequence[Line], *, final: bool = False, lang: str = "en") -> bytes:
    """The standings as a PNG (at most :data:`MAX_ROWS` rows; the rest are counted below); its column
    heads in ``lang`` (the title and the lines come said already)."""
    w = words_of(lang)
    shown = list(lines[:MAX_ROWS])
    width = 800
    head = 2 * ROW + PAD
    height = head + ROW * (len(shown) + 1) + (ROW if len(lines) > len(shown) else 0) + PAD
    img = Image.new("RGB", (width, height), FELT)
    d = draw_on(img)
    big, small = font(30), font(22)
    d.text((PAD, PAD), words(title)[:48], fill=GOLD if final else WHITE, font=big)
    d.text((PAD, PAD + ROW), words(subtitle)[:64], fill=MUTED, font=small)
    cols = [(PAD, "#"), (PAD + 56, w.tp("standings column", "Player")), (470, w.tp("standings column", "Points")),
            (580, w.tp("standings column", "Buchholz")), (710, w.tp("standings column", "W–D–L"))]
    y = head
    d.rectangle((0, y, width, y + ROW), fill=FELT_DARK)
    for x, label in cols:
        d.text((x, y + 8), label, fill=MUTED, font=small)
    for k, line in enumerate(shown):
        y = head + ROW * (k + 1)
        if k % 2:
            d.rectangle((0, y, width, y + ROW), fill=FELT_LIGHT)
        ink = GOLD if final and line.place == 1 else WHITE
        name = words(line.name)
        if line.note:
            name = f"{name} ({line.note})"
        while name and d.textlength(name, font=small) > 400:
            name = name[:-2] + "…" if len(name) > 2 else ""
        cells = [str(line.place), name, _num(line.points), _num(line.buchholz), line.record]
        for (x, _), text in zip(cols, cells, strict=True):
            d.text((x, y + 8), text, fill=ink, font=small)
    if len(lines) > len(shown):
        d.text((PAD, height - PAD - ROW + 8), w.t("and {count} more", count=len(lines) - len(shown)), fill=MUTED, font=small)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
