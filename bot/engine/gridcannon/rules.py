"""Gridcannon (solo): kill the twelve royals around a 3x3 grid of number cards.

The state machine of the rulebook (``rules.md`` beside this module): Version 2 by default,
every ruling and every named variant as an option. The draw pile is ``pile`` (top card first).
"""

from __future__ import annotations

import marshal
import re
from functools import lru_cache
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from bot.engine import cards
from bot.engine.core import (
    Action,
    Choices,
    Decision,
    Event,
    Game,
    IllegalMove,
    Option,
    Outcome,
)
from bot.engine.options import Options
from bot.engine.words import CardName, Many, Phrase, decode, encode, forget_cards, say, say_n

from . import actions as A
from .board import (
    BASE,
    VALUES,
    CELLS,
    EXHAUSTED,
    LINE,
    LOSS,
    PENDING_NUMBER,
    PENDING_PLOY,
    PENDING_ROYAL,
    PERIMETER,
    PLOY_PHASES,
    READY,
    SETUP_REPLACE,
    SETUP_ROYALS,
    SLOT_INDEX,
    SLOTS,
    TRIGGERS,
    WIN,
    colour,
    is_number,
    is_ploy,
    is_royal,
    p,
    parse_card,
    qualifies,
    suit,
    value,
)
from .options import GridcannonOptions
from .view import CellView, GridcannonView, PloyView, SlotView

CREDIT = "Based on Gridcannon by Tom Francis"

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

# Where the game is, in plain words (the view's ``stage``), and the decision's name.
STAGES = {
    SETUP_ROYALS: (say("setup: royals"), "setup-royal"),
    SETUP_REPLACE: (say("setup: swap"), "setup-replace"),
    READY: (say("draw"), "turn"),
    PENDING_ROYAL: (say("place royal"), "place-royal"),
    PENDING_NUMBER: (say("place card"), "place-card"),
    PENDING_PLOY: (say("reset a stack"), "reset"),
    EXHAUSTED: (say("out of cards"), "out-of-cards"),
    WIN: (say("won"), ""),
    LOSS: (say("lost"), ""),
}
A_CARD = say("a card")  # a card the player no longer knows the place of


def cn(card: str | None) -> CardName | str:
    """A card named in a phrase (``—`` for none)."""
    return CardName(card, p(card)) if card else "—"


def cs(cards_: Iterable[str], joined: str = ", ") -> Many:
    """Cards listed in a phrase (``joined``: ``", "``, ``" "``, ``"and"``, ``"or"``)."""
    return Many([cn(x) for x in cards_], joined)


def n_cards(n: int) -> Phrase:
    return say_n("{n} card", "{n} cards", n=n)


@dataclass
class GridcannonGame(Game):
    game_id: ClassVar[str] = "gridcannon"
    title: ClassVar[str] = "Gridcannon"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    Options: ClassVar[type[GridcannonOptions]] = GridcannonOptions
    state_version: ClassVar[int] = 2
    credit: ClassVar[str] = CREDIT
    summary: ClassVar[str] = SUMMARY

    pile: list[str] = field(default_factory=list)  # draw pile, top card first
    known_bottom: int = 0  # how many bottom cards of the pile the player knowingly sent there
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
    loss_reason: Any = ""  # how the game was lost: a phrase's JSON (an older state: English text)
    last_lines: int = 0  # journal entries the latest move wrote

    @classmethod
    def new(cls, players: Sequence[str], options: Iterable[str] | Options = (), seed: int | None = None,
            deck: Sequence[str] | None = None) -> GridcannonGame:
        """The core's ``new``, given options parsed once per distinct written list (typed options are frozen)."""
        if not isinstance(options, Options):
            written = tuple(options)
            try:
                options = _options(written)
            except TypeError:  # an item that cannot be a dictionary key: the core parses it
                options = written
        return super().new(players, options, seed, deck)  # type: ignore[return-value]

    # ----- options ------------------------------------------------------------------------
    @property
    def variant(self) -> GridcannonOptions:
        """The typed options (parsed once per distinct option list, not once per state copy;
        looked up once per state object, as the core's ``opts``)."""
        held = self.__dict__.get("_variant")
        if held is None:
            held = self.__dict__["_variant"] = _options(tuple(self.options))
        return held

    @property
    def classic(self) -> bool:
        return self.variant.classic

    @property
    def max_ploys(self) -> int:
        return 4 if self.variant.no_jokers else 6

    def full_deck(self) -> list[str]:
        return cards.deck(0 if self.variant.no_jokers else 2)

    # ----- events -------------------------------------------------------------------------
    def _say(self, events: list[Event] | None, text: Phrase) -> None:
        # The core's emit of a public line (no private text, kind, data or reveals), written out.
        # bench: playouts/s — every move says one to a dozen
        if events is not None:
            events.append(Event(text))
        size = self.log_size  # keep the newest ``size`` entries, this one last
        journal = self.journal[1 - size:] if size > 1 else []
        journal.append([encode(text), {}])
        self.journal = journal
        self.last_lines = min(self.last_lines + 1, self.log_size)

    def _to_bottom(self, stack: list[str]) -> None:
        """Cards go to the bottom of the draw pile, in order. Without Memory Aid the player is
        not assumed to remember them: the journal stops naming them (knowledge lost)."""
        self.pile += stack
        self.known_bottom += len(stack)
        self._forget(stack)

    def _forget(self, lost: Sequence[str]) -> None:
        if self.variant.memory_aid or not lost:
            return
        # Both jokers read 🃏: forgetting one forgets every 🃏 (never names a card it should not).
        names = sorted({cards.pretty(c) for c in lost}, key=len, reverse=True)
        pattern = re.compile("|".join(rf"(?<![0-9]){re.escape(n)}" for n in names))

        def rewrite(text: str) -> str:  # a line an older state wrote in English
            return pattern.sub(lambda m: "A card" if m.start() == 0 else "a card", text)

        lost_names = frozenset(names)
        for entry in self.journal:
            if type(entry[0]) is dict:
                entry[0] = encode(forget_cards(decode(entry[0], True), lost_names, A_CARD, True))
            elif entry[0]:
                entry[0] = rewrite(entry[0])

    # ----- setup ------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        full = self.full_deck()
        if deck is None:
            deck = list(full)
            self.rng().shuffle(deck)
        else:
            deck = [_CODES.get(c) or (parse_card(c) if not c.startswith("JK") else c) for c in deck]
            if sorted(deck) != sorted(full):
                raise IllegalMove(say("The deck must hold exactly the {n} cards of this game.", n=len(full)), "deck")
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
        self._say(None, say("Dealt {n} cards.", n=len(drawn)))
        if self.set_aside:
            self._say(None, say("Set aside {cards}.", cards=cs(self.set_aside)))
        if self.stash:
            self._say(None, say("Stash: {cards}.", cards=cs([s["card"] for s in self.stash])))
        self.replaced = self.classic  # the one-off replacement belongs to Version 2 and the Revised Old Version (ruling 23)
        self._advance_setup(None)

    def _advance_setup(self, events: list[Event] | None) -> None:
        """Auto-place forced setup royals; move on to the replacement, then to READY."""
        while self.phase == SETUP_ROYALS:
            if not self.set_aside:
                if self.replaced:
                    self.phase = READY
                    self._settle(events)
                else:
                    self.phase = SETUP_REPLACE
                break
            pairs = self._setup_pairs()
            if len(pairs) != 1:
                break
            royal, slot = pairs[0]
            self.set_aside.remove(royal)
            self._seat(royal, slot)
            self._say(events, say("{royal} placed at {slot} (its only legal slot).", royal=cn(royal), slot=slot))

    def _setup_pairs(self) -> list[tuple[str, str]]:
        royals = self.set_aside[:1] if self.variant.draw_order else self.set_aside
        return [(r, s) for r in royals for s in self.legal_slots(r)]

    # ----- table queries ------------------------------------------------------------
    def top(self, cell: int) -> str | None:
        stack = self.grid[cell]
        return stack[-1] if stack else None

    def living(self) -> list[int]:
        return [i for i, s in enumerate(self.slots) if s["royal"] and not s["dead"]]

    def _any_living(self) -> bool:
        for s in self.slots:
            if s["royal"] and not s["dead"]:
                return True
        return False

    def _ploys_note(self) -> str:
        """The prompt's " or use a ploy" while an unspent ploy may be used (not in Classic)."""
        if self.classic:
            return ""
        for ploy in self.stash:
            if not ploy["spent"]:
                return " or use a ploy"  # (a flag: each prompt has its own message with it)
        return ""

    def dead_count(self) -> int:
        return sum(1 for s in self.slots if s["dead"])

    def health(self, i: int) -> int:
        s = self.slots[i]
        return BASE[s["royal"][0]] + sum(value(c) for c in s["armour"])

    def unspent(self, kind: str | None = None) -> list[int]:
        """Stash indexes of unspent ploys (``kind`` "A" aces, "JK" jokers, None both)."""
        stash = self.stash
        if kind == "A":
            return [i for i, ploy in enumerate(stash) if not ploy["spent"] and not ploy["card"].startswith("JK")]
        if kind == "JK":
            return [i for i, ploy in enumerate(stash) if not ploy["spent"] and ploy["card"].startswith("JK")]
        return [i for i, ploy in enumerate(stash) if not ploy["spent"]]

    def spent_count(self) -> int:
        return sum(1 for ploy in self.stash if ploy["spent"])

    def legal_slots(self, royal: str) -> list[str]:
        """Slots ``royal`` may take now (§4 with rulings 1-3)."""
        free = [i for i, slot in enumerate(self.slots) if slot["royal"] is None]
        eligible = sorted({SLOT_CELL[i] for i in free})  # perimeter cells next to a free slot
        grid = self.grid
        tops = [(c, grid[c][-1]) for c in eligible if grid[c]]
        if not tops:
            cands = eligible
        else:
            # The first tier with a card: same suit as the royal, else same colour, else any.
            rs, rc = suit(royal), colour(royal)
            tier = [ct for ct in tops if suit(ct[1]) == rs] or [ct for ct in tops if colour(ct[1]) == rc] or tops
            best = max([value(t) for _, t in tier])
            cands = [c for c, t in tier if value(t) == best]
        return [SLOTS[i] for i in free if SLOT_CELL[i] in cands]

    def can_place(self, card: str, cell: int) -> bool:
        stack = self.grid[cell]
        return not stack or value(stack[-1]) <= value(card)

    def place_cells(self, card: str) -> list[int]:
        v = VALUES.get(card)
        if v is None:
            v = value(card)
        return [c for c, stack in enumerate(self.grid) if not stack or VALUES.get(stack[-1], v + 1) <= v
                or (stack[-1] not in VALUES and value(stack[-1]) <= v)]

    def armour_targets(self, card: str) -> list[int]:
        """Slot indexes of the royals ``card`` may armour (§7; ties give several)."""
        live = self.living()
        slots = self.slots
        # The first tier with a royal: same suit as the card, else same colour, else any.
        cs, cc = suit(card), colour(card)
        tier = ([i for i in live if suit(slots[i]["royal"]) == cs] or [i for i in live if colour(slots[i]["royal"]) == cc]
                or live)
        if not tier:
            return []
        if self.variant.lowest_health:
            key = {i: self.health(i) for i in tier}
        else:
            key = {i: BASE[slots[i]["royal"][0]] for i in tier}
        low = min(key.values())
        return [i for i in tier if key[i] == low]

    def attack(self, slot: int, grid: list[list[str]] | None = None) -> int:
        """The attack the slot's two attacker cells make on its royal now."""
        g = self.grid if grid is None else grid
        royal = self.slots[slot]["royal"]
        total = 0
        for cell in ATTACKERS[slot]:
            top = g[cell][-1] if g[cell] else None
            if qualifies(top, royal):
                total += value(top)
        return total

    def kills_at(self, cell: int, grid: list[list[str]] | None = None) -> list[int]:
        """Living royals a landing on ``cell`` would kill (the landing card never counts)."""
        out = []
        for i in TRIGGERED[cell]:
            slot = self.slots[i]
            if slot["royal"] and not slot["dead"] and self.attack(i, grid) >= self.health(i):
                out.append(i)
        return out

    def is_invincible(self, i: int) -> bool:
        """The natural-loss test of §7 (and the Source Thresholds / Exact variants)."""
        royal = self.slots[i]["royal"]
        h = self.health(i)
        if self.variant.exact:
            locked = {c for s in self.slots for c in s["armour"]} | set(self.shame)
            vals = sorted(
                (value(c) for c in self.full_deck()
                 if c not in locked and qualifies(c, royal)
                 and (is_number(c) or (self.classic and c[0] == "A"))),
                reverse=True,
            )
            return sum(vals[:2]) < h
        if self.variant.source_thresholds:
            return h >= (19 if royal[0] == "K" else 20)
        return h >= (20 if royal[0] == "K" else 21)

    def hidden_pile(self) -> list[str]:
        """Pile cards the player does not see listed (all of them without Memory Aid)."""
        if self.variant.memory_aid:
            return self.pile[: len(self.pile) - self.known_bottom]
        return list(self.pile)

    def memory(self) -> list[str]:
        return self.pile[len(self.pile) - self.known_bottom:] if self.known_bottom else []

    def _may_armour(self) -> bool:
        """Armour is allowed (Ploys First: only with no unspent ploy in the stash; the ploys not yet
        drawn count for the score, not here: ruling 24)."""
        return not (self.variant.ploys_first and not self.classic and self.unspent())

    # ----- who acts -----------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        phase = self.phase
        if phase in (WIN, LOSS):
            return ()
        # The prompt is written afresh at every ask (a state changed in place never gets an old
        # answer); the frozen decision made of it is shared.
        return (Decision(0, STAGES[phase][1], public=True, default=None, prompt=self.prompt()),)

    def apply(self, seat: int, action: Action | str) -> tuple[GridcannonGame, list[Event]]:
        """The core's ``apply`` (the same checks, refusals and result; a test holds them equal),
        without the decisions before the move, which only ``_reopen`` reads and a solo game's does
        not (its one seat is always the mover)."""
        action = self._checked(seat, action)
        new = self.copy()
        events = new._apply(seat, action)
        new.move_count += 1
        new._reopen((), seat)
        new.__dict__["_held"] = {}  # finished: see _kept
        return new, events

    # A state that ``apply``, ``forfeit`` or ``from_json`` hands out is never changed again (the
    # next move changes a copy), so the part of its view that is the same for every recipient
    # is made once. A state being built (``new``, ``copy``, a test's position, a move being
    # applied) keeps nothing. bench: CPU per interaction — a press asks the view of one state several times
    def forfeit(self, seat: int) -> tuple[GridcannonGame, list[Event]]:
        new, events = super().forfeit(seat)
        new.__dict__["_held"] = {}
        return new, events  # type: ignore[return-value]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GridcannonGame:
        game = super().from_json(data)
        game.__dict__["_held"] = {}
        return game  # type: ignore[return-value]

    def _kept(self, key: Any, make: Any) -> Any:
        """``make()``, kept under ``key`` when this state is finished."""
        held = self.__dict__.get("_held")
        if held is None:
            return make()
        found = held.get(key)
        if found is None:
            found = held[key] = make()
        return found

    def is_over(self) -> bool:
        return self.phase in (WIN, LOSS)  # exactly when ``outcome`` is not None

    def to_act(self) -> frozenset[int]:
        return _NOBODY if self.phase in (WIN, LOSS) else _SOLO

    def _reopen(self, before: tuple[Decision, ...], mover: int | None) -> None:
        """The core's rule for one seat: an open decision is always the mover's (seat 0), so it
        opens at this move; a finished game has none."""
        self.opened = {} if self.phase in (WIN, LOSS) else {"0": self.move_count}

    # ----- actions: the legal token lists, choices, parse ---------------------------------
    def _token_lists(self, verb: str | None = None, source: str | None = None) -> Iterator[tuple[str, ...]]:
        """Every legal action as tokens, in the order the table lists them (only ``verb``'s;
        for a reassignment, only those from ``source``). The cell actions' token lists are made
        once (module tables), not once per listing."""
        ph, pend, grid = self.phase, self.pending, self.grid
        every = verb is None
        if ph == SETUP_ROYALS:
            if every or verb == "royal":
                for r, s in self._setup_pairs():
                    yield ("royal", r, s)
        elif ph == SETUP_REPLACE:
            if every or verb == "replace":
                for c in range(9):
                    if grid[c]:
                        yield _ON_CELL["replace"][c]
            if every or verb == "keep":
                yield _KEEP
        elif ph == READY:
            if every or verb == "draw":
                yield _DRAW
        elif ph == PENDING_ROYAL:
            if every or verb == "royal":
                for s in self.legal_slots(pend):
                    yield ("royal", s)
        elif ph == PENDING_NUMBER:
            if verb not in ("extract", "reassign"):
                places = self.place_cells(pend)
                if every or verb == "place":
                    row = _ON_CELL["place"]
                    for c in places:
                        yield row[c]
                if places:
                    pass
                elif self.living():
                    if (every or verb == "armour") and self._may_armour():
                        for i in self.armour_targets(pend):
                            yield ("armour", self.slots[i]["royal"])
                    if (every or verb == "hardreset") and self.classic:
                        for c in range(9):
                            if grid[c]:
                                yield _ON_CELL["hardreset"][c]
                elif every or verb == "continue":
                    yield _CONTINUE
        elif ph == PENDING_PLOY:
            if every or verb == "reset":
                yield from _ON_CELL["reset"]
        elif ph == EXHAUSTED:
            if self.classic:
                if every or verb == "recycle":
                    for c in range(9):
                        if grid[c]:
                            yield _ON_CELL["recycle"][c]
            elif every or verb == "concede":
                yield _CONCEDE
        if ph in PLOY_PHASES and (every or verb == "extract" or verb == "reassign") and not self.classic:
            aces = jokers = False
            for ploy in self.stash:
                if not ploy["spent"]:
                    if ploy["card"].startswith("JK"):
                        jokers = True
                    else:
                        aces = True
            if aces and (every or verb == "extract"):
                row = _ON_CELL["extract"]
                for c in range(9):
                    if grid[c]:
                        yield row[c]
            if jokers and (every or verb == "reassign"):
                # A top card may move onto any other cell whose top is no higher (or empty).
                tops = [value(st[-1]) if st else None for st in grid]
                for x in (range(9) if source is None else [c for c in range(9) if CELLS[c] == source]):
                    v = tops[x]
                    if v is None:
                        continue
                    row = _REASSIGN[x]
                    for y in range(9):
                        w = tops[y]
                        if y != x and (w is None or w <= v):
                            yield row[y]

    def legal_actions(self, seat: int) -> Iterator[Action]:
        """Every legal action (what walking :meth:`choices` gives, without the labels)."""
        if seat == 0 and not self.is_over():
            for tokens in self._token_lists():
                yield _written(tokens)[0]

    def legal_moves(self, seat: int) -> list[str]:
        if seat != 0 or self.is_over():
            return []
        notes = _NOTES
        return [notes.get(tokens) or _written(tokens)[1] for tokens in self._token_lists()]

    def choices(self, seat: int, prefix: Sequence[str] = ()) -> Choices:
        if seat != 0 or self.is_over():
            return Choices()
        prefix = tuple(prefix)
        n = len(prefix)
        # The core's choices_from_actions over the legal token lists (the next tokens in first-seen
        # order, each labelled once; complete when the prefix is itself an action), written out
        # with the first step's button styles. bench: playouts/s — every step of every move
        nxt: dict[str, None] = {}
        complete = False
        for tokens in self._token_lists(prefix[0] if n else None, prefix[1] if n > 1 else None):
            if n and tokens[:n] != prefix:
                continue
            if len(tokens) == n:
                complete = True
            else:
                nxt[tokens[n]] = None
        label = self._label
        if n:
            options = tuple([Option(tok, *label((*prefix, tok))) for tok in nxt])
            return Choices("token", options, prompt="", complete=complete)
        options = tuple([Option(tok, *label((tok,)), _STYLE.get(tok, "")) for tok in nxt])
        return Choices("token", options, prompt=self.decisions()[0].prompt, complete=complete)

    def _label(self, tk: tuple[str, ...]) -> tuple[str, Any]:
        """Plain words (and typed data) for the last token of ``tk``; a whole action's label
        is the one its last token gets."""
        verb, n = tk[0], len(tk)
        pend = self.pending
        cell = CELLS.index(tk[-1]) if n > 1 and tk[-1] in CELLS else None
        if verb == "draw":
            found = say("Search for a royal") if not self.living() else say("Draw a card")
            return found, None
        if verb == "place":
            if n == 1:
                return say("Place {card}", card=cn(pend)), pend
            found = say("Place {card} on {cell}", card=cn(pend), cell=tk[1])
            return self._fire_note(found, cell, self.grid), tk[1]
        if verb == "royal":
            if n == 1:
                found = say("Place a set-aside royal") if self.phase == SETUP_ROYALS else say("Place {card}", card=cn(pend))
                return found, None
            if self.phase == SETUP_ROYALS:
                if n == 2:
                    return say("Place {card}", card=cn(tk[1])), tk[1]
                return say("Place {card} at {slot}", card=cn(tk[1]), slot=tk[2]), tk[2]
            return say("Place {card} at {slot}", card=cn(pend), slot=tk[1]), tk[1]
        if verb == "armour":
            if n == 1:
                return say("Armour a royal with {card}", card=cn(pend)), pend
            i = [s["royal"] for s in self.slots].index(tk[1])
            return say("Armour {royal} with {card} (health {health})", royal=cn(tk[1]), card=cn(pend),
                       health=self.health(i) + value(pend)), tk[1]
        if verb == "extract":
            if n == 1:
                return say("Ace: extract a stack"), None
            k = len(self.grid[cell])
            return say_n("Ace: extract {cell} ({n} card to the bottom)", "Ace: extract {cell} ({n} cards to the bottom)",
                         cell=tk[1], n=k), tk[1]
        if verb == "reassign":
            if n == 1:
                return say("Joker: move a top card"), None
            x = CELLS.index(tk[1])
            if n == 2:
                return say("Joker: move {card} from {cell}", card=cn(self.top(x)), cell=tk[1]), tk[1]
            g = [list(s) for s in self.grid]
            g[cell].append(g[x].pop())
            found = say("Joker: move {card} from {source} to {target}", card=cn(self.top(x)), source=tk[1], target=tk[2])
            return self._fire_note(found, cell, g), tk[2]
        if verb == "replace":
            if n == 1:
                return say("Replace one grid card"), None
            return say("Replace {card} on {cell}", card=cn(self.top(cell)), cell=tk[1]), tk[1]
        if verb == "keep":
            return say("Keep the grid"), None
        if verb == "continue":
            return say("Cycle {card} and search on", card=cn(pend)), pend
        if verb == "concede":
            return say("Concede the game"), None
        if verb == "reset":
            if n == 1:
                return say("Play {card} on a cell", card=cn(pend)), pend
            found = say("Reset {cell} with {card}", cell=tk[1], card=cn(pend))
            return self._fire_note(found, cell, self.grid), tk[1]
        if verb == "hardreset":
            if n == 1:
                return say("Shame {card} and hard reset a stack", card=cn(pend)), pend
            return say("Shame {card}, hard reset {cell}", card=cn(pend), cell=tk[1]), tk[1]
        if verb == "recycle":
            if n == 1:
                return say("Make a stack the new deck"), None
            return say("Make {cell} the new deck", cell=tk[1]), tk[1]
        return " ".join(tk), None  # pragma: no cover - every verb is labelled above

    def _fire_note(self, label: Phrase, cell: int, grid: list[list[str]]) -> Phrase:
        """``label`` with what the landing does: " — kills K♥" / " — fires at K♥ and Q♠"."""
        live = [SLOT_INDEX[s] for s in TRIGGERS[cell]
                if self.slots[SLOT_INDEX[s]]["royal"] and not self.slots[SLOT_INDEX[s]]["dead"]]
        if not live:
            return label
        kills = set(self.kills_at(cell, grid))
        if kills:
            return say("{label} — kills {royals}", label=label,
                       royals=Many([cn(self.slots[i]["royal"]) for i in sorted(kills)], " and "))
        return say("{label} — fires at {royals}", label=label,
                   royals=Many([cn(self.slots[i]["royal"]) for i in live], " and "))

    def parse(self, seat: int, text: str) -> Action:
        try:
            return _parse(text, self.phase == SETUP_ROYALS)
        except IllegalMove as e:
            if e.reason.startswith("Unknown move"):
                raise IllegalMove(say("{reason} {prompt}", reason=e.reason, prompt=self.prompt()), "parse") from None
            raise

    # ----- apply ------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        verb = action.verb
        if not (self.phase == PENDING_NUMBER and verb in ("place", "armour", "continue")) and not self._offers(verb):
            raise IllegalMove(self._not_now(verb), "now")
        events: list[Event] = []
        self.last_lines = 0
        handler = _HANDLERS[type(action)]
        handler(self, action, events)
        return events

    def _offers(self, verb: str) -> bool:
        """Whether a legal action of ``verb`` exists now (a draw: exactly when READY)."""
        if verb == "draw":
            return self.phase == READY
        return next(self._token_lists(verb), None) is not None

    def _not_now(self, verb: str) -> Phrase:
        if verb in ("extract", "reassign") and self.phase in PLOY_PHASES and not self.classic:
            if verb == "extract":
                return say("You have no unspent ace (or no stack to use it on). {prompt}", prompt=self.prompt())
            return say("You have no unspent joker (or no stack to use it on). {prompt}", prompt=self.prompt())
        doing = {"royal": say("place a royal"), "hardreset": say("hard-reset a stack"), "reset": say("reset a stack"),
                 "recycle": say("recycle a stack"), "extract": say("extract a stack"),
                 "reassign": say("move a top card"), "replace": say("replace a grid card"),
                 "keep": say("keep the grid"), "place": say("place a card"), "armour": say("add armour"),
                 "continue": say("continue"), "concede": say("concede")}.get(verb, verb)
        return say("You cannot {doing} now. {prompt}", doing=doing, prompt=self.prompt())

    # ----- moves ---------------------------------------------------------------------
    def _do_royal(self, a: A.PlaceRoyal, ev: list[Event]) -> None:
        if self.phase == SETUP_ROYALS:
            if a.royal is None:
                raise IllegalMove(say("Write it as: {usage}.", usage=A.SETUP_ROYAL_USAGE), "parse")
            royal, slot = a.royal, a.slot
            if royal not in self.set_aside:
                raise IllegalMove(say("{royal} is not among the set-aside royals ({cards}).", royal=cn(royal),
                                      cards=cs(self.set_aside)), "setup")
            if self.variant.draw_order and royal != self.set_aside[0]:
                raise IllegalMove(say("Draw Order: place {royal} first (royals go in the order drawn).",
                                      royal=cn(self.set_aside[0])), "R17")
            legal = self.legal_slots(royal)
            if slot not in legal:
                raise IllegalMove(say("{royal} cannot go to {slot}: by the placement rule it may go to {slots} "
                                      "(see /game rules section: Setup).", royal=cn(royal), slot=slot,
                                      slots=Many(legal, ", ")), "placement")
            self.set_aside.remove(royal)
            self._seat(royal, slot)
            self._say(ev, say("{royal} placed at {slot}.", royal=cn(royal), slot=slot))
            self._advance_setup(ev)
            return
        if a.royal is not None:
            raise IllegalMove(say("Write it as: {usage}.", usage=A.ROYAL_USAGE), "parse")
        royal, slot = self.pending, a.slot
        legal = self.legal_slots(royal)
        if slot not in legal:
            raise IllegalMove(say("{royal} cannot go to {slot}: by the placement rule it may go to {slots} "
                                  "(see /game rules section: Setup).", royal=cn(royal), slot=slot,
                                  slots=Many(legal, ", ")), "placement")
        self._seat(royal, slot)
        self.pending = None
        self._say(ev, say("{royal} placed at {slot}.", royal=cn(royal), slot=slot))
        if self.searching:
            self.searching = False
            if self.cycle:
                n = len(self.cycle)
                listed = cs(self.cycle, " ") if self.variant.memory_aid else n_cards(n)
                back, self.cycle = self.cycle, []
                self._to_bottom(back)
                self._say(ev, say("The cycle pile ({cards}) goes to the bottom of the draw pile.", cards=listed))
        self.phase = READY
        self._settle(ev)

    def _seat(self, royal: str, slot: str) -> None:
        self.slots[SLOT_INDEX[slot]] = {"royal": royal, "armour": [], "dead": False}

    def _do_replace(self, a: A.Replace, ev: list[Event]) -> None:
        cell = a.cell
        if not self.grid[cell]:
            raise IllegalMove(say("Cell {cell} is empty: pick a cell with a card.", cell=CELLS[cell]), "setup")
        old = self.grid[cell].pop()
        self._to_bottom([old])
        what = cn(old) if self.variant.memory_aid else say("The card")
        self._say(ev, say("{card} from {cell} goes to the bottom of the draw pile.", card=what, cell=CELLS[cell]))
        met = []
        while self.pile:
            card = self._draw_one()
            if is_royal(card):
                self.set_aside.append(card)
                met.append(say("{card} set aside", card=cn(card)))
            elif is_ploy(card):
                self.stash.append({"card": card, "spent": False})
                met.append(say("{card} to the stash", card=cn(card)))
            else:
                self.grid[cell].append(card)
                met.append(say("{card} fills {cell}", card=cn(card), cell=CELLS[cell]))
                break
        self._say(ev, say("Drew: {cards}.", cards=Many(met, "; ")))
        self.replaced = True
        self.phase = SETUP_ROYALS
        self._advance_setup(ev)

    def _do_keep(self, a: A.Keep, ev: list[Event]) -> None:
        self.replaced = True
        self.phase = SETUP_ROYALS
        self._say(ev, say("You keep the grid as dealt."))
        self._advance_setup(ev)

    def _draw_one(self) -> str:
        card = self.pile.pop(0)
        self.known_bottom = min(self.known_bottom, len(self.pile))
        return card

    def _do_draw(self, a: A.Draw, ev: list[Event]) -> None:
        if not self._any_living():
            self._search(ev)
            return
        card = self._draw_one()
        if is_royal(card):
            self.pending = card
            self.phase = PENDING_ROYAL
            self._say(ev, say("Drew {card}: place it at {slots}.", card=cn(card), slots=Many(self.legal_slots(card), " or ")))
            return
        if is_ploy(card):
            if self.classic:
                self.pending = card
                self.phase = PENDING_PLOY
                self._say(ev, say("Drew {card}: it resets a stack of your choice and takes its place.", card=cn(card)))
                return
            self.stash.append({"card": card, "spent": False})
            self._say(ev, say("Drew {card}: it goes to your stash.", card=cn(card)))
            self._settle(ev)
            return
        self.pending = card
        self.phase = PENDING_NUMBER
        self._say(ev, say("Drew {card}.", card=cn(card)))

    def _search(self, ev: list[Event]) -> None:
        """§8: draw until a royal turns up; the rest goes on the cycle pile."""
        passed: list[str] = []
        kept: list[str] = []
        while self.pile:
            card = self._draw_one()
            if is_royal(card):
                self.pending = card
                self.phase = PENDING_ROYAL
                self.searching = True
                self._say(ev, say("No living royal: searching."))
                if passed:
                    self._say(ev, say("Cycled {cards}.", cards=cs(passed, " ")))
                if kept:
                    self._say(ev, say("Kept in the stash: {cards}.", cards=cs(kept, " ")))
                self._say(ev, say("Found {card}: place it at {slots}.", card=cn(card),
                                  slots=Many(self.legal_slots(card), " or ")))
                return
            if is_ploy(card) and self.variant.keep_ploys and not self.classic:
                self.stash.append({"card": card, "spent": False})
                kept.append(card)
            else:
                self.cycle.append(card)
                passed.append(card)
        # Unreachable while the rules hold (every unplaced royal is in the pile); stay safe.
        self.pile, self.cycle = self.cycle, []
        self.known_bottom = len(self.pile)
        self._forget(self.pile)
        self.phase = READY
        self._say(ev, say("The search found no royal."))
        self._settle(ev)

    def _do_place(self, a: A.Place, ev: list[Event]) -> None:
        if self.phase != PENDING_NUMBER:
            raise IllegalMove(self._not_now("place"), "now")
        cell, card = a.cell, self.pending
        if not self.can_place(card, cell):
            raise IllegalMove(say("{card} cannot go on {cell}: its top card {top} is higher (a card goes on an equal "
                                  "or lower card, or an empty cell).", card=cn(card), cell=CELLS[cell],
                                  top=cn(self.top(cell))), "placement")
        self.grid[cell].append(card)
        self.pending = None
        self.phase = READY
        self._say(ev, say("{card} placed on {cell}.", card=cn(card), cell=CELLS[cell]))
        self._fire(cell, ev)
        self._settle(ev)

    def _do_armour(self, a: A.Armour, ev: list[Event]) -> None:
        if self.phase != PENDING_NUMBER:
            raise IllegalMove(self._not_now("armour"), "now")
        card = self.pending
        places = self.place_cells(card)
        if places:
            raise IllegalMove(say("{card} can be placed (on {cells}), so it cannot be armour: armour is only for a "
                                  "card with no legal cell.", card=cn(card), cells=Many([CELLS[x] for x in places])),
                              "armour")
        if not self.living():
            raise IllegalMove(say("No royal is living, so there is nothing to armour: use a ploy or continue."), "armour")
        if not self._may_armour():
            raise IllegalMove(say("Ploys First: spend the unspent ploys in your stash before adding armour."), "R10")
        targets = self.armour_targets(card)
        names = [self.slots[i]["royal"] for i in targets]
        if a.royal not in names:
            raise IllegalMove(say("{card} cannot armour {royal}: by the armour rule it goes to {royals} (see /game "
                                  "rules section: The turn).", card=cn(card), royal=cn(a.royal),
                                  royals=Many([cn(x) for x in names], " or ")), "R9")
        target = targets[names.index(a.royal)]
        slot = self.slots[target]
        slot["armour"].append(card)
        self.pending = None
        h = self.health(target)
        self._say(ev, say("{card} armours {royal} (health {health}).", card=cn(card), royal=cn(slot["royal"]), health=h))
        if self.is_invincible(target):
            self.phase = LOSS
            self.loss_reason = encode(say("{royal} reached health {health} (natural loss)", royal=cn(slot["royal"]),
                                          health=h))
            self._say(ev, say("{royal} can no longer be killed: natural loss.", royal=cn(slot["royal"])))
            return
        self.phase = READY
        self._settle(ev)

    def _do_continue(self, a: A.Continue, ev: list[Event]) -> None:
        card = self.pending
        if self.phase != PENDING_NUMBER or self.living() or self.place_cells(card):
            raise IllegalMove(say("You can continue only when the pending card has no legal cell and no royal "
                                  "is living."), "continue")
        self.cycle.append(card)
        self.pending = None
        self.phase = READY
        self._say(ev, say("{card} goes to the cycle pile.", card=cn(card)))
        self._search(ev)

    def _do_concede(self, a: A.Concede, ev: list[Event]) -> None:
        self.phase = LOSS
        self.loss_reason = encode(say("conceded"))
        self._say(ev, say("You concede."))

    def _spend(self, kind: str) -> str:
        i = self.unspent(kind)[0]
        self.stash[i]["spent"] = True
        return self.stash[i]["card"]

    def _do_extract(self, a: A.Extract, ev: list[Event]) -> None:
        cell = a.cell
        if not self.grid[cell]:
            raise IllegalMove(say("Cell {cell} is empty: an Extraction needs a stack to pick up.", cell=CELLS[cell]), "R14")
        ace = self._spend("A")
        stack = self.grid[cell]
        self.grid[cell] = []
        listed = cs(stack, " ") if self.variant.memory_aid else n_cards(len(stack))
        self._to_bottom(stack)
        self._say(ev, say("{ace} extracts {cell}: {cards} to the bottom of the draw pile.", ace=cn(ace), cell=CELLS[cell],
                          cards=listed))
        self._after_ploy(ev)

    def _do_reassign(self, a: A.Reassign, ev: list[Event]) -> None:
        x, y = a.source, a.target
        if not self.grid[x]:
            raise IllegalMove(say("Cell {cell} is empty: a Reassignment moves a top card.", cell=CELLS[x]), "R13")
        if x == y:
            raise IllegalMove(say("A Reassignment moves the card to a different cell."), "R13")
        card = self.top(x)
        if not self.can_place(card, y):
            raise IllegalMove(say("{card} cannot go on {cell}: its top card {top} is higher.", card=cn(card), cell=CELLS[y],
                                  top=cn(self.top(y))), "R13")
        joker = self._spend("JK")
        self.grid[x].pop()
        self.grid[y].append(card)
        self._say(ev, say("{joker} reassigns {card} from {source} to {target}.", joker=cn(joker), card=cn(card),
                          source=CELLS[x], target=CELLS[y]))
        self._fire(y, ev)
        self._after_ploy(ev)

    def _after_ploy(self, ev: list[Event]) -> None:
        if self.phase in (READY, EXHAUSTED):
            self.phase = READY
            self._settle(ev)

    # Classic (Old Version) moves.
    def _do_reset(self, a: A.Reset, ev: list[Event]) -> None:
        cell, card = a.cell, self.pending
        stack = self.grid[cell]
        if stack:
            listed = cs(stack, " ") if self.variant.memory_aid else n_cards(len(stack))
            self._to_bottom(stack)
            self._say(ev, say("Reset {cell}: {cards} to the bottom of the deck.", cell=CELLS[cell], cards=listed))
        self.grid[cell] = [card]
        self.pending = None
        self.phase = READY
        self._say(ev, say("{card} placed on {cell}.", card=cn(card), cell=CELLS[cell]))
        self._fire(cell, ev)
        self._settle(ev)

    def _do_hardreset(self, a: A.HardReset, ev: list[Event]) -> None:
        cell = a.cell
        if not self.grid[cell]:
            raise IllegalMove(say("Cell {cell} is empty: a Hard Reset picks up a stack.", cell=CELLS[cell]), "classic")
        card = self.pending
        self.shame.append(card)
        self.pending = None
        stack = self.grid[cell]
        self.grid[cell] = []
        listed = cs(stack, " ") if self.variant.memory_aid else n_cards(len(stack))
        self._to_bottom(stack)
        self.phase = READY
        self._say(ev, say("{card} goes to the shame pile; hard reset of {cell}: {cards} to the bottom of the deck.",
                          card=cn(card), cell=CELLS[cell], cards=listed))
        self._settle(ev)

    def _do_recycle(self, a: A.Recycle, ev: list[Event]) -> None:
        cell = a.cell
        if not self.grid[cell]:
            raise IllegalMove(say("Cell {cell} is empty: pick a stack with cards.", cell=CELLS[cell]), "classic")
        stack = self.grid[cell]
        self.grid[cell] = []
        top = stack.pop()
        self.shame.append(top)
        self.pile = stack + self.pile
        self.known_bottom = len(self.pile)
        self._forget(stack)
        self.phase = READY
        self._say(ev, say_n("Out of cards: {card} from {cell} goes to the shame pile and the other {n} card becomes "
                            "the deck.", "Out of cards: {card} from {cell} goes to the shame pile and the other {n} cards "
                            "become the deck.", card=cn(top), cell=CELLS[cell], n=len(stack)))
        self._settle(ev)

    # ----- resolution ------------------------------------------------------------------
    def _fire(self, cell: int, ev: list[Event]) -> None:
        """Resolve the attacks a landing on ``cell`` triggers (§6), then the win check."""
        grid, slots = self.grid, self.slots
        for i in TRIGGERED[cell]:
            slot = slots[i]
            royal = slot["royal"]
            if not royal or slot["dead"]:
                continue
            s = SLOTS[i]
            parts = []
            atk = 0  # the attack (``attack(i)``), summed as the line is written
            for c in ATTACKERS[i]:
                stack = grid[c]
                if not stack:
                    parts.append(say("empty {cell}", cell=CELLS[c]))
                    continue
                top = stack[-1]
                if qualifies(top, royal):
                    parts.append(cn(top))
                    atk += value(top)
                else:
                    parts.append(say("{card} (does not count)", card=cn(top)))
            h = self.health(i)
            killed = atk >= h
            if killed:
                slot["dead"] = True
            args = dict(first=parts[0], second=parts[1], royal=cn(royal), slot=s, health=h, attack=atk)
            if killed:
                line = say("{first} and {second} fire at {royal} at {slot} ({health}): {attack}, killed.", **args)
            else:
                line = say("{first} and {second} fire at {royal} at {slot} ({health}): {attack}, survives.", **args)
            self._say(ev, Phrase(line.msgid, None, line.args, True))  # "Empty r1c3 and …"
        if self.dead_count() == 12:
            self.phase = WIN
            self._say(ev, say("All 12 royals are dead: you win!"))

    def _settle(self, ev: list[Event] | None) -> None:
        """The READY checks of §3: win, then an empty pile (EXHAUSTED or a loss)."""
        if self.phase in (WIN, LOSS):
            return
        if self.dead_count() == 12:
            self.phase = WIN
            self._say(ev, say("All 12 royals are dead: you win!"))
            return
        if self.phase not in (READY, EXHAUSTED):
            return
        if self.pile:
            self.phase = READY
            return
        if self.classic:
            if not any(self.grid):
                self.phase = LOSS
                self.loss_reason = encode(say("the deck and every cell are empty"))
                self._say(ev, say("The deck and the grid are empty: you lose."))
                return
            self.phase = EXHAUSTED
            self._say(ev, say("The deck is empty: choose a stack to become the new deck."))
            return
        usable = self.unspent("A") if self.variant.revised_old else self.unspent()
        if not usable:
            self.phase = LOSS
            if self.variant.revised_old:
                self.loss_reason = encode(say("the draw pile ran out with no unspent ace"))
                self._say(ev, say("The draw pile is empty and you have no unspent ace: you lose."))
            else:
                self.loss_reason = encode(say("the draw pile ran out with no unspent ploy"))
                self._say(ev, say("The draw pile is empty and you have no unspent ploy: you lose."))
            return
        self.phase = EXHAUSTED
        self._say(ev, say("The draw pile is empty: use a ploy or concede."))

    def _forfeit(self, seat: int) -> list[Event]:
        self.phase = LOSS
        self.loss_reason = encode(say("conceded"))
        events: list[Event] = []
        self.last_lines = 1  # the core's "… forfeits." line
        self._say(events, say("The game is lost (conceded)."))
        return events

    # ----- results ----------------------------------------------------------------
    def score(self) -> int:
        if self.classic:
            return len(self.shame)
        if self.variant.stash_only:
            return len(self.unspent())
        return self.max_ploys - self.spent_count()

    def outcome(self) -> Outcome | None:
        if self.phase not in (WIN, LOSS):
            return None
        details: dict[str, Any] = {
            "kills": self.dead_count(),
            "ploys_spent": self.spent_count(),
            "unspent_in_stash": len(self.unspent()),
        }
        if self.classic:
            details["shame"] = len(self.shame)
        if self.phase == WIN:
            sc = self.score()
            if self.classic:
                summary = say("Won — shame pile {score} (lower is better)", score=sc)
            else:
                summary = say_n("Won — score {score} ({n} unspent ploy in the stash)",
                                "Won — score {score} ({n} unspent ploys in the stash)", score=sc, n=len(self.unspent()))
            return Outcome(winners=(0,), score=sc, summary=summary, details=details)
        reason = decode(self.loss_reason)
        details["reason"] = str(reason)
        return Outcome(winners=(), score=None, summary=say("Lost: {reason}", reason=reason), details=details)

    def prompt(self) -> str:
        """What the player should do now, in plain words."""
        ph, pend = self.phase, self.pending
        ploy = bool(self._ploys_note())
        card = cn(pend)
        if ph == READY:
            if not self._any_living():
                return say("Draw (no living royal: the draw is a search) or use a ploy.") if ploy else \
                    say("Draw (no living royal: the draw is a search).")
            return say("Draw or use a ploy.") if ploy else say("Draw.")
        if ph == PENDING_NUMBER:
            if self.place_cells(pend):
                return say("Place {card} or use a ploy.", card=card) if ploy else say("Place {card}.", card=card)
            if not self._any_living():
                return say("{card} has no legal cell and no royal lives: continue the search or use a ploy.",
                           card=card) if ploy else \
                    say("{card} has no legal cell and no royal lives: continue the search.", card=card)
            if self.classic:
                return say("{card} has no legal cell: hard reset a stack or add it as armour.", card=card)
            if not self._may_armour():
                return say("{card} has no legal cell: use a ploy from your stash (Ploys First).", card=card)
            return say("{card} has no legal cell: add it as armour or use a ploy.", card=card) if ploy else \
                say("{card} has no legal cell: add it as armour.", card=card)
        if ph == PENDING_ROYAL:
            slots = Many(self.legal_slots(pend), " or ")
            return say("Place {card} at {slots} or use a ploy.", card=card, slots=slots) if ploy else \
                say("Place {card} at {slots}.", card=card, slots=slots)
        if ph == SETUP_ROYALS:
            if self.variant.draw_order:
                return say("Place {card} (setup).", card=cn(self.set_aside[0]))
            return say("Place a set-aside royal (setup): {cards}.", cards=cs(self.set_aside))
        if ph == SETUP_REPLACE:
            return say("Replace one grid card (it goes to the bottom of the deck), or keep the grid.")
        if ph == PENDING_PLOY:
            return say("Play {card} on a cell: that stack is reset to the bottom of the deck.", card=card)
        if ph == EXHAUSTED:
            if self.classic:
                return say("The deck is empty: pick a stack to become the new deck.")
            return say("The draw pile is empty: use a ploy or concede.")
        out = self.outcome()
        return out.summary if out else ""

    # ----- views and knowledge ----------------------------------------------------------
    def view(self, seat: int | None) -> GridcannonView:
        return GridcannonView(
            **self.base_view(seat),
            **self._kept("view", self._view_body),
            last_lines=min(self.last_lines, len(self.recent(seat))),
        )

    def _view_body(self) -> dict[str, Any]:
        """The view's fields that are the same for every recipient."""
        out = self.outcome()
        grid = tuple(_cell_view(i, tuple(st)) for i, st in enumerate(self.grid))
        slots = []
        for i, s in enumerate(self.slots):
            if not s["royal"]:
                slots.append(SlotView(SLOTS[i], "empty"))
                continue
            slots.append(SlotView(
                SLOTS[i], "dead" if s["dead"] else "living", s["royal"], BASE[s["royal"][0]], tuple(s["armour"]),
                self.health(i), None if s["dead"] else self.attack(i)))
        return dict(
            options=tuple(self.options),
            classic=self.classic,
            stage=STAGES[self.phase][0],
            prompt=self.prompt(),
            grid=grid,
            slots=tuple(slots),
            stash=tuple(PloyView(ploy["card"], ploy["spent"]) for ploy in self.stash),
            set_aside=tuple(self.set_aside),
            cycle=tuple(self.cycle),
            pending=self.pending,
            searching=self.searching,
            deck=len(self.pile),
            memory=tuple(self.memory()) if self.variant.memory_aid else None,
            shame=tuple(self.shame) if self.classic else None,
            kills=self.dead_count(),
            living=len(self.living()),
            ploys_spent=self.spent_count(),
            unspent_in_stash=len(self.unspent()),
            max_score=None if self.classic else (len(self.stash) if self.variant.stash_only else self.max_ploys),
            score_so_far=self.score(),
            won=bool(out and out.winners),
            score=out.score if out else None,
        )

    def known(self, seat: int | None) -> frozenset[str]:
        """Every card but those face down in the draw pile (Memory Aid: bar the listed bottom)."""
        return frozenset(self.full_deck()) - frozenset(self.hidden_pile())

    # ----- copying -------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """The fields as ``copy`` copies them (a deep copy, as the core's marshal copy makes it, in
        field order), for ``to_json``: every stored state is one. A test holds it equal to the core's."""
        return self._copied()

    def copy(self) -> GridcannonGame:
        """A deep copy of every field, as the core's marshal copy makes it (cards and texts are
        immutable strings, so only the lists and dicts are new). A test holds it equal to the core's."""
        # bench: playouts/s and CPU per interaction — every ``apply`` makes one
        new = object.__new__(type(self))
        new.__dict__ = self._copied()
        return new

    def _copied(self) -> dict[str, Any]:
        d = self.__dict__
        return {
            "players": d["players"][:], "options": d["options"][:], "seed": d["seed"], "rng_calls": d["rng_calls"],
            "move_count": d["move_count"], "forfeited": d["forfeited"][:],
            "journal": _journal(d["journal"]),
            "opened": dict(d["opened"]),
            "pile": d["pile"][:], "known_bottom": d["known_bottom"], "grid": list(map(list.copy, d["grid"])),
            "slots": _slots(d["slots"]),
            "stash": list(map(dict.copy, d["stash"])),
            "set_aside": d["set_aside"][:], "cycle": d["cycle"][:], "shame": d["shame"][:],
            "pending": d["pending"], "phase": d["phase"], "searching": d["searching"], "replaced": d["replaced"],
            "loss_reason": _deep(d["loss_reason"]) if type(d["loss_reason"]) is dict else d["loss_reason"],
            "last_lines": d["last_lines"],
        }

    # ----- stored states -------------------------------------------------------------------
    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A v1 state (``known``, ``last`` of code-named lines, options in any order) as v2."""
        if data.get("format") != 1:
            return super().upgrade(data)
        state = dict(data["state"])
        state["options"] = cls.Options.parse(state.get("options", [])).dump()
        state["known_bottom"] = state.pop("known", 0)
        state["loss_reason"] = cards.pretty_text(state.get("loss_reason", ""))
        last = [cards.pretty_text(t) for t in state.pop("last", [])]
        state["journal"] = [[t, {}] for t in last][-cls.log_size:]
        state["last_lines"] = min(len(last), cls.log_size)
        game = cls(**state)
        game._forget(game.hidden_pile())  # v1 showed these lines with the hidden pile's cards unnamed
        game.opened = {str(d.seat): game.move_count for d in game.decisions()}  # opened at the latest move
        return {"format": cls.state_version, "game": cls.game_id, "state": game._state()}


_HANDLERS = {
    A.Draw: GridcannonGame._do_draw,
    A.Place: GridcannonGame._do_place,
    A.PlaceRoyal: GridcannonGame._do_royal,
    A.Armour: GridcannonGame._do_armour,
    A.Extract: GridcannonGame._do_extract,
    A.Reassign: GridcannonGame._do_reassign,
    A.Replace: GridcannonGame._do_replace,
    A.Keep: GridcannonGame._do_keep,
    A.Continue: GridcannonGame._do_continue,
    A.Concede: GridcannonGame._do_concede,
    A.Reset: GridcannonGame._do_reset,
    A.HardReset: GridcannonGame._do_hardreset,
    A.Recycle: GridcannonGame._do_recycle,
}
_STYLE = {"concede": "danger", "draw": "primary"}
_SOLO, _NOBODY = frozenset({0}), frozenset()
_CODES = {c: c if c.startswith("JK") else parse_card(c) for c in cards.deck(2)}  # a deck's codes, read once
SLOT_CELL = [LINE[s][0] for s in SLOTS]  # each slot's adjacent cell
ATTACKERS = [LINE[s][:2] for s in SLOTS]  # each slot's two attacker cells
TRIGGERED = [[SLOT_INDEX[s] for s in TRIGGERS[c]] for c in range(9)]  # the slots a landing on each cell fires at
# Token lists the legal listings give, made once: "<verb> <cell>" per cell, "reassign <cell> <cell>".
_ON_CELL = {verb: tuple((verb, cell) for cell in CELLS) for verb in ("place", "replace", "extract", "reset",
                                                                    "hardreset", "recycle")}
_REASSIGN = tuple(tuple(("reassign", x, y) for y in CELLS) for x in CELLS)
_DRAW, _KEEP, _CONTINUE, _CONCEDE = ("draw",), ("keep",), ("continue",), ("concede",)


# A view's cells are made from a few values that recur from state to state (a move changes a
# cell or two): each is made once and shared (they are frozen).
@lru_cache(maxsize=4096, typed=True)  # bench: playouts/s — about 30% fewer steps/s without
def _cell_view(i: int, stack: tuple[str, ...]) -> CellView:
    return CellView(CELLS[i], stack, stack[-1] if stack else None, len(stack))


@lru_cache(maxsize=4096)  # bench: playouts/s — every step parses its action (about 15% fewer steps/s without)
def _parse(text: str, setup: bool) -> Action:
    """The action written ``text`` (a refusal is raised afresh: ``lru_cache`` keeps no raised error)."""
    return A.parse(text, setup=setup)


_WRITTEN: dict[tuple[str, ...], tuple[Action, str]] = {}
_NOTES: dict[tuple[str, ...], str] = {}  # the notations alone


def _written(tokens: tuple[str, ...]) -> tuple[Action, str]:  # bench: playouts/s — every step's listing
    """A legal action's tokens (as :meth:`GridcannonGame._token_lists` gives them) read as the
    action, and its notation. Tokens come only from the engine: a few hundred distinct lists."""
    known = _WRITTEN.get(tokens)
    if known is None:
        action = A.parse(" ".join(tokens))
        known = _WRITTEN[tokens] = (action, str(action))
        _NOTES[tokens] = known[1]
    return known


@lru_cache(maxsize=64)  # bench: playouts/s — asked at every step (half the steps/s without)
def _options(stored: tuple[str, ...]) -> GridcannonOptions:
    return GridcannonOptions.parse(stored)


def _slots(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of the royal slots: ``{"royal", "armour": [cards], "dead"}`` each."""
    out = []
    for slot in slots:
        twin = slot.copy()
        twin["armour"] = twin["armour"][:]
        out.append(twin)
    return out


def _journal(journal: list[list[Any]]) -> list[list[Any]]:
    """A deep copy of the journal: entries ``[public text or phrase (its JSON), {seat: text}]``."""
    try:
        return [[_deep(public) if type(public) is dict else public, private.copy()] for public, private in journal]
    except (ValueError, TypeError, AttributeError):  # not that shape (never written so): copy it as it is
        return _deep(journal)


def _deep(value: Any) -> Any:
    """A deep copy of a JSON-like value (lists, dicts, strings, numbers)."""
    return marshal.loads(marshal.dumps(value))


# Every field ``copy`` copies: a field added to the state without a line there fails at import.
_COPIED = ("players", "options", "seed", "rng_calls", "move_count", "forfeited", "journal", "opened", "pile",
           "known_bottom", "grid", "slots", "stash", "set_aside", "cycle", "shame", "pending", "phase",
           "searching", "replaced", "loss_reason", "last_lines")
if tuple(f.name for f in fields(GridcannonGame)) != _COPIED:  # pragma: no cover - a guard for whoever adds a field
    raise TypeError("GridcannonGame.copy does not copy every field: update it and _COPIED")
