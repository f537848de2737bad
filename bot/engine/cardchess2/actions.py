"""Typed actions of Cardchess2 and their notation. ``str()`` writes the notation; :func:`parse`
is its only parser.

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
from dataclasses import dataclass
from typing import ClassVar

from bot.engine.core import Action, IllegalMove
from bot.engine.cards import parse_card

from .geometry import INDEX

_CELL = re.compile(r"^[a-g][1-7]$")


@dataclass(frozen=True)
class Striker:
    """One attacker or reinforcer: the cell it stands on and its step (``None``: no step)."""

    cell: str
    step: str | None = None

    def __str__(self) -> str:
        return self.cell if self.step is None else f"{self.cell} >{self.step}"


@dataclass(frozen=True)
class Order(Action):
    verb: ClassVar[str] = "order"
    help: ClassVar[str] = "Order your home row: seven cards, files a to g."
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(("order", *self.cards))


@dataclass(frozen=True)
class Move(Action):
    verb: ClassVar[str] = "move"
    help: ClassVar[str] = "Move one of your cards to an empty cell it can reach."
    src: str = ""
    dst: str = ""

    def __str__(self) -> str:
        return f"move {self.src} {self.dst}"


@dataclass(frozen=True)
class Add(Action):
    verb: ClassVar[str] = "add"
    help: ClassVar[str] = "Place a card from your hand face down where one of your cards could move."
    card: str = ""
    dst: str = ""

    def __str__(self) -> str:
        return f"add {self.card} {self.dst}"


@dataclass(frozen=True)
class Attack(Action):
    verb: ClassVar[str] = "attack"
    help: ClassVar[str] = "Attack an opponent's card with one or more of yours."
    target: str = ""
    strikers: tuple[Striker, ...] = ()

    def __str__(self) -> str:
        return " ".join(("attack", self.target, *map(str, self.strikers)))


@dataclass(frozen=True)
class Enforce(Action):
    verb: ClassVar[str] = "enforce"
    help: ClassVar[str] = "Turn up face-down cards covering the attacked card to add to its defence (or none)."
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "enforce" + (" " + ",".join(self.cells) if self.cells else "")


@dataclass(frozen=True)
class Reinforce(Action):
    verb: ClassVar[str] = "reinforce"
    help: ClassVar[str] = "Add more attackers after an enforcement (or none)."
    strikers: tuple[Striker, ...] = ()

    def __str__(self) -> str:
        return " ".join(("reinforce", *map(str, self.strikers)))


@dataclass(frozen=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"
    help: ClassVar[str] = "Do nothing: allowed only when no move, add or attack is legal."

    def __str__(self) -> str:
        return "pass"


ACTIONS: tuple[type[Action], ...] = (Order, Move, Add, Attack, Enforce, Reinforce, Pass)


def cell(token: str) -> str:
    t = token.strip().lower()
    if not _CELL.match(t):
        raise IllegalMove(f"{token[:12]!r} is not a cell (write cells like d5, files a to g, ranks 1 to 7).", "parse")
    return t


def card(token: str) -> str:
    base, at, deck = token.strip().partition("@")
    try:
        code = parse_card(base)
    except ValueError:
        raise IllegalMove(f"{token[:12]!r} is not a card: write it like 7♥ or 10♠, or with a "
                           "suit letter like 7h or 10s.", "parse") from None
    if code.startswith("JK"):
        raise IllegalMove("Cardchess2 is played without jokers.", "parse")
    if at:
        if deck not in ("0", "1"):
            raise IllegalMove(f"{token[:12]!r} is not a card.", "parse")
        return f"{code}@{deck}"
    return code


def strikers(tokens: list[str]) -> tuple[Striker, ...]:
    """``c1 >c2 d2`` or ``c1>c2 d2``; ``stay`` after a cell means no step."""
    out: list[Striker] = []
    for tok in tokens:
        if tok.lower() in ("stay", "-"):
            if not out or out[-1].step is not None:
                raise IllegalMove("'stay' must follow an attacker.", "parse")
            continue
        if tok.startswith(">"):
            if not out or out[-1].step is not None:
                raise IllegalMove("A step (>cell) must follow the attacker that makes it.", "parse")
            out[-1] = Striker(out[-1].cell, cell(tok[1:]))
            continue
        if ">" in tok:
            a, _, b = tok.partition(">")
            out.append(Striker(cell(a), cell(b)))
        else:
            out.append(Striker(cell(tok)))
    return tuple(out)


def parse(text: str) -> Action:
    """The typed action written ``text``; raises IllegalMove on bad syntax."""
    text = text.replace(",", " ").replace("→", ">")
    text = re.sub(r">\s+", ">", text)
    text = re.sub(r"\s>", " >", text)
    tokens = text.split()
    if not tokens:
        raise IllegalMove("Empty move.", "parse")
    verb, args = tokens[0].lower(), tokens[1:]
    if verb == "order":
        if args and len(args) != 7:
            raise IllegalMove("Name seven cards for your home row, files a to g.", "parse")
        return Order(tuple(card(a) for a in args))
    if verb == "move":
        if len(args) != 2:
            raise IllegalMove("Write a move as: move FROM TO (like move b2 b3).", "parse")
        return Move(cell(args[0]), cell(args[1]))
    if verb == "add":
        if len(args) != 2:
            raise IllegalMove("Write an add as: add, the card, the cell (like add 8♥ d2).", "parse")
        return Add(card(args[0]), cell(args[1]))
    if verb == "attack":
        if len(args) < 2:
            raise IllegalMove("Write an attack as: attack TARGET ATTACKER [>STEP] … (like attack d6 d2).", "parse")
        return Attack(cell(args[0]), strikers(args[1:]))
    if verb == "enforce":
        if len(args) == 1 and args[0].lower() in ("none", "-"):
            return Enforce(())
        cells = tuple(sorted({cell(a) for a in args}, key=INDEX.__getitem__))
        if len(cells) != len(args):
            raise IllegalMove("Name each enforcing card once.", "parse")
        return Enforce(cells)
    if verb == "reinforce":
        if len(args) == 1 and args[0].lower() in ("none", "-"):
            return Reinforce(())
        return Reinforce(strikers(args))
    if verb == "pass":
        if args:
            raise IllegalMove("'pass' takes nothing after it.", "parse")
        return Pass()
    raise IllegalMove(f"Unknown action {verb[:20]!r}: use order, move, add, attack, enforce, reinforce or pass.",
                      "parse")
