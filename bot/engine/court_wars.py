"""Court Wars (Kroc Camen and Prenuntius): guard your court, tear down the others'.

Rulebook: ``rules/court_wars.md``. Everything is public except the order of the draw
pile as first shuffled; every drawn card is announced.

Notation (``<seat+1>:<letter>`` names a player's position, e.g. ``2:Q`` is P2's queen;
a jokered position keeps its court letter):

- ``draw``                     opening build: draw until a guard turns up
- ``defend``                   draw a card (DEFEND)
- ``attack K 2 2:Q 1``         spend the outermost 2 guards of your K stack, remove 1 card
                               (guards, then the court itself) from P2's queen stack
- ``skip``                     during an Ace sequence: no attack, draw again
- ``place K`` / ``discard``    a drawn guard: onto your K stack, or to the discard pile
- ``joker Q`` / ``discard``    a drawn joker: onto your defeated Q position, or discard it
- ``resign``                   leave the game (you are eliminated)

A drawn card that can only be discarded (no stack takes the guard, no place for the
joker, no attack after an ace) is discarded automatically and announced.

A player who resigns or forfeits is eliminated at once: the pending card (if it was their
turn), then their guards (innermost first) and jokers go to the discard pile, and their
courts lie face down where they were, so every card stays accounted for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.engine import cards
from bot.engine.base import Event, Game, IllegalMove, Outcome, Variant

LETTERS = "KQJ"
SUIT_ORDER = "SHDC"
GUARD_RANKS = "23456789T"
NO_JOKERS = "No Jokers"
SAME_VALUE = "Same-Value"
SHUFFLE_RECYCLE = "Shuffle Recycle"
SINGLE_ACE = "Single Ace"
LOG_SIZE = 12


def guard_value(card: str) -> int:
    """2..10 for a guard, 0 for anything else."""
    r = cards.rank(card)
    return GUARD_RANKS.index(r) + 2 if r and r in GUARD_RANKS else 0


def is_guard(card: str) -> bool:
    return guard_value(card) > 0


def is_court(card: str) -> bool:
    return cards.rank(card) in ("J", "Q", "K")


def is_ace(card: str) -> bool:
    return cards.rank(card) == "A"


def _names(cs: list[str]) -> str:
    return " ".join(cs)


@dataclass
class CourtWarsGame(Game):
    game_id = "court_wars"
    title = "Court Wars"
    min_players = 2
    max_players = 4
    variants = (
        Variant(NO_JOKERS, "Play with 52 cards: no jokers."),
        Variant(SAME_VALUE, "A guard equal in value to the outermost guard may also be placed (8, 8, 4)."),
        Variant(SHUFFLE_RECYCLE, "Shuffle the discard pile before turning it over into a new draw pile."),
        Variant(SINGLE_ACE, "An ace drawn as the follow-up draw of an Ace sequence is simply discarded."),
    )
    credit = "Court Wars by Kroc Camen and Prenuntius (CC BY 3.0)"
    settings = {
        "rounds": (20, 0, 1000),  # ruling 18: full rounds without a defeat before the game ends (0 = off)
        "first": (-1, -1, 3),  # the first player's seat; -1 = pick at random
    }
    summary = (
        "**Court Wars** — 2–4 players, everything on the table is public.\n"
        "- Each player guards a court: the K, Q and J of their suit (S, H, D, C in seat order).\n"
        "- **Guards** are number cards 2–10. A stack's **Attack** is the sum of its guards, its "
        "**Defence** 10 + that sum. Each new guard must be *lower* than the stack's outermost guard.\n"
        "- **Opening build:** three rounds; each pick draws until a guard turns up (A, J, Q, K and "
        "jokers are discarded), then places it or discards it.\n"
        "- **Your turn:** DEFEND or ATTACK.\n"
        "  - *Defend:* draw a card. J/Q/K: discarded. Guard: place it or discard it. Joker: put it on one "
        "of your defeated positions (a new stack, Defence 10) or discard it. Ace: discard it, you may "
        "attack, then draw again (aces chain).\n"
        "  - *Attack:* spend the outermost m guards of one of your stacks (power P) to remove the "
        "outermost r cards of one opponent stack: guards cost their value, the court itself costs "
        "all its guards + 10. Legal when P ≥ cost; extra power is lost.\n"
        "- A defeated court lies face down; a defeated joker is discarded. A player with no living "
        "stack is eliminated; the last player standing wins.\n"
        "- The draw pile is refilled by turning the discard pile over (not shuffled).\n"
        "- If a table's round limit (default 20) passes with no position defeated, the most living "
        "stacks wins, then the highest total Defence.\n"
        "- Variants: No Jokers, Same-Value, Shuffle Recycle, Single Ace.\n\n"
        "_Court Wars by Kroc Camen and Prenuntius (CC BY 3.0)_"
    )

    suits: list[str] = field(default_factory=list)
    # courts[seat][i]: {"court": "KS", "state": "alive"|"defeated"|"jokered", "joker": str|None,
    # "guards": [innermost ... outermost]}; i indexes LETTERS (K, Q, J).
    courts: list[list[dict[str, Any]]] = field(default_factory=list)
    eliminated: list[bool] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)  # top first
    discard_pile: list[str] = field(default_factory=list)  # bottom first, top last
    recycled: int = 0  # times the discard pile was turned over (the draw order is then public)
    first: int = 0
    current: int = 0
    phase: str = "build"  # build | guard | joker | turn | ace | over
    build_round: int = 1  # 1..3 during the opening build, 0 afterwards
    build_left: list[int] = field(default_factory=list)  # seats still to pick this build round
    pending: str | None = None  # the drawn guard or joker waiting for a decision
    turnovers_this_turn: int = 0
    turn_had_defeat: bool = False
    quiet_rounds: int = 0
    round_seen: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    winners: list[int] | None = None
    end_summary: str = ""
    end_reason: str = ""

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        n = len(self.players)
        first = self.setting("first")
        if first >= n:
            raise IllegalMove(f"Setting first must be a seat from 0 to {n - 1} (or -1 for random).")
        self.suits = [SUIT_ORDER[i] for i in range(n)]
        court_cards = {L + s for s in self.suits for L in LETTERS}
        self.courts = [
            [{"court": L + s, "state": "alive", "joker": None, "guards": []} for L in LETTERS]
            for s in self.suits
        ]
        self.eliminated = [False] * n
        if deck is None:
            pile = [c for c in cards.deck(0 if self.has(NO_JOKERS) else 2) if c not in court_cards]
            self.rng().shuffle(pile)
        else:
            pile = []
            for c in deck:
                code = c if c.upper() in ("JK", "JK2") else cards.parse_card(c)
                if code.upper() not in court_cards:
                    pile.append(code.upper())
        self.draw_pile = pile
        self.discard_pile = []
        self.first = first if first >= 0 else self.rng().randrange(n)
        self.current = self.first
        self.phase = "build"
        self.build_round = 1
        self.build_left = self._order_from(self.first)
        names = ", ".join(f"{p} ({cards.SUIT_SYMBOL[s]})" for p, s in zip(self.players, self.suits, strict=True))
        self._note(f"Courts: {names}. {self.players[self.first]} picks first in the opening build.")

    # ----- helpers --------------------------------------------------------------------
    def _note(self, text: str, events: list[Event] | None = None) -> None:
        self.log = (self.log + [text])[-LOG_SIZE:]
        if events is not None:
            events.append(Event(text))

    def active(self) -> list[int]:
        return [s for s in range(len(self.players)) if not self.eliminated[s]]

    def _order_from(self, start: int) -> list[int]:
        n = len(self.players)
        return [(start + i) % n for i in range(n) if not self.eliminated[(start + i) % n]]

    def _next_active(self, seat: int) -> int:
        n = len(self.players)
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not self.eliminated[s]:
                return s
        return seat

    def is_living(self, pos: dict[str, Any]) -> bool:
        return pos["state"] in ("alive", "jokered")

    def living(self, seat: int) -> list[int]:
        return [i for i, p in enumerate(self.courts[seat]) if self.is_living(p)]

    def attack_of(self, seat: int, i: int) -> int:
        return sum(guard_value(g) for g in self.courts[seat][i]["guards"])

    def defence_of(self, seat: int, i: int) -> int:
        return 10 + self.attack_of(seat, i) if self.is_living(self.courts[seat][i]) else 0

    def total_defence(self, seat: int) -> int:
        return sum(self.defence_of(seat, i) for i in self.living(seat))

    def stack_name(self, seat: int, i: int) -> str:
        pos = self.courts[seat][i]
        return f"joker on {pos['court']}" if pos["state"] == "jokered" else pos["court"]

    def can_place(self, seat: int, i: int, card: str) -> bool:
        """§3.2: onto one of your living stacks, strictly lower than the outermost guard."""
        pos = self.courts[seat][i]
        if not self.is_living(pos):
            return False
        if not pos["guards"]:
            return True
        v, outer = guard_value(card), guard_value(pos["guards"][-1])
        return v < outer or (self.has(SAME_VALUE) and v == outer)

    def guard_spots(self, seat: int, card: str) -> list[int]:
        return [i for i in range(3) if self.can_place(seat, i, card)]

    def joker_spots(self, seat: int) -> list[int]:
        return [i for i, p in enumerate(self.courts[seat]) if p["state"] == "defeated"]

    def attacks(self, seat: int) -> list[tuple[int, int, int, int, int, int]]:
        """Every legal attack: (source, m, target seat, target position, r, cost)."""
        out = []
        for src in self.living(seat):
            mine = self.courts[seat][src]["guards"]
            for m in range(1, len(mine) + 1):
                power = sum(guard_value(g) for g in mine[-m:])
                for opp in self._order_from(seat):
                    if opp == seat:
                        continue
                    for t in self.living(opp):
                        theirs = self.courts[opp][t]["guards"]
                        for r in range(1, len(theirs) + 2):
                            cost = self.cost(theirs, r)
                            if power >= cost:
                                out.append((src, m, opp, t, r, cost))
        return out

    @staticmethod
    def cost(guards: list[str], r: int) -> int:
        """Removing the outermost r cards: guards cost their value, the court all guards + 10."""
        if r > len(guards):
            return sum(guard_value(g) for g in guards) + 10
        return sum(guard_value(g) for g in guards[-r:])

    # ----- the contract ---------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        return frozenset() if self.winners is not None else frozenset({self.current})

    def legal_moves(self, seat: int) -> list[str]:
        if self.winners is not None or seat != self.current:
            return []
        if self.phase == "build":
            return ["draw", "resign"]
        if self.phase == "guard":
            assert self.pending is not None
            spots = [f"place {LETTERS[i]}" for i in self.guard_spots(seat, self.pending)]
            return [*spots, "discard", "resign"]
        if self.phase == "joker":
            return [*(f"joker {LETTERS[i]}" for i in self.joker_spots(seat)), "discard", "resign"]
        atk = [
            f"attack {LETTERS[s]} {m} {o + 1}:{LETTERS[t]} {r}" for s, m, o, t, r, _ in self.attacks(seat)
        ]
        if self.phase == "ace":
            return [*atk, "skip", "resign"]
        return ["defend", *atk, "resign"]

    def _apply(self, seat: int, move: str) -> list[Event]:
        tokens = move.split()
        verb = tokens[0].lower()
        events: list[Event] = []
        name = self.players[seat]
        allowed = {
            "build": ("draw", "resign"),
            "guard": ("place", "discard", "resign"),
            "joker": ("joker", "discard", "resign"),
            "turn": ("defend", "attack", "resign"),
            "ace": ("attack", "skip", "resign"),
        }[self.phase]
        if verb not in allowed:
            raise IllegalMove(f"{move!r} is not possible now: {self._expecting()}")
        if verb == "resign":
            self._no_args(tokens)
            self._note(f"{name} resigns.", events)
            events += self._eliminate(seat, "resigned")
            return events
        if verb == "draw":
            self._no_args(tokens)
            self._build_draw(seat, events)
            return events
        if verb == "defend":
            self._no_args(tokens)
            self._defend_draw(seat, events, follow_up=False)
            return events
        if verb == "skip":
            self._no_args(tokens)
            self._note(f"{name} skips the attack.", events)
            self._defend_draw(seat, events, follow_up=True)
            return events
        if verb == "discard":
            self._no_args(tokens)
            card = self.pending
            assert card is not None
            self.pending = None
            self.discard_pile.append(card)
            self._note(f"{name} discards {card}.", events)
            self._end_turn(events)
            return events
        if verb == "place":
            card = self.pending
            assert card is not None
            i = self._own_letter(seat, tokens, "place")
            pos = self.courts[seat][i]
            if not self.is_living(pos):
                raise IllegalMove(
                    f"{pos['court']} is defeated: a guard may go only onto one of your living stacks (ruling 16)."
                )
            if not self.can_place(seat, i, card):
                outer = pos["guards"][-1]
                rule = "lower than or equal to" if self.has(SAME_VALUE) else "strictly lower than"
                raise IllegalMove(f"{card} cannot go on {self.stack_name(seat, i)}: a new guard must be "
                                  f"{rule} the outermost guard {outer} (§3.2).")
            self.pending = None
            pos["guards"].append(card)
            self._note(
                f"{name} places {card} on {self.stack_name(seat, i)} "
                f"(Attack {self.attack_of(seat, i)}, Defence {self.defence_of(seat, i)}).",
                events,
            )
            self._end_turn(events)
            return events
        if verb == "joker":
            card = self.pending
            assert card is not None
            i = self._own_letter(seat, tokens, "joker")
            pos = self.courts[seat][i]
            if pos["state"] != "defeated":
                why = "already has a joker" if pos["state"] == "jokered" else "is not defeated"
                raise IllegalMove(f"{pos['court']} {why}: a joker may go only onto one of your defeated "
                                  "positions without a joker (ruling 11).")
            self.pending = None
            pos["state"] = "jokered"
            pos["joker"] = card
            self._note(f"{name} puts the joker on {pos['court']}: a new stack (Defence 10).", events)
            self._end_turn(events)
            return events
        # attack
        src, m, opp, t, r = self._parse_attack(seat, tokens)
        self._attack(seat, src, m, opp, t, r, events)
        if self.winners is not None:
            return events
        if self.phase == "ace":
            self._defend_draw(seat, events, follow_up=True)
        else:
            self._end_turn(events)
        return events

    def _expecting(self) -> str:
        name = self.players[self.current]
        return {
            "build": f"{name} must draw for the opening build (draw).",
            "guard": f"{name} must place the drawn guard {self.pending} (place K/Q/J) or discard it.",
            "joker": f"{name} must put the joker on a defeated position (joker K/Q/J) or discard it.",
            "turn": f"{name} must defend (defend) or attack (attack SOURCE M SEAT:POSITION R).",
            "ace": f"{name} drew an ace: attack (attack SOURCE M SEAT:POSITION R) or skip.",
        }[self.phase]

    @staticmethod
    def _no_args(tokens: list[str]) -> None:
        if len(tokens) != 1:
            raise IllegalMove(f"{tokens[0]} takes no arguments.")

    def _letter(self, token: str) -> int:
        t = token.strip().upper()
        if len(t) >= 1 and t[0] in LETTERS and (len(t) == 1 or len(t) == 2 and t[1] in SUIT_ORDER):
            return LETTERS.index(t[0])
        raise IllegalMove(f"{token!r} is not a position: write K, Q or J.")

    def _own_letter(self, seat: int, tokens: list[str], verb: str) -> int:
        if len(tokens) != 2:
            raise IllegalMove(f"Write {verb} K, {verb} Q or {verb} J.")
        i = self._letter(tokens[1])
        if len(tokens[1]) == 2 and tokens[1].upper()[1] != self.suits[seat]:
            raise IllegalMove(f"{tokens[1].upper()} is not one of your courts.")
        return i

    def _parse_attack(self, seat: int, tokens: list[str]) -> tuple[int, int, int, int, int]:
        if len(tokens) != 5:
            raise IllegalMove("Write attack SOURCE M SEAT:POSITION R, e.g. attack K 2 2:Q 1.")
        src = self._letter(tokens[1])
        mine = self.courts[seat][src]
        if not self.is_living(mine):
            raise IllegalMove(f"Your {mine['court']} is defeated and cannot attack.")
        if not mine["guards"]:
            raise IllegalMove(f"Your {self.stack_name(seat, src)} has no guards: a stack without guards "
                              "has Attack 0 and cannot attack (ruling 9).")
        try:
            m = int(tokens[2])
        except ValueError:
            raise IllegalMove(f"{tokens[2]!r} is not a number of guards to spend.") from None
        k = len(mine["guards"])
        if not 1 <= m <= k:
            raise IllegalMove(f"Spend from 1 to {k} guards of {self.stack_name(seat, src)}, not {m} "
                              "(you spend the outermost guards, ruling 3).")
        target = tokens[3].split(":")
        if len(target) != 2 or not target[0].isdigit():
            raise IllegalMove(f"{tokens[3]!r} is not a target: write SEAT:POSITION, e.g. 2:Q.")
        opp = int(target[0]) - 1
        if not 0 <= opp < len(self.players):
            raise IllegalMove(f"There is no player {target[0]}.")
        if opp == seat:
            raise IllegalMove("You cannot attack your own stacks (§3.4).")
        if self.eliminated[opp]:
            raise IllegalMove(f"{self.players[opp]} is eliminated and cannot be targeted (§2).")
        t = self._letter(target[1])
        theirs = self.courts[opp][t]
        if not self.is_living(theirs):
            raise IllegalMove(f"{self.players[opp]}'s {theirs['court']} is already defeated.")
        try:
            r = int(tokens[4])
        except ValueError:
            raise IllegalMove(f"{tokens[4]!r} is not a number of cards to remove.") from None
        j = len(theirs["guards"])
        if not 1 <= r <= j + 1:
            raise IllegalMove(f"Remove from 1 to {j + 1} cards of {self.players[opp]}'s "
                              f"{self.stack_name(opp, t)} ({j} guards + the court), not {r}.")
        power = sum(guard_value(g) for g in mine["guards"][-m:])
        cost = self.cost(theirs["guards"], r)
        if power < cost:
            raise IllegalMove(f"Power {power} from {_names(mine['guards'][-m:])} is less than the cost {cost} "
                              f"of {self._what(opp, t, r)}: an attack needs power ≥ cost (§3.4).")
        return src, m, opp, t, r

    def _what(self, opp: int, t: int, r: int) -> str:
        theirs = self.courts[opp][t]["guards"]
        whose = f"{self.players[opp]}'s {self.stack_name(opp, t)}"
        if r > len(theirs):
            return f"defeating {whose}"
        return f"removing {_names(theirs[-r:])} from {whose}"

    # ----- actions --------------------------------------------------------------------
    def _attack(self, seat: int, src: int, m: int, opp: int, t: int, r: int, events: list[Event]) -> None:
        mine = self.courts[seat][src]
        theirs = self.courts[opp][t]
        spent = mine["guards"][-m:]
        power = sum(guard_value(g) for g in spent)
        defeat = r > len(theirs["guards"])
        removed = theirs["guards"][:] if defeat else theirs["guards"][-r:]
        what = self.stack_name(opp, t)
        del mine["guards"][-m:]
        del theirs["guards"][len(theirs["guards"]) - len(removed):]
        # Discard order (§2): spent guards, removed guards, a defeated joker; innermost first.
        self.discard_pile += spent + removed
        head = f"{self.players[seat]} spends {_names(spent)} ({power}) from {self.stack_name(seat, src)}"
        if defeat:
            if theirs["state"] == "jokered":
                self.discard_pile.append(theirs["joker"])
                theirs["joker"] = None
            theirs["state"] = "defeated"
            self.turn_had_defeat = True
            extra = f", removing {_names(removed)}" if removed else ""
            self._note(f"{head} and defeats {self.players[opp]}'s {what}{extra}.", events)
            if not self.living(opp):
                self._note(f"{self.players[opp]} is eliminated.", events)
                self.eliminated[opp] = True
                self.build_left = [s for s in self.build_left if s != opp]
                self._check_victory(events)
        else:
            self._note(f"{head} and removes {_names(removed)} from {self.players[opp]}'s {what}.", events)

    def _check_victory(self, events: list[Event]) -> bool:
        left = self.active()
        if len(left) == 1:
            self.winners = left
            self.phase = "over"
            self.pending = None
            self.end_reason = "last_standing"
            self.end_summary = f"{self.players[left[0]]} wins: the last player standing."
            self._note(self.end_summary, events)
            return True
        return False

    def _draw(self, events: list[Event]) -> str | None:
        """One card from the draw pile, turning the discard pile over if needed (ruling 14).

        ``None`` when nothing can be drawn: both piles empty, or the loop guard (§3.3).
        """
        if not self.draw_pile:
            if not self.discard_pile:
                self._note("There is no card left to draw.", events)
                return None
            if self.turnovers_this_turn >= 1:
                self._note("The discard pile would be turned over a second time this turn: "
                           "the turn ends (loop guard).", events)
                return None
            pile = self.discard_pile
            self.discard_pile = []
            how = "turned over"
            if self.has(SHUFFLE_RECYCLE):
                self.rng().shuffle(pile)
                how = "shuffled and turned over"
            self.draw_pile = pile  # the card discarded earliest is now on top
            self.recycled += 1
            self.turnovers_this_turn += 1
            self._note(f"The discard pile is {how} ({len(pile)} cards).", events)
        return self.draw_pile.pop(0)

    def _build_draw(self, seat: int, events: list[Event]) -> None:
        name = self.players[seat]
        while True:
            card = self._draw(events)
            if card is None:
                self._end_turn(events)
                return
            if not is_guard(card):
                self.discard_pile.append(card)
                self._note(f"{name} draws {card}: not a guard, discarded; draw again.", events)
                continue
            self._offer_guard(seat, card, events, "")
            return

    def _offer_guard(self, seat: int, card: str, events: list[Event], why: str) -> None:
        """A drawn guard waits for the player's choice, or is discarded if no stack can take it."""
        name = self.players[seat]
        if self.guard_spots(seat, card):
            self.pending = card
            self.phase = "guard"
            self._note(f"{name} draws {card}.", events)
        else:
            self.discard_pile.append(card)
            self._note(f"{name} draws {card}: no stack can take it, discarded{why}.", events)
            self._end_turn(events)

    def _defend_draw(self, seat: int, events: list[Event], follow_up: bool) -> None:
        name = self.players[seat]
        while True:
            card = self._draw(events)
            if card is None:
                self._end_turn(events)
                return
            if is_court(card):
                self.discard_pile.append(card)
                self._note(f"{name} draws {card}: a court card, discarded; the turn ends.", events)
                self._end_turn(events)
                return
            if is_guard(card):
                self._offer_guard(seat, card, events, " (ruling 17)")
                return
            if cards.is_joker(card):
                if self.joker_spots(seat):
                    self.pending = card
                    self.phase = "joker"
                    self._note(f"{name} draws a joker.", events)
                else:
                    self.discard_pile.append(card)
                    self._note(f"{name} draws a joker: no defeated position to take it, discarded "
                               "(ruling 12).", events)
                    self._end_turn(events)
                return
            # an ace
            self.discard_pile.append(card)
            if follow_up and self.has(SINGLE_ACE):
                self._note(f"{name} draws {card}: a follow-up ace is discarded and the turn ends "
                           "(Single Ace).", events)
                self._end_turn(events)
                return
            if self.attacks(seat):
                self.phase = "ace"
                self._note(f"{name} draws {card}: an Ace — attack, then draw again.", events)
                return
            self._note(f"{name} draws {card}: an Ace, but no attack is possible; draw again.", events)
            follow_up = True

    def _end_turn(self, events: list[Event]) -> None:
        if self.winners is not None:
            return
        seat = self.current
        self.pending = None
        self.turnovers_this_turn = 0
        if self.build_round:
            self.build_left = [s for s in self.build_left if s != seat and not self.eliminated[s]]
            if not self.build_left:
                self.build_round += 1
                start = self.first if not self.eliminated[self.first] else self._next_active(self.first)
                if self.build_round > 3:
                    self.build_round = 0
                    self.current = start
                    self.phase = "turn"
                    self._note(f"The opening build is over. {self.players[start]} takes the first turn.", events)
                else:
                    self.build_left = self._order_from(start)
            if self.build_round:
                self.current = self.build_left[0]
                self.phase = "build"
            return
        if self.turn_had_defeat:
            self.quiet_rounds = 0
            self.round_seen = []
        elif not self.eliminated[seat] and seat not in self.round_seen:
            self.round_seen.append(seat)
        self.turn_had_defeat = False
        if self._round_check(events):
            return
        self.current = self._next_active(seat)
        self.phase = "turn"

    def _round_check(self, events: list[Event]) -> bool:
        """Count a full quiet round when every player still in has had a turn; end at the limit."""
        left = self.active()
        if self.round_seen and all(s in self.round_seen for s in left):
            self.quiet_rounds += 1
            self.round_seen = []
        limit = self.setting("rounds")
        if limit and self.quiet_rounds >= limit:
            self._stalemate(limit, events)
            return True
        return False

    def _stalemate(self, limit: int, events: list[Event]) -> None:
        left = self.active()
        best_living = max(len(self.living(s)) for s in left)
        top = [s for s in left if len(self.living(s)) == best_living]
        best_def = max(self.total_defence(s) for s in top)
        top = [s for s in top if self.total_defence(s) == best_def]
        self.winners = top
        self.phase = "over"
        self.pending = None
        self.end_reason = "stalemate"
        who = " and ".join(self.players[s] for s in top)
        verb = "share the win" if len(top) > 1 else "wins"
        self.end_summary = (f"No position defeated in {limit} rounds: {who} {verb} with {best_living} "
                            f"living stacks (total Defence {best_def}).")
        self._note(self.end_summary, events)

    def _eliminate(self, seat: int, why: str) -> list[Event]:
        """Take ``seat`` out at once: guards and jokers to the discard pile, courts face down."""
        events: list[Event] = []
        was_current = seat == self.current and self.winners is None
        if was_current and self.pending is not None:
            self.discard_pile.append(self.pending)
            self.pending = None
        for pos in self.courts[seat]:
            self.discard_pile += pos["guards"]
            pos["guards"] = []
            if pos["joker"]:
                self.discard_pile.append(pos["joker"])
                pos["joker"] = None
            pos["state"] = "defeated"
        self.eliminated[seat] = True
        self.round_seen = [s for s in self.round_seen if s != seat]
        self._note(f"{self.players[seat]} is eliminated ({why}).", events)
        if self._check_victory(events):
            return events
        if self.build_round:
            if was_current:
                self._end_turn(events)
            else:
                self.build_left = [s for s in self.build_left if s != seat]
            return events
        if was_current:
            self.turn_had_defeat = False
            self.turnovers_this_turn = 0
            if self._round_check(events):
                return events
            self.current = self._next_active(seat)
            self.phase = "turn"
        else:
            self._round_check(events)
        return events

    def _forfeit(self, seat: int) -> list[Event]:
        if self.eliminated[seat]:
            return []
        return self._eliminate(seat, "forfeit")

    # ----- results and views ----------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        details = {
            "reason": self.end_reason,
            "living_stacks": {self.players[s]: len(self.living(s)) for s in range(len(self.players))},
            "total_defence": {self.players[s]: self.total_defence(s) for s in range(len(self.players))},
        }
        score = len(self.living(self.winners[0])) if self.winners else None
        return Outcome(winners=tuple(self.winners), score=score, summary=self.end_summary, details=details)

    def hidden_cards(self, seat: int | None) -> set[str]:
        # Only the order of the first shuffle is unknown. After the discard pile has been turned
        # over, every card in the draw pile has been seen face up on the discard pile, so its
        # identity is public (under Shuffle Recycle only the order is unknown: views omit it).
        return set(self.draw_pile) if not self.recycled else set()

    def draw_order_public(self) -> bool:
        return bool(self.recycled) and not self.has(SHUFFLE_RECYCLE)

    def view(self, seat: int | None) -> dict[str, Any]:
        seats = []
        for s, name in enumerate(self.players):
            positions = []
            for i, pos in enumerate(self.courts[s]):
                living = self.is_living(pos)
                positions.append({
                    "letter": LETTERS[i],
                    "ref": f"{s + 1}:{LETTERS[i]}",
                    "court": pos["court"],
                    "state": pos["state"],
                    "joker": pos["joker"],
                    "guards": list(pos["guards"]),
                    "attack": self.attack_of(s, i) if living else 0,
                    "defence": self.defence_of(s, i),
                })
            seats.append({
                "seat": s,
                "name": name,
                "suit": self.suits[s],
                "eliminated": self.eliminated[s],
                "positions": positions,
                "living": len(self.living(s)),
                "total_defence": self.total_defence(s),
            })
        out = self.outcome()
        return {
            "game": self.game_id,
            "players": list(self.players),
            "options": list(self.options),
            "to_act": sorted(self.to_act()),
            "over": out is not None,
            "outcome": None if out is None else {
                "winners": list(out.winners), "score": out.score, "summary": out.summary,
                "reason": self.end_reason,
            },
            "seats": seats,
            "current": None if out is not None else self.current,
            "phase": self.phase,
            "build_round": self.build_round,
            "pending": self.pending,
            "first": self.first,
            "discard": list(self.discard_pile),
            "discard_size": len(self.discard_pile),
            "draw_size": len(self.draw_pile),
            "draw_order_public": self.draw_order_public(),
            "draw_pile": list(self.draw_pile) if self.draw_order_public() else None,
            "quiet_rounds": self.quiet_rounds,
            "rounds_limit": self.setting("rounds"),
            "log": list(self.log),
        }

    def describe(self, seat: int, move: str) -> str:
        tokens = move.split()
        if not tokens:
            return move
        verb = tokens[0].lower()
        try:
            if verb == "attack" and len(tokens) == 5:
                src, m, opp, t, r = self._parse_attack(seat, tokens)
                spent = self.courts[seat][src]["guards"][-m:]
                theirs = self.courts[opp][t]["guards"]
                power = sum(guard_value(g) for g in spent)
                cost = self.cost(theirs, r)
                whose = f"{self.players[opp]}'s {cards.pretty_text(self.stack_name(opp, t))}"
                if r > len(theirs):
                    what = f"defeat {whose}"
                else:
                    what = f"remove {cards.pretty_text(_names(theirs[-r:]))} from {whose}"
                return (f"Spend {cards.pretty_text(_names(spent))} ({power}) from "
                        f"{cards.pretty_text(self.stack_name(seat, src))} → {what} (cost {cost})")
            if verb == "place" and self.pending:
                i = self._letter(tokens[1])
                guards = self.courts[seat][i]["guards"] + [self.pending]
                a = sum(guard_value(g) for g in guards)
                return (f"Place {cards.pretty(self.pending)} on {cards.pretty_text(self.stack_name(seat, i))} "
                        f"→ Attack {a}, Defence {a + 10}")
            if verb == "joker" and self.pending:
                i = self._letter(tokens[1])
                return f"Put the joker on {cards.pretty(self.courts[seat][i]['court'])} (Defence 10)"
        except (IllegalMove, IndexError):
            return move
        if verb == "discard" and self.pending:
            return f"Discard {cards.pretty(self.pending)}"
        return {
            "draw": "Draw for the opening build",
            "defend": "Defend: draw a card",
            "skip": "Skip the attack and draw again",
            "resign": "Resign (you are eliminated)",
        }.get(verb, move)


GAME = CourtWarsGame


# ----- the built-in player ------------------------------------------------------------
def auto_move(game: CourtWarsGame, seat: int, rng: random.Random) -> str:
    """Defeat a stack when possible (eliminations first, then the cheapest), else make an
    even cut, else defend; place guards where they fit snugly; always place jokers."""
    moves = game.legal_moves(seat)
    if not moves:
        return "resign"
    if game.phase == "build":
        return "draw"
    if game.phase == "guard":
        card = game.pending or ""
        v = guard_value(card)
        best: tuple[float, int] | None = None
        for i in game.guard_spots(seat, card):
            guards = game.courts[seat][i]["guards"]
            gap = (11 - v) if not guards else guard_value(guards[-1]) - v
            # Low guards on an empty stack cap it: keep empty stacks for high guards.
            score = gap + rng.random() * 0.1
            if best is None or score < best[0]:
                best = (score, i)
        return f"place {LETTERS[best[1]]}" if best else "discard"
    if game.phase == "joker":
        spots = game.joker_spots(seat)
        return f"joker {LETTERS[spots[0]]}" if spots else "discard"
    attack = _best_attack(game, seat, rng)
    if attack:
        return attack
    return "skip" if game.phase == "ace" else "defend"


def _best_attack(game: CourtWarsGame, seat: int, rng: random.Random) -> str | None:
    best: tuple[tuple[float, ...], str] | None = None
    for src, m, opp, t, r, cost in game.attacks(seat):
        theirs = game.courts[opp][t]["guards"]
        spent = game.courts[seat][src]["guards"][-m:]
        power = sum(guard_value(g) for g in spent)
        defeat = r > len(theirs)
        move = f"attack {LETTERS[src]} {m} {opp + 1}:{LETTERS[t]} {r}"
        if defeat:
            eliminates = len(game.living(opp)) == 1
            key: tuple[float, ...] = (2, 1 if eliminates else 0, -power, -(power - cost), rng.random())
        elif power == cost and cost >= 5:
            key = (1, 0, cost, -m, rng.random())
        else:
            continue
        if best is None or key > best[0]:
            best = (key, move)
    return best[1] if best else None
