"""Typed actions of Warriors of the Celestial Emperor and their one parser.

``str(action)`` is the notation records, slash commands and the terminal use:
``target tiger``, ``commit 7D``, ``trick 5S``, ``keep QH``, ``skip`` and the story lines
``<verb> <text>`` (``setting``, ``describe``, ``nullify``, ``strike``, ``parry``,
``withdraw``, ``victory``, ``return``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine import core
from bot.engine.cards import parse_card
from bot.engine.core import Action

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
@dataclass(frozen=True)
class Target(Action):
    """R1: the attacker picks the clan to attack."""

    verb: ClassVar[str] = "target"
    help: ClassVar[str] = "Attacker: choose whom to attack"
    notation: ClassVar[str] = "{clan}"
    clan: str  # the target's suit letter


@dataclass(frozen=True)
class CardAction(Action):
    """An action naming one card of the actor's hand."""

    notation: ClassVar[str] = "{card}"
    card: str


@dataclass(frozen=True)
class Commit(CardAction):
    """R1/R2: commit a duel card face-down."""

    verb: ClassVar[str] = "commit"
    help: ClassVar[str] = "Commit a card face-down for the duel (only you see it)"


@dataclass(frozen=True)
class Trick(CardAction):
    """R5: put one card from hand face-down into the winner's trick."""

    verb: ClassVar[str] = "trick"
    help: ClassVar[str] = "Choose the card you put into the trick (only you see it)"


@dataclass(frozen=True)
class Keep(CardAction):
    """E1: keep one card as the final card; the rest go onto the trick pile."""

    verb: ClassVar[str] = "keep"
    help: ClassVar[str] = "Endgame: choose the card to keep as your final card"


@dataclass(frozen=True)
class Skip(Action):
    """Leave out an optional line (the tie text, a lenient attack description, the epilogue)."""

    verb: ClassVar[str] = "skip"
    help: ClassVar[str] = "Skip an optional line"
    notation: ClassVar[str] = "…"  # any words after it are ignored


# ----- story lines ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Line(Action):
    """A line of the story in the player's own words: ``<verb> <text>``."""

    free_text: ClassVar[bool] = True
    story_kind: ClassVar[str] = ""  # the kind of story entry it makes
    notation: ClassVar[str] = "{text:text}"
    text: str = ""


@dataclass(frozen=True)
class Setting(Line):
    verb: ClassVar[str] = "setting"
    help: ClassVar[str] = "Narrate where the fight takes place"
    story_kind: ClassVar[str] = "setting"


@dataclass(frozen=True)
class Describe(Line):
    verb: ClassVar[str] = "describe"
    help: ClassVar[str] = "Describe your attack"
    story_kind: ClassVar[str] = "attack"


@dataclass(frozen=True)
class Nullify(Line):
    verb: ClassVar[str] = "nullify"
    help: ClassVar[str] = "Defender, on a tie: how the attack came to nothing"
    story_kind: ClassVar[str] = "nullify"


@dataclass(frozen=True)
class Strike(Line):
    verb: ClassVar[str] = "strike"
    help: ClassVar[str] = "Winner (attacker): describe your strike"
    story_kind: ClassVar[str] = "strike"


@dataclass(frozen=True)
class Parry(Line):
    verb: ClassVar[str] = "parry"
    help: ClassVar[str] = "Winner (defender): describe your parry"
    story_kind: ClassVar[str] = "parry"


@dataclass(frozen=True)
class Withdraw(Line):
    verb: ClassVar[str] = "withdraw"
    help: ClassVar[str] = "Loser: describe moving away or changing the scene"
    story_kind: ClassVar[str] = "withdraw"


@dataclass(frozen=True)
class Victory(Line):
    verb: ClassVar[str] = "victory"
    help: ClassVar[str] = "The winner's victory description"
    story_kind: ClassVar[str] = "victory"


@dataclass(frozen=True)
class Return(Line):
    verb: ClassVar[str] = "return"
    help: ClassVar[str] = "Your line about returning to fight again"
    story_kind: ClassVar[str] = "return"


LINES: tuple[type[Line], ...] = (Setting, Describe, Nullify, Strike, Parry, Withdraw, Victory, Return)
CARD_ACTIONS: tuple[type[CardAction], ...] = (Commit, Trick, Keep)
ACTIONS: tuple[type[Action], ...] = (Target, Commit, Trick, Keep, Skip, *LINES)
LINE_BY_VERB = {c.verb: c for c in LINES}
CARD_BY_VERB = {c.verb: c for c in CARD_ACTIONS}


def _clan(word: str, _: object) -> str:
    if word.lower() not in WORD_CLAN:
        raise IllegalMove("Name the target by clan: target dragon, phoenix, tiger or tortoise.", "parse")
    return WORD_CLAN[word.lower()]


def _card(token: str, _: object) -> str:
    try:
        return parse_card(token)
    except ValueError as e:
        raise IllegalMove(str(e), "parse") from None


def _unknown(word: str, words: object, task: str) -> IllegalMove:
    shown = word if len(word) <= 20 else word[:19] + "…"
    return IllegalMove(f"Unknown move {shown!r}" + (f": {task}." if task else "."), "parse")


NOTATION = core.Notation(ACTIONS, {
    "clan": core.Words(_clan, CLAN_WORD.__getitem__, glue="", lo=0), "card": core.Word(_card),
}, usage="Write {verb} and one card, e.g. `{verb} 7♦`.", unknown=_unknown)


def parse(text: str, task: str = "") -> Action:
    """The action written ``text`` (any case, extra spaces allowed; ``10d``/``7♦`` for cards).

    Raises IllegalMove on bad syntax; whether the action is legal now is for the rules to say.
    """
    return NOTATION.parse(text, task)
