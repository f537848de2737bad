"""Typed views of Warriors of the Celestial Emperor: what one seat (or the public) may see.

A card the recipient may not know is :data:`bot.engine.core.HIDDEN`; ``None`` means there is
no card there at all (nothing committed yet).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core import Hidden, Seat, View

MaybeCard = str | Hidden | None


@dataclass(frozen=True)
class PlayerInfo:
    """One seat as everyone sees it."""

    seat: Seat
    name: str
    clan: str  # "Dragon", "Phoenix", "White Tiger", "Tortoise"
    suit: str  # the clan's suit letter
    hand_size: int
    tricks: int  # T
    locked: bool  # holds a locked final card
    active: bool  # still in the fight (2+ cards)
    forfeited: bool
    committed: bool  # has a face-down duel card
    narrator: bool
    to_act: bool


@dataclass(frozen=True)
class DuelInfo:
    """The duel in progress."""

    number: int
    attacker: Seat
    defender: Seat | None
    described: bool
    committed: tuple[Seat, ...]  # who has committed a card
    revealed: bool
    attacker_card: MaybeCard
    defender_card: MaybeCard
    result: str  # "" before the reveal, "tie" or "win"
    winner: Seat | None
    loser: Seat | None
    exchanged: bool
    trick_done: tuple[Seat, ...]  # who has put a card into the trick


@dataclass(frozen=True)
class StoryEntry:
    """A line of the story: a player's words (``seat``) or the game's own (``seat`` None)."""

    seat: Seat | None
    kind: str
    text: str


@dataclass(frozen=True)
class ScoreRow:
    seat: Seat
    clan: str
    suit: str
    card: str
    v: int
    T: int
    qualifies: bool


@dataclass(frozen=True)
class Scoring:
    """E2–E4, step by step."""

    rule: str  # "v ≤ T" or "v < T"
    rows: tuple[ScoreRow, ...]
    method: str
    tie_breaks: tuple[str, ...]
    winner: Seat
    steps: tuple[str, ...]


@dataclass(frozen=True)
class FinalCard:
    seat: Seat
    card: str


@dataclass(frozen=True)
class CelestialView(View):
    """The table as ``seat`` sees it (``seat`` None: the public)."""

    title: str = ""
    options: tuple[str, ...] = ()
    seats: tuple[PlayerInfo, ...] = ()
    stage: str = ""  # the step of play, for renderers' headings
    waiting: str = ""  # who is to do what, in plain words
    duel: DuelInfo | None = None
    duels_fought: int = 0
    tie_pile: tuple[str, ...] = ()
    story: tuple[StoryEntry, ...] = ()
    finals: tuple[FinalCard, ...] | None = None  # once revealed
    scoring: Scoring | None = None
    winner: Seat | None = None
    # The recipient's own things (empty for the public).
    hand: tuple[str, ...] | None = None
    committed: str | None = None
    final: str | None = None
    put_in_tricks: tuple[str, ...] = ()
    your_move: str | None = None
