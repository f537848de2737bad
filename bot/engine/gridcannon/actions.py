"""Gridcannon's typed actions. ``str(action)`` is the notation records keep: ``draw``,
``place r1c2``, ``royal KH T1`` (setup) / ``royal T1``, ``armour KC``, ``extract r2c2``,
``reassign r1c1 r2c2``, ``replace r2c2`` / ``keep``, ``continue``, ``concede`` and Classic's
``reset r1c1`` / ``hardreset r1c1`` / ``recycle r1c1``. Each kind declares its words once
(``notation``); :data:`NOTATION` writes and parses them."""

from __future__ import annotations

from typing import Any

from bot.engine.core import Action, Notation, Word
from bot.engine.words import say

from .board import CELLS, parse_card, parse_cell, parse_slot


class Draw(Action, verb="draw", help="Draw the top card of the deck (a search when no royal is living)"): ...


class OnCell(Action, notation="{cell}"):
    """An action naming one cell (``place r1c2``)."""

    cell: int


class Place(OnCell, verb="place", help="Place the pending number card on a cell",
            usage=say("Write it as: place r1c1 (the cell for the pending card).")):
    """Place the pending number card on a cell."""


class PlaceRoyal(Action, verb="royal", help="Place a royal in a slot", notation="[{royal:card}] {slot}"):
    """Place a royal in a slot: a set-aside one at setup (``royal KH T1``), else the pending
    one (``royal T1``)."""

    slot: str
    royal: str | None = None


class Armour(Action, verb="armour", help="Put the unplaceable card under a royal as armour", notation="{royal:card}",
             usage=say("Write it as: armour K♣ (the royal that takes the armour).")):
    """Put the pending card that has no legal cell under a royal."""

    royal: str


class Extract(OnCell, verb="extract", help="Ace ploy: send a cell's whole stack to the bottom of the deck",
              usage=say("Write it as: extract r2c2 (the stack an ace sends to the bottom).")):
    """Ace ploy: a cell's whole stack to the bottom of the deck."""


class Reassign(Action, verb="reassign", help="Joker ploy: move a top card onto another cell",
               notation="{source:cell} {target:cell}",
               usage=say("Write it as: reassign r1c1 r2c2 (move the top card of the first cell onto the second).")):
    """Joker ploy: move the top card of ``source`` onto ``target``."""

    source: int
    target: int


class Replace(OnCell, verb="replace", help="Setup: replace one grid card (once)",
              usage=say("Write it as: replace r2c2 (the cell whose card goes to the bottom).")):
    """Setup: one grid card to the bottom of the deck, the cell refilled."""


class Keep(Action, verb="keep", help="Setup: keep the grid as dealt"): ...


class Continue(Action, verb="continue", help="Cycle the pending card and search for a royal"): ...


class Concede(Action, verb="concede", help="Give up this game (offered when the deck is empty)"): ...


class Reset(OnCell, verb="reset", help="Classic: play the drawn ace or joker on a cell",
            usage=say("Write it as: reset r1c1 (the stack your ace or joker replaces).")):
    """Classic: play the drawn ace or joker on a cell, its stack to the bottom of the deck."""


class HardReset(OnCell, verb="hardreset", help="Classic: shame the card and reset a stack",
                usage=say("Write it as: hardreset r1c1 (the stack to reset).")):
    """Classic: the unplaceable card to the shame pile, a stack to the bottom of the deck."""


class Recycle(OnCell, verb="recycle", help="Classic: turn a stack into the new deck",
              usage=say("Write it as: recycle r1c1 (the stack that becomes the new deck).")):
    """Classic, deck empty: a stack becomes the new deck, its top card shamed."""


ACTIONS: tuple[type[Action], ...] = (Draw, Place, PlaceRoyal, Armour, Extract, Reassign, Replace, Keep, Continue,
                                     Concede, Reset, HardReset, Recycle)
BY_VERB: dict[str, type[Action]] = {a.verb: a for a in ACTIONS}

SETUP_ROYAL_USAGE = say("royal K♥ T1 (which set-aside royal, then the slot)")
ROYAL_USAGE = say("royal T1 (the slot)")


def _usage(kind: type[Action], setup: Any) -> str:
    if kind is PlaceRoyal:
        return say("Write it as: {usage}.", usage=SETUP_ROYAL_USAGE if setup else ROYAL_USAGE)
    return kind.usage or say("Write it as: {verb}.")


NOTATION = Notation(ACTIONS, {
    "cell": Word(lambda t, _: parse_cell(t), CELLS.__getitem__),
    "slot": Word(lambda t, _: parse_slot(t)),
    "card": Word(lambda t, _: parse_card(t)),
}, usage=_usage)


def parse(text: str, *, setup: bool = False) -> Action:
    """The action written ``text`` (any case). ``setup``: a royal names the set-aside royal
    too (only the usage hint depends on it). Raises :class:`IllegalMove` on bad syntax."""
    return NOTATION.parse(text, setup)
