"""Typed actions of The Knight, the Rogue, the Princess and the Dragon; ``str()`` is the notation.

``flip`` · ``use QS`` · ``pass 3`` (hand the told card to P3) · ``pass`` (let the ending stand) ·
``play`` / ``play QS`` (Free Choice) · ``tell <text>`` · ``wrapup <text>`` · ``twist <text>`` ·
``close <text>``. Each kind declares its words once; :data:`NOTATION` writes and reads them
(the game's ``parse(seat, text)`` names the kinds its current step allows).
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import parse_card
from bot.engine.core import Action, IllegalMove, Notation, Word, Words
from bot.engine.words import say


class Flip(Action, verb="flip", help="Turn the top card of your own pile face-up (finding the starter)."): ...


class Use(Action, verb="use", help="Choose which of your showing cards you tell with.", notation="{card}"):
    card: str = ""


class Give(Action, verb="pass", help="Hand the card you told with to another player: `pass <player number>`.",
           notation="{to:seat}"):
    """Hand the card just told with to another player (``to`` is a seat, written 1-based)."""

    to: int = 0


class Pass(Action, verb="pass", help="In the ending: play nothing and let the ending stand."): ...


class Play(Action, verb="play", help="In the ending: play a received card that beats the top of the story pile.",
           notation="[{card}]"):
    """Play onto the story pile: the top received card, or ``card`` (Free Choice, or named)."""

    card: str | None = None


class Line(Action, free_text=True, notation="{text:text}"):
    """A line of the story in the player's own words."""

    text: str = ""


class Tell(Line, verb="tell", help="Tell your part of the story with your card."): ...


class Wrapup(Line, verb="wrapup", help="Last teller: how that character gets what they want."): ...


class Twist(Line, verb="twist", help="After a play: how your character reverses the outcome."): ...


class Close(Line, verb="close", help="The closing lines of the story (one or two)."): ...


LINES: dict[str, type[Line]] = {c.verb: c for c in (Tell, Wrapup, Twist, Close)}
ACTIONS: tuple[type[Action], ...] = (Flip, Use, Give, Pass, Play, Tell, Wrapup, Twist, Close)


def _card(text: str, _: object) -> str:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise IllegalMove(str(exc), "parse") from None


def _seat(token: str, game: Any) -> int:
    """A player by number (1 to 4) or by name."""
    if token.isdigit() and 1 <= int(token) <= 4:
        return int(token) - 1
    for i, p in enumerate(game.players):
        if p.lower() == token.lower():
            return i
    raise IllegalMove(say("{token} is not a player: write the player's number, 1 to 4.", token=repr(token)), "parse")


# A malformed count of words or a verb of another step: the game says what it expects now.
NOTATION = Notation(ACTIONS, {"card": Words(_card), "seat": Word(_seat, lambda to: str(to + 1))},
                    usage_rule="usage", unknown=lambda word, words, game: IllegalMove("", "verb"))
