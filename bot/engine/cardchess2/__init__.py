"""Cardchess2: two players, a 7×7 board of face-down cards, attacks with enforcement and
reinforcement (rules.md beside this file)."""

from __future__ import annotations

from bot.engine.registry import GameSpec

from .actions import ACTIONS
from .player import auto_move
from .rules import Cardchess2
from .settings import Cardchess2Options

GAME = Cardchess2
CREDIT = "Cardchess2 (an anonymous forum post)"

SPEC = GameSpec(
    id="cardchess2",
    credit=CREDIT,
    summary="Chess with a deck of cards: face-down cards on a 7×7 board attack with suit multipliers; the "
            "defender may enforce, the attacker may reinforce. Reach the far row or wipe out the other side.",
    state=Cardchess2,
    options=Cardchess2Options,
    player=auto_move,
    actions=ACTIONS,
    command="cardchess2",
    seat_names=("South", "North"),
    export_seed=False,  # home-row orders and face-down cards stay secret after the game
    quick_options=("turn_cap=80",),
)

__all__ = ["SPEC", "GAME", "CREDIT", "auto_move", "Cardchess2", "Cardchess2Options"]
