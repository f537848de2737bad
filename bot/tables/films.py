"""A whole finished game as an animation (:class:`Film`), through one viewer's eyes, with its alt
text: what a replay's "animate" button and a table's end message hand out."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.words import say
from bot.i18n import words
from bot.render import pictures
from bot.render.animation import Animation, alt_text
from bot.tables.errors import TableError

if TYPE_CHECKING:
    from bot.tables.replays import Viewing


@dataclass(frozen=True)
class Film:
    """A whole game as an animation, through one reader's eyes, with its alt text."""

    animation: Animation
    alt: str
    seat: int | None

    @property
    def data(self) -> bytes:
        return self.animation.data

    @property
    def filename(self) -> str:
        return self.animation.filename


_FILMS: "OrderedDict[tuple[str, int | None, str], Film]" = OrderedDict()  # recent films by (record, eyes, language)
FILMS_KEPT = 8  # an animation is one or two MB


async def film(viewing: Viewing, seat: int | None, lang: str = "en") -> Film | None:
    """The whole game as ``seat`` (None: the public) saw it, move by move, as an animation (None
    when it cannot be drawn), its words in ``lang``. Only eyes the export policy lets this viewer
    hand out (may_film)."""
    if not viewing.may_film(seat):
        raise TableError(say("This game's secrets stay secret: its animation shows the public view only."))
    replay = viewing.replay
    key = (replay.digest, seat, lang)
    found = _FILMS.get(key)
    if found is not None:
        _FILMS.move_to_end(key)
        return found
    frames = await asyncio.to_thread(replay.frames, seat, lang)  # a view a step: a moment for a long game
    animation = await pictures.animation(replay.game, frames)
    if animation is None:
        return None
    w = words(lang)
    eyes = "" if seat is None else w.t("{name}'s eyes", name=replay.players[seat])
    notable = await asyncio.to_thread(replay.notable, seat, lang)
    summary = str(replay.summary) if w.english else w.line(replay.summary)
    made = Film(animation, alt_text(replay.title, replay.players, replay.last, summary, notable, eyes, lang), seat)
    _FILMS[key] = made
    while len(_FILMS) > FILMS_KEPT:
        _FILMS.popitem(last=False)
    return made
