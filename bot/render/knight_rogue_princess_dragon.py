"""Renders of The Knight, the Rogue, the Princess and the Dragon (from the typed view only)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.engine.cards import SUIT_NAME, SUIT_SYMBOL, pretty, pretty_text
from bot.engine.knight_rogue_princess_dragon.roles import BEATS, BEATS_LINE, ROLE_NAME, TITLE, VERB, character
from bot.engine.knight_rogue_princess_dragon.view import KrpdView, StoryEntry
from bot.render import drawing as dr
from bot.render.panel import Panel, clip, options_words, plain

PHASE_NAME = {"flip": "Finding the starter", "tell": "Telling", "ending": "The ending", "over": "The end"}
KIND_NAME = {"opening": "opens", "tell": "tells", "wrapup": "wraps up", "twist": "twists", "close": "closes"}


def _cards(cards: tuple[str, ...]) -> str:
    return " ".join(pretty(c) for c in cards) or "—"


def story_line(view: KrpdView, entry: StoryEntry, *, embed: bool = True) -> str:
    """One transcript entry as a line: ``Ann tells with the Princess (Q♠): …``.

    For an embed the player's words are escaped (``plain``); the terminal shows them as typed.
    """
    who = view.players[entry.seat]
    card = f" with {character(entry.card)}" if entry.card else ""
    words = plain(entry.text) if embed else entry.text
    return f"{who} {KIND_NAME.get(entry.kind, entry.kind)}{card}: {words}"


def status(view: KrpdView) -> str:
    """Whose turn it is and what they must do, or how the story ended."""
    if view.over:
        return view.result or "The story is over."
    names = view.players
    who = names[view.actor] if view.actor >= 0 else ""
    top = view.story_pile[-1] if view.story_pile else None
    card = view.card
    step = view.step
    if step == "flip":
        return f"{who} flips the top card of their pile."
    if step == "use":
        return f"{who} chooses a showing card to tell with."
    if step == "tell" and card:
        if not view.transcript:
            return f"{who} begins the story and introduces {character(card)}."
        return f"{who} tells how {character(card)} meets the story so far."
    if step == "pass" and card:
        return f"{who} hands {pretty(card)} to another player."
    if top is None:
        return ""
    if step == "wrapup":
        return f"{who} wraps the story up: how {character(top)} gets what they want."
    if step == "priority":
        return (f"{who} holds priority: play a received card that beats {pretty(top)}, or pass. "
                f"Passes in a row: {view.passes}/4.")
    if step == "race":
        waiting = ", ".join(names[s] for s in view.to_act)
        clock = f" The ending comes after {view.race_seconds} seconds with no play." if view.race_seconds else ""
        return f"Anyone may play a card that beats {pretty(top)}, or pass. Still deciding: {waiting}.{clock}"
    if step == "twist":
        return f"{who} tells the twist: how {character(top)} reverses the outcome."
    if step == "close":
        return f"{who} gives one or two closing lines."
    return ""


def _player_value(view: KrpdView, seat: int) -> str:
    return "\n".join([
        f"Face-down: {view.own_count[seat]} · still to tell: {view.rem[seat]}",
        f"Showing: {_cards(view.showing[seat])}",
        f"Used: {_cards(view.used[seat])}",
        f"Received (top first): {_cards(view.received[seat])}",
    ])


def _player_name(view: KrpdView, seat: int) -> str:
    s = view.suits[seat]
    marks = []
    if seat == view.starter:
        marks.append("starter")
    if seat in view.to_act:
        marks.append("to act")
    extra = f" ({', '.join(marks)})" if marks else ""
    return f"P{seat + 1} {view.players[seat]} — {SUIT_SYMBOL[s]} {SUIT_NAME[s]}{extra}"


def _story_pile(view: KrpdView) -> str:
    if not view.story_pile:
        return "—"
    parts = [f"{pretty(c)} ({view.players[by]})" for c, by in zip(view.story_pile, view.story_by, strict=False)]
    return "bottom → top: " + " → ".join(parts)


def panel(view: KrpdView, *, with_picture: bool = True) -> Panel:
    """The embed. Beside the picture it says only what the picture cannot (who must act and how);
    ``with_picture=False``: every player's cards, the story pile and what beats what in fields."""
    # The latest telling is among the recent moves the table message shows above the panel.
    lines = [pretty_text(status(view))]
    p = Panel(title=TITLE, description=clip("\n".join(lines), 4096))
    footer = f"{PHASE_NAME.get(view.phase, view.phase)} · tellings {sum(len(u) for u in view.used)}/16"
    if view.options:
        footer += " · " + options_words(view.options)
    p.footer = clip(footer, 2048)
    if with_picture:
        return p
    for seat in range(len(view.players)):
        p.add(_player_name(view, seat), _player_value(view, seat), True)
    p.add("Story pile", _story_pile(view))
    p.add("Beats", BEATS_LINE)
    return p


def alt_text(view: KrpdView) -> str:
    """The table in words (at most 1,000 characters), for screen readers and clients that hide
    pictures: what is asked, each player's cards, the story pile."""
    def cards(cs: tuple[str, ...]) -> str:
        return " ".join(pretty(c) for c in cs) or "none"

    parts = [f"{TITLE}. {PHASE_NAME.get(view.phase, view.phase)}. {pretty_text(status(view))}"]
    for seat in range(len(view.players)):
        parts.append(f"{_player_name(view, seat)}: pile {view.own_count[seat]}, showing "
                     f"{cards(view.showing[seat])}, received {cards(view.received[seat])}, "
                     f"told with {cards(view.used[seat])}.")
    parts.append(f"Story pile: {_story_pile(view) if view.story_pile else 'empty'}.")
    return clip(" ".join(parts).replace("🃏", "Joker"), 1000)


def text(view: KrpdView) -> str:
    out = [TITLE, PHASE_NAME.get(view.phase, view.phase), ""]
    for seat in range(len(view.players)):
        out.append(_player_name(view, seat))
        out += ["  " + ln for ln in _player_value(view, seat).split("\n")]
    out += ["", f"Story pile: {_story_pile(view)}", f"Beats: {BEATS_LINE}", ""]
    if view.transcript:
        out.append("The story so far:")
        out += [f"  {i + 1}. {story_line(view, e, embed=False)}" for i, e in enumerate(view.transcript)]
        out.append("")
    out.append(pretty_text(status(view)))
    return "\n".join(out)


SHOW_X = dr.PAD + dr.CARD_W + 24  # where a player's showing cards start
RECEIVED_X = 440  # and the cards handed to them


def _beats_picture() -> str:
    """``Knight (K) slays Dragon (A) · …``: the roles with the letters on the cards."""
    return " · ".join(f"{ROLE_NAME[r]} ({r}) {VERB[r]} {ROLE_NAME[BEATS[r]]} ({BEATS[r]})" for r in "KAQJ")


def _seat_band(sheet: dr.Sheet, view: KrpdView, seat: int, fill: tuple[int, int, int]) -> None:
    d = sheet.d
    tall = 8 + 2 * dr.LINE + dr.CARD_H + 8 + dr.LINE
    sheet.band(tall, fill)
    y = sheet.y + 8
    acting = seat in view.to_act
    name = _player_name(view, seat) + (" · you" if view.seat == seat else "")
    dr.text(d, (dr.PAD, y), dr.fit(name, dr.WIDTH - 2 * dr.PAD), dr.GOLD if acting else dr.WHITE)
    y += dr.LINE
    dr.text(d, (dr.PAD, y), "Pile", dr.MUTED)
    dr.text(d, (SHOW_X, y), "Showing", dr.MUTED)
    dr.text(d, (RECEIVED_X, y), "Received (top first)", dr.MUTED)
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
    used = _cards(view.used[seat]) if view.used[seat] else "none"
    dr.text(d, (dr.PAD, y), dr.fit(f"Told with: {used} · {view.rem[seat]} left to tell", dr.WIDTH - 2 * dr.PAD), dr.MUTED)
    sheet.y += tall


def picture(view: KrpdView) -> bytes:
    """The table for a phone: each player's pile, showing and received cards, the story pile."""
    return dr.sized(lambda height: _picture(view, height), 1600)


def _picture(view: KrpdView, height: int) -> bytes:
    sheet = dr.Sheet(height, mode="P")
    sheet.line(TITLE, dr.GOLD, limit=2)
    sheet.line(f"{PHASE_NAME.get(view.phase, view.phase)} · tellings {sum(len(u) for u in view.used)} of 16",
               dr.MUTED)
    sheet.space(4)
    for seat in range(len(view.players)):
        _seat_band(sheet, view, seat, dr.FELT_DARK if seat % 2 == 0 else dr.FELT_LIGHT)
    sheet.space(8)
    if view.story_pile:
        top = view.story_by[-1] if view.story_by else None
        by = f", top played by {view.players[top]}" if top is not None else ""
        sheet.line(f"Story pile (bottom to top{by})", dr.GOLD, limit=2)
        sheet.cards(view.story_pile)
    else:
        sheet.line("Story pile: empty", dr.GOLD)
    sheet.line(_beats_picture(), dr.MUTED, limit=4)
    if view.transcript:
        sheet.line(story_line(view, view.transcript[-1], embed=False), limit=3)
    sheet.line(pretty_text(status(view)), dr.GOLD, limit=5)
    return sheet.png()


def story(view: KrpdView) -> tuple[list[str], list[dict[str, Any]]]:
    """For the story file: each seat's suit, and the transcript in order."""
    return [f"{SUIT_SYMBOL[s]} {SUIT_NAME[s]}" for s in view.suits], [asdict(e) for e in view.transcript]
