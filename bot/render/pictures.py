"""Pictures, off the event loop: the one road from a view to PNG bytes for the Discord layer.

``await table_picture(game_id, view)`` draws the public table; ``await seat_picture(game_id,
view)`` a seat's private picture (None when the game has none for that view). Callers never
draw in the event-loop thread.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.render import renderer


def draw_table(game_id: str, view: Any) -> bytes | None:
    """The public picture, drawn here and now (a worker calls this)."""
    return renderer(game_id).picture(view)


def draw_seat(game_id: str, view: Any) -> bytes | None:
    """A seat's own picture, when its game draws one for private views."""
    fn = getattr(renderer(game_id), "seat_picture", None)
    return fn(view) if fn is not None else None


async def table_picture(game_id: str, view: Any) -> bytes | None:
    return await asyncio.to_thread(draw_table, game_id, view)


async def seat_picture(game_id: str, view: Any) -> bytes | None:
    return await asyncio.to_thread(draw_seat, game_id, view)
