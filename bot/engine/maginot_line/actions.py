"""Typed actions of The Maginot Line. ``str()`` is the notation; :func:`parse` is its only parser.

Cards are written with their owner (``7H@0``); a player may leave ``@seat`` off their own cards.
Units are named by their heart component (``5H@0``); a position in a base is ``#2@1`` (Ace #2 of
seat 1); a player is ``@1``.

    aces AS@0 AH@0 AD@0 AC@0 | aces random      the setup order of your Aces (#1 first)
    resource 5D@0                              PLAY_RESOURCE
    tap 5D@0 [JD@0]                            TAP_RESOURCE (with J♦: +3)
    tapbase                                    TAP_BASE (Ace #1 is A♦)
    start 7H@0 3 | fund 7H@0 2 | rush 7H@0     construction (RUSH discards your K♦)
    queen QC@0 5H@0                            ATTACH_QUEEN (a unit, or a resource for Q♦)
    heal 5H@0 | heal #2@0 | revive AH@0        free actions (K♥, joker)
    done                                       end construction / end battles
    attack @1 5H@0 #1@1 8H@0 #2@1              DECLARE_BATTLE
    engage 4H@1 5H@0 3H@1 5H@0                 B1: guardian, attacker, …
    seize | boost                              B2: K♦ (or, V3, J♦ +3 Initiative)
    commit JC@0 5H@0 tap 5H@0 split 2 5        B3/B4: battle cards with targets, base tap, split
    move 5H@0 | assemble 5H@0 7S@0 6C@0        consolidation
    end [7H@0 …]                               END_TURN (V4: the cards to discard)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine.cards import parse_card
from bot.engine.core import Action, IllegalMove

from .model import parse_ace_token


def _cards(codes: tuple[str, ...]) -> str:
    return " ".join(codes)


@dataclass(frozen=True)
class OrderAces(Action):
    verb: ClassVar[str] = "aces"
    help: ClassVar[str] = "Order your four Aces, Ace #1 first (or at random)."
    order: tuple[str, ...] = ()  # empty: at random

    def __str__(self) -> str:
        return f"aces {_cards(self.order)}" if self.order else "aces random"


@dataclass(frozen=True)
class PlayResource(Action):
    verb: ClassVar[str] = "resource"
    help: ClassVar[str] = "Put a numbered diamond from your hand into your resource area."
    card: str = ""

    def __str__(self) -> str:
        return f"resource {self.card}"


@dataclass(frozen=True)
class TapResource(Action):
    verb: ClassVar[str] = "tap"
    help: ClassVar[str] = "Tap a resource card for markers (with J♦ from your hand: +3)."
    card: str = ""
    jack: str | None = None

    def __str__(self) -> str:
        return f"tap {self.card}" + (f" {self.jack}" if self.jack else "")


@dataclass(frozen=True)
class TapBase(Action):
    verb: ClassVar[str] = "tapbase"
    help: ClassVar[str] = "Tap your base (Ace #1 is A♦) for 2 markers."

    def __str__(self) -> str:
        return "tapbase"


@dataclass(frozen=True)
class Start(Action):
    verb: ClassVar[str] = "start"
    help: ClassVar[str] = "Start building a numbered heart, spade or club with markers from your pool."
    card: str = ""
    markers: int = 0

    def __str__(self) -> str:
        return f"start {self.card} {self.markers}"


@dataclass(frozen=True)
class Fund(Action):
    verb: ClassVar[str] = "fund"
    help: ClassVar[str] = "Put more markers from your pool on a card being built."
    card: str = ""
    markers: int = 0

    def __str__(self) -> str:
        return f"fund {self.card} {self.markers}"


@dataclass(frozen=True)
class Rush(Action):
    verb: ClassVar[str] = "rush"
    help: ClassVar[str] = "Discard K♦ to complete a card being built or a component from your hand."
    card: str = ""

    def __str__(self) -> str:
        return f"rush {self.card}"


@dataclass(frozen=True)
class AttachQueen(Action):
    verb: ClassVar[str] = "queen"
    help: ClassVar[str] = "Attach a queen: ♣♠♥ to a unit of yours, ♦ to a resource card of yours."
    card: str = ""
    target: str = ""

    def __str__(self) -> str:
        return f"queen {self.card} {self.target}"


@dataclass(frozen=True)
class Heal(Action):
    verb: ClassVar[str] = "heal"
    help: ClassVar[str] = "Discard K♥ to remove all wounds from one of your units or Aces."
    target: str = ""

    def __str__(self) -> str:
        return f"heal {self.target}"


@dataclass(frozen=True)
class Revive(Action):
    verb: ClassVar[str] = "revive"
    help: ClassVar[str] = "Discard a joker to put one of your fallen Aces at the bottom of your base."
    ace: str = ""

    def __str__(self) -> str:
        return f"revive {self.ace}"


@dataclass(frozen=True)
class Done(Action):
    verb: ClassVar[str] = "done"
    help: ClassVar[str] = "Finish this phase of your turn (construction, then battles)."

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Declare(Action):
    verb: ClassVar[str] = "attack"
    help: ClassVar[str] = "Declare a battle: an opponent, then your untapped patrol units, each with a target Ace."
    defender: int = 0
    attacks: tuple[tuple[str, str], ...] = ()  # (unit, ace token)

    def __str__(self) -> str:
        return f"attack @{self.defender} " + " ".join(f"{u} {a}" for u, a in self.attacks)


@dataclass(frozen=True)
class Engage(Action):
    verb: ClassVar[str] = "engage"
    help: ClassVar[str] = "Engage attackers with your untapped guardians (guardian, attacker, …), or none."
    pairs: tuple[tuple[str, str], ...] = ()  # (guardian, attacker)

    def __str__(self) -> str:
        return " ".join(["engage", *(f"{g} {a}" for g, a in self.pairs)])


@dataclass(frozen=True)
class Seize(Action):
    verb: ClassVar[str] = "seize"
    help: ClassVar[str] = "Discard K♦ to take the initiative in this battle."

    def __str__(self) -> str:
        return "seize"


@dataclass(frozen=True)
class Boost(Action):
    verb: ClassVar[str] = "boost"
    help: ClassVar[str] = "V3: discard J♦ for +3 Initiative in this battle."

    def __str__(self) -> str:
        return "boost"


@dataclass(frozen=True)
class Commit(Action):
    verb: ClassVar[str] = "commit"
    help: ClassVar[str] = "Your commit: battle cards with their targets, any base tap, and (attacker) the split."
    plays: tuple[tuple[str, str], ...] = ()  # (card, target), sorted by card
    tap: str | None = None  # the unit the base tap helps
    split: tuple[int, ...] = ()  # per guardian of a multi-engaged attacker, in canonical order

    def __str__(self) -> str:
        parts = ["commit", *(f"{c} {t}" for c, t in self.plays)]
        if self.tap:
            parts += ["tap", self.tap]
        if self.split:
            parts += ["split", *map(str, self.split)]
        return " ".join(parts)


@dataclass(frozen=True)
class Move(Action):
    verb: ClassVar[str] = "move"
    help: ClassVar[str] = "Switch one of your units between Patrol and Guardian."
    unit: str = ""

    def __str__(self) -> str:
        return f"move {self.unit}"


@dataclass(frozen=True)
class Assemble(Action):
    verb: ClassVar[str] = "assemble"
    help: ClassVar[str] = "Make a unit from a finished heart, spade and club of one class."
    h: str = ""
    s: str = ""
    c: str = ""

    def __str__(self) -> str:
        return f"assemble {self.h} {self.s} {self.c}"


@dataclass(frozen=True)
class EndTurn(Action):
    verb: ClassVar[str] = "end"
    help: ClassVar[str] = "End your turn (V4: name the cards to discard down to 7, or leave them to chance)."
    discards: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(["end", *self.discards])


ACTIONS: tuple[type[Action], ...] = (OrderAces, PlayResource, TapResource, TapBase, Start, Fund, Rush,
                                     AttachQueen, Heal, Revive, Done, Declare, Engage, Seize, Boost, Commit,
                                     Move, Assemble, EndTurn)


# ----- parsing ------------------------------------------------------------------------------
def card(tok: str, seat: int) -> str:
    """A card token: ``7h`` (yours) or ``7H@2``; jokers ``JK@0``/``JK2@0``."""
    face, at, who = tok.partition("@")
    if at and not who.isdigit():
        raise IllegalMove(f"{tok!r} is not a card.", "parse")
    try:
        f = parse_card(face)
    except ValueError:
        raise IllegalMove(f"{tok!r} is not a card: write it like 7♥, 10♦ or K♠, or with a "
                           "suit letter like 7h, 10d or ks.", "parse") from None
    return f"{f}@{int(who) if at else seat}"


def target(tok: str, seat: int) -> str:
    """A unit (its heart card) or a base position ``#2@1``."""
    if tok.startswith("#"):
        if parse_ace_token(tok) is None:
            raise IllegalMove(f"{tok!r} is not a base position (write it like #2@1).", "parse")
        return tok
    return card(tok, seat)


def number(tok: str) -> int:
    if not tok.isdigit() or len(tok) > 6:
        raise IllegalMove(f"{tok!r} is not a whole number.", "parse")
    return int(tok)


def player(tok: str) -> int:
    if not (tok.startswith("@") and tok[1:].isdigit()):
        raise IllegalMove(f"{tok!r} is not a player (write it like @1).", "parse")
    return int(tok[1:])


def _pairs(toks: list[str], seat: int, second) -> tuple[tuple[str, str], ...]:
    if len(toks) % 2:
        raise IllegalMove("Those words do not pair up.", "parse")
    return tuple((target(toks[i], seat), second(toks[i + 1], seat)) for i in range(0, len(toks), 2))


def parse(seat: int, text: str) -> Action:
    toks = text.split()
    if not toks:
        raise IllegalMove("Empty move.", "parse")
    verb, args = toks[0].lower(), toks[1:]

    def need(n: int) -> None:
        if len(args) != n:
            raise IllegalMove(f"The move `{verb}` takes {n} word{'s' if n != 1 else ''} after it.", "parse")

    if verb == "aces":
        if args == ["random"]:
            return OrderAces(())
        need(4)
        return OrderAces(tuple(card(a, seat) for a in args))
    if verb == "resource":
        need(1)
        return PlayResource(card(args[0], seat))
    if verb == "tap":
        if len(args) not in (1, 2):
            raise IllegalMove("The move `tap` takes a resource card and maybe a J♦.", "parse")
        return TapResource(card(args[0], seat), card(args[1], seat) if len(args) == 2 else None)
    if verb in ("tapbase", "seize", "boost", "done"):
        need(0)
        return {"tapbase": TapBase, "seize": Seize, "boost": Boost, "done": Done}[verb]()
    if verb in ("start", "fund"):
        need(2)
        return (Start if verb == "start" else Fund)(card(args[0], seat), number(args[1]))
    if verb == "rush":
        need(1)
        return Rush(card(args[0], seat))
    if verb == "queen":
        need(2)
        return AttachQueen(card(args[0], seat), card(args[1], seat))
    if verb == "heal":
        need(1)
        return Heal(target(args[0], seat))
    if verb == "revive":
        need(1)
        return Revive(card(args[0], seat))
    if verb == "attack":
        if len(args) < 3:
            raise IllegalMove("The move `attack` takes a player, then units each with a target Ace.", "parse")
        return Declare(player(args[0]), _pairs(args[1:], seat, lambda t, s: target(t, s)))
    if verb == "engage":
        return Engage(_pairs(args, seat, lambda t, s: card(t, s)))
    if verb == "commit":
        plays: list[tuple[str, str]] = []
        tap = None
        split: list[int] = []
        i = 0
        while i < len(args) and args[i].lower() not in ("tap", "split"):
            if i + 1 >= len(args):
                raise IllegalMove("Each battle card needs a target.", "parse")
            plays.append((card(args[i], seat), target(args[i + 1], seat)))
            i += 2
        if i < len(args) and args[i].lower() == "tap":
            if i + 1 >= len(args):
                raise IllegalMove("The base tap needs a unit.", "parse")
            tap = card(args[i + 1], seat)
            i += 2
        if i < len(args) and args[i].lower() == "split":
            split = [number(a) for a in args[i + 1:]]
            i = len(args)
        if i != len(args):
            raise IllegalMove("Write a commit as cards with targets, then `tap` and `split`.", "parse")
        return Commit(tuple(sorted(plays)), tap, tuple(split))
    if verb == "move":
        need(1)
        return Move(card(args[0], seat))
    if verb == "assemble":
        need(3)
        h, s, c = (card(a, seat) for a in args)
        return Assemble(h, s, c)
    if verb == "end":
        return EndTurn(tuple(sorted(card(a, seat) for a in args)))
    raise IllegalMove(f"Unknown move {verb[:20]!r}.", "parse")
