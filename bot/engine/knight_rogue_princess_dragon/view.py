"""Typed views of The Knight, the Rogue, the Princess and the Dragon.

Everything is public except the order of the own piles, which the view gives as counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.core import Decision, View

Step = Literal["flip", "use", "tell", "pass", "wrapup", "priority", "race", "twist", "close", "over"]
Phase = Literal["flip", "tell", "ending", "over"]
PHASE_OF: dict[str, Phase] = {
    "flip": "flip", "use": "tell", "tell": "tell", "pass": "tell", "wrapup": "ending", "priority": "ending",
    "race": "ending", "twist": "ending", "close": "ending", "over": "over",
}


@dataclass(frozen=True)
class TimedDecision(Decision):
    """A decision with the rulebook's own clock (``clock_seconds``): with no answer the table
    plays ``default`` (rulings 8 and 15, Open Race: the race clock, 60 seconds by default, runs from
    the last accepted play, ``clock_from``; then the racer passes)."""

    @property
    def deadline_seconds(self) -> int | None:
        return self.clock_seconds


@dataclass(frozen=True)
class StoryEntry:
    """One line of the told story: who, what kind (opening, tell, wrapup, twist, close), with
    which card, in the player's own words."""

    seat: int
    kind: str
    card: str | None
    text: str


@dataclass(frozen=True)
class KrpdView(View):
    """The table as ``seat`` (or the public) sees it. Own piles are counts: their order is
    unknown to everyone, the owner included."""

    suits: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    step: Step = "flip"
    actor: int = -1  # flipper, teller, priority holder, twister or closing narrator (-1: none)
    opener: int = -1
    starter: int = -1
    last_teller: int = -1
    card: str | None = None  # the card being told with or handed on
    own_count: tuple[int, ...] = ()
    showing: tuple[tuple[str, ...], ...] = ()
    used: tuple[tuple[str, ...], ...] = ()
    received: tuple[tuple[str, ...], ...] = ()  # top first
    rem: tuple[int, ...] = ()
    story_pile: tuple[str, ...] = ()  # bottom to top
    story_by: tuple[int, ...] = ()
    passes: int = 0
    passed: tuple[int, ...] = ()  # Open Race: seats passed since the last play
    transcript: tuple[StoryEntry, ...] = ()
    ended_early: int | None = None
    race_seconds: int | None = None  # Open Race: the ending comes after this long with no play
    winners: tuple[int, ...] = ()

    @property
    def phase(self) -> Phase:
        return PHASE_OF[self.step]

    @property
    def to_act(self) -> tuple[int, ...]:
        return tuple(sorted(d.seat for d in self.deciding))

    @property
    def flipper(self) -> int | None:
        return self.actor if self.step == "flip" else None

    @property
    def teller(self) -> int | None:
        return self.actor if self.step in ("use", "tell", "pass") else None

    @property
    def priority(self) -> int | None:
        return self.actor if self.step == "priority" else None
