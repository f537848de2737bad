"""Court Wars actions: one frozen dataclass per kind; ``str()`` is the notation, :func:`parse` the
only parser.

Notation (``<seat+1>:<letter>`` names a player's position, e.g. ``2:Q`` is P2's queen; a jokered
position keeps its court letter):

- ``draw``                     opening build: draw until a guard turns up
- ``defend``                   draw a card (DEFEND)
- ``attack K 2 2:Q 1``         spend the outermost 2 guards of your K stack, remove 1 card
                               (guards, then the court itself) from P2's queen stack
- ``skip``                     during an Ace sequence: no attack, draw again
- ``place K`` / ``discard``    a drawn guard: onto your K stack, or to the discard pile
- ``joker Q`` / ``discard``    a drawn joker: onto your defeated Q position, or discard it
- ``resign``                   leave the game (you are eliminated)

The parser accepts what the v1 engine accepted (any case, extra spaces, ``place KS`` with your
own suit, ``attack KH 1 2:QS 1``), so records written then replay unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core import Action, IllegalMove, Notation, Word
from bot.engine.words import say

LETTERS = "KQJ"
SUIT_ORDER = "SHDC"


class Draw(Action, verb="draw", help="Opening build: draw until a guard turns up, then place it or discard it."): ...


class Defend(Action, verb="defend", help="Defend: draw a card and deal with it."): ...


class Skip(Action, verb="skip", help="After an ace: make no attack and draw again."): ...


class Discard(Action, verb="discard", help="Discard the drawn guard or joker."): ...


class Resign(Action, verb="resign", help="Resign: you are eliminated at once."): ...


class _Position(Action, notation="{letter:own}", usage=say("Write {verb} K, {verb} Q or {verb} J.")):
    """An action naming one of the writer's own positions ``letter`` (K, Q or J)."""

    letter: str = "K"

    @property
    def index(self) -> int:
        return LETTERS.index(self.letter)


class Place(_Position, verb="place", help="Place the drawn guard on one of your living stacks (K, Q or J)."):
    """Put the drawn guard on your stack ``letter`` (K, Q or J)."""


class PlaceJoker(_Position, verb="joker", help="Put the drawn joker on one of your defeated positions (K, Q or J)."):
    """Put the drawn joker on your defeated position ``letter``."""


class Attack(Action, verb="attack",
             help="Attack: your stack, how many guards to spend, the target and how many cards to remove.",
             notation="{source:letter} {spend:guards} {target_seat,target:ref} {remove:cards}",
             usage=say("Write an attack as `attack SOURCE M SEAT:POSITION R` (your stack, guards to spend, "
                       "the target, cards to remove), e.g. `attack K 2 2:Q 1`.")):
    """Spend the outermost ``spend`` guards of your stack ``source`` to remove the outermost
    ``remove`` cards of seat ``target_seat``'s stack ``target`` (``remove`` = guards + 1 defeats it)."""

    source: str = "K"
    spend: int = 1
    target_seat: int = 0  # 0-based; written 1-based
    target: str = "K"
    remove: int = 1

    @property
    def source_index(self) -> int:
        return LETTERS.index(self.source)

    @property
    def target_index(self) -> int:
        return LETTERS.index(self.target)

    @property
    def target_ref(self) -> str:
        return f"{self.target_seat + 1}:{self.target}"


ACTIONS: tuple[type[Action], ...] = (Draw, Defend, Attack, Skip, Place, PlaceJoker, Discard, Resign)
VERBS = frozenset(a.verb for a in ACTIONS)


def letter(token: str) -> str:
    """``K``, ``q``, ``KS`` → the position letter; IllegalMove otherwise."""
    up = token.strip().upper()
    if len(up) >= 1 and up[0] in LETTERS and (len(up) == 1 or len(up) == 2 and up[1] in SUIT_ORDER):
        return up[0]
    raise IllegalMove(say("{token} is not a position: write K, Q or J.", token=repr(token)), "parse")


def _own(token: str, ctx: tuple[int, Sequence[str]]) -> str:
    """One of the writer's own positions: ``K``, or ``KS`` with their own suit."""
    seat, suits = ctx
    which = letter(token)
    if len(token) == 2 and token.upper()[1] != suits[seat]:
        raise IllegalMove(say("{token} is not one of your courts.", token=token.upper()), "parse")
    return which


def _number(guards: bool) -> Word:
    def read(token: str, _: object) -> int:
        try:
            return int(token)
        except ValueError:
            if guards:
                raise IllegalMove(say("{token} is not a number of guards to spend.", token=repr(token)),
                                  "parse") from None
            raise IllegalMove(say("{token} is not a number of cards to remove.", token=repr(token)), "parse") from None
    return Word(read)


def _ref(token: str, ctx: tuple[int, Sequence[str]]) -> tuple[int, str]:
    """``2:Q`` → (seat 1, ``Q``)."""
    target = token.split(":")
    if len(target) != 2 or not target[0].isdigit():
        raise IllegalMove(say("{token} is not a target: write the player's number and the position, e.g. `2:Q`.",
                              token=repr(token)), "parse")
    opp = int(target[0]) - 1
    if not 0 <= opp < len(ctx[1]):
        raise IllegalMove(say("There is no player {number}.", number=target[0]), "parse")
    return opp, letter(target[1])


NOTATION = Notation(ACTIONS, {
    "own": Word(_own), "letter": Word(lambda t, _: letter(t)), "guards": _number(True),
    "cards": _number(False), "ref": Word(_ref, lambda v: f"{v[0] + 1}:{v[1]}"),
}, usage=say("The move `{word}` takes no arguments: write it alone."),
   unknown=lambda word, words, ctx: IllegalMove(say("{move} is not a move.", move=repr(" ".join(words))), "verb"))


def parse(seat: int, text: str, suits: Sequence[str]) -> Action:
    """The typed action written ``text`` by ``seat`` (``suits``: each seat's suit). Checks the
    syntax only; the rules check the rest. An unknown verb is refused with rule ``"verb"`` so the
    caller can say what is expected now."""
    return NOTATION.parse(text, (seat, tuple(suits)))
