"""Renders: views → text (terminal), panels (embeds) and pictures. One module per game.

Each game module has ``panel(view) -> Panel``, ``text(view) -> str`` and
``picture(view) -> bytes | None``; it only ever receives a view.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def renderer(game_id: str) -> ModuleType:
    from bot.engine import GAME_IDS

    if game_id not in GAME_IDS:
        raise KeyError(game_id)
    return importlib.import_module(f"bot.render.{game_id}")
