"""The Maginot Line in words (views only): the embed panel, the terminal text and the alt text, each in
one reader's language (``lang``: ``en``, ``es``, ``de``; the engine's phrases said in it too)."""

from __future__ import annotations

from typing import Any

from bot.engine.cards import pretty
from bot.engine.core import Hidden
from bot.i18n import Words, words
from bot.render.panel import Panel, clip

EN = words("en")
TITLE = "The Maginot Line"
AUTHORS = 'The Maginot Line, from "Complicated Free Card Game" by Joshua Hysong and Benjamin Wright'
CREDIT = (AUTHORS + " (CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free and "
          "non-commercial)")


def credit(w: Words = EN) -> str:
    """The credit line: the game and its authors as they wrote them, the licence's words in the language."""
    return AUTHORS + " " + w.t("(CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free "
                               "and non-commercial)")


def class_word(cls: int, w: Words = EN) -> str:
    return {1: w.t("Light"), 2: w.t("Medium"), 3: w.t("Heavy")}.get(cls, str(cls))


def phase_word(phase: str, w: Words = EN) -> str:
    found = {"aces": w.t("Setup: everyone orders their Aces"), "construction": w.t("Construction"),
             "battle": w.t("Battles"), "consolidation": w.t("Consolidation"), "over": w.t("Game over")}
    return found.get(phase, phase)


_CARD: dict[str, str] = {}


def card(code: Any, w: Words = EN) -> str:
    """``8H@2`` → ``8♥`` (a German ``QH@2``: ``D♥``); a hidden card → a card back."""
    if type(code) is str:
        if not w.english:
            return w.card(code.partition("@")[0])
        text = _CARD.get(code)
        if text is None:
            text = pretty(code.partition("@")[0])
            if len(_CARD) < 4096:  # every card of six decks, and room to spare
                _CARD[code] = text
        return text
    if isinstance(code, Hidden) or code is None:
        return "🂠"
    return w.card(code.partition("@")[0]) if not w.english else pretty(code.partition("@")[0])


def _unit(u: Any, w: Words = EN) -> str:
    return f"[{card(u.h, w)} {card(u.s, w)} {card(u.c, w)}]"


def unit_line(u: Any, w: Words = EN) -> str:
    q = f"+{card(u.queen, w)}" if u.queen else ""
    flags = (" " + w.t("tapped") if u.tapped else "") + (" " + w.t("new") if u.new else "")
    wounds = " " + w.t("{wounds}/{life} wounds", wounds=u.wounds, life=u.life) if u.wounds else ""
    stats = w.t("{cls}: life {life}, armour {armor}, attack {attack}", cls=class_word(u.cls, w), life=u.life,
                armor=u.armor, attack=u.attack)
    return f"[{card(u.h, w)} {card(u.s, w)} {card(u.c, w)}{q}] {stats}{wounds}{flags}"


def base_line(b: Any, w: Words = EN) -> str:
    if not b.base:
        return w.t("empty base")
    aces = " ".join(f"#{a.position} {card(a.card, w)}" + (" " + w.t("(life {life})", life=a.life) if a.wounds else "")
                    for a in b.base)
    return aces + (" · " + w.t("tapped") if b.base_tapped else "")


def board_text(v: Any, b: Any, w: Words = EN) -> str:
    """One board in words, as ``v``'s recipient reads it."""
    fallen = " · " + w.t("fallen {cards}", cards=" ".join(card(c, w) for c in b.fallen)) if b.fallen else ""
    lines = [w.t("Base: {base}", base=base_line(b, w)) + fallen]
    if b.resources:
        res = " ".join(card(r.card, w) + (f"+{card(r.queen, w)}" if r.queen else "")
                       + (" " + w.t("(tapped)") if r.tapped else "") for r in b.resources)
        lines.append(w.t("Resources (Initiative {initiative}): {cards}", initiative=b.initiative, cards=res))
    if b.building or b.finished:
        build = " ".join(card(c.card, w) + " " + w.n("({n} marker)", "({n} markers)", c.markers) for c in b.building)
        fin = " ".join(card(c, w) for c in b.finished)
        done = w.t("finished {cards}", cards=fin) if fin else ""
        lines.append(w.t("Construction: {cards}", cards=" · ".join(x for x in (build, done) if x)))
    for zone in ("patrol", "guardian"):
        us = [u for u in b.units if u.zone == zone]
        if us:
            head = w.t("Patrol") if zone == "patrol" else w.t("Guardian")
            lines.append(f"{head}: " + "; ".join(unit_line(u, w) for u in us))
    hand = " ".join(card(c, w) for c in b.hand) if v.seat == b.seat else w.n("{n} card", "{n} cards", b.hand_size)
    lines.append(w.t("Hand: {hand} · deck {deck} · discard {discard}", hand=hand or w.t("empty"), deck=b.deck_size,
                     discard=len(b.discard)))
    return "\n".join(lines)


def battle_text(v: Any, w: Words = EN) -> str:
    bt = v.battle
    if bt is None:
        return ""
    names = v.players
    lines = [w.t("{attacker} attacks {defender}", attacker=names[bt.attacker], defender=names[bt.defender])]
    units = {u.id: u for b in v.boards for u in b.units}

    def name(uid: str) -> str:
        u = units.get(uid)
        return _unit(u, w) if u else uid

    def ace(tok: str) -> str:
        return w.t("Ace {position}", position=tok.split("@")[0])

    for uid, tok in bt.attacks:
        gs = [name(g) for g, a in bt.engaged if a == uid]
        line = f"• {name(uid)} → {ace(tok)}"
        lines.append(w.t("{line}, engaged by {units}", line=line, units=", ".join(gs)) if gs else line)
    if bt.step == "commit":
        held = w.t("Initiative {a}–{d}, held by {player}", a=bt.initiative[0], d=bt.initiative[1],
                   player=names[bt.holder])
        lines.append(held + (" " + w.t("(seized)") if bt.seized else ""))
    for c in bt.commits:
        plays = ", ".join(w.t("{card} on {target}", card=card(cc, w), target=name(t) if not t.startswith("#") else ace(t))
                          for cc, t in c.plays)
        extra = ("; " + w.t("base tap on {target}", target=name(c.tap)) if c.tap else "") + (
            "; " + w.t("split {shares}", shares=" ".join(map(str, c.split))) if c.split else "")
        lines.append(w.t("{player} commits: {what}", player=names[c.seat], what=(plays or w.t("nothing")) + extra))
    if bt.commits:
        lines.append(w.t("Values in this battle: {values}", values="; ".join(value_words(v, x, w) for x in bt.values)))
    return "\n".join(lines)


def value_words(v: Any, x: Any, w: Words = EN) -> str:
    """Ruling 32: one unit's or targeted Ace's values as this battle's outcome will use them."""
    parts = ([] if x.id.startswith("#") else [w.t("Attack {value}", value=x.attack)]) + [
        w.t("Armor {value}", value=x.armor)]
    if x.temp_life:
        parts.append(w.t("temporary life {value}", value=x.temp_life))
    if x.shielded:
        parts.append(w.t("K♠: takes no wounds"))
    return f"{thing_name(v, x.id, w)}: {', '.join(parts)}"


def thing_name(v: Any, key: str, w: Words = EN) -> str:
    """A unit as ``[6♥ 5♠ 7♣]`` or an Ace as ``Ben's Ace #2``."""
    if key.startswith("#"):
        pos, _, seat = key[1:].partition("@")
        return w.t("{player}'s Ace #{position}", player=v.players[int(seat)], position=pos)
    for b in v.boards:
        for u in b.units:
            if u.id == key:
                return _unit(u, w)
    return key


def status(v: Any, lang: str = "en") -> str:
    w = words(lang)
    if v.over:
        return w.say(v.result) if v.result else w.t("The game is over.")
    names = [v.players[d.seat] for d in v.deciding]
    who = w.list(names)
    phase = phase_word(v.phase, w)
    pool = " · " + w.t("pool {pool}", pool=v.pool) if v.phase == "construction" and v.pool else ""
    waiting = w.t("Waiting for {who}.", who=who)
    if v.current is not None and v.phase != "aces":
        return w.t("{player}'s turn", player=v.players[v.current]) + f" · {phase}{pool}. {waiting}"
    return f"{phase}{pool}. {waiting}"


def footer(v: Any, credit_line: bool = True, w: Words = EN) -> str:
    parts = []
    if v.rounds_limit:
        parts.append(w.t("Rounds played: {done} of {limit}", done=min(v.rounds_done, v.rounds_limit),
                         limit=v.rounds_limit) if v.over
                     else w.t("Round {round} of {limit}", round=v.rounds_done + 1, limit=v.rounds_limit))
    variants = [o for o in v.options if "=" not in o]
    if variants:
        parts.append(w.t("Variants: {names}", names=", ".join(variants)))
    if credit_line:
        parts.append(credit(w))
    return " · ".join(parts)


def _seat_order(v: Any) -> list[int]:
    return list(v.order) if v.order else list(range(len(v.players)))


def asked(v: Any, w: Words = EN) -> str:
    """What is asked now, and of whom (the decisions' prompts)."""
    out = []
    for d in v.deciding:
        if d.prompt:
            prompt = w.say(d.prompt)
            out.append(f"{v.players[d.seat]}: {prompt}" if len(v.deciding) > 1 or d.seat != v.current else prompt)
    return "\n".join(out)


def _recent(v: Any, k: int, w: Words) -> str:
    return "\n".join(w.line(x) for x in v.recent[-k:])


def panel(v: Any, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The table's embed. With the picture beside it, only what the picture cannot say: whose turn,
    what just happened, what is asked (no credit line); without it, every board in words."""
    w = words(lang)
    if with_picture:
        body = status(v, lang)
        ask = asked(v, w) if not v.over else ""
        if ask:
            body += "\n" + ask
        p = Panel(TITLE, clip(body, 4096), footer=clip(footer(v, False, w), 2048))
        if v.recent and v.seat is not None:  # the table message shows the public ones above the panel
            p.add(w.t("Recent"), _recent(v, 4, w))
        return p
    p = Panel(TITLE, clip(status(v, lang), 4096), footer=clip(footer(v, True, w), 2048))
    for s in _seat_order(v):
        b = v.boards[s]
        mark = "▶ " if v.current == s and not v.over else ""
        head = (f"{mark}{b.name}" + (" " + w.t("(out)") if b.out else "")
                + (" · " + w.t("team {team}", team=b.team + 1) if _teams(v) else ""))
        p.add(head, w.t("out of the game") if b.out else board_text(v, b, w))
    if v.battle is not None:
        p.add(w.t("Battle"), battle_text(v, w))
    if v.recent and v.seat is not None:
        p.add(w.t("Recent"), _recent(v, 6, w))
    return p


def text(v: Any, lang: str = "en") -> str:
    return panel(v, with_picture=False, lang=lang).as_text()


def _teams(v: Any) -> bool:
    return "Teams" in v.options


# ----- words for screen readers -------------------------------------------------------------
def alt_text(v: Any, lang: str = "en") -> str:
    """The table in words for a screen reader (at most 1,000 characters)."""
    w = words(lang)
    out = [f"{TITLE}. {status(v, lang)}"]
    for s in _seat_order(v):
        b = v.boards[s]
        if b.out:
            out.append(w.t("{player}: out.", player=b.name))
            continue
        life = sum(a.life for a in b.base)
        top = (w.t("{aces} Aces, top {card}, {life} life", aces=len(b.base), card=card(b.base[0].card, w), life=life)
               if b.base and not isinstance(b.base[0].card, Hidden)
               else w.t("{aces} Aces, {life} life", aces=len(b.base), life=life))
        part = [f"{b.name}: {top}" + (" " + w.t("(tapped)") if b.base_tapped else "")]
        if b.resources:
            part.append(w.n("{n} resource, {tapped} tapped, initiative {initiative}",
                            "{n} resources, {tapped} tapped, initiative {initiative}", len(b.resources),
                            tapped=sum(r.tapped for r in b.resources), initiative=b.initiative))
        if b.building or b.finished:
            part.append(w.t("{building} building, {finished} finished", building=len(b.building),
                            finished=len(b.finished)))
        for u in b.units:
            unit = (w.t("patrol {cls} attack {attack} armor {armor} life {left} of {life}", cls=class_word(u.cls, w),
                        attack=u.attack, armor=u.armor, left=u.life - u.wounds, life=u.life) if u.zone == "patrol"
                    else w.t("guard {cls} attack {attack} armor {armor} life {left} of {life}",
                             cls=class_word(u.cls, w), attack=u.attack, armor=u.armor, left=u.life - u.wounds,
                             life=u.life))
            part.append(unit + (" " + w.t("tapped") if u.tapped else ""))
        part.append(w.t("hand {n}", n=b.hand_size))
        out.append("; ".join(part) + ".")
    bt = v.battle
    if bt is not None:
        line = w.t("Battle: {attacker} attacks {defender}", attacker=v.players[bt.attacker],
                   defender=v.players[bt.defender])
        if bt.values:
            line += ". " + "; ".join(value_words(v, x, w) for x in bt.values)
        out.append(line + ".")
    return clip(" ".join(out), 1000)
