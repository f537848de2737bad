"""Renders of Cardchess2 (views only): embed panel, terminal text and a picture of the board."""

from __future__ import annotations

import io
import textwrap

from bot.engine.cards import base_code, pretty
from bot.engine.core import Hidden
from bot.render.drawing import font, suit_shape
from bot.render.panel import Panel, clip

TITLE = "Cardchess2"
CREDIT = "Cardchess2 (an anonymous forum post)"
FILES = "abcdefg"
SIDE_COLOUR = {"South": (52, 101, 164), "North": (190, 60, 50)}
SIDE_MARK = {"South": "▲", "North": "▼"}


def _card(code) -> str:
    return "🂠" if isinstance(code, Hidden) else pretty(base_code(code))


def cell_text(view, cell: str) -> str:
    """A cell in four characters: ``·`` empty, ``▲7♥`` South's face-up 7♥, ``▼##`` a face-down
    card of North's, ``▲8♥*`` the recipient's own face-down 8♥."""
    b = view.at(cell)
    if b is None:
        return "·"
    mark = SIDE_MARK[b.side]
    if b.face_up:
        return mark + _card(b.card)
    if isinstance(b.card, Hidden):
        return mark + "##"
    return mark + _card(b.card) + "*"


def board_text(view) -> str:
    """The board as South sees it: rank 7 on top, files a to g left to right."""
    lines = []
    for r in range(7, 0, -1):
        row = [cell_text(view, f"{f}{r}").ljust(5) for f in FILES]
        lines.append(f"{r} " + "".join(row).rstrip())
    lines.append("  " + "".join(f.ljust(5) for f in FILES).rstrip())
    return "\n".join(lines)


def _who(view, seat: int) -> str:
    return f"{view.players[seat]} ({view.side(seat)})"


def status(view) -> str:
    if view.over:
        return view.result or "The game is over."
    if view.setup:
        waiting = [view.players[s] for s, done in enumerate(view.ordered) if not done]
        return f"Setup: {' and '.join(waiting)} {'is' if len(waiting) == 1 else 'are'} ordering the home row."
    a = view.attack
    if a is not None:
        if a.stage == "enforce":
            return (f"{_who(view, a.defender)} may enforce {a.target}: Σ {a.sigma} against defence {a.defence}.")
        return (f"{_who(view, a.attacker)} may reinforce against {a.target}: Σ {a.sigma} against "
                f"{a.defence} + {a.enforcement}.")
    return f"Turn {view.turn}: {_who(view, view.current)} to act."


def counts(view) -> str:
    hands = ", ".join(f"{view.players[s]} {n}" for s, n in enumerate(view.hand_sizes))
    decks = " + ".join(str(n) for n in view.deck_sizes)
    return f"Hands: {hands} · Deck: {decks} · Out of play: {view.out_size} · Turn {view.turn} of at most {view.turn_cap}"


def attack_text(view) -> str:
    a = view.attack
    if a is None:
        return ""
    parts = ", ".join(f"{pretty(base_code(s.card))} {s.cell} ({s.value})" for s in a.strikers)
    line = f"Attack on {pretty(base_code(a.target_card))} at {a.target} (defence {a.defence}): {parts}; Σ {a.sigma}"
    if a.enforcers:
        enf = ", ".join(f"{pretty(base_code(e.card))} {e.cell} (+{e.bonus})" for e in a.enforcers)
        line += f"; enforced by {enf}: needs {a.defence + a.enforcement}"
    return line


def hand_text(view) -> str:
    if view.seat is None:
        return ""
    return "Your hand: " + (" ".join(_card(c) for c in view.hand) or "empty")


def text(view) -> str:
    """The terminal view."""
    parts = [f"{TITLE} — {status(view)}", board_text(view), counts(view)]
    if view.attack:
        parts.append(attack_text(view))
    if view.seat is not None:
        parts.append(hand_text(view))
    if view.recent:
        parts.append("Last: " + view.recent[-1])
    return "\n".join(parts)


def panel(view) -> Panel:
    """The embed: a text alternative of the picture."""
    p = Panel(TITLE, clip(status(view), 4096))
    p.add("Board (South at the bottom; ▲ South, ▼ North, ## face down)", "```\n" + board_text(view) + "\n```")
    p.add("Table", counts(view))
    if view.attack:
        p.add("Attack", attack_text(view))
    if view.seat is not None:
        p.add("Your hand", " ".join(_card(c) for c in view.hand) or "empty")
    if view.recent:
        p.add("Recent", "\n".join(view.recent[-5:]))
    variants = [o for o in view.options]
    p.footer = " · ".join(([("Options: " + ", ".join(variants))] if variants else []) + [CREDIT])
    return p


def picture(view) -> bytes:
    """A PNG of the board (readable at 400 px wide)."""
    from PIL import Image, ImageDraw

    cell, margin, top = 64, 26, 34
    width = margin * 2 + cell * 7
    info_lines = [status(view), counts(view)]
    if view.attack:
        info_lines.append(attack_text(view))
    if view.seat is not None:
        info_lines.append(hand_text(view))
    if view.recent:
        info_lines.append("Last: " + view.recent[-1])
    info_lines = [part for line in info_lines for part in textwrap.wrap(line, 54)]
    height = top + cell * 7 + margin + 22 * len(info_lines) + 30
    img = Image.new("RGB", (width, height), (47, 125, 79))
    d = ImageDraw.Draw(img)
    small, big = font(14), font(22)
    d.text((margin, 8), f"{TITLE} · {view.players[view.south]} South ▲ · "
                        f"{view.players[1 - view.south]} North ▼"[:60], fill="white", font=small)
    for i, f in enumerate(FILES):
        d.text((margin + i * cell + cell // 2 - 4, top + 7 * cell + 4), f, fill="white", font=small)
    for r in range(7):
        d.text((6, top + (6 - r) * cell + cell // 2 - 8), str(r + 1), fill="white", font=small)
    for r in range(7):
        for fi in range(7):
            x0, y0 = margin + fi * cell, top + (6 - r) * cell
            shade = (70, 150, 100) if (r + fi) % 2 else (60, 138, 90)
            d.rectangle([x0, y0, x0 + cell - 1, y0 + cell - 1], fill=shade)
            b = view.at(f"{FILES[fi]}{r + 1}")
            if b is None:
                continue
            colour = SIDE_COLOUR[b.side]
            box = [x0 + 4, y0 + 4, x0 + cell - 5, y0 + cell - 5]
            if b.face_up:
                d.rounded_rectangle(box, 6, fill="white", outline=colour, width=4)
            else:
                d.rounded_rectangle(box, 6, fill=colour, outline=(255, 255, 255), width=2)
                for k in range(x0 + 8, x0 + cell - 8, 8):
                    d.line([k, y0 + 8, k, y0 + cell - 9], fill=tuple(min(255, c + 40) for c in colour))
            # the owner's side: a small triangle pointing to the owner's goal row
            cx = x0 + cell - 13
            if b.side == "South":
                d.polygon([(cx, y0 + 8), (cx - 5, y0 + 16), (cx + 5, y0 + 16)], fill=colour if b.face_up else "white")
            else:
                d.polygon([(cx, y0 + 16), (cx - 5, y0 + 8), (cx + 5, y0 + 8)], fill=colour if b.face_up else "white")
            if isinstance(b.card, Hidden):
                continue
            code = base_code(b.card)
            red = code[1] in "HD"
            ink = (200, 30, 30) if red else (20, 20, 20)
            if not b.face_up:  # the recipient's own face-down card, named on a light label
                d.rounded_rectangle([x0 + 8, y0 + 14, x0 + cell - 9, y0 + cell - 9], 4, fill=(235, 235, 235))
            rank = "10" if code[0] == "T" else code[0]
            d.text((x0 + 10, y0 + 16), rank, fill=ink, font=big)
            suit_shape(d, code[1], x0 + cell - 22, y0 + cell - 22, 9, ink)
    y = top + 7 * cell + 26
    for line in info_lines:
        d.text((margin - 16, y), line, fill="white", font=small)
        y += 22
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()
