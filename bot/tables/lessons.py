"""Lessons at the tables: a player's private lesson of a game, kept in the store, handed out as readers.

A lesson (``bot.engine.lessons``) replays from its presses on a fixed deal, so the store keeps only
those (one lesson a player and game, revision-checked: a button of an older message is refused).
The Discord layer holds :class:`LessonReader` objects — the learner's and the public reader of
the lesson's game, the lesson's words, what is offered — never the walk or its game. A lesson's
components name it by :func:`lesson_key` (never a table key: those are hexadecimal).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.words import say
from bot.engine.core import IllegalMove
from bot.engine.lessons import Walk, has_lesson, lesson
from bot.engine.registry import GAME_IDS, spec
from bot.tables.errors import StaleError, TableError
from bot.tables.reader import Reader, SeatFacts, TableFacts

PREFIX = "l"
BOT_SEAT_ID = -1  # the built-in player's seat (bot ids are negative)
NO_LESSON = say("That lesson is gone; start it again with `/game learn`.")
STALE = say("That lesson has moved on since this was shown; here it is as it is now.")


def lesson_key(game: str, user_id: int) -> str:
    """The lesson's name in custom_ids: ``l<game index>u<user id>`` (a table's key is hexadecimal)."""
    return f"{PREFIX}{GAME_IDS.index(game)}u{user_id}"


def is_lesson_key(key: str) -> bool:
    return key.startswith(PREFIX)


def parse_key(key: str) -> tuple[str, int]:
    """(game, user id) of a lesson key; TableError for anything else."""
    head, _, user = key[len(PREFIX):].partition("u")
    if not key.startswith(PREFIX) or not head.isdigit() or not user.isdigit() or int(head) >= len(GAME_IDS):
        raise TableError(say("That button is not one of mine."))
    return GAME_IDS[int(head)], int(user)


@dataclass(frozen=True)
class LessonReader:
    """What the learner may know of their lesson now."""

    key: str
    game: str
    title: str
    revision: int  # presses so far
    seat: Reader  # the learner's reader (acting while the lesson offers a move)
    public: Reader  # the lesson's table as anyone would see it
    lines: tuple[str, ...]  # what happened, then the step with its rule and link (or the summary)
    offer: str | None  # what is offered, in plain words (None: the lesson is over)
    scripted: bool  # the offer is the lesson's own step (else the built-in player's hint)
    finished: bool
    step: int  # the step offered (1-based), or the steps done at the end
    steps: int


def _reader_of(walk: Walk, key: str, user_id: int, name: str) -> LessonReader:
    game = walk.game
    status = "finished" if walk.finished else "playing"
    seats = tuple(SeatFacts(user_id if i == walk.seat else BOT_SEAT_ID - i, n) for i, n in enumerate(game.players))
    facts = TableFacts(channel_id=0, guild_id=None, game=walk.lesson.game, key=key, revision=len(walk.presses),
                       status=status, host_id=user_id, seats=seats, options=walk.lesson.options, turn_limit=0,
                       timed_out=False, moves=game.move_count, started=True, daily=None)
    offer = walk.offer
    return LessonReader(key, walk.lesson.game, spec(walk.lesson.game).title, len(walk.presses),
                        Reader(facts, game, walk.seat, lang=walk.lesson.lang), Reader(facts, game, None, lang=walk.lesson.lang),
                        tuple(walk.lines()),
                        offer.label if offer is not None else None, bool(offer is not None and offer.step is not None),
                        walk.finished, (offer.index + 1 if offer is not None and offer.step is not None else walk.at),
                        len(walk.lesson.steps))


class Lessons:
    """Each player's lessons over the store (``desk.lessons``)."""

    def __init__(self, store: Any):
        self._store = store
        self._walks: OrderedDict[tuple[str, int], Walk] = OrderedDict()  # (key, revision) -> walk, recent ones
        self._offered: set[tuple[int, str]] = set()  # offers this process knows were made

    # ----- walks ----------------------------------------------------------------------------
    async def _walk(self, game: str, presses: Sequence[Sequence[str]], key: str, name: str, lang: str = "en") -> Walk:
        found = self._walks.get((key, len(presses), lang))
        if found is not None and [list(p) for p in found.presses] == [list(p) for p in presses]:
            self._walks.move_to_end((key, len(presses), lang))
            return found
        try:
            walk = await asyncio.to_thread(Walk.replay, lesson(game, lang), presses, name)
        except (IllegalMove, KeyError) as e:  # a lesson changed under a stored one: it starts again
            raise TableError(NO_LESSON) from e
        return self._keep(key, walk, lang)

    def _keep(self, key: str, walk: Walk, lang: str = "en") -> Walk:
        self._walks[(key, len(walk.presses), lang)] = walk
        while len(self._walks) > 64:
            self._walks.popitem(last=False)
        return walk

    async def _load(self, key: str, user_id: int, name: str, lang: str = "en") -> tuple[Walk, int]:
        game, owner = parse_key(key)
        if owner != user_id:
            raise TableError(say("That lesson is someone else's; start your own with `/game learn`."))
        stored = await self._store.lesson(user_id, game)
        if stored is None:
            raise TableError(NO_LESSON)
        presses, revision = stored
        return await self._walk(game, presses, key, name, lang), revision

    # ----- looking and playing ---------------------------------------------------------------
    async def open(self, game: str, user_id: int, name: str, *, again: bool = False, lang: str = "en") -> LessonReader:
        """The player's lesson of ``game``: where they left it, or a new one (``again``: from the start);
        its words in ``lang`` (the learner's own language)."""
        if not has_lesson(game):
            raise TableError(say("{title} has no lesson yet.", title=spec(game).title))
        key = lesson_key(game, user_id)
        stored = await self._store.lesson(user_id, game)
        if stored is None or again:
            await self._store.save_lesson(user_id, game, [], stored[1] if stored is not None else None)
            walk = await self._walk(game, [], key, name, lang)
        else:
            walk = await self._walk(game, stored[0], key, name, lang)
        return _reader_of(walk, key, user_id, name)

    async def reader(self, key: str, user_id: int, name: str, lang: str = "en") -> LessonReader:
        walk, _ = await self._load(key, user_id, name, lang)
        return _reader_of(walk, key, user_id, name)

    async def take(self, key: str, user_id: int, name: str, revision: int, lang: str = "en") -> LessonReader:
        """Play what the lesson offers (a button of the lesson at ``revision``)."""
        walk, stored = await self._load(key, user_id, name, lang)
        if stored != revision or walk.offer is None:
            raise StaleError(STALE)
        return await self._play(key, user_id, name, walk, list(walk.offer.moves))

    async def play(self, key: str, user_id: int, name: str, moves: Sequence[str], opened: int | None,
                   lang: str = "en") -> LessonReader:
        """Play the learner's own moves (from the picker made when their decision opened at ``opened``)."""
        walk, _ = await self._load(key, user_id, name, lang)
        if opened is not None and (walk.finished or walk.game.opened_at(walk.seat) != opened):
            raise StaleError(STALE)
        return await self._play(key, user_id, name, walk, list(moves))

    async def _play(self, key: str, user_id: int, name: str, walk: Walk, moves: list[str]) -> LessonReader:
        try:
            after = await asyncio.to_thread(walk.play, moves)
        except IllegalMove as e:
            raise TableError(e.reason) from None
        game, _ = parse_key(key)
        if not await self._store.save_lesson(user_id, game, [list(p) for p in after.presses], len(walk.presses)):
            raise StaleError(STALE)
        return _reader_of(self._keep(key, after, walk.lesson.lang), key, user_id, name)

    async def draft(self, draft_id: str, key: str, user_id: int, opened: int) -> tuple[str, ...]:
        """A picker's stored draft, only for this lesson and the learner's decision it was made for."""
        found = await self._store.get_draft(draft_id)
        if found is None or found.table_id != key or found.decision_rev != opened or parse_key(key)[1] != user_id:
            raise StaleError(STALE)
        return tuple(found.tokens)

    # ----- offered once ------------------------------------------------------------------------
    async def offer_once(self, reader: Reader, user_id: int, moved: bool) -> bool:
        """Whether the player's panel offers the game's lesson now: on their first turn (``moved``:
        they have moved at this table before) of a game that has a lesson, once a player and game."""
        game = reader.game
        if moved or not reader.acting or reader.table.daily or (user_id, game) in self._offered or not has_lesson(game):
            return False
        self._offered.add((user_id, game))
        played = await self._store.stats(reader.table.guild_id, game, user_id)
        if played or await self._store.lesson(user_id, game) is not None:  # not a first game, or learned already
            await self._store.offer_lesson(user_id, game)
            return False
        return bool(await self._store.offer_lesson(user_id, game))
