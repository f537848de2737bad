"""Court Wars (Kroc Camen and Prenuntius): guard your court, tear down the others'.

Rules as players read them: ``rules.md`` beside this file. The state machine is in
:mod:`.rules`, actions and notation in :mod:`.actions`, typed views in :mod:`.view`, the
built-in player in :mod:`.player`.
"""

from __future__ import annotations

from bot.engine.core import Outcome
from bot.engine.registry import GameSpec

from .actions import ACTIONS, LETTERS, SUIT_ORDER, Attack, Defend, Discard, Draw, Place, PlaceJoker, Resign, Skip, parse
from .player import auto_move
from .rules import (
    CREDIT, GAME, GUARD_RANKS, LOG_SIZE, NO_JOKERS, SAME_VALUE, SHUFFLE_RECYCLE, SINGLE_ACE, SUMMARY,
    CourtWarsGame, CourtWarsOptions, guard_value, is_ace, is_court, is_guard,
)
from .view import CourtWarsView, PositionView, SeatView


def rematch_first(n: int, last_first: int, outcome: Outcome | None) -> int:
    """The series rule (§1 First player): with 2 players the loser of the last game starts
    (a shared or unfinished game alternates); with 3–4 the starting seat moves one place on."""
    if n == 2:
        if outcome is not None and len(outcome.winners) == 1:
            return 1 - outcome.winners[0]
        return 1 - last_first
    return (last_first + 1) % n


SPEC = GameSpec(
    state=CourtWarsGame, options=CourtWarsOptions, player=auto_move, actions=ACTIONS, command="court-wars",
    rematch_first=rematch_first,
)

__all__ = [
    "ACTIONS", "CREDIT", "GAME", "GUARD_RANKS", "LETTERS", "LOG_SIZE", "NO_JOKERS", "SAME_VALUE", "SHUFFLE_RECYCLE",
    "SINGLE_ACE", "SPEC", "SUIT_ORDER", "SUMMARY", "Attack", "CourtWarsGame", "CourtWarsOptions", "CourtWarsView",
    "Defend", "Discard", "Draw", "Place", "PlaceJoker", "PositionView", "Resign", "SeatView", "Skip", "auto_move",
    "guard_value", "is_ace", "is_court", "is_guard", "parse", "rematch_first",
]
