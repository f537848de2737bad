"""The built-in player's three levels: Easy, Normal and Strong.

Every level plays from its own seat's view only (``game.view(seat)``, ``game.known(seat)``,
its legal actions). Normal is each game's own player (``GameSpec.player``); Easy is the game's
``easy_move`` (plausible human mistakes, else Normal); Strong is a determinized Monte-Carlo
search over deals consistent with what the seat knows (:mod:`bot.engine.strong`).
"""

from __future__ import annotations

import os
import random

from bot.engine.core import Action, Game
from bot.engine.registry import player_module, spec
from bot.engine.strong import strong_move

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
LEVEL_NAMES = {"easy": "Easy", "normal": "Normal", "strong": "Strong"}
STRONG_BUDGET = 1.0  # seconds of CPU a Strong move may take, at most (a setting: DECKHAND_STRONG_SECONDS)


def strong_budget() -> float:
    """Strong's CPU seconds per move: ``DECKHAND_STRONG_SECONDS`` when set (a positive number),
    else :data:`STRONG_BUDGET`."""
    text = os.environ.get("DECKHAND_STRONG_SECONDS", "").strip()
    try:
        value = float(text) if text else STRONG_BUDGET
    except ValueError:
        return STRONG_BUDGET
    return value if value > 0 else STRONG_BUDGET


def easy_move(game: Game, seat: int, rng: random.Random) -> Action | str:
    """Easy's action: the game's own ``easy_move`` (its player module), else Normal's."""
    own = getattr(player_module(game.game_id), "easy_move", None)
    if own is None:
        return spec(game.game_id).player(game, seat, rng)
    return own(game, seat, rng)


def choose(level: str, game: Game, seat: int, rng: random.Random, budget: float | None = None,
           playouts: int | None = None) -> Action | str:
    """The action ``seat`` plays at ``level``. Strong: ``budget`` CPU seconds (default
    :func:`strong_budget`), or only ``playouts`` playouts when a cap is given without a budget
    (reproducible: the same choice for the same ``rng``). A module-level function of picklable
    arguments, so a process pool can run it."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if level == "strong":
        if budget is None and playouts is None:
            budget = strong_budget()
        return strong_move(game, seat, rng, budget=budget, playouts=playouts)
    if level == "easy":
        return easy_move(game, seat, rng)
    return spec(game.game_id).player(game, seat, rng)
