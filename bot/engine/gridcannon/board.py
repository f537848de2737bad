"""The Gridcannon table: cells, royal slots, the line table (§0), card classes and values.

Cells are indexed 0..8 in reading order (``r1c1`` .. ``r3c3``); slots are named ``T1``..``R3``.
"""

from __future__ import annotations

from bot.engine.words import say
from bot.engine import cards
from bot.engine.core import IllegalMove

CELLS = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
CENTRE = 4
PERIMETER = [i for i in range(9) if i != CENTRE]
SLOTS = ["T1", "T2", "T3", "B1", "B2", "B3", "L1", "L2", "L3", "R1", "R2", "R3"]
BASE = {"J": 11, "Q": 12, "K": 13}


def _line(slot: str) -> tuple[int, int, int]:
    """(adjacent cell, other attacker, trigger) of a slot, by the §0 line table."""
    side, k = slot[0], int(slot[1]) - 1
    if side == "T":
        return k, 3 + k, 6 + k
    if side == "B":
        return 6 + k, 3 + k, k
    if side == "L":
        return 3 * k, 3 * k + 1, 3 * k + 2
    return 3 * k + 2, 3 * k + 1, 3 * k


LINE = {s: _line(s) for s in SLOTS}
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
# Slots next to each cell (their adjacent cell), and slots each cell triggers.
CELL_SLOTS = {c: [s for s in SLOTS if LINE[s][0] == c] for c in range(9)}
TRIGGERS = {c: [s for s in SLOTS if LINE[s][2] == c] for c in range(9)}

# Phases of the state machine (§3), plus setup and the Classic drawn-ploy state (internal names;
# players read the prompt, never these).
SETUP_ROYALS = "SETUP_ROYALS"
SETUP_REPLACE = "SETUP_REPLACE"
READY = "READY"
PENDING_ROYAL = "PENDING_ROYAL"
PENDING_NUMBER = "PENDING_NUMBER"
PENDING_PLOY = "PENDING_PLOY"
EXHAUSTED = "EXHAUSTED"
WIN = "WIN"
LOSS = "LOSS"
PLOY_PHASES = (READY, PENDING_ROYAL, PENDING_NUMBER, EXHAUSTED)


def is_royal(card: str) -> bool:
    known = _ROYAL.get(card)
    return known if known is not None else _is_royal(card)


def _is_royal(card: str) -> bool:
    return not cards.is_joker(card) and card[0] in "JQK"


def is_ploy(card: str) -> bool:
    known = _PLOY.get(card)
    return known if known is not None else _is_ploy(card)


def _is_ploy(card: str) -> bool:
    return cards.is_joker(card) or card[0] == "A"


def is_number(card: str) -> bool:
    return not is_royal(card) and not is_ploy(card)


def value(card: str | None) -> int:
    """Grid value: 2-10 for number cards; ace 1 and joker 0 (only met in the grid in Classic)."""
    known = _VALUES.get(card)  # type: ignore[arg-type]
    return known if known is not None else _value(card)


def _value(card: str | None) -> int:
    if card is None or cards.is_joker(card):
        return 0
    r = card[0]
    if r == "A":
        return 1
    if r == "T":
        return 10
    if r in BASE:
        return BASE[r]
    return int(r)


_VALUES = {c: _value(c) for c in cards.deck(2)}
VALUES: dict[str | None, int] = {**_VALUES, None: 0}  # every card's grid value, and no card's (0): the hot paths'


def qualifies(card: str | None, royal: str) -> bool:
    """Whether an attacker card counts against ``royal`` (§6): J any, Q colour, K suit."""
    known = _QUALIFIES.get((card, royal))
    return known if known is not None else _qualifies(card, royal)


def _qualifies(card: str | None, royal: str) -> bool:
    if card is None or cards.is_joker(card):
        return False
    if royal[0] == "J":
        return True
    if royal[0] == "Q":
        return cards.colour(card) == cards.colour(royal)
    return cards.suit(card) == cards.suit(royal)


def parse_cell(token: str) -> int:
    t = token.strip().lower()
    if t in CELLS:
        return CELLS.index(t)
    if t in ("centre", "center"):
        return CENTRE
    raise IllegalMove(say("{token} is not a cell: write r1c1 … r3c3 (row, then column).", token=repr(token[:20])), "parse")


def parse_slot(token: str) -> str:
    t = token.strip().upper()
    if t in SLOTS:
        return t
    raise IllegalMove(say("{token} is not a royal slot: write T1-T3, B1-B3, L1-L3 or R1-R3.", token=repr(token[:20])),
                      "parse")


def parse_card(token: str) -> str:
    try:
        return cards.parse_card(token)
    except ValueError as e:
        raise IllegalMove(str(e), "parse") from None


def p(card: str | None) -> str:
    """A card as players read it (``10♦``); ``—`` for none."""
    known = _PRETTY.get(card)  # type: ignore[arg-type]
    if known is not None:
        return known
    return cards.pretty(card) if card else "—"


def listing(cs: list[str] | tuple[str, ...], sep: str = ", ") -> str:
    return sep.join([_PRETTY.get(c) or cards.pretty(c) for c in cs])


def plural(n: int, word: str = "card") -> str:
    return f"{n} {word}{'s' * (n != 1)}"


# The hot paths' tables, made once from the functions above (any other text falls back to them).
# bench: playouts/s — asked for every card of every step
_DECK = cards.deck(2)
_ROYAL = {c: _is_royal(c) for c in _DECK}
_PLOY = {c: _is_ploy(c) for c in _DECK}
_QUALIFIES = {(c, r): _qualifies(c, r) for c in [*_DECK, None] for r in _DECK if _ROYAL[r]}
_PRETTY = {c: cards.pretty(c) for c in _DECK}
_SUIT = {c: cards.suit(c) for c in _DECK}
_COLOUR = {c: cards.colour(c) for c in _DECK}


def suit(card: str) -> str:
    known = _SUIT.get(card)
    return known if known is not None else cards.suit(card)


def colour(card: str) -> str:
    known = _COLOUR.get(card)
    return known if known is not None else cards.colour(card)

