"""Game engines, one pure package per game; find them through :mod:`bot.engine.registry`."""

from __future__ import annotations

from bot.engine.core import Event, Game, IllegalMove, Outcome
from bot.engine.registry import GAME_IDS, spec

__all__ = ["Event", "Game", "IllegalMove", "Outcome", "GAME_IDS", "spec"]
