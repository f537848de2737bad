"""Warriors of the Celestial Emperor (Game Poem 35): a storytelling duel game for 2–4 players.

Each player is a clan holding the 13 cards of its suit. Duels are fought with face-down
cards committed in turn (the defender never sees the attacker's card), the winner collects
a trick, and at the end the best final card not above one's trick count wins.

Zones (every card is in exactly one): ``hands``, ``committed`` (a duel card, face-down
until both are in, then face-up until the exchange), ``tricks`` (face-down, seen by
nobody), ``finals`` (locked final cards), ``tie_pile`` (face-up, out of the game) and
``out`` (the cards of players who forfeited; never shown).

Knowledge is lost when a revealed duel card may lie in a trick (its receiver has chosen a
trick card) or when a called-off duel takes the revealed cards off the table: the journal
entries that named it are rewritten for every recipient who may not know it any more
(:meth:`CelestialEmperorGame._forget`).
"""

from __future__ import annotations

import functools
import marshal
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import RANKS, parse_card, pretty
from bot.engine.core import (
    HIDDEN, Action, Choices, Decision, Event, Game, KeepsAnswers, Option, Outcome, Seat, fields_with_flat_sliced,
    choices_from_actions, fast_maker,
)
from bot.engine.options import Options, variant
from bot.engine.words import CardName, Many, Phrase, decode, encode, say

from .actions import (
    CLAN, CLAN_WORD, CYCLE, MAX_TEXT, CardAction, Commit, Describe, IllegalMove, Keep, Line, Nullify, Parry,
    Return, Setting, Skip, Strike, Target, Trick, Victory, Withdraw, parse,
)
from .view import CelestialView, DuelInfo, FinalCard, PlayerInfo, ScoreRow, Scoring, StoryEntry

PRIORITY = {"C": 3, "S": 2, "H": 1, "D": 0}  # tie-break: Tortoise > White Tiger > Phoenix > Dragon
NARRATORS = "CSHD"  # the setting is narrated by the Tortoise, else the Tiger, else the Phoenix

STRICT = "Strict"
LENIENT = "Lenient Descriptions"
SEAT_ORDER = "Seat Order Clans"
TITLE = "Warriors of the Celestial Emperor"
CREDIT = "Warriors of the Celestial Emperor — Game Poem 35, from the Game Poems series (2010)"
SUMMARY = (
    "**Warriors of the Celestial Emperor** — a storytelling duel game for 2–4 players.\n"
    "- Each player is a clan and holds the 13 cards of its suit: Dragon ♦, Phoenix ♥, "
    "White Tiger ♠, Tortoise ♣. A = 1 … K = 13. Play goes Dragon → Phoenix → Tiger → Tortoise.\n"
    "- The Tortoise (else the Tiger, else the Phoenix) describes where the fight takes place.\n"
    "- On your turn you must attack: pick a target who holds 2+ cards, describe the attack, "
    "commit a card face-down. The defender commits a card without seeing yours.\n"
    "- Both cards are revealed. Equal values: both go to the face-up tie pile (the defender may "
    "tell how the attack came to nothing). Otherwise the higher card wins: the winner tells the "
    "strike or parry, the loser tells how they withdraw.\n"
    "- The two cards are exchanged; then each duellist secretly puts any one card from hand "
    "face-down into the winner's trick pile. The winner's trick count T goes up by 1.\n"
    "- A player left with 1 card locks it as their final card and is out of the fight.\n"
    "- When fewer than two players hold 2+ cards, the battle ends: the one player still holding "
    "several keeps one as final card and discards the rest onto their tricks (+1 T each).\n"
    "- Final cards are revealed. A player qualifies if v ≤ T (*Strict*: v < T). The qualifying "
    "player with the highest v wins; if nobody qualifies, the lowest v wins. Ties: highest T, "
    "then Tortoise > White Tiger > Phoenix > Dragon.\n"
    "- The winner may tell of the victory, the others of returning to fight again.\n\n"
    f"*{CREDIT}*"
)

# What each text verb asks, as the player reads it.
LINE_LABEL = {
    "setting": say("Where does the fight take place?"),
    "describe": say("Describe your attack"),
    "nullify": say("How did the attack come to nothing?"),
    "strike": say("Describe your strike"),
    "parry": say("Describe your parry"),
    "withdraw": say("Describe moving away or changing the scene"),
    "victory": say("Describe your victory"),
    "return": say("Tell of returning to fight again"),
}
# The clans' names, said in each language (a clan is named like a person: "the Dragon (Ana)").
CLAN_NAME = {"D": say("Dragon"), "H": say("Phoenix"), "S": say("White Tiger"), "C": say("Tortoise")}


def cn(card: str) -> CardName:
    """A card named in a phrase."""
    return CardName(card, pretty(card))
DUEL_STAGES = ("declare", "defend", "tie_text", "winner_text", "loser_text", "trick")


@dataclass(frozen=True)
class CelestialOptions(Options):
    """The rulebook's variants (no numeric settings)."""

    title = TITLE
    strict: bool = variant(STRICT, "A player qualifies only if their final card is strictly lower than their "
                                    "tricks (v < T).")
    lenient: bool = variant(LENIENT, "The attack description is optional (the attacker may skip it).")
    seat_order: bool = variant(SEAT_ORDER, "Clans go to seats in order (Dragon, Phoenix, White Tiger, Tortoise) "
                                           "instead of at random: sit where your clan is (ruling 15).")


def value(card: str) -> int:
    """A = 1, 2–10 at face value, J = 11, Q = 12, K = 13."""
    return RANKS.index(card[0]) + 1


def cap(text: str) -> str:
    """A sentence begun with a capital (a phrase keeps its words, its English capitalised)."""
    if isinstance(text, Phrase):
        return Phrase(text.msgid, text.plural, text.args, True)
    return text[:1].upper() + text[1:]


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=lambda c: (CYCLE.index(c[1]), value(c)))


@functools.lru_cache(maxsize=4096, typed=True)  # bench: playouts/s — about 25% fewer steps/s without
def _sorted_hand(cards: tuple[str, ...]) -> tuple[str, ...]:
    """``sort_cards`` of a hand, worked out once per hand (hands change one card at a time)."""
    return tuple(sort_cards(cards))


@dataclass
class CelestialEmperorGame(KeepsAnswers, Game):
    game_id = "celestial_emperor"
    title = TITLE
    min_players = 2
    max_players = 4
    Options = CelestialOptions
    state_version = 2
    credit = CREDIT
    summary = SUMMARY

    clans: list[str] = field(default_factory=list)  # suit letter per seat
    hands: list[list[str]] = field(default_factory=list)
    committed: list[str | None] = field(default_factory=list)
    tricks: list[list[str]] = field(default_factory=list)
    T: list[int] = field(default_factory=list)
    finals: list[str | None] = field(default_factory=list)
    put_in: list[list[str]] = field(default_factory=list)  # cards each seat put into trick piles
    tie_pile: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    phase: str = "setting"
    narrator: int = 0
    duel: dict[str, Any] | None = None
    duel_number: int = 0
    story: list[dict[str, Any]] = field(default_factory=list)
    keeper: int | None = None
    finals_revealed: bool = False
    scoring: dict[str, Any] | None = None
    winner: int | None = None
    epilogue_done: list[int] = field(default_factory=list)
    end_reason: str = ""

    @property
    def opts(self) -> CelestialOptions:
        opts = super().opts
        assert isinstance(opts, CelestialOptions)
        return opts

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        n = len(self.players)
        if deck is not None:
            # A stacked deck fixes the clans: seat i takes the i-th distinct suit, top first; with
            # Seat Order Clans those clans go to the seats in cycle order (ruling 15).
            suits: list[str] = []
            for c in deck:
                s = parse_card(c)
                if not s.startswith("JK") and s[1] not in suits:
                    suits.append(s[1])
            if len(suits) < n:
                raise IllegalMove(say("The deck names only {suits} suits for {players} players.", suits=len(suits),
                                      players=n), "setup")
            self.clans = sorted(suits[:n], key=CYCLE.index) if self.opts.seat_order else suits[:n]
        elif self.opts.seat_order:  # ruling 15: the first seat the first clan, from the Dragon
            self.clans = list(CYCLE[:n])
        else:
            self.clans = self.rng().sample(list(CYCLE), n)
        self.hands = [[r + s for r in RANKS] for s in self.clans]
        self.committed = [None] * n
        self.tricks = [[] for _ in range(n)]
        self.T = [0] * n
        self.finals = [None] * n
        self.put_in = [[] for _ in range(n)]
        self.narrator = self._pick_narrator()
        self.phase = "setting"

    # ----- helpers --------------------------------------------------------------------
    def seat_of_clan(self, suit: str) -> int | None:
        return self.clans.index(suit) if suit in self.clans else None

    def who(self, seat: int) -> Phrase:
        return say("the {clan} ({name})", clan=CLAN_NAME[self.clans[seat]], name=self.players[seat])

    def the(self, seat: int) -> Phrase:
        """``the Dragon``: a clan named in a sentence."""
        return say("the {clan}", clan=CLAN_NAME[self.clans[seat]])

    def clan_name(self, seat: int) -> Phrase:
        return CLAN_NAME[self.clans[seat]]

    def in_game(self, seat: int) -> bool:
        return seat not in self.forfeited

    def is_active(self, seat: int) -> bool:
        """Still in the fight: not forfeited, no locked final card, at least 2 cards in hand."""
        return self.in_game(seat) and self.finals[seat] is None and len(self.hands[seat]) >= 2

    def cycle_seats(self) -> list[int]:
        return sorted(range(len(self.players)), key=lambda s: CYCLE.index(self.clans[s]))

    def _pick_narrator(self) -> int:
        for suit in NARRATORS:
            s = self.seat_of_clan(suit)
            if s is not None and self.in_game(s):
                return s
        return 0

    def _say(self, seat: int | None, kind: str, text: str) -> None:
        """A story entry: a player's own words as written, the narrator's as a phrase's JSON."""
        self.story.append({"seat": seat, "kind": kind, "text": encode(text)})

    def _remaining(self) -> list[int]:
        return [s for s in range(len(self.players)) if self.in_game(s)]

    def _targets(self, atk: int) -> list[int]:
        return [s for s in self.cycle_seats() if s != atk and self.is_active(s)]

    # ----- who acts -------------------------------------------------------------------
    def _acting(self) -> list[int]:
        ph, d = self.phase, self.duel
        if ph == "setting":
            return [self.narrator]
        if ph == "declare" and d:
            return [d["atk"]]
        if ph in ("defend", "tie_text") and d:
            return [d["def"]]
        if ph == "winner_text" and d:
            return [d["winner"]]
        if ph == "loser_text" and d:
            return [d["loser"]]
        if ph == "trick" and d:
            return sorted(s for s in (d["atk"], d["def"]) if s not in d["trick_done"])
        if ph == "keep" and self.keeper is not None:
            return [self.keeper]
        if ph == "epilogue":
            return [s for s in self._remaining() if s not in self.epilogue_done]
        return []

    def decisions(self) -> tuple[Decision, ...]:
        return self._kept("decisions", self._decisions)

    def _decisions(self) -> tuple[Decision, ...]:
        return tuple(self._decision(s) for s in self._acting())

    def _decision(self, seat: int) -> Decision:
        ph, d = self.phase, self.duel
        prompt = cap(say("{task}.", task=self._task(seat)))
        if ph == "declare" and d and d["def"] is None:
            return Decision(seat, "turn", True, None, prompt)
        if ph in ("declare", "defend") and (ph == "defend" or (d and d["described"])):
            return Decision(seat, "commit", False, None, prompt)
        if ph == "trick":
            return Decision(seat, "trick", False, None, prompt)
        if ph == "keep":
            return Decision(seat, "keep", False, None, prompt)
        optional = ph in ("tie_text", "epilogue") or (ph == "declare" and self.opts.lenient)
        return Decision(seat, "tell", True, "skip" if optional else None, prompt)

    def waiting_for(self) -> str:
        actors = self._acting()
        if not actors:
            return say("The game is over.")
        names = Many([say("{name} ({clan})", name=self.players[s], clan=self.clan_name(s)) for s in actors], "and")
        return say("Waiting for {names} to {task}.", names=names, task=self._task())

    def _task(self, seat: int | None = None) -> Phrase:
        ph, d = self.phase, self.duel
        if ph == "setting":
            return say("describe where the fight takes place")
        if ph == "declare" and d:
            if d["def"] is None:
                return say("choose a clan to attack")
            if not d["described"]:
                return say("describe the attack")
            return say("commit a card face-down")
        if ph == "defend":
            return say("commit a card face-down to defend")
        if ph == "tie_text":
            return say("tell how the attack came to nothing, or skip it")
        if ph == "winner_text" and d:
            return say("describe the strike") if d["winner"] == d["atk"] else say("describe the parry")
        if ph == "loser_text":
            return say("describe moving away or changing the scene")
        if ph == "trick":
            return say("put one card from hand face-down into the trick")
        if ph == "keep":
            return say("choose the final card to keep; the others go onto the trick pile")
        if ph == "epilogue":
            if seat is not None and seat != self.winner:
                return say("tell of returning to fight again, or skip it")
            if seat is not None:
                return say("tell of the victory, or skip it")
            return say("tell the epilogue, or skip it")
        return say("wait")

    # ----- what a seat may do: token actions and story lines --------------------------
    def _token_actions(self, seat: int) -> list[tuple[str, ...]]:
        """Every legal action of ``seat`` that is not free text, as tokens (in v1's order)."""
        if seat not in self._acting():
            return []
        ph, d = self.phase, self.duel
        hand = _sorted_hand(tuple(self.hands[seat]))
        if ph == "declare" and d:
            if d["def"] is None:
                return [("target", CLAN_WORD[self.clans[s]]) for s in self._targets(seat)]
            if not d["described"]:
                return [("skip",)] if self.opts.lenient else []
            return [("commit", c) for c in hand]
        if ph == "defend":
            return [("commit", c) for c in hand]
        if ph == "trick":
            return [("trick", c) for c in hand]
        if ph == "keep":
            return [("keep", c) for c in hand]
        if ph in ("tie_text", "epilogue"):
            return [("skip",)]
        return []

    def _line(self, seat: int) -> tuple[str, bool] | None:
        """The story line ``seat`` may tell now: (verb, required), or None."""
        if seat not in self._acting():
            return None
        ph, d = self.phase, self.duel
        if ph == "setting":
            return "setting", True
        if ph == "declare" and d and d["def"] is not None and not d["described"]:
            return "describe", not self.opts.lenient
        if ph == "tie_text":
            return "nullify", False
        if ph == "winner_text" and d:
            return ("strike" if d["winner"] == d["atk"] else "parry"), True
        if ph == "loser_text":
            return "withdraw", True
        if ph == "epilogue":
            return ("victory" if seat == self.winner else "return"), False
        return None

    def parse(self, seat: Seat, text: str) -> Action:
        task = self._task(seat) if 0 <= seat < len(self.players) else ""
        return parse(text, task)

    def choices(self, seat: Seat, prefix: Sequence[str] = ()) -> Choices:
        prefix = tuple(prefix)
        return self._kept(("choices", seat, prefix), self._choices, seat, prefix)

    def _choices(self, seat: Seat, prefix: tuple[str, ...]) -> Choices:
        if self.is_over() or not 0 <= seat < len(self.players) or seat not in self._acting():
            return Choices()
        line = self._line(seat)
        if line and prefix and prefix[0] == line[0]:
            verb, required = line
            if len(prefix) == 1:
                return Choices("text", max_len=MAX_TEXT, prompt=LINE_LABEL[verb], required=required)
            text = " ".join(prefix[1:]).strip()
            return Choices(complete=(bool(text) or not required) and len(text) <= MAX_TEXT)
        prompt = cap(say("{task}.", task=self._task(seat)))
        c = choices_from_actions(self._token_actions(seat), prefix, lambda t: self._label(seat, t), prompt)
        if not prefix and line:
            c = Choices("token", c.options + (Option(line[0], LINE_LABEL[line[0]]),), prompt=prompt)
        return c

    def _label(self, seat: int, tokens: tuple[str, ...]) -> tuple[str, Any]:
        """A plain-words label and typed data for the last of ``tokens``."""
        verb = tokens[0]
        if len(tokens) == 1:
            first = {"target": say("Choose whom to attack"), "commit": say("Commit a card face-down"),
                     "trick": say("Put a card into the trick"), "keep": say("Keep a final card"),
                     "skip": say("Skip the text")}
            return first.get(verb, verb), None
        if verb == "target":
            s = self.seat_of_clan(next(k for k, w in CLAN_WORD.items() if w == tokens[1]))
            assert s is not None
            return say("Attack {who}", who=self.who(s)), s
        card = tokens[1]
        if verb == "commit":
            return say("Commit {card} face-down", card=cn(card)), card
        if verb == "trick":
            return say("Put {card} into the trick", card=cn(card)), card
        return say("Keep {card} as the final card", card=cn(card)), card

    # ----- moves ----------------------------------------------------------------------
    def _card_in_hand(self, seat: int, card: str, what: Phrase) -> str:
        if card not in self.hands[seat]:
            raise IllegalMove(say("You do not hold {card}: you can only {what} a card from your own hand.",
                                  card=cn(card), what=what), "R1")
        return card

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Line):
            events = self._tell(seat, action)
        elif isinstance(action, Skip):
            if ("skip",) not in self._token_actions(seat):
                raise IllegalMove(say("You cannot skip now: {task}.", task=self._task(seat)), "R5")
            events = self._text(seat, "skip", "")
        elif isinstance(action, Target):
            events = self._target(seat, action.clan)
        elif isinstance(action, Commit):
            events = self._commit(seat, action.card)
        elif isinstance(action, Trick):
            events = self._trick(seat, action.card)
        elif isinstance(action, Keep):
            events = self._keep(seat, action.card)
        else:
            raise IllegalMove(say("That is not a move of this game: {task}.", task=self._task(seat)), "parse")
        self._forget()
        return events

    def _tell(self, seat: int, action: Line) -> list[Event]:
        line = self._line(seat)
        if line is None or line[0] != action.verb:
            raise IllegalMove(say("No {verb} text is expected from you now: {task}.", verb=action.verb,
                                  task=self._task(seat)), "turn")
        verb, required = line
        label = LINE_LABEL[verb]
        if required and not action.text:
            raise IllegalMove(say("{label}: some text is required.", label=label), "R1")
        if len(action.text) > MAX_TEXT:
            raise IllegalMove(say("{label}: at most {most} characters (got {got}).", label=label, most=MAX_TEXT,
                                  got=len(action.text)), "text")
        return self._text(seat, verb, action.text)

    def _target(self, seat: int, clan: str) -> list[Event]:
        d = self.duel
        if self.phase != "declare" or not d or d["def"] is not None:
            raise IllegalMove(say("You cannot choose a target now: {task}.", task=self._task(seat)), "R1")
        target = self.seat_of_clan(clan)
        if target is None:
            raise IllegalMove(say("There is no {clan} in this game.", clan=CLAN_NAME[clan]), "R1")
        if target == seat:
            raise IllegalMove(say("You cannot attack yourself: the attacker picks an active opponent as the target "
                                  "(see /game rules section: The turn)."), "R1")
        if not self.is_active(target):
            raise IllegalMove(cap(say("{who} is out of the fight and cannot be attacked (a target must hold 2 or more "
                                      "cards: ruling 8 — see /game rules section: Rulings).", who=self.who(target))),
                              "ruling 8")
        d["def"] = target
        self._say(None, "duel", cap(say("{attacker} attacks {defender}.", attacker=self.the(seat),
                                        defender=self.the(target))))
        events: list[Event] = []
        self.emit(events, cap(say("{attacker} attacks {defender}.", attacker=self.who(seat), defender=self.who(target))))
        return events

    def _commit(self, seat: int, card: str) -> list[Event]:
        d = self.duel
        if not d or not (
            (self.phase == "declare" and seat == d["atk"] and d["def"] is not None and d["described"])
            or (self.phase == "defend" and seat == d["def"])
        ):
            raise IllegalMove(say("You cannot commit a card now: {task}.", task=self._task(seat)), "R1")
        self._card_in_hand(seat, card, say("commit"))
        self.hands[seat].remove(card)
        self.committed[seat] = card
        events: list[Event] = []
        self._emit_naming(events, cap(say("{who} has committed a card.", who=self.who(seat))),
                          {seat: say("You committed {card} face-down.", card=cn(card))},
                          private_cards={seat: [card]}, private_alt={seat: say("You committed a card face-down.")})
        if self.phase == "declare":
            self.phase = "defend"
            return events
        return events + self._reveal()

    def _reveal(self) -> list[Event]:
        d = self.duel
        assert d is not None
        atk, dfn = d["atk"], d["def"]
        a, b = self.committed[atk], self.committed[dfn]
        assert a is not None and b is not None
        d["atk_card"], d["def_card"] = a, b
        d["revealed"] = True
        va, vb = value(a), value(b)
        played = dict(attacker=self.who(atk), card=cn(a), defender=self.who(dfn), defence=cn(b))
        events: list[Event] = []
        if va == vb:
            d["tied"] = True
            self.tie_pile += [a, b]
            self.committed[atk] = self.committed[dfn] = None
            self._say(None, "tie", say("{card} and {defence} tie: both go to the tie pile. There is no exchange and no "
                                       "trick.", card=CardName(a, a), defence=CardName(b, b)))
            self.phase = "tie_text"
            self.emit(events, say("Reveal: {attacker} played {card}, {defender} played {defence}: a tie ({va} against "
                                  "{vb}). Both cards go to the face-up tie pile; no exchange, no trick. {name} may "
                                  "tell how the attack came to nothing.", va=va, vb=vb, name=self.players[dfn],
                                  **played))
            return events
        w, lo = (atk, dfn) if va > vb else (dfn, atk)
        d["winner"], d["loser"] = w, lo
        hi_v, lo_v = max(va, vb), min(va, vb)
        self._say(None, "result", cap(say("{clan} wins, {high} against {low}.", clan=self.the(w), high=hi_v,
                                          low=lo_v)))
        self.phase = "winner_text"
        if w == atk:
            tail = say("{who} wins ({high} against {low}). {name} describes the strike.", who=self.who(w),
                       high=hi_v, low=lo_v, name=self.players[w])
        else:
            tail = say("{who} wins ({high} against {low}). {name} describes the parry.", who=self.who(w),
                       high=hi_v, low=lo_v, name=self.players[w])
        self._emit_naming(events, say("Reveal: {attacker} played {card}, {defender} played {defence}: {tail}",
                                      tail=tail, **played), cards=[a, b],
                          alt=say("Reveal: {attacker} and {defender} showed their cards: {tail}", attacker=self.who(atk),
                                  defender=self.who(dfn), tail=tail))
        return events

    def _text(self, seat: int, verb: str, text: str) -> list[Event]:
        ph, d = self.phase, self.duel
        events: list[Event] = []
        if text and verb != "skip":
            self._say(seat, verb if verb != "describe" else "attack", text)
            self.emit(events, say("{name} ({clan}): {text}", name=self.players[seat], clan=self.clan_name(seat),
                                  text=text))
        if ph == "setting":
            self.phase = "declare"
            return events + self._start_turn(self.cycle_seats()[0])
        if ph == "declare" and d:
            d["described"] = True
            return events
        if ph == "tie_text":
            return events + self._clean_up()
        if ph == "winner_text":
            self.phase = "loser_text"
            return events
        if ph == "loser_text" and d:
            return events + self._exchange()
        if ph == "epilogue":
            self.epilogue_done.append(seat)
            if not self._acting():
                self.phase = "over"
                self.emit(events, say("The tale is told."))
            return events
        raise IllegalMove(say("No text is expected now: {task}.", task=self._task(seat)), "turn")  # pragma: no cover

    def _exchange(self) -> list[Event]:
        """R4: the duel cards change hands (public)."""
        d = self.duel
        assert d is not None
        atk, dfn = d["atk"], d["def"]
        a, b = self.committed[atk], self.committed[dfn]
        assert a is not None and b is not None
        self.hands[dfn].append(a)
        self.hands[atk].append(b)
        self.committed[atk] = self.committed[dfn] = None
        d["exchanged"] = True
        self.phase = "trick"
        tail = say("Both duellists now put one card face-down into the trick of {who}.", who=self.who(d["winner"]))
        events: list[Event] = []
        self._emit_naming(events, say("Exchange: {card} goes to {defender}, {other} goes to {attacker}. {tail}",
                                      card=cn(a), defender=self.who(dfn), other=cn(b), attacker=self.who(atk),
                                      tail=tail), cards=[a, b],
                          alt=say("Exchange: the duel cards change hands. {tail}", tail=tail))
        return events

    def _trick(self, seat: int, card: str) -> list[Event]:
        d = self.duel
        if self.phase != "trick" or not d or seat in d["trick_done"] or seat not in (d["atk"], d["def"]):
            raise IllegalMove(say("You cannot put a card into a trick now: {task}.", task=self._task(seat)), "R5")
        self._card_in_hand(seat, card, say("put into the trick"))
        w = d["winner"]
        self.hands[seat].remove(card)
        self.tricks[w].append(card)
        self.put_in[seat].append(card)
        d["trick_done"].append(seat)
        d["trick_cards"][str(seat)] = card
        events: list[Event] = []
        self.emit(events, cap(say("{who} has put a card face-down into the trick.", who=self.who(seat))),
                  {seat: say("You put {card} into the trick of {who}.", card=cn(card), who=self.who(w))})
        if len(d["trick_done"]) < 2:
            return events
        self.T[w] += 1
        self._say(None, "trick", cap(say("{clan} takes the trick (trick count {tricks}).", clan=self.the(w),
                                         tricks=self.T[w])))
        self.emit(events, cap(say("{clan} takes the trick: its trick count is now {tricks}.", clan=self.the(w),
                                  tricks=self.T[w])))
        return events + self._clean_up()

    def _clean_up(self) -> list[Event]:
        """R6: lock the final card of a duellist left with 1 card; the turn passes on."""
        d = self.duel
        assert d is not None
        events = self._lock([d["atk"], d["def"]])
        self.duel = None
        return events + self._start_turn(self._after(d["atk"]))

    def _lock(self, seats: list[int]) -> list[Event]:
        events: list[Event] = []
        for s in seats:
            if s is not None and self.in_game(s) and self.finals[s] is None and len(self.hands[s]) == 1:
                card = self.hands[s].pop()
                self.finals[s] = card
                self._say(None, "lock", cap(say("{clan} locks a final card.", clan=self.the(s))))
                self.emit(events, cap(say("{clan} holds a single card and locks it as the final card.",
                                          clan=self.the(s))),
                          {s: say("You hold a single card and lock it: your final card is {card}.", card=cn(card))})
        return events

    def _after(self, seat: int) -> int:
        order = self.cycle_seats()
        return order[(order.index(seat) + 1) % len(order)]

    def _start_turn(self, seat: int) -> list[Event]:
        """R0: the endgame when fewer than two are active, else the next active clan attacks."""
        if len([s for s in range(len(self.players)) if self.is_active(s)]) < 2:
            return self._endgame()
        order = self.cycle_seats()
        i = order.index(seat)
        for k in range(len(order)):
            s = order[(i + k) % len(order)]
            if self.is_active(s):
                self.duel_number += 1
                self.duel = {
                    "number": self.duel_number, "atk": s, "def": None, "described": False,
                    "revealed": False, "tied": False, "atk_card": None, "def_card": None,
                    "winner": None, "loser": None, "exchanged": False, "trick_done": [],
                    "trick_cards": {},
                }
                self.phase = "declare"
                events: list[Event] = []
                self.emit(events, say("Duel {number}: {who} must attack.", number=self.duel_number, who=self.who(s)))
                return events
        return self._endgame()  # pragma: no cover - two active seats exist

    def _endgame(self) -> list[Event]:
        self.duel = None
        events: list[Event] = []
        self.emit(events, say("Fewer than two warriors can still fight: the battle ends."))
        self._say(None, "end", say("The battle ends."))
        events += self._lock(self._remaining())
        many = [s for s in self._remaining() if len(self.hands[s]) > 1]
        if many:
            self.keeper = many[0]
            self.phase = "keep"
            self.emit(events, cap(say("{who} still holds {n} cards and chooses one to keep.", who=self.who(self.keeper),
                                      n=len(self.hands[self.keeper]))))
            return events
        return events + self._final_reveal()

    def _keep(self, seat: int, card: str) -> list[Event]:
        if self.phase != "keep" or seat != self.keeper:
            raise IllegalMove(say("You cannot keep a card now: {task}.", task=self._task(seat)), "E1")
        self._card_in_hand(seat, card, say("keep"))
        others = [c for c in self.hands[seat] if c != card]
        self.hands[seat] = []
        self.finals[seat] = card
        self.tricks[seat] += others
        self.put_in[seat] += others
        self.T[seat] += len(others)
        self.keeper = None
        line = cap(say("{clan} keeps a final card and discards {n} onto the trick pile: its trick count is now "
                       "{tricks}.", clan=self.the(seat), n=len(others), tricks=self.T[seat]))
        self._say(None, "keep", line)
        events: list[Event] = []
        self.emit(events, line, {seat: say("You keep {card} as your final card and discard {n} onto your trick pile: "
                                           "your trick count is now {tricks}.", card=cn(card), n=len(others),
                                           tricks=self.T[seat])})
        return events + self._final_reveal()

    def _final_reveal(self) -> list[Event]:
        """E2–E4: reveal every final card and pick the one winner."""
        self.finals_revealed = True
        self.scoring = score(
            [(s, self.clans[s], self.finals[s], self.T[s]) for s in self._remaining() if self.finals[s]],
            strict=self.opts.strict,
            names=self.players,
        )
        self.winner = self.scoring["winner"]
        self._say(None, "score", cap(say("{clan} wins the battle.", clan=self.the(self.winner))))
        self.phase = "epilogue"
        events: list[Event] = []
        steps = Many([decode(x, True) for x in self.scoring["steps"]], "\n")
        self.emit(events, say("Final cards revealed.\n{steps}", steps=steps))
        return events

    # ----- forfeits -------------------------------------------------------------------
    def _forfeit(self, seat: int) -> list[Event]:
        events = self._leave(seat)
        self._forget()
        return events

    def _leave(self, seat: int) -> list[Event]:
        """The seat leaves the fight: its cards leave the game (the hidden ``out`` zone), a duel it
        is in is called off, it is never targeted again; one player left wins."""
        events: list[Event] = []
        if self.phase == "epilogue":
            # The scoring stands and the final cards stay revealed; only the line is skipped.
            if seat not in self.epilogue_done:
                self.epilogue_done.append(seat)
            if not self._acting():
                self.phase = "over"
            return events
        d = self.duel
        resume: int | None = None  # the seat whose turn begins after a called-off duel
        if self.phase in DUEL_STAGES and d and seat in (d["atk"], d["def"]):
            other = d["def"] if seat == d["atk"] else d["atk"]
            if d["tied"]:
                # The tie is already settled; only the defender's optional text was pending.
                events += self._lock([other])
                resume = self._after(d["atk"])
            else:
                self.emit(events, say("The duel is called off."))
                if other is not None:
                    events += self._call_off(other)
                resume = self._after(seat) if seat == d["atk"] else d["atk"]
            self.duel = None
        # The seat's cards leave the game.
        self.out += self.hands[seat] + self.tricks[seat]
        self.hands[seat], self.tricks[seat] = [], []
        for zone in (self.committed, self.finals):
            if zone[seat] is not None:
                self.out.append(zone[seat])
                zone[seat] = None
        left = self._remaining()
        if len(left) == 1:
            self.winner = left[0]
            self.phase = "over"
            self.duel = None
            self.keeper = None
            self.end_reason = "forfeit"
            line = say("Only {who} remains and wins the battle.", who=self.who(left[0]))
            self._say(None, "end", line)
            self.emit(events, cap(line))
            return events
        if self.phase == "setting":
            self.narrator = self._pick_narrator()
            return events
        if self.phase == "keep" and seat == self.keeper:
            self.keeper = None
            return events + self._final_reveal()
        if resume is not None:
            return events + self._start_turn(resume)
        if d and self.phase == "declare" and d["def"] is None and len([s for s in left if self.is_active(s)]) < 2:
            self.duel = None
            return events + self._endgame()
        return events

    def _call_off(self, seat: int) -> list[Event]:
        """Undo the duel for the remaining duellist ``seat``: hand back to its size at R1."""
        d = self.duel
        assert d is not None
        if self.committed[seat] is not None:
            self.hands[seat].append(self.committed[seat])
            self.committed[seat] = None
        mine = d["trick_cards"].get(str(seat))
        if mine is not None:
            self.tricks[d["winner"]].remove(mine)
            self.put_in[seat].remove(mine)
            self.hands[seat].append(mine)
        theirs = [c for s, c in d["trick_cards"].items() if int(s) != seat]
        for c in theirs:  # the leaver's trick card leaves with them
            self.tricks[d["winner"]].remove(c)
            self.out.append(c)
        return self._lock([seat])

    # ----- results --------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != "over" or self.winner is None:
            return None
        w = self.winner
        if self.scoring is not None:
            row = next(r for r in self.scoring["rows"] if r["seat"] == w)
            summary = say("{name} ({clan}) wins with {card} (value {value}, trick count {tricks}).",
                          name=self.players[w], clan=self.clan_name(w), card=cn(row["card"]), value=row["v"],
                          tricks=row["T"])
        else:
            summary = say("{name} ({clan}) wins: everyone else left.", name=self.players[w], clan=self.clan_name(w))
        return Outcome(
            winners=(w,),
            score=None,
            summary=summary,
            details={"scoring": self.scoring, "story": list(self.story), "clans": list(self.clans),
                     "reason": self.end_reason or "scoring"},
        )

    # ----- knowledge ------------------------------------------------------------------
    def all_cards(self) -> list[str]:
        return [r + s for s in self.clans for r in RANKS]

    def _known_publicly(self) -> set[str]:
        known = set(self.tie_pile)
        d = self.duel
        if d and d["revealed"] and not d["tied"]:
            for holder, card in ((d["def"], d["atk_card"]), (d["atk"], d["def_card"])):
                # Face-up until the exchange, then known in the receiver's hand until they
                # choose their trick card (it might be the one they put in).
                if not d["exchanged"] or holder not in d["trick_done"]:
                    known.add(card)
        if self.finals_revealed:
            known |= {c for c in self.finals if c}
        return known

    def _own(self, seat: int | None) -> set[str]:
        if seat is None or not 0 <= seat < len(self.players):
            return set()
        own = set(self.hands[seat]) | set(self.put_in[seat])
        own |= {c for c in (self.committed[seat], self.finals[seat]) if c}
        return own

    def known(self, seat: Seat | None) -> frozenset[str]:
        return self._kept(("known", seat), self._known, seat)

    def _known(self, seat: Seat | None) -> frozenset[str]:
        """The tie pile, the revealed duel cards until they may lie in a trick, the revealed
        final cards, and the seat's own cards (hand, committed, final, put into tricks)."""
        return frozenset(self._known_publicly() | self._own(seat))

    # ----- the journal: naming cards, and forgetting them -----------------------------
    def _emit_naming(self, events: list[Event], public: str | None, private: dict[int, str] | None = None, *,
                     cards: Sequence[str] = (), alt: str | None = None,
                     private_cards: dict[int, list[str]] | None = None,
                     private_alt: dict[int, str] | None = None) -> None:
        """Emit an event whose texts name cards that may later be hidden again, noting in its
        journal entry which cards each text names and how it reads without them."""
        self.emit(events, public, private)
        tag: dict[str, Any] = {"cards": {}, "alt": {}}
        if cards:
            tag["cards"][""], tag["alt"][""] = list(cards), encode(alt)
        for s, cs in (private_cards or {}).items():
            tag["cards"][str(s)], tag["alt"][str(s)] = list(cs), encode((private_alt or {})[s])
        self.journal[-1].append(tag)

    def _forget(self) -> None:
        """Rewrite the journal entries naming a card a recipient may not know any more.

        An entry's public text is replaced for everyone once the public loses a card it names;
        a seat that still knows every card it names keeps the original as its own text.
        """
        tagged = [e for e in self.journal if len(e) > 2]
        if not tagged:
            return
        seats = range(len(self.players))
        known = {None: self.known(None), **{s: self.known(s) for s in seats}}
        for entry in tagged:
            cards, alt, private = entry[2]["cards"], entry[2]["alt"], entry[1]
            named = cards.get("")
            if named and not set(named) <= known[None]:
                for s in seats:
                    if str(s) not in private and set(named) <= known[s]:
                        private[str(s)], cards[str(s)], alt[str(s)] = entry[0], named, alt[""]
                entry[0] = alt.pop("")
                del cards[""]
            for key in [k for k in cards if k]:
                if not set(cards[key]) <= known[int(key)]:
                    private[key] = alt.pop(key)
                    del cards[key]
            if not cards:
                del entry[2:]

    # ----- what each seat sees --------------------------------------------------------
    def view(self, seat: Seat | None) -> CelestialView:
        if seat is not None and not 0 <= seat < len(self.players):
            seat = None
        return self._kept(("view", seat), self._view, seat)

    def _view(self, seat: Seat | None) -> CelestialView:
        known = self.known(seat)

        def show(card: str | None) -> str | Any:
            if card is None:
                return None
            return card if card in known else HIDDEN

        acting = set(self._acting())
        seats = tuple(_player_info(
            s, self.players[s], self.clan_name(s), self.clans[s], len(self.hands[s]), self.T[s],
            self.finals[s] is not None, self.is_active(s), s in self.forfeited, self.committed[s] is not None,
            s == self.narrator, s in acting,
        ) for s in range(len(self.players)))
        duel = None
        d = self.duel
        if d:
            dfn = d["def"]
            duel = DuelInfo(
                number=d["number"], attacker=d["atk"], defender=dfn, described=d["described"],
                committed=tuple(s for s in (d["atk"], dfn) if s is not None and self.committed[s]),
                revealed=d["revealed"],
                attacker_card=show(d["atk_card"] if d["revealed"] else self.committed[d["atk"]]),
                defender_card=show(d["def_card"] if d["revealed"] else
                                   (self.committed[dfn] if dfn is not None else None)),
                result="" if not d["revealed"] else ("tie" if d["tied"] else "win"),
                winner=d["winner"], loser=d["loser"], exchanged=d["exchanged"],
                trick_done=tuple(d["trick_done"]),
            )
        sc = self.scoring
        scoring = None if sc is None else Scoring(
            rule=sc["rule"], rows=tuple(ScoreRow(**r) for r in sc["rows"]), method=sc["method"],
            tie_breaks=tuple(sc["tie_breaks"]), winner=sc["winner"],
            steps=tuple(decode(x, True) for x in sc["steps"]),
        )
        own = seat is not None
        return _make_view(
            **self.base_view(seat),
            title=self.title,
            options=tuple(self.options),
            seats=seats,
            stage=self.phase,
            waiting=self.waiting_for(),
            duel=duel,
            duels_fought=self.duel_number - (1 if d else 0),
            tie_pile=tuple(self.tie_pile),
            story=self._story_entries(),
            finals=(tuple(FinalCard(s, c) for s, c in enumerate(self.finals) if c)
                    if self.finals_revealed else None),
            scoring=scoring,
            winner=self.winner,
            hand=_sorted_hand(tuple(self.hands[seat])) if own else None,
            committed=self.committed[seat] if own else None,
            final=self.finals[seat] if own else None,
            put_in_tricks=tuple(self.put_in[seat]) if own else (),
            your_move=(self._task(seat) if own and seat in acting else None),
        )

    def _story_entries(self) -> tuple[StoryEntry, ...]:
        """The story as typed entries (the same for every recipient). The story only grows, so
        the entries already made (by this state, or by the state it was copied from) are kept
        beside it and only the lines told since are made; a kept tuple whose last entry no longer
        matches the story is made again whole."""
        story = self.story
        told: tuple[StoryEntry, ...] = self.__dict__.get("_told", ())
        n = len(told)
        if n > len(story) or (n and not _same_entry(told[-1], story[n - 1])):
            told, n = (), 0
        if n < len(story):
            told += tuple(StoryEntry(e["seat"], e["kind"], decode(e["text"], True)) for e in story[n:])
            self.__dict__["_told"] = told
        return told

    # ----- records and stored states --------------------------------------------------
    def copy(self) -> "CelestialEmperorGame":
        """A deep copy of every field, as the core's marshal copy makes it (cards and texts are
        immutable strings, so only the lists and dicts are new): lists of cards, numbers or seats
        are sliced, the nested records (journal, duel, scoring) go through one marshal round trip,
        and the story's entries, never changed once told (the story only grows), are shared with
        the copy, as are the typed entries made from them."""
        # bench: playouts/s and CPU per interaction — every ``apply`` makes one
        state = fields_with_flat_sliced(self, _FLAT)
        for name in _NESTED:
            state[name] = [x[:] for x in state[name]]
        state["opened"] = dict(state["opened"])
        state["story"] = list(state["story"])
        deep = [name for name in state if name not in _SHALLOW and type(state[name]) not in _ATOMS]
        if deep:
            state.update(zip(deep, marshal.loads(marshal.dumps([state[n] for n in deep])), strict=True))
        new = object.__new__(type(self))  # the dataclass's __init__ only sets the fields
        new.__dict__.update(state)
        told = self.__dict__.get("_told")
        if told:
            new.__dict__["_told"] = told
        return new

    def redact(self, seat: Seat, action: str) -> str:
        verb = action.split()[0].lower() if action.split() else ""
        if verb in ("commit", "trick", "keep"):
            return f"{verb} (hidden)"
        return action

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A v1 state (no journal; options in the order typed; forfeits not counted as moves)
        as a v2 state. The v1 game kept no log, so the journal starts empty."""
        if data.get("format") != 1:
            return super().upgrade(data)
        state = dict(data["state"])
        state["options"] = cls.Options.parse(state.get("options", [])).dump()
        state["move_count"] = int(state.get("move_count", 0)) + len(state.get("forfeited", []))
        state["journal"] = []
        state["opened"] = {}
        state["story"] = [_plain_narration(e) for e in state.get("story", [])]
        game = cls(**state)
        opened = {}
        for s in game._acting():
            back = 0
            d = game.duel
            if game.phase == "trick" and d:
                back = len(d["trick_done"])  # the trick choices opened together
            elif game.phase == "epilogue":
                back = len(game.epilogue_done)
            opened[str(s)] = game.move_count - back
        state["opened"] = opened
        return {"format": cls.state_version, "game": cls.game_id, "state": state}


_ATOMS = frozenset({str, int, bool, float, type(None)})
_FLAT = ("players", "options", "forfeited", "clans", "committed", "T", "finals", "tie_pile", "out", "epilogue_done")
_NESTED = ("hands", "tricks", "put_in")  # lists of lists of cards
_SHALLOW = frozenset({*_FLAT, *_NESTED, "opened", "story"})  # copied above; the rest: atoms, or marshal


@functools.lru_cache(maxsize=4096, typed=True)  # bench: playouts/s and memory — about 35% fewer steps/s without
def _player_info(seat: int, name: str, clan: str, suit: str, hand_size: int, tricks: int, locked: bool, active: bool,
                 forfeited: bool, committed: bool, narrator: bool, to_act: bool) -> PlayerInfo:
    """A seat's public line, made once for the values it shows and shared (it is frozen; most
    moves change one or two seats' lines)."""
    return PlayerInfo(seat=seat, name=name, clan=clan, suit=suit, hand_size=hand_size, tricks=tricks, locked=locked,
                      active=active, forfeited=forfeited, committed=committed, narrator=narrator, to_act=to_act)


_make_view = fast_maker(CelestialView)


def _same_entry(entry: StoryEntry, e: dict[str, Any]) -> bool:
    return encode(entry.text) == e["text"] and entry.seat == e["seat"] and entry.kind == e["kind"]


_OLD_TRICK_LINE = re.compile(r"^T (\d+) for the (.+)\.$")


def _plain_narration(entry: Any) -> Any:
    """A v1 narrator line in today's words (``T 2 for the Dragon.`` named the trick count)."""
    if isinstance(entry, dict) and entry.get("seat") is None and isinstance(entry.get("text"), str):
        m = _OLD_TRICK_LINE.match(entry["text"])
        if m:
            return {**entry, "text": f"The {m.group(2)} takes the trick (trick count {m.group(1)})."}
    return entry


def score(rows_in: list[tuple[int, str, str, int]], strict: bool = False,
          names: Sequence[str] | None = None) -> dict[str, Any]:
    """E2–E4 for ``(seat, suit, final card, T)`` rows: the scoring, step by step, and the winner."""
    sign = "<" if strict else "≤"
    rows = []
    steps = []
    for seat, suit, card, t in rows_in:
        v = value(card)
        q = v < t if strict else v <= t
        rows.append({"seat": seat, "clan": CLAN[suit], "suit": suit, "card": card, "v": v, "T": t,
                     "qualifies": q})
        who = say("{clan} ({name})", clan=CLAN_NAME[suit], name=names[seat]) if names else CLAN_NAME[suit]
        mark = sign if q else ("≥" if strict else ">")
        if q:
            step = say("{who}: final card {card} (value {value}), trick count {tricks}: qualifies ({value} {sign} "
                       "{tricks}).", who=who, card=cn(card), value=v, tricks=t, sign=mark)
        else:
            step = say("{who}: final card {card} (value {value}), trick count {tricks}: does not qualify ({value} "
                       "{sign} {tricks}).", who=who, card=cn(card), value=v, tricks=t, sign=mark)
        steps.append(encode(step))
    qual = [r for r in rows if r["qualifies"]]
    if qual:
        pool, best = qual, max(r["v"] for r in qual)
        method = "highest qualifying card"
        steps.append(encode(say("Qualifying (value {sign} trick count): {clans}; the highest value is {best}.",
                                sign=sign, clans=Many([CLAN_NAME[r["suit"]] for r in qual]), best=best)))
    else:
        pool, best = rows, min(r["v"] for r in rows)
        method = "lowest card (nobody qualifies)"
        steps.append(encode(say("Nobody qualifies (value {sign} trick count): the lowest value wins, {best}.", sign=sign,
                                best=best)))
    cands = [r for r in pool if r["v"] == best]
    tie_breaks: list[str] = []
    if len(cands) > 1:
        tie_breaks.append("tricks")
        top_t = max(r["T"] for r in cands)
        steps.append(encode(say("Tied on value {best}: {clans}; the highest trick count is {top}.", best=best,
                                clans=Many([CLAN_NAME[r["suit"]] for r in cands]), top=top_t)))
        cands = [r for r in cands if r["T"] == top_t]
        if len(cands) > 1:
            tie_breaks.append("priority")
            cands = sorted(cands, key=lambda r: -PRIORITY[r["suit"]])
            steps.append(encode(say("Still tied: {clans}; clan priority (Tortoise > White Tiger > Phoenix > Dragon) "
                                    "decides.", clans=Many([CLAN_NAME[r["suit"]] for r in cands]))))
    win = cands[0]
    if names:
        steps.append(encode(say("The {clan} ({name}) wins.", clan=CLAN_NAME[win["suit"]], name=names[win["seat"]])))
    else:
        steps.append(encode(say("The {clan} wins.", clan=CLAN_NAME[win["suit"]])))
    return {"rule": f"v {sign} T", "rows": rows, "method": method, "tie_breaks": tie_breaks,
            "winner": win["seat"], "steps": steps}


GAME = CelestialEmperorGame

__all__ = [
    "GAME", "CelestialEmperorGame", "CelestialOptions", "score", "value", "sort_cards", "STRICT", "LENIENT",
    "SEAT_ORDER", "PRIORITY", "NARRATORS", "Commit", "Describe", "Keep", "Nullify", "Parry", "Return", "Setting",
    "Strike", "Target", "Trick", "Victory", "Withdraw", "CardAction",
]
