"""Typed actions of Cardchess2 and their notation, each kind's words declared once (``notation``):
``str()`` writes them; :func:`parse` is the only parser.

    order 7H TS 2C 9D KS 3H 5C     home row, files a to g ("order" alone keeps the dealt order)
    move b2 b3
    add 8H d2
    attack d6 d2 c1 >c2            target, then attackers; ">cell" is the step of the one before
    enforce c3,e4                  (or just "enforce": none)
    reinforce d1 >d2               (or just "reinforce": none)
    pass
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.core import Action, Codec, IllegalMove, Many, Notation, Word
from bot.engine.cards import parse_card
from bot.engine.words import say

from .geometry import INDEX

_CELL = re.compile(r"^[a-g][1-7]$")


@dataclass(frozen=True)
class Striker:
    """One attacker or reinforcer: the cell it stands on and its step (``None``: no step)."""

    cell: str
    step: str | None = None

    def __str__(self) -> str:
        return self.cell if self.step is None else f"{self.cell} >{self.step}"


class Order(Action, verb="order", help="Order your home row: seven cards, files a to g.", notation="{cards}",
            usage=say("Name seven cards for your home row, files a to g.")):
    cards: tuple[str, ...] = ()


class Move(Action, verb="move", help="Move one of your cards to an empty cell it can reach.", notation="{src:cell} {dst:cell}",
           usage=say("Write a move as: move FROM TO (like move b2 b3).")):
    src: str = ""
    dst: str = ""


class Add(Action, verb="add", help="Place a card from your hand face down where one of your cards could move.",
          notation="{card} {dst:cell}", usage=say("Write an add as: add, the card, the cell (like add 8♥ d2).")):
    card: str = ""
    dst: str = ""


class Attack(Action, verb="attack", help="Attack an opponent's card with one or more of yours.",
             notation="{target:cell} {strikers:attackers}",
             usage=say("Write an attack as: attack TARGET ATTACKER [>STEP] … (like attack d6 d2).")):
    target: str = ""
    strikers: tuple[Striker, ...] = ()


class Enforce(Action, verb="enforce",
              help="Turn up face-down cards covering the attacked card to add to its defence (or none).",
              notation="{cells:enforcers}"):
    cells: tuple[str, ...] = ()


class Reinforce(Action, verb="reinforce", help="Add more attackers after an enforcement (or none).",
                notation="{strikers:reinforcers}"):
    strikers: tuple[Striker, ...] = ()


class Pass(Action, verb="pass", help="Do nothing: allowed only when no move, add or attack is legal.",
           usage=say("'pass' takes nothing after it.")): ...


ACTIONS: tuple[type[Action], ...] = (Order, Move, Add, Attack, Enforce, Reinforce, Pass)


def cell(token: str) -> str:
    t = token.strip().lower()
    if not _CELL.match(t):
        raise IllegalMove(say("{token} is not a cell (write cells like d5, files a to g, ranks 1 to 7).",
                              token=repr(token[:12])), "parse")
    return t


def card(token: str) -> str:
    base, at, deck = token.strip().partition("@")
    try:
        code = parse_card(base)
    except ValueError:
        raise IllegalMove(say("{token} is not a card: write it like 7♥ or 10♠, or with a suit letter like 7h or 10s.",
                              token=repr(token[:12])), "parse") from None
    if code.startswith("JK"):
        raise IllegalMove(say("Cardchess2 is played without jokers."), "parse")
    if at:
        if deck not in ("0", "1"):
            raise IllegalMove(say("{token} is not a card.", token=repr(token[:12])), "parse")
        return f"{code}@{deck}"
    return code


def strikers(tokens: list[str]) -> tuple[Striker, ...]:
    """``c1 >c2 d2`` or ``c1>c2 d2``; ``stay`` after a cell means no step."""
    out: list[Striker] = []
    for tok in tokens:
        if tok.lower() in ("stay", "-"):
            if not out or out[-1].step is not None:
                raise IllegalMove(say("'stay' must follow an attacker."), "parse")
            continue
        if tok.startswith(">"):
            if not out or out[-1].step is not None:
                raise IllegalMove(say("A step (>cell) must follow the attacker that makes it."), "parse")
            out[-1] = Striker(out[-1].cell, cell(tok[1:]))
            continue
        if ">" in tok:
            a, _, b = tok.partition(">")
            out.append(Striker(cell(a), cell(b)))
        else:
            out.append(Striker(cell(tok)))
    return tuple(out)


class _Strikers(Codec):
    """Attackers (or reinforcers), each maybe with its step: ``c1 >c2 d2``; ``none`` words: none."""

    hi = None

    def __init__(self, lo: int, none: tuple[str, ...] = ()):
        self.lo, self.none = lo, none

    def fits(self, words: Sequence[str]) -> bool:
        return len(words) >= self.lo

    def read(self, words: Sequence[str], ctx: object) -> tuple[Striker, ...]:
        if len(words) == 1 and words[0].lower() in self.none:
            return ()
        return strikers(list(words))

    def write(self, value: tuple[Striker, ...]) -> str:
        return " ".join(map(str, value))


def _prepare(text: str) -> str:
    """Accepted spellings: ``c3,e4``, ``c1 → c2``, ``c1> c2``."""
    text = text.replace(",", " ").replace("→", ">")
    text = re.sub(r">\s+", ">", text)
    return re.sub(r"\s>", " >", text)


def _unknown(word: str, words: object, ctx: object) -> IllegalMove:
    return IllegalMove(say("Unknown action {word}: use order, move, add, attack, enforce, reinforce or pass.",
                           word=repr(word.lower()[:20])), "parse")


_NONE = ("none", "-")
NOTATION = Notation(ACTIONS, {
    "cell": Word(lambda t, _: cell(t)), "card": Word(lambda t, _: card(t)),
    "cards": Many(Word(lambda t, _: card(t)), sizes=(0, 7)),
    "enforcers": Many(Word(lambda t, _: cell(t)), sep=",", none=_NONE, order=INDEX.__getitem__,
                      once=say("Name each enforcing card once.")),
    "attackers": _Strikers(1), "reinforcers": _Strikers(0, _NONE),
}, prepare=_prepare, unknown=_unknown, usage=say("Write it as: {verb}."))


def parse(text: str) -> Action:
    """The typed action written ``text``; raises IllegalMove on bad syntax."""
    return NOTATION.parse(text)
