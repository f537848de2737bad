"""Renders of The Maginot Line (views only): embed panel, terminal text and a picture of every board."""

from __future__ import annotations

import functools
from typing import Any

from bot.engine.cards import pretty
from bot.engine.core import Hidden
from bot.render import drawing as dr
from bot.render.panel import Panel, clip

TITLE = "The Maginot Line"
CREDIT = ('The Maginot Line, from "Complicated Free Card Game" by Joshua Hysong and Benjamin Wright '
          "(CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free and non-commercial)")
CLASS = {1: "Light", 2: "Medium", 3: "Heavy"}
PHASE = {"aces": "Setup: everyone orders their Aces", "construction": "Construction", "battle": "Battles",
         "consolidation": "Consolidation", "over": "Game over"}


def card(code: Any) -> str:
    """``8H@2`` → ``8♥``; a hidden card → a card back."""
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
    return f"{phase}{pool}. Waiting for {who}."


def footer(v: Any) -> str:
    parts = []
    if v.rounds_limit:
        parts.append(f"Rounds played: {min(v.rounds_done, v.rounds_limit)} of {v.rounds_limit}" if v.over
                     else f"Round {v.rounds_done + 1} of {v.rounds_limit}")
    variants = [o for o in v.options if "=" not in o]
    if variants:
        parts.append("Variants: " + ", ".join(variants))
    parts.append(CREDIT)
    return " · ".join(parts)


def _seat_order(v: Any) -> list[int]:
    return list(v.order) if v.order else list(range(len(v.players)))


def panel(v: Any) -> Panel:
    p = Panel(TITLE, clip(status(v), 4096), footer=clip(footer(v), 2048))
    for s in _seat_order(v):
        b = v.boards[s]
        mark = "▶ " if v.current == s and not v.over else ""
        head = f"{mark}{b.name}" + (" (out)" if b.out else "")
        p.add(head, "out of the game" if b.out else board_text(v, b))
    if v.battle is not None:
        p.add("Battle", battle_text(v))
    if v.recent and v.seat is not None:  # the table message shows the public ones above the panel
        p.add("Recent", "\n".join(v.recent[-6:]))
    return p


def text(v: Any) -> str:
    return panel(v).as_text()


# ----- picture ------------------------------------------------------------------------------
STEP = 50  # the strip of an overlapped card left showing: its rank and suit
LIFE = (170, 30, 40)  # an Ace's life badge
MARKERS = (40, 40, 40)


def _code(c: Any) -> Any:
    """A card for the drawing kit: its face code, or a Hidden one (drawn as a back)."""
    return c.partition("@")[0] if isinstance(c, str) else c


@functools.lru_cache(maxsize=4)
def _veil(w: int = dr.CARD_W, h: int = dr.CARD_H) -> Any:
    """A tapped card's shade (RGBA), pasted over its face."""
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, w - 1, h - 1], radius=max(5, w // 10), fill=(10, 30, 20, 120))
    return img


def _badge(sheet: dr.Sheet, cx: float, cy: float, label: str, fill: Any) -> None:
    w = max(40, dr.width_of(label) + 14)
    sheet.d.rounded_rectangle([cx - w / 2, cy - 18, cx + w / 2, cy + 18], radius=18, fill=fill, outline=dr.WHITE,
                              width=2)
    dr.text(sheet.d, (cx, cy), label, dr.WHITE, red=None, anchor="mm")


def _row(sheet: dr.Sheet, cards: list[tuple[Any, bool]], x: float, y: float, width: float,
         step: float = STEP) -> list[float]:
    """Cards left to right, overlapping to fit ``width`` (a strip of at least 30 px each); a
    tapped card shaded. Returns each card's x."""
    if not cards:
        return []
    if len(cards) > 1:
        step = max(30.0, min(step, (width - dr.CARD_W) / (len(cards) - 1)))
    xs = []
    for i, (code, tapped) in enumerate(cards):
        cx = x + i * step
        dr.card(sheet.img, _code(code), cx, y)
        if tapped:
            dr.put(sheet.img, _veil(), cx, y)
        xs.append(cx)
    return xs


def _label(sheet: dr.Sheet, x: float, y: float, s: str, width: float, fill: Any = dr.MUTED) -> None:
    dr.text(sheet.d, (x, y), dr.fit(s, width), fill)


def _unit_words(u: Any) -> tuple[str, str]:
    flags = [CLASS[u.cls], "patrol" if u.zone == "patrol" else "guardian"]
    if u.tapped:
        flags.append("tapped")
    if u.new:
        flags.append("new")
    life = f"life {u.life - u.wounds} of {u.life}" if u.wounds else f"life {u.life}"
    return " · ".join(flags), f"{life} · armour {u.armor} · attack {u.attack}"


def _board_height(b: Any) -> int:
    if b.out:
        return 8 + dr.LINE + 8
    built = bool(b.building or b.finished)
    return 8 + 2 * dr.LINE + (1 + built) * (dr.LINE + dr.CARD_H + 10) + max(1, len(b.units)) * (dr.CARD_H + 10) + 4


def _height(v: Any, boards: list[Any]) -> int:
    """At least the height of the picture (the sheet is cropped to what was drawn)."""
    battle = len(battle_text(v).splitlines()[:6]) * 3 * dr.LINE if v.battle is not None else 0
    hand = 2 * (dr.CARD_H + 8) + dr.LINE
    return 300 + sum(_board_height(b) for b in boards) + battle + hand + 6 * dr.LINE


def _board(sheet: dr.Sheet, v: Any, b: Any, band: tuple[int, int, int]) -> None:
    """One player's board: base and resources, constructions, then a row per unit."""
    mine = v.seat == b.seat
    units = sorted(b.units, key=lambda u: u.zone != "patrol")
    tall = _board_height(b)
    active = v.current == b.seat and not v.over
    sheet.band(tall, (70, 60, 20) if active else band)
    d = sheet.d
    y = sheet.y + 8
    name = ("▶ " if active else "") + b.name + (" (you)" if mine else "") + (" — out" if b.out else "")
    dr.text(d, (dr.PAD, y), dr.fit(name, dr.WIDTH - 2 * dr.PAD), dr.GOLD if active else dr.WHITE)
    if b.out:
        sheet.y += tall
        return
    y += dr.LINE
    fallen = f" · fallen {' '.join(card(c) for c in b.fallen)}" if b.fallen else ""
    _label(sheet, dr.PAD, y, f"Hand {b.hand_size} · deck {b.deck_size} · discard {len(b.discard)}{fallen}",
           dr.WIDTH - 2 * dr.PAD, dr.WHITE)
    y += dr.LINE
    # Base (Ace #1 first) and resources.
    right = dr.PAD + dr.CARD_W + 3 * STEP + 24
    _label(sheet, dr.PAD, y, "Base, tapped" if b.base_tapped else "Base", right - dr.PAD - 8)
    queens = [f"{card(r.queen)} on {card(r.card)}" for r in b.resources if r.queen]
    res = f"Resources · initiative {b.initiative}" + (f" · {', '.join(queens)}" if queens else "")
    _label(sheet, right, y, res if b.resources else "No resources", dr.WIDTH - dr.PAD - right)
    y += dr.LINE
    if b.base:
        xs = _row(sheet, [(a.card, b.base_tapped) for a in b.base], dr.PAD, y, right - 24 - dr.PAD)
        for x, a in zip(xs, b.base, strict=True):
            if a.wounds:
                _badge(sheet, x + 24, y + dr.CARD_H - 20, str(a.life), LIFE)
    else:
        dr.put(sheet.img, dr.slot(), dr.PAD, y)
    _row(sheet, [(r.card, r.tapped) for r in b.resources], right, y, dr.WIDTH - dr.PAD - right)
    y += dr.CARD_H + 10
    # Constructions: cards being built (their markers on them), then finished ones.
    if b.building or b.finished:
        built = right if b.building else dr.PAD
        if b.building:
            _label(sheet, dr.PAD, y, "Building", right - dr.PAD - 8)
        if b.finished:
            _label(sheet, built, y, f"Finished ({len(b.finished)})", dr.WIDTH - dr.PAD - built)
        y += dr.LINE
        xs = _row(sheet, [(c.card, False) for c in b.building], dr.PAD, y, right - 24 - dr.PAD, step=STEP + 26)
        for x, c in zip(xs, b.building, strict=True):
            _badge(sheet, x + dr.CARD_W / 2, y + dr.CARD_H / 2 + (22 if mine else 0), str(c.markers), MARKERS)
        _row(sheet, [(c, False) for c in b.finished], built, y, dr.WIDTH - dr.PAD - built, step=40)
        y += dr.CARD_H + 10
    # Units: a row each, patrols first: its cards (and queen), its class, zone and numbers.
    if not units:
        _label(sheet, dr.PAD, y, "No units yet", dr.WIDTH - 2 * dr.PAD)
    for u in units:
        parts = [(u.h, u.tapped), (u.s, u.tapped), (u.c, u.tapped)] + ([(u.queen, u.tapped)] if u.queen else [])
        _row(sheet, parts, dr.PAD, y, dr.CARD_W + 3 * 38, step=38)
        tx = dr.PAD + dr.CARD_W + 3 * 38 + 16
        head, nums = _unit_words(u)
        dr.text(d, (tx, y + 12), dr.fit(head, dr.WIDTH - dr.PAD - tx), dr.GOLD if u.zone == "patrol" else dr.WHITE)
        dr.text(d, (tx, y + 12 + dr.LINE), dr.fit(nums, dr.WIDTH - dr.PAD - tx))
        y += dr.CARD_H + 10
    sheet.y += tall


def _title(sheet: dr.Sheet, v: Any) -> None:
    dr.text(sheet.d, (dr.PAD, sheet.y), TITLE, dr.GOLD, size=dr.TEXT + 6)
    sheet.space(dr.TEXT + 18)
    if v.rounds_limit:
        sheet.line(f"Round {v.rounds_done + 1} of {v.rounds_limit}", dr.MUTED)
    sheet.line(status(v), dr.GOLD, limit=3)
    sheet.space(6)


def picture(v: Any) -> bytes:
    """Every board for a phone: bases (Ace #1 first, life left on each), resources (shaded when
    tapped), constructions, a row per unit; the battle being fought; for a seat, its hand."""
    sheet = dr.Sheet(height=_height(v, list(v.boards)))
    _title(sheet, v)
    for i, s in enumerate(_seat_order(v)):
        _board(sheet, v, v.boards[s], dr.FELT_DARK if i % 2 == 0 else dr.FELT_LIGHT)
    sheet.space(8)
    if v.battle is not None:
        for k, ln in enumerate(battle_text(v).splitlines()[:6]):
            sheet.line(("Battle: " if k == 0 else "") + ln, dr.GOLD if k == 0 else dr.WHITE, limit=3)
    if v.seat is not None and v.boards[v.seat].hand:
        sheet.line(f"Your hand ({len(v.boards[v.seat].hand)})", dr.GOLD)
        sheet.cards([_code(c) for c in v.boards[v.seat].hand], per_row=10)
    sheet.line("An Ace has 16 life; a red badge: what a wounded one has left. Shaded: tapped. Number on a "
               "card being built: its markers.",
               dr.MUTED, limit=3)
    if v.recent:
        sheet.line(v.recent[-1], dr.MUTED, limit=2)
    return sheet.png()


def seat_picture(v: Any) -> bytes | None:
    """A seat's own cards: its hand, its base in order and the cards it is building (all secret
    from the others), with its resources, units and the battle, for a phone."""
    if v.seat is None:
        return None
    b = v.boards[v.seat]
    if not (b.hand or b.base or b.building):
        return None
    sheet = dr.Sheet(height=_height(v, [b]))
    dr.text(sheet.d, (dr.PAD, sheet.y), dr.fit(f"Your cards — {b.name}", dr.WIDTH - 2 * dr.PAD), dr.GOLD,
            size=dr.TEXT + 6)
    sheet.space(dr.TEXT + 18)
    if v.rounds_limit:
        sheet.line(f"Round {v.rounds_done + 1} of {v.rounds_limit}", dr.MUTED)
    sheet.line(status(v), dr.GOLD, limit=3)
    sheet.line(f"Your hand ({len(b.hand)})" if b.hand else "Your hand: empty", dr.GOLD)
    sheet.cards([_code(c) for c in b.hand], per_row=10)
    sheet.space(4)
    _board(sheet, v, b, dr.FELT_DARK)
    if v.battle is not None:
        sheet.space(8)
        for k, ln in enumerate(battle_text(v).splitlines()[:6]):
            sheet.line(("Battle: " if k == 0 else "") + ln, dr.GOLD if k == 0 else dr.WHITE, limit=3)
    return sheet.png()
