"""Gridcannon's typed actions. ``str(action)`` is the notation records keep: ``draw``,
``place r1c2``, ``royal KH T1`` (setup) / ``royal T1``, ``armour KC``, ``extract r2c2``,
``reassign r1c1 r2c2``, ``replace r2c2`` / ``keep``, ``continue``, ``concede`` and Classic's
``reset r1c1`` / ``hardreset r1c1`` / ``recycle r1c1``. Each kind declares its words once
(``notation``); :data:`NOTATION` writes and parses them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine.core import Action, Notation, Word

from .board import CELLS, parse_card, parse_cell, parse_slot


@dataclass(frozen=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"
    help: ClassVar[str] = "Draw the top card of the deck (a search when no royal is living)"


@dataclass(frozen=True)
class OnCell(Action):
    """An action naming one cell (``place r1c2``)."""

    cell: int
    notation: ClassVar[str] = "{cell}"


@dataclass(frozen=True)
class Place(OnCell):
    """Place the pending number card on a cell."""

    verb: ClassVar[str] = "place"
    help: ClassVar[str] = "Place the pending number card on a cell"
    usage: ClassVar[str] = "Write it as: place r1c1 (the cell for the pending card)."


@dataclass(frozen=True)
class PlaceRoyal(Action):
    """Place a royal in a slot: a set-aside one at setup (``royal KH T1``), else the pending
    one (``royal T1``)."""

    slot: str
    royal: str | None = None
    verb: ClassVar[str] = "royal"
    help: ClassVar[str] = "Place a royal in a slot"
    notation: ClassVar[str] = "[{royal:card}] {slot}"


@dataclass(frozen=True)
class Armour(Action):
    """Put the pending card that has no legal cell under a royal."""

    royal: str
    verb: ClassVar[str] = "armour"
    help: ClassVar[str] = "Put the unplaceable card under a royal as armour"
    notation: ClassVar[str] = "{royal:card}"
    usage: ClassVar[str] = "Write it as: armour K♣ (the royal that takes the armour)."


@dataclass(frozen=True)
class Extract(OnCell):
    """Ace ploy: a cell's whole stack to the bottom of the deck."""
    verb: ClassVar[str] = "extract"
    help: ClassVar[str] = "Ace ploy: send a cell's whole stack to the bottom of the deck"
    usage: ClassVar[str] = "Write it as: extract r2c2 (the stack an ace sends to the bottom)."


@dataclass(frozen=True)
class Reassign(Action):
    """Joker ploy: move the top card of ``source`` onto ``target``."""

    source: int
    target: int
    verb: ClassVar[str] = "reassign"
    help: ClassVar[str] = "Joker ploy: move a top card onto another cell"
    notation: ClassVar[str] = "{source:cell} {target:cell}"
    usage: ClassVar[str] = "Write it as: reassign r1c1 r2c2 (move the top card of the first cell onto the second)."


@dataclass(frozen=True)
class Replace(OnCell):
    """Setup: one grid card to the bottom of the deck, the cell refilled."""
    verb: ClassVar[str] = "replace"
    help: ClassVar[str] = "Setup: replace one grid card (once)"
    usage: ClassVar[str] = "Write it as: replace r2c2 (the cell whose card goes to the bottom)."


@dataclass(frozen=True)
class Keep(Action):
    verb: ClassVar[str] = "keep"
    help: ClassVar[str] = "Setup: keep the grid as dealt"


@dataclass(frozen=True)
class Continue(Action):
    verb: ClassVar[str] = "continue"
    help: ClassVar[str] = "Cycle the pending card and search for a royal"


@dataclass(frozen=True)
class Concede(Action):
    verb: ClassVar[str] = "concede"
    help: ClassVar[str] = "Give up this game (offered when the deck is empty)"


@dataclass(frozen=True)
class Reset(OnCell):
    """Classic: play the drawn ace or joker on a cell, its stack to the bottom of the deck."""
    verb: ClassVar[str] = "reset"
    help: ClassVar[str] = "Classic: play the drawn ace or joker on a cell"
    usage: ClassVar[str] = "Write it as: reset r1c1 (the stack your ace or joker replaces)."


@dataclass(frozen=True)
class HardReset(OnCell):
    """Classic: the unplaceable card to the shame pile, a stack to the bottom of the deck."""
    verb: ClassVar[str] = "hardreset"
    help: ClassVar[str] = "Classic: shame the card and reset a stack"
    usage: ClassVar[str] = "Write it as: hardreset r1c1 (the stack to reset)."


@dataclass(frozen=True)
class Recycle(OnCell):
    """Classic, deck empty: a stack becomes the new deck, its top card shamed."""
    verb: ClassVar[str] = "recycle"
    help: ClassVar[str] = "Classic: turn a stack into the new deck"
    usage: ClassVar[str] = "Write it as: recycle r1c1 (the stack that becomes the new deck)."


ACTIONS: tuple[type[Action], ...] = (Draw, Place, PlaceRoyal, Armour, Extract, Reassign, Replace, Keep, Continue,
                                     Concede, Reset, HardReset, Recycle)
BY_VERB: dict[str, type[Action]] = {a.verb: a for a in ACTIONS}

SETUP_ROYAL_USAGE = "royal K♥ T1 (which set-aside royal, then the slot)"
ROYAL_USAGE = "royal T1 (the slot)"


def _usage(kind: type[Action], setup: Any) -> str:
    if kind is PlaceRoyal:
        return f"Write it as: {SETUP_ROYAL_USAGE if setup else ROYAL_USAGE}."
    return kind.usage or "Write it as: {verb}."


NOTATION = Notation(ACTIONS, {
    "cell": Word(lambda t, _: parse_cell(t), CELLS.__getitem__),
    "slot": Word(lambda t, _: parse_slot(t)),
    "card": Word(lambda t, _: parse_card(t)),
}, usage=_usage)


def parse(text: str, *, setup: bool = False) -> Action:
    """The action written ``text`` (any case). ``setup``: a royal names the set-aside royal
    too (only the usage hint depends on it). Raises :class:`IllegalMove` on bad syntax."""
    return NOTATION.parse(text, setup)
