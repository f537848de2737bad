"""Renders of Cardchess2 (views only): embed panel, terminal text and a picture of the board."""

from __future__ import annotations

from bot.engine.cards import base_code, pretty
from bot.engine.core import Hidden
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, options_words

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
    own = "; * your own face-down card" if view.seat is not None else ""
    p.add(f"Board (South at the bottom; ▲ South, ▼ North, ## face down{own})", "```\n" + board_text(view) + "\n```")
    p.add("Table", counts(view))
    if view.attack:
        p.add("Attack", attack_text(view))
    if view.seat is not None:
        p.add("Your hand", " ".join(_card(c) for c in view.hand) or "empty")
    if view.recent and view.seat is not None:  # the table message shows the public ones above the panel
        p.add("Recent", "\n".join(view.recent[-5:]))
    p.footer = " · ".join(([("Options: " + options_words(view.options))] if view.options else []) + [CREDIT])
    return p


CELL = 104  # one board cell at the design width
BOARD_X = (dr.WIDTH - 7 * CELL) // 2 + 10
PICTURE_COLOUR = {"South": (40, 95, 175), "North": (205, 110, 20)}  # blue and amber: never a suit's red


def _board_card(sheet: dr.Sheet, b, x0: int, y0: int) -> None:
    colour = PICTURE_COLOUR[b.side]
    w, h = CELL - 16, CELL - 8
    x, y = x0 + 8, y0 + 4
    if b.face_up:
        sheet.d.rounded_rectangle([x0 + 3, y0 + 1, x0 + CELL - 4, y0 + CELL - 2], 10, fill=colour)
        dr.card(sheet.img, base_code(b.card), x, y, w, h)
    else:
        dr.put(sheet.img, dr.back(w, h, colour), x, y)
        if not isinstance(b.card, Hidden):  # the recipient's own face-down card, named on a label
            code = base_code(b.card)
            sheet.d.rounded_rectangle([x + 10, y + 18, x + w - 10, y + h - 18], 6, fill=dr.WHITE)
            ink = dr.RED if code[1] in "HD" else dr.BLACK
            dr.text(sheet.d, (x + w / 2, y + h / 2), pretty(code), ink, red=None, anchor="mm")
    # the owner's side: a triangle pointing to the owner's goal row
    cx, ty = x0 + CELL - 20, y0 + 10
    pts = [(cx, ty), (cx - 9, ty + 14), (cx + 9, ty + 14)] if b.side == "South" else \
        [(cx, ty + 14), (cx - 9, ty), (cx + 9, ty)]
    sheet.d.polygon(pts, fill=colour if b.face_up else dr.WHITE, outline=dr.WHITE)


def picture(view) -> bytes:
    """A PNG of the board and the seat's hand, readable at 400 px wide."""
    sheet = dr.Sheet(mode="P")
    d = sheet.d
    south, north = view.players[view.south], view.players[1 - view.south]
    sheet.line(f"{TITLE}: {south} South ▲ · {north} North ▼", dr.GOLD, limit=2)
    sheet.space(4)
    top = sheet.y
    for r in range(7):
        y0 = top + (6 - r) * CELL
        dr.text(d, (BOARD_X - 14, y0 + CELL / 2), str(r + 1), anchor="rm")
        for fi in range(7):
            x0 = BOARD_X + fi * CELL
            shade = (70, 150, 100) if (r + fi) % 2 else (58, 134, 88)
            d.rectangle([x0, y0, x0 + CELL - 1, y0 + CELL - 1], fill=shade)
            b = view.at(f"{FILES[fi]}{r + 1}")
            if b is not None:
                _board_card(sheet, b, x0, y0)
    for fi, f in enumerate(FILES):
        dr.text(d, (BOARD_X + fi * CELL + CELL / 2, top + 7 * CELL + 4), f, anchor="ma")
    sheet.y = top + 7 * CELL + dr.LINE + 8
    if view.seat is not None:
        mine = [b for b in view.board if b.owner == view.seat and not b.face_up and not isinstance(b.card, Hidden)]
        if mine:
            sheet.line("Labelled backs: your face-down cards (only you see them).", dr.MUTED, limit=2)
        sheet.line(f"Your hand ({len(view.hand)}):" if view.hand else "Your hand: empty", dr.GOLD)
        sheet.cards([base_code(c) for c in view.hand])
    sheet.line(status(view), dr.GOLD, limit=3)
    if view.attack:
        sheet.line(attack_text(view), limit=4)
    sheet.line(counts(view), limit=3)
    if view.recent:
        sheet.line("Last: " + view.recent[-1], dr.MUTED, limit=3)
    return sheet.png()


def seat_picture(view) -> bytes | None:
    """A seat's picture: the board with its own face-down cards named on their backs, and its hand."""
    if view.seat is None:
        return None
    return picture(view)


def warm() -> None:
    """Draw the board's card faces and backs once (a fresh picture worker calls this)."""
    dr.faces(CELL - 16, CELL - 8)
    for colour in PICTURE_COLOUR.values():
        dr.back(CELL - 16, CELL - 8, colour)
