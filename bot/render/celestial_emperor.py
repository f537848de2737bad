"""Renders of Warriors of the Celestial Emperor views (never the game object)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.cards import SUIT_SYMBOL, pretty, pretty_text
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
        lines.append(f"{mark} {SUIT_SYMBOL[r.suit]} {r.clan}: {pretty(r.card)} (v {r.v}) · T {r.T}")
    lines.append(f"Rule: {sc.rule} — {sc.method}.")
    if sc.tie_breaks:
        lines.append("Tie-breaks used: " + ", ".join(sc.tie_breaks) + ".")
    lines.append(f"Winner: {_who(view, sc.winner)}")
    return lines


def _status(view: CelestialView) -> str:
    return (view.result or "The game is over.") if view.over else view.waiting


def panel(view: CelestialView) -> Panel:
    recent = [story_line(view, e) for e in view.story[-6:]]
    desc = "\n".join(recent)
    desc = (desc + "\n\n" if desc else "") + pretty_text(_status(view))
    p = Panel(title=TITLE, description=clip(desc, 4096))
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
    p.footer = clip(f"{PHASES.get(view.stage, view.stage)} · duels fought: {view.duels_fought}"
                    " · choices are made privately (show my hand)", 2048)
    return p


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


def picture(view: CelestialView) -> bytes | None:
    return None


def story(view: CelestialView) -> tuple[list[str], list[dict[str, Any]]]:
    """For the story file: each seat's clan, and the narration in order."""
    return [p.clan for p in view.seats], [{"seat": e.seat, "kind": e.kind, "text": e.text} for e in view.story]
