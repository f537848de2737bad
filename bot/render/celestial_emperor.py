"""Renders of Warriors of the Celestial Emperor views (never the game object)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.cards import SUIT_SYMBOL, pretty_text
from bot.i18n import Words, words
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, plain

if TYPE_CHECKING:
    from bot.engine.celestial_emperor.view import CelestialView, PlayerInfo, StoryEntry

TITLE = "Warriors of the Celestial Emperor"
EN = words("en")
CLAN_SUIT = {"D": "Dragon", "H": "Phoenix", "S": "White Tiger", "C": "Tortoise"}


def _phase(w: Words, stage: str) -> str:
    found = {
        "setting": lambda: w.t("Setting the scene"), "declare": lambda: w.tp("stage", "Attack"),
        "defend": lambda: w.tp("stage", "Defence"), "tie_text": lambda: w.t("A tie"),
        "winner_text": lambda: w.t("The winner's tale"), "loser_text": lambda: w.t("The loser's tale"),
        "trick": lambda: w.tp("stage", "Trick"), "keep": lambda: w.t("Endgame: keeping a final card"),
        "epilogue": lambda: w.t("Epilogue"), "over": lambda: w.t("The tale is told"),
    }.get(stage)
    return found() if found else stage


def _kind(w: Words, kind: str) -> str:
    found = {
        "setting": lambda: w.t("sets the scene"), "attack": lambda: w.t("attacks"),
        "nullify": lambda: w.t("nullifies"), "strike": lambda: w.t("strikes"), "parry": lambda: w.t("parries"),
        "withdraw": lambda: w.t("withdraws"), "victory": lambda: w.t("in victory"),
        "return": lambda: w.t("will return"),
    }.get(kind)
    return found() if found else kind


def _clan_of(w: Words, suit: str) -> str:
    """A clan's name in the reader's language."""
    return w.t(CLAN_SUIT[suit])


def _card(w: Words, card: str) -> str:
    return w.card(card)


def _line(w: Words, text: str) -> str:
    """An engine's words in the reader's language (English: card codes of a narrator's line made pretty)."""
    return pretty_text(text) if w.english else w.line(text)


def _clan(view: CelestialView, seat: int | None, w: Words = EN) -> str:
    if seat is None:
        return "?"
    p = view.seats[seat]
    return f"{SUIT_SYMBOL[p.suit]} {_clan_of(w, p.suit)}"


def _who(view: CelestialView, seat: int | None, w: Words = EN) -> str:
    if seat is None:
        return "?"
    return f"{_clan(view, seat, w)} ({view.seats[seat].name})"


def story_line(view: CelestialView, entry: StoryEntry, *, embed: bool = True, w: Words = EN) -> str:
    """One story entry as a line: a player's words in quotes, the narrator's plain.

    For an embed the player's words are escaped (``plain``); the terminal shows them as typed.
    """
    if entry.seat is None:
        return _line(w, entry.text)
    label = _kind(w, entry.kind)
    said = plain(entry.text) if embed else entry.text
    return f"**{_clan(view, entry.seat, w)}** {label}: “{said}”"


def _cards(cards: tuple[str, ...] | None, w: Words = EN) -> str:
    return " ".join(w.card(c) for c in cards) if cards else "—"


def player_line(p: PlayerInfo, w: Words = EN) -> str:
    if p.forfeited:
        return w.t("left the battle")
    bits = [w.t("hand {n}", n=p.hand_size), w.t("tricks {n}", n=p.tricks)]
    if p.locked:
        bits.append(w.t("final card locked"))
    if p.committed:
        bits.append(w.t("card committed"))
    if p.to_act:
        bits.append("**" + w.t("to act") + "**")
    return " · ".join(bits)


def duel_line(view: CelestialView, w: Words = EN) -> str:
    d = view.duel
    if d is None:
        return ""
    atk, dfn = d.attacker, d.defender
    if dfn is None:
        return w.t("{who} must choose a target.", who=_who(view, atk, w))
    head = w.t("{attacker} attacks {defender}", attacker=_who(view, atk, w), defender=_who(view, dfn, w))
    if not d.revealed:
        parts = []
        for s, card in ((atk, d.attacker_card), (dfn, d.defender_card)):
            if s in d.committed:
                parts.append(f"{_clan(view, s, w)}: " + (w.t("committed {card}", card=w.card(card))
                                                         if isinstance(card, str) else w.t("card committed")))
            else:
                parts.append(f"{_clan(view, s, w)}: " + w.t("waiting"))
        if not d.described:
            parts.append(w.t("waiting for the attack description"))
        return head + " — " + "; ".join(parts)
    a = w.card(d.attacker_card) if isinstance(d.attacker_card, str) else w.t("a card")
    b = w.card(d.defender_card) if isinstance(d.defender_card, str) else w.t("a card")
    line = w.t("{head}: {card} against {other}", head=head, card=a, other=b)
    if d.result == "tie":
        return line + " — " + w.t("a tie.")
    line += " — " + w.t("{clan} wins.", clan=_clan(view, d.winner, w))
    if d.exchanged:
        done = ", ".join(_clan(view, s, w) for s in d.trick_done) or w.t("nobody yet")
        line += " " + w.t("Exchanged; trick cards put in by: {clans}.", clans=done)
    return line


def scoring_lines(view: CelestialView, w: Words = EN) -> list[str]:
    sc = view.scoring
    if sc is None:
        return []
    lines = []
    for r in sc.rows:
        mark = "✓" if r.qualifies else "✗"
        lines.append(f"{mark} {SUIT_SYMBOL[r.suit]} " + w.t("{clan}: {card} (value {value}) · trick count {tricks}",
                                                            clan=_clan_of(w, r.suit), card=w.card(r.card),
                                                            value=r.v, tricks=r.T))
    sign = sc.rule.split()[1] if len(sc.rule.split()) == 3 else sc.rule
    if sc.method.startswith("highest"):
        lines.append(w.t("Rule: a final card qualifies when value {sign} trick count — highest qualifying card.",
                         sign=sign))
    else:
        lines.append(w.t("Rule: a final card qualifies when value {sign} trick count — lowest card (nobody "
                         "qualifies).", sign=sign))
    if sc.tie_breaks:
        breaks = [w.t("tricks") if b == "tricks" else w.t("priority") if b == "priority" else b for b in sc.tie_breaks]
        lines.append(w.t("Tie-breaks used: {breaks}.", breaks=", ".join(breaks)))
    lines.append(w.t("Winner: {who}", who=_who(view, sc.winner, w)))
    return lines


def _status(view: CelestialView, w: Words = EN) -> str:
    if view.over:
        return _line(w, view.result) if view.result else w.t("The game is over.")
    return _line(w, view.waiting)


def panel(view: CelestialView, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (who must act and how,
    and at the end how the scoring went); ``with_picture=False``: every clan, the duel and the
    tie pile in fields as well."""
    w = words(lang)
    # The story's latest lines are among the recent moves the table message shows above the panel.
    p = Panel(title=TITLE, description=clip(_status(view, w), 4096))
    p.footer = clip(w.t("{phase} · duels fought: {n} · choices are made privately (show my hand)",
                        phase=_phase(w, view.stage), n=view.duels_fought), 2048)
    if with_picture:
        sc = scoring_lines(view, w)
        if sc:  # how the game was won, step by step: what just happened, in words
            p.add(w.t("Scoring"), "\n".join(sc))
        return p
    for pl in view.seats:
        p.add(f"{SUIT_SYMBOL[pl.suit]} {_clan_of(w, pl.suit)} — {pl.name}", player_line(pl, w), True)
    line = duel_line(view, w)
    if line and view.duel is not None:
        p.add(w.t("Duel {number}", number=view.duel.number), line)
    if view.tie_pile:
        p.add(w.t("Tie pile"), _cards(view.tie_pile, w))
    sc = scoring_lines(view, w)
    if sc:
        p.add(w.t("Scoring"), "\n".join(sc))
    return p


def alt_text(view: CelestialView, lang: str = "en") -> str:
    """The battle in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: who must act, the clans, the duel, the tie pile, the scoring and a seat's own cards."""
    w = words(lang)
    parts = [f"{TITLE}. {_phase(w, view.stage)}. {_status(view, w)}"]
    for pl in view.seats:
        parts.append(f"{SUIT_SYMBOL[pl.suit]} {_clan_of(w, pl.suit)} ({pl.name}): {player_line(pl, w)}.")
    line = duel_line(view, w)
    if line and view.duel is not None:
        parts.append(w.t("Duel {number}", number=view.duel.number) + f": {line}" + ("" if line.endswith(".") else "."))
    if view.tie_pile:
        parts.append(w.t("Tie pile: {cards}.", cards=_cards(view.tie_pile, w)))
    parts += scoring_lines(view, w)
    if view.hand is not None:
        parts.append(w.t("Your hand: {cards}.", cards=_cards(view.hand, w)))
        if view.committed:
            parts.append(w.t("Committed face down: {card}.", card=w.card(view.committed)))
        if view.final:
            parts.append(w.t("Your final card: {card}.", card=w.card(view.final)))
    return clip(" ".join(parts).replace("**", "").replace("🃏", w.t("Joker")), 1000)


def hand_text(view: CelestialView, lang: str = "en") -> str:
    """The private hand message: the seat's own cards and what it must choose now."""
    w = words(lang)
    seat = view.seat
    if seat is None or view.hand is None:
        return w.t("You are not seated at this table.")
    me = view.seats[seat]
    lines = [f"**{TITLE}** — " + w.t("your clan: {clan}", clan=f"{SUIT_SYMBOL[me.suit]} {_clan_of(w, me.suit)}")]
    lines.append(w.t("Hand ({n}): {cards}", n=len(view.hand), cards=_cards(view.hand, w)))
    if view.committed:
        lines.append(w.t("Committed face-down: {card}", card=w.card(view.committed)))
    if view.final:
        lines.append(w.t("Locked final card: {card}", card=w.card(view.final)))
    if view.put_in_tricks:
        lines.append(w.t("Cards you put into tricks: {cards}", cards=_cards(view.put_in_tricks, w)))
    lines.append(w.t("Your tricks: {n}", n=me.tricks))
    lines.append(w.t("Phase: {phase}", phase=_phase(w, view.stage)))
    d = duel_line(view, w)
    if d:
        lines.append(d)
    if view.your_move:
        lines.append(w.t("**Your move:** {task}", task=w.say(view.your_move)))
    elif not view.over:
        lines.append(_line(w, view.waiting))
    return "\n".join(lines)


def text(view: CelestialView, lang: str = "en") -> str:
    w = words(lang)
    out = [f"=== {TITLE} === ({_phase(w, view.stage)})"]
    for pl in view.seats:
        out.append(f"  {SUIT_SYMBOL[pl.suit]} {_clan_of(w, pl.suit):<11} {pl.name:<12} {player_line(pl, w)}"
                   .replace("**", ""))
    if view.tie_pile:
        out.append(w.t("Tie pile: {cards}", cards=_cards(view.tie_pile, w)))
    d = duel_line(view, w)
    if d:
        out.append(d.replace("**", ""))
    if view.story:
        out.append(w.t("Story so far (latest):"))
        out += ["  " + story_line(view, e, embed=False, w=w).replace("**", "") for e in view.story[-8:]]
    sc = scoring_lines(view, w)
    if sc:
        out.append(w.t("Scoring:"))
        out += ["  " + s for s in sc]
    if view.hand is not None:
        out.append(w.t("Your hand: {cards}", cards=_cards(view.hand, w)))
        if view.committed:
            out.append(w.t("Committed: {card}", card=w.card(view.committed)))
        if view.final:
            out.append(w.t("Your final card: {card}", card=w.card(view.final)))
    out.append(_status(view, w))
    if not view.over and view.your_move:
        out.append(w.t("Your move: {task}", task=w.say(view.your_move)))
    return "\n".join(out)


BOX_W = (dr.WIDTH - 3 * dr.PAD) // 2


def _seat_box(sheet: dr.Sheet, view: CelestialView, p: PlayerInfo, x: float, y: float, h: float,
              lw: Words = EN) -> None:
    d = sheet.d
    fill = dr.ACTING if p.to_act else dr.FELT_DARK
    dr.put(sheet.img, dr.box(BOX_W + 1, int(h) + 1, 12, fill, dr.GOLD if p.to_act else dr.FELT_LIGHT, 3), x, y)
    tx, w = x + 12, BOX_W - 24
    dr.text(d, (tx, y + 8), dr.fit(f"{SUIT_SYMBOL[p.suit]} {_clan_of(lw, p.suit)}", w), dr.GOLD)
    me = " " + lw.t("(you)") if view.seat == p.seat else ""
    dr.text(d, (tx, y + 8 + dr.LINE), dr.fit(p.name + me, w))
    if p.forfeited:
        dr.text(d, (tx, y + 8 + 2 * dr.LINE), lw.t("left the battle"), dr.MUTED)
        return
    dr.text(d, (tx, y + 8 + 2 * dr.LINE), dr.fit(lw.t("Hand {n} · Tricks {tricks}", n=p.hand_size, tricks=p.tricks), w))
    flags = []
    if p.to_act:
        flags.append(lw.t("to act"))
    if p.committed:
        flags.append(lw.t("committed"))
    if p.locked:
        flags.append(lw.t("final locked"))
    if flags:
        dr.text(d, (tx, y + 8 + 3 * dr.LINE), dr.fit(", ".join(flags), w), dr.GOLD if p.to_act else dr.MUTED)


def _duel_card(sheet: dr.Sheet, card: object, x: float, y: float) -> None:
    if card is None:
        dr.put(sheet.img, dr.slot(), x, y)
    else:
        dr.card(sheet.img, card, x, y)


def _duel(sheet: dr.Sheet, view: CelestialView, w: Words = EN) -> None:
    du = view.duel
    if du is None:
        return
    sheet.line(w.t("Duel {number}", number=du.number) + f": {duel_line(view, w)}", limit=4)
    if du.defender is None:
        return
    y = sheet.y + 4
    x = dr.PAD
    for who, card in ((du.attacker, du.attacker_card), (du.defender, du.defender_card)):
        _duel_card(sheet, card, x, y)
        role = w.t("attacks") if who == du.attacker else w.t("defends")
        dr.text(sheet.d, (x + dr.CARD_W + 10, y + 14), dr.fit(_clan(view, who, w), 260), dr.GOLD)
        dr.text(sheet.d, (x + dr.CARD_W + 10, y + 14 + dr.LINE), role)
        x += dr.WIDTH // 2
    sheet.y = y + dr.CARD_H + 10


def _row_of_cards(sheet: dr.Sheet, label: str, cards: tuple[str, ...] | list[str]) -> None:
    sheet.line(label, dr.GOLD)
    sheet.cards(cards)


def picture(view: CelestialView, lang: str = "en") -> bytes:
    """The battle for a phone: the clans, the duel's cards, the tie pile and (for a seat) its hand."""
    w = words(lang)
    return dr.sized(lambda height: _picture(view, height, w), 1400)


def _picture(view: CelestialView, height: int, w: Words = EN) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    sheet.line(TITLE, dr.GOLD, limit=2)
    sheet.line(w.t("{phase} · duels fought: {n}", phase=_phase(w, view.stage), n=view.duels_fought), dr.MUTED, limit=2)
    sheet.space(4)
    box_h = 8 + 4 * dr.LINE + 8
    for i, p in enumerate(view.seats):
        x = dr.PAD + (i % 2) * (BOX_W + dr.PAD)
        y = sheet.y + (i // 2) * (box_h + 10)
        _seat_box(sheet, view, p, x, y, box_h, w)
    sheet.y += ((len(view.seats) + 1) // 2) * (box_h + 10) + 4
    _duel(sheet, view, w)
    if view.tie_pile:
        _row_of_cards(sheet, w.t("Tie pile ({n})", n=len(view.tie_pile)), view.tie_pile)
    if view.story:
        sheet.line(story_line(view, view.story[-1], embed=False, w=w), dr.MUTED, limit=3)
    for ln in scoring_lines(view, w):
        sheet.line(ln, limit=2)
    if view.hand is not None:
        sheet.space(4)
        _row_of_cards(sheet, w.t("Your hand ({n})", n=len(view.hand)) if view.hand else w.t("Your hand: empty"),
                      view.hand)
        mine = [(lbl, c) for lbl, c in ((w.t("Committed face down"), view.committed),
                                        (w.t("Your final card"), view.final)) if c]
        for lbl, c in mine:
            dr.card(sheet.img, c, dr.PAD, sheet.y)
            dr.text(sheet.d, (dr.PAD + dr.CARD_W + 12, sheet.y + dr.CARD_H / 2), lbl, dr.GOLD, anchor="lm")
            sheet.y += dr.CARD_H + 8
        if view.put_in_tricks:
            sheet.line(w.t("Put into tricks: {cards}", cards=_cards(view.put_in_tricks, w)), limit=3)
        if view.your_move and not view.over:
            sheet.line(w.t("Your move: {task}", task=w.say(view.your_move)), dr.GOLD, limit=4)
    sheet.line(_status(view, w), dr.GOLD if view.hand is None else dr.WHITE, limit=4)
    return sheet.png()


def story(view: CelestialView, lang: str = "en") -> tuple[list[str], list[dict[str, Any]]]:
    """For the story file: each seat's clan (in ``lang``), and the narration in order."""
    w = words(lang)
    return ([p.clan if w.english else _clan_of(w, p.suit) for p in view.seats],
            [{"seat": e.seat, "kind": e.kind, "text": e.text} for e in view.story])


def seat_picture(view: CelestialView, lang: str = "en") -> bytes | None:
    """A seat's picture: the battle as it sees it, with its hand, its committed and final cards."""
    if view.seat is None or view.hand is None:
        return None
    return picture(view, lang)
