"""Typed actions of The Knight, the Rogue, the Princess and the Dragon; ``str()`` is the notation.

``flip`` · ``use QS`` · ``pass 3`` (hand the told card to P3) · ``pass`` (let the ending stand) ·
``play`` / ``play QS`` (Free Choice) · ``tell <text>`` · ``wrapup <text>`` · ``twist <text>`` ·
``close <text>``. The one parser is the game's ``parse(seat, text)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine.core import Action


@dataclass(frozen=True)
class Flip(Action):
    verb: ClassVar[str] = "flip"
    help: ClassVar[str] = "Turn the top card of your own pile face-up (finding the starter)."

    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True)
class Use(Action):
    verb: ClassVar[str] = "use"
    help: ClassVar[str] = "Choose which of your showing cards you tell with."
    card: str = ""

    def __str__(self) -> str:
        return f"use {self.card}"


@dataclass(frozen=True)
class Give(Action):
    """Hand the card just told with to another player (``to`` is a seat, written 1-based)."""

    verb: ClassVar[str] = "pass"
    help: ClassVar[str] = "Hand the card you told with to another player: `pass <player number>`."
    to: int = 0

    def __str__(self) -> str:
        return f"pass {self.to + 1}"


@dataclass(frozen=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"
    help: ClassVar[str] = "In the ending: play nothing and let the ending stand."

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Play(Action):
    """Play onto the story pile: the top received card, or ``card`` (Free Choice, or named)."""

    verb: ClassVar[str] = "play"
    help: ClassVar[str] = "In the ending: play a received card that beats the top of the story pile."
    card: str | None = None

    def __str__(self) -> str:
        return f"play {self.card}" if self.card else "play"


@dataclass(frozen=True)
class Line(Action):
    """A line of the story in the player's own words."""

    free_text: ClassVar[bool] = True
    text: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.text}".strip()


@dataclass(frozen=True)
class Tell(Line):
    verb: ClassVar[str] = "tell"
    help: ClassVar[str] = "Tell your part of the story with your card."


@dataclass(frozen=True)
class Wrapup(Line):
    verb: ClassVar[str] = "wrapup"
    help: ClassVar[str] = "Last teller: how that character gets what they want."


@dataclass(frozen=True)
class Twist(Line):
    verb: ClassVar[str] = "twist"
    help: ClassVar[str] = "After a play: how your character reverses the outcome."


@dataclass(frozen=True)
class Close(Line):
    verb: ClassVar[str] = "close"
    help: ClassVar[str] = "The closing lines of the story (one or two)."


LINES: dict[str, type[Line]] = {c.verb: c for c in (Tell, Wrapup, Twist, Close)}
ACTIONS: tuple[type[Action], ...] = (Flip, Use, Give, Pass, Play, Tell, Wrapup, Twist, Close)
