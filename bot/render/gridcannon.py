"""Renders of a Gridcannon view (:class:`GridcannonView`): the Discord panel, the terminal text
and a PNG of the table. Only the view is read; never the game state."""

from __future__ import annotations

import io
from bot.engine.cards import is_joker, is_red, pretty, pretty_text, suit
from bot.engine.gridcannon.view import CellView, GridcannonView, SlotView
from bot.render.panel import Panel, clip
from bot.render.drawing import font as _font, suit_shape as _suit_shape

CREDIT = "Based on Gridcannon by Tom Francis"
W = 7  # width of one column of the text table


def _p(card: str | None) -> str:
    return pretty(card) if card else "—"


def _cards(cs: tuple[str, ...] | None) -> str:
    return " ".join(pretty(c) for c in cs) if cs else "—"


def _centre(s: str, w: int = W) -> str:
    return s.center(w)


def _slot_label(s: SlotView) -> str:
    if s.state == "empty" or s.royal is None:
        return "·"
    if s.state == "dead":
        return "✗" + pretty(s.royal)
    return f"{pretty(s.royal)}:{s.health}"


def _cell_label(c: CellView) -> str:
    if not c.top:
        return "[ ]"
    return pretty(c.top) + (f"×{c.height}" if c.height > 1 else "")


def grid_block(view: GridcannonView) -> str:
    """The 5x5 table: the 3x3 grid with its 12 royal slots around it (monospace)."""
    slots = {s.slot: s for s in view.slots}
    cells = view.grid
    rows = []
    top = "".join(_centre(k) for k in ("", "T1", "T2", "T3", ""))
    rows.append(top.rstrip())
    rows.append("".join(_centre(x) for x in ["", *(_slot_label(slots[f"T{k}"]) for k in (1, 2, 3)), ""]).rstrip())
    for r in range(3):
        line = [_slot_label(slots[f"L{r + 1}"])] + [_cell_label(cells[3 * r + c]) for c in range(3)]
        line.append(_slot_label(slots[f"R{r + 1}"]))
        label = f"L{r + 1}"
        rows.append(label + " " + "".join(_centre(x) for x in line) + f" R{r + 1}")
    rows.append("".join(_centre(x) for x in ["", *(_slot_label(slots[f"B{k}"]) for k in (1, 2, 3)), ""]).rstrip())
    rows.append("".join(_centre(k) for k in ("", "B1", "B2", "B3", "")).rstrip())
    # Align the rows without the side labels with the labelled ones (3 chars of label).
    return "\n".join(r if r.startswith(("L", "R")) else "   " + r for r in rows)


def royals_text(view: GridcannonView) -> str:
    lines = []
    for s in view.slots:
        if s.state != "living" or s.royal is None:
            continue
        arm = f", armour {_cards(s.armour)}" if s.armour else ""
        lines.append(f"{pretty(s.royal)} at {s.slot}: health {s.health}{arm}; attack now {s.attack}")
    dead = [f"{pretty(s.royal)} ({s.slot})" for s in view.slots if s.state == "dead" and s.royal]
    if dead:
        lines.append(f"Dead ({len(dead)}/12): " + ", ".join(dead))
    empty = sum(1 for s in view.slots if s.state == "empty")
    if empty:
        lines.append(f"Empty slots: {empty}")
    return "\n".join(lines) or "—"


def stash_text(view: GridcannonView) -> str:
    if view.classic:
        return "No stash in Classic: aces and jokers reset stacks."
    if not view.stash:
        return "No ploys yet."
    parts = [("~~" + pretty(p.card) + "~~") if p.spent else pretty(p.card) for p in view.stash]
    return " ".join(parts) + f"\n{view.unspent_in_stash} unspent, {view.ploys_spent} spent"


def _stash_plain(view: GridcannonView) -> str:
    if view.classic:
        return "none (Classic)"
    if not view.stash:
        return "none yet"
    return " ".join(pretty(p.card) + ("(spent)" if p.spent else "") for p in view.stash)


def piles_text(view: GridcannonView) -> str:
    lines = [f"Deck: {view.deck} card{'s' * (view.deck != 1)}"]
    if view.memory is not None:
        lines.append("Known at the bottom (next first): " + _cards(view.memory))
    if view.cycle:
        lines.append("Cycle pile: " + _cards(view.cycle))
    if view.set_aside:
        lines.append("Set aside: " + _cards(view.set_aside))
    if view.shame is not None:
        lines.append(f"Shame pile ({len(view.shame)}): " + _cards(view.shame))
    return "\n".join(lines)


def status(view: GridcannonView) -> str:
    if view.over:
        return view.result
    return pretty_text(view.prompt)


def footer(view: GridcannonView) -> str:
    opts = ", ".join(view.options) or "Version 2"
    score = ""
    if not view.over and not view.classic:
        score = f" · score if you win now: {view.score_so_far}"
    return f"Rules: {opts} · kills {view.kills}/12{score} · {CREDIT}"


def panel(view: GridcannonView) -> Panel:
    events = "\n".join(pretty_text(e) for e in view.latest[-8:])
    desc = (events + "\n\n" if events else "") + f"**{status(view)}**"
    p = Panel(title="Gridcannon", description=clip(desc, 4096), footer=clip(footer(view), 2048))
    if view.over:
        p.colour = 0x2F7D4F if view.won else 0x8B1E1E
    p.add("Table", "```\n" + grid_block(view) + "\n```")
    p.add("Royals", royals_text(view))
    p.add("Pending card", _p(view.pending), True)
    p.add("Stash", stash_text(view), True)
    p.add("Piles", piles_text(view), True)
    return p


def text(view: GridcannonView) -> str:
    parts = [f"== Gridcannon ({view.stage}) =="]
    parts += [pretty_text(e) for e in view.latest]
    parts.append("")
    parts.append(grid_block(view))
    parts.append("")
    parts.append("Royals:\n" + royals_text(view))
    parts.append("Stacks: " + "  ".join(
        f"{c.cell}=[{' '.join(pretty(x) for x in c.stack)}]" for c in view.grid if c.stack))
    parts.append(f"Pending: {_p(view.pending)}   Stash: {_stash_plain(view)}")
    parts.append(piles_text(view))
    parts.append("")
    parts.append(">> " + status(view))
    parts.append(footer(view))
    return "\n".join(parts)


# ----- picture --------------------------------------------------------------------------
SIZE = 700
MARGIN = 10
SPACE = (SIZE - 2 * MARGIN) // 5  # 136 px per position
CARD_W, CARD_H = 88, 120
FELT = (31, 98, 56)
FELT_DARK = (22, 72, 41)
RED = (200, 30, 40)
BLACK = (20, 20, 20)


def _card(d, x: float, y: float, card: str, grey: bool = False) -> None:
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=9, fill=(250, 250, 245), outline=(60, 60, 60), width=2)
    if is_joker(card):
        colour = (120, 40, 160)
        d.text((x + CARD_W / 2, y + CARD_H / 2), "JOKER", fill=colour, font=_font(16), anchor="mm")
        return
    colour = RED if is_red(card) else BLACK
    rank = "10" if card[0] == "T" else card[0]
    d.text((x + 7, y + 5), rank, fill=colour, font=_font(22), anchor="la")
    _suit_shape(d, suit(card), x + 16, y + 42, 8, colour)
    _suit_shape(d, suit(card), x + CARD_W / 2 + 8, y + CARD_H / 2 + 14, 22, colour)


def _back(d, x: float, y: float) -> None:
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=9, fill=(70, 45, 110), outline=(230, 230, 230), width=2)
    d.rounded_rectangle([x + 8, y + 8, x + CARD_W - 8, y + CARD_H - 8], radius=6, outline=(160, 130, 200), width=2)


def _badge(d, cx: float, cy: float, label: str, fill, fg=(255, 255, 255)) -> None:
    f = _font(15)
    w = max(26, d.textlength(label, font=f) + 12)
    d.rounded_rectangle([cx - w / 2, cy - 12, cx + w / 2, cy + 12], radius=12, fill=fill, outline=(255, 255, 255))
    d.text((cx, cy), label, fill=fg, font=f, anchor="mm")


def _origin(col: int, row: int) -> tuple[float, float]:
    x = MARGIN + col * SPACE + (SPACE - CARD_W) / 2
    y = MARGIN + row * SPACE + (SPACE - CARD_H) / 2
    return x, y


def _info(d, col: int, row: int, title: str, lines: list[str]) -> None:
    x = MARGIN + col * SPACE + 8
    y = MARGIN + row * SPACE + 10
    d.text((x, y), title, fill=(255, 235, 150), font=_font(15))
    for i, line in enumerate(lines[:6]):
        d.text((x, y + 22 + i * 18), line, fill=(240, 240, 240), font=_font(13))


def picture(view: GridcannonView) -> bytes | None:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (SIZE, SIZE), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([MARGIN + SPACE - 4, MARGIN + SPACE - 4, MARGIN + 4 * SPACE + 4, MARGIN + 4 * SPACE + 4],
                        radius=14, fill=FELT_DARK)
    # The grid.
    for cell in view.grid:
        r, c = int(cell.cell[1]), int(cell.cell[3])
        x, y = _origin(c, r)
        if not cell.top:
            d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=9, outline=(120, 170, 130), width=2)
            d.text((x + CARD_W / 2, y + CARD_H / 2), cell.cell, fill=(150, 200, 160), font=_font(14), anchor="mm")
            continue
        for k in range(min(cell.height - 1, 3), 0, -1):
            d.rounded_rectangle([x + 3 * k, y - 3 * k, x + CARD_W + 3 * k, y + CARD_H - 3 * k], radius=9,
                                fill=(215, 215, 205), outline=(60, 60, 60))
        _card(d, x, y, cell.top)
        if cell.height > 1:
            _badge(d, x + CARD_W - 4, y + CARD_H - 4, f"×{cell.height}", (40, 40, 40))
    # The royal slots.
    where = {}
    for k in (1, 2, 3):
        where[f"T{k}"] = (k, 0)
        where[f"B{k}"] = (k, 4)
        where[f"L{k}"] = (0, k)
        where[f"R{k}"] = (4, k)
    for s in view.slots:
        col, row = where[s.slot]
        x, y = _origin(col, row)
        if s.state == "empty" or s.royal is None:
            d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=9, outline=(200, 220, 200), width=2)
            d.text((x + CARD_W / 2, y + CARD_H / 2), s.slot, fill=(200, 220, 200), font=_font(18), anchor="mm")
            continue
        if s.state == "dead":
            _card(d, x, y, s.royal)
            d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=9, fill=(90, 90, 90), outline=(40, 40, 40))
            d.text((x + CARD_W / 2, y + 22), pretty_label(s.royal), fill=(200, 200, 200), font=_font(16),
                   anchor="mm")
            d.line([x + 14, y + 40, x + CARD_W - 14, y + CARD_H - 14], fill=(210, 50, 50), width=6)
            d.line([x + CARD_W - 14, y + 40, x + 14, y + CARD_H - 14], fill=(210, 50, 50), width=6)
            continue
        _card(d, x, y, s.royal)
        _badge(d, x + CARD_W - 2, y + 4, str(s.health), (170, 30, 30))
        if s.armour:
            _badge(d, x + 14, y + CARD_H - 2, f"+{len(s.armour)}", (60, 60, 140))
    # Corners: deck, pending card, stash, cycle pile / state.
    deck_lines = [f"{view.deck} cards"]
    if view.memory:
        deck_lines.append(f"{len(view.memory)} known below")
    if view.cycle:
        deck_lines.append(f"cycle: {len(view.cycle)}")
    if view.set_aside:
        deck_lines.append(f"set aside: {len(view.set_aside)}")
    if view.shame is not None:
        deck_lines.append(f"shame: {len(view.shame)}")
    x, y = _origin(0, 0)
    if view.deck:
        _back(d, x + 10, y + 4)
        _badge(d, x + 10 + CARD_W / 2, y + CARD_H - 10, str(view.deck), (40, 40, 40))
    else:
        _info(d, 0, 0, "Deck", deck_lines)
    if view.pending:
        px, py = _origin(4, 0)
        _card(d, px, py + 6, view.pending)
        d.text((px + CARD_W / 2, py - 2), "pending", fill=(255, 235, 150), font=_font(13), anchor="mm")
    else:
        _info(d, 4, 0, "Kills", [f"{view.kills}/12 dead", f"{view.living} living"])
    if view.classic:
        _info(d, 0, 4, "Piles", deck_lines)
    else:
        stash = [f"{'spent ' if p.spent else ''}{'joker' if is_joker(p.card) else 'ace ' + p.card[1]}"
                 for p in view.stash]
        _info(d, 0, 4, "Stash", stash or ["empty"])
    if view.over:
        _info(d, 4, 4, "Over", ["Won" if view.won else "Lost", f"score {view.score}" if view.score is not None else ""])
    else:
        _info(d, 4, 4, "Now", [view.stage] + deck_lines[1:])
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def pretty_label(card: str) -> str:
    """ASCII name of a royal for the picture (the font may lack suit glyphs)."""
    return card if is_joker(card) else ("10" if card[0] == "T" else card[0]) + card[1]
