"""Renders of The Knight, the Rogue, the Princess and the Dragon (from the typed view only), each in
one reader's language (``lang``: ``en``, ``es``, ``de``; the engine's phrases said through
``bot.i18n.words``). The players' own story lines are shown as they wrote them."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.engine.cards import SUIT_NAME, SUIT_SYMBOL, pretty_text
from bot.engine.knight_rogue_princess_dragon.roles import BEATS_LINE, TITLE, character
from bot.engine.knight_rogue_princess_dragon.view import KrpdView, StoryEntry
from bot.i18n import Words, words
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, options_words, plain

EN = words("en")


def _phase(w: Words, phase: str) -> str:
    found = {"flip": w.t("Finding the starter"), "tell": w.t("Telling"), "ending": w.t("The ending"),
             "over": w.t("The end")}
    return found.get(phase, phase)


def _suit(w: Words, s: str) -> str:
    found = {"S": w.t("Spades"), "H": w.t("Hearts"), "D": w.t("Diamonds"), "C": w.t("Clubs")}
    return found.get(s, SUIT_NAME.get(s, s))


def _cards(cards: tuple[str, ...], w: Words = EN) -> str:
    return " ".join(w.card(c) for c in cards) or "—"


def _said(w: Words, text: object) -> str:
    """An engine's words in the reader's language (English: card codes of an older state's lines made pretty)."""
    return pretty_text(str(text)) if w.english else w.say(text)


def story_line(view: KrpdView, entry: StoryEntry, *, embed: bool = True, lang: str = "en") -> str:
    """One transcript entry as a line: ``Ann tells with the Princess (Q♠): …``.

    For an embed the player's words are escaped (``plain``); the terminal shows them as typed.
    """
    w = words(lang)
    who = view.players[entry.seat]
    said = plain(entry.text) if embed else entry.text
    c = character(entry.card) if entry.card else None
    kind = entry.kind
    if kind == "opening":
        line = (w.t("{who} opens with {character}: {text}", who=who, character=c, text=said) if c
                else w.t("{who} opens: {text}", who=who, text=said))
    elif kind == "tell":
        line = (w.t("{who} tells with {character}: {text}", who=who, character=c, text=said) if c
                else w.t("{who} tells: {text}", who=who, text=said))
    elif kind == "wrapup":
        line = (w.t("{who} wraps up with {character}: {text}", who=who, character=c, text=said) if c
                else w.t("{who} wraps up: {text}", who=who, text=said))
    elif kind == "twist":
        line = (w.t("{who} twists with {character}: {text}", who=who, character=c, text=said) if c
                else w.t("{who} twists: {text}", who=who, text=said))
    elif kind == "close":
        line = (w.t("{who} closes with {character}: {text}", who=who, character=c, text=said) if c
                else w.t("{who} closes: {text}", who=who, text=said))
    else:
        line = f"{who} {kind}" + (f" ({w.say(c)})" if c else "") + f": {said}"
    return line


def status(view: KrpdView, lang: str = "en") -> str:
    """Whose turn it is and what they must do, or how the story ended."""
    w = words(lang)
    if view.over:
        return _said(w, view.result) if view.result else w.t("The story is over.")
    names = view.players
    who = names[view.actor] if view.actor >= 0 else ""
    top = view.story_pile[-1] if view.story_pile else None
    card = view.card
    step = view.step
    if step == "flip":
        return w.t("{who} flips the top card of their pile.", who=who)
    if step == "use":
        return w.t("{who} chooses a showing card to tell with.", who=who)
    if step == "tell" and card:
        if not view.transcript:
            return w.t("{who} begins the story and introduces {character}.", who=who, character=character(card))
        return w.t("{who} tells how {character} meets the story so far.", who=who, character=character(card))
    if step == "pass" and card:
        return w.t("{who} hands {card} to another player.", who=who, card=w.card(card))
    if top is None:
        return ""
    if step == "wrapup":
        return w.t("{who} wraps the story up: how {character} gets what they want.", who=who,
                   character=character(top))
    if step == "priority":
        return w.t("{who} holds priority: play a received card that beats {card}, or pass. "
                   "Passes in a row: {passes}/4.", who=who, card=w.card(top), passes=view.passes)
    if step == "race":
        waiting = ", ".join(names[s] for s in view.to_act)
        clock = (" " + w.t("The ending comes after {seconds} seconds with no play.", seconds=view.race_seconds)
                 if view.race_seconds else "")
        return w.t("Anyone may play a card that beats {card}, or pass. Still deciding: {waiting}.",
                   card=w.card(top), waiting=waiting) + clock
    if step == "twist":
        return w.t("{who} tells the twist: how {character} reverses the outcome.", who=who, character=character(top))
    if step == "close":
        return w.t("{who} gives one or two closing lines.", who=who)
    return ""


def _player_value(view: KrpdView, seat: int, w: Words = EN) -> str:
    return "\n".join([
        w.t("Face-down: {count} · still to tell: {left}", count=view.own_count[seat], left=view.rem[seat]),
        w.t("Showing: {cards}", cards=_cards(view.showing[seat], w)),
        w.t("Used: {cards}", cards=_cards(view.used[seat], w)),
        w.t("Received (top first): {cards}", cards=_cards(view.received[seat], w)),
    ])


def _player_name(view: KrpdView, seat: int, w: Words = EN) -> str:
    s = view.suits[seat]
    marks = []
    if seat == view.starter:
        marks.append(w.t("starter"))
    if seat in view.to_act:
        marks.append(w.t("to act"))
    extra = f" ({', '.join(marks)})" if marks else ""
    return f"P{seat + 1} {view.players[seat]} — {SUIT_SYMBOL[s]} {_suit(w, s)}{extra}"


def _story_pile(view: KrpdView, w: Words = EN) -> str:
    if not view.story_pile:
        return "—"
    parts = [f"{w.card(c)} ({view.players[by]})" for c, by in zip(view.story_pile, view.story_by, strict=False)]
    return w.t("bottom → top: {cards}", cards=" → ".join(parts))


def _tellings(view: KrpdView, w: Words) -> str:
    return w.t("tellings {count}/16", count=sum(len(u) for u in view.used))


def panel(view: KrpdView, *, with_picture: bool = True, lang: str = "en") -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (who must act and how);
    ``with_picture=False``: every player's cards, the story pile and what beats what in fields."""
    # The latest telling is among the recent moves the table message shows above the panel.
    w = words(lang)
    lines = [pretty_text(status(view, lang))]
    p = Panel(title=TITLE, description=clip("\n".join(lines), 4096))
    footer = f"{_phase(w, view.phase)} · {_tellings(view, w)}"
    if view.options:
        footer += " · " + options_words(view.options)
    p.footer = clip(footer, 2048)
    if with_picture:
        return p
    for seat in range(len(view.players)):
        p.add(_player_name(view, seat, w), _player_value(view, seat, w), True)
    p.add(w.t("Story pile"), _story_pile(view, w))
    p.add(w.t("Beats"), w.say(BEATS_LINE))
    return p


def alt_text(view: KrpdView, lang: str = "en") -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: what is asked, each player's cards, the story pile."""
    w = words(lang)

    def cards(cs: tuple[str, ...]) -> str:
        return " ".join(w.card(c) for c in cs) or w.t("none")

    parts = [f"{TITLE}. {_phase(w, view.phase)}. {pretty_text(status(view, lang))}"]
    for seat in range(len(view.players)):
        parts.append(w.t("{player}: pile {count}, showing {showing}, received {received}, told with {used}.",
                         player=_player_name(view, seat, w), count=view.own_count[seat],
                         showing=cards(view.showing[seat]), received=cards(view.received[seat]),
                         used=cards(view.used[seat])))
    parts.append(w.t("Story pile: {pile}.", pile=_story_pile(view, w)) if view.story_pile
                 else w.t("Story pile: empty."))
    return clip(" ".join(parts).replace("🃏", w.t("Joker")), 1000)


def text(view: KrpdView, lang: str = "en") -> str:
    w = words(lang)
    out = [TITLE, _phase(w, view.phase), ""]
    for seat in range(len(view.players)):
        out.append(_player_name(view, seat, w))
        out += ["  " + ln for ln in _player_value(view, seat, w).split("\n")]
    out += ["", w.t("Story pile: {pile}", pile=_story_pile(view, w)), w.t("Beats: {beats}", beats=BEATS_LINE), ""]
    if view.transcript:
        out.append(w.t("The story so far:"))
        out += [f"  {i + 1}. {story_line(view, e, embed=False, lang=lang)}" for i, e in enumerate(view.transcript)]
        out.append("")
    out.append(pretty_text(status(view, lang)))
    return "\n".join(out)


SHOW_X = dr.PAD + dr.CARD_W + 24  # where a player's showing cards start
RECEIVED_X = 440  # and the cards handed to them


def _beats_picture(w: Words = EN) -> str:
    """``Knight (K) slays Dragon (A) · …``: the roles with the letters on the cards."""
    return " · ".join([w.t("Knight ({knight}) slays Dragon ({dragon})", knight=w.card("KS")[:-1], dragon=w.card("AS")[:-1]),
                       w.t("Dragon ({dragon}) captures Princess ({princess})", dragon=w.card("AS")[:-1],
                           princess=w.card("QS")[:-1]),
                       w.t("Princess ({princess}) charms Rogue ({rogue})", princess=w.card("QS")[:-1],
                           rogue=w.card("JS")[:-1]),
                       w.t("Rogue ({rogue}) deceives Knight ({knight})", rogue=w.card("JS")[:-1],
                           knight=w.card("KS")[:-1])])


def _seat_band(sheet: dr.Sheet, view: KrpdView, seat: int, fill: tuple[int, int, int], w: Words = EN) -> None:
    d = sheet.d
    tall = 8 + 2 * dr.LINE + dr.CARD_H + 8 + dr.LINE
    sheet.band(tall, fill)
    y = sheet.y + 8
    acting = seat in view.to_act
    name = _player_name(view, seat, w) + (" · " + w.t("you") if view.seat == seat else "")
    dr.text(d, (dr.PAD, y), dr.fit(name, dr.WIDTH - 2 * dr.PAD), dr.GOLD if acting else dr.WHITE)
    y += dr.LINE
    dr.text(d, (dr.PAD, y), w.t("Pile"), dr.MUTED)
    dr.text(d, (SHOW_X, y), w.t("Showing"), dr.MUTED)
    dr.text(d, (RECEIVED_X, y), w.t("Received (top first)"), dr.MUTED)
    y += dr.LINE
    count = view.own_count[seat]
    if count:
        dr.put(sheet.img, dr.back(), dr.PAD, y)
        dr.text(d, (dr.PAD + dr.CARD_W / 2, y + dr.CARD_H / 2), str(count), anchor="mm")
    else:
        dr.put(sheet.img, dr.slot(), dr.PAD, y)
    dr.fan(sheet.img, view.showing[seat], SHOW_X, y, RECEIVED_X - 16 - SHOW_X)
    dr.fan(sheet.img, view.received[seat], RECEIVED_X, y, dr.WIDTH - dr.PAD - RECEIVED_X)
    y += dr.CARD_H + 6
    used = _cards(view.used[seat], w) if view.used[seat] else w.t("none")
    told = w.t("Told with: {cards} · {left} left to tell", cards=used, left=view.rem[seat])
    dr.text(d, (dr.PAD, y), dr.fit(told, dr.WIDTH - 2 * dr.PAD), dr.MUTED)
    sheet.y += tall


def picture(view: KrpdView, lang: str = "en") -> bytes:
    """The table for a phone: each player's pile, showing and received cards, the story pile."""
    return dr.sized(lambda height: _picture(view, height, lang), 1600)


def _picture(view: KrpdView, height: int, lang: str = "en") -> bytes:
    w = words(lang)
    sheet = dr.Sheet(height, mode="P")
    sheet.line(TITLE, dr.GOLD, limit=2)
    sheet.line(w.t("{phase} · tellings {count} of 16", phase=_phase(w, view.phase),
                   count=sum(len(u) for u in view.used)), dr.MUTED)
    sheet.space(4)
    for seat in range(len(view.players)):
        _seat_band(sheet, view, seat, dr.FELT_DARK if seat % 2 == 0 else dr.FELT_LIGHT, w)
    sheet.space(8)
    if view.story_pile:
        top = view.story_by[-1] if view.story_by else None
        sheet.line(w.t("Story pile (bottom to top, top played by {name})", name=view.players[top]) if top is not None
                   else w.t("Story pile (bottom to top)"), dr.GOLD, limit=2)
        sheet.cards(view.story_pile)
    else:
        sheet.line(w.t("Story pile: empty"), dr.GOLD)
    sheet.line(_beats_picture(w), dr.MUTED, limit=4)
    if view.transcript:
        sheet.line(story_line(view, view.transcript[-1], embed=False, lang=lang), limit=3)
    sheet.line(pretty_text(status(view, lang)), dr.GOLD, limit=5)
    return sheet.png()


def story(view: KrpdView, lang: str = "en") -> tuple[list[str], list[dict[str, Any]]]:
    """For the story file: each seat's suit (in ``lang``), and the transcript in order."""
    w = words(lang)
    return [f"{SUIT_SYMBOL[s]} {_suit(w, s)}" for s in view.suits], [asdict(e) for e in view.transcript]
