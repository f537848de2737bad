"""Renders of Court Wars (from its typed view only): embed panel, terminal text and a picture."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.cards import SUIT_SYMBOL, is_joker, pretty
from bot.render.panel import Panel, clip
from bot.render.drawing import font as _font, suit_shape as _suit_shape

if TYPE_CHECKING:  # the renderer reads the typed view only
    from bot.engine.court_wars.view import CourtWarsView, PositionView, SeatView

TITLE = "Court Wars"
CREDIT = "Court Wars by Kroc Camen and Prenuntius (CC BY 3.0)"
PHASE_HINT = {
    "build": "draws for the opening build (`draw`)",
    "guard": "places the drawn guard {card} (`place K/Q/J`) or discards it (`discard`)",
    "joker": "puts the joker on a defeated position (`joker K/Q/J`) or discards it (`discard`)",
    "turn": "defends (`defend`) or attacks (`attack SOURCE M SEAT:POS R`)",
    "ace": "drew an ace: attacks (`attack …`) or skips (`skip`), then draws again",
}
STAGE_WORDS = {  # the picture's plain-words hint
    "build": "to pick",
    "guard": "to place or discard the drawn guard",
    "joker": "to place or discard the joker",
    "turn": "to defend or attack",
    "ace": "drew an ace: to attack or skip",
}


def _cards(cs: Sequence[str]) -> str:
    return " ".join(pretty(c) for c in cs)


def stack_text(pos: PositionView) -> str:
    """``K♠ [8♣ 4♦] A12 D22``, ``Q♠+🃏 [5♥] A5 D15`` or ``J♠(x)``."""
    court = pretty(pos.court)
    if pos.state == "defeated":
        return f"{court}(x)"
    if pos.state == "jokered":
        court = f"{court}(x)+{pretty(pos.joker or 'JK')}"
    return f"{court} [{_cards(pos.guards)}] A{pos.attack} D{pos.defence}"


def court_line(view: CourtWarsView, s: SeatView) -> str:
    """One player's court on a line: ``♠ Ana — K♠ [8♣ 4♦] A12 D22 · Q♠ [] A0 D10 · J♠(x)``."""
    flag = " (eliminated)" if s.eliminated else ""
    stacks = " · ".join(stack_text(p) for p in s.positions)
    return f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}{flag} — {stacks}"


def _current_name(view: CourtWarsView) -> str:
    return view.players[view.current] if view.current is not None else ""


def status(view: CourtWarsView) -> str:
    """Whose turn it is and what they must do, or how the game ended."""
    if view.over:
        return view.result or "The game is over."
    hint = PHASE_HINT.get(view.stage, "").format(card=pretty(view.pending) if view.pending else "")
    stage = f"Opening build, round {view.build_round} of 3. " if view.build_round else ""
    return f"{stage}**{_current_name(view)}** {hint}."


def piles_text(view: CourtWarsView, top: int = 6) -> str:
    discard = view.discard
    shown = _cards(discard[-top:]) if discard else "empty"
    more = "… " if len(discard) > top else ""
    line = f"Discard ({view.discard_size}): {more}{shown}{' ← top' if discard else ''}"
    draw = f"Draw pile: {view.draw_size}"
    if view.draw_pile:
        nxt = view.draw_pile[:top]
        draw += f" (order public, next: {_cards(nxt)}{' …' if len(view.draw_pile) > top else ''})"
    return f"{line}\n{draw}"


def footer(view: CourtWarsView) -> str:
    parts = []
    limit = view.rounds_limit
    if limit:
        parts.append(f"Rounds without a defeat: {view.quiet_rounds}/{limit}")
    variants = [o for o in view.options if "=" not in o]
    if variants:
        parts.append("Variants: " + ", ".join(variants))
    parts.append(CREDIT)
    return " · ".join(parts)


def panel(view: CourtWarsView) -> Panel:
    if view.over:
        title = f"{TITLE} — game over"
    elif view.build_round:
        title = f"{TITLE} — opening build, round {view.build_round}"
    else:
        title = f"{TITLE} — {_current_name(view)}'s turn"
    recent = list(view.recent[-4:])
    desc = "\n".join(recent + ["", status(view)]) if recent else status(view)
    p = Panel(title=clip(title, 256), description=clip(desc, 4096), footer=clip(footer(view), 2048))
    for s in view.seats:
        marker = " ◀" if not view.over and s.seat == view.current else ""
        flag = " — eliminated" if s.eliminated else ""
        name = f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}{flag}{marker}"
        value = "\n".join(f"`{p_.ref}` {stack_text(p_)}" for p_ in s.positions)
        p.add(name, value)
    p.add("Piles", piles_text(view))
    return p


def text(view: CourtWarsView) -> str:
    lines = [f"== {TITLE} =="]
    for s in view.seats:
        marker = "> " if not view.over and s.seat == view.current else "  "
        lines.append(marker + court_line(view, s))
    lines.append(piles_text(view))
    if view.recent:
        lines.append("Recent: " + " | ".join(view.recent[-3:]))
    lines.append(status(view).replace("**", ""))
    lines.append(footer(view))
    return "\n".join(lines)


# ----- picture -------------------------------------------------------------------------
W = 900
HEADER = 78
ROW = 152
CARD_W, CARD_H = 60, 86
FELT = (31, 97, 61)
FELT_DARK = (24, 78, 49)
RED = (200, 30, 40)
BLACK = (20, 20, 20)
WHITE = (250, 250, 245)
GOLD = (240, 200, 80)
BACK = (120, 30, 40)


def _card(d, x: float, y: float, card: str, fonts, w: int = CARD_W, h: int = CARD_H) -> None:
    d.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=WHITE, outline=(60, 60, 60), width=1)
    if is_joker(card):
        d.text((x + w / 2, y + h / 2 - 8), "JOKER", fill=(120, 40, 160), font=fonts["tiny"], anchor="mm")
        cx, cy, r = x + w / 2, y + h / 2 + 12, 7
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=GOLD)
        return
    rank, suit = card[0], card[1]
    colour = RED if suit in "HD" else BLACK
    label = "10" if rank == "T" else rank
    d.text((x + 5, y + 3), label, fill=colour, font=fonts["rank"])
    _suit_shape(d, suit, x + 12, y + 31, 6, colour)
    if rank in "JQK":
        d.text((x + w / 2 + 6, y + h / 2 + 8), label, fill=colour, font=fonts["big"], anchor="mm")
    else:
        _suit_shape(d, suit, x + w / 2 + 6, y + h / 2 + 10, 13, colour)


def _back(d, x: float, y: float, w: int = CARD_W, h: int = CARD_H) -> None:
    d.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=BACK, outline=WHITE, width=2)
    d.rounded_rectangle([x + 6, y + 6, x + w - 6, y + h - 6], radius=4, outline=(220, 170, 170), width=1)


def picture(view: CourtWarsView) -> bytes | None:
    from PIL import Image, ImageDraw

    seats = view.seats
    height = HEADER + ROW * len(seats) + 8
    img = Image.new("RGB", (W, height), FELT)
    d = ImageDraw.Draw(img)
    fonts = {"rank": _font(17), "big": _font(30), "small": _font(13), "tiny": _font(11), "name": _font(17), "title": _font(22)}

    # Header: title, whose turn, the piles.
    d.text((16, 12), TITLE, fill=WHITE, font=fonts["title"])
    if view.over:
        line = view.result or "Game over"
    elif view.build_round:
        line = f"Opening build, round {view.build_round} — {_current_name(view)} to pick"
    else:
        line = f"{_current_name(view)} {STAGE_WORDS.get(view.stage, 'to play')}"
    d.text((16, 44), line[:80], fill=GOLD, font=fonts["small"])
    if view.rounds_limit:
        d.text((16, 60), f"Rounds without a defeat: {view.quiet_rounds}/{view.rounds_limit}",
               fill=WHITE, font=fonts["small"])
    sw, sh = 44, 62
    px = W - 250
    if view.discard:
        _card(d, px, 8, view.discard[-1], fonts, sw, sh)
    else:
        d.rounded_rectangle([px, 8, px + sw, 8 + sh], radius=5, outline=WHITE, width=1)
    d.text((px + sw + 8, 24), f"Discard\n{view.discard_size}", fill=WHITE, font=fonts["small"])
    px += 120
    if view.draw_size:
        _back(d, px, 8, sw, sh)
    else:
        d.rounded_rectangle([px, 8, px + sw, 8 + sh], radius=5, outline=WHITE, width=1)
    d.text((px + sw + 8, 24), f"Draw\n{view.draw_size}", fill=WHITE, font=fonts["small"])
    if view.pending:
        _card(d, W - 320, 8, view.pending, fonts, sw, sh)
        d.text((W - 320 + sw / 2, 8 + sh + 2), "drawn", fill=GOLD, font=fonts["small"], anchor="mt")

    for row, s in enumerate(seats):
        y = HEADER + row * ROW
        band = FELT_DARK if row % 2 == 0 else FELT
        d.rectangle([0, y, W, y + ROW - 4], fill=band)
        acting = not view.over and s.seat == view.current
        colour = RED if s.suit in "HD" else BLACK
        d.ellipse([12, y + 5, 32, y + 25], fill=WHITE)
        _suit_shape(d, s.suit, 22, y + 15, 7, colour)
        name = f"P{s.seat + 1} {s.name}"
        if s.eliminated:
            name += " (eliminated)"
        if acting:
            name += "  (to act)"
        d.text((40, y + 6), name[:60], fill=GOLD if acting else WHITE, font=fonts["name"])
        for i, pos in enumerate(s.positions):
            x = 16 + i * 294
            cy = y + 32
            start = x + CARD_W + 6
            if pos.state == "alive":
                _card(d, x, cy, pos.court, fonts)
            else:
                _back(d, x, cy)
                if pos.state == "jokered":
                    _card(d, x + 12, cy + 6, pos.joker or "JK", fonts)
                    start += 18
            guards = pos.guards
            if guards:
                step = min(24.0, (x + 286 - CARD_W - start) / max(1, len(guards) - 1))
                for k, g in enumerate(guards):
                    _card(d, start + k * step, cy, g, fonts)
            if pos.state == "defeated":
                label = f"{pos.letter}  defeated"
            else:
                label = f"{pos.letter}  Attack {pos.attack}  Defence {pos.defence}"
            d.text((x, cy + CARD_H + 6), label, fill=WHITE, font=fonts["small"])
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
