"""Renders of a Gridcannon view (:class:`GridcannonView`): the Discord panel, the terminal text
and a PNG of the table, each in one reader's language (``lang``: ``en``, ``es``, ``de``; the
engine's phrases said through ``bot.i18n.words``). Only the view is read; never the game state."""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bot.engine.cards import pretty_text
from bot.engine.gridcannon.view import CellView, GridcannonView, SlotView
from bot.i18n import Words, words
from bot.render.panel import Panel, clip, options_words
from bot.render import drawing as dr

W = 7  # width of one column of the text table


EN = words("en")


def _event(w: Words, line: str) -> str:
    """A log line in the reader's language (English: card codes of an older state's lines made pretty)."""
    return pretty_text(line) if w.english else w.line(line)


def _p(card: str | None, w: Words = EN) -> str:
    return w.card(card) if card else "—"


def _cards(cs: tuple[str, ...] | None, w: Words = EN) -> str:
    return " ".join(w.card(c) for c in cs) if cs else "—"


def _centre(s: str, w: int = W) -> str:
    return s.center(w)


def _slot_label(s: SlotView, w: Words = EN) -> str:
    if s.state == "empty" or s.royal is None:
        return "·"
    if s.state == "dead":
        return "✗" + w.card(s.royal)
    return f"{w.card(s.royal)}:{s.health}"


def _cell_label(c: CellView, w: Words = EN) -> str:
    if not c.top:
        return "[ ]"
    return w.card(c.top) + (f"×{c.height}" if c.height > 1 else "")


def grid_block(view: GridcannonView, w: Words = EN) -> str:
    """The 5x5 table: the 3x3 grid with its 12 royal slots around it (monospace), its rows and
    columns named as moves name its cells (``r1c2``: row 1, column 2), each slot by its name."""
    slots = {s.slot: s for s in view.slots}
    label = {k: _slot_label(s, w) for k, s in slots.items()}

    def row(middle: Sequence[str], r: int | None = None) -> str:
        """One line: the three middle columns; for a row of cells, its side slots and names too."""
        left, right, name = (f"L{r}", f"R{r}", f"r{r}") if r is not None else ("", "", "")
        sides = (label.get(left, ""), label.get(right, ""))
        return (f"{left:<3}{_centre(sides[0])}{name:<3}" + "".join(_centre(x) for x in middle)
                + _centre(sides[1]) + (f" {right}" if right else "")).rstrip()

    rows = [row(("T1", "T2", "T3")), row([label[f"T{k}"] for k in (1, 2, 3)]), row(("c1", "c2", "c3"))]
    rows += [row([_cell_label(view.grid[3 * (r - 1) + c], w) for c in range(3)], r) for r in (1, 2, 3)]
    rows += [row([label[f"B{k}"] for k in (1, 2, 3)]), row(("B1", "B2", "B3"))]
    return "\n".join(rows)


def royals_text(view: GridcannonView, w: Words = EN) -> str:
    lines = []
    for s in view.slots:
        if s.state != "living" or s.royal is None:
            continue
        royal = w.card(s.royal)
        if s.armour:
            lines.append(w.t("{royal} at {slot}: health {health}, armour {armour}; attack now {attack}", royal=royal,
                             slot=s.slot, health=s.health, armour=_cards(s.armour, w), attack=s.attack))
        else:
            lines.append(w.t("{royal} at {slot}: health {health}; attack now {attack}", royal=royal, slot=s.slot,
                             health=s.health, attack=s.attack))
    dead = [f"{w.card(s.royal)} ({s.slot})" for s in view.slots if s.state == "dead" and s.royal]
    if dead:
        lines.append(w.t("Dead ({n}/12): {royals}", n=len(dead), royals=", ".join(dead)))
    empty = sum(1 for s in view.slots if s.state == "empty")
    if empty:
        lines.append(w.t("Empty slots: {n}", n=empty))
    return "\n".join(lines) or "—"


def stash_text(view: GridcannonView, w: Words = EN) -> str:
    if view.classic:
        return w.t("No stash in Classic: aces and jokers reset stacks.")
    if not view.stash:
        return w.t("No ploys yet.")
    parts = [("~~" + w.card(p.card) + "~~") if p.spent else w.card(p.card) for p in view.stash]
    return " ".join(parts) + "\n" + w.t("{unspent} unspent, {spent} spent", unspent=view.unspent_in_stash,
                                        spent=view.ploys_spent)


def _stash_plain(view: GridcannonView, w: Words = EN, sep: str = "") -> str:
    if view.classic:
        return w.t("none (Classic)")
    if not view.stash:
        return w.t("none yet")
    spent = sep + w.t("(spent)")
    return " ".join(w.card(p.card) + (spent if p.spent else "") for p in view.stash)


def piles_text(view: GridcannonView, w: Words = EN) -> str:
    lines = [w.n("Deck: {n} card", "Deck: {n} cards", view.deck)]
    if view.memory is not None:
        lines.append(w.t("Known at the bottom (next first): {cards}", cards=_cards(view.memory, w)))
    if view.cycle:
        lines.append(w.t("Cycle pile: {cards}", cards=_cards(view.cycle, w)))
    if view.set_aside:
        lines.append(w.t("Set aside: {cards}", cards=_cards(view.set_aside, w)))
    if view.shame is not None:
        lines.append(w.t("Shame pile ({n}): {cards}", n=len(view.shame), cards=_cards(view.shame, w)))
    return "\n".join(lines)


def status(view: GridcannonView, lang: str = "en") -> str:
    w = words(lang)
    if view.over:
        return w.line(view.result)
    return pretty_text(view.prompt) if w.english else w.line(view.prompt)


def footer(view: GridcannonView, w: Words = EN) -> str:
    opts = options_words(view.options) or w.t("Version 2")
    if not view.over and not view.classic:
        return w.t("Rules: {options} · kills {kills}/12 · score if you win now: {score}", options=opts,
                   kills=view.kills, score=view.score_so_far)
    return w.t("Rules: {options} · kills {kills}/12", options=opts, kills=view.kills)


def panel(view: GridcannonView, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (what just happened,
    what is asked); ``with_picture=False``: the table in text as well."""
    w = words(lang)
    # The public table message shows the recent moves above the panel: a seat's view lists them here.
    events = "\n".join(_event(w, e) for e in view.latest[-(3 if with_picture else 8):]) if view.seat is not None \
        else ""
    desc = (events + "\n\n" if events else "") + f"**{status(view, lang)}**"
    p = Panel(title="Gridcannon", description=clip(desc, 4096), footer=clip(footer(view, w), 2048))
    if view.over:
        p.colour = 0x2F7D4F if view.won else 0x8B1E1E
    if with_picture:
        return p
    p.add(w.t("Table"), "```\n" + grid_block(view, w) + "\n```")
    p.add(w.t("Royals"), royals_text(view, w))
    p.add(w.t("Pending card"), _p(view.pending, w), True)
    p.add(w.t("Stash"), stash_text(view, w), True)
    p.add(w.t("Piles"), piles_text(view, w), True)
    return p


def text(view: GridcannonView, lang: str = "en") -> str:
    w = words(lang)
    parts = [f"== Gridcannon ({w.say(view.stage)}) =="]
    parts += [_event(w, e) for e in view.latest]
    parts.append("")
    parts.append(grid_block(view, w))
    parts.append("")
    parts.append(w.t("Royals:") + "\n" + royals_text(view, w))
    parts.append(w.t("Stacks (bottom to top): {stacks}", stacks=" · ".join(
        f"{c.cell} {' '.join(w.card(x) for x in c.stack)}" for c in view.grid if c.stack)))
    parts.append(w.t("Pending: {card}   Stash: {stash}", card=_p(view.pending, w), stash=_stash_plain(view, w)))
    parts.append(piles_text(view, w))
    parts.append("")
    parts.append(">> " + status(view, lang))
    parts.append(footer(view, w))
    return "\n".join(parts)


def alt_text(view: GridcannonView, lang: str = "en") -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: what is asked, the nine cells, the royals, the drawn card, the stash and the piles."""
    w = words(lang)
    cells = "; ".join((f"{c.cell} {w.card(c.top)}" + (" " + w.t("(stack of {n})", n=c.height) if c.height > 1 else ""))
                      if c.top else w.t("{cell} empty", cell=c.cell) for c in view.grid)
    royals = []
    for s in view.slots:
        if s.state == "living" and s.royal is not None:
            if s.armour:
                royals.append(w.t("{royal} at {slot}, health {health}, armour {armour}", royal=w.card(s.royal),
                                  slot=s.slot, health=s.health, armour=len(s.armour)))
            else:
                royals.append(w.t("{royal} at {slot}, health {health}", royal=w.card(s.royal), slot=s.slot,
                                  health=s.health))
    parts = [f"Gridcannon. {status(view, lang)}", w.t("Grid: {cells}.", cells=cells)]
    parts.append(w.t("Living royals: {royals}.", royals="; ".join(royals)) if royals else w.t("No living royal."))
    parts.append(w.t("Kills {kills} of 12.", kills=view.kills))
    if view.pending:
        parts.append(w.t("Drawn: {card}.", card=w.card(view.pending)))
    parts.append(w.t("Deck: {n}. Stash: {stash}.", n=view.deck, stash=_stash_plain(view, w, " ")))
    return clip(" ".join(parts).replace("🃏", w.t("Joker")), 1000)


# ----- picture --------------------------------------------------------------------------
SPACE = 152  # one position of the 5x5 table at the design width
GRID_X = (dr.WIDTH - 5 * SPACE) // 2
GW, GH = 100, 132  # a card on the table
ROW = GH + dr.LINE + 8  # one row of the 5x5 table: a card and its name below it
HEALTH = dr.HEALTH


def warm() -> None:
    """Draw the table's card faces, backs and places once (a fresh picture worker calls this)."""
    dr.faces(GW, GH)
    dr.back(GW, GH, dr.GRIDCANNON_BACK), dr.slot(GW, GH), dr.slot(GW, GH, dr.STACK_EDGE)


def _badge(sheet: dr.Sheet, cx: float, cy: float, label: str, fill) -> None:
    w = int(max(40, dr.width_of(label) + 16))
    dr.put(sheet.img, dr.box(w + 1, 39, 19, fill, dr.WHITE, 2), cx - w / 2, cy - 19)
    dr.text(sheet.d, (cx, cy), label, dr.WHITE, red=None, anchor="mm")


def _place(col: int, row: int, top: float) -> tuple[float, float]:
    return GRID_X + col * SPACE + (SPACE - GW) / 2, top + row * ROW


def _label(sheet: dr.Sheet, x: float, y: float, label: str, fill=dr.WHITE) -> None:
    dr.text(sheet.d, (x + GW / 2, y + GH + 2), dr.fit(label, SPACE - 4), fill, anchor="ma")


def _cell(sheet: dr.Sheet, cell: CellView, x: float, y: float) -> None:
    if not cell.top:
        dr.put(sheet.img, dr.slot(GW, GH), x, y)
    else:
        for k in range(min(cell.height - 1, 3), 0, -1):
            dr.put(sheet.img, dr.slot(GW, GH, dr.STACK_EDGE), x + 4 * k, y - 4 * k)
        dr.card(sheet.img, cell.top, x, y, GW, GH)
        if cell.height > 1:
            _badge(sheet, x + GW - 14, y + GH - 18, f"×{cell.height}", dr.BADGE)
    _label(sheet, x, y, cell.cell, dr.GOLD)


def _royal(sheet: dr.Sheet, s: SlotView, x: float, y: float, w: Words = EN) -> None:
    if s.state == "empty" or s.royal is None:
        dr.put(sheet.img, dr.slot(GW, GH), x, y)
        _label(sheet, x, y, s.slot, dr.MUTED)
        return
    dr.card(sheet.img, s.royal, x, y, GW, GH)
    if s.state == "dead":
        d = sheet.d
        d.line([x + 30, y + 60, x + GW - 12, y + GH - 12], fill=dr.CROSS, width=8)
        d.line([x + GW - 12, y + 60, x + 30, y + GH - 12], fill=dr.CROSS, width=8)
        _label(sheet, x, y, w.t("{slot} dead", slot=s.slot), dr.MUTED)
        return
    _badge(sheet, x + GW - 12, y + 14, str(s.health), HEALTH)
    if s.armour:
        _badge(sheet, x + 18, y + GH - 16, f"+{len(s.armour)}", dr.ARMOUR)
    _label(sheet, x, y, s.slot)


def _corner(sheet: dr.Sheet, x: float, y: float, title: str, lines: list[str]) -> None:
    dr.text(sheet.d, (x - 20, y + 4), title, dr.GOLD)
    for k, ln in enumerate(lines[:3]):
        dr.text(sheet.d, (x - 20, y + 4 + (k + 1) * dr.LINE), dr.fit(ln, SPACE + 10))


# The 25 places of the 5x5 table (a cell, a royal's slot, a corner), each in a box of its own: the
# boxes part the table's band, a place draws only inside its box (its card, the stack's edges 12 px
# above and right of it, badges, its name below it) and nothing else draws there but the felt under
# it, so a place's box is the same pixels whenever the place is in the same state (the picture's top
# aside, which moves the whole band). Columns: the stash's fan of three reaches 6 px past its column.
COLUMNS = (0, GRID_X + SPACE + 8, GRID_X + 2 * SPACE, GRID_X + 3 * SPACE, GRID_X + 4 * SPACE, dr.WIDTH)
ABOVE = 12  # a place's box starts this far above its card (a stack's edges)
TILES = 512  # places' boxes kept (each about 27 kB: 14 MB at most); the bench's 151-move game draws 356
# bench: gridcannon: animation of a 151-move game, CPU — a place in a state drawn before is its box pasted
_tiles: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def place_box(col: int, row: int, top: int) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of the place at ``col``, ``row`` of a table at ``top``."""
    y = top + row * ROW - ABOVE
    return COLUMNS[col], y, COLUMNS[col + 1], y + ROW


def forget_tiles() -> None:
    """Drop every kept place and paragraph (the next pictures draw them all again)."""
    _tiles.clear()
    _paragraphs.clear()


PARAGRAPHS = 64  # paragraphs kept (each 29 kB a line)
# bench: gridcannon: animation of a 151-move game, CPU — a paragraph drawn before (the status, the notes) pasted
_paragraphs: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def _line(sheet: dr.Sheet, s: str, fill: Any = dr.WHITE, limit: int = 6) -> None:
    """``sheet.line`` at the left margin, its rows kept: a paragraph on the plain felt, across the
    sheet with nothing else in its rows, is the same pixels wherever it is drawn."""
    key = (dr.words(s), fill, limit)  # the words as drawn (a joker named in the picture's language)
    y = sheet.y
    tile = _paragraphs.get(key)
    if tile is not None:
        _paragraphs.move_to_end(key)
        sheet.img.paste(tile, (0, y))
        sheet.y = y + tile.height
        return
    sheet.line(s, fill, limit=limit)
    if sheet.y <= sheet.img.height:
        _paragraphs[key] = sheet.img.crop((0, y, sheet.width, sheet.y))
        if len(_paragraphs) > PARAGRAPHS:
            _paragraphs.popitem(last=False)


def _place_tile(sheet: dr.Sheet, col: int, row: int, top: int, key: tuple[Any, ...],
                draw: Callable[[], None]) -> None:
    """Draw the place at ``col``, ``row`` in the state ``key`` (``draw`` draws it), or paste its box
    as it was drawn before."""
    box = place_box(col, row, top)
    key = (col, row, dr.joker_word(), *key)
    tile = _tiles.get(key)
    if tile is not None:
        _tiles.move_to_end(key)
        sheet.img.paste(tile, box[:2])
        return
    draw()
    if box[3] <= sheet.img.height:
        _tiles[key] = sheet.img.crop(box)
        if len(_tiles) > TILES:
            _tiles.popitem(last=False)


Place = tuple[int, int, tuple[Any, ...], Callable[[], None]]
_WHERE = {**{f"T{k}": (k, 0) for k in (1, 2, 3)}, **{f"B{k}": (k, 4) for k in (1, 2, 3)},
          **{f"L{k}": (0, k) for k in (1, 2, 3)}, **{f"R{k}": (4, k) for k in (1, 2, 3)}}


def _places(sheet: dr.Sheet, view: GridcannonView, top: int, w: Words = EN) -> Iterator[Place]:
    """Every place of the table as (column, row, its state: all its drawing reads, a drawing of it
    on ``sheet``), in the order they are drawn: the cells, the royals' slots, the corners."""
    for cell in view.grid:
        c, r = int(cell.cell[3]), int(cell.cell[1])
        yield c, r, (cell.cell, cell.top, cell.height), functools.partial(_cell, sheet, cell, *_place(c, r, top))
    for s in view.slots:
        c, r = _WHERE[s.slot]
        if s.state == "empty" or s.royal is None:
            state: tuple[Any, ...] = (s.slot, "empty")
        elif s.state == "dead":
            state = (s.slot, "dead", s.royal)
        else:
            state = (s.slot, "living", s.royal, s.health, len(s.armour))
        yield c, r, (w.lang, *state), functools.partial(_royal, sheet, s, *_place(c, r, top), w)
    # The corners: draw pile, drawn card, stash (or Classic's piles), kills.
    kills = ("kills", view.kills, view.living)
    yield 0, 0, (w.lang, "deck", view.deck), functools.partial(_deck, sheet, view.deck, *_place(0, 0, top), w)
    yield 4, 0, (w.lang, *(("drawn", view.pending) if view.pending else kills)), \
        functools.partial(_drawn, sheet, view, *_place(4, 0, top), w)
    unspent = tuple(p.card for p in view.stash if not p.spent)
    yield 0, 4, (w.lang, *(("classic",) if view.classic else ("stash", unspent))), \
        functools.partial(_stash, sheet, view.classic, unspent, *_place(0, 4, top), w)
    end = ("over", view.won, view.score, view.kills) if view.over else kills if view.pending else ("none",)
    yield 4, 4, (w.lang, *end), functools.partial(_end, sheet, view, *_place(4, 4, top), w)


def _deck(sheet: dr.Sheet, deck: int, x: float, y: float, w: Words = EN) -> None:
    if deck:
        dr.put(sheet.img, dr.back(GW, GH, dr.GRIDCANNON_BACK), x, y)
        _badge(sheet, x + GW / 2, y + GH / 2, str(deck), dr.BADGE)
    else:
        dr.put(sheet.img, dr.slot(GW, GH), x, y)
    _label(sheet, x, y, w.t("Deck"), dr.MUTED)


def _kills(w: Words, view: GridcannonView) -> list[str]:
    return [w.t("{kills} of 12", kills=view.kills), w.t("{n} living", n=view.living)]


def _drawn(sheet: dr.Sheet, view: GridcannonView, x: float, y: float, w: Words = EN) -> None:
    if view.pending:
        dr.card(sheet.img, view.pending, x, y, GW, GH)
        _label(sheet, x, y, w.t("Drawn"), dr.GOLD)
    else:
        _corner(sheet, x, y, w.t("Kills"), _kills(w, view))


def _stash(sheet: dr.Sheet, classic: bool, unspent: tuple[str, ...], x: float, y: float, w: Words = EN) -> None:
    if classic:
        _corner(sheet, x, y, w.t("Classic"), [w.t("no stash")])
    elif unspent:
        dr.fan(sheet.img, unspent, x - 20, y, SPACE, GW, GH, step=26)
        _label(sheet, x, y, w.t("Stash"), dr.GOLD)
    else:
        _corner(sheet, x, y, w.t("Stash"), [w.t("empty")])


def _end(sheet: dr.Sheet, view: GridcannonView, x: float, y: float, w: Words = EN) -> None:
    if view.over:
        _corner(sheet, x, y, w.t("Won") if view.won else w.t("Lost"),
                [w.t("score {score}", score=view.score) if view.score is not None else "",
                 w.t("kills {kills}", kills=view.kills)])
    elif view.pending:
        _corner(sheet, x, y, w.t("Kills"), _kills(w, view))


def picture(view: GridcannonView, lang: str = "en") -> bytes:
    """The table for a phone: the 3x3 grid (cells r1c1..r3c3) with its 12 royal slots (T1..R3)
    around it, the draw pile, the drawn card, the stash and the kills in the corners."""
    return dr.sized(lambda height: _picture(view, height, words(lang)), 1400)


def _picture(view: GridcannonView, height: int, w: Words = EN) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    dr.text(sheet.d, (dr.PAD, sheet.y), "Gridcannon", dr.GOLD, size=dr.TEXT + 6)
    sheet.space(dr.TEXT + 18)
    _line(sheet, status(view, w.lang), dr.GOLD, limit=3)
    sheet.space(12)
    top = sheet.y
    x0, y0 = _place(1, 1, top)
    x1, y1 = _place(3, 3, top)
    dr.put(sheet.img, dr.box(int(x1 - x0) + GW + 41, int(y1 - y0) + GH + dr.LINE + 17, 16, dr.FELT_DARK), x0 - 20, y0 - 12)
    for col, row, key, draw in _places(sheet, view, top, w):
        _place_tile(sheet, col, row, top, key, draw)
    sheet.y = top + 5 * ROW + 8
    _line(sheet, w.t("Red badge: a royal's health. Grey number: cards in a stack."), dr.MUTED, limit=2)
    spent = [p.card for p in view.stash if p.spent]
    if spent:
        _line(sheet, w.t("Spent ploys: {cards}", cards=_cards(tuple(spent), w)), limit=2)
    if view.memory:
        _line(sheet, w.t("Known at the bottom (next first): {cards}", cards=_cards(view.memory, w)), limit=3)
    if view.cycle:
        _line(sheet, w.t("Cycle pile: {cards}", cards=_cards(view.cycle, w)), limit=3)
    if view.set_aside:
        _line(sheet, w.t("Set aside: {cards}", cards=_cards(view.set_aside, w)), limit=3)
    if view.shame is not None:
        _line(sheet, w.t("Shame pile ({n}): {cards}", n=len(view.shame), cards=_cards(view.shame, w)), limit=3)
    if not view.over and not view.classic:
        _line(sheet, w.t("Kills {kills} of 12 · score if you win now: {score}", kills=view.kills,
                         score=view.score_so_far), dr.MUTED, limit=2)
    for ln in view.latest[-3:]:
        sheet.line(_event(w, ln), dr.MUTED, limit=2)
    return sheet.png()
