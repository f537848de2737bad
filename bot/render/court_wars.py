"""Renders of Court Wars (from its typed view only): embed panel, terminal text and a picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.cards import SUIT_SYMBOL
from bot.i18n import Words, words
from bot.render.panel import Panel, clip
from bot.render import drawing as dr

if TYPE_CHECKING:  # the renderer reads the typed view only
    from bot.engine.court_wars.view import CourtWarsView, PositionView, SeatView

TITLE = "Court Wars"
EN = words("en")


def _hint(w: Words, stage: str, card: str) -> str:
    """What the player to act does now (after their name)."""
    if stage == "build":
        return w.t("draws for the opening build")
    if stage == "guard":
        return w.t("places the drawn guard {card} on one of their stacks, or discards it", card=card)
    if stage == "joker":
        return w.t("puts the joker on one of their defeated positions, or discards it")
    if stage == "turn":
        return w.t("defends (draws a card) or attacks")
    if stage == "ace":
        return w.t("drew an ace: attacks or skips the attack, then draws again")
    return ""


def _stage_words(w: Words, stage: str) -> str:
    """The picture's plain-words hint (after the name of the player to act)."""
    if stage == "build":
        return w.t("to pick")
    if stage == "guard":
        return w.t("to place or discard the drawn guard")
    if stage == "joker":
        return w.t("to place or discard the joker")
    if stage == "turn":
        return w.t("to defend or attack")
    if stage == "ace":
        return w.t("drew an ace: to attack or skip")
    return w.t("to play")


def _cards(cs: Sequence[str], w: Words = EN) -> str:
    return " ".join(w.card(c) for c in cs)


def _line(w: Words, line: str) -> str:
    """An engine's line in the reader's language (English: an older state's card codes made pretty)."""
    return line if w.english else w.line(line)


def stack_text(pos: PositionView, left: bool = False, w: Words = EN) -> str:
    """``K♠ with 8♣ 4♦ (attack 12, defence 22)``, ``Q♠ defeated, 🃏 with 5♥ (attack 5, defence 15)``
    or ``J♠ defeated``; a position of a player who left the game (``left``), ``J♠ out``."""
    court = w.card(pos.court)
    if left and pos.state == "defeated":  # face down because its player left, not defeated in play
        return w.t("{court} out", court=court)
    if pos.state == "defeated":
        return w.t("{court} defeated", court=court)
    if pos.state == "jokered":
        court = w.t("{court} defeated, {joker}", court=court, joker=w.card(pos.joker or "JK"))
    if pos.guards:
        return w.t("{court} with {guards} (attack {attack}, defence {defence})", court=court,
                   guards=_cards(pos.guards, w), attack=pos.attack, defence=pos.defence)
    return w.t("{court} unguarded (attack {attack}, defence {defence})", court=court, attack=pos.attack,
               defence=pos.defence)


def court_line(view: CourtWarsView, s: SeatView, w: Words = EN) -> str:
    """One player's court on a line: ``♠ P1 Ana — K♠ with 8♣ 4♦ (attack 12, defence 22) · J♠ defeated``."""
    flag = " " + w.t("(left the game)") if s.left else " " + w.t("(eliminated)") if s.eliminated else ""
    stacks = " · ".join(stack_text(p, s.left, w) for p in s.positions)
    return f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}{flag} — {stacks}"


def _current_name(view: CourtWarsView) -> str:
    return view.players[view.current] if view.current is not None else ""


def _over(view: CourtWarsView, w: Words) -> str:
    return _line(w, view.result) if view.result else w.t("The game is over.")


def status(view: CourtWarsView, lang: str = "en") -> str:
    """Whose turn it is and what they must do, or how the game ended."""
    w = words(lang)
    if view.over:
        return _over(view, w)
    hint = _hint(w, view.stage, w.card(view.pending) if view.pending else "")
    if view.build_round:
        return w.t("Opening build, round {round} of 3. **{name}** {hint}.", round=view.build_round,
                   name=_current_name(view), hint=hint)
    return f"**{_current_name(view)}** {hint}."


def piles_text(view: CourtWarsView, top: int = 6, w: Words = EN) -> str:
    discard = view.discard
    shown = _cards(discard[-top:], w) if discard else w.t("empty")
    more = "… " if len(discard) > top else ""
    line = w.t("Discard ({n}): {cards}", n=view.discard_size, cards=more + shown) + \
        (" " + w.t("← top") if discard else "")
    draw = w.t("Draw pile: {n}", n=view.draw_size)
    if view.draw_pile:
        nxt = view.draw_pile[:top]
        draw += " " + w.t("(order public, next: {cards})", cards=_cards(nxt, w) + (" …" if len(view.draw_pile) > top
                                                                                 else ""))
    return f"{line}\n{draw}"


def footer(view: CourtWarsView, w: Words = EN) -> str:
    parts = []
    limit = view.rounds_limit
    if limit:
        parts.append(w.t("Rounds without a defeat: {quiet}/{limit}", quiet=view.quiet_rounds, limit=limit))
    variants = [o for o in view.options if "=" not in o]
    if variants:
        parts.append(w.t("Variants: {variants}", variants=", ".join(variants)))
    return " · ".join(parts)


def panel(view: CourtWarsView, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (whose turn and what
    is asked, a seat's recent moves); ``with_picture=False``: every court and pile in fields."""
    w = words(lang)
    if view.over:
        title = f"{TITLE} — " + w.t("game over")
    elif view.build_round:
        title = f"{TITLE} — " + w.t("opening build, round {round}", round=view.build_round)
    else:
        title = f"{TITLE} — " + w.t("{name}'s turn", name=_current_name(view))
    # The public table message shows the recent moves above the panel: a seat's view lists them here.
    recent = [_line(w, r) for r in view.recent[-4:]] if view.seat is not None else []
    desc = "\n".join(recent + ["", status(view, lang)]) if recent else status(view, lang)
    p = Panel(title=clip(title, 256), description=clip(desc, 4096), footer=clip(footer(view, w), 2048))
    if with_picture:
        return p
    for s in view.seats:
        marker = " ◀" if not view.over and s.seat == view.current else ""
        flag = " — " + w.t("left the game") if s.left else " — " + w.t("eliminated") if s.eliminated else ""
        name = f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}{flag}{marker}"
        value = "\n".join(stack_text(p_, s.left, w) for p_ in s.positions)
        p.add(name, value)
    p.add(w.t("Piles"), piles_text(view, w=w))
    return p


def text(view: CourtWarsView, lang: str = "en") -> str:
    w = words(lang)
    lines = [f"== {TITLE} =="]
    for s in view.seats:
        marker = "> " if not view.over and s.seat == view.current else "  "
        lines.append(marker + court_line(view, s, w))
    lines.append(piles_text(view, w=w))
    recent = [_line(w, r) for r in view.recent if r != view.result]  # how the game ended is the status line, said once
    if recent:
        lines.append(w.t("Recent: {moves}", moves=" | ".join(recent[-3:])))
    lines.append(status(view, lang).replace("**", ""))
    lines.append(footer(view, w))
    return "\n".join(lines)


def alt_text(view: CourtWarsView, lang: str = "en") -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: what is asked, every court's stacks, the piles."""
    w = words(lang)
    parts = [f"{TITLE}. {status(view, lang).replace('**', '')}"]
    parts += [court_line(view, s, w) + "." for s in view.seats]
    top = w.card(view.discard[-1]) if view.discard else w.t("none")
    parts.append(w.t("Discard pile {discard} (top {top}), draw pile {draw}.", discard=view.discard_size, top=top,
                     draw=view.draw_size))
    if view.draw_pile:
        parts.append(w.t("The draw pile's next cards: {cards}.", cards=_cards(view.draw_pile[:6], w)))
    if view.pending:
        parts.append(w.t("Drawn: {card}.", card=w.card(view.pending)))
    return clip(" ".join(parts).replace("🃏", w.t("Joker")), 1000)


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


def _position(sheet: dr.Sheet, pos: PositionView, x: float, y: float, left: bool = False, w: Words = EN) -> None:
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
        dr.text(sheet.d, (x, ly), f"{pos.letter} " + (w.t("out") if left else w.t("defeated")), dr.MUTED)
        return
    if pos.state == "jokered":
        dr.text(sheet.d, (x, ly), f"{pos.letter} + " + w.t("Joker"), dr.MUTED)
        ly += dr.LINE
    dr.text(sheet.d, (x, ly), w.t("Attack {n}", n=pos.attack))
    dr.text(sheet.d, (x, ly + dr.LINE), w.t("Defence {n}", n=pos.defence))


def picture(view: CourtWarsView, lang: str = "en") -> bytes:
    w = words(lang)
    return dr.sized(lambda height: _picture(view, height, w), 1400)


def _picture(view: CourtWarsView, height: int, w: Words = EN) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    d = sheet.d
    dr.text(d, (dr.PAD, sheet.y), TITLE, dr.GOLD, size=dr.TEXT + 6)
    sheet.space(dr.TEXT + 18)
    # The piles: the discard's top dr.card, the draw pile, the drawn dr.card waiting for a decision.
    y = sheet.y
    x = _pile(sheet, dr.PAD, y, view.discard[-1] if view.discard else "empty", w.tp("pile", "Discard"), str(view.discard_size))
    x = _pile(sheet, x, y, "back" if view.draw_size else "empty", w.tp("pile", "Draw"), str(view.draw_size))
    if view.pending:
        _pile(sheet, x, y, view.pending, w.tp("pile", "Drawn"), w.t("to place") if view.stage == "guard" else w.t("joker"))
    sheet.space(dr.CARD_H + 10)
    if view.over:
        line = _over(view, w)
    elif view.build_round:
        line = w.t("Opening build, round {round} of 3: {name} to pick.", round=view.build_round,
                   name=_current_name(view))
    else:
        line = f"{_current_name(view)} {_stage_words(w, view.stage)}."
    sheet.line(line, dr.GOLD, limit=3)
    if view.draw_pile:
        sheet.line(w.t("Draw pile, next: {cards}", cards=_cards(view.draw_pile[:6], w)
                       + (" …" if len(view.draw_pile) > 6 else "")), limit=2)
    if view.rounds_limit:
        sheet.line(w.t("Rounds without a defeat: {quiet} of {limit}", quiet=view.quiet_rounds, limit=view.rounds_limit))
    sheet.space(6)
    for row, s in enumerate(view.seats):
        acting = not view.over and s.seat == view.current
        jokered = any(p.state == "jokered" for p in s.positions)
        tall = dr.PAD + dr.LINE + dr.CARD_H + 4 + (3 if jokered else 2) * dr.LINE
        sheet.band(tall, dr.FELT_DARK if row % 2 == 0 else dr.FELT_LIGHT)
        sheet.y += 8
        name = f"{SUIT_SYMBOL[s.suit]} P{s.seat + 1} {s.name}"
        if s.left:
            name += " " + w.t("(left the game)")
        elif s.eliminated:
            name += " " + w.t("(eliminated)")
        if acting:
            name += " ◀ " + w.t("to act")
        dr.text(d, (dr.PAD, sheet.y), dr.fit(name, dr.WIDTH - 2 * dr.PAD), dr.GOLD if acting else dr.WHITE)
        sheet.y += dr.LINE
        for i, pos in enumerate(s.positions):
            _position(sheet, pos, dr.PAD + i * COLUMN, sheet.y, s.left, w)
        sheet.y += tall - 8 - dr.LINE
    return sheet.png()
