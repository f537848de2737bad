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

from bot.engine.cards import parse_card
from bot.engine.core import Action, IllegalMove, Many, Notation, Pair, Word
from bot.engine.words import say, say_n

from .model import parse_ace_token


class OrderAces(Action, verb="aces", help="Order your four Aces, Ace #1 first (or at random).", notation="{order:aces}"):
    order: tuple[str, ...] = ()  # empty: at random


class OnCard(Action, notation="{card}"):
    """An action naming one card of the player's."""

    card: str = ""


class PlayResource(OnCard, verb="resource", help="Put a numbered diamond from your hand into your resource area."): ...


class TapResource(Action, verb="tap", help="Tap a resource card for markers (with J♦ from your hand: +3).",
                  notation="{card} [{jack:card}]", usage=say("The move `tap` takes a resource card and maybe a J♦.")):
    card: str = ""
    jack: str | None = None


class TapBase(Action, verb="tapbase", help="Tap your base (Ace #1 is A♦) for 2 markers."): ...


class Markers(Action, notation="{card} {markers:number}"):
    """Markers from the pool onto a card being built (``start 7H@0 3``)."""

    card: str = ""
    markers: int = 0


class Start(Markers, verb="start", help="Start building a numbered heart, spade or club with markers from your pool."): ...


class Fund(Markers, verb="fund", help="Put more markers from your pool on a card being built."): ...


class Rush(OnCard, verb="rush", help="Discard K♦ to complete a card being built or a component from your hand."): ...


class AttachQueen(Action, verb="queen", help="Attach a queen: ♣♠♥ to a unit of yours, ♦ to a resource card of yours.",
                  notation="{card} {target:card}"):
    card: str = ""
    target: str = ""


class Heal(Action, verb="heal", help="Discard K♥ to remove all wounds from one of your units or Aces.", notation="{target}"):
    target: str = ""


class Revive(Action, verb="revive", help="Discard a joker to put one of your fallen Aces at the bottom of your base.",
             notation="{ace:card}"):
    ace: str = ""


class Done(Action, verb="done", help="Finish this phase of your turn (construction, then battles)."): ...


class Declare(Action, verb="attack",
              help="Declare a battle: an opponent, then your untapped patrol units, each with a target Ace.",
              notation="{defender:player} {attacks}",
              usage=say("The move `attack` takes a player, then units each with a target Ace.")):
    defender: int = 0
    attacks: tuple[tuple[str, str], ...] = ()  # (unit, ace token)


class Engage(Action, verb="engage", help="Engage attackers with your untapped guardians (guardian, attacker, …), or none.",
             notation="{pairs:engagements}"):
    pairs: tuple[tuple[str, str], ...] = ()  # (guardian, attacker)


class Seize(Action, verb="seize", help="Discard K♦ to take the initiative in this battle."): ...


class Boost(Action, verb="boost", help="V3: discard J♦ for +3 Initiative in this battle."): ...


class Commit(Action, verb="commit",
             help="Your commit: battle cards with their targets, any base tap, and (attacker) the split.",
             notation="{plays} [tap {tap:unit}] [split {split:numbers}]",
             usage=say("Write a commit as cards with targets, then `tap` and `split`.")):
    plays: tuple[tuple[str, str], ...] = ()  # (card, target), sorted by card
    tap: str | None = None  # the unit the base tap helps
    split: tuple[int, ...] = ()  # per guardian of a multi-engaged attacker, in canonical order


class Move(Action, verb="move", help="Switch one of your units between Patrol and Guardian.", notation="{unit:card}"):
    unit: str = ""


class Assemble(Action, verb="assemble", help="Make a unit from a finished heart, spade and club of one class.",
               notation="{h:card} {s:card} {c:card}"):
    h: str = ""
    s: str = ""
    c: str = ""


class EndTurn(Action, verb="end", help="End your turn (V4: name the cards to discard down to 7, or leave them to chance).",
              notation="{discards}"):
    discards: tuple[str, ...] = ()


ACTIONS: tuple[type[Action], ...] = (OrderAces, PlayResource, TapResource, TapBase, Start, Fund, Rush,
                                     AttachQueen, Heal, Revive, Done, Declare, Engage, Seize, Boost, Commit,
                                     Move, Assemble, EndTurn)


# ----- reading ------------------------------------------------------------------------------
def card(tok: str, seat: int) -> str:
    """A card token: ``7h`` (yours) or ``7H@2``; jokers ``JK@0``/``JK2@0``."""
    face, at, who = tok.partition("@")
    if at and not who.isdigit():
        raise IllegalMove(say("{word} is not a card.", word=repr(tok)), "parse")
    try:
        f = parse_card(face)
    except ValueError:
        raise IllegalMove(say("{word} is not a card: write it like 7♥, 10♦ or K♠, or with a suit letter like 7h, "
                              "10d or ks.", word=repr(tok)), "parse") from None
    return f"{f}@{int(who) if at else seat}"


def target(tok: str, seat: int) -> str:
    """A unit (its heart card) or a base position ``#2@1``."""
    if tok.startswith("#"):
        if parse_ace_token(tok) is None:
            raise IllegalMove(say("{word} is not a base position (write it like #2@1).", word=repr(tok)), "parse")
        return tok
    return card(tok, seat)


def number(tok: str) -> int:
    if not tok.isdigit() or len(tok) > 6:
        raise IllegalMove(say("{word} is not a whole number.", word=repr(tok)), "parse")
    return int(tok)


def player(tok: str) -> int:
    if not (tok.startswith("@") and tok[1:].isdigit()):
        raise IllegalMove(say("{word} is not a player (write it like @1).", word=repr(tok)), "parse")
    return int(tok[1:])


_CARD, _TARGET = Word(card), Word(target)
NOTATION = Notation(ACTIONS, {
    "card": _CARD, "target": _TARGET, "number": Word(lambda tok, _: number(tok)),
    "unit": Word(card, missing=say("The base tap needs a unit.")),
    "player": Word(lambda tok, _: player(tok), lambda seat: f"@{seat}"),
    "aces": Many(_CARD, sizes=(4,), none=("random",), blank="random"),
    "attacks": Many(Pair(_TARGET, _TARGET), lo=1, odd=say("Those words do not pair up.")),
    "engagements": Many(Pair(_TARGET, _CARD), odd=say("Those words do not pair up.")),
    "plays": Many(Pair(_CARD, _TARGET), order=lambda play: play, odd=say("Each battle card needs a target.")),
    "numbers": Many(Word(lambda tok, _: number(tok))),
    "discards": Many(_CARD, order=lambda code: code),
}, usage=say_n("The move `{verb}` takes {n} word after it.", "The move `{verb}` takes {n} words after it."))


_PARSED: dict[tuple[int, str], Action] = {}
PARSED = 4096  # moves whose reading is kept: the table reads the same few again at every press


def parse(seat: int, text: str) -> Action:
    """The action ``seat`` wrote (their own cards may leave ``@seat`` off); IllegalMove on bad syntax.
    Reading depends on the seat and the words only, and actions are frozen: each is read once."""
    if type(seat) is not int:
        return NOTATION.parse(text, seat)
    key = (seat, text)
    found = _PARSED.get(key)
    if found is None:
        found = NOTATION.parse(text, seat)
        if len(_PARSED) >= PARSED:
            _PARSED.clear()
        _PARSED[key] = found
    return found
