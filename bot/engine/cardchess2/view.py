"""Typed views of Cardchess2: what one seat (or the public) may see. Unknown cards are
:data:`bot.engine.core.HIDDEN`."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core import Hidden, View

SIDES = ("South", "North")


@dataclass(frozen=True)
class BoardCard:
    """A card on the board as the recipient sees it."""

    cell: str
    owner: int  # seat
    side: str  # "South" or "North"
    card: str | Hidden  # its code when the recipient may know it
    face_up: bool


@dataclass(frozen=True)
class Striking:
    """An attacker or reinforcer in the attack under way (face up, so public)."""

    card: str
    origin: str  # where it stood
    cell: str  # where it attacked from (after its step)
    value: int


@dataclass(frozen=True)
class Enforcing:
    card: str
    cell: str
    bonus: int


@dataclass(frozen=True)
class AttackView:
    """The attack waiting for an enforcement or a reinforcement decision."""

    attacker: int
    defender: int
    target: str  # cell
    target_card: str
    defence: int
    strikers: tuple[Striking, ...]
    sigma: int
    enforcers: tuple[Enforcing, ...] = ()
    enforcement: int = 0
    stage: str = "enforce"  # "enforce" or "reinforce"


@dataclass(frozen=True)
class Pick:
    """Typed data of an offered option (from the seat's view): a cell, the card there if the
    seat knows it, and a value or bonus when it may be shown."""

    cell: str | None = None
    card: str | Hidden | None = None
    value: int | None = None


@dataclass(frozen=True)
class Cardchess2View(View):
    south: int = 0
    board: tuple[BoardCard, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    hand: tuple[str, ...] = ()  # the recipient's own hand
    deck_sizes: tuple[int, ...] = ()  # one shared deck, or one per seat (own decks)
    out_size: int = 0
    turn: int = 1
    turn_cap: int = 300
    current: int = 0
    setup: bool = False  # home rows are being ordered
    ordered: tuple[bool, ...] = ()
    attack: AttackView | None = None
    options: tuple[str, ...] = ()

    def side(self, seat: int) -> str:
        return SIDES[0 if seat == self.south else 1]

    def at(self, cell: str) -> BoardCard | None:
        for b in self.board:
            if b.cell == cell:
                return b
        return None
