"""Court Wars (Kroc Camen and Prenuntius): guard your court, tear down the others'.

The state machine. Everything is public except the order of the draw pile as first shuffled;
every drawn card is announced. Actions and their notation: :mod:`.actions`; views: :mod:`.view`.

A drawn card that can only be discarded (no stack takes the guard, no place for the joker, no
attack after an ace) is discarded automatically and announced.

A player who resigns or forfeits is eliminated at once: the pending card (if it was their turn),
then their guards (innermost first) and jokers go to the discard pile, and their courts lie face
down where they were, so every card stays accounted for.

Turning the discard pile over keeps its order, which everyone watched being made: the new draw
pile's order is public. Under Shuffle Recycle it is hidden, as the first shuffle's was (ruling
19): only its count is public, so its cards are no longer known where they are (``known``), the
view shows a count, and an event that names a card says so (``reveals``: it may be shuffled
away within the same move). The journal is never redacted: it tells what was discarded, never
the order the shuffle made.
"""

from __future__ import annotations

import functools
import marshal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.engine import cards
from bot.engine.core import (
    Action, Choices, Decision, Event, Game, IllegalMove, KeepsAnswers, Outcome, choices_from_actions,
    fields_with_flat_sliced,
)
from bot.engine.options import Options, setting, variant
from bot.engine.words import CardName, Many, Phrase, decode, encode, say, say_n

from .actions import LETTERS, SUIT_ORDER, Attack, Defend, Discard, Draw, Place, PlaceJoker, Resign, Skip, parse
from .view import CourtWarsView, PositionView, SeatView

GUARD_RANKS = "23456789T"
NO_JOKERS = "No Jokers"
SAME_VALUE = "Same-Value"
SHUFFLE_RECYCLE = "Shuffle Recycle"
SINGLE_ACE = "Single Ace"
LOG_SIZE = 12

CREDIT = "Court Wars by Kroc Camen and Prenuntius (CC BY 3.0)"
SUMMARY = (
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
    f"_{CREDIT}_"
)


def guard_value(card: str) -> int:
    """2..10 for a guard, 0 for anything else."""
    r = cards.rank(card)
    return GUARD_RANKS.index(r) + 2 if r and r in GUARD_RANKS else 0


# A position's and a seat's view are made from a few values that recur from state to state (most
# moves change one stack): each is made once and shared (they are frozen).
# bench: playouts/s and memory — most views of a game share these
@functools.lru_cache(maxsize=4096, typed=True)
def _position_view(s: int, i: int, court: str, state: str, joker: str | None, guards: tuple[str, ...]) -> PositionView:
    living = CourtWarsGame.is_living({"state": state})
    attack = sum(guard_value(g) for g in guards)  # attack_of
    return PositionView(letter=LETTERS[i], ref=f"{s + 1}:{LETTERS[i]}", court=court, state=state,  # type: ignore[arg-type]
                        joker=joker, guards=guards, attack=attack if living else 0,
                        defence=10 + attack if living else 0)  # defence_of


@functools.lru_cache(maxsize=1024, typed=True)
def _seat_view(s: int, name: str, suit: str, eliminated: bool, positions: tuple[PositionView, ...],
               left: bool = False) -> SeatView:
    living = [p for p in positions if CourtWarsGame.is_living({"state": p.state})]
    return SeatView(seat=s, name=name, suit=suit, eliminated=eliminated, positions=positions, living=len(living),
                    total_defence=sum(p.defence for p in living), left=left)  # total_defence


def is_guard(card: str) -> bool:
    return guard_value(card) > 0


def is_court(card: str) -> bool:
    return cards.rank(card) in ("J", "Q", "K")


def is_ace(card: str) -> bool:
    return cards.rank(card) == "A"


def cn(card: str) -> CardName:
    """A card named in a phrase (``7♦``; said as each language names its cards)."""
    return CardName(card, cards.pretty(card))


def pretty_cards(cs: Sequence[str]) -> Many:
    """``7♦ 5♣``: cards in plain sight, in the order given (a list said in any language)."""
    return Many([cn(c) for c in cs], " ")


# ----- options ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CourtWarsOptions(Options):
    title: ClassVar[str] = "Court Wars"

    no_jokers: bool = variant(NO_JOKERS, "Play with 52 cards: no jokers.")
    same_value: bool = variant(SAME_VALUE, "A guard equal in value to the outermost guard may also be "
                                           "placed (8, 8, 4).")
    shuffle_recycle: bool = variant(SHUFFLE_RECYCLE, "Shuffle the discard pile before turning it over into "
                                                     "a new draw pile.")
    single_ace: bool = variant(SINGLE_ACE, "An ace drawn as the follow-up draw of an Ace sequence is simply "
                                           "discarded and the turn ends.")
    rounds: int = setting(20, 0, 1000, "Full rounds without a defeated position before the game ends and "
                                       "the most living stacks win (ruling 18); 0 turns the limit off.")
    first: int = setting(-1, -1, 3, "The seat that starts (0 is the first seat); -1 picks at random. "
                                    "A rematch sets it by the series rule.")

    def check_players(self, n: int) -> None:
        if self.first >= n:
            raise IllegalMove(say("Setting first must be a seat from 0 to {last} (or -1 for random).", last=n - 1),
                              "options")


# ----- the state ----------------------------------------------------------------------------
_ATOMS = frozenset({str, int, bool, float, type(None)})
# Lists of cards, seats or flags (sliced by ``copy``); the courts, journal, opened and winners
# are copied by hand; any other field is an atom or goes through marshal.
_FLAT = ("players", "options", "forfeited", "suits", "eliminated", "draw_pile", "discard_pile", "build_left",
         "round_seen")
_COPIED = frozenset({*_FLAT, "courts", "journal", "opened", "winners"})
STAGE_DECISION = {"build": "pick", "guard": "guard", "joker": "joker", "turn": "turn", "ace": "ace"}


@dataclass
class CourtWarsGame(KeepsAnswers, Game):
    game_id = "court_wars"
    title = "Court Wars"
    min_players = 2
    max_players = 4
    Options = CourtWarsOptions
    state_version = 2
    log_size = LOG_SIZE
    credit = CREDIT
    summary = SUMMARY

    suits: list[str] = field(default_factory=list)
    # courts[seat][i]: {"court": "KS", "state": "alive"|"defeated"|"jokered", "joker": str|None,
    # "guards": [innermost ... outermost]}; i indexes LETTERS (K, Q, J).
    courts: list[list[dict[str, Any]]] = field(default_factory=list)
    eliminated: list[bool] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)  # top first
    discard_pile: list[str] = field(default_factory=list)  # bottom first, top last
    recycled: int = 0  # times the discard pile was turned over (its order is then public, unless shuffled)
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
    winners: list[int] | None = None
    end_summary: Any = ""  # how the game ended: a phrase's JSON (an older state: English text)
    end_reason: str = ""

    @property
    def opts(self) -> CourtWarsOptions:  # typed for the checker
        return super().opts  # type: ignore[return-value]

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        n = len(self.players)
        first = self.opts.first
        self.suits = [SUIT_ORDER[i] for i in range(n)]
        court_cards = {L + s for s in self.suits for L in LETTERS}
        self.courts = [
            [{"court": L + s, "state": "alive", "joker": None, "guards": []} for L in LETTERS]
            for s in self.suits
        ]
        self.eliminated = [False] * n
        if deck is None:
            pile = [c for c in cards.deck(0 if self.opts.no_jokers else 2) if c not in court_cards]
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
        names = Many([f"{p} ({cards.SUIT_SYMBOL[s]})" for p, s in zip(self.players, self.suits, strict=True)])
        self._note(say("Courts: {names}. {name} picks first in the opening build.", names=names,
                       name=self.players[self.first]))

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """v1 (the one-module engine) → v2: the text ``log`` becomes the ``journal`` (public
        entries, cards written with suit symbols as v2 writes them); options are normalised; a
        forfeit now counts as a move; the seat to act opened its decision at the last move."""
        if data.get("format") != 1:
            return super().upgrade(data)
        state = dict(data["state"])
        log = state.pop("log", [])
        state["journal"] = [[cards.pretty_text(line), {}] for line in log][-LOG_SIZE:]
        state["options"] = CourtWarsOptions.parse(state.get("options", [])).dump()
        state["move_count"] = int(state.get("move_count", 0)) + len(state.get("forfeited", []))
        over = state.get("winners") is not None
        state["opened"] = {str(state["current"]): state["move_count"]} if state["move_count"] and not over else {}
        return {**data, "format": 2, "state": state}

    def _state(self) -> dict[str, Any]:
        """A deep copy of every field, as the core's marshal copy makes it (:func:`fields_with_flat_sliced`)."""
        # bench: playouts/s and CPU per interaction — every ``apply`` copies the state
        state = fields_with_flat_sliced(self, _FLAT)
        state["courts"] = [[{**p, "guards": p["guards"][:]} for p in court] for court in state["courts"]]
        state["journal"] = marshal.loads(marshal.dumps(state["journal"]))  # its phrases are nested dicts
        state["opened"] = dict(state["opened"])
        if state["winners"] is not None:
            state["winners"] = state["winners"][:]
        deep = [name for name in state if name not in _COPIED and type(state[name]) not in _ATOMS]
        if deep:
            state.update(zip(deep, marshal.loads(marshal.dumps([state[n] for n in deep])), strict=True))
        return state

    def copy(self) -> "CourtWarsGame":
        """A deep copy of every field, as the core's marshal copy makes it (cards and texts are
        immutable strings, so only the lists and dicts are new). A test holds it equal to the core's."""
        # bench: playouts/s and CPU per interaction — every ``apply`` makes one
        new = object.__new__(type(self))  # the dataclass's __init__ only sets the fields
        new.__dict__.update(self._state())
        return new

    # ----- helpers --------------------------------------------------------------------
    def _note(self, text: Phrase, events: list[Event] | None = None, shows: Sequence[str] = ()) -> None:
        """A public event, logged in the journal (every Court Wars event is public). ``shows``:
        the cards it names, seen by everyone as it happens (under Shuffle Recycle a card discarded
        may lie hidden in a new draw pile by the end of the same move)."""
        self.emit(events, text, reveals=shows)

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

    @staticmethod
    def is_living(pos: dict[str, Any]) -> bool:
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
        """``K♠`` or ``joker on Q♠`` (a card, or a phrase naming it)."""
        pos = self.courts[seat][i]
        court = cn(pos["court"])
        return say("joker on {court}", court=court) if pos["state"] == "jokered" else court

    def whose(self, seat: int, i: int) -> Phrase:
        """``Ana's K♠``: a player's stack."""
        return say("{name}'s {stack}", name=self.players[seat], stack=self.stack_name(seat, i))

    def can_place(self, seat: int, i: int, card: str) -> bool:
        """§3.2: onto one of your living stacks, strictly lower than the outermost guard."""
        pos = self.courts[seat][i]
        if not self.is_living(pos):
            return False
        if not pos["guards"]:
            return True
        v, outer = guard_value(card), guard_value(pos["guards"][-1])
        return v < outer or (self.opts.same_value and v == outer)

    def guard_spots(self, seat: int, card: str) -> list[int]:
        return [i for i in range(3) if self.can_place(seat, i, card)]

    def joker_spots(self, seat: int) -> list[int]:
        return [i for i, p in enumerate(self.courts[seat]) if p["state"] == "defeated"]

    def attacks(self, seat: int, source: int | None = None, spend: int | None = None,
                opp_only: int | None = None, target: int | None = None) -> Iterator[tuple[int, int, int, int, int, int]]:
        """Every legal attack (§3.4's move generator), optionally narrowed to a source stack,
        a spend count, a target seat and stack: (source, m, target seat, target position, r, cost)."""
        for src in self.living(seat):
            if source is not None and src != source:
                continue
            mine = self.courts[seat][src]["guards"]
            for m in range(1, len(mine) + 1):
                if spend is not None and m != spend:
                    continue
                power = sum(guard_value(g) for g in mine[-m:])
                for opp in self._order_from(seat):
                    if opp == seat or (opp_only is not None and opp != opp_only):
                        continue
                    for t in self.living(opp):
                        if target is not None and t != target:
                            continue
                        theirs = self.courts[opp][t]["guards"]
                        for r in range(1, len(theirs) + 2):
                            cost = self.cost(theirs, r)
                            if power >= cost:
                                yield src, m, opp, t, r, cost

    @staticmethod
    def cost(guards: list[str], r: int) -> int:
        """Removing the outermost r cards: guards cost their value, the court all guards + 10."""
        if r > len(guards):
            return sum(guard_value(g) for g in guards) + 10
        return sum(guard_value(g) for g in guards[-r:])

    # ----- who acts -------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        return self._kept("decisions", self._decisions)

    def _decisions(self) -> tuple[Decision, ...]:
        if self.winners is not None:
            return ()
        return (Decision(self.current, STAGE_DECISION[self.phase], public=True, prompt=self._asked()),)

    def _asked(self) -> str:
        pending = cn(self.pending) if self.pending else ""
        ph = self.phase
        if ph == "build":
            return say("Draw for the opening build.")
        if ph == "guard":
            return say("Place the drawn guard {card} on one of your stacks, or discard it.", card=pending)
        if ph == "joker":
            return say("Put the joker on one of your defeated positions, or discard it.")
        if ph == "turn":
            return say("Defend (draw a card) or attack.")
        if ph == "ace":
            return say("You drew an ace: attack, or skip the attack; then draw again.")
        return ""

    def _expecting(self) -> Phrase:
        name = self.players[self.current]
        pending = cn(self.pending) if self.pending else ""
        return {
            "build": lambda: say("{name} must draw for the opening build.", name=name),
            "guard": lambda: say("{name} must place the drawn guard {card} on one of their stacks, or discard it.",
                                 name=name, card=pending),
            "joker": lambda: say("{name} must put the joker on one of their defeated positions, or discard it.",
                                 name=name),
            "turn": lambda: say("{name} must defend (draw a card) or attack.", name=name),
            "ace": lambda: say("{name} drew an ace and may attack or skip the attack.", name=name),
        }[self.phase]()

    # ----- actions and choices --------------------------------------------------------
    def parse(self, seat: int, text: str) -> Action:
        try:
            return parse(seat, text, self.suits)
        except IllegalMove as e:
            if e.rule == "verb" and self.winners is None:
                raise IllegalMove(say("{move} is not possible now: {expected}", move=repr(' '.join(text.split())),
                                      expected=self._expecting()), "turn") from None
            raise

    def _token_lists(self, seat: int, prefix: Sequence[str]) -> Iterator[tuple[str, ...]]:
        """The token lists of every legal action that start with ``prefix`` (lazily, narrowed by
        the prefix so a picker step costs little). Reads only public state."""
        if self.winners is not None or seat != self.current:
            return
        head = prefix[0] if prefix else None
        if self.phase == "build":
            yield ("draw",)
        elif self.phase == "guard":
            assert self.pending is not None
            for i in self.guard_spots(seat, self.pending):
                yield ("place", LETTERS[i])
            yield ("discard",)
        elif self.phase == "joker":
            for i in self.joker_spots(seat):
                yield ("joker", LETTERS[i])
            yield ("discard",)
        else:
            if self.phase == "turn":
                yield ("defend",)
            if head is None:  # one attack is enough to offer the verb
                for a in self.attacks(seat):
                    yield self._attack_tokens(a)
                    break
            elif head == "attack":
                narrow = self._narrow(prefix[1:])
                if narrow is not None:
                    for a in self.attacks(seat, *narrow):
                        yield self._attack_tokens(a)
            if self.phase == "ace":
                yield ("skip",)
        yield ("resign",)

    @staticmethod
    def _attack_tokens(a: tuple[int, int, int, int, int, int]) -> tuple[str, ...]:
        src, m, opp, t, r, _ = a
        return ("attack", LETTERS[src], str(m), f"{opp + 1}:{LETTERS[t]}", str(r))

    def _narrow(self, args: Sequence[str]) -> tuple[int | None, int | None, int | None, int | None] | None:
        """Attack arguments given so far (canonical tokens) as generator filters; None if malformed."""
        out: list[int | None] = [None, None, None, None]
        try:
            if len(args) > 0:
                out[0] = LETTERS.index(args[0])
            if len(args) > 1:
                out[1] = int(args[1])
            if len(args) > 2:
                s, _, t = args[2].partition(":")
                out[2], out[3] = int(s) - 1, LETTERS.index(t)
        except ValueError:
            return None
        return out[0], out[1], out[2], out[3]

    def choices(self, seat: int, prefix: Sequence[str] = ()) -> Choices:
        prefix = tuple(prefix)
        return self._kept(("choices", seat, prefix), self._choices, seat, prefix)

    def _choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        prompt = self._step_prompt(prefix)
        return choices_from_actions(self._token_lists(seat, prefix), prefix,
                                    lambda tokens: (self._label(seat, tokens), self._data(tokens)), prompt)

    @staticmethod
    def _step_prompt(prefix: tuple[str, ...]) -> str:
        if prefix[:1] == ("attack",):
            return (say("Attack with which stack?"), say("Spend how many guards (outermost first)?"),
                    say("Attack which stack?"), say("Remove how many cards (the last one is the court itself)?"),
                    "")[min(len(prefix) - 1, 4)]
        if prefix[:1] in (("place",), ("joker",)):
            return say("On which position?")
        return "" if prefix else say("Choose your move.")

    @staticmethod
    def _data(tokens: tuple[str, ...]) -> Any:
        """Typed data for an offered token: a position letter, a number or a target reference."""
        tok = tokens[-1]
        return int(tok) if tok.isdigit() else tok

    def _label(self, seat: int, tokens: tuple[str, ...]) -> str:
        """Plain words for the action (or step) ``tokens``, cards with suit symbols."""
        verb = tokens[0]
        if verb == "attack":
            src = LETTERS.index(tokens[1]) if len(tokens) > 1 else 0
            mine = self.courts[seat][src]["guards"]
            if len(tokens) == 1:
                return say("Attack: spend guards to cut down an opponent's stack")
            if len(tokens) == 2:
                return say("From {stack} [{guards}] (Attack {attack})", stack=self.stack_name(seat, src),
                           guards=pretty_cards(mine), attack=self.attack_of(seat, src))
            m = int(tokens[2])
            spent = mine[-m:]
            power = sum(guard_value(g) for g in spent)
            if len(tokens) == 3:
                return say("Spend {guards} ({power})", guards=pretty_cards(spent), power=power)
            s, _, t_letter = tokens[3].partition(":")
            opp, t = int(s) - 1, LETTERS.index(t_letter)
            whose = self.whose(opp, t)
            theirs = self.courts[opp][t]["guards"]
            if len(tokens) == 4:
                return say("Against {stack} [{guards}] (Defence {defence})", stack=whose, guards=pretty_cards(theirs),
                           defence=self.defence_of(opp, t))
            r = int(tokens[4])
            cost = self.cost(theirs, r)
            what = say("defeat {stack}", stack=whose) if r > len(theirs) else \
                say("remove {cards} from {stack}", cards=pretty_cards(theirs[-r:]), stack=whose)
            return say("Spend {guards} ({power}) from {stack} → {what} (cost {cost})", guards=pretty_cards(spent),
                       power=power, stack=self.stack_name(seat, src), what=what, cost=cost)
        if verb == "place" and self.pending:
            if len(tokens) == 1:
                return say("Place {card} on one of your stacks", card=cn(self.pending))
            i = LETTERS.index(tokens[1])
            a = self.attack_of(seat, i) + guard_value(self.pending)
            return say("Place {card} on {stack} → Attack {attack}, Defence {defence}", card=cn(self.pending),
                       stack=self.stack_name(seat, i), attack=a, defence=a + 10)
        if verb == "joker":
            if len(tokens) == 1:
                return say("Put the joker on one of your defeated positions")
            i = LETTERS.index(tokens[1])
            return say("Put the joker on {court} (Defence 10)", court=cn(self.courts[seat][i]["court"]))
        if verb == "discard" and self.pending:
            return say("Discard {card}", card=cn(self.pending))
        if verb == "draw":
            return say("Draw for the opening build")
        if verb == "defend":
            return say("Defend: draw a card")
        if verb == "skip":
            return say("Skip the attack and draw again")
        if verb == "resign":
            return say("Resign (you are eliminated)")
        return " ".join(tokens)

    # ----- applying -------------------------------------------------------------------
    ALLOWED: ClassVar[dict[str, tuple[type[Action], ...]]] = {
        "build": (Draw, Resign),
        "guard": (Place, Discard, Resign),
        "joker": (PlaceJoker, Discard, Resign),
        "turn": (Defend, Attack, Resign),
        "ace": (Attack, Skip, Resign),
    }

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        name = self.players[seat]
        if not isinstance(action, self.ALLOWED[self.phase]):
            raise IllegalMove(say("That move is not possible now: {expected}", expected=self._expecting()), "turn")
        if isinstance(action, Resign):
            self._note(say("{name} resigns.", name=name), events)
            events += self._eliminate(seat, say("resigned"))
        elif isinstance(action, Draw):
            self._build_draw(seat, events)
        elif isinstance(action, Defend):
            self._defend_draw(seat, events, follow_up=False)
        elif isinstance(action, Skip):
            self._note(say("{name} skips the attack.", name=name), events)
            self._defend_draw(seat, events, follow_up=True)
        elif isinstance(action, Discard):
            card = self.pending
            assert card is not None
            self.pending = None
            self.discard_pile.append(card)
            self._note(say("{name} discards {card}.", name=name, card=cn(card)), events, (card,))
            self._end_turn(events)
        elif isinstance(action, Place):
            self._place(seat, action, events)
        elif isinstance(action, PlaceJoker):
            self._place_joker(seat, action, events)
        elif isinstance(action, Attack):
            self._check_attack(seat, action)
            self._attack(seat, action, events)
            if self.winners is None:
                if self.phase == "ace":
                    self._defend_draw(seat, events, follow_up=True)
                else:
                    self._end_turn(events)
        return events

    def _place(self, seat: int, action: Place, events: list[Event]) -> None:
        card = self.pending
        assert card is not None
        i = action.index
        pos = self.courts[seat][i]
        if not self.is_living(pos):
            raise IllegalMove(say("{court} is defeated: a guard may go only onto one of your living stacks "
                                  "(ruling 16 — see /game rules section: Rulings).", court=cn(pos["court"])), "R16")
        if not self.can_place(seat, i, card):
            if self.opts.same_value:
                why = say("{card} cannot go on {stack}: a new guard must be lower than or equal to the outermost "
                          "guard {outer} (see /game rules section: The turn).", card=cn(card),
                          stack=self.stack_name(seat, i), outer=cn(pos["guards"][-1]))
            else:
                why = say("{card} cannot go on {stack}: a new guard must be strictly lower than the outermost "
                          "guard {outer} (see /game rules section: The turn).", card=cn(card),
                          stack=self.stack_name(seat, i), outer=cn(pos["guards"][-1]))
            raise IllegalMove(why, "3.2")
        self.pending = None
        pos["guards"].append(card)
        self._note(say("{name} places {card} on {stack} (Attack {attack}, Defence {defence}).", name=self.players[seat],
                       card=cn(card), stack=self.stack_name(seat, i), attack=self.attack_of(seat, i),
                       defence=self.defence_of(seat, i)), events, (card,))
        self._end_turn(events)

    def _place_joker(self, seat: int, action: PlaceJoker, events: list[Event]) -> None:
        card = self.pending
        assert card is not None
        pos = self.courts[seat][action.index]
        if pos["state"] != "defeated":
            if pos["state"] == "jokered":
                why = say("{court} already has a joker: a joker may go only onto one of your defeated positions "
                          "without a joker (ruling 11 — see /game rules section: Rulings).", court=cn(pos["court"]))
            else:
                why = say("{court} is not defeated: a joker may go only onto one of your defeated positions "
                          "without a joker (ruling 11 — see /game rules section: Rulings).", court=cn(pos["court"]))
            raise IllegalMove(why, "R11")
        self.pending = None
        pos["state"] = "jokered"
        pos["joker"] = card
        self._note(say("{name} puts the joker on {court}: a new stack (Defence 10).", name=self.players[seat],
                       court=cn(pos["court"])), events)
        self._end_turn(events)

    def _check_attack(self, seat: int, a: Attack) -> None:
        """§3.4 and rulings 3–9, 15: refuse an attack the rules forbid, in plain words."""
        src = a.source_index
        mine = self.courts[seat][src]
        if not self.is_living(mine):
            raise IllegalMove(say("Your {court} is defeated and cannot attack.", court=cn(mine["court"])), "3.4")
        if not mine["guards"]:
            raise IllegalMove(say("Your {stack} has no guards: a stack without guards has Attack 0 and cannot attack "
                                  "(ruling 9 — see /game rules section: Rulings).", stack=self.stack_name(seat, src)),
                              "R9")
        k = len(mine["guards"])
        if not 1 <= a.spend <= k:
            stack = self.stack_name(seat, src)
            if k == 1:
                why = say("Spend 1 guard of {stack}, not {spend} (you spend the outermost guards first: ruling 3 — "
                          "see /game rules section: Rulings).", stack=stack, spend=a.spend)
            else:
                why = say("Spend from 1 to {k} guards of {stack}, not {spend} (you spend the outermost guards first: "
                          "ruling 3 — see /game rules section: Rulings).", k=k, stack=stack, spend=a.spend)
            raise IllegalMove(why, "R3")
        opp = a.target_seat
        if opp == seat:
            raise IllegalMove(say("You cannot attack your own stacks: an attack targets an opponent's stack "
                                  "(see /game rules section: The turn)."), "3.4")
        if self.eliminated[opp]:
            raise IllegalMove(say("{name} is eliminated and cannot be targeted: only living opponents may be "
                                  "attacked (ruling 15 — see /game rules section: Rulings).", name=self.players[opp]),
                              "2")
        t = a.target_index
        theirs = self.courts[opp][t]
        if not self.is_living(theirs):
            raise IllegalMove(say("{stack} is already defeated.", stack=say("{name}'s {stack}", name=self.players[opp],
                                                                            stack=cn(theirs["court"]))), "3.4")
        j = len(theirs["guards"])
        if not 1 <= a.remove <= j + 1:
            target = self.whose(opp, t)
            raise IllegalMove(say_n("Remove from 1 to {most} cards of {stack} ({n} guard + the court), not {remove}.",
                                    "Remove from 1 to {most} cards of {stack} ({n} guards + the court), not {remove}.",
                                    most=j + 1, stack=target, n=j, remove=a.remove), "R4")
        spent = mine["guards"][-a.spend:]
        power = sum(guard_value(g) for g in spent)
        cost = self.cost(theirs["guards"], a.remove)
        if power < cost:
            raise IllegalMove(say("Power {power} from {guards} is less than the cost {cost} of {what}: an attack needs "
                                  "power at least its cost (see /game rules section: The turn).", power=power,
                                  guards=pretty_cards(spent), cost=cost, what=self._what(opp, t, a.remove)), "3.4")

    def _what(self, opp: int, t: int, r: int) -> Phrase:
        theirs = self.courts[opp][t]["guards"]
        whose = self.whose(opp, t)
        if r > len(theirs):
            return say("defeating {stack}", stack=whose)
        return say("removing {cards} from {stack}", cards=pretty_cards(theirs[-r:]), stack=whose)

    def _attack(self, seat: int, a: Attack, events: list[Event]) -> None:
        mine = self.courts[seat][a.source_index]
        opp, t = a.target_seat, a.target_index
        theirs = self.courts[opp][t]
        spent = mine["guards"][-a.spend:]
        power = sum(guard_value(g) for g in spent)
        defeat = a.remove > len(theirs["guards"])
        removed = theirs["guards"][:] if defeat else theirs["guards"][-a.remove:]
        what = self.whose(opp, t)
        del mine["guards"][-a.spend:]
        del theirs["guards"][len(theirs["guards"]) - len(removed):]
        # Discard order (§2): spent guards, removed guards, a defeated joker; innermost first.
        self.discard_pile += spent + removed
        head = dict(name=self.players[seat], guards=pretty_cards(spent), power=power,
                    stack=self.stack_name(seat, a.source_index), target=what)
        if defeat:
            if theirs["state"] == "jokered":
                self.discard_pile.append(theirs["joker"])
                theirs["joker"] = None
            theirs["state"] = "defeated"
            self.turn_had_defeat = True
            if removed:
                line = say("{name} spends {guards} ({power}) from {stack} and defeats {target}, removing {removed}.",
                           removed=pretty_cards(removed), **head)
            else:
                line = say("{name} spends {guards} ({power}) from {stack} and defeats {target}.", **head)
            self._note(line, events, spent + removed)
            if not self.living(opp):
                self._note(say("{name} is eliminated.", name=self.players[opp]), events)
                self.eliminated[opp] = True
                self.build_left = [s for s in self.build_left if s != opp]
                self._check_victory(events)
        else:
            self._note(say("{name} spends {guards} ({power}) from {stack} and removes {removed} from {target}.",
                           removed=pretty_cards(removed), **head), events, spent + removed)

    def _check_victory(self, events: list[Event]) -> bool:
        left = self.active()
        if len(left) == 1:
            self.winners = left
            self.phase = "over"
            self.pending = None
            self.end_reason = "last_standing"
            summary = say("{name} wins: the last player standing.", name=self.players[left[0]])
            self.end_summary = encode(summary)
            self._note(summary, events)
            return True
        return False

    def _draw(self, events: list[Event]) -> str | None:
        """One card from the draw pile, turning the discard pile over if needed (ruling 14).

        ``None`` when nothing can be drawn: both piles empty, or the loop guard (§3.3).
        """
        if not self.draw_pile:
            if not self.discard_pile:
                self._note(say("There is no card left to draw."), events)
                return None
            if self.turnovers_this_turn >= 1:
                self._note(say("The discard pile would be turned over a second time this turn: "
                               "the turn ends (loop guard)."), events)
                return None
            pile = self.discard_pile
            self.discard_pile = []
            how = say_n("The discard pile is turned over ({n} card).", "The discard pile is turned over ({n} cards).",
                        n=len(pile))
            if self.opts.shuffle_recycle:
                self.rng().shuffle(pile)
                how = say_n("The discard pile is shuffled and turned over ({n} card).",
                            "The discard pile is shuffled and turned over ({n} cards).", n=len(pile))
            self.draw_pile = pile  # the card discarded earliest is now on top
            self.recycled += 1
            self.turnovers_this_turn += 1
            self._note(how, events)
        return self.draw_pile.pop(0)

    def _draws(self, events: list[Event]) -> Iterator[str]:
        """Cards drawn one at a time, for as long as the caller draws again; none left ends the turn."""
        while (card := self._draw(events)) is not None:
            yield card
        self._end_turn(events)

    def _build_draw(self, seat: int, events: list[Event]) -> None:
        name = self.players[seat]
        for card in self._draws(events):
            if not is_guard(card):
                self.discard_pile.append(card)
                self._note(say("{name} draws {card}: not a guard, discarded; draw again.", name=name, card=cn(card)),
                           events, (card,))
                continue
            self._offer_guard(seat, card, events, False)
            return

    def _offer_guard(self, seat: int, card: str, events: list[Event], ruling: bool) -> None:
        """A drawn guard waits for the player's choice, or is discarded if no stack can take it."""
        name = self.players[seat]
        if self.guard_spots(seat, card):
            self.pending = card
            self.phase = "guard"
            self._note(say("{name} draws {card}.", name=name, card=cn(card)), events, (card,))
        else:
            self.discard_pile.append(card)
            if ruling:
                line = say("{name} draws {card}: no stack can take it, discarded (ruling 17).", name=name, card=cn(card))
            else:
                line = say("{name} draws {card}: no stack can take it, discarded.", name=name, card=cn(card))
            self._note(line, events, (card,))
            self._end_turn(events)

    def _defend_draw(self, seat: int, events: list[Event], follow_up: bool) -> None:
        name = self.players[seat]
        for card in self._draws(events):
            shown = cn(card)
            if is_court(card):
                self.discard_pile.append(card)
                self._note(say("{name} draws {card}: a court card, discarded; the turn ends.", name=name, card=shown),
                           events, (card,))
                self._end_turn(events)
                return
            if is_guard(card):
                self._offer_guard(seat, card, events, True)
                return
            if cards.is_joker(card):
                if self.joker_spots(seat):
                    self.pending = card
                    self.phase = "joker"
                    self._note(say("{name} draws a joker.", name=name), events)
                else:
                    self.discard_pile.append(card)
                    self._note(say("{name} draws a joker: no defeated position to take it, discarded (ruling 12).",
                                   name=name), events)
                    self._end_turn(events)
                return
            # an ace
            self.discard_pile.append(card)
            if follow_up and self.opts.single_ace:
                self._note(say("{name} draws {card}: a follow-up ace is discarded and the turn ends (Single Ace).",
                               name=name, card=shown), events, (card,))
                self._end_turn(events)
                return
            if next(self.attacks(seat), None) is not None:
                self.phase = "ace"
                self._note(say("{name} draws {card}: an Ace — attack, then draw again.", name=name, card=shown),
                           events, (card,))
                return
            self._note(say("{name} draws {card}: an Ace, but no attack is possible; draw again.", name=name,
                           card=shown), events, (card,))
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
                    self._note(say("The opening build is over. {name} takes the first turn.", name=self.players[start]),
                               events)
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
        limit = self.opts.rounds
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
        who = Many([self.players[s] for s in top], "and")
        if len(top) > 1:
            summary = say("No position defeated in {limit} rounds: {who} share the win with {living} living "
                                   "stacks (total Defence {defence}).", limit=limit, who=who, living=best_living,
                                   defence=best_def)
        else:
            summary = say("No position defeated in {limit} rounds: {who} wins with {living} living stacks "
                                   "(total Defence {defence}).", limit=limit, who=who, living=best_living,
                                   defence=best_def)
        self.end_summary = encode(summary)
        self._note(summary, events)

    def _eliminate(self, seat: int, why: Phrase) -> list[Event]:
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
        self._note(say("{name} is eliminated ({why}).", name=self.players[seat], why=why), events)
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
        return self._eliminate(seat, say("forfeit"))

    # ----- results, views, knowledge --------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        details = {
            "reason": self.end_reason,
            "living_stacks": {self.players[s]: len(self.living(s)) for s in range(len(self.players))},
            "total_defence": {self.players[s]: self.total_defence(s) for s in range(len(self.players))},
        }
        score = len(self.living(self.winners[0])) if self.winners else None
        return Outcome(winners=tuple(self.winners), score=score, summary=decode(self.end_summary, True), details=details)

    def draw_order_public(self) -> bool:
        """Whether the draw pile's order is public: it was made by turning the discard pile over,
        unshuffled (ruling 14); a shuffle, the first or a Shuffle Recycle, hides it (ruling 19)."""
        return bool(self.recycled) and not self.opts.shuffle_recycle

    def view(self, seat: int | None) -> CourtWarsView:
        return self._kept(("view", seat), self._view, seat)

    def _view(self, seat: int | None) -> CourtWarsView:
        over = self.winners is not None
        return CourtWarsView(
            **self.base_view(seat),
            options=tuple(self.options),
            seats=self._kept("seats", self._seat_views),  # the same for every recipient
            current=None if over else self.current,
            stage=self.phase,  # type: ignore[arg-type]
            build_round=self.build_round,
            pending=self.pending,
            first=self.first,
            discard=tuple(self.discard_pile),
            draw_size=len(self.draw_pile),
            draw_pile=tuple(self.draw_pile) if self.draw_order_public() else None,
            quiet_rounds=self.quiet_rounds,
            rounds_limit=self.opts.rounds,
            winners=tuple(self.winners or ()),
            end_reason=self.end_reason,
        )

    def _seat_views(self) -> tuple[SeatView, ...]:
        return tuple(
            _seat_view(s, name, self.suits[s], self.eliminated[s],
                       tuple(_position_view(s, i, pos["court"], pos["state"], pos["joker"], tuple(pos["guards"]))
                             for i, pos in enumerate(self.courts[s])), s in self.forfeited)
            for s, name in enumerate(self.players))

    def known(self, seat: int | None) -> frozenset[str]:
        return self._kept("known", self._known)  # every seat may know the same cards

    def _known(self) -> frozenset[str]:
        """Every card on the table, the discard pile and a drawn card; the draw pile once it was
        made by turning the discard pile over (its order is the discard order everyone watched).
        Before the first turnover the draw pile is the unseen shuffle, and under Shuffle Recycle
        every new draw pile is a new unseen shuffle: its count only (ruling 19)."""
        out: set[str] = set(self.discard_pile)
        if self.pending:
            out.add(self.pending)
        for positions in self.courts:
            for pos in positions:
                out.add(pos["court"])
                out.update(pos["guards"])
                if pos["joker"]:
                    out.add(pos["joker"])
        if self.draw_order_public():
            out.update(self.draw_pile)
        return frozenset(out)


GAME = CourtWarsGame
