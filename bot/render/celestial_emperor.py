"""Renders of Warriors of the Celestial Emperor views (never the game object)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.cards import SUIT_SYMBOL, pretty, pretty_text
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, plain

if TYPE_CHECKING:
    from bot.engine.celestial_emperor.view import CelestialView, PlayerInfo, StoryEntry

TITLE = "Warriors of the Celestial Emperor"
PHASES = {
    "setting": "Setting the scene",
    "declare": "Attack",
    "defend": "Defence",
    "tie_text": "A tie",
    "winner_text": "The winner's tale",
    "loser_text": "The loser's tale",
    "trick": "Trick",
    "keep": "Endgame: keeping a final card",
    "epilogue": "Epilogue",
    "over": "The tale is told",
}
KIND_LABEL = {
    "setting": "sets the scene", "attack": "attacks", "nullify": "nullifies", "strike": "strikes",
    "parry": "parries", "withdraw": "withdraws", "victory": "in victory", "return": "will return",
}


def _clan(view: CelestialView, seat: int | None) -> str:
    if seat is None:
        return "?"
    p = view.seats[seat]
    return f"{SUIT_SYMBOL[p.suit]} {p.clan}"


def _who(view: CelestialView, seat: int | None) -> str:
    if seat is None:
        return "?"
    return f"{_clan(view, seat)} ({view.seats[seat].name})"


def story_line(view: CelestialView, entry: StoryEntry, *, embed: bool = True) -> str:
    """One story entry as a line: a player's words in quotes, the narrator's plain.

    For an embed the player's words are escaped (``plain``); the terminal shows them as typed.
    """
    if entry.seat is None:
        return pretty_text(entry.text)
    label = KIND_LABEL.get(entry.kind, entry.kind)
    words = plain(entry.text) if embed else entry.text
    return f"**{_clan(view, entry.seat)}** {label}: “{words}”"


def _cards(cards: tuple[str, ...] | None) -> str:
    return " ".join(pretty(c) for c in cards) if cards else "—"


def player_line(p: PlayerInfo) -> str:
    if p.forfeited:
        return "left the battle"
    bits = [f"hand {p.hand_size}", f"tricks {p.tricks}"]
    if p.locked:
        bits.append("final card locked")
    if p.committed:
        bits.append("card committed")
    if p.to_act:
        bits.append("**to act**")
    return " · ".join(bits)


def duel_line(view: CelestialView) -> str:
    d = view.duel
    if d is None:
        return ""
    atk, dfn = d.attacker, d.defender
    if dfn is None:
        return f"{_who(view, atk)} must choose a target."
    head = f"{_who(view, atk)} attacks {_who(view, dfn)}"
    if not d.revealed:
        parts = []
        for s, card in ((atk, d.attacker_card), (dfn, d.defender_card)):
            if s in d.committed:
                parts.append(f"{_clan(view, s)}: " + (f"committed {pretty(card)}" if isinstance(card, str)
                                                      else "card committed"))
            else:
                parts.append(f"{_clan(view, s)}: waiting")
        if not d.described:
            parts.append("waiting for the attack description")
        return head + " — " + "; ".join(parts)
    a = pretty(d.attacker_card) if isinstance(d.attacker_card, str) else "a card"
    b = pretty(d.defender_card) if isinstance(d.defender_card, str) else "a card"
    line = f"{head}: {a} against {b}"
    if d.result == "tie":
        return line + " — a tie."
    line += f" — {_clan(view, d.winner)} wins."
    if d.exchanged:
        done = ", ".join(_clan(view, s) for s in d.trick_done) or "nobody yet"
        line += f" Exchanged; trick cards put in by: {done}."
    return line


def scoring_lines(view: CelestialView) -> list[str]:
    sc = view.scoring
    if sc is None:
        return []
    lines = []
    for r in sc.rows:
        mark = "✓" if r.qualifies else "✗"
        lines.append(f"{mark} {SUIT_SYMBOL[r.suit]} {r.clan}: {pretty(r.card)} (value {r.v}) · trick count {r.T}")
    rule = sc.rule.replace("v ", "value ").replace(" T", " trick count")
    lines.append(f"Rule: a final card qualifies when {rule} — {sc.method}.")
    if sc.tie_breaks:
        lines.append("Tie-breaks used: " + ", ".join(sc.tie_breaks) + ".")
    lines.append(f"Winner: {_who(view, sc.winner)}")
    return lines


def _status(view: CelestialView) -> str:
    return (view.result or "The game is over.") if view.over else view.waiting


def panel(view: CelestialView, *, with_picture: bool = True) -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (who must act and how,
    and at the end how the scoring went); ``with_picture=False``: every clan, the duel and the
    tie pile in fields as well."""
    # The story's latest lines are among the recent moves the table message shows above the panel.
    p = Panel(title=TITLE, description=clip(pretty_text(_status(view)), 4096))
    p.footer = clip(f"{PHASES.get(view.stage, view.stage)} · duels fought: {view.duels_fought}"
                    " · choices are made privately (show my hand)", 2048)
    if with_picture:
        sc = scoring_lines(view)
        if sc:  # how the game was won, step by step: what just happened, in words
            p.add("Scoring", "\n".join(sc))
        return p
    for pl in view.seats:
        p.add(f"{SUIT_SYMBOL[pl.suit]} {pl.clan} — {pl.name}", player_line(pl), True)
    line = duel_line(view)
    if line and view.duel is not None:
        p.add(f"Duel {view.duel.number}", line)
    if view.tie_pile:
        p.add("Tie pile", _cards(view.tie_pile))
    sc = scoring_lines(view)
    if sc:
        p.add("Scoring", "\n".join(sc))
    return p


def alt_text(view: CelestialView) -> str:
    """The battle in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: who must act, the clans, the duel, the tie pile, the scoring and a seat's own cards."""
    parts = [f"{TITLE}. {PHASES.get(view.stage, view.stage)}. {pretty_text(_status(view))}"]
    for pl in view.seats:
        parts.append(f"{SUIT_SYMBOL[pl.suit]} {pl.clan} ({pl.name}): {player_line(pl)}.")
    line = duel_line(view)
    if line and view.duel is not None:
        parts.append(f"Duel {view.duel.number}: {line}" + ("" if line.endswith(".") else "."))
    if view.tie_pile:
        parts.append(f"Tie pile: {_cards(view.tie_pile)}.")
    parts += scoring_lines(view)
    if view.hand is not None:
        parts.append(f"Your hand: {_cards(view.hand)}.")
        if view.committed:
            parts.append(f"Committed face down: {pretty(view.committed)}.")
        if view.final:
            parts.append(f"Your final card: {pretty(view.final)}.")
    return clip(" ".join(parts).replace("**", "").replace("🃏", "Joker"), 1000)


def hand_text(view: CelestialView) -> str:
    """The private hand message: the seat's own cards and what it must choose now."""
    seat = view.seat
    if seat is None or view.hand is None:
        return "You are not seated at this table."
    me = view.seats[seat]
    lines = [f"**{TITLE}** — your clan: {SUIT_SYMBOL[me.suit]} {me.clan}"]
    lines.append(f"Hand ({len(view.hand)}): {_cards(view.hand)}")
    if view.committed:
        lines.append(f"Committed face-down: {pretty(view.committed)}")
    if view.final:
        lines.append(f"Locked final card: {pretty(view.final)}")
    if view.put_in_tricks:
        lines.append(f"Cards you put into tricks: {_cards(view.put_in_tricks)}")
    lines.append(f"Your tricks: {me.tricks}")
    lines.append(f"Phase: {PHASES.get(view.stage, view.stage)}")
    d = duel_line(view)
    if d:
        lines.append(d)
    if view.your_move:
        lines.append(f"**Your move:** {view.your_move}")
    elif not view.over:
        lines.append(pretty_text(view.waiting))
    return "\n".join(lines)


def text(view: CelestialView) -> str:
    out = [f"=== {TITLE} === ({PHASES.get(view.stage, view.stage)})"]
    for pl in view.seats:
        out.append(f"  {SUIT_SYMBOL[pl.suit]} {pl.clan:<11} {pl.name:<12} {player_line(pl)}".replace("**", ""))
    if view.tie_pile:
        out.append(f"Tie pile: {_cards(view.tie_pile)}")
    d = duel_line(view)
    if d:
        out.append(d.replace("**", ""))
    if view.story:
        out.append("Story so far (latest):")
        out += ["  " + story_line(view, e, embed=False).replace("**", "") for e in view.story[-8:]]
    sc = scoring_lines(view)
    if sc:
        out.append("Scoring:")
        out += ["  " + s for s in sc]
    if view.hand is not None:
        out.append(f"Your hand: {_cards(view.hand)}")
        if view.committed:
            out.append(f"Committed: {pretty(view.committed)}")
        if view.final:
            out.append(f"Your final card: {pretty(view.final)}")
    out.append(pretty_text(_status(view)))
    if not view.over and view.your_move:
        out.append(f"Your move: {view.your_move}")
    return "\n".join(out)


BOX_W = (dr.WIDTH - 3 * dr.PAD) // 2


def _seat_box(sheet: dr.Sheet, view: CelestialView, p: PlayerInfo, x: float, y: float, h: float) -> None:
    d = sheet.d
    fill = dr.ACTING if p.to_act else dr.FELT_DARK
    dr.put(sheet.img, dr.box(BOX_W + 1, int(h) + 1, 12, fill, dr.GOLD if p.to_act else dr.FELT_LIGHT, 3), x, y)
    tx, w = x + 12, BOX_W - 24
    dr.text(d, (tx, y + 8), dr.fit(f"{SUIT_SYMBOL[p.suit]} {p.clan}", w), dr.GOLD)
    me = " (you)" if view.seat == p.seat else ""
    dr.text(d, (tx, y + 8 + dr.LINE), dr.fit(p.name + me, w))
    if p.forfeited:
        dr.text(d, (tx, y + 8 + 2 * dr.LINE), "left the battle", dr.MUTED)
        return
    dr.text(d, (tx, y + 8 + 2 * dr.LINE), dr.fit(f"Hand {p.hand_size} · Tricks {p.tricks}", w))
    flags = []
    if p.to_act:
        flags.append("to act")
    if p.committed:
        flags.append("committed")
    if p.locked:
        flags.append("final locked")
    if flags:
        dr.text(d, (tx, y + 8 + 3 * dr.LINE), dr.fit(", ".join(flags), w), dr.GOLD if p.to_act else dr.MUTED)


def _duel_card(sheet: dr.Sheet, card: object, x: float, y: float) -> None:
    if card is None:
        dr.put(sheet.img, dr.slot(), x, y)
    else:
        dr.card(sheet.img, card, x, y)


def _duel(sheet: dr.Sheet, view: CelestialView) -> None:
    du = view.duel
    if du is None:
        return
    sheet.line(f"Duel {du.number}: {duel_line(view)}", limit=4)
    if du.defender is None:
        return
    y = sheet.y + 4
    x = dr.PAD
    for who, card in ((du.attacker, du.attacker_card), (du.defender, du.defender_card)):
        _duel_card(sheet, card, x, y)
        role = "attacks" if who == du.attacker else "defends"
        dr.text(sheet.d, (x + dr.CARD_W + 10, y + 14), dr.fit(_clan(view, who), 260), dr.GOLD)
        dr.text(sheet.d, (x + dr.CARD_W + 10, y + 14 + dr.LINE), role)
        x += dr.WIDTH // 2
    sheet.y = y + dr.CARD_H + 10


def _row_of_cards(sheet: dr.Sheet, label: str, cards: tuple[str, ...] | list[str]) -> None:
    sheet.line(label, dr.GOLD)
    sheet.cards(cards)


def picture(view: CelestialView) -> bytes:
    """The battle for a phone: the clans, the duel's cards, the tie pile and (for a seat) its hand."""
    return dr.sized(lambda height: _picture(view, height), 1400)


def _picture(view: CelestialView, height: int) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    sheet.line(TITLE, dr.GOLD, limit=2)
    sheet.line(f"{PHASES.get(view.stage, view.stage)} · duels fought: {view.duels_fought}", dr.MUTED, limit=2)
    sheet.space(4)
    box_h = 8 + 4 * dr.LINE + 8
    for i, p in enumerate(view.seats):
        x = dr.PAD + (i % 2) * (BOX_W + dr.PAD)
        y = sheet.y + (i // 2) * (box_h + 10)
        _seat_box(sheet, view, p, x, y, box_h)
    sheet.y += ((len(view.seats) + 1) // 2) * (box_h + 10) + 4
    _duel(sheet, view)
    if view.tie_pile:
        _row_of_cards(sheet, f"Tie pile ({len(view.tie_pile)})", view.tie_pile)
    if view.story:
        sheet.line(story_line(view, view.story[-1], embed=False), dr.MUTED, limit=3)
    for ln in scoring_lines(view):
        sheet.line(ln, limit=2)
    if view.hand is not None:
        sheet.space(4)
        _row_of_cards(sheet, f"Your hand ({len(view.hand)})" if view.hand else "Your hand: empty", view.hand)
        mine = [(lbl, c) for lbl, c in (("Committed face down", view.committed), ("Your final card", view.final)) if c]
        for lbl, c in mine:
            dr.card(sheet.img, c, dr.PAD, sheet.y)
            dr.text(sheet.d, (dr.PAD + dr.CARD_W + 12, sheet.y + dr.CARD_H / 2), lbl, dr.GOLD, anchor="lm")
            sheet.y += dr.CARD_H + 8
        if view.put_in_tricks:
            sheet.line("Put into tricks: " + _cards(view.put_in_tricks), limit=3)
        if view.your_move and not view.over:
            sheet.line("Your move: " + view.your_move, dr.GOLD, limit=4)
    sheet.line(pretty_text(_status(view)), dr.GOLD if view.hand is None else dr.WHITE, limit=4)
    return sheet.png()


def story(view: CelestialView) -> tuple[list[str], list[dict[str, Any]]]:
    """For the story file: each seat's clan, and the narration in order."""
    return [p.clan for p in view.seats], [{"seat": e.seat, "kind": e.kind, "text": e.text} for e in view.story]


def seat_picture(view: CelestialView) -> bytes | None:
    """A seat's picture: the battle as it sees it, with its hand, its committed and final cards."""
    if view.seat is None or view.hand is None:
        return None
    return picture(view)
