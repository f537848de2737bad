"""Typed actions of Warriors of the Celestial Emperor and their one parser.

``str(action)`` is the notation records, slash commands and the terminal use:
``target tiger``, ``commit 7D``, ``trick 5S``, ``keep QH``, ``skip`` and the story lines
``<verb> <text>`` (``setting``, ``describe``, ``nullify``, ``strike``, ``parry``,
``withdraw``, ``victory``, ``return``).
"""

from __future__ import annotations

import functools
from typing import ClassVar

from bot.engine import core
from bot.engine.cards import parse_card
from bot.engine.core import Action
from bot.engine.words import say

IllegalMove = core.IllegalMove

CYCLE = "DHSC"  # order of play: Dragon, Phoenix, White Tiger, Tortoise
CLAN = {"D": "Dragon", "H": "Phoenix", "S": "White Tiger", "C": "Tortoise"}
CLAN_WORD = {"D": "dragon", "H": "phoenix", "S": "tiger", "C": "tortoise"}
WORD_CLAN = {
    "dragon": "D", "phoenix": "H", "tiger": "S", "whitetiger": "S", "tortoise": "C",
    "d": "D", "h": "H", "s": "S", "c": "C",
}
MAX_TEXT = 1000


# ----- choices of a card or a target ----------------------------------------------------------
class Target(Action, verb="target", help="Attacker: choose whom to attack", notation="{clan}"):
    """R1: the attacker picks the clan to attack."""

    clan: str  # the target's suit letter


class CardAction(Action, notation="{card}"):
    """An action naming one card of the actor's hand."""

    card: str


class Commit(CardAction, verb="commit", help="Commit a card face-down for the duel (only you see it)"):
    """R1/R2: commit a duel card face-down."""


class Trick(CardAction, verb="trick", help="Choose the card you put into the trick (only you see it)"):
    """R5: put one card from hand face-down into the winner's trick."""


class Keep(CardAction, verb="keep", help="Endgame: choose the card to keep as your final card"):
    """E1: keep one card as the final card; the rest go onto the trick pile."""


class Skip(Action, verb="skip", help="Skip an optional line", notation="…"):  # any words after it are ignored
    """Leave out an optional line (the tie text, a lenient attack description, the epilogue)."""


# ----- story lines ----------------------------------------------------------------------------
class Line(Action, free_text=True, notation="{text:text}"):
    """A line of the story in the player's own words: ``<verb> <text>``."""

    story_kind: ClassVar[str] = ""  # the kind of story entry it makes
    text: str = ""


class Setting(Line, verb="setting", help="Narrate where the fight takes place", story_kind="setting"): ...


class Describe(Line, verb="describe", help="Describe your attack", story_kind="attack"): ...


class Nullify(Line, verb="nullify", help="Defender, on a tie: how the attack came to nothing", story_kind="nullify"): ...


class Strike(Line, verb="strike", help="Winner (attacker): describe your strike", story_kind="strike"): ...


class Parry(Line, verb="parry", help="Winner (defender): describe your parry", story_kind="parry"): ...


class Withdraw(Line, verb="withdraw", help="Loser: describe moving away or changing the scene", story_kind="withdraw"): ...


class Victory(Line, verb="victory", help="The winner's victory description", story_kind="victory"): ...


class Return(Line, verb="return", help="Your line about returning to fight again", story_kind="return"): ...


LINES: tuple[type[Line], ...] = (Setting, Describe, Nullify, Strike, Parry, Withdraw, Victory, Return)
CARD_ACTIONS: tuple[type[CardAction], ...] = (Commit, Trick, Keep)
ACTIONS: tuple[type[Action], ...] = (Target, Commit, Trick, Keep, Skip, *LINES)
LINE_BY_VERB = {c.verb: c for c in LINES}
CARD_BY_VERB = {c.verb: c for c in CARD_ACTIONS}


def _clan(word: str, _: object) -> str:
    if word.lower() not in WORD_CLAN:
        raise IllegalMove(say("Name the target by clan: target dragon, phoenix, tiger or tortoise."), "parse")
    return WORD_CLAN[word.lower()]


def _card(token: str, _: object) -> str:
    try:
        return parse_card(token)
    except ValueError as e:
        raise IllegalMove(str(e), "parse") from None


def _unknown(word: str, words: object, task: str) -> IllegalMove:
    shown = word if len(word) <= 20 else word[:19] + "…"
    if task:
        return IllegalMove(say("Unknown move {move}: {task}.", move=repr(shown), task=task), "parse")
    return IllegalMove(say("Unknown move {move}.", move=repr(shown)), "parse")


NOTATION = core.Notation(ACTIONS, {
    "clan": core.Words(_clan, CLAN_WORD.__getitem__, glue="", lo=0), "card": core.Word(_card),
}, usage=say("Write {verb} and one card, e.g. `{verb} 7♦`."), unknown=_unknown)


@functools.lru_cache(maxsize=4096)  # bench: playouts/s — every step parses its action (about 10% fewer steps/s without)
def parse(text: str, task: str = "") -> Action:
    """The action written ``text`` (any case, extra spaces allowed; ``10d``/``7♦`` for cards).

    Raises IllegalMove on bad syntax; whether the action is legal now is for the rules to say.
    A refusal is raised afresh each time (the cache keeps no error).
    """
    return NOTATION.parse(text, task)
