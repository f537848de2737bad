"""The Maginot Line in words (views only): the embed panel, the terminal text and the alt text."""

from __future__ import annotations

from typing import Any

from bot.engine.cards import pretty
from bot.engine.core import Hidden
from bot.render.panel import Panel, clip

TITLE = "The Maginot Line"
CREDIT = ('The Maginot Line, from "Complicated Free Card Game" by Joshua Hysong and Benjamin Wright '
          "(CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free and non-commercial)")
CLASS = {1: "Light", 2: "Medium", 3: "Heavy"}
PHASE = {"aces": "Setup: everyone orders their Aces", "construction": "Construction", "battle": "Battles",
         "consolidation": "Consolidation", "over": "Game over"}


_CARD: dict[str, str] = {}


def card(code: Any) -> str:
    """``8H@2`` → ``8♥``; a hidden card → a card back."""
    if type(code) is str:
        text = _CARD.get(code)
        if text is None:
            text = pretty(code.partition("@")[0])
            if len(_CARD) < 4096:  # every card of six decks, and room to spare
                _CARD[code] = text
        return text
    if isinstance(code, Hidden) or code is None:
        return "🂠"
    return pretty(code.partition("@")[0])


def unit_line(u: Any) -> str:
    q = f"+{card(u.queen)}" if u.queen else ""
    flags = (" tapped" if u.tapped else "") + (" new" if u.new else "")
    wounds = f" {u.wounds}/{u.life} wounds" if u.wounds else ""
    return (f"[{card(u.h)} {card(u.s)} {card(u.c)}{q}] {CLASS[u.cls]}: life {u.life}, armour {u.armor}, "
            f"attack {u.attack}{wounds}{flags}")


def base_line(b: Any) -> str:
    if not b.base:
        return "empty base"
    aces = " ".join(f"#{a.position} {card(a.card)}" + (f" (life {a.life})" if a.wounds else "") for a in b.base)
    return aces + (" · tapped" if b.base_tapped else "")


def board_text(v: Any, b: Any) -> str:
    """One board in words, as ``v``'s recipient reads it."""
    lines = [f"Base: {base_line(b)}" + (f" · fallen {' '.join(card(c) for c in b.fallen)}" if b.fallen else "")]
    if b.resources:
        res = " ".join(card(r.card) + (f"+{card(r.queen)}" if r.queen else "") + (" (tapped)" if r.tapped else "")
                       for r in b.resources)
        lines.append(f"Resources (Initiative {b.initiative}): {res}")
    if b.building or b.finished:
        build = " ".join(f"{card(c.card)} ({c.markers} marker{'s' if c.markers != 1 else ''})" for c in b.building)
        fin = " ".join(card(c) for c in b.finished)
        lines.append("Construction: " + " · ".join(x for x in (build, f"finished {fin}" if fin else "") if x))
    for zone in ("patrol", "guardian"):
        us = [u for u in b.units if u.zone == zone]
        if us:
            lines.append(f"{zone.title()}: " + "; ".join(unit_line(u) for u in us))
    hand = " ".join(card(c) for c in b.hand) if v.seat == b.seat else f"{b.hand_size} cards"
    lines.append(f"Hand: {hand or 'empty'} · deck {b.deck_size} · discard {len(b.discard)}")
    return "\n".join(lines)


def battle_text(v: Any) -> str:
    bt = v.battle
    if bt is None:
        return ""
    names = v.players
    lines = [f"{names[bt.attacker]} attacks {names[bt.defender]}"]
    units = {u.id: u for b in v.boards for u in b.units}

    def name(uid: str) -> str:
        u = units.get(uid)
        return f"[{card(u.h)} {card(u.s)} {card(u.c)}]" if u else uid

    for uid, tok in bt.attacks:
        gs = [name(g) for g, a in bt.engaged if a == uid]
        lines.append(f"• {name(uid)} → Ace {tok.split('@')[0]}" + (f", engaged by {', '.join(gs)}" if gs else ""))
    if bt.step == "commit":
        lines.append(f"Initiative {bt.initiative[0]}–{bt.initiative[1]}, held by {names[bt.holder]}"
                     + (" (seized)" if bt.seized else ""))
    for c in bt.commits:
        plays = ", ".join(f"{card(cc)} on {name(t) if not t.startswith('#') else 'Ace ' + t.split('@')[0]}"
                          for cc, t in c.plays)
        extra = (f"; base tap on {name(c.tap)}" if c.tap else "") + (f"; split {' '.join(map(str, c.split))}"
                                                                    if c.split else "")
        lines.append(f"{names[c.seat]} commits: {plays or 'nothing'}{extra}")
    if bt.commits:
        lines.append("Values in this battle: " + "; ".join(value_words(v, x) for x in bt.values))
    return "\n".join(lines)


def value_words(v: Any, x: Any) -> str:
    """Ruling 32: one unit's or targeted Ace's values as this battle's outcome will use them."""
    parts = ([] if x.id.startswith("#") else [f"Attack {x.attack}"]) + [f"Armor {x.armor}"]
    if x.temp_life:
        parts.append(f"temporary life {x.temp_life}")
    if x.shielded:
        parts.append("K♠: takes no wounds")
    return f"{thing_name(v, x.id)}: {', '.join(parts)}"


def thing_name(v: Any, key: str) -> str:
    """A unit as ``[6♥ 5♠ 7♣]`` or an Ace as ``Ben's Ace #2``."""
    if key.startswith("#"):
        pos, _, seat = key[1:].partition("@")
        return f"{v.players[int(seat)]}'s Ace #{pos}"
    for b in v.boards:
        for u in b.units:
            if u.id == key:
                return f"[{card(u.h)} {card(u.s)} {card(u.c)}]"
    return key


def status(v: Any) -> str:
    if v.over:
        return v.result or "The game is over."
    names = [v.players[d.seat] for d in v.deciding]
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    phase = PHASE.get(v.phase, v.phase)
    pool = f" · pool {v.pool}" if v.phase == "construction" and v.pool else ""
    turn = f"{v.players[v.current]}'s turn · " if v.current is not None and v.phase != "aces" else ""
    return f"{turn}{phase}{pool}. Waiting for {who}."


def footer(v: Any, credit: bool = True) -> str:
    parts = []
    if v.rounds_limit:
        parts.append(f"Rounds played: {min(v.rounds_done, v.rounds_limit)} of {v.rounds_limit}" if v.over
                     else f"Round {v.rounds_done + 1} of {v.rounds_limit}")
    variants = [o for o in v.options if "=" not in o]
    if variants:
        parts.append("Variants: " + ", ".join(variants))
    if credit:
        parts.append(CREDIT)
    return " · ".join(parts)


def _seat_order(v: Any) -> list[int]:
    return list(v.order) if v.order else list(range(len(v.players)))


def asked(v: Any) -> str:
    """What is asked now, and of whom (the decisions' prompts)."""
    out = []
    for d in v.deciding:
        if d.prompt:
            out.append(f"{v.players[d.seat]}: {d.prompt}" if len(v.deciding) > 1 or d.seat != v.current
                       else d.prompt)
    return "\n".join(out)


def panel(v: Any, *, with_picture: bool = True) -> Panel:
    """The table's embed. With the picture beside it, only what the picture cannot say: whose turn,
    what just happened, what is asked (no credit line); without it, every board in words."""
    if with_picture:
        body = status(v)
        ask = asked(v) if not v.over else ""
        if ask:
            body += "\n" + ask
        p = Panel(TITLE, clip(body, 4096), footer=clip(footer(v, credit=False), 2048))
        if v.recent and v.seat is not None:  # the table message shows the public ones above the panel
            p.add("Recent", "\n".join(v.recent[-4:]))
        return p
    p = Panel(TITLE, clip(status(v), 4096), footer=clip(footer(v), 2048))
    for s in _seat_order(v):
        b = v.boards[s]
        mark = "▶ " if v.current == s and not v.over else ""
        head = f"{mark}{b.name}" + (" (out)" if b.out else "") + (f" · team {b.team + 1}" if _teams(v) else "")
        p.add(head, "out of the game" if b.out else board_text(v, b))
    if v.battle is not None:
        p.add("Battle", battle_text(v))
    if v.recent and v.seat is not None:
        p.add("Recent", "\n".join(v.recent[-6:]))
    return p


def text(v: Any) -> str:
    return panel(v, with_picture=False).as_text()


def _teams(v: Any) -> bool:
    return "Teams" in v.options


# ----- words for screen readers -------------------------------------------------------------
def alt_text(v: Any) -> str:
    """The table in words for a screen reader (at most 1,000 characters)."""
    out = [f"{TITLE}. {status(v)}"]
    for s in _seat_order(v):
        b = v.boards[s]
        if b.out:
            out.append(f"{b.name}: out.")
            continue
        life = sum(a.life for a in b.base)
        top = f", top {card(b.base[0].card)}" if b.base and not isinstance(b.base[0].card, Hidden) else ""
        part = [f"{b.name}: {len(b.base)} Aces{top}, {life} life" + (" (tapped)" if b.base_tapped else "")]
        if b.resources:
            n = len(b.resources)
            part.append(f"{n} resource{'s' if n != 1 else ''}, {sum(r.tapped for r in b.resources)} tapped, "
                        f"initiative {b.initiative}")
        if b.building or b.finished:
            part.append(f"{len(b.building)} building, {len(b.finished)} finished")
        for u in b.units:
            part.append(f"{'patrol' if u.zone == 'patrol' else 'guard'} {CLASS[u.cls]} attack {u.attack} "
                        f"armor {u.armor} life {u.life - u.wounds} of {u.life}" + (" tapped" if u.tapped else ""))
        part.append(f"hand {b.hand_size}")
        out.append("; ".join(part) + ".")
    bt = v.battle
    if bt is not None:
        line = f"Battle: {v.players[bt.attacker]} attacks {v.players[bt.defender]}"
        if bt.values:
            line += ". " + "; ".join(value_words(v, x) for x in bt.values)
        out.append(line + ".")
    return clip(" ".join(out), 1000)
