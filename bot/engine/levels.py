"""The built-in player's three levels: Easy, Normal and Strong.

Every level plays from its own seat's view only (``game.view(seat)``, ``game.known(seat)``,
its legal actions). Normal is each game's own player (``GameSpec.player``).
"""

from __future__ import annotations

import random

from bot.engine.core import Action, Game
from bot.engine.registry import spec

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
LEVEL_NAMES = {"easy": "Easy", "normal": "Normal", "strong": "Strong"}
STRONG_BUDGET = 1.0  # seconds of CPU a Strong move may take, at most (a setting: DECKHAND_STRONG_SECONDS)


def choose(level: str, game: Game, seat: int, rng: random.Random, budget: float | None = None) -> Action | str:
    """The action ``seat`` plays at ``level`` (``budget``: Strong's CPU seconds, default STRONG_BUDGET)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return spec(game.game_id).player(game, seat, rng)
