"""Drawing helpers shared by the table pictures (Pillow): fonts and suit pips."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=16)
def font(size: int):
    from PIL import ImageFont

    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def suit_shape(d, s: str, cx: float, cy: float, r: float, fill) -> None:
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
