"""Renders of Cardchess2 (views only): embed panel, terminal text and a picture of the board."""

from __future__ import annotations

import functools

from bot.engine.cards import base_code, pretty
from bot.engine.core import Hidden
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, options_words

TITLE = "Cardchess2"
FILES = "abcdefg"
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


def panel(view, *, with_picture: bool = True) -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (whose turn and what
    is asked, a seat's recent moves); ``with_picture=False``: the whole table in text."""
    p = Panel(TITLE, clip(status(view), 4096))
    if view.options:
        p.footer = "Options: " + options_words(view.options)
    if with_picture:
        if view.recent and view.seat is not None:  # the table message shows the public ones above the panel
            p.add("Recent", "\n".join(view.recent[-3:]))
        return p
    own = "; * your own face-down card" if view.seat is not None else ""
    p.add(f"Board (South at the bottom; ▲ South, ▼ North, ## face down{own})", "```\n" + board_text(view) + "\n```")
    p.add("Table", counts(view))
    if view.attack:
        p.add("Attack", attack_text(view))
    if view.seat is not None:
        p.add("Your hand", " ".join(_card(c) for c in view.hand) or "empty")
    if view.recent and view.seat is not None:
        p.add("Recent", "\n".join(view.recent[-5:]))
    return p


def _side_words(view, side: str) -> str:
    seat = view.south if side == "South" else 1 - view.south
    you = ", you" if view.seat == seat else ""
    up = [f"{pretty(base_code(b.card))} {b.cell}" for b in view.board if b.side == side and b.face_up]
    own = [f"{pretty(base_code(b.card))} {b.cell}" for b in view.board
           if b.side == side and not b.face_up and not isinstance(b.card, Hidden)]
    down = [b.cell for b in view.board if b.side == side and not b.face_up and isinstance(b.card, Hidden)]
    parts = [f"face up {', '.join(up)}" if up else "nothing face up"]
    if own:
        parts.append(f"your face-down {', '.join(own)}")
    if down:
        parts.append(f"face down at {', '.join(down)}")
    return f"{side} ({view.players[seat]}{you}, {COLOUR_WORD[side]}): " + "; ".join(parts) + "."


def alt_text(view) -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: whose turn, each side's cards where the viewer may see them, the hand, the counts."""
    near = bottom_side(view)
    far = "North" if near == "South" else "South"
    parts = [f"{TITLE}, drawn from {near}'s side. {status(view)}", _side_words(view, near), _side_words(view, far)]
    if view.attack:
        parts.append(attack_text(view) + ".")
    if view.seat is not None:
        parts.append(hand_text(view) + ".")
    parts.append(counts(view) + ".")
    return clip(" ".join(parts), 1000)


CELL = 104  # one board cell at the design width
BOARD_X = (dr.WIDTH - 7 * CELL) // 2 + 10
INSET = 9  # the owner's colour shows this wide around a card in its cell
CARD_W, CARD_H = CELL - 2 * INSET, CELL - 2 * INSET
PICTURE_COLOUR = {"South": dr.SOUTH, "North": dr.NORTH}  # blue and amber: never a suit's red
BACK_COLOUR = {"South": dr.SOUTH_DARK, "North": dr.NORTH_DARK}
COLOUR_WORD = {"South": "blue", "North": "amber"}


def bottom_side(view) -> str:
    """The side drawn at the bottom: the viewer's own (South for the public)."""
    return view.side(view.seat) if view.seat is not None else "South"


def _xy(cell: str, flipped: bool) -> tuple[int, int]:
    """Where a cell's square starts, relative to the board's top-left corner."""
    fi, r = FILES.index(cell[0]), int(cell[1]) - 1
    if flipped:  # North at the bottom: the board turned half a turn
        return (6 - fi) * CELL, r * CELL
    return fi * CELL, (6 - r) * CELL


# bench: picture CPU p99 — the empty board drawn once an orientation
@functools.lru_cache(maxsize=2)
def _board_layer(flipped: bool):
    """The empty board with its rank and file labels, drawn once per orientation."""

    img = dr.canvas(dr.WIDTH, 7 * CELL + dr.LINE)
    d = dr.draw_on(img)
    for fi, f in enumerate(FILES):
        for r in range(7):
            x, y = _xy(f"{f}{r + 1}", flipped)
            shade = dr.CELL_LIGHT if (r + fi) % 2 else dr.CELL_DARK
            d.rectangle([BOARD_X + x, y, BOARD_X + x + CELL - 1, y + CELL - 1], fill=shade)
    for r in range(7):
        _, y = _xy(f"a{r + 1}", flipped)
        dr.text(d, (BOARD_X - 14, y + CELL / 2), str(r + 1), anchor="rm")
    for f in FILES:
        x, _ = _xy(f"{f}1", flipped)
        dr.text(d, (BOARD_X + x + CELL / 2, 7 * CELL + 4), f, anchor="ma")
    return img


def board_top(view) -> int:
    """Where the board starts, below the status and the far side's strip."""
    lines = min(3, len(dr.wrap(status(view), dr.WIDTH - 2 * dr.PAD)))
    return dr.PAD + lines * dr.LINE + 4 + dr.LINE + 14


def cell_origin(view, cell: str) -> tuple[int, int]:
    """The top-left corner of a cell's square in the picture of ``view``."""
    x, y = _xy(cell, bottom_side(view) == "North")
    return BOARD_X + x, board_top(view) + y


def _board_card(sheet: dr.Sheet, b, x0: int, y0: int) -> None:
    """A card in its cell: the whole cell in its owner's colour, the card inside it."""
    sheet.d.rectangle([x0, y0, x0 + CELL - 1, y0 + CELL - 1], fill=PICTURE_COLOUR[b.side])
    x, y = x0 + INSET, y0 + INSET
    if b.face_up:
        dr.card(sheet.img, base_code(b.card), x, y, CARD_W, CARD_H)
        return
    dr.put(sheet.img, dr.back(CARD_W, CARD_H, BACK_COLOUR[b.side]), x, y)
    if not isinstance(b.card, Hidden):  # the recipient's own face-down card, named on a label
        code = base_code(b.card)
        dr.put(sheet.img, dr.box(CARD_W - 15, CARD_H - 43, 6, dr.WHITE), x + 8, y + 22)
        ink = dr.RED if code[1] in "HD" else dr.BLACK
        dr.text(sheet.d, (x + CARD_W / 2, y + CARD_H / 2), pretty(code), ink, red=None, anchor="mm")


def _mark(sheet: dr.Sheet, x0: int, y0: int) -> None:
    """A gold frame around a cell of the attack under way."""
    sheet.d.rectangle([x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2], outline=dr.GOLD, width=5)


def _side_label(sheet: dr.Sheet, view, side: str) -> None:
    """One player's name on a strip of their colour, at their own edge of the board."""
    seat = view.south if side == "South" else 1 - view.south
    you = " (you)" if view.seat == seat else ""
    label = f"{view.players[seat]}{you} · {side} · {COLOUR_WORD[side]}"
    y = sheet.y
    dr.put(sheet.img, dr.box(7 * CELL, dr.LINE + 7, 10, PICTURE_COLOUR[side]), BOARD_X, y)
    dr.text(sheet.d, (BOARD_X + 12, y + 4), dr.fit(label, 7 * CELL - 24), dr.WHITE)
    sheet.y += dr.LINE + 14


def picture(view) -> bytes:
    """A PNG of the board and the seat's hand, readable at 400 px wide: drawn from the viewer's
    own side (South at the bottom for the public), each card on its owner's colour, each
    player's name on a strip of that colour at their edge of the board."""
    return dr.sized(lambda height: _picture(view, height), 1600)


def _picture(view, height: int) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    near = bottom_side(view)
    far = "North" if near == "South" else "South"
    flipped = near == "North"
    sheet.line(status(view), dr.GOLD, limit=3)
    sheet.space(4)
    _side_label(sheet, view, far)
    top = sheet.y = board_top(view)
    sheet.img.paste(_board_layer(flipped), (0, top))
    marked = set()
    if view.attack is not None:
        marked = {view.attack.target, *(s.cell for s in view.attack.strikers)}
    for b in view.board:
        x, y = _xy(b.cell, flipped)
        _board_card(sheet, b, BOARD_X + x, top + y)
    for cell in marked:
        x, y = _xy(cell, flipped)
        _mark(sheet, BOARD_X + x, top + y)
    sheet.y = top + 7 * CELL + dr.LINE + 4
    _side_label(sheet, view, near)
    if view.seat is not None:
        mine = [b for b in view.board if b.owner == view.seat and not b.face_up and not isinstance(b.card, Hidden)]
        if mine:
            sheet.line("Labelled backs: your face-down cards (only you see them).", dr.MUTED, limit=2)
        sheet.line(f"Your hand ({len(view.hand)}):" if view.hand else "Your hand: empty", dr.GOLD)
        sheet.cards([base_code(c) for c in view.hand])
    if view.attack:
        sheet.line(attack_text(view) + " (gold frames)", limit=4)
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
    """Draw the board, its card faces and backs once (a fresh picture worker calls this)."""
    dr.faces(CARD_W, CARD_H)
    for colour in BACK_COLOUR.values():
        dr.back(CARD_W, CARD_H, colour)
    for flipped in (False, True):
        _board_layer(flipped)
