"""Renders: views → text (terminal), panels (embeds) and pictures. One module per game.

Each game module has ``panel(view) -> Panel``, ``text(view) -> str`` and
``picture(view) -> bytes | None``; a game whose private views show a seat's own cards also has
``seat_picture(view) -> bytes | None``. A module only ever receives a view. The Discord layer
gets pictures through :mod:`bot.render.pictures` (cached, drawn in worker processes).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def renderer(game_id: str) -> ModuleType:
    from bot.engine import GAME_IDS

    if game_id not in GAME_IDS:
        raise KeyError(game_id)
    return importlib.import_module(f"bot.render.{game_id}")
