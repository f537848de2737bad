"""Game engines, one pure module per game, and the registry that finds them by id."""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Callable

from bot.engine.base import Event, Game, IllegalMove, Outcome, TextPrompt, Variant

__all__ = ["Event", "Game", "IllegalMove", "Outcome", "TextPrompt", "Variant", "GAME_IDS", "game_class",
           "auto_player", "engine_module"]

# Game ids are the rulebooks' file names. Only ids whose engine exists are listed.
GAME_IDS: tuple[str, ...] = ("gridcannon", "court_wars", "celestial_emperor", "knight_rogue_princess_dragon")

AutoPlayer = Callable[[Game, int, random.Random], str]


def engine_module(game_id: str) -> ModuleType:
    if game_id not in GAME_IDS:
        raise KeyError(f"Unknown game {game_id!r}. Games: {', '.join(GAME_IDS)}.")
    return importlib.import_module(f"bot.engine.{game_id}")


def game_class(game_id: str) -> type[Game]:
    """The Game subclass for ``game_id`` (each engine module names it ``GAME``)."""
    return engine_module(game_id).GAME


def auto_player(game_id: str) -> AutoPlayer:
    """The built-in player of a game: ``auto_move(game, seat, rng) -> move``."""
    return engine_module(game_id).auto_move
