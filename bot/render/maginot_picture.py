"""The Maginot Line's picture (views only): every board as a band of chips and unit blocks, the battle
as a diagram, drawn for a phone."""

from __future__ import annotations

from typing import Any

from bot.render import drawing as dr
from bot.render.maginot_sprites import (  # noqa: F401 — TAPPED is imported from here too
    ACTIVE_BAND, BATTLE_BAND, BLOCK_H, BLOCK_W, BOOST, CHIP_H, DARK_BAND, GAP, INNER, LIGHT_BAND, TAPPED, WOUND,
    _ace_sprite, _arrow, _card_ink, _chip, _code, _index, _label, _legend_strip, _palette, _quantize, _tile,
    _unit_sprite, _value,
)
from bot.i18n import Words, words
from bot.render.maginot_words import EN, TITLE, _seat_order, _teams, card, status, thing_name


def _flow(sheet: dr.Sheet | None, tiles: list[Any], y: float, h: int, gaps: dict[int, int] | None = None,
          x0: float = dr.PAD, w: int | None = None) -> float:
    """Tiles left to right from ``x0``, wrapping; ``gaps``: extra space before the tile at that
    index. Returns the y below them; with no sheet, only measures."""
    x = x0
    for i, t in enumerate(tiles):
        tw = w if w is not None else t.width
        x += (gaps or {}).get(i, 0)
        if x + tw > dr.WIDTH - dr.PAD and x > x0:
            x, y = x0, y + h + GAP
        if sheet is not None:
            sheet.img.paste(t, (int(x), int(y)))
        x += tw + GAP
    return y + h + GAP if tiles else y


def _finished_tiles(b: Any, bg: tuple[int, int, int], w: Words = EN) -> list[Any]:
    """Finished components in words (✓ then the cards, suits together), eight to a tile."""
    cards = sorted(b.finished, key=lambda c: ("HSC".find(_code(c)[1:2]), _value(_code(c))))
    return [_tile("label", ("✓ " + " ".join(card(c, w) for c in cards[k:k + 8]), dr.WHITE), bg)
            for k in range(0, len(cards), 8)]


def _board_parts(v: Any, b: Any, bg: tuple[int, int, int], w: Words = EN) -> tuple[list[Any], dict[int, int], list[Any]]:
    """The flow of a board (its name and hand size, Aces, fallen Aces, resources, cards being built,
    finished components) and its unit blocks, patrols first."""
    mine = v.seat == b.seat
    active = v.current == b.seat and not v.over
    name = ("▶ " if active else "") + b.name + (" " + w.t("(you)") if mine else "")
    if _teams(v):
        name += " · " + w.t("team {team}", team=b.team + 1)
    name += " · " + w.t("hand {n}", n=b.hand_size)
    tiles = [_tile("label", (name, dr.GOLD if active else dr.WHITE), bg)]
    gaps = {}
    groups = [[_chip(((_label(a.card), _card_ink(a.card)), (str(a.life), WOUND if a.wounds else (90, 90, 90))),
                      "ace", b.base_tapped, bg=bg) for a in b.base]
              + [_chip(((_label(c), (225, 225, 225)),), "fallen", False, bg=bg) for c in b.fallen],
              [_chip(((_label(r.card), dr.RED),) + ((("+Q", BOOST),) if r.queen else ()), "res", r.tapped, bg=bg)
               for r in b.resources],
              [_chip(((_label(c.card), _card_ink(c.card, dark=True)),
                      (f"●{c.markers}" + (f"/{_value(c.card)}" if mine and isinstance(c.card, str) else ""), dr.GOLD)),
                     "build", False, bg=bg) for c in b.building]
              + _finished_tiles(b, bg, w)]
    for g in groups:
        if g:
            gaps[len(tiles)] = 10
            tiles += g
    units = sorted(b.units, key=lambda u: u.zone != "patrol")
    blocks = [_unit_sprite(u.zone, u.cls, u.attack, u.armor, u.life, u.wounds, u.tapped, 0, False, (False, False),
                           w.lang, bg=bg) for u in units]
    return tiles, gaps, blocks


def _board_height(v: Any, b: Any, bg: tuple[int, int, int] = DARK_BAND, w: Words = EN) -> int:
    if b.out:
        return 0
    tiles, gaps, blocks = _board_parts(v, b, bg, w)
    y = _flow(None, tiles, 6, CHIP_H, gaps)
    y = _flow(None, blocks, y, BLOCK_H)
    return int(y) + 2


def _board(sheet: dr.Sheet, v: Any, b: Any, band: tuple[int, int, int], w: Words = EN) -> None:
    active = v.current == b.seat and not v.over
    bg = ACTIVE_BAND if active else band
    tall = _board_height(v, b, bg, w)
    sheet.band(tall, bg)
    top = sheet.y
    tiles, gaps, blocks = _board_parts(v, b, bg, w)
    y = _flow(sheet, tiles, top + 6, CHIP_H, gaps)
    _flow(sheet, blocks, y, BLOCK_H)
    sheet.y = top + tall


def _out_line(v: Any, seats: list[int], w: Words = EN) -> str:
    out = [v.boards[s].name for s in seats if v.boards[s].out]
    return w.t("Out: {players}", players=", ".join(out)) if out else ""


def _battle_height(v: Any, w: Words = EN) -> int:
    bt = v.battle
    if bt is None:
        return 0
    rows = 0
    for uid, _ in bt.attacks:
        gs = sum(1 for _, a in bt.engaged if a == uid)
        per = max(1, (dr.WIDTH - dr.PAD - (dr.PAD + BLOCK_W + 50) + GAP) // (BLOCK_W + GAP))
        rows += max(1, -(-gs // per))
    lines = 2 + sum(len(_commit_lines(v, c, w)) for c in bt.commits)
    return 8 + lines * dr.LINE + rows * (BLOCK_H + GAP) + 8


def _commit_lines(v: Any, c: Any, w: Words = EN) -> list[str]:
    """A revealed commit in words, on at most two lines."""
    plays = ", ".join(w.t("{card} on {target}", card=card(cc, w), target=_short(v, t, w)) for cc, t in c.plays)
    extra = ([w.t("base tap on {target}", target=_short(v, c.tap, w))] if c.tap else []) + (
        [w.t("split {shares}", shares=" ".join(map(str, c.split)))] if c.split else [])
    said = "; ".join(x for x in [plays] + extra if x) or w.t("nothing")
    lines = dr.wrap(f"{v.players[c.seat]}: {said}", INNER)
    return lines[:1] + [dr.fit(" ".join(lines[1:]), INNER)] if len(lines) > 1 else lines


def _battle(sheet: dr.Sheet, v: Any, w: Words = EN) -> None:
    """The battle as a diagram: each attacker → its target Ace, or ← the guardians engaging it;
    blocks with this battle's values once commits are shown (ruling 32)."""
    bt = v.battle
    tall = _battle_height(v, w)
    sheet.band(tall, BATTLE_BAND)
    d = sheet.d
    y = sheet.y + 6
    names = v.players
    units = {u.id: u for b in v.boards for u in b.units}
    vals = {x.id: x for x in bt.values}
    head = w.t("Battle: {attacker} attacks {defender}", attacker=names[bt.attacker], defender=names[bt.defender])
    dr.text(d, (dr.PAD, y), dr.fit(head, INNER), dr.GOLD)
    y += dr.LINE
    if bt.step == "commit":
        init = (w.t("Initiative {a}–{d}: {player}", a=bt.initiative[0], d=bt.initiative[1], player=names[bt.holder])
                + (" " + w.t("(seized)") if bt.seized else ""))
        init += " · " + w.t("{player} commits first", player=names[_first(bt)]) if not bt.commits else ""
    else:
        init = w.t("{player} chooses guardians", player=names[bt.defender])
    dr.text(d, (dr.PAD, y), dr.fit(init, INNER), dr.WHITE)
    y += dr.LINE
    for c in bt.commits:
        for ln in _commit_lines(v, c, w):
            dr.text(d, (dr.PAD, y), ln, dr.MUTED)
            y += dr.LINE
    y += 2
    for uid, tok in bt.attacks:
        u = units.get(uid)
        if u is not None:
            sheet.img.paste(_battle_unit(u, vals.get(uid), w), (dr.PAD, int(y)))
        gs = [g for g, a in bt.engaged if a == uid]
        x0 = dr.PAD + BLOCK_W + 8
        if gs:
            _arrow(d, x0, y + BLOCK_H / 2, left=True)
            targets = [_battle_unit(units[g], vals.get(g), w) for g in gs if g in units]
        else:
            _arrow(d, x0, y + BLOCK_H / 2, left=False)
            targets = [_battle_ace(v, tok, vals.get(tok), w)]
        x = x0 + 42
        for t in targets:
            if x + BLOCK_W > dr.WIDTH - dr.PAD:
                x, y = x0 + 42, y + BLOCK_H + GAP
            sheet.img.paste(t, (int(x), int(y)))
            x += BLOCK_W + GAP
        y += BLOCK_H + GAP
    sheet.y += tall


def _first(bt: Any) -> int:
    return bt.defender if bt.holder == bt.attacker else bt.attacker


def _short(v: Any, key: str, w: Words = EN) -> str:
    if key.startswith("#"):
        pos, _, seat = key[1:].partition("@")
        return w.t("Ace #{position}", position=pos)
    return thing_name(v, key, w)



def _battle_unit(u: Any, x: Any, w: Words = EN) -> Any:
    if x is None:
        return _unit_sprite(u.zone, u.cls, u.attack, u.armor, u.life, u.wounds, u.tapped, 0, False, (False, False),
                            w.lang, bg=BATTLE_BAND, rgb=True)
    return _unit_sprite(u.zone, u.cls, x.attack, x.armor, u.life, u.wounds, u.tapped, x.temp_life, x.shielded,
                        (x.attack != u.attack, x.armor != u.armor), w.lang, bg=BATTLE_BAND, rgb=True)


def _battle_ace(v: Any, tok: str, x: Any, w: Words = EN) -> Any:
    pos, _, seat = tok[1:].partition("@")
    b = v.boards[int(seat)]
    p = int(pos)
    a = b.base[p - 1] if 0 < p <= len(b.base) else None
    title = w.t("Ace #{position}", position=p) if a is None or not isinstance(a.card, str) or p != 1 \
        else f"#{p} {card(a.card, w)}"
    life = a.life if a is not None else 16
    return _ace_sprite(title, life, bool(a and a.wounds), x.armor if x else 0, x.temp_life if x else 0,
                       bool(x and x.shielded), bg=BATTLE_BAND, rgb=True)


class Page:
    """The picture in the shared palette (mode P): bands are filled, sprites copied in, and runs of
    words drawn on a small RGB strip that is mapped to the palette and copied in."""

    def __init__(self, height: int) -> None:
        from PIL import Image

        self.img = Image.new("P", (dr.WIDTH, height), _index(dr.FELT))
        self.img.putpalette(_palette().getpalette())
        self.y = dr.PAD

    def band(self, height: float, colour: tuple[int, int, int]) -> None:
        self.img.paste(_index(colour), (0, int(self.y), dr.WIDTH, int(self.y + height)))

    def strip(self, rgb: Any) -> None:
        """An RGB strip as wide as the page at the cursor (mapped to the palette), cursor below it."""
        self.img.paste(rgb if rgb.mode == "P" else _quantize(rgb), (0, int(self.y)))
        self.y += rgb.height

    def words(self, lines: list[tuple[str, tuple[int, int, int]]], bg: tuple[int, int, int] = dr.FELT) -> None:
        """Lines of text at the cursor, each fitted to the width."""
        if not lines:
            return
        sheet = dr.Sheet(height=len(lines) * dr.LINE, bg=bg)
        for k, (ln, ink) in enumerate(lines):
            dr.text(sheet.d, (dr.PAD, k * dr.LINE), dr.fit(ln, INNER), ink)
        self.strip(sheet.img)

    def png(self) -> bytes:
        img = self.img
        h = int(self.y + dr.PAD)
        if h != img.height:
            img = img.crop((0, 0, img.width, h))
        return dr.finish(img)


def _hand_tiles(hand: tuple) -> list[Any]:
    return [_chip(((_label(c), _card_ink(c)),), "hand", False, bg=dr.FELT) for c in hand]


def _hand_height(hand: tuple) -> int:
    return int(_flow(None, _hand_tiles(hand), dr.LINE, CHIP_H)) if hand else 0


def _hand(page: Page, hand: tuple, w: Words = EN) -> None:
    page.words([(w.t("Your hand ({n})", n=len(hand)), dr.GOLD)])
    page.y = _flow(page, _hand_tiles(hand), page.y, CHIP_H)


def _title_lines(v: Any, title: str, w: Words = EN) -> list[tuple[str, tuple[int, int, int]]]:
    rounds = " · " + w.t("round {round}", round=v.rounds_done + 1) if v.rounds_limit and not v.over else ""
    return [(title + rounds, dr.GOLD)] + [(ln, dr.WHITE) for ln in dr.wrap(status(v, w.lang), INNER)[:2]]


def _battle_strip(page: Page, v: Any, w: Words = EN) -> None:
    tall = _battle_height(v, w)
    sheet = dr.Sheet(height=tall, bg=BATTLE_BAND)
    sheet.y = 0
    _battle(sheet, v, w)
    page.strip(sheet.img)


def picture(v: Any, lang: str = "en") -> bytes:
    """Every board for a phone: a band each (name and hand size, Aces with their life, resources,
    constructions as chips; units as blocks), the battle as a diagram with its public values, and a
    seat's own hand."""
    w = words(lang)
    seats = _seat_order(v)
    live = [s for s in seats if not v.boards[s].out]
    bands = [(s, DARK_BAND if i % 2 == 0 else LIGHT_BAND) for i, s in enumerate(live)]
    hand = v.boards[v.seat].hand if v.seat is not None else ()
    top = _title_lines(v, TITLE, w)
    out = _out_line(v, seats, w)
    height = (dr.PAD + len(top) * dr.LINE + 4
              + sum(_board_height(v, v.boards[s], _bg(v, s, bg), w) for s, bg in bands)
              + (dr.LINE if out else 0) + _battle_height(v, w) + 6 + _hand_height(hand) + dr.LINE + dr.PAD)
    page = Page(height)
    page.words(top)
    page.y += 4
    for s, bg in bands:
        _board(page, v, v.boards[s], bg, w)
    if out:
        page.words([(out, dr.MUTED)])
    if v.battle is not None:
        _battle_strip(page, v, w)
    page.y += 6
    if hand:
        _hand(page, hand, w)
    page.strip(_legend_strip(w.lang))
    return page.png()


def _bg(v: Any, s: int, band: tuple[int, int, int]) -> tuple[int, int, int]:
    return ACTIVE_BAND if v.current == s and not v.over else band


def seat_picture(v: Any, lang: str = "en") -> bytes | None:
    """A seat's own cards: its hand, its base in order and the cards it is building (all secret
    from the others), with its board and the battle, for a phone."""
    if v.seat is None:
        return None
    b = v.boards[v.seat]
    if not (b.hand or b.base or b.building):
        return None
    w = words(lang)
    top = _title_lines(v, w.t("Your cards — {player}", player=b.name), w)
    height = (dr.PAD + len(top) * dr.LINE + 4 + (_hand_height(b.hand) or dr.LINE)
              + _board_height(v, b, _bg(v, b.seat, DARK_BAND), w) + _battle_height(v, w) + 6 + dr.LINE + dr.PAD)
    page = Page(height)
    page.words(top)
    page.y += 4
    if b.hand:
        _hand(page, b.hand, w)
    else:
        page.words([(w.t("Your hand: empty"), dr.GOLD)])
    _board(page, v, b, DARK_BAND, w)
    if v.battle is not None:
        _battle_strip(page, v, w)
    page.y += 6
    page.strip(_legend_strip(w.lang))
    return page.png()
