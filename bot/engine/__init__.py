"""Game engines, one pure package per game; find them through :mod:`bot.engine.registry`."""

from __future__ import annotations

import random
from typing import Callable

from bot.engine.core import Event, Game, IllegalMove, Outcome
from bot.engine.registry import GAME_IDS, spec

__all__ = ["Event", "Game", "IllegalMove", "Outcome", "GAME_IDS", "game_class", "auto_player"]

AutoPlayer = Callable[[Game, int, random.Random], object]


def game_class(game_id: str) -> type[Game]:
    """The state class of ``game_id`` (its spec's ``state``)."""
    return spec(game_id).state


def auto_player(game_id: str) -> AutoPlayer:
    """The built-in player of a game (its spec's ``player``)."""
    return spec(game_id).player
