"""The four roles, who beats whom, and the no-dead-end test (pure functions, no state)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import pretty
from bot.engine.words import CardName, Phrase, say

TITLE = "The Knight, the Rogue, the Princess and the Dragon"
SUITS = "SHDC"  # seat i owns suit SUITS[i]
ROLES = "KQJA"
ROLE_NAME = {"K": "Knight", "Q": "Princess", "J": "Rogue", "A": "Dragon"}
BEATS = {"K": "A", "A": "Q", "Q": "J", "J": "K"}
VERB = {"K": "slays", "A": "captures", "Q": "charms", "J": "deceives"}
BEATS_LINE = say("Knight slays Dragon · Dragon captures Princess · Princess charms Rogue · Rogue deceives Knight")
ALL_CARDS = [r + s for s in SUITS for r in ROLES]

# The rulebook's variant names (stored option strings).
NEWEST_ON_TOP = "Newest on Top"
LOOSE_PASSING = "Loose Passing"
OPEN_RACE = "Open Race"
FREE_CHOICE = "Free Choice"
LAST_WORD = "Last Word"

# Rulings 8 and 15, Open Race: the ending comes after this many seconds with no play (the
# default of the table setting ``race_seconds``).
RACE_SECONDS = 60
TEXT_MAX = 1000  # a telling, wrap-up or twist
CLOSE_MAX = 500  # the closing lines


def cn(card: str) -> CardName:
    """A card named in a phrase (``Q♠``, said in each language)."""
    return CardName(card, pretty(card))


def role(card: str) -> Phrase:
    """``"QS"`` → ``"Princess"`` (a phrase: each language names the roles)."""
    return {"K": say("Knight"), "Q": say("Princess"), "J": say("Rogue"), "A": say("Dragon")}[card[0]]


def character(card: str) -> Phrase:
    """``"QS"`` → ``"the Princess (Q♠)"``."""
    c = cn(card)
    return {"K": say("the Knight ({card})", card=c), "Q": say("the Princess ({card})", card=c),
            "J": say("the Rogue ({card})", card=c), "A": say("the Dragon ({card})", card=c)}[card[0]]


def beats(card: str, other: str) -> bool:
    """True when ``card`` beats ``other`` (Knight slays Dragon, ...)."""
    return BEATS[card[0]] == other[0]


def beats_phrase(card: str, other: str) -> Phrase | str:
    """``("KH", "AS")`` → ``"Knight slays Dragon"``."""
    pair = card[0] + other[0]
    found = {"KA": say("Knight slays Dragon"), "AQ": say("Dragon captures Princess"),
             "QJ": say("Princess charms Rogue"), "JK": say("Rogue deceives Knight")}.get(pair)
    return found if found is not None else f"{role(card)} {VERB[card[0]]} {role(other)}"


def no_dead_end(rem: Sequence[int], teller: int, to: int) -> bool:
    """The §3 test: the remaining tellings can start with ``to`` and never repeat a teller."""
    total = sum(rem)
    if to == teller or rem[to] < 1 or rem[to] > (total + 1) // 2:
        return False
    return all(rem[z] <= total // 2 for z in range(len(rem)) if z != to)
