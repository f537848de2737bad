"""Gridcannon's typed actions. ``str(action)`` is the notation records keep: ``draw``,
``place r1c2``, ``royal KH T1`` (setup) / ``royal T1``, ``armour KC``, ``extract r2c2``,
``reassign r1c1 r2c2``, ``replace r2c2`` / ``keep``, ``continue``, ``concede`` and Classic's
``reset r1c1`` / ``hardreset r1c1`` / ``recycle r1c1``. :func:`parse` is the only parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine.core import Action, IllegalMove

from .board import CELLS, parse_card, parse_cell, parse_slot


@dataclass(frozen=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"
    help: ClassVar[str] = "Draw the top card of the deck (a search when no royal is living)"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Place(Action):
    """Place the pending number card on a cell."""

    cell: int
    verb: ClassVar[str] = "place"
    help: ClassVar[str] = "Place the pending number card on a cell"

    def __str__(self) -> str:
        return f"place {CELLS[self.cell]}"


@dataclass(frozen=True)
class PlaceRoyal(Action):
    """Place a royal in a slot: a set-aside one at setup (``royal KH T1``), else the pending
    one (``royal T1``)."""

    slot: str
    royal: str | None = None
    verb: ClassVar[str] = "royal"
    help: ClassVar[str] = "Place a royal in a slot"

    def __str__(self) -> str:
        return f"royal {self.royal} {self.slot}" if self.royal else f"royal {self.slot}"


@dataclass(frozen=True)
class Armour(Action):
    """Put the pending card that has no legal cell under a royal."""

    royal: str
    verb: ClassVar[str] = "armour"
    help: ClassVar[str] = "Put the unplaceable card under a royal as armour"

    def __str__(self) -> str:
        return f"armour {self.royal}"


@dataclass(frozen=True)
class Extract(Action):
    """Ace ploy: a cell's whole stack to the bottom of the deck."""

    cell: int
    verb: ClassVar[str] = "extract"
    help: ClassVar[str] = "Ace ploy: send a cell's whole stack to the bottom of the deck"

    def __str__(self) -> str:
        return f"extract {CELLS[self.cell]}"


@dataclass(frozen=True)
class Reassign(Action):
    """Joker ploy: move the top card of ``source`` onto ``target``."""

    source: int
    target: int
    verb: ClassVar[str] = "reassign"
    help: ClassVar[str] = "Joker ploy: move a top card onto another cell"

    def __str__(self) -> str:
        return f"reassign {CELLS[self.source]} {CELLS[self.target]}"


@dataclass(frozen=True)
class Replace(Action):
    """Setup: one grid card to the bottom of the deck, the cell refilled."""

    cell: int
    verb: ClassVar[str] = "replace"
    help: ClassVar[str] = "Setup: replace one grid card (once)"

    def __str__(self) -> str:
        return f"replace {CELLS[self.cell]}"


@dataclass(frozen=True)
class Keep(Action):
    verb: ClassVar[str] = "keep"
    help: ClassVar[str] = "Setup: keep the grid as dealt"

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Continue(Action):
    verb: ClassVar[str] = "continue"
    help: ClassVar[str] = "Cycle the pending card and search for a royal"

    def __str__(self) -> str:
        return "continue"


@dataclass(frozen=True)
class Concede(Action):
    verb: ClassVar[str] = "concede"
    help: ClassVar[str] = "Give up this game (offered when the deck is empty)"

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True)
class Reset(Action):
    """Classic: play the drawn ace or joker on a cell, its stack to the bottom of the deck."""

    cell: int
    verb: ClassVar[str] = "reset"
    help: ClassVar[str] = "Classic: play the drawn ace or joker on a cell"

    def __str__(self) -> str:
        return f"reset {CELLS[self.cell]}"


@dataclass(frozen=True)
class HardReset(Action):
    """Classic: the unplaceable card to the shame pile, a stack to the bottom of the deck."""

    cell: int
    verb: ClassVar[str] = "hardreset"
    help: ClassVar[str] = "Classic: shame the card and reset a stack"

    def __str__(self) -> str:
        return f"hardreset {CELLS[self.cell]}"


@dataclass(frozen=True)
class Recycle(Action):
    """Classic, deck empty: a stack becomes the new deck, its top card shamed."""

    cell: int
    verb: ClassVar[str] = "recycle"
    help: ClassVar[str] = "Classic: turn a stack into the new deck"

    def __str__(self) -> str:
        return f"recycle {CELLS[self.cell]}"


ACTIONS: tuple[type[Action], ...] = (Draw, Place, PlaceRoyal, Armour, Extract, Reassign, Replace, Keep, Continue,
                                     Concede, Reset, HardReset, Recycle)
BY_VERB: dict[str, type[Action]] = {a.verb: a for a in ACTIONS}

USAGE = {
    "draw": "draw",
    "place": "place r1c1 (the cell for the pending card)",
    "armour": "armour K♣ (the royal that takes the armour)",
    "extract": "extract r2c2 (the stack an ace sends to the bottom)",
    "reassign": "reassign r1c1 r2c2 (move the top card of the first cell onto the second)",
    "replace": "replace r2c2 (the cell whose card goes to the bottom)",
    "keep": "keep",
    "continue": "continue",
    "concede": "concede",
    "reset": "reset r1c1 (the stack your ace or joker replaces)",
    "hardreset": "hardreset r1c1 (the stack to reset)",
    "recycle": "recycle r1c1 (the stack that becomes the new deck)",
}
SETUP_ROYAL_USAGE = "royal K♥ T1 (which set-aside royal, then the slot)"
ROYAL_USAGE = "royal T1 (the slot)"


def _need(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise IllegalMove(f"Write it as: {usage}.", "parse")


def parse(text: str, *, setup: bool = False) -> Action:
    """The action written ``text`` (any case). ``setup``: a royal names the set-aside royal
    too (only the usage hint depends on it). Raises :class:`IllegalMove` on bad syntax."""
    tokens = text.split()
    if not tokens:
        raise IllegalMove("Empty move.", "parse")
    verb, args = tokens[0].lower(), tokens[1:]
    kind = BY_VERB.get(verb)
    if kind is None:
        raise IllegalMove(f"Unknown move {verb[:20]!r}.", "parse")
    if kind is PlaceRoyal:
        if len(args) == 2:
            royal = parse_card(args[0])
            return PlaceRoyal(parse_slot(args[1]), royal)
        _need(args, 1, SETUP_ROYAL_USAGE if setup else ROYAL_USAGE)
        return PlaceRoyal(parse_slot(args[0]))
    if kind is Reassign:
        _need(args, 2, USAGE[verb])
        return Reassign(parse_cell(args[0]), parse_cell(args[1]))
    if kind is Armour:
        _need(args, 1, USAGE[verb])
        return Armour(parse_card(args[0]))
    if kind in (Draw, Keep, Continue, Concede):
        _need(args, 0, USAGE[verb])
        return kind()
    _need(args, 1, USAGE[verb])
    return kind(parse_cell(args[0]))  # type: ignore[call-arg]
