"""Gridcannon (solo): kill the twelve royals around a 3x3 grid of number cards.

``rules.py`` is the state machine, ``actions.py`` the typed actions and their notation,
``view.py`` the typed views, ``player.py`` the built-in player, ``board.py`` the table's
geometry and card values, ``options.py`` the variants; ``rules.md`` the rules players read.
"""

from __future__ import annotations

from bot.engine.registry import GameSpec

from .actions import (
    ACTIONS,
    Armour,
    Concede,
    Continue,
    Draw,
    Extract,
    HardReset,
    Keep,
    Place,
    PlaceRoyal,
    Reassign,
    Recycle,
    Replace,
    Reset,
    parse,
)
from .board import (
    BASE,
    CELLS,
    CENTRE,
    EXHAUSTED,
    LINE,
    LOSS,
    PENDING_NUMBER,
    PENDING_PLOY,
    PENDING_ROYAL,
    PERIMETER,
    READY,
    SETUP_REPLACE,
    SETUP_ROYALS,
    SLOT_INDEX,
    SLOTS,
    TRIGGERS,
    WIN,
    is_number,
    is_ploy,
    is_royal,
    parse_cell,
    parse_slot,
    qualifies,
    value,
)
from .options import (
    CLASSIC,
    DRAW_ORDER,
    EXACT,
    KEEP_PLOYS,
    LOWEST_HEALTH,
    MEMORY_AID,
    NO_JOKERS,
    PLOYS_FIRST,
    REVISED_OLD,
    SOURCE_THRESHOLDS,
    STASH_ONLY,
    GridcannonOptions,
)
from .player import auto_move
from .rules import CREDIT, SUMMARY, GridcannonGame
from .view import CellView, GridcannonView, PloyView, SlotView

GAME = GridcannonGame

SPEC = GameSpec(
    state=GridcannonGame, options=GridcannonOptions, player=auto_move, actions=ACTIONS, command="gridcannon",
    solo_concede=True,  # the table offers Concede (a forfeit) while the game's own concede is not available
)

__all__ = [
    "ACTIONS", "BASE", "CELLS", "CENTRE", "CLASSIC", "CREDIT", "DRAW_ORDER", "EXACT", "EXHAUSTED", "GAME",
    "KEEP_PLOYS", "LINE", "LOSS", "LOWEST_HEALTH", "MEMORY_AID", "NO_JOKERS", "PENDING_NUMBER", "PENDING_PLOY",
    "PENDING_ROYAL", "PERIMETER", "PLOYS_FIRST", "READY", "REVISED_OLD", "SETUP_REPLACE", "SETUP_ROYALS",
    "SLOTS", "SLOT_INDEX", "SOURCE_THRESHOLDS", "SPEC", "STASH_ONLY", "SUMMARY", "TRIGGERS", "WIN", "Armour",
    "CellView", "Concede", "Continue", "Draw", "Extract", "GridcannonGame", "GridcannonOptions",
    "GridcannonView", "HardReset", "Keep", "Place", "PlaceRoyal", "PloyView", "Reassign", "Recycle",
    "Replace", "Reset", "SlotView", "auto_move", "is_number", "is_ploy", "is_royal", "parse", "parse_cell",
    "parse_slot", "qualifies", "value",
]
