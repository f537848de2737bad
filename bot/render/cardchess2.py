"""Renders of Cardchess2 (views only): embed panel, terminal text and a picture of the board, each
in one reader's language (``lang``: ``en``, ``es``, ``de``; the engine's phrases said through
``bot.i18n.words``)."""

from __future__ import annotations

import functools

from bot.engine.cards import base_code
from bot.engine.core import Hidden
from bot.i18n import Words, words
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, options_words

TITLE = "Cardchess2"
FILES = "abcdefg"
SIDE_MARK = {"South": "▲", "North": "▼"}
EN = words("en")


def _card(code, w: Words = EN) -> str:
    return "🂠" if isinstance(code, Hidden) else w.card(base_code(code))


def _side(w: Words, side: str) -> str:
    return w.t("South") if side == "South" else w.t("North")


def _colour(w: Words, side: str) -> str:
    return w.t("blue") if side == "South" else w.t("amber")


def _line(w: Words, line: object) -> str:
    return str(line) if w.english else w.line(line)


def cell_text(view, cell: str, w: Words = EN) -> str:
    """A cell in four characters: ``·`` empty, ``▲7♥`` South's face-up 7♥, ``▼##`` a face-down
    card of North's, ``▲8♥*`` the recipient's own face-down 8♥."""
    b = view.at(cell)
    if b is None:
        return "·"
    mark = SIDE_MARK[b.side]
    if b.face_up:
        return mark + _card(b.card, w)
    if isinstance(b.card, Hidden):
        return mark + "##"
    return mark + _card(b.card, w) + "*"


def board_text(view, w: Words = EN) -> str:
    """The board as South sees it: rank 7 on top, files a to g left to right."""
    lines = []
    for r in range(7, 0, -1):
        row = [cell_text(view, f"{f}{r}", w).ljust(5) for f in FILES]
        lines.append(f"{r} " + "".join(row).rstrip())
    lines.append("  " + "".join(f.ljust(5) for f in FILES).rstrip())
    return "\n".join(lines)


def _who(view, seat: int, w: Words = EN) -> str:
    return f"{view.players[seat]} ({_side(w, view.side(seat))})"


def status(view, lang: str = "en") -> str:
    w = words(lang)
    if view.over:
        return _line(w, view.result) if view.result else w.t("The game is over.")
    if view.setup:
        waiting = [view.players[s] for s, done in enumerate(view.ordered) if not done]
        if len(waiting) == 1:
            return w.t("Setup: {player} is ordering the home row.", player=waiting[0])
        return w.t("Setup: {players} are ordering the home row.", players=w.list(waiting))
    a = view.attack
    if a is not None:
        if a.stage == "enforce":
            return w.t("{who} may enforce {cell}: Σ {sigma} against defence {defence}.", who=_who(view, a.defender, w),
                       cell=a.target, sigma=a.sigma, defence=a.defence)
        return w.t("{who} may reinforce against {cell}: Σ {sigma} against {defence} + {enforcement}.",
                   who=_who(view, a.attacker, w), cell=a.target, sigma=a.sigma, defence=a.defence,
                   enforcement=a.enforcement)
    return w.t("Turn {turn}: {who} to act.", turn=view.turn, who=_who(view, view.current, w))


def counts(view, w: Words = EN) -> str:
    hands = ", ".join(f"{view.players[s]} {w.num(n)}" for s, n in enumerate(view.hand_sizes))
    decks = " + ".join(w.num(n) for n in view.deck_sizes)
    return w.t("Hands: {hands} · Deck: {decks} · Out of play: {out} · Turn {turn} of at most {cap}", hands=hands,
               decks=decks, out=view.out_size, turn=view.turn, cap=view.turn_cap)


def attack_text(view, w: Words = EN) -> str:
    a = view.attack
    if a is None:
        return ""
    parts = ", ".join(f"{w.card(base_code(s.card))} {s.cell} ({s.value})" for s in a.strikers)
    line = w.t("Attack on {card} at {cell} (defence {defence}): {attackers}; Σ {sigma}",
               card=w.card(base_code(a.target_card)), cell=a.target, defence=a.defence, attackers=parts, sigma=a.sigma)
    if a.enforcers:
        enf = ", ".join(f"{w.card(base_code(e.card))} {e.cell} (+{e.bonus})" for e in a.enforcers)
        line += w.t("; enforced by {cards}: needs {need}", cards=enf, need=a.defence + a.enforcement)
    return line


def hand_text(view, lang: str = "en") -> str:
    w = words(lang)
    if view.seat is None:
        return ""
    return w.t("Your hand: {cards}", cards=" ".join(_card(c, w) for c in view.hand) or w.t("empty"))


def text(view, lang: str = "en") -> str:
    """The terminal view."""
    w = words(lang)
    parts = [f"{TITLE} — {status(view, lang)}", board_text(view, w), counts(view, w)]
    if view.attack:
        parts.append(attack_text(view, w))
    if view.seat is not None:
        parts.append(hand_text(view, lang))
    if view.recent:
        parts.append(w.t("Last: {line}", line=_line(w, view.recent[-1])))
    return "\n".join(parts)


def panel(view, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (whose turn and what
    is asked, a seat's recent moves); ``with_picture=False``: the whole table in text."""
    w = words(lang)
    p = Panel(TITLE, clip(status(view, lang), 4096))
    if view.options:
        p.footer = w.t("Options: {options}", options=options_words(view.options))
    if with_picture:
        if view.recent and view.seat is not None:  # the table message shows the public ones above the panel
            p.add(w.t("Recent"), "\n".join(_line(w, x) for x in view.recent[-3:]))
        return p
    board = (w.t("Board (South at the bottom; ▲ South, ▼ North, ## face down; * your own face-down card)")
             if view.seat is not None else w.t("Board (South at the bottom; ▲ South, ▼ North, ## face down)"))
    p.add(board, "```\n" + board_text(view, w) + "\n```")
    p.add(w.t("Table"), counts(view, w))
    if view.attack:
        p.add(w.t("Attack"), attack_text(view, w))
    if view.seat is not None:
        p.add(w.t("Your hand"), " ".join(_card(c, w) for c in view.hand) or w.t("empty"))
    if view.recent and view.seat is not None:
        p.add(w.t("Recent"), "\n".join(_line(w, x) for x in view.recent[-5:]))
    return p


def _side_words(view, side: str, w: Words = EN) -> str:
    seat = view.south if side == "South" else 1 - view.south
    up = [f"{w.card(base_code(b.card))} {b.cell}" for b in view.board if b.side == side and b.face_up]
    own = [f"{w.card(base_code(b.card))} {b.cell}" for b in view.board
           if b.side == side and not b.face_up and not isinstance(b.card, Hidden)]
    down = [b.cell for b in view.board if b.side == side and not b.face_up and isinstance(b.card, Hidden)]
    parts = [w.t("face up {cards}", cards=", ".join(up)) if up else w.t("nothing face up")]
    if own:
        parts.append(w.t("your face-down {cards}", cards=", ".join(own)))
    if down:
        parts.append(w.t("face down at {cells}", cells=", ".join(down)))
    if view.seat == seat:
        who = w.t("{side} ({player}, you, {colour})", side=_side(w, side), player=view.players[seat],
                  colour=_colour(w, side))
    else:
        who = w.t("{side} ({player}, {colour})", side=_side(w, side), player=view.players[seat], colour=_colour(w, side))
    return f"{who}: " + "; ".join(parts) + "."


def alt_text(view, lang: str = "en") -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: whose turn, each side's cards where the viewer may see them, the hand, the counts."""
    w = words(lang)
    near = bottom_side(view)
    far = "North" if near == "South" else "South"
    drawn = (w.t("{title}, drawn from South's side.", title=TITLE) if near == "South"
             else w.t("{title}, drawn from North's side.", title=TITLE))
    parts = [f"{drawn} {status(view, lang)}", _side_words(view, near, w), _side_words(view, far, w)]
    if view.attack:
        parts.append(attack_text(view, w) + ".")
    if view.seat is not None:
        parts.append(hand_text(view, lang) + ".")
    parts.append(counts(view, w) + ".")
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


def board_top(view, lang: str = "en") -> int:
    """Where the board starts, below the status and the far side's strip."""
    lines = min(3, len(dr.wrap(status(view, lang), dr.WIDTH - 2 * dr.PAD)))
    return dr.PAD + lines * dr.LINE + 4 + dr.LINE + 14


def cell_origin(view, cell: str) -> tuple[int, int]:
    """The top-left corner of a cell's square in the picture of ``view``."""
    x, y = _xy(cell, bottom_side(view) == "North")
    return BOARD_X + x, board_top(view) + y


def _board_card(sheet: dr.Sheet, b, x0: int, y0: int, w: Words = EN) -> None:
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
        dr.text(sheet.d, (x + CARD_W / 2, y + CARD_H / 2), w.card(code), ink, red=None, anchor="mm")


def _mark(sheet: dr.Sheet, x0: int, y0: int) -> None:
    """A gold frame around a cell of the attack under way."""
    sheet.d.rectangle([x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2], outline=dr.GOLD, width=5)


def _side_label(sheet: dr.Sheet, view, side: str, w: Words = EN) -> None:
    """One player's name on a strip of their colour, at their own edge of the board."""
    seat = view.south if side == "South" else 1 - view.south
    you = " " + w.t("(you)") if view.seat == seat else ""
    label = f"{view.players[seat]}{you} · {_side(w, side)} · {_colour(w, side)}"
    y = sheet.y
    dr.put(sheet.img, dr.box(7 * CELL, dr.LINE + 7, 10, PICTURE_COLOUR[side]), BOARD_X, y)
    dr.text(sheet.d, (BOARD_X + 12, y + 4), dr.fit(label, 7 * CELL - 24), dr.WHITE)
    sheet.y += dr.LINE + 14


def picture(view, lang: str = "en") -> bytes:
    """A PNG of the board and the seat's hand, readable at 400 px wide: drawn from the viewer's
    own side (South at the bottom for the public), each card on its owner's colour, each
    player's name on a strip of that colour at their edge of the board."""
    return dr.sized(lambda height: _picture(view, height, lang), 1600)


def _picture(view, height: int, lang: str = "en") -> bytes:
    w = words(lang)
    sheet = dr.Sheet(height, mode="P")
    near = bottom_side(view)
    far = "North" if near == "South" else "South"
    flipped = near == "North"
    sheet.line(status(view, lang), dr.GOLD, limit=3)
    sheet.space(4)
    _side_label(sheet, view, far, w)
    top = sheet.y = board_top(view, lang)
    sheet.img.paste(_board_layer(flipped), (0, top))
    marked = set()
    if view.attack is not None:
        marked = {view.attack.target, *(s.cell for s in view.attack.strikers)}
    for b in view.board:
        x, y = _xy(b.cell, flipped)
        _board_card(sheet, b, BOARD_X + x, top + y, w)
    for cell in marked:
        x, y = _xy(cell, flipped)
        _mark(sheet, BOARD_X + x, top + y)
    sheet.y = top + 7 * CELL + dr.LINE + 4
    _side_label(sheet, view, near, w)
    if view.seat is not None:
        mine = [b for b in view.board if b.owner == view.seat and not b.face_up and not isinstance(b.card, Hidden)]
        if mine:
            sheet.line(w.t("Labelled backs: your face-down cards (only you see them)."), dr.MUTED, limit=2)
        sheet.line(w.t("Your hand ({count}):", count=len(view.hand)) if view.hand else w.t("Your hand: empty"), dr.GOLD)
        sheet.cards([base_code(c) for c in view.hand])
    if view.attack:
        sheet.line(attack_text(view, w) + " " + w.t("(gold frames)"), limit=4)
    sheet.line(counts(view, w), limit=3)
    if view.recent:
        sheet.line(w.t("Last: {line}", line=_line(w, view.recent[-1])), dr.MUTED, limit=3)
    return sheet.png()


def seat_picture(view, lang: str = "en") -> bytes | None:
    """A seat's picture: the board with its own face-down cards named on their backs, and its hand."""
    if view.seat is None:
        return None
    return picture(view, lang)


def warm() -> None:
    """Draw the board, its card faces and backs once (a fresh picture worker calls this)."""
    dr.faces(CARD_W, CARD_H)
    for colour in BACK_COLOUR.values():
        dr.back(CARD_W, CARD_H, colour)
    for flipped in (False, True):
        _board_layer(flipped)
