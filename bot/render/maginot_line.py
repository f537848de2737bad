"""Renders of The Maginot Line (views only): embed panel, terminal text and a picture of every board."""

from __future__ import annotations

import io
from typing import Any

from bot.engine.cards import pretty
from bot.engine.core import Hidden
from bot.render.drawing import font as _font, suit_shape as _suit_shape
from bot.render.panel import Panel, clip

TITLE = "The Maginot Line"
CREDIT = ('The Maginot Line, from "Complicated Free Card Game" by Joshua Hysong and Benjamin Wright '
          "(CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free and non-commercial)")
CLASS = {1: "Light", 2: "Medium", 3: "Heavy"}
PHASE = {"aces": "Setup: everyone orders their Aces", "construction": "construction", "battle": "battles",
         "consolidation": "consolidation", "over": "game over"}


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
    return "\n".join(lines)


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
W = 800
ROW = 150
SUIT_COL = {"H": (200, 30, 40), "D": (200, 30, 40), "S": (20, 20, 20), "C": (20, 20, 20)}


def _card(d, x: int, y: int, code: Any, w: int = 34, h: int = 46, note: str = "") -> None:
    if isinstance(code, Hidden) or code is None:
        d.rounded_rectangle([x, y, x + w, y + h], 4, fill=(60, 80, 150), outline=(240, 240, 240))
    else:
        face = code.partition("@")[0]
        d.rounded_rectangle([x, y, x + w, y + h], 4, fill=(250, 250, 245), outline=(40, 40, 40))
        if face.startswith("JK"):
            d.text((x + 4, y + 14), "JK", font=_font(14), fill=(120, 0, 120))
        else:
            r = "10" if face[0] == "T" else face[0]
            col = SUIT_COL[face[1]]
            d.text((x + 3, y + 2), r, font=_font(15), fill=col)
            _suit_shape(d, face[1], x + w / 2, y + h * 0.66, 8, col)
    if note:
        d.text((x + 2, y + h + 1), note, font=_font(11), fill=(255, 230, 120))


def picture(v: Any) -> bytes:
    from PIL import Image, ImageDraw

    seats = _seat_order(v)
    extra = 90 if v.battle is not None else 0
    img = Image.new("RGB", (W, 40 + ROW * len(seats) + extra), (30, 90, 60))
    d = ImageDraw.Draw(img)
    d.text((10, 8), f"{TITLE} — {status(v)}"[:90], font=_font(16), fill=(255, 255, 255))
    y = 40
    for s in seats:
        b = v.boards[s]
        active = v.current == s and not v.over
        d.rectangle([4, y, W - 4, y + ROW - 6], outline=(255, 220, 0) if active else (20, 60, 40), width=2)
        d.text((10, y + 4), f"{b.name}" + (" — out" if b.out else ""), font=_font(16), fill=(255, 255, 255))
        d.text((10, y + 24), f"hand {b.hand_size} · deck {b.deck_size} · discard {len(b.discard)} · "
                             f"init {b.initiative}", font=_font(12), fill=(220, 240, 220))
        # base
        x = 10
        for a in b.base:
            _card(d, x, y + 44, a.card, note=f"{a.life}")
            x += 38
        if b.base_tapped:
            d.text((10, y + 108), "base tapped", font=_font(12), fill=(255, 180, 180))
        # resources
        x = 170
        for r in b.resources:
            _card(d, x, y + 44, r.card, 28, 38, note=("T" if r.tapped else "") + ("Q" if r.queen else ""))
            x += 31
        # construction
        x = max(x + 8, 300)
        d.text((x, y + 4), "building / finished", font=_font(11), fill=(220, 240, 220))
        for c in b.building:
            _card(d, x, y + 20, c.card, 26, 34, note=str(c.markers))
            x += 29
        for c in b.finished:
            _card(d, x, y + 20, c, 26, 34)
            x += 29
        # units
        x = 300
        for u in b.units:
            if x > W - 110:
                break
            col = (255, 255, 255) if u.zone == "patrol" else (150, 200, 255)
            d.text((x, y + 72), ("P" if u.zone == "patrol" else "G") + (" tapped" if u.tapped else ""),
                   font=_font(11), fill=col)
            for i, c in enumerate((u.h, u.s, u.c)):
                _card(d, x + i * 24, y + 86, c, 22, 30)
            d.text((x, y + 120), f"w{u.wounds}/{u.life}" + (f" +{card(u.queen)[-1]}" if u.queen else ""),
                   font=_font(11), fill=(255, 230, 120))
            x += 100
        y += ROW
    if v.battle is not None:
        for i, line in enumerate(battle_text(v).splitlines()[:5]):
            d.text((10, y + 4 + i * 16), line[:100], font=_font(13), fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()
