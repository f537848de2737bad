"""The Maginot Line: card values, unit stats, typed options and small helpers shared by the phases.

Cards are own-deck codes ``8H@2`` (:class:`bot.engine.cards.Card`): every player has a 54-card
deck, so the owner is part of the identity. A unit is named by its heart component's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.cards import base_code, pretty
from bot.engine.core import Choices, IllegalMove
from bot.engine.options import Options, setting, variant
from bot.engine.words import CardName, Many, say

# A step's two commonest answers, frozen: made once (asked at every step the pickers look ahead).
NOTHING = Choices()  # no such step
COMPLETE = Choices(complete=True)  # a whole move after which nothing may follow

GAME_ID = "maginot_line"
TITLE = "The Maginot Line"
CREDIT = ('The Maginot Line, from "Complicated Free Card Game" by Joshua Hysong and Benjamin Wright '
          "(CC BY 3.0; its authors reserve commercial use of its mechanics — Deckhand is free and "
          "non-commercial)")
SUMMARY = ("2–6 players, each with an own deck: build units from hearts, spades and clubs with the "
           "markers your diamonds make, defend your four Aces with guardians and destroy everyone "
           "else's with your patrols.")

NUMBERS = "23456789T"
ACE_LIFE = 16
UNIT_CAP = 4  # ASSEMBLE only while controlling this many units or fewer
HAND_LIMIT = 7  # V4
SUIT_WORD = {"C": say("Attack"), "S": say("Armor"), "H": say("Life")}
CLASS_NAME = {1: say("Light"), 2: say("Medium"), 3: say("Heavy")}
BATTLE_CARDS = ("JC", "JS", "JH", "KS", "KC", "KH")
PHASE_WORD = {"construction": say("construction"), "battle": say("battles"), "consolidation": say("consolidation")}


@dataclass(frozen=True)
class MaginotOptions(Options):
    title = TITLE

    mobile_defence: bool = variant(
        "Mobile defence", "V1: untapped Patrol units may also engage, by the speed table; only Guardians ignore "
        "the speed table.",
        aliases=("V1", "mobile defense"))
    top_only: bool = variant(
        "Top only", "V2: attackers all hit Ace #1; damage beyond what destroys it passes to the next Ace.",
        aliases=("V2",))
    jack_initiative: bool = variant(
        "Diamond initiative", "V3: in a battle, before any K♦ seizes it, the player without initiative may "
        "discard J♦ for +3 Initiative (each player once per battle).",
        aliases=("V3", "jd initiative"))
    hand_limit: bool = variant(
        "Hand limit", "V4: at the end of your turn, discard down to 7 cards.", aliases=("V4",))
    teams: bool = variant(
        "Teams", "V5: teams of two who sit apart (seats 1 and 3 against 2 and 4; with 6 players 1 and 4, 2 "
        "and 5, 3 and 6); teammates may not attack each other, and a team wins whole when only its members "
        "remain. Needs 4 or 6 players.", aliases=("V5",))
    rounds: int = setting(100, 0, 10000, "Full rounds without a winner before the safeguard ranks the "
                          "players (with Teams, the teams: their members' sums) by Aces, then Ace life "
                          "(0 = off).")

    def check_players(self, n: int) -> None:
        if self.teams and n not in (4, 6):
            raise IllegalMove(say("Teams need 4 or 6 players."), "V5")


def face(code: str) -> str:
    """``8H@2`` → ``8H``."""
    return base_code(code)


def owner(code: str) -> int:
    return int(code.partition("@")[2])


def rank(code: str) -> str:
    return code[0]


def suit(code: str) -> str:
    return code[1] if not code.startswith("JK") else ""


_VALUE = {r: i + 2 for i, r in enumerate(NUMBERS)}  # a joker's J is not a number


def value(code: str) -> int:
    """2..10 for a numbered card, else 0."""
    return _VALUE.get(code[0], 0)


_CLASS = {r: 0 if not v else (1 if v <= 4 else 2 if v <= 7 else 3) for r, v in _VALUE.items()}


def klass(code: str) -> int:
    """1 Light (2–4), 2 Medium (5–7), 3 Heavy (8–10), 0 for other cards."""
    return _CLASS.get(code[0], 0)


def is_component(code: str) -> bool:
    return code[0] in _VALUE and code[1] in "HSC"  # a numbered card is never a joker


def is_resource(code: str) -> bool:
    return code[0] in _VALUE and code[1] == "D"


_NICE: dict[str, str] = {}


def nice(code: str) -> str:
    """A card as players read it: ``8♥``."""
    text = _NICE.get(code)
    if text is None:
        text = pretty(face(code))
        if len(_NICE) < 4096:  # every card of six decks, and room to spare
            _NICE[code] = text
    return text


def cards_text(codes: Any) -> str:
    return " ".join(nice(c) for c in codes)


def card_name(code: str) -> CardName:
    """A card named in a phrase: ``8♥`` in English, as each language prints its cards in another."""
    return CardName(face(code), nice(code))


def card_names(codes: Any, joined: str = " ") -> Many:
    """Cards named in a phrase, in a row: ``7♥ 10♦ K♠``."""
    return Many([card_name(c) for c in codes], joined)


def own_deck(seat: int) -> list[str]:
    """A seat's 54 cards in a fixed order (Aces first)."""
    out = [f"A{s}@{seat}" for s in "CSHD"]
    out += [f"{r}{s}@{seat}" for s in "SHDC" for r in "23456789TJQK"]
    return out + [f"JK@{seat}", f"JK2@{seat}"]


# ----- units -------------------------------------------------------------------------------
def unit_life(u: dict) -> int:
    return value(u["h"]) + (2 if u["queen"] and suit(u["queen"]) == "H" else 0)


def unit_armor(u: dict) -> int:
    return value(u["s"]) + (2 if u["queen"] and suit(u["queen"]) == "S" else 0)


def unit_attack(u: dict) -> int:
    return value(u["c"]) + (2 if u["queen"] and suit(u["queen"]) == "C" else 0)


def unit_class(u: dict) -> int:
    return klass(u["h"])


def unit_text(u: dict) -> str:
    """``[5♥ 7♠ 6♣]`` (+ its queen)."""
    h, s, c = card_name(u["h"]), card_name(u["s"]), card_name(u["c"])
    if u["queen"]:
        return say("[{h} {s} {c} +{queen}]", h=h, s=s, c=c, queen=card_name(u["queen"]))
    return say("[{h} {s} {c}]", h=h, s=s, c=c)


def can_engage(guardian_class: int, attacker_class: int) -> bool:
    """B1: a guardian engages an attacker of its own class or a slower (heavier) one."""
    return guardian_class <= attacker_class


def ace_token(pos: int, seat: int) -> str:
    """The token naming position ``pos`` (1-based) of ``seat``'s base: ``#2@1``."""
    return f"#{pos}@{seat}"


def parse_ace_token(tok: str) -> tuple[int, int] | None:
    if not tok.startswith("#") or "@" not in tok:
        return None
    p, _, s = tok[1:].partition("@")
    if not (p.isdigit() and s.isdigit()):
        return None
    return int(p), int(s)
