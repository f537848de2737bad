"""``python -m bot learn GAME``: a game's lesson in the terminal (bot.engine.lessons).

The terminal table of ``bot.terminal`` with the lesson's words under the learner's view: Enter
takes the offered move, anything else is typed as at any table (another move, ``?``, ``hint``,
``rules``) and the lesson adapts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.cli import game_spec, terminal_width
from bot.engine.cards import pretty_text
from bot.engine.core import Event, IllegalMove
from bot.engine.lessons import Walk, lesson
from bot.terminal import HotSeat, Quit, terminal_language, terminal_text

LESSON_HINT = ("Press Enter to take the offered move, or type a move of your own (`?` to choose it step by step); "
               "`hint`, `rules SECTION`, `quit`.")


class LessonTable(HotSeat):
    """A terminal table that walks a lesson: the built-in player is the lesson's own."""

    def __init__(self, walk: Walk, read: Callable[[str], str], write: Callable[[str], None], width: int):
        s = game_spec(walk.lesson.game)
        bots = {i for i in range(len(walk.game.players)) if i != walk.seat}
        super().__init__(s, walk.game, bots, read, write, width, random.Random(0), clear=False, lang=walk.lesson.lang)
        self.walk = walk

    def run(self) -> Walk:  # type: ignore[override]
        self.say(f"A lesson: {self.spec.title}, against the built-in player. {LESSON_HINT}")
        try:
            while not self.walk.finished:
                decision = self.game.decision_of(self.walk.seat)
                assert decision is not None  # the lesson waits for the learner until it is over
                self.turn(decision)
        except Quit as q:
            self.write(str(q))
            return self.walk
        self.show(self.render.text(self.game.view(self.walk.seat)))
        self.write("")
        self.say(f"To play a real game: `python -m bot play {self.spec.id} --bots 2`.")
        return self.walk

    def show(self, view_text: str) -> None:
        """The learner's view, then the lesson's words (what happened, the step or the summary)."""
        super().show(view_text)
        self.write("")
        for line in self.walk.lines():
            self.say(terminal_text(pretty_text(line.replace("**", ""))))
        offer = self.walk.offer
        if offer is not None:
            self.say(f"Offered: {offer.label} — press Enter to take it.")

    def offered(self, seat: int) -> str | None:
        offer = self.walk.offer
        return " ; ".join(offer.moves) if offer is not None else None

    def play_line(self, seat: int, line: str) -> bool:
        """The offered line (an empty one) is the offer's moves as written (a story line may hold
        anything, so it is never split again); any other line as at any table."""
        offer = self.walk.offer
        if offer is not None and line == self.offered(seat):
            return self.play_several(seat, list(offer.moves))
        return super().play_line(seat, line)

    def apply_move(self, seat: int, text: str) -> list[Event]:
        self.walk = self.walk.play([text])
        self.game = self.walk.game
        return []  # the lesson's words say what happened

    def play_several(self, seat: int, parts: list[str]) -> bool:
        try:
            self.walk = self.walk.play(parts)
        except IllegalMove as e:
            return self.refuse(f"Not allowed: {terminal_text(pretty_text(e.reason))} Nothing was played.")
        self.game = self.walk.game
        return True


def learn_terminal(game_id: str, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                   width: int | None = None, name: str | None = None, lang: str | None = None) -> Walk:
    """Play ``game_id``'s lesson in a terminal, its words and rules in ``lang`` (default: the
    environment's ``LANG``); the last state of the lesson."""
    walk = Walk.start(lesson(game_id, terminal_language(lang)), name)
    return LessonTable(walk, read, write, width or terminal_width()).run()
