"""Renders of Court Wars (from its typed view only): embed panel, terminal text and a picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.cards import SUIT_SYMBOL, pretty
from bot.render.panel import Panel, clip
from bot.render import drawing as dr

if TYPE_CHECKING:  # the renderer reads the typed view only
    from bot.engine.court_wars.view import CourtWarsView, PositionView, SeatView

TITLE = "Court Wars"
PHASE_HINT = {
    "build": "draws for the opening build",
    "guard": "places the drawn guard {card} on one of their stacks, or discards it",
    "joker": "puts the joker on one of their defeated positions, or discards it",
    "turn": "defends (draws a card) or attacks",
    "ace": "drew an ace: attacks or skips the attack, then draws again",
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


def stack_text(pos: PositionView, left: bool = False) -> str:
    """``K♠ with 8♣ 4♦ (attack 12, defence 22)``, ``Q♠ defeated, 🃏 with 5♥ (attack 5, defence 15)``
    or ``J♠ defeated``; a position of a player who left the game (``left``), ``J♠ out``."""
    court = pretty(pos.court)
    if left and pos.state == "defeated":  # face down because its player left, not defeated in play
        return f"{court} out"
    if pos.state == "defeated":
        return f"{court} defeated"
    if pos.state == "jokered":
        court = f"{court} defeated, {pretty(pos.joker or 'JK')}"
    guards = f"with {_cards(pos.guards)}" if pos.guards else "unguarded"
    return f"{court} {guards} (attack {pos.attack}, defence {pos.defence})"


def court_line(view: CourtWarsView, s: SeatView) -> str:
    """One player's court on a line: ``♠ P1 Ana — K♠ with 8♣ 4♦ (attack 12, defence 22) · J♠ defeated``."""
    flag = " (left the game)" if s.left else " (eliminated)" if s.eliminated else ""
    stacks = " · ".join(stack_text(p, s.left) for p in s.positions)
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
    return " · ".join(parts)


def panel(view: CourtWarsView, *, with_picture: bool = True) -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (whose turn and what
    is asked, a seat's recent moves); ``with_picture=False``: every court and pile in fields."""
    if view.over:
        title = f"{TITLE} — game over"
    elif view.build_round:
        title = f"{TITLE} — opening build, round {view.build_round}"
    else:
        title = f"{TITLE} — {_current_name(view)}'s turn"
    # The public table message shows the recent moves above the panel: a seat's view lists them here.
    recent = list(view.recent[-4:]) if view.seat is not None else []
    desc = "\n".join(recent + ["", status(view)]) if recent else status(view)
    p = Panel(title=clip(title, 256), description=clip(desc, 4096), footer=clip(footer(view), 2048))
    if with_picture:
        return p
    for s in view.seats:
        marker = " ◀" if not view.over and s.seat == view.current else ""
        flag = " — left the game" if s.left else " — eliminated" if s.eliminated else ""
        name = f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}{flag}{marker}"
        value = "\n".join(stack_text(p_, s.left) for p_ in s.positions)
        p.add(name, value)
    p.add("Piles", piles_text(view))
    return p


def text(view: CourtWarsView) -> str:
    lines = [f"== {TITLE} =="]
    for s in view.seats:
        marker = "> " if not view.over and s.seat == view.current else "  "
        lines.append(marker + court_line(view, s))
    lines.append(piles_text(view))
    recent = [r for r in view.recent if r != view.result]  # how the game ended is the status line, said once
    if recent:
        lines.append("Recent: " + " | ".join(recent[-3:]))
    lines.append(status(view).replace("**", ""))
    lines.append(footer(view))
    return "\n".join(lines)


def alt_text(view: CourtWarsView) -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: what is asked, every court's stacks, the piles."""
    parts = [f"{TITLE}. {status(view).replace('**', '')}"]
    parts += [court_line(view, s) + "." for s in view.seats]
    top = pretty(view.discard[-1]) if view.discard else "none"
    parts.append(f"Discard pile {view.discard_size} (top {top}), draw pile {view.draw_size}.")
    if view.draw_pile:
        parts.append(f"The draw pile's next cards: {_cards(view.draw_pile[:6])}.")
    if view.pending:
        parts.append(f"Drawn: {pretty(view.pending)}.")
    return clip(" ".join(parts).replace("🃏", "Joker"), 1000)


# ----- picture -------------------------------------------------------------------------
COLUMN = (dr.WIDTH - 2 * dr.PAD) // 3  # one of a player's three positions


def _pile(sheet: dr.Sheet, x: float, y: float, tile_code: object, label: str, count: str) -> float:
    """A pile: its top card (a face, a back, or an empty place) and two lines of words."""
    if tile_code == "empty":
        dr.put(sheet.img, dr.slot(), x, y)
    elif tile_code == "back":
        dr.put(sheet.img, dr.back(), x, y)
    else:
        dr.card(sheet.img, tile_code, x, y)
    dr.text(sheet.d, (x + dr.CARD_W + 8, y + 12), label, dr.GOLD)
    dr.text(sheet.d, (x + dr.CARD_W + 8, y + 12 + dr.LINE), count)
    return x + dr.CARD_W + 16 + max(dr.width_of(label), dr.width_of(count)) + 24


def _position(sheet: dr.Sheet, pos: PositionView, x: float, y: float, left: bool = False) -> None:
    start = x + dr.CARD_W + 8
    if pos.state == "alive":
        dr.card(sheet.img, pos.court, x, y)
    else:
        dr.put(sheet.img, dr.back(), x, y)
        if pos.state == "jokered":
            dr.card(sheet.img, pos.joker or "JK", x + 16, y + 8)
            start += 24
    if pos.guards:
        dr.fan(sheet.img, pos.guards, start, y, x + COLUMN - 8 - start, step=30)
    ly = y + dr.CARD_H + 4
    if pos.state == "defeated":  # face down: defeated in play, or out with its player who left
        dr.text(sheet.d, (x, ly), f"{pos.letter} {'out' if left else 'defeated'}", dr.MUTED)
        return
    if pos.state == "jokered":
        dr.text(sheet.d, (x, ly), f"{pos.letter} + Joker", dr.MUTED)
        ly += dr.LINE
    dr.text(sheet.d, (x, ly), f"Attack {pos.attack}")
    dr.text(sheet.d, (x, ly + dr.LINE), f"Defence {pos.defence}")


def picture(view: CourtWarsView) -> bytes:
    return dr.sized(lambda height: _picture(view, height), 1400)


def _picture(view: CourtWarsView, height: int) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    d = sheet.d
    dr.text(d, (dr.PAD, sheet.y), TITLE, dr.GOLD, size=dr.TEXT + 6)
    sheet.space(dr.TEXT + 18)
    # The piles: the discard's top dr.card, the draw pile, the drawn dr.card waiting for a decision.
    y = sheet.y
    x = _pile(sheet, dr.PAD, y, view.discard[-1] if view.discard else "empty", "Discard", str(view.discard_size))
    x = _pile(sheet, x, y, "back" if view.draw_size else "empty", "Draw", str(view.draw_size))
    if view.pending:
        _pile(sheet, x, y, view.pending, "Drawn", "to place" if view.stage == "guard" else "joker")
    sheet.space(dr.CARD_H + 10)
    if view.over:
        line = view.result or "The game is over."
    elif view.build_round:
        line = f"Opening build, round {view.build_round} of 3: {_current_name(view)} to pick."
    else:
        line = f"{_current_name(view)} {STAGE_WORDS.get(view.stage, 'to play')}."
    sheet.line(line, dr.GOLD, limit=3)
    if view.draw_pile:
        sheet.line("Draw pile, next: " + _cards(view.draw_pile[:6]) + (" …" if len(view.draw_pile) > 6 else ""),
                   limit=2)
    if view.rounds_limit:
        sheet.line(f"Rounds without a defeat: {view.quiet_rounds} of {view.rounds_limit}")
    sheet.space(6)
    for row, s in enumerate(view.seats):
        acting = not view.over and s.seat == view.current
        jokered = any(p.state == "jokered" for p in s.positions)
        tall = dr.PAD + dr.LINE + dr.CARD_H + 4 + (3 if jokered else 2) * dr.LINE
        sheet.band(tall, dr.FELT_DARK if row % 2 == 0 else dr.FELT_LIGHT)
        sheet.y += 8
        name = f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}"
        if s.left:
            name += " (left the game)"
        elif s.eliminated:
            name += " (eliminated)"
        if acting:
            name += " ◀ to act"
        dr.text(d, (dr.PAD, sheet.y), dr.fit(name, dr.WIDTH - 2 * dr.PAD), dr.GOLD if acting else dr.WHITE)
        sheet.y += dr.LINE
        for i, pos in enumerate(s.positions):
            _position(sheet, pos, dr.PAD + i * COLUMN, sheet.y, s.left)
        sheet.y += tall - 8 - dr.LINE
    return sheet.png()
