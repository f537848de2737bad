"""Typed actions of The Maginot Line. Each kind declares its words once (``notation``): ``str()``
writes them; :func:`parse` is the only parser.

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
from bot.engine.core import Action, IllegalMove, Many, Notation, Pair, Word

from .model import parse_ace_token


@dataclass(frozen=True)
class OrderAces(Action):
    verb: ClassVar[str] = "aces"
    help: ClassVar[str] = "Order your four Aces, Ace #1 first (or at random)."
    notation: ClassVar[str] = "{order:aces}"
    order: tuple[str, ...] = ()  # empty: at random


@dataclass(frozen=True)
class OnCard(Action):
    """An action naming one card of the player's."""

    notation: ClassVar[str] = "{card}"
    card: str = ""


@dataclass(frozen=True)
class PlayResource(OnCard):
    verb: ClassVar[str] = "resource"
    help: ClassVar[str] = "Put a numbered diamond from your hand into your resource area."


@dataclass(frozen=True)
class TapResource(Action):
    verb: ClassVar[str] = "tap"
    help: ClassVar[str] = "Tap a resource card for markers (with J♦ from your hand: +3)."
    notation: ClassVar[str] = "{card} [{jack:card}]"
    usage: ClassVar[str] = "The move `tap` takes a resource card and maybe a J♦."
    card: str = ""
    jack: str | None = None


@dataclass(frozen=True)
class TapBase(Action):
    verb: ClassVar[str] = "tapbase"
    help: ClassVar[str] = "Tap your base (Ace #1 is A♦) for 2 markers."


@dataclass(frozen=True)
class Markers(Action):
    """Markers from the pool onto a card being built (``start 7H@0 3``)."""

    notation: ClassVar[str] = "{card} {markers:number}"
    card: str = ""
    markers: int = 0


@dataclass(frozen=True)
class Start(Markers):
    verb: ClassVar[str] = "start"
    help: ClassVar[str] = "Start building a numbered heart, spade or club with markers from your pool."


@dataclass(frozen=True)
class Fund(Markers):
    verb: ClassVar[str] = "fund"
    help: ClassVar[str] = "Put more markers from your pool on a card being built."


@dataclass(frozen=True)
class Rush(OnCard):
    verb: ClassVar[str] = "rush"
    help: ClassVar[str] = "Discard K♦ to complete a card being built or a component from your hand."


@dataclass(frozen=True)
class AttachQueen(Action):
    verb: ClassVar[str] = "queen"
    help: ClassVar[str] = "Attach a queen: ♣♠♥ to a unit of yours, ♦ to a resource card of yours."
    notation: ClassVar[str] = "{card} {target:card}"
    card: str = ""
    target: str = ""


@dataclass(frozen=True)
class Heal(Action):
    verb: ClassVar[str] = "heal"
    help: ClassVar[str] = "Discard K♥ to remove all wounds from one of your units or Aces."
    notation: ClassVar[str] = "{target}"
    target: str = ""


@dataclass(frozen=True)
class Revive(Action):
    verb: ClassVar[str] = "revive"
    help: ClassVar[str] = "Discard a joker to put one of your fallen Aces at the bottom of your base."
    notation: ClassVar[str] = "{ace:card}"
    ace: str = ""


@dataclass(frozen=True)
class Done(Action):
    verb: ClassVar[str] = "done"
    help: ClassVar[str] = "Finish this phase of your turn (construction, then battles)."


@dataclass(frozen=True)
class Declare(Action):
    verb: ClassVar[str] = "attack"
    help: ClassVar[str] = "Declare a battle: an opponent, then your untapped patrol units, each with a target Ace."
    notation: ClassVar[str] = "{defender:player} {attacks}"
    usage: ClassVar[str] = "The move `attack` takes a player, then units each with a target Ace."
    defender: int = 0
    attacks: tuple[tuple[str, str], ...] = ()  # (unit, ace token)


@dataclass(frozen=True)
class Engage(Action):
    verb: ClassVar[str] = "engage"
    help: ClassVar[str] = "Engage attackers with your untapped guardians (guardian, attacker, …), or none."
    notation: ClassVar[str] = "{pairs:engagements}"
    pairs: tuple[tuple[str, str], ...] = ()  # (guardian, attacker)


@dataclass(frozen=True)
class Seize(Action):
    verb: ClassVar[str] = "seize"
    help: ClassVar[str] = "Discard K♦ to take the initiative in this battle."


@dataclass(frozen=True)
class Boost(Action):
    verb: ClassVar[str] = "boost"
    help: ClassVar[str] = "V3: discard J♦ for +3 Initiative in this battle."


@dataclass(frozen=True)
class Commit(Action):
    verb: ClassVar[str] = "commit"
    help: ClassVar[str] = "Your commit: battle cards with their targets, any base tap, and (attacker) the split."
    notation: ClassVar[str] = "{plays} [tap {tap:unit}] [split {split:numbers}]"
    usage: ClassVar[str] = "Write a commit as cards with targets, then `tap` and `split`."
    plays: tuple[tuple[str, str], ...] = ()  # (card, target), sorted by card
    tap: str | None = None  # the unit the base tap helps
    split: tuple[int, ...] = ()  # per guardian of a multi-engaged attacker, in canonical order


@dataclass(frozen=True)
class Move(Action):
    verb: ClassVar[str] = "move"
    help: ClassVar[str] = "Switch one of your units between Patrol and Guardian."
    notation: ClassVar[str] = "{unit:card}"
    unit: str = ""


@dataclass(frozen=True)
class Assemble(Action):
    verb: ClassVar[str] = "assemble"
    help: ClassVar[str] = "Make a unit from a finished heart, spade and club of one class."
    notation: ClassVar[str] = "{h:card} {s:card} {c:card}"
    h: str = ""
    s: str = ""
    c: str = ""


@dataclass(frozen=True)
class EndTurn(Action):
    verb: ClassVar[str] = "end"
    help: ClassVar[str] = "End your turn (V4: name the cards to discard down to 7, or leave them to chance)."
    notation: ClassVar[str] = "{discards}"
    discards: tuple[str, ...] = ()


ACTIONS: tuple[type[Action], ...] = (OrderAces, PlayResource, TapResource, TapBase, Start, Fund, Rush,
                                     AttachQueen, Heal, Revive, Done, Declare, Engage, Seize, Boost, Commit,
                                     Move, Assemble, EndTurn)


# ----- reading ------------------------------------------------------------------------------
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


_CARD, _TARGET = Word(card), Word(target)
NOTATION = Notation(ACTIONS, {
    "card": _CARD, "target": _TARGET, "number": Word(lambda tok, _: number(tok)),
    "unit": Word(card, missing="The base tap needs a unit."),
    "player": Word(lambda tok, _: player(tok), lambda seat: f"@{seat}"),
    "aces": Many(_CARD, sizes=(4,), none=("random",), blank="random"),
    "attacks": Many(Pair(_TARGET, _TARGET), lo=1, odd="Those words do not pair up."),
    "engagements": Many(Pair(_TARGET, _CARD), odd="Those words do not pair up."),
    "plays": Many(Pair(_CARD, _TARGET), order=lambda play: play, odd="Each battle card needs a target."),
    "numbers": Many(Word(lambda tok, _: number(tok))),
    "discards": Many(_CARD, order=lambda code: code),
}, usage="The move `{verb}` takes {n} word{s} after it.")


def parse(seat: int, text: str) -> Action:
    """The action ``seat`` wrote (their own cards may leave ``@seat`` off); IllegalMove on bad syntax."""
    return NOTATION.parse(text, seat)
