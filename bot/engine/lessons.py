"""Lessons: a first game that teaches, played on a fixed deal against the built-in player.

A lesson is data beside its engine (``bot/engine/<game>/lesson.toml``, package data): the deal
(seed, players, options, the seat that learns) and scripted steps. Its words in another language
(``lesson.<lang>.toml``: the intro, the summary and each step's ``say``, in the same order) replace
the English ones; the moves, rules and sections are shared. A step is what one press
offers — one move, or a few of the learner's moves in a row — with one or two sentences saying
the rule and why the move is good, and the rules section it links. :class:`Walk` plays it: the
built-in player answers for the other seats (from their own views, as always); when the learner
takes another legal move the lesson says what happened (the engine's events, as the learner reads
them) and goes on, offering the next scripted step again once it fits, or else the built-in
player's hint. Pure and deterministic: the same presses give the same lesson.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from bot.engine.cards import pretty_text
from bot.engine.core import Event, Game, IllegalMove
from bot.engine.hints import describe, hint
from bot.engine.registry import GAME_IDS, spec

MAX_PRESSES = 25  # a lesson ends within this many presses, whatever the learner does
LOOK_AHEAD = 2  # after a move of the learner's own, the next steps tried for one that fits again
LESSON_FILE = "lesson.toml"
WORDS_FIELDS = ("say",)  # a step's words: what a lesson.<lang>.toml step holds, the rest is shared


@dataclass(frozen=True)
class Step:
    """One press of the script: its moves (the learner's, in order), the rule, the link."""

    moves: tuple[str, ...]
    rule: str  # the rule's short name: each rule a first game meets is taught once ("": practice)
    say: str  # one or two sentences: the rule, and why this move is good
    section: str  # the rules section it links (``/game rules section:``), its heading in the lesson's language


@dataclass(frozen=True)
class Lesson:
    game: str
    seed: int
    players: tuple[str, ...]
    seat: int  # the seat that learns
    options: tuple[str, ...]
    intro: str
    steps: tuple[Step, ...]
    summary: tuple[str, ...]  # what was learned, a line each
    lang: str = "en"  # the language of its words

    @property
    def title(self) -> str:
        return spec(self.game).title

    def rules_link(self, section: str) -> str:
        return f"`/game rules game:{self.game} section:{section}`"


def has_lesson(game_id: str) -> bool:
    return game_id in GAME_IDS and resources.files(f"bot.engine.{game_id}").joinpath(LESSON_FILE).is_file()


def lesson_games() -> list[str]:
    return [g for g in GAME_IDS if has_lesson(g)]


def words_file(lang: str) -> str:
    return f"lesson.{lang}.toml"


def has_words(game_id: str, lang: str) -> bool:
    """Whether the game's lesson has its words in ``lang`` (English always)."""
    return lang == "en" or (has_lesson(game_id) and lang.isalpha()
                            and resources.files(f"bot.engine.{game_id}").joinpath(words_file(lang)).is_file())


def _flat(text: str) -> str:
    return " ".join(text.split())


@lru_cache(maxsize=None)
def lesson(game_id: str, lang: str = "en") -> Lesson:
    """The lesson of ``game_id`` with its words in ``lang`` (English when the language has no words
    file); KeyError when the game has none, ValueError when a words file does not match the lesson."""
    if not has_lesson(game_id):
        raise KeyError(f"{spec(game_id).title} has no lesson yet.")
    files = resources.files(f"bot.engine.{game_id}")
    data = tomllib.loads(files.joinpath(LESSON_FILE).read_text(encoding="utf-8"))
    if not has_words(game_id, lang):
        lang = "en"
    words = data if lang == "en" else tomllib.loads(files.joinpath(words_file(lang)).read_text(encoding="utf-8"))
    if len(words.get("step", ())) != len(data["step"]) or len(words.get("summary", ())) != len(data["summary"]):
        raise ValueError(f"{game_id}'s {words_file(lang)} has {len(words.get('step', ()))} steps and "
                         f"{len(words.get('summary', ()))} summary lines; lesson.toml has {len(data['step'])} and "
                         f"{len(data['summary'])}")
    if lang != "en" and any(set(w) - set(WORDS_FIELDS) for w in words["step"]):
        raise ValueError(f"{game_id}'s {words_file(lang)}: a step holds only its words ({', '.join(WORDS_FIELDS)}); "
                         "the moves, rule and section stay in lesson.toml")
    # A step names its section by the English heading; the reader reads the heading at the same place
    # in the rulebook of the lesson's language.
    english = [h for h, _ in spec(game_id).rules_sections()]
    heads = [h for h, _ in spec(game_id).rules_sections(lang)]

    def heading(section: str) -> str:
        return heads[english.index(section)] if section in english and len(heads) == len(english) else section

    steps = tuple(Step(tuple(s["moves"]), s["rule"], _flat(w["say"]), heading(s["section"]))
                  for s, w in zip(data["step"], words["step"], strict=True))
    return Lesson(game_id, int(data["seed"]), tuple(data["players"]), int(data.get("seat", 0)),
                  tuple(data.get("options", ())), _flat(words["intro"]), steps,
                  tuple(_flat(x) for x in words["summary"]), lang)


@dataclass(frozen=True)
class Offer:
    """What the lesson offers now: the moves of one press and their words."""

    moves: tuple[str, ...]
    labels: tuple[str, ...]  # each move in plain words, from the learner's own choices
    step: Step | None  # the scripted step (None: the built-in player's hint)
    index: int = -1  # the step's place in the script
    reason: str = ""  # a hint's reason

    @property
    def label(self) -> str:
        return "; ".join(self.labels)


@dataclass
class Walk:
    """A lesson being played: the game, the presses so far, where the script stands."""

    lesson: Lesson
    game: Game
    rng: random.Random  # the built-in player's coin flips
    presses: tuple[tuple[str, ...], ...] = ()
    at: int = 0  # the next scripted step
    taught: tuple[str, ...] = ()  # the rules taught so far
    told: tuple[str, ...] = ()  # what the last press did, as the learner read it
    own_move: bool = False  # the last press was not the one offered
    events: tuple[Event, ...] = ()  # every event of the last press, the other seats' replies included
    _offer: "Offer | None | bool" = field(default=False, repr=False)

    # ----- starting and replaying ------------------------------------------------------
    @classmethod
    def start(cls, lesson_: Lesson, name: str | None = None) -> "Walk":
        players = list(lesson_.players)
        if name:
            players[lesson_.seat] = " ".join(name.split())[:40] or players[lesson_.seat]
        game = spec(lesson_.game).state.new(players, lesson_.options, seed=lesson_.seed)
        walk = cls(lesson_, game, random.Random(lesson_.seed))
        walk.told = tuple(_briefly(walk._bots([])))
        return walk

    @classmethod
    def replay(cls, lesson_: Lesson, presses: Sequence[Sequence[str]], name: str | None = None) -> "Walk":
        """The lesson after ``presses`` (each the moves of one press), as they were played."""
        walk = cls.start(lesson_, name)
        for moves in presses:
            walk = walk.play(moves)
        return walk

    # ----- where it stands ---------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.lesson.seat

    @property
    def finished(self) -> bool:
        return (self.at >= len(self.lesson.steps) or self.game.is_over() or len(self.presses) >= MAX_PRESSES
                or self.seat not in self.game.to_act())

    @property
    def offer(self) -> Offer | None:
        """The scripted step when it fits now (or one of the next few after the learner's own
        move), else the built-in player's hint; None when the lesson is over."""
        if self._offer is False:
            self._offer = self._find_offer()
        return self._offer  # type: ignore[return-value]

    def _find_offer(self) -> Offer | None:
        if self.finished:
            return None
        steps = self.lesson.steps
        ahead = LOOK_AHEAD if self.own_move else 0
        for i in range(self.at, min(len(steps), self.at + ahead + 1)):
            found = self._fits(steps[i].moves)
            if found is not None:
                return Offer(found[0], found[1], steps[i], i)
        action, reason = hint(self.game, self.seat)
        move = str(action)
        return Offer((move,), (describe(self.game, self.seat, move),), None, reason=reason)

    def _fits(self, moves: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The moves as the engine writes them and each in plain words, when the learner may play
        them all in a row now (no other seat moving in between, and no move after one that drew on
        chance: its words would tell what the draw brings); else None."""
        game, written, labels = self.game, [], []
        for k, move in enumerate(moves):
            if self.seat not in game.to_act():
                return None
            if k and not game.known(self.seat) <= self.game.known(self.seat):  # a draw came: what follows
                return None  # it would be offered knowing the card
            try:
                action = game.parse(self.seat, move)
                labels.append(describe(game, self.seat, action))
                game, _ = game.apply(self.seat, action)
            except IllegalMove:
                return None
            written.append(str(action))
        return tuple(written), tuple(labels)

    # ----- playing -----------------------------------------------------------------------
    def play(self, moves: Sequence[str]) -> "Walk":
        """The lesson after the learner's ``moves`` (one press), the built-in player's replies
        included; IllegalMove (nothing changed) when one of them may not be played."""
        moves = tuple(" ".join(m.split()) for m in moves if m.strip())
        if not moves:
            raise IllegalMove("Choose a move.", "parse")
        if self.finished:
            raise IllegalMove("The lesson is over.", "over")
        offer = self.offer
        game, rng = self.game, random.Random()
        rng.setstate(self.rng.getstate())
        walk = Walk(self.lesson, game, rng, self.presses + (moves,), self.at, self.taught)
        told: list[str] = []
        written: list[str] = []
        happened: list[Event] = []
        for k, move in enumerate(moves):
            if self.seat not in walk.game.to_act():
                raise IllegalMove(f"Move {k + 1} ({move}) cannot follow: {walk.game.waiting_for()}", "turn")
            action = walk.game.parse(self.seat, move)
            walk.game, events = walk.game.apply(self.seat, action)
            written.append(str(action))
            told += walk._read(events)
            happened += events
            told += _briefly(walk._bots([], happened))
        same = offer is not None and tuple(written) == offer.moves
        if same and offer.step is not None:
            walk.at = offer.index + 1
            walk.taught = self.taught + ((offer.step.rule,) if offer.step.rule else ())
        elif offer is not None and offer.step is not None and offer.index > self.at:
            walk.at = offer.index  # the script fits again further on
        walk.own_move = not same
        walk.told = tuple(told)
        walk.events = tuple(happened)
        return walk

    def _read(self, events: Sequence[Event]) -> list[str]:
        return [pretty_text(t) for t in (e.for_(self.seat) for e in events) if t]

    def _bots(self, told: list[str], happened: list[Event] | None = None) -> list[str]:
        """The built-in player's moves for every other seat until the learner must act."""
        s = spec(self.lesson.game)
        for _ in range(2000):  # a bound: the engines always give the learner a turn long before
            others = [d for d in self.game.decisions() if d.seat != self.seat]
            if not others or self.game.is_over():
                break
            seat = others[0].seat
            self.game, events = self.game.apply(seat, str(s.player(self.game, seat, self.rng)))
            told += self._read(events)
            if happened is not None:
                happened += events
        return told

    # ----- words -----------------------------------------------------------------------
    def lines(self) -> list[str]:
        """What the learner reads now: what happened, then the step (or the summary at the end)."""
        out: list[str] = []
        if not self.presses:
            out.append(self.lesson.intro)
        if self.own_move:
            out.append("You chose a move of your own — that is fine, the lesson goes on from here.")
        if self.told:
            out.append("What happened: " + " ".join(t if t.endswith((".", "!", "?")) else t + "." for t in self.told))
        offer = self.offer
        if offer is None:
            out.append(self.summary())
            return out
        if offer.step is not None:
            n = len(self.lesson.steps)
            out.append(f"**Step {offer.index + 1} of {n}.** {offer.step.say} "
                       f"(Rules: {self.lesson.rules_link(offer.step.section)})")
        else:
            reason = pretty_text(offer.reason.strip().rstrip("."))
            out.append(f"The lesson's next step does not fit this game now, so here is what the built-in player "
                       f"would do: {offer.label[:1].upper() + offer.label[1:]}, because {reason}.")
        return out

    def summary(self) -> str:
        learned = " ".join(f"• {line}" for line in self.lesson.summary)
        return f"**The lesson is over.** What you learned: {learned}"


BRIEF = 7  # the other seats' lines told after a press, at most (the latest; the rest counted)


def _briefly(lines: list[str]) -> list[str]:
    """The other seats' moves since the learner's: the latest few, the rest counted."""
    if len(lines) <= BRIEF:
        return lines
    return [f"({len(lines) - BRIEF + 1} lines before these)", *lines[-(BRIEF - 1):]]
