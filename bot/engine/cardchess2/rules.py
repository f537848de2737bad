"""Cardchess2: the state machine (setup, turn, enforcement and reinforcement windows).

Phases: ``setup`` (both seats order their home rows at once, privately), ``turn`` (MOVE, ADD,
ATTACK or PASS), ``enforce`` (the defender's window, A6), ``reinforce`` (the attacker's window,
A7) and ``over``. See rules.md beside this file for the rules as players read them.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import cards
from bot.engine.core import (HIDDEN, Action, Choices, Decision, Event, Game, IllegalMove, Option, Outcome,
                             Progress, fields_with_flat_sliced)

from .actions import Add, Attack, Enforce, Move, Order, Pass, Reinforce, Striker, parse
from .attack import Own, Plan, enforcement_bonus
from .geometry import CELLS, INDEX, SIZE, Rules, covers, defence, move_cells, moves, reach, reach_set, value
from .settings import Cardchess2Options
from .view import SIDES, AttackView, BoardCard, Cardchess2View, Enforcing, Pick, Striking
from bot.engine.words import CardName, Many, decode, encode, say

_ATOMS = frozenset({str, int, bool, float, type(None)})
# Lists of cards, seats, flags or digests (sliced by ``copy``) and lists of such lists; the board,
# journal and opened are copied by hand; any other field is an atom or goes through marshal.
_FLAT = ("players", "options", "forfeited", "out", "out_shown", "ordered", "history", "winners")
_NESTED = ("hands", "decks", "dealt")
_COPIED = frozenset({*_FLAT, *_NESTED, "board", "journal", "opened"})
HOME_ROWS = (tuple(range(0, SIZE)), tuple(range(SIZE * (SIZE - 1), SIZE * SIZE)))  # side 0: rank 1, side 1: rank 7


def _flat_entry(e: list[Any]) -> bool:
    """A log entry of plain texts (its lines no phrase's JSON): copied by slicing, not by marshal."""
    return len(e) == 2 and type(e[1]) is dict and type(e[0]) is not dict and all(type(x) is not dict for x in e[1].values())


def show(code: str) -> CardName:
    """A card in plain words: ``7♥`` (own-deck cards too: the board shows whose it is), said in
    each reader's language."""
    base = cards.base_code(code)
    return CardName(base, cards.pretty(base))


@dataclass
class Cardchess2(Game):
    game_id = "cardchess2"
    title = "Cardchess2"
    min_players = 2
    max_players = 2
    Options = Cardchess2Options
    state_version = 1

    south: int = 0  # the seat playing South (the first player)
    board: dict[str, list[Any]] = field(default_factory=dict)  # cell -> [seat, code, face up]
    hands: list[list[str]] = field(default_factory=list)
    decks: list[list[str]] = field(default_factory=list)  # one shared deck, or one per seat (V1); top first
    out: list[str] = field(default_factory=list)  # the out-of-play pile (face down)
    out_shown: list[str] = field(default_factory=list)  # cards in it that everyone saw go in
    dealt: list[list[str]] = field(default_factory=list)  # each seat's home row as dealt (files a-g)
    ordered: list[bool] = field(default_factory=list)
    phase: str = "setup"
    current: int = 0
    turns: int = 0  # completed turns
    passes: int = 0  # consecutive passes
    history: list[str] = field(default_factory=list)  # digests of the stored boards (§2.6)
    attack: dict[str, Any] | None = None  # the attack waiting on a window
    winners: list[int] = field(default_factory=list)
    end: Any = ""  # the end's words as JSON (a phrase: the same in every language)

    # ----- setup ----------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        o = self.opts
        n = o.out_of_play
        if o.own_decks:
            decks = []
            for s in (0, 1):
                if deck is not None:
                    d = [c if "@" in c else f"{c}@{s}" for c in deck[52 * s: 52 * s + 52]]
                else:
                    d = [f"{c}@{s}" for c in cards.deck(0)]
                    self.rng().shuffle(d)
                decks.append(d)
        else:
            d = list(deck) if deck is not None else cards.deck(0)
            if deck is None:
                self.rng().shuffle(d)
            decks = [d]
        self.south = self.rng().randrange(2)
        north = 1 - self.south
        self.out = []
        for d in decks:
            self.out += d[:n]
            del d[:n]
        self.decks = decks
        self.hands = [[], []]
        self.dealt = [[], []]
        for seat in (self.south, north):
            d = self._deck(seat)
            self.dealt[seat] = d[:7]
            del d[:7]
        for seat in (self.south, north):
            d = self._deck(seat)
            self.hands[seat] = d[:5]
            del d[:5]
        self.board = {}
        for seat in (0, 1):
            for i, code in zip(HOME_ROWS[self.side(seat)], self.dealt[seat], strict=True):
                self.board[CELLS[i]] = [seat, code, False]
        self.ordered = [False, False]
        self.phase = "setup"
        self.current = self.south
        self.emit(None, say("{player} plays South and moves first; {other} plays North. Both now order their home rows.",
                            player=self.players[self.south], other=self.players[north]))

    # ----- copying --------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """A deep copy of every field, as the core's marshal copy makes it (:func:`fields_with_flat_sliced`)."""
        # bench: playouts/s and CPU per interaction — every ``apply`` copies the state
        state = fields_with_flat_sliced(self, _FLAT)
        for name in _NESTED:
            state[name] = [x[:] for x in state[name]]
        state["board"] = {c: v[:] for c, v in state["board"].items()}
        state["journal"] = [[e[0], dict(e[1])] if _flat_entry(e) else marshal.loads(marshal.dumps(e))
                            for e in state["journal"]]
        state["opened"] = dict(state["opened"])
        deep = [name for name in state if name not in _COPIED and type(state[name]) not in _ATOMS]
        if deep:
            state.update(zip(deep, marshal.loads(marshal.dumps([state[n] for n in deep])), strict=True))
        return state

    def copy(self) -> "Cardchess2":
        """A deep copy of every field, as the core's marshal copy makes it (cards and texts are
        immutable strings, so only the lists and dicts are new). Nothing worked out for this state
        (``_memo``) goes with it. A test holds it equal to ``_state()``."""
        # bench: playouts/s and CPU per interaction — every ``apply`` makes one
        new = object.__new__(type(self))  # the dataclass's __init__ only sets the fields
        new.__dict__.update(self._state())
        return new

    # ----- small helpers --------------------------------------------------------------------
    @property
    def opts(self) -> Cardchess2Options:
        return _options(tuple(self.options))

    @property
    def rules(self) -> Rules:
        return _rules(tuple(self.options))

    def side(self, seat: int) -> int:
        return 0 if seat == self.south else 1

    def side_name(self, seat: int) -> str:
        return SIDES[self.side(seat)]

    def _deck(self, seat: int) -> list[str]:
        return self.decks[seat] if len(self.decks) == 2 else self.decks[0]

    def occ(self) -> list[Any]:
        out: list[Any] = [None] * (SIZE * SIZE)
        for c, v in self.board.items():
            out[INDEX[c]] = v
        return out

    def cells_of(self, seat: int) -> list[str]:
        return sorted((c for c, v in self.board.items() if v[0] == seat), key=INDEX.__getitem__)

    def own(self, seat: int, exclude: Sequence[str] = ()) -> list[Own]:
        """The seat's board cards (all known to it), in board order."""
        return [Own(self.board[c][1], INDEX[c], not self.board[c][2]) for c in self.cells_of(seat) if c not in exclude]

    def goal_row(self, seat: int) -> tuple[int, ...]:
        return HOME_ROWS[1 - self.side(seat)]

    def _cache(self) -> dict:  # bench: playouts/s, CPU per interaction — a state is asked the same steps again
        c = self.__dict__.get("_memo")
        if c is None:
            c = {}
            self.__dict__["_memo"] = c
        return c

    def _digest(self) -> str:
        text = "|".join(f"{c}:{v[0]}:{v[1]}:{int(v[2])}" for c, v in sorted(self.board.items()))
        return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()

    def all_cards(self) -> list[str]:
        if self.opts.own_decks:
            return [f"{c}@{s}" for s in (0, 1) for c in cards.deck(0)]
        return cards.deck(0)

    # ----- who acts -------------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        if self.phase == "over" or self.forfeited:
            return ()
        if self.phase == "setup":
            return tuple(Decision(s, "order-home-row", False, "order",
                                  say("Order your seven home-row cards, files a to g (no answer keeps the dealt order)."))
                         for s in (0, 1) if not self.ordered[s])
        if self.phase == "enforce":
            a = self.attack or {}
            return (Decision(1 - a["attacker"], "enforce", False, "enforce",
                             say("Σ {sigma} reaches the defence {defence} of your card at {target}: choose which of "
                                 "your face-down cards covering it enforce, or none.",
                                 sigma=a['sigma'], defence=a['def'], target=a['target'])),)
        if self.phase == "reinforce":
            a = self.attack or {}
            return (Decision(a["attacker"], "reinforce", False, "reinforce",
                             say("Σ {sigma} against defence {defence} + {enforcement}: add attackers, or none.",
                                 sigma=a['sigma'], defence=a['def'], enforcement=a['enforcement'])),)
        return (Decision(self.current, "turn", False, None, say("Move, add or attack (pass only if you cannot).")),)

    # ----- parsing --------------------------------------------------------------------------
    def parse(self, seat: int, text: str) -> Action:
        return parse(text)

    # ----- choices --------------------------------------------------------------------------
    def choices(self, seat: int, prefix: Sequence[str] = ()) -> Choices:
        prefix = tuple(prefix)
        key = ("choices", seat, prefix)
        cache = self._cache()
        if key not in cache:
            d = self.decision_of(seat)
            if d is None:
                cache[key] = Choices()
            else:
                try:
                    cache[key] = {"order-home-row": self._order_choices, "turn": self._turn_choices,
                                  "enforce": self._enforce_choices,
                                  "reinforce": self._reinforce_choices}[d.name](seat, prefix)
                except IllegalMove:
                    cache[key] = Choices()
        return cache[key]

    def _order_choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        if not prefix:
            return Choices(options=(Option("order", say("Order your home row")),))
        if prefix[0] != "order":
            return Choices()
        left = list(self.dealt[seat])
        if len(prefix) == 1:  # "order" alone keeps the dealt order
            row = HOME_ROWS[self.side(seat)]
            return Choices(options=tuple(Option(c, say("{card} on {cell}",
                                                       card=show(c), cell=CELLS[row[0]]), Pick(CELLS[row[0]], c))
                                         for c in sorted(set(left), key=_hand_key)),
                           complete=True, prompt=say("Which card goes on {cell}? (or keep the dealt order)",
                                                     cell=CELLS[row[0]]))
        for tok in prefix[1:]:
            if tok not in left:
                return Choices()
            left.remove(tok)
        k = len(prefix) - 1
        if not left:
            return Choices(complete=True)
        row = HOME_ROWS[self.side(seat)]
        where = CELLS[row[k]]
        return Choices(options=tuple(Option(c, say("{card} on {cell}", card=show(c), cell=where), Pick(where, c))
                                     for c in sorted(set(left), key=_hand_key)),
                       prompt=say("Which card goes on {cell}?", cell=where))

    def move_sources(self, seat: int) -> dict[str, list[int]]:
        key = ("moves", seat)
        cache = self._cache()
        if key not in cache:
            occ = self.occ()
            side, rules = self.side(seat), self.rules
            out = {}
            for o in self.own(seat):
                m = moves(occ, o.cell, o.rank, side, rules)
                if m:
                    out[CELLS[o.cell]] = m
            cache[key] = out
        return cache[key]

    def add_cells(self, seat: int) -> list[int]:
        return sorted({y for m in self.move_sources(seat).values() for y in m})

    def _occ_bits(self) -> list[bool]:
        cache = self._cache()
        if "occ" not in cache:
            cache["occ"] = [v is not None for v in self.occ()]
        return list(cache["occ"])

    def _own_cached(self, seat: int) -> list[Own]:
        cache = self._cache()
        key = ("own", seat)
        if key not in cache:
            cache[key] = self.own(seat)
        return cache[key]

    def _reaching(self, seat: int, target: str) -> list[Own]:
        """The seat's cards that could attack ``target`` from their cell or a step (ignoring what
        stands between): only they can ever join an attack on it."""
        cache = self._cache()
        key = ("reaching", seat)
        if key not in cache:
            side, rules = self.side(seat), self.rules
            by_target: dict[int, list[Own]] = {}
            for o in self._own_cached(seat):
                ys: set[int] = set()
                if not o.steps or rules.optional_step:
                    ys.update(reach_set(o.cell, o.rank, rules))
                if o.steps:
                    for at in move_cells(o.cell, o.rank, side, rules):
                        ys.update(reach_set(at, o.rank, rules))
                for y in ys:
                    by_target.setdefault(y, []).append(o)
            cache[key] = by_target
        return cache[key].get(INDEX[target], [])

    def plan(self, seat: int, target: str, every: bool = False) -> Plan:
        """A fresh attack plan on ``target`` from ``seat``'s knowledge (``every``: with all the
        seat's cards as candidates, for checking typed notation)."""
        tgt = self.board[target]
        tcard = tgt[1] if tgt[2] else None
        cache = self._cache()
        memo = cache.setdefault(("plan", seat, target), {})
        spots = cache.setdefault(("spots", seat, target), {})
        cands = self.own(seat) if every else list(self._reaching(seat, target))
        return Plan(self._occ_bits(), self.side(seat), self.rules, INDEX[target], tcard,
                    defence(tcard) if tcard else 0, cands, memo=memo, spots=spots)

    def can_attack(self, seat: int, target: str) -> bool:
        """Whether ``seat`` has a legal attack on ``target`` now (exactly)."""
        cache = self._cache()
        key = ("can", seat, target)
        if key not in cache:
            cache[key] = self._attackable(seat, target)
        return cache[key]

    def targets(self, seat: int) -> list[str]:
        """The opponent's cards this seat can attack legally now."""
        return [c for c in self.cells_of(1 - seat) if self.can_attack(seat, c)]

    def has_target(self, seat: int) -> bool:
        return any(self.can_attack(seat, c) for c in self.cells_of(1 - seat))

    def _attackable(self, seat: int, target: str) -> bool:
        cands = self._reaching(seat, target)
        if not cands:
            return False
        if not self.board[target][2]:  # face down: any Σ; one attacker whose line is clear suffices
            occ, t, rules = self._occ_bits(), INDEX[target], self.rules
            side = self.side(seat)
            for o in cands:
                cells = ([o.cell] if not o.steps or rules.optional_step else []) + (
                    [y for y in move_cells(o.cell, o.rank, side, rules) if not occ[y]] if o.steps else [])
                for at in cells:
                    between = reach(at, o.rank, t, rules)
                    if between is not None and all(not occ[c] or c == o.cell for c in between):
                        return True
        return self.plan(seat, target).feasible()

    def can_act(self, seat: int) -> bool:
        return bool(self.move_sources(seat)) or self.has_target(seat)

    def _turn_choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        if not prefix:
            opts = []
            if self.move_sources(seat):
                opts.append(Option("move", say("Move a card")))
                if self.hands[seat]:
                    opts.append(Option("add", say("Add a card from your hand")))
            if self.has_target(seat):
                opts.append(Option("attack", "Attack", style="danger"))
            if not opts:
                opts.append(Option("pass", say("Pass (nothing else is legal)")))
            return Choices(options=tuple(opts), prompt=say("What do you do?"))
        verb, rest = prefix[0], prefix[1:]
        if verb == "pass":
            return Choices(complete=not rest and not self.can_act(seat))
        if verb == "move":
            src = self.move_sources(seat)
            if not rest:
                return Choices(options=tuple(Option(c, f"{self._name_cell(seat, c)}", Pick(c, self._card_for(seat, c)))
                                             for c in src), prompt=say("Which card moves?"))
            if rest[0] not in src:
                return Choices()
            if len(rest) == 1:
                return Choices(options=tuple(Option(CELLS[y], say("to {cell}",
                                                                  cell=CELLS[y]), Pick(CELLS[y])) for y in src[rest[0]]),
                               prompt=say("Where does {cell} go?", cell=self._name_cell(seat, rest[0])))
            if len(rest) == 2 and rest[1] in [CELLS[y] for y in src[rest[0]]]:
                return Choices(complete=True)
            return Choices()
        if verb == "add":
            spots = self.add_cells(seat)
            hand = self.hands[seat]
            if not spots or not hand:
                return Choices()
            if not rest:
                return Choices(options=tuple(Option(c, show(c), Pick(None, c)) for c in sorted(set(hand), key=_hand_key)),
                               prompt=say("Which card do you add (face down)?"))
            if rest[0] not in hand:
                return Choices()
            if len(rest) == 1:
                return Choices(options=tuple(Option(CELLS[y], say("on {cell}", cell=CELLS[y]), Pick(CELLS[y])) for y in spots),
                               prompt=say("Where do you place {card} face down?", card=show(rest[0])))
            if len(rest) == 2 and rest[1] in [CELLS[y] for y in spots]:
                return Choices(complete=True)
            return Choices()
        if verb == "attack":
            if not rest:
                return Choices(options=tuple(Option(c, self._name_cell(seat, c), Pick(c, self._card_for(seat, c)))
                                             for c in self.targets(seat)), prompt=say("Which card do you attack?"))
            if rest[0] not in self.board or self.board[rest[0]][0] == seat or not self.can_attack(seat, rest[0]):
                return Choices()
            plan = self.plan(seat, rest[0])
            return self._builder(seat, plan, rest[1:], base=0, target=None)
        return Choices()

    def _name_cell(self, seat: int, cell: str) -> str:
        v = self.board[cell]
        if v[2]:
            return say("{card} at {cell}", card=show(v[1]), cell=cell)
        if v[0] == seat:
            return say("{card} (face down) at {cell}", card=show(v[1]), cell=cell)
        return say("face-down card at {cell}", cell=cell)

    def _card_for(self, seat: int, cell: str) -> Any:
        v = self.board[cell]
        return v[1] if v[2] or v[0] == seat else HIDDEN

    def _walk(self, plan: Plan, tokens: Sequence[str]) -> Own | None | bool:
        """Declare ``tokens`` into ``plan``; the face-down attacker named last, whose step may still
        follow, ``None``, or ``False`` for a prefix that is not legal. Without Optional step (V4) a
        face-down attacker's next token must be its step; with it the step is optional, as in the
        notation: another attacker (or the end, or ``stay``) means it attacks from where it stands."""
        pending: Own | None = None
        for tok in tokens:
            if pending is not None:
                if tok.startswith(">") and tok[1:] in INDEX and INDEX[tok[1:]] != pending.cell:
                    at = INDEX[tok[1:]]
                    if at not in plan.where(pending):
                        return False
                    plan.join(pending, at)
                    pending = None
                    continue
                if not self.rules.optional_step:
                    return False
                plan.join(pending, pending.cell)
                pending = None
                if tok == "stay":  # the notation's word for no step
                    continue
            own = next((c for c in plan.cands if CELLS[c.cell] == tok), None)
            if own is None:
                return False
            if own.steps:
                pending = own
            else:
                plan.join(own, own.cell)
            if plan.cap is not None and len(plan.chosen) + (pending is not None) > plan.cap:
                return False
        return pending

    def _builder(self, seat: int, plan: Plan, tokens: Sequence[str], base: int, target: int | None) -> Choices:
        pending = self._walk(plan, tokens)
        if pending is False:
            return Choices()
        shown = plan.target_card is not None
        goal = target if target is not None else plan.need
        progress = Progress("Σ", base + plan.sigma, goal) if shown else None
        if isinstance(pending, Own):
            steps = []
            for at in plan.where(pending):
                if at != pending.cell and plan.feasible_with(pending, at):
                    v = plan.value_of(pending, at)
                    label = (say("step to {cell} ({value})", cell=CELLS[at], value=v) if v is not None
                             else say("step to {cell}", cell=CELLS[at]))
                    steps.append(Option(">" + CELLS[at], label, Pick(CELLS[at], pending.code, v)))
            prompt = say("Where does {card} step before attacking?", card=show(pending.code))
            if not self.rules.optional_step or not plan.feasible_with(pending, pending.cell):
                return Choices(options=tuple(steps), progress=progress, prompt=prompt)
            # V4: without a step it attacks from where it stands (what the notation reads as written)
            stay = plan.joined(pending, pending.cell)
            return Choices(options=tuple(steps) + self._attackers(stay), complete=stay.complete(),
                           progress=Progress("Σ", base + stay.sigma, goal) if shown else None,
                           prompt=say("{prompt} Or it attacks from {cell}: add an attacker, or confirm.",
                                      prompt=prompt, cell=CELLS[pending.cell]))
        return Choices(options=self._attackers(plan), complete=plan.complete(), progress=progress,
                       prompt=say("Add an attacker, or confirm.") if plan.chosen else say("Choose an attacker."))

    def _attackers(self, plan: Plan) -> tuple[Option, ...]:
        """The cards that may join ``plan`` next (each keeps the attack completable)."""
        opts = []
        for c in plan.cands:
            if any(plan.feasible_with(c, at) for at in plan.where(c)):
                v = None if c.steps else plan.value_of(c, c.cell)
                if c.face_down:
                    label = (say("{card} (face down) at {cell} ({value})", card=show(c.code), cell=CELLS[c.cell], value=v)
                             if v is not None else say("{card} (face down) at {cell}", card=show(c.code), cell=CELLS[c.cell]))
                else:
                    label = (say("{card} at {cell} ({value})", card=show(c.code), cell=CELLS[c.cell], value=v)
                             if v is not None else say("{card} at {cell}", card=show(c.code), cell=CELLS[c.cell]))
                opts.append(Option(CELLS[c.cell], label, Pick(CELLS[c.cell], c.code, v)))
        return tuple(opts)

    def _enforce_choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        a = self.attack or {}
        progress = Progress("Σ", a["sigma"], a["def"])
        if not prefix:  # the window's numbers from its first step on
            return Choices(options=(Option("enforce", say("Enforce (or not)")),), progress=progress,
                           prompt=say("Σ {sigma} reaches the defence {defence} of your card at {target}.",
                                      sigma=a['sigma'], defence=a['def'], target=a['target']))
        if prefix[0] != "enforce" or len(prefix) > 2:
            return Choices()
        cells = self.enforcer_cells(seat)
        if len(prefix) == 2:
            picked = prefix[1].split(",")
            ok = (len(set(picked)) == len(picked) and all(p in cells for p in picked)
                  and picked == sorted(picked, key=INDEX.__getitem__))
            return Choices(complete=ok, progress=progress)
        opts = tuple(Option(c, say("{card} at {cell} (+{enforcement})",
                                   card=show(self.board[c][1]), cell=c, enforcement=enforcement_bonus(self.board[c][1])),
                            Pick(c, self.board[c][1], enforcement_bonus(self.board[c][1]))) for c in cells)
        if not opts:
            return Choices(complete=True, progress=progress, prompt=say("None of your face-down cards covers it."))
        return Choices("set", opts, lo=1, hi=len(opts), complete=True, progress=progress,
                       prompt=say("Which face-down cards enforce? (none is fine)"))

    def enforcer_cells(self, seat: int) -> list[str]:
        """The defender's face-down cards that may enforce (ruling 11; V7: any)."""
        a = self.attack or {}
        occ, t, rules = self.occ(), INDEX[a["target"]], self.rules
        out = []
        for o in self.own(seat):
            if o.face_down and (self.opts.remote_enforcement or covers(occ, o.cell, o.rank, t, rules)):
                out.append(CELLS[o.cell])
        return out

    def reinforce_plan(self, seat: int) -> Plan:
        a = self.attack or {}
        used = [s[2] for s in a["strikers"]]
        memo = self._cache().setdefault(("reinforce", seat), {})
        occ = [v is not None for v in self.occ()]
        cap = len(a["enforcers"]) if self.opts.matched_reinforcement else None
        return Plan(occ, self.side(seat), self.rules, INDEX[a["target"]], a["card"], 0, self.own(seat, used),
                    min_count=0, cap=cap, memo=memo)

    def _reinforce_choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        a = self.attack or {}
        if not prefix:  # the window's numbers from its first step on
            need = a["def"] + a["enforcement"]
            return Choices(options=(Option("reinforce", say("Reinforce (or not)")),), progress=Progress("Σ", a["sigma"], need),
                           prompt=say("Σ {sigma} against defence {defence} + enforcement {enforcement} = {need}.",
                                      sigma=a['sigma'], defence=a['def'], enforcement=a['enforcement'], need=need))
        if prefix[0] != "reinforce":
            return Choices()
        return self._builder(seat, self.reinforce_plan(seat), prefix[1:], a["sigma"], a["def"] + a["enforcement"])

    # ----- applying -------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.__dict__.pop("_memo", None)
        try:
            return self._act(seat, action)
        finally:
            self.__dict__.pop("_memo", None)  # what was cached mid-action is stale now

    def _act(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        phase = self.phase
        if phase == "setup":
            if not isinstance(action, Order):
                raise IllegalMove(say("First order your home row (order CARD … for files a to g)."), "setup")
            self._order(seat, action, events)
        elif phase == "enforce":
            if not isinstance(action, Enforce):
                raise IllegalMove(say("Answer the enforcement first: enforce CELL,… or just enforce for none."), "A6")
            self._enforce(seat, action, events)
        elif phase == "reinforce":
            if not isinstance(action, Reinforce):
                raise IllegalMove(say("Answer the reinforcement first: reinforce ATTACKER … or just reinforce for none."),
                                  "A7")
            self._reinforce(seat, action, events)
        elif isinstance(action, Move):
            self._move(seat, action, events)
        elif isinstance(action, Add):
            self._add(seat, action, events)
        elif isinstance(action, Attack):
            self._attack(seat, action, events)
        elif isinstance(action, Pass):
            if self.can_act(seat):
                raise IllegalMove(say("You may pass only when you cannot move, add or attack (ruling 21 — see /game "
                                      "rules section: Rulings)."), "R21")
            self.passes += 1
            self.emit(events, say("{player} cannot act and passes.", player=self.players[seat]))
            self._end_turn(seat, events, passed=True)
        else:
            raise IllegalMove(say("That is not an action for your turn: move, add, attack or pass."), "turn")
        return events

    def _order(self, seat: int, action: Order, events: list[Event]) -> None:
        if not action.cards:
            action = Order(tuple(self.dealt[seat]))
        if sorted(action.cards) != sorted(self.dealt[seat]):
            raise IllegalMove(say("Order exactly the seven cards you were dealt for your home row."), "setup")
        row = HOME_ROWS[self.side(seat)]
        for i, code in zip(row, action.cards, strict=True):
            self.board[CELLS[i]] = [seat, code, False]
        self.ordered[seat] = True
        placed = Many([say("{cell} {card}", cell=CELLS[i], card=show(c)) for i, c in zip(row, action.cards, strict=True)])
        self.emit(events, say("{player} has ordered their home row.",
                              player=self.players[seat]), {seat: say("Your home row: {cards}.", cards=placed)})
        if all(self.ordered):
            self.phase = "turn"
            self.current = self.south
            self.history = [self._digest()]
            self.emit(events, say("The game begins: {player} (South) moves first, without drawing.",
                                  player=self.players[self.south]))

    def _own_card(self, seat: int, cell: str, what: str) -> list[Any]:
        v = self.board.get(cell)
        if v is None or v[0] != seat:
            raise IllegalMove(say("You have no card at {cell} to {what}.", cell=cell, what=what), "A1")
        return v

    def _move(self, seat: int, action: Move, events: list[Event]) -> None:
        v = self._own_card(seat, action.src, say("move"))
        if INDEX[action.dst] not in moves(self.occ(), INDEX[action.src], v[1][0], self.side(seat), self.rules):
            raise IllegalMove(say("Your {card} at {src} cannot move to {dst}: it must be an empty cell its pattern "
                                  "reaches in one move (rulings 4 and 8 — see /game rules section: Rulings).",
                                  card=show(v[1]), src=action.src, dst=action.dst), "2.2")
        del self.board[action.src]
        self.board[action.dst] = v
        if v[2]:
            self.emit(events, say("{player} moves {card} {src} → {dst}.",
                                  player=self.players[seat], card=show(v[1]), src=action.src, dst=action.dst))
        else:
            self.emit(events, say("{player} moves a face-down card {src} → {dst}.",
                                  player=self.players[seat], src=action.src, dst=action.dst),
                      {seat: say("You move {card} (face down) {src} → {dst}.",
                                 card=show(v[1]), src=action.src, dst=action.dst)})
        self.passes = 0
        self._end_turn(seat, events)

    def _add(self, seat: int, action: Add, events: list[Event]) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalMove(say("{card} is not in your hand.", card=show(action.card)), "2.3")
        if INDEX[action.dst] not in self.add_cells(seat):
            raise IllegalMove(say("You may add only on an empty cell one of your cards could move to; {dst} is not one "
                                  "(ruling 5 — see /game rules section: Rulings).",
                                  dst=action.dst), "R5")
        self.hands[seat].remove(action.card)
        self.board[action.dst] = [seat, action.card, False]
        self.emit(events, say("{player} adds a card face down at {dst}.", player=self.players[seat], dst=action.dst),
                  {seat: say("You add {card} face down at {dst}.", card=show(action.card), dst=action.dst)})
        self.passes = 0
        self._end_turn(seat, events)

    def _declare(self, seat: int, plan: Plan, strikers: Sequence[Striker], rule: str) -> None:
        """A1–A3 for ``strikers`` joining ``plan`` (raises IllegalMove, from the seat's knowledge)."""
        for s in strikers:
            own = next((c for c in plan.cands if CELLS[c.cell] == s.cell), None)
            if own is None:
                mine = (self.board.get(s.cell) or [None])[0] == seat
                if mine or any(CELLS[o.cell] == s.cell for o, _ in plan.chosen):
                    raise IllegalMove(say("Your card at {cell} is already in this attack.", cell=s.cell), rule)
                raise IllegalMove(say("You have no card at {cell} to attack with.", cell=s.cell), rule)
            if s.step is None:
                if own.steps and not self.rules.optional_step:
                    raise IllegalMove(say("Your face-down {card} at {cell} must step before attacking (ruling 6 — see "
                                          "/game rules section: Rulings): write its step like >d2.",
                                          card=show(own.code), cell=s.cell), "R6")
                plan.join(own, own.cell)
                continue
            if not own.steps:
                raise IllegalMove(say("Your {card} at {cell} attacks from where it stands: aces do not step "
                                      "(ruling 6 — see /game rules section: Rulings).", card=show(own.code), cell=s.cell)
                                  if own.rank == "A" else
                                  say("Your {card} at {cell} attacks from where it stands: face-up cards do not step "
                                      "(ruling 6 — see /game rules section: Rulings).", card=show(own.code), cell=s.cell),
                                  "R6")
            if INDEX[s.step] not in moves(plan.occ, own.cell, own.rank, plan.side, plan.rules):
                raise IllegalMove(say("Your {card} cannot step from {cell} to {step} at that moment (see /game rules "
                                      "section: Attacks).",
                                      card=show(own.code), cell=s.cell, step=s.step), "A2")
            plan.join(own, INDEX[s.step])
        bad = plan.fails()
        if bad is not None:
            own, at = bad
            raise IllegalMove(say("After the steps, your {card} at {cell} does not cover {target} (A3).",
                                  card=show(own.code), cell=CELLS[at], target=CELLS[plan.target]), "A3")

    def _attack(self, seat: int, action: Attack, events: list[Event]) -> None:
        tgt = self.board.get(action.target)
        if tgt is None or tgt[0] == seat:
            raise IllegalMove(say("There is no card of your opponent's at {target} to attack (ruling 22 — see /game "
                                  "rules section: Rulings).",
                                  target=action.target), "R22")
        if not action.strikers:
            raise IllegalMove(say("Name at least one attacker."), "A1")
        plan = self.plan(seat, action.target, every=True)
        self._declare(seat, plan, action.strikers, "A1")
        if plan.target_card is not None and plan.sigma < plan.need:
            raise IllegalMove(say("Σ {sigma} is less than the defence {defence} of {card}: an attack on a face-up card "
                                  "must reach its defence (ruling 9 — see /game rules section: Rulings).",
                                  sigma=plan.sigma, defence=plan.need, card=show(tgt[1])), "R9")
        # A5: reveal (permanent), with the values against the now known target
        code = tgt[1]
        strikers = []
        for own, at in plan.chosen:
            v = self.board.pop(CELLS[own.cell])
            v[2] = True
            self.board[CELLS[at]] = v
            strikers.append([own.code, CELLS[own.cell], CELLS[at], value(own.code, at, code, INDEX[action.target],
                                                                          self.rules)])
        tgt[2] = True
        sigma = sum(s[3] for s in strikers)
        dfn = defence(code)
        self.attack = {"attacker": seat, "target": action.target, "card": code, "def": dfn, "strikers": strikers,
                       "sigma": sigma, "enforcers": [], "enforcement": 0}
        self.emit(events, say("{player} attacks {card} at {target} (defence {defence}) with {attackers}: Σ {sigma}.",
                              player=self.players[seat], card=show(code), target=action.target, defence=dfn,
                              attackers=_strikers_text(strikers), sigma=sigma), kind="attack", data=dict(self.attack),
                  reveals=[code, *(s[0] for s in strikers)])
        defender = 1 - seat
        if sigma >= dfn and any(not v[2] for v in self.board.values() if v[0] == defender):
            self.phase = "enforce"  # ruling 24: whatever covers the target
            return
        self._resolve(events)

    def _enforce(self, seat: int, action: Enforce, events: list[Event]) -> None:
        a = self.attack or {}
        allowed = self.enforcer_cells(seat)
        for c in action.cells:
            v = self.board.get(c)
            if v is None or v[0] != seat or v[2]:
                raise IllegalMove(say("Cell {cell} does not hold one of your face-down cards.", cell=c), "A6")
            if c not in allowed:
                raise IllegalMove(say("Your {card} at {cell} does not cover {target}, so it cannot enforce (ruling 11 "
                                      "— see /game rules section: Rulings).",
                                      card=show(v[1]), cell=c, target=a['target']), "R11")
        enforcers = []
        for c in action.cells:
            v = self.board[c]
            v[2] = True
            enforcers.append([v[1], c, enforcement_bonus(v[1])])
        a["enforcers"] = enforcers
        a["enforcement"] = sum(e[2] for e in enforcers)
        if not enforcers:
            self.emit(events, say("{player} does not enforce.", player=self.players[seat]))
            self._resolve(events)
            return
        parts = Many([say("{card} {cell} (+{bonus})", card=show(e[0]), cell=e[1], bonus=e[2]) for e in enforcers])
        need = a["def"] + a["enforcement"]
        self.emit(events, say("{player} enforces {target} with {cards}: defence {defence} + {enforcement} = {need} "
                              "against Σ {sigma}.",
                              player=self.players[seat], target=a['target'], cards=parts, defence=a['def'],
                              enforcement=a['enforcement'], need=need, sigma=a['sigma']), kind="enforce", data=list(enforcers),
                  reveals=[e[0] for e in enforcers])
        attacker = a["attacker"]
        if a["sigma"] < need and self._reinforce_possible(attacker):
            self.phase = "reinforce"
            return
        self._resolve(events)

    def _reinforce_possible(self, seat: int) -> bool:
        """Whether the reinforcement window opens: it does unless everyone can see that it would
        change nothing (every card left is face up and none can reach)."""
        plan = self.reinforce_plan(seat)
        if any(c.face_down for c in plan.cands):
            return True
        plan.min_count = 1
        plan.memo = {}
        return plan.feasible()

    def _reinforce(self, seat: int, action: Reinforce, events: list[Event]) -> None:
        a = self.attack or {}
        plan = self.reinforce_plan(seat)
        if plan.cap is not None and len(action.strikers) > plan.cap:
            raise IllegalMove(say("At most {cap} reinforcements: as many as there were enforcers (V8).", cap=plan.cap), "V8")
        self._declare(seat, plan, action.strikers, "A7")
        if not plan.chosen:
            self.emit(events, say("{player} does not reinforce.", player=self.players[seat]))
            self._resolve(events)
            return
        added = []
        for own, at in plan.chosen:
            v = self.board.pop(CELLS[own.cell])
            v[2] = True
            self.board[CELLS[at]] = v
            added.append([own.code, CELLS[own.cell], CELLS[at], value(own.code, at, a["card"], INDEX[a["target"]],
                                                                       self.rules)])
        a["strikers"] = a["strikers"] + added
        a["sigma"] += sum(s[3] for s in added)
        self.emit(events, say("{player} reinforces with {attackers}: Σ {sigma} against {need}.",
                              player=self.players[seat], attackers=_strikers_text(added), sigma=a['sigma'],
                              need=a['def'] + a['enforcement']), kind="reinforce", data=added,
                  reveals=[s[0] for s in added])
        self._resolve(events)

    def _resolve(self, events: list[Event]) -> None:
        """A8, then elimination, then the rest of the attacker's turn."""
        a = self.attack or {}
        self.attack = None
        self.phase = "turn"
        need = a["def"] + a["enforcement"]
        attacker, defender = a["attacker"], 1 - a["attacker"]
        if a["sigma"] >= need:
            del self.board[a["target"]]
            self.out.append(a["card"])
            self.out_shown.append(a["card"])
            self.emit(events, say("{card} at {target} is defeated (Σ {sigma} ≥ {need}) and goes out of play.",
                                  card=show(a['card']), target=a['target'], sigma=a['sigma'],
                                  need=need), kind="defeated", data=a["card"], reveals=[a["card"]])
        else:
            self.emit(events, say("{card} at {target} survives (Σ {sigma} < {need}) and stays face up.",
                                  card=show(a['card']), target=a['target'], sigma=a['sigma'], need=need),
                      kind="survives", data=a["card"], reveals=[a["card"]])
        if self._eliminated(events):
            return
        self.passes = 0
        self._end_turn(attacker, events)
        del defender

    def _eliminated(self, events: list[Event]) -> bool:
        """Ruling 20: a player with no card on the board loses at once."""
        for s in (self.south, 1 - self.south):
            if not any(v[0] == s for v in self.board.values()):
                self._finish([1 - s], say("{player} has no card left on the board: {other} wins.",
                                          player=self.players[s], other=self.players[1 - s]),
                             events)
                return True
        return False

    def _finish(self, winners: list[int], text: str, events: list[Event]) -> None:
        self.phase = "over"
        self.winners = winners
        self.end = encode(text)
        self.emit(events, text, kind="over")

    def _end_turn(self, seat: int, events: list[Event], passed: bool = False) -> None:
        """REPETITION, END CHECKS, then the other player's DRAW."""
        digest = self._digest()
        if not passed and digest in self.history:
            self._penalty(seat, events)
            if self.phase == "over":
                return
            digest = self._digest()
        self.history.append(digest)
        if self._eliminated(events):
            return
        other = 1 - seat
        # Ruling 28: with Sudden goal both goal tests are made, the mover's first.
        if self.opts.sudden_goal and self._on_goal_row(seat):
            self._finish([seat], say("{player} ends their turn with a card on the goal row and wins (Sudden goal).",
                                     player=self.players[seat]), events)
            return
        if self._on_goal_row(other):
            self._finish([other], say("{other}'s card on the goal row survived a whole turn: {other} wins.",
                                      other=self.players[other]), events)
            return
        if self.passes >= 2:
            self._finish([], say("Both players passed in turn: the game is a draw."), events)
            return
        self.turns += 1
        if self.turns >= self.opts.turn_cap:
            self._finish([], say("{turns} turns have been played: the game is a draw.", turns=self.turns), events)
            return
        self.current = other
        deck = self._deck(other)
        if deck:
            code = deck.pop(0)
            self.hands[other].append(code)
            self.emit(events, None, {other: say("You draw {card}.", card=show(code))})

    def _on_goal_row(self, seat: int) -> bool:
        """Whether ``seat`` controls a card on its goal row (the board's zone says whose it is)."""
        return any(self.board.get(CELLS[i], [None])[0] == seat for i in self.goal_row(seat))

    def _penalty(self, seat: int, events: list[Event]) -> None:
        """§2.6: the board repeats a stored state."""
        rng = self.rng()
        other = 1 - seat
        if len(self.out) >= 6:
            for s in (seat, other):
                got = []
                for _ in range(3):
                    code = self.out.pop(rng.randrange(len(self.out)))
                    if code in self.out_shown:
                        self.out_shown.remove(code)
                    self.hands[s].append(code)
                    got.append(code)
                self.emit(events, None, {s: say("You draw {cards} from the out-of-play pile.",
                                                cards=Many([show(c) for c in got]))},
                          log=True)
            self.emit(events, say("Repetition: the board repeats an earlier state. {player} draws 3 cards from the "
                                  "out-of-play pile, then {other} draws 3.",
                                  player=self.players[seat], other=self.players[other]), kind="penalty")
            self._forget()
            return
        pool = [("board", c) for c in sorted(self.board, key=INDEX.__getitem__)]
        pool += [("hand", f"{s}:{i}") for s in (self.south, 1 - self.south) for i in range(len(self.hands[s]))]
        where, ref = pool[rng.randrange(len(pool))]
        if where == "board":
            owner, code, _ = self.board.pop(ref)
            place = say("{other}'s card at {cell}", other=self.players[owner], cell=ref)
        else:
            s, i = ref.split(":")
            owner = int(s)
            code = self.hands[owner].pop(int(i))
            place = say("{other}'s hand", other=self.players[owner])
        self.out.append(code)
        self.out_shown.append(code)
        self.emit(events, say("Repetition: the board repeats an earlier state and the out-of-play pile holds fewer "
                              "than 6 cards. A random kill takes {card} from {place}; it goes out of play.",
                              card=show(code), place=place),
                  kind="kill", data=code, reveals=[code])
        self._eliminated(events)

    def _forget(self) -> None:
        """Knowledge was lost (cards left the out-of-play pile for a hand): rewrite the log lines
        that name a card their reader may no longer place."""
        universe = set(self.all_cards())
        for entry in self.journal:
            readers: list[Any] = [None] + [int(k) for k in (entry[1] or {})]
            for r in readers:
                text = entry[0] if r is None else entry[1][str(r)]
                if not text:
                    continue
                known = self.known(r)
                unknown = {cards.base_code(c) for c in universe - known} - {cards.base_code(c) for c in known}
                if cards.names_any(str(decode(text)), unknown):
                    line = encode(say("(an earlier line about a card now back in play)"))
                    if r is None:
                        entry[0] = line
                    else:
                        entry[1][str(r)] = line

    # ----- records ----------------------------------------------------------------------------
    def redact(self, seat: int, action: str) -> str:
        """``action`` as the others saw it: a home-row order and an added card stay secret."""
        try:
            typed = parse(action)
        except IllegalMove:
            return action
        if isinstance(typed, Order):
            return "order (hidden)"
        if isinstance(typed, Add):
            return f"add (hidden) {typed.dst}"
        return action

    # ----- forfeits and results ---------------------------------------------------------------
    def _forfeit(self, seat: int) -> list[Event]:
        events: list[Event] = []
        self.attack = None
        self._finish([1 - seat], say("{player} left the game: {other} wins (ruling 25).",
                                     player=self.players[seat], other=self.players[1 - seat]),
                     events)
        return events

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        return Outcome(tuple(self.winners), summary=decode(self.end))

    # ----- what each recipient sees -----------------------------------------------------------
    def known(self, seat: int | None) -> frozenset[str]:
        out = {v[1] for v in self.board.values() if v[2] or v[0] == seat}
        out |= set(self.out_shown)
        if seat is not None and self.hands:
            out |= set(self.hands[seat])
        return frozenset(out)

    def view(self, seat: int | None) -> Cardchess2View:
        names = (SIDES[self.side(0)], SIDES[self.side(1)])
        board = tuple(BoardCard(c, v[0], names[v[0]], v[1] if v[2] or v[0] == seat else HIDDEN, bool(v[2]))
                      for c, v in sorted(self.board.items(), key=lambda kv: INDEX[kv[0]]))
        a = self.attack
        attack = None
        if a is not None:
            attack = AttackView(a["attacker"], 1 - a["attacker"], a["target"], a["card"], a["def"],
                                tuple(Striking(*s) for s in a["strikers"]), a["sigma"],
                                tuple(Enforcing(*e) for e in a["enforcers"]), a["enforcement"], self.phase)
        return Cardchess2View(
            **self.base_view(seat), south=self.south, board=board,
            hand_sizes=tuple(len(h) for h in self.hands),
            hand=tuple(sorted(self.hands[seat], key=_hand_key)) if seat is not None else (),
            deck_sizes=tuple(len(d) for d in self.decks), out_size=len(self.out),
            turn=self.turns + 1, turn_cap=self.opts.turn_cap, current=self.current, setup=self.phase == "setup",
            ordered=tuple(self.ordered), attack=attack, options=tuple(self.options))


@functools.lru_cache(maxsize=64)  # bench: playouts/s — asked at every step (3× fewer steps/s without, with _rules)
def _options(stored: tuple[str, ...]) -> Cardchess2Options:
    opts = Cardchess2Options.parse(stored)
    assert isinstance(opts, Cardchess2Options)
    return opts


@functools.lru_cache(maxsize=64)  # bench: playouts/s — asked at every step
def _rules(stored: tuple[str, ...]) -> Rules:
    o = _options(stored)
    return Rules(o.short_range, o.pawn_march, o.optional_step, o.special_first, o.wide_powers)


def _hand_key(code: str) -> tuple[int, str]:
    return ("A23456789TJQK".index(code[0]), code[1:])


def _strikers_text(strikers: Sequence[Sequence[Any]]) -> Many:
    parts = []
    for code, origin, at, v in strikers:
        where = at if origin == at else f"{origin}→{at}"
        parts.append(say("{card} {cell} ({value})", card=show(code), cell=where, value=v))
    return Many(parts)
