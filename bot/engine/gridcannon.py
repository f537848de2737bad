"""Gridcannon (solo): kill the twelve royals around a 3x3 grid of number cards.

Implements /work/shared/rules/gridcannon.md: Version 2 by default, every ruling of §10 and
every named variant of §7, §10 and §11 as an option. The draw pile is ``pile`` (top card
first). Cells are indexed 0..8 in reading order (``r1c1`` .. ``r3c3``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from collections.abc import Iterable
from typing import Any, ClassVar

from bot.engine import cards
from bot.engine.base import Event, Game, IllegalMove, Outcome, Variant

CELLS = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
CENTRE = 4
PERIMETER = [i for i in range(9) if i != CENTRE]
SLOTS = ["T1", "T2", "T3", "B1", "B2", "B3", "L1", "L2", "L3", "R1", "R2", "R3"]


def _line(slot: str) -> tuple[int, int, int]:
    """(adjacent cell, other attacker, trigger) of a slot, by the §0 line table."""
    side, k = slot[0], int(slot[1]) - 1
    if side == "T":
        return k, 3 + k, 6 + k
    if side == "B":
        return 6 + k, 3 + k, k
    if side == "L":
        return 3 * k, 3 * k + 1, 3 * k + 2
    return 3 * k + 2, 3 * k + 1, 3 * k


LINE = {s: _line(s) for s in SLOTS}
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
# Slots next to each cell (their adjacent cell), and slots each cell triggers.
CELL_SLOTS = {c: [s for s in SLOTS if LINE[s][0] == c] for c in range(9)}
TRIGGERS = {c: [s for s in SLOTS if LINE[s][2] == c] for c in range(9)}
BASE = {"J": 11, "Q": 12, "K": 13}

# Phases of the state machine (§3), plus setup and the Classic drawn-ploy state.
SETUP_ROYALS = "SETUP_ROYALS"
SETUP_REPLACE = "SETUP_REPLACE"
READY = "READY"
PENDING_ROYAL = "PENDING_ROYAL"
PENDING_NUMBER = "PENDING_NUMBER"
PENDING_PLOY = "PENDING_PLOY"
EXHAUSTED = "EXHAUSTED"
WIN = "WIN"
LOSS = "LOSS"
PLOY_PHASES = (READY, PENDING_ROYAL, PENDING_NUMBER, EXHAUSTED)

MEMORY_AID = "Memory Aid"
LOWEST_HEALTH = "Lowest Health"
PLOYS_FIRST = "Ploys First"
SOURCE_THRESHOLDS = "Source Thresholds"
EXACT = "Exact"
KEEP_PLOYS = "Keep Ploys"
DRAW_ORDER = "Draw Order"
STASH_ONLY = "Stash Only"
CLASSIC = "Classic (Old Version)"
REVISED_OLD = "Revised Old Version"
NO_JOKERS = "No Jokers"

_CODE = re.compile(r"(?<![A-Za-z0-9])(?:JK2?|[2-9TJQKA][SHDC])(?![A-Za-z0-9])")


def is_royal(card: str) -> bool:
    return not cards.is_joker(card) and card[0] in "JQK"


def is_ploy(card: str) -> bool:
    return cards.is_joker(card) or card[0] == "A"


def is_number(card: str) -> bool:
    return not is_royal(card) and not is_ploy(card)


def value(card: str | None) -> int:
    """Grid value: 2-10 for number cards; ace 1 and joker 0 (only met in the grid in Classic)."""
    if card is None or cards.is_joker(card):
        return 0
    r = card[0]
    if r == "A":
        return 1
    if r == "T":
        return 10
    if r in BASE:
        return BASE[r]
    return int(r)


def qualifies(card: str | None, royal: str) -> bool:
    """Whether an attacker card counts against ``royal`` (§6): J any, Q colour, K suit."""
    if card is None or cards.is_joker(card):
        return False
    if royal[0] == "J":
        return True
    if royal[0] == "Q":
        return cards.colour(card) == cards.colour(royal)
    return cards.suit(card) == cards.suit(royal)


def parse_cell(token: str) -> int:
    t = token.strip().lower()
    if t in CELLS:
        return CELLS.index(t)
    if t in ("centre", "center"):
        return CENTRE
    raise IllegalMove(f"{token!r} is not a cell: write r1c1 … r3c3 (row, then column).")


def parse_slot(token: str) -> str:
    t = token.strip().upper()
    if t in SLOTS:
        return t
    raise IllegalMove(f"{token!r} is not a royal slot: write T1-T3, B1-B3, L1-L3 or R1-R3.")


def _parse_card(token: str) -> str:
    try:
        return cards.parse_card(token)
    except ValueError as e:
        raise IllegalMove(str(e)) from None


SUMMARY = """\
**Goal**: find and kill all 12 royals (J, Q, K) around a 3×3 grid of number cards.
**Setup**: deal number cards into the grid (royals set aside, aces and jokers to your stash), \
place the royals, then you may swap one grid card once.
**Royal placement**: next to the perimeter card most like it (same suit, highest; else same \
colour; else highest), in a free slot; ties and corners give you a choice.
**Draw**: a number card must go on a cell whose top card is equal or lower (or empty). A royal \
is placed; an ace or joker goes to your stash.
**Attack**: a card landing on the far end of a royal's line fires the two cards between at it. \
Jacks (11) count any card, Queens (12) same colour, Kings (13) same suit. Attack ≥ health kills \
(the royal turns face down and blocks its slot for good).
**Armour**: a card you cannot place arms the most similar living royal (suit, then colour, then \
any; lowest rank). J/Q at 21+ or K at 20+ health is a natural loss.
**Ploys** (any time in play): an ace *extracts* a stack to the bottom of the deck; a joker \
*reassigns* a top card to another legal cell, which can fire.
**No living royal**: draws become a search; the passed cards go back under the deck.
**Out of cards**: use ploys or concede; with no ploy left you lose.
**Score** on a win: 6 − ploys spent.
Variants: Memory Aid, Lowest Health, Ploys First, Source Thresholds, Exact, Keep Ploys, \
Draw Order, Stash Only, Classic (Old Version), Revised Old Version, No Jokers.

Based on Gridcannon by Tom Francis"""


@dataclass
class GridcannonGame(Game):
    game_id: ClassVar[str] = "gridcannon"
    title: ClassVar[str] = "Gridcannon"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    credit: ClassVar[str] = "Based on Gridcannon by Tom Francis"
    summary: ClassVar[str] = SUMMARY
    secret_moves: ClassVar[bool] = False
    variants: ClassVar[tuple[Variant, ...]] = (
        Variant(MEMORY_AID, "The table lists the cards you knowingly sent to the bottom of the deck."),
        Variant(LOWEST_HEALTH, "Armour goes to the royal with the lowest current health, not rank."),
        Variant(PLOYS_FIRST, "You may armour only when you have no unspent ploy."),
        Variant(SOURCE_THRESHOLDS, "Natural loss at J/Q health 20+, K 19+ (the source's numbers)."),
        Variant(EXACT, "Natural loss when the two best unarmoured qualifying cards cannot reach the health."),
        Variant(KEEP_PLOYS, "Aces and jokers met in a search go to your stash."),
        Variant(DRAW_ORDER, "Setup royals are placed in the order drawn."),
        Variant(STASH_ONLY, "Score = unspent ploys in your stash only."),
        Variant(CLASSIC, "The Old Version: empty centre, aces/jokers reset stacks, shame pile score."),
        Variant(REVISED_OLD, "Out of cards with no unspent ace: lost at once, jokers or not."),
        Variant(NO_JOKERS, "52 cards, no jokers; the maximum score is 4."),
    )

    pile: list[str] = field(default_factory=list)  # draw pile, top card first
    known: int = 0  # how many bottom cards of the pile the player knowingly sent there
    grid: list[list[str]] = field(default_factory=list)  # 9 stacks, bottom -> top
    slots: list[dict[str, Any]] = field(default_factory=list)  # {"royal", "armour", "dead"}
    stash: list[dict[str, Any]] = field(default_factory=list)  # {"card", "spent"}
    set_aside: list[str] = field(default_factory=list)
    cycle: list[str] = field(default_factory=list)
    shame: list[str] = field(default_factory=list)
    pending: str | None = None
    phase: str = SETUP_ROYALS
    searching: bool = False
    replaced: bool = False  # the setup replacement was offered and settled
    loss_reason: str = ""
    last: list[str] = field(default_factory=list)

    # ----- options --------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Iterable[str]) -> list[str]:
        aliases = {"classic": CLASSIC, "oldversion": CLASSIC, "old": CLASSIC, "revised": REVISED_OLD}
        fixed = []
        for raw in options:
            key = "".join(ch for ch in raw.lower() if ch.isalnum())
            fixed.append(aliases.get(key, raw))
        opts = super().check_options(fixed)
        if CLASSIC in opts and REVISED_OLD in opts:
            raise IllegalMove("Classic (Old Version) and Revised Old Version are different rule sets: pick one.")
        return opts

    @property
    def classic(self) -> bool:
        return CLASSIC in self.options

    @property
    def max_ploys(self) -> int:
        return 4 if NO_JOKERS in self.options else 6

    # ----- setup ------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        full = cards.deck(0 if NO_JOKERS in self.options else 2)
        if deck is None:
            deck = list(full)
            self.rng().shuffle(deck)
        else:
            deck = [_parse_card(c) if not c.startswith("JK") else c for c in deck]
            if sorted(deck) != sorted(full):
                raise IllegalMove(f"The deck must hold exactly the {len(full)} cards of this game.")
        self.pile = list(deck)
        self.grid = [[] for _ in range(9)]
        self.slots = [{"royal": None, "armour": [], "dead": False} for _ in SLOTS]
        self.phase = SETUP_ROYALS
        targets = PERIMETER if self.classic else list(range(9))
        drawn: list[str] = []
        for cell in targets:
            while True:
                card = self.pile.pop(0)
                drawn.append(card)
                if is_royal(card):
                    self.set_aside.append(card)
                elif is_ploy(card) and not self.classic:
                    self.stash.append({"card": card, "spent": False})
                else:
                    self.grid[cell].append(card)
                    break
        events = [f"Dealt {len(drawn)} cards."]
        if self.set_aside:
            events.append("Set aside " + ", ".join(self.set_aside) + ".")
        if self.stash:
            events.append("Stash: " + ", ".join(p["card"] for p in self.stash) + ".")
        self.replaced = self.classic
        events += self._advance_setup()
        self.last = events

    def _advance_setup(self) -> list[str]:
        """Auto-place forced setup royals; move on to the replacement, then to READY."""
        out: list[str] = []
        while self.phase == SETUP_ROYALS:
            if not self.set_aside:
                if self.replaced:
                    self.phase = READY
                    out += self._settle()
                else:
                    self.phase = SETUP_REPLACE
                break
            pairs = self._setup_pairs()
            if len(pairs) != 1:
                break
            royal, slot = pairs[0]
            self.set_aside.remove(royal)
            self._seat(royal, slot)
            out.append(f"{royal} placed at {slot} (its only legal slot).")
        return out

    def _setup_pairs(self) -> list[tuple[str, str]]:
        royals = self.set_aside[:1] if DRAW_ORDER in self.options else self.set_aside
        return [(r, s) for r in royals for s in self.legal_slots(r)]

    # ----- table queries ------------------------------------------------------------
    def top(self, cell: int) -> str | None:
        stack = self.grid[cell]
        return stack[-1] if stack else None

    def living(self) -> list[int]:
        return [i for i, s in enumerate(self.slots) if s["royal"] and not s["dead"]]

    def dead_count(self) -> int:
        return sum(1 for s in self.slots if s["dead"])

    def health(self, i: int) -> int:
        s = self.slots[i]
        return BASE[s["royal"][0]] + sum(value(c) for c in s["armour"])

    def unspent(self, kind: str | None = None) -> list[int]:
        """Stash indexes of unspent ploys (``kind`` "A" aces, "JK" jokers, None both)."""
        out = []
        for i, p in enumerate(self.stash):
            if p["spent"]:
                continue
            if kind == "A" and cards.is_joker(p["card"]):
                continue
            if kind == "JK" and not cards.is_joker(p["card"]):
                continue
            out.append(i)
        return out

    def spent_count(self) -> int:
        return sum(1 for p in self.stash if p["spent"])

    def legal_slots(self, royal: str) -> list[str]:
        """Slots ``royal`` may take now (§4 with rulings 1-3)."""
        free = {s for i, s in enumerate(SLOTS) if self.slots[i]["royal"] is None}
        eligible = [c for c in PERIMETER if any(s in free for s in CELL_SLOTS[c])]
        with_card = [c for c in eligible if self.grid[c]]
        if not with_card:
            cands = eligible
        else:
            cands = []
            tiers = (
                lambda t: cards.suit(t) == cards.suit(royal),
                lambda t: cards.colour(t) == cards.colour(royal),
                lambda t: True,
            )
            for test in tiers:
                tier = [c for c in with_card if test(self.top(c))]
                if tier:
                    best = max(value(self.top(c)) for c in tier)
                    cands = [c for c in tier if value(self.top(c)) == best]
                    break
        ok = {s for c in cands for s in CELL_SLOTS[c] if s in free}
        return [s for s in SLOTS if s in ok]

    def can_place(self, card: str, cell: int) -> bool:
        return self.top(cell) is None or value(self.top(cell)) <= value(card)

    def place_cells(self, card: str) -> list[int]:
        return [c for c in range(9) if self.can_place(card, c)]

    def armour_targets(self, card: str) -> list[int]:
        """Slot indexes of the royals ``card`` may armour (§7; ties give several)."""
        live = self.living()
        tiers = (
            lambda r: cards.suit(r) == cards.suit(card),
            lambda r: cards.colour(r) == cards.colour(card),
            lambda r: True,
        )
        for test in tiers:
            tier = [i for i in live if test(self.slots[i]["royal"])]
            if tier:
                if LOWEST_HEALTH in self.options:
                    key = {i: self.health(i) for i in tier}
                else:
                    key = {i: BASE[self.slots[i]["royal"][0]] for i in tier}
                low = min(key.values())
                return [i for i in tier if key[i] == low]
        return []

    def attack(self, slot: int, grid: list[list[str]] | None = None) -> int:
        """The attack the slot's two attacker cells make on its royal now."""
        g = self.grid if grid is None else grid
        royal = self.slots[slot]["royal"]
        a, b, _ = LINE[SLOTS[slot]]
        total = 0
        for cell in (a, b):
            top = g[cell][-1] if g[cell] else None
            if qualifies(top, royal):
                total += value(top)
        return total

    def kills_at(self, cell: int, grid: list[list[str]] | None = None) -> list[int]:
        """Living royals a landing on ``cell`` would kill (the landing card never counts)."""
        out = []
        for s in TRIGGERS[cell]:
            i = SLOT_INDEX[s]
            slot = self.slots[i]
            if slot["royal"] and not slot["dead"] and self.attack(i, grid) >= self.health(i):
                out.append(i)
        return out

    def is_invincible(self, i: int) -> bool:
        """The natural-loss test of §7 (and the Source Thresholds / Exact variants)."""
        royal = self.slots[i]["royal"]
        h = self.health(i)
        if EXACT in self.options:
            locked = {c for s in self.slots for c in s["armour"]} | set(self.shame)
            pool = cards.deck(0 if NO_JOKERS in self.options else 2)
            vals = sorted(
                (value(c) for c in pool
                 if c not in locked and qualifies(c, royal)
                 and (is_number(c) or (self.classic and c[0] == "A"))),
                reverse=True,
            )
            return sum(vals[:2]) < h
        if SOURCE_THRESHOLDS in self.options:
            return h >= (19 if royal[0] == "K" else 20)
        return h >= (20 if royal[0] == "K" else 21)

    def hidden_pile(self) -> list[str]:
        """Pile cards the player does not see listed (all of them without Memory Aid)."""
        if MEMORY_AID in self.options:
            return self.pile[: len(self.pile) - self.known]
        return list(self.pile)

    def memory(self) -> list[str]:
        return self.pile[len(self.pile) - self.known:] if self.known else []

    # ----- the contract -------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        return frozenset() if self.phase in (WIN, LOSS) else frozenset({0})

    def legal_moves(self, seat: int) -> list[str]:
        if seat != 0 or self.phase in (WIN, LOSS):
            return []
        ph = self.phase
        moves: list[str] = []
        if ph == SETUP_ROYALS:
            return [f"royal {r} {s}" for r, s in self._setup_pairs()]
        if ph == SETUP_REPLACE:
            return [f"replace {CELLS[c]}" for c in range(9) if self.grid[c]] + ["keep"]
        if ph == READY:
            moves.append("draw")
        elif ph == PENDING_ROYAL:
            moves += [f"royal {s}" for s in self.legal_slots(self.pending)]
        elif ph == PENDING_NUMBER:
            places = self.place_cells(self.pending)
            moves += [f"place {CELLS[c]}" for c in places]
            if not places:
                if self.living():
                    if self._may_armour():
                        moves += [f"armour {self.slots[i]['royal']}" for i in self.armour_targets(self.pending)]
                    if self.classic:
                        moves += [f"hardreset {CELLS[c]}" for c in range(9) if self.grid[c]]
                else:
                    moves.append("continue")
        elif ph == PENDING_PLOY:
            moves += [f"reset {CELLS[c]}" for c in range(9)]
        elif ph == EXHAUSTED:
            if self.classic:
                moves += [f"recycle {CELLS[c]}" for c in range(9) if self.grid[c]]
            else:
                moves.append("concede")
        if ph in PLOY_PHASES and not self.classic:
            moves += self._ploy_moves()
        return moves

    def _may_armour(self) -> bool:
        return not (PLOYS_FIRST in self.options and not self.classic and self.unspent())

    def _ploy_moves(self) -> list[str]:
        moves = []
        if self.unspent("A"):
            moves += [f"extract {CELLS[c]}" for c in range(9) if self.grid[c]]
        if self.unspent("JK"):
            for x in range(9):
                if not self.grid[x]:
                    continue
                v = value(self.top(x))
                moves += [f"reassign {CELLS[x]} {CELLS[y]}" for y in range(9)
                          if y != x and (not self.grid[y] or value(self.top(y)) <= v)]
        return moves

    def _apply(self, seat: int, move: str) -> list[Event]:
        tokens = move.split()
        verb = tokens[0].lower()
        args = tokens[1:]
        handler = getattr(self, f"_do_{verb}", None)
        if handler is None or verb not in self._verbs():
            raise IllegalMove(self._not_now(verb))
        texts = handler(args)
        self.last = texts
        hidden = self.hidden_cards(0)
        return [Event(_scrub(t, hidden)) for t in texts]

    def _verbs(self) -> set[str]:
        return {m.split()[0] for m in self.legal_moves(0)} | ({"place", "armour", "continue"}
                                                             if self.phase == PENDING_NUMBER else set())

    def _not_now(self, verb: str) -> str:
        if verb in ("extract", "reassign") and self.phase in PLOY_PHASES and not self.classic:
            kind = "ace" if verb == "extract" else "joker"
            return f"You have no unspent {kind} (or no stack to use it on). {self.prompt()}"
        known = {"draw", "place", "royal", "armour", "extract", "reassign", "continue", "concede",
                 "replace", "keep", "reset", "hardreset", "recycle"}
        if verb not in known:
            return f"Unknown move {verb!r}. {self.prompt()}"
        return f"You cannot {verb} now. {self.prompt()}"

    def _need(self, args: list[str], n: int, usage: str) -> None:
        if len(args) != n:
            raise IllegalMove(f"Write it as: {usage}.")

    # ----- moves ---------------------------------------------------------------------
    def _do_royal(self, args: list[str]) -> list[str]:
        if self.phase == SETUP_ROYALS:
            self._need(args, 2, "royal KH T1 (which set-aside royal, then the slot)")
            royal, slot = _parse_card(args[0]), parse_slot(args[1])
            if royal not in self.set_aside:
                raise IllegalMove(f"{royal} is not among the set-aside royals ({', '.join(self.set_aside)}).")
            if DRAW_ORDER in self.options and royal != self.set_aside[0]:
                raise IllegalMove(f"Draw Order: place {self.set_aside[0]} first (royals go in the order drawn).")
            legal = self.legal_slots(royal)
            if slot not in legal:
                raise IllegalMove(f"{royal} cannot go to {slot}: by the placement rule (§4) it may go to "
                                  f"{', '.join(legal)}.")
            self.set_aside.remove(royal)
            self._seat(royal, slot)
            return [f"{royal} placed at {slot}."] + self._advance_setup()
        self._need(args, 1, "royal T1 (the slot)")
        slot = parse_slot(args[0])
        royal = self.pending
        legal = self.legal_slots(royal)
        if slot not in legal:
            raise IllegalMove(f"{royal} cannot go to {slot}: by the placement rule (§4) it may go to "
                              f"{', '.join(legal)}.")
        self._seat(royal, slot)
        self.pending = None
        out = [f"{royal} placed at {slot}."]
        if self.searching:
            self.searching = False
            if self.cycle:
                n = len(self.cycle)
                self.pile += self.cycle
                self.known += n
                listed = " ".join(self.cycle) if MEMORY_AID in self.options else f"{n} card{'s' * (n != 1)}"
                out.append(f"The cycle pile ({listed}) goes to the bottom of the draw pile.")
                self.cycle = []
        self.phase = READY
        return out + self._settle()

    def _seat(self, royal: str, slot: str) -> None:
        self.slots[SLOT_INDEX[slot]] = {"royal": royal, "armour": [], "dead": False}

    def _do_replace(self, args: list[str]) -> list[str]:
        self._need(args, 1, "replace r2c2 (the cell whose card goes to the bottom)")
        cell = parse_cell(args[0])
        old = self.grid[cell].pop()
        self.pile.append(old)
        self.known += 1
        out = [f"{old} from {CELLS[cell]} goes to the bottom of the draw pile."]
        met = []
        while self.pile:
            card = self._draw_one()
            if is_royal(card):
                self.set_aside.append(card)
                met.append(f"{card} set aside")
            elif is_ploy(card):
                self.stash.append({"card": card, "spent": False})
                met.append(f"{card} to the stash")
            else:
                self.grid[cell].append(card)
                met.append(f"{card} fills {CELLS[cell]}")
                break
        out.append("Drew: " + "; ".join(met) + ".")
        self.replaced = True
        self.phase = SETUP_ROYALS
        return out + self._advance_setup()

    def _do_keep(self, args: list[str]) -> list[str]:
        self._need(args, 0, "keep")
        self.replaced = True
        self.phase = SETUP_ROYALS
        return ["You keep the grid as dealt."] + self._advance_setup()

    def _draw_one(self) -> str:
        card = self.pile.pop(0)
        self.known = min(self.known, len(self.pile))
        return card

    def _do_draw(self, args: list[str]) -> list[str]:
        self._need(args, 0, "draw")
        if not self.living():
            return self._search()
        card = self._draw_one()
        if is_royal(card):
            self.pending = card
            self.phase = PENDING_ROYAL
            return [f"Drew {card}: place it at " + " or ".join(self.legal_slots(card)) + "."]
        if is_ploy(card):
            if self.classic:
                self.pending = card
                self.phase = PENDING_PLOY
                return [f"Drew {card}: it resets a stack of your choice and takes its place."]
            self.stash.append({"card": card, "spent": False})
            return [f"Drew {card}: it goes to your stash."] + self._settle()
        self.pending = card
        self.phase = PENDING_NUMBER
        return [f"Drew {card}."]

    def _search(self) -> list[str]:
        """§8: draw until a royal turns up; the rest goes on the cycle pile."""
        passed: list[str] = []
        kept: list[str] = []
        while self.pile:
            card = self._draw_one()
            if is_royal(card):
                self.pending = card
                self.phase = PENDING_ROYAL
                self.searching = True
                out = ["No living royal: searching."]
                if passed:
                    out.append("Cycled " + " ".join(passed) + ".")
                if kept:
                    out.append("Kept in the stash: " + " ".join(kept) + ".")
                out.append(f"Found {card}: place it at " + " or ".join(self.legal_slots(card)) + ".")
                return out
            if is_ploy(card) and KEEP_PLOYS in self.options and not self.classic:
                self.stash.append({"card": card, "spent": False})
                kept.append(card)
            else:
                self.cycle.append(card)
                passed.append(card)
        # Unreachable while the rules hold (every unplaced royal is in the pile); stay safe.
        self.pile, self.cycle = self.cycle, []
        self.known = len(self.pile)
        self.phase = READY
        return ["The search found no royal."] + self._settle()

    def _do_place(self, args: list[str]) -> list[str]:
        if self.phase != PENDING_NUMBER:
            raise IllegalMove(self._not_now("place"))
        self._need(args, 1, "place r1c1 (the cell for the pending card)")
        cell = parse_cell(args[0])
        card = self.pending
        if not self.can_place(card, cell):
            raise IllegalMove(f"{card} cannot go on {CELLS[cell]}: its top card {self.top(cell)} is higher "
                              f"(a card goes on an equal or lower card, or an empty cell).")
        self.grid[cell].append(card)
        self.pending = None
        self.phase = READY
        out = [f"{card} placed on {CELLS[cell]}."] + self._fire(cell)
        return out + self._settle()

    def _do_armour(self, args: list[str]) -> list[str]:
        if self.phase != PENDING_NUMBER:
            raise IllegalMove(self._not_now("armour"))
        card = self.pending
        places = self.place_cells(card)
        if places:
            raise IllegalMove(f"{card} can be placed (on {', '.join(CELLS[c] for c in places)}), so it cannot "
                              "be armour: armour is only for a card with no legal cell.")
        if not self.living():
            raise IllegalMove("No royal is living, so there is nothing to armour: use a ploy or continue.")
        if not self._may_armour():
            raise IllegalMove("Ploys First: you must spend your unspent ploys before adding armour.")
        targets = self.armour_targets(card)
        names = [self.slots[i]["royal"] for i in targets]
        self._need(args, 1, f"armour {names[0]} (the royal that takes the armour)")
        royal = _parse_card(args[0])
        if royal not in names:
            raise IllegalMove(f"{card} cannot armour {royal}: by the armour rule (§7) it goes to "
                              f"{' or '.join(names)}.")
        target = targets[names.index(royal)]
        slot = self.slots[target]
        slot["armour"].append(card)
        self.pending = None
        h = self.health(target)
        out = [f"{card} armours {slot['royal']} (health {h})."]
        if self.is_invincible(target):
            self.phase = LOSS
            self.loss_reason = f"{slot['royal']} reached health {h} (natural loss)"
            out.append(f"{slot['royal']} can no longer be killed: natural loss.")
            return out
        self.phase = READY
        return out + self._settle()

    def _do_continue(self, args: list[str]) -> list[str]:
        self._need(args, 0, "continue")
        card = self.pending
        if self.phase != PENDING_NUMBER or self.living() or self.place_cells(card):
            raise IllegalMove("You can continue only when the pending card has no legal cell and no royal "
                              "is living (§3).")
        self.cycle.append(card)
        self.pending = None
        self.phase = READY
        return [f"{card} goes to the cycle pile."] + self._search()

    def _do_concede(self, args: list[str]) -> list[str]:
        self._need(args, 0, "concede")
        self.phase = LOSS
        self.loss_reason = "conceded"
        return ["You concede."]

    def _spend(self, kind: str) -> str:
        i = self.unspent(kind)[0]
        self.stash[i]["spent"] = True
        return self.stash[i]["card"]

    def _do_extract(self, args: list[str]) -> list[str]:
        self._need(args, 1, "extract r2c2 (the stack an ace sends to the bottom)")
        cell = parse_cell(args[0])
        if not self.grid[cell]:
            raise IllegalMove(f"{CELLS[cell]} is empty: an Extraction needs a stack to pick up.")
        ace = self._spend("A")
        stack = self.grid[cell]
        self.grid[cell] = []
        self.pile += stack
        self.known += len(stack)
        listed = " ".join(stack) if MEMORY_AID in self.options else f"{len(stack)} card{'s' * (len(stack) != 1)}"
        out = [f"{ace} extracts {CELLS[cell]}: {listed} to the bottom of the draw pile."]
        return out + self._after_ploy()

    def _do_reassign(self, args: list[str]) -> list[str]:
        self._need(args, 2, "reassign r1c1 r2c2 (move the top card of the first cell onto the second)")
        x, y = parse_cell(args[0]), parse_cell(args[1])
        if not self.grid[x]:
            raise IllegalMove(f"{CELLS[x]} is empty: a Reassignment moves a top card.")
        if x == y:
            raise IllegalMove("A Reassignment moves the card to a different cell.")
        card = self.top(x)
        if not self.can_place(card, y):
            raise IllegalMove(f"{card} cannot go on {CELLS[y]}: its top card {self.top(y)} is higher.")
        joker = self._spend("JK")
        self.grid[x].pop()
        self.grid[y].append(card)
        out = [f"{joker} reassigns {card} from {CELLS[x]} to {CELLS[y]}."] + self._fire(y)
        return out + self._after_ploy()

    def _after_ploy(self) -> list[str]:
        if self.phase in (READY, EXHAUSTED):
            self.phase = READY
            return self._settle()
        return []

    # Classic (Old Version) moves.
    def _do_reset(self, args: list[str]) -> list[str]:
        self._need(args, 1, "reset r1c1 (the stack your ace or joker replaces)")
        cell = parse_cell(args[0])
        card = self.pending
        stack = self.grid[cell]
        out = []
        if stack:
            self.pile += stack
            self.known += len(stack)
            listed = " ".join(stack) if MEMORY_AID in self.options else f"{len(stack)} card{'s' * (len(stack) != 1)}"
            out.append(f"Reset {CELLS[cell]}: {listed} to the bottom of the deck.")
        self.grid[cell] = [card]
        self.pending = None
        self.phase = READY
        out.append(f"{card} placed on {CELLS[cell]}.")
        return out + self._fire(cell) + self._settle()

    def _do_hardreset(self, args: list[str]) -> list[str]:
        self._need(args, 1, "hardreset r1c1 (the stack to reset)")
        cell = parse_cell(args[0])
        if not self.grid[cell]:
            raise IllegalMove(f"{CELLS[cell]} is empty: a Hard Reset picks up a stack.")
        card = self.pending
        self.shame.append(card)
        self.pending = None
        stack = self.grid[cell]
        self.grid[cell] = []
        self.pile += stack
        self.known += len(stack)
        listed = " ".join(stack) if MEMORY_AID in self.options else f"{len(stack)} card{'s' * (len(stack) != 1)}"
        self.phase = READY
        out = [f"{card} goes to the shame pile; hard reset of {CELLS[cell]}: {listed} to the bottom of the deck."]
        return out + self._settle()

    def _do_recycle(self, args: list[str]) -> list[str]:
        self._need(args, 1, "recycle r1c1 (the stack that becomes the new deck)")
        cell = parse_cell(args[0])
        if not self.grid[cell]:
            raise IllegalMove(f"{CELLS[cell]} is empty: pick a stack with cards.")
        stack = self.grid[cell]
        self.grid[cell] = []
        top = stack.pop()
        self.shame.append(top)
        self.pile = stack + self.pile
        self.known = len(self.pile)
        self.phase = READY
        n = len(stack)
        out = [(f"Out of cards: {top} from {CELLS[cell]} goes to the shame pile and the other "
                f"{n} card{'s' * (n != 1)} become the deck.")]
        return out + self._settle()

    # ----- resolution ------------------------------------------------------------------
    def _fire(self, cell: int) -> list[str]:
        """Resolve the attacks a landing on ``cell`` triggers (§6), then the win check."""
        out = []
        for s in TRIGGERS[cell]:
            i = SLOT_INDEX[s]
            slot = self.slots[i]
            if not slot["royal"] or slot["dead"]:
                continue
            royal = slot["royal"]
            a, b, _ = LINE[s]
            parts = []
            for c in (a, b):
                top = self.top(c)
                if top is None:
                    parts.append(f"empty {CELLS[c]}")
                elif qualifies(top, royal):
                    parts.append(top)
                else:
                    parts.append(f"{top} (does not count)")
            atk, h = self.attack(i), self.health(i)
            killed = atk >= h
            if killed:
                slot["dead"] = True
            verdict = "killed" if killed else "survives"
            out.append(f"{parts[0]} and {parts[1]} fire at {royal} at {s} ({h}): {atk}, {verdict}.")
        if self.dead_count() == 12:
            self.phase = WIN
            out.append("All 12 royals are dead: you win!")
        return out

    def _settle(self) -> list[str]:
        """The READY checks of §3: win, then an empty pile (EXHAUSTED or a loss)."""
        if self.phase in (WIN, LOSS):
            return []
        if self.dead_count() == 12:
            self.phase = WIN
            return ["All 12 royals are dead: you win!"]
        if self.phase not in (READY, EXHAUSTED):
            return []
        if self.pile:
            self.phase = READY
            return []
        if self.classic:
            if not any(self.grid):
                self.phase = LOSS
                self.loss_reason = "the deck and every cell are empty"
                return ["The deck and the grid are empty: you lose."]
            self.phase = EXHAUSTED
            return ["The deck is empty: choose a stack to become the new deck."]
        usable = self.unspent("A") if REVISED_OLD in self.options else self.unspent()
        if not usable:
            self.phase = LOSS
            what = "unspent ace" if REVISED_OLD in self.options else "unspent ploy"
            self.loss_reason = f"the draw pile ran out with no {what}"
            return [f"The draw pile is empty and you have no {what}: you lose."]
        self.phase = EXHAUSTED
        return ["The draw pile is empty: use a ploy or concede."]

    def _forfeit(self, seat: int) -> list[Event]:
        self.phase = LOSS
        self.loss_reason = "conceded"
        return [Event("The game is lost (conceded).")]

    # ----- results and views ----------------------------------------------------------------
    def score(self) -> int:
        if self.classic:
            return len(self.shame)
        if STASH_ONLY in self.options:
            return len(self.unspent())
        return self.max_ploys - self.spent_count()

    def outcome(self) -> Outcome | None:
        if self.phase not in (WIN, LOSS):
            return None
        details = {
            "kills": self.dead_count(),
            "ploys_spent": self.spent_count(),
            "unspent_in_stash": len(self.unspent()),
        }
        if self.classic:
            details["shame"] = len(self.shame)
        if self.phase == WIN:
            sc = self.score()
            if self.classic:
                summary = f"Won — shame pile {sc} (lower is better)"
            else:
                n = len(self.unspent())
                summary = f"Won — score {sc} ({n} unspent ploy{'s' * (n != 1)} in the stash)"
            return Outcome(winners=(0,), score=sc, summary=summary, details=details)
        details["reason"] = self.loss_reason
        return Outcome(winners=(), score=None, summary="Lost: " + cards.pretty_text(self.loss_reason),
                       details=details)

    def prompt(self) -> str:
        """What the player should do now, in words."""
        ph, c = self.phase, self.pending
        ploys = " or use a ploy" if (not self.classic and self.unspent()) else ""
        if ph == SETUP_ROYALS:
            if DRAW_ORDER in self.options:
                return f"Place {self.set_aside[0]} (setup)."
            return "Place a set-aside royal (setup): " + ", ".join(self.set_aside) + "."
        if ph == SETUP_REPLACE:
            return "Replace one grid card (it goes to the bottom of the deck), or keep the grid."
        if ph == READY:
            return ("Draw (no living royal: the draw is a search)" if not self.living() else "Draw") + ploys + "."
        if ph == PENDING_ROYAL:
            return f"Place {c} at " + " or ".join(self.legal_slots(c)) + ploys + "."
        if ph == PENDING_NUMBER:
            if self.place_cells(c):
                return f"Place {c}{ploys}."
            if not self.living():
                return f"{c} has no legal cell and no royal lives: continue the search{ploys}."
            if self.classic:
                return f"{c} has no legal cell: hard reset a stack or add it as armour."
            if not self._may_armour():
                return f"{c} has no legal cell: use a ploy (Ploys First)."
            return f"{c} has no legal cell: add it as armour{ploys}."
        if ph == PENDING_PLOY:
            return f"Play {c} on a cell: that stack is reset to the bottom of the deck."
        if ph == EXHAUSTED:
            if self.classic:
                return "The deck is empty: pick a stack to become the new deck."
            return "The draw pile is empty: use a ploy or concede."
        out = self.outcome()
        return out.summary if out else ""

    def view(self, seat: int | None) -> dict[str, Any]:
        hidden = self.hidden_cards(seat)
        out = self.outcome()
        grid = []
        for i in range(9):
            st = self.grid[i]
            grid.append({"cell": CELLS[i], "stack": list(st), "top": st[-1] if st else None, "height": len(st)})
        slots = []
        for i, s in enumerate(self.slots):
            if not s["royal"]:
                slots.append({"slot": SLOTS[i], "state": "empty"})
                continue
            slots.append({
                "slot": SLOTS[i],
                "state": "dead" if s["dead"] else "living",
                "royal": s["royal"],
                "base": BASE[s["royal"][0]],
                "armour": list(s["armour"]),
                "health": self.health(i),
                "attack": None if s["dead"] else self.attack(i),
            })
        return {
            "game": self.game_id,
            "players": list(self.players),
            "to_act": sorted(self.to_act()),
            "over": out is not None,
            "outcome": None if out is None else {
                "winners": list(out.winners), "score": out.score, "summary": out.summary,
                "details": dict(out.details)},
            "options": list(self.options),
            "classic": self.classic,
            "phase": self.phase,
            "prompt": _scrub(self.prompt(), hidden),
            "grid": grid,
            "slots": slots,
            "stash": [dict(p) for p in self.stash],
            "set_aside": list(self.set_aside),
            "cycle": list(self.cycle),
            "pending": self.pending,
            "searching": self.searching,
            "deck": len(self.pile),
            "memory": self.memory() if MEMORY_AID in self.options else None,
            "shame": list(self.shame) if self.classic else None,
            "kills": self.dead_count(),
            "living": len(self.living()),
            "ploys_spent": self.spent_count(),
            "unspent_in_stash": len(self.unspent()),
            "max_score": None if self.classic else (len(self.stash) if STASH_ONLY in self.options
                                                    else self.max_ploys),
            "score_so_far": self.score(),
            "events": [_scrub(t, hidden) for t in self.last],
        }

    def hidden_cards(self, seat: int | None) -> set[str]:
        return set(self.hidden_pile())

    def describe(self, seat: int, move: str) -> str:
        t = move.split()
        if not t:
            return move
        verb = t[0]
        p = cards.pretty
        try:
            if verb == "draw":
                return "Search for a royal" if not self.living() else "Draw a card"
            if verb == "place" and self.pending:
                cell = parse_cell(t[1])
                return f"Place {p(self.pending)} on {CELLS[cell]}" + self._fire_note(cell, self.grid)
            if verb == "royal":
                if len(t) == 3:
                    return f"Place {p(_parse_card(t[1]))} at {t[2].upper()}"
                return f"Place {p(self.pending)} at {t[1].upper()}"
            if verb == "armour":
                i = [s["royal"] for s in self.slots].index(_parse_card(t[1]))
                return (f"Armour {p(self.slots[i]['royal'])} with {p(self.pending)} "
                        f"(health {self.health(i) + value(self.pending)})")
            if verb == "extract":
                cell = parse_cell(t[1])
                n = len(self.grid[cell])
                return f"Ace: extract {CELLS[cell]} ({n} card{'s' if n != 1 else ''} to the bottom)"
            if verb == "reassign":
                x, y = parse_cell(t[1]), parse_cell(t[2])
                g = [list(s) for s in self.grid]
                g[y].append(g[x].pop())
                return f"Joker: move {p(self.top(x))} from {CELLS[x]} to {CELLS[y]}" + self._fire_note(y, g)
            if verb == "replace":
                cell = parse_cell(t[1])
                return f"Replace {p(self.top(cell))} on {CELLS[cell]}"
            if verb == "keep":
                return "Keep the grid"
            if verb == "continue":
                return f"Cycle {p(self.pending)} and search on"
            if verb == "concede":
                return "Concede the game"
            if verb == "reset":
                cell = parse_cell(t[1])
                return f"Reset {CELLS[cell]} with {p(self.pending)}" + self._fire_note(cell, self.grid)
            if verb == "hardreset":
                return f"Shame {p(self.pending)}, hard reset {t[1].lower()}"
            if verb == "recycle":
                return f"Make {t[1].lower()} the new deck"
        except (IllegalMove, IndexError, ValueError, KeyError, TypeError):
            return move
        return move

    def _fire_note(self, cell: int, grid: list[list[str]]) -> str:
        live = [SLOT_INDEX[s] for s in TRIGGERS[cell]
                if self.slots[SLOT_INDEX[s]]["royal"] and not self.slots[SLOT_INDEX[s]]["dead"]]
        if not live:
            return ""
        kills = set(self.kills_at(cell, grid))
        names = [cards.pretty(self.slots[i]["royal"]) for i in live]
        if kills:
            return " — kills " + " and ".join(cards.pretty(self.slots[i]["royal"]) for i in sorted(kills))
        return " — fires at " + " and ".join(names)


def _scrub(text: str, hidden: set[str]) -> str:
    """Replace the codes of cards now hidden (sent back into the pile) by "a card"."""
    if not hidden:
        return text
    return _CODE.sub(lambda m: "a card" if m.group(0) in hidden else m.group(0), text)


GAME = GridcannonGame


# ----- the built-in player ---------------------------------------------------------------
def _potential(game: GridcannonGame, grid: list[list[str]]) -> float:
    """How close the living royals are to dying on this grid (0..1 each)."""
    total = 0.0
    for i in game.living():
        total += min(game.attack(i, grid) / game.health(i), 1.0)
    return total


def _slot_score(game: GridcannonGame, royal: str, slot: str) -> float:
    """How easy a royal would be to kill in ``slot`` (higher is easier)."""
    a, b, _ = LINE[slot]
    atk = sum(value(game.top(c)) for c in (a, b) if qualifies(game.top(c), royal))
    return atk / BASE[royal[0]]


def _best_place(game: GridcannonGame, card: str, cells: list[int]) -> tuple[float, int]:
    before = _potential(game, game.grid)
    best: tuple[float, int] | None = None
    for c in cells:
        kills = game.kills_at(c)
        g = [list(s) for s in game.grid]
        g[c].append(card)
        after = _potential(game, g)
        waste = value(card) - value(game.top(c))
        score = 100 * len(kills) + 5 * (after - before) - 0.3 * waste
        if c == CENTRE:
            score += 0.2
        if best is None or score > best[0]:
            best = (score, c)
    assert best is not None
    return best


def _reassign_kills(game: GridcannonGame, move: str) -> int:
    _, x, y = move.split()
    xi, yi = parse_cell(x), parse_cell(y)
    g = [list(s) for s in game.grid]
    g[yi].append(g[xi].pop())
    return len(game.kills_at(yi, g))


def _best_killing_reassign(game: GridcannonGame, moves: list[str]) -> str | None:
    best = max(((_reassign_kills(game, m), m) for m in moves if m.startswith("reassign ")), default=None)
    return best[1] if best and best[0] > 0 else None


def _potential_loss(game: GridcannonGame, cell: int) -> float:
    g = [list(s) for s in game.grid]
    g[cell] = []
    return _potential(game, game.grid) - _potential(game, g)


def auto_move(game: GridcannonGame, seat: int, rng: random.Random) -> str:
    """A built-in player: go for kills, keep ploys for emergencies, seat royals where they die."""
    ph = game.phase
    if ph == READY:
        return "draw"
    if ph == PENDING_NUMBER and game.place_cells(game.pending):
        cells = game.place_cells(game.pending)
        return f"place {CELLS[_best_place(game, game.pending, cells)[1]]}"
    moves = game.legal_moves(seat)
    if game.classic and game.move_count > 600:
        # Classic resets can cycle the deck for ever; past this point play loosely so it ends.
        return rng.choice(moves)
    extracts = [m for m in moves if m.startswith("extract ")]
    has_reassign = any(m.startswith("reassign ") for m in moves)

    def cell_of(m: str) -> int:
        return parse_cell(m.split()[1])

    def cheapest_extract() -> str:
        # Give up the stack that helps the attacks least; a bigger stack refills the deck more.
        return min(extracts, key=lambda m: (_potential_loss(game, cell_of(m)),
                                            -len(game.grid[cell_of(m)]), rng.random()))

    if ph == SETUP_ROYALS:
        pairs = [m.split() for m in moves]
        best = max(pairs, key=lambda t: (_slot_score(game, t[1], t[2]), rng.random()))
        return " ".join(best)
    if ph == SETUP_REPLACE:
        return "keep"
    if ph == PENDING_ROYAL:
        royal_moves = [m for m in moves if m.startswith("royal ")]
        return max(royal_moves, key=lambda m: (_slot_score(game, game.pending, m.split()[1]), rng.random()))
    if ph == PENDING_NUMBER:
        card = game.pending
        cells = game.place_cells(card)
        if cells:
            return f"place {CELLS[_best_place(game, card, cells)[1]]}"
        if "continue" in moves:
            return "continue"
        armours = [m for m in moves if m.startswith("armour ")]
        hard = [m for m in moves if m.startswith("hardreset ")]

        def after(m: str) -> tuple[bool, int]:
            i = [s["royal"] for s in game.slots].index(_parse_card(m.split()[1]))
            trial = game.copy()
            trial.slots[i]["armour"].append(card)
            return trial.is_invincible(i), trial.health(i)

        ranked = sorted(armours, key=after)
        if ranked:
            lose, h = after(ranked[0])
            if not lose and (h <= 17 or not (extracts or has_reassign or hard)):
                return ranked[0]
        kill = _best_killing_reassign(game, moves) if has_reassign else None
        if kill:
            return kill
        if extracts:
            return cheapest_extract()
        if hard:
            return min(hard, key=lambda m: (_potential_loss(game, cell_of(m)), -len(game.grid[cell_of(m)])))
        if ranked:
            return ranked[0]
        return rng.choice(moves)
    if ph == PENDING_PLOY:
        # Kill if possible; else clear the highest card that helps no attack (it blocks placements).
        best = max(range(9), key=lambda c: (100 * len(game.kills_at(c)) + value(game.top(c))
                                            - 30 * _potential_loss(game, c) + 0.1 * len(game.grid[c]),
                                            rng.random()))
        return f"reset {CELLS[best]}"
    if ph == EXHAUSTED:
        if game.classic:
            rec = [m for m in moves if m.startswith("recycle ")]
            return max(rec, key=lambda m: len(game.grid[cell_of(m)]))
        kill = _best_killing_reassign(game, moves) if has_reassign else None
        if kill:
            return kill
        if extracts:
            return max(extracts, key=lambda m: (len(game.grid[cell_of(m)]), -_potential_loss(game, cell_of(m))))
        return "concede"
    return rng.choice(moves)
