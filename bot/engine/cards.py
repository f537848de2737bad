"""Playing cards as short strings: ``"7H"``, ``"TD"`` (ten), ``"KS"``, ``"JK"`` (joker).

Ranks ``A 2-9 T J Q K``, suits ``S H D C``. Each engine gives ranks its own values;
this module only names, parses and builds decks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "JK"
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANK_NAME = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
RED = frozenset("HD")

_CARD = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣])$")
_SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}


def deck(jokers: int = 2) -> list[str]:
    """A fresh deck in a fixed order (spades A..K, hearts, diamonds, clubs, then jokers)."""
    cards = [r + s for s in SUITS for r in RANKS]
    if jokers == 2:
        # Two jokers must stay distinguishable for "each card in one place" checks.
        return cards + ["JK", "JK2"]
    return cards + ["JK"] * jokers


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def rank(card: str) -> str:
    return "" if is_joker(card) else card[0]


def suit(card: str) -> str:
    return "" if is_joker(card) else card[1]


def is_red(card: str) -> bool:
    return suit(card) in RED


def colour(card: str) -> str:
    """``"red"``, ``"black"`` or ``""`` for a joker."""
    s = suit(card)
    return "" if not s else ("red" if s in RED else "black")


def parse_card(text: str) -> str:
    """``"10h"``, ``"T♥"``, ``"th"`` → ``"TH"``; ``"joker"`` → ``"JK"``. Raises ValueError."""
    t = text.strip().upper().replace(" ", "")
    if t in ("JK", "JOKER", "🃏"):
        return "JK"
    if t in ("JK2", "JOKER2"):
        return "JK2"
    m = _CARD.match(t)
    if not m:
        raise ValueError(f"{text!r} is not a card: write it like 7♥, 10♦ or K♠, or with a suit letter like 7h, "
                         "10d or ks (a joker: joker).")
    r, s = m.groups()
    return ("T" if r == "10" else r) + _SYMBOL_SUIT.get(s, s)


_PRETTY: dict[str, str] = {}


def pretty(card: str) -> str:
    """``"TD"`` → ``"10♦"``, ``"JK"`` → ``"🃏"``."""
    text = _PRETTY.get(card)
    if text is None:
        if card.startswith("JK"):
            text = "🃏"
        else:
            text = ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOL[card[1]]
        if len(_PRETTY) < 1024:  # the codes are few: each is worked out once
            _PRETTY[card] = text
    return text


def and_list(words: Iterable[str]) -> str:
    """``["Ann", "Ben", "Cat"]`` → ``"Ann, Ben and Cat"`` (plain words for several names)."""
    items = list(words)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}" if items else ""


def long_name(card: str) -> str:
    """``"QH"`` → ``"Queen of Hearts"``."""
    if is_joker(card):
        return "Joker"
    return f"{RANK_NAME.get(card[0], card[0])} of {SUIT_NAME[card[1]]}"


_TOKEN = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b|\bJK2?\b")


def pretty_text(text: str) -> str:
    """Replace every card code in ``text`` by its pretty form (``"9C fires"`` → ``"9♣ fires"``)."""

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        return pretty(tok if tok.startswith("JK") else ("T" if m.group(1) == "10" else m.group(1)) + m.group(2))

    return _TOKEN.sub(sub, text)


def _patterns(card: str) -> list[re.Pattern[str]]:
    pats = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])")]
    if not is_joker(card):
        pats.append(re.compile(rf"(?<![0-9]){re.escape(pretty(card))}"))
    return pats


def names_any(text: str, cards: set[str]) -> bool:
    """Whether ``text`` names any of ``cards`` (as a code like ``7S`` or pretty like ``7♠``)."""
    return any(p.search(text) for card in cards for p in _patterns(card))


# ----- card identity ------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Card:
    """A card's identity: ``(deck, rank, suit, copy)``.

    ``deck`` is the seat whose own deck the card came from (``None`` for a shared deck);
    ``copy`` tells identical cards apart (a deck's two jokers). Who controls a card belongs to
    its zone, never to the card. ``code`` is its compact stored form: ``7H``, ``JK``, ``JK2``
    (second joker), with ``@<deck>`` for an own-deck card (``8H@1``).
    """

    deck: int | None
    rank: str  # A 2-9 T J Q K, or "JK" for a joker
    suit: str  # S H D C, or "" for a joker
    copy: int = 0

    @property
    def code(self) -> str:
        base = "JK" + (str(self.copy + 1) if self.copy else "") if self.rank == "JK" else self.rank + self.suit
        return base if self.deck is None else f"{base}@{self.deck}"

    @classmethod
    def of(cls, code: str) -> "Card":
        base, _, deck = code.partition("@")
        owner = int(deck) if deck else None
        if base.startswith("JK"):
            return cls(owner, "JK", "", int(base[2:]) - 1 if len(base) > 2 else 0)
        return cls(owner, base[0], base[1])

    def __str__(self) -> str:
        return pretty(self.code.partition("@")[0])


def base_code(code: str) -> str:
    """The card's face without its deck: ``8H@1`` → ``8H``."""
    return code.partition("@")[0]
