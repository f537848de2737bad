"""Renders: views → text (terminal), panels (embeds) and pictures. One module per game.

Each game module has ``panel(view, with_picture=True) -> Panel`` (beside a picture: only what the
picture cannot say; without one: the whole table in words), ``text(view) -> str`` and
``picture(view) -> bytes | None``; it may also have ``seat_picture`` (a seat's own cards),
``hand_text`` (a seat's hand in words), ``story`` (the story told, for story games) and
``alt_text`` (the table in words, for screen readers). A module only ever receives a view.
:func:`renderer` is the one place a game's module is found, as a typed :class:`Renderer`; the
Discord layer gets pictures through :mod:`bot.render.pictures` (cached, drawn in worker processes).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.render.panel import Panel


@dataclass
class Renderer:
    """What a game's render module offers, typed: the optional parts are None where a game has none.
    One per game (cached); not frozen, so a test may plant a leak in a render for the whole suite."""

    game: str
    panel: Callable[..., Panel]
    text: Callable[[Any], str]
    picture: Callable[[Any], bytes | None]
    seat_picture: Callable[[Any], bytes | None] | None = None
    hand_text: Callable[[Any], str] | None = None
    story: Callable[[Any], tuple[list[str], list[dict[str, Any]]]] | None = None
    alt_text: Callable[[Any], str] | None = None
    status: Callable[[Any], str] | None = None
    warm: Callable[[], None] | None = None  # draws what its pictures reuse, once per process
    compact: bool = False  # panel(view, with_picture=…) is understood
    speaks: bool = False  # its renders take ``lang`` (the reader's language); the others are English only

    def table_panel(self, view: Any, with_picture: bool = True, lang: str = "en") -> Panel:
        """The table's panel: only what the picture cannot say when there is a picture."""
        kw: dict[str, Any] = {"lang": lang} if self.speaks else {}
        return self.panel(view, with_picture=with_picture, **kw) if self.compact else self.panel(view, **kw)

    def said(self, part: str, view: Any, lang: str = "en") -> Any:
        """``text``, ``picture``, ``alt_text`` or ``status`` of ``view`` in ``lang`` (where the game speaks it)."""
        fn = getattr(self, part)
        if not self.speaks or lang == "en":
            return fn(view)
        from bot.render import drawing

        with drawing.speaking(lang):  # a picture's words drawn in lines of text too
            return fn(view, lang)


@functools.lru_cache(maxsize=None)  # one Renderer a game (its module imported and inspected once): a registry
def renderer(game_id: str) -> Renderer:
    from bot.engine import GAME_IDS

    if game_id not in GAME_IDS:
        raise KeyError(game_id)
    module = importlib.import_module(f"bot.render.{game_id}")
    names = ("seat_picture", "hand_text", "story", "alt_text", "status", "warm")
    optional = {name: getattr(module, name, None) for name in names}
    compact = "with_picture" in inspect.signature(module.panel).parameters
    speaks = "lang" in inspect.signature(module.panel).parameters
    return Renderer(game_id, module.panel, module.text, module.picture, compact=compact, speaks=speaks, **optional)
