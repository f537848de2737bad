"""The Maginot Line state machine: who acts, the choices, applying an action, knowledge.

The phases live in their own modules (opening, construction, battle, consolidation, turn) and
act on this state; this module dispatches to them and holds what they share.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from bot.engine.core import (
    Action, Choices, Decision, Event, Game, IllegalMove, KeepsAnswers, Option, Outcome, _field_names,
)

from bot.engine.words import decode, say, say_n

from . import battle, construction, consolidation, free, opening, turn
from .actions import (AttachQueen, Boost, Commit, Declare, Done, EndTurn, Engage, Fund, Heal, Move, OrderAces,
                      PlayResource, Revive, Rush, Seize, Start, TapBase, TapResource, Assemble, parse)
from .model import COMPLETE, CREDIT, GAME_ID, NOTHING, SUMMARY, TITLE, MaginotOptions
from .view import MaginotView, view

CONSTRUCTION_MOVES = (PlayResource, TapResource, TapBase, Start, Fund, Rush)
# Moves that change the mover's board alone (besides the state's own fields): applying one copies
# that board and shares the others with the state it came from, which neither changes again.
# Finishing construction or battles changes no board at all, ending a turn two (``apply``). Any
# other move copies every board.
OWN_BOARD = CONSTRUCTION_MOVES + (Move, Assemble, Heal, Revive, AttachQueen)
# Of the mover's board, the lists of records each such move may change (append to, remove from,
# or change a record of): the copy copies those (and every card list) and shares the others, and
# their records, with the state it came from, which neither changes again.
CHANGES: dict[type, frozenset[str]] = {
    PlayResource: frozenset(("resources",)), TapResource: frozenset(("resources",)), TapBase: frozenset(),
    Start: frozenset(("building",)), Fund: frozenset(("building",)), Rush: frozenset(("building",)),
    Move: frozenset(("units",)), Assemble: frozenset(("units",)), Heal: frozenset(("units", "base")),
    Revive: frozenset(("base",)), AttachQueen: frozenset(("resources", "units")),
}
# A battle's moves change the boards of its two seats alone (their units, Aces, hands and
# discards): applying one copies those two boards and shares the others.
BATTLE_MOVES = (Declare, Engage, Commit, Seize, Boost)
# Fields no move changes in place (the core's ``forfeit`` appends to ``forfeited`` of a whole
# copy; ``opened``, ``order`` and ``winners`` are replaced, never changed): ``apply`` shares them.
SHARED = frozenset(("players", "options", "forfeited", "opened", "order", "winners"))
# The state's schema, for its copy: a board's lists of card codes, its lists of flat records.
CARD_LISTS = frozenset(("deck", "hand", "discard", "fallen", "gone", "finished"))
RECORD_LISTS = frozenset(("base", "resources", "building", "units"))
# A turn's first-step options that never change (frozen: made once).
ATTACK = Option("attack", say("Declare a battle"))
FINISH = {"construction": Option("done", say("Finish construction"), style="primary"),
          "battle": Option("done", say("Finish battles"), style="primary")}
END = Option("end", say("End your turn"), style="primary")  # consolidation's
ATOMS = frozenset((str, int, bool, float, type(None)))
PROMPT = {
    "construction": say("Construction: resources, taps and building, then finish construction."),
    "battle": say("Battles: declare a battle, or finish battles."),
    "consolidation": say("Consolidation: move and assemble units, then end your turn."),
}


@dataclass
class MaginotLine(KeepsAnswers, Game):
    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    Options: ClassVar[type[MaginotOptions]] = MaginotOptions
    credit: ClassVar[str] = CREDIT
    summary: ClassVar[str] = SUMMARY
    log_size: ClassVar[int] = 16
    HELD: ClassVar[int] = 512  # answers a finished state keeps (views, choices, knowledge): a table asks far fewer

    boards: list[dict] = field(default_factory=list)
    order: list[int] = field(default_factory=list)  # seats clockwise
    current: int = -1
    phase: str = "aces"
    pool: int = 0
    assembled: bool = False
    battle: dict | None = None
    turn_count: int = 0
    rounds_done: int = 0
    round_start: int = 0
    winners: list[int] | None = None
    summary_text: Any = ""  # the ending phrase as JSON (``encode``), or an older state's English

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        self.boards = [opening.new_board(s) for s in range(len(self.players))]
        self.order = list(range(len(self.players)))

    # ----- shared helpers -------------------------------------------------------------
    def unit(self, seat: int, uid: str) -> dict | None:
        for u in self.boards[seat]["units"]:
            if u["h"] == uid:
                return u
        return None

    def draw(self, seat: int, n: int, events: list[Event]) -> None:
        turn.draw(self, seat, n, events)

    def start_turn(self, seat: int, events: list[Event]) -> None:
        turn.start_turn(self, seat, events)

    # ----- answers kept by a finished state --------------------------------------------
    # A state that ``apply``, ``forfeit`` or ``from_json`` hands out is never changed again (the
    # next move changes a copy), so what is asked of it is worked out once: the table asks the
    # same view, choices and decisions at every press. A state being built (``new``, ``copy``,
    # a test's position, a move being applied) keeps nothing.
    def apply(self, seat: int, action: Action | str) -> tuple["MaginotLine", list[Event]]:
        """``Game.apply``, copying only the boards the move may change (``OWN_BOARD``; ending a
        turn changes the mover's board and the next player's, who untaps and draws; a battle's move,
        the boards of its two seats)."""
        action = self._checked(seat, action)
        before = self.decisions()
        if isinstance(action, OWN_BOARD):
            new = self._copy((seat,), CHANGES.get(type(action), RECORD_LISTS))
        elif isinstance(action, Done):
            new = self._copy(())
        elif isinstance(action, BATTLE_MOVES) and (pair := self._fighting(seat, action)) is not None:
            new = self._copy(pair)
        elif isinstance(action, EndTurn) and (nxt := turn.next_seat(self, seat)) is not None:
            new = self._copy((seat, nxt))
        else:
            new = self.copy()
        events = new._apply(seat, action, before)  # the copy decides what this state decides
        new.move_count += 1
        new.__dict__["_held"] = {}  # changed for good: only ``opened`` is left to set, which no answer reads
        new._reopen(before, seat)
        return new, events

    def _fighting(self, seat: int, action: Action) -> tuple[int, int] | None:
        """The two seats of the battle a battle move is in (declared: the mover and the one it
        attacks), whose boards alone it may change; None out of a battle (the move is refused)."""
        if isinstance(action, Declare):
            return (seat, action.defender) if self.battle is None else None
        bt = self.battle
        return (bt["attacker"], bt["defender"]) if bt is not None else None

    def _reopen(self, before: tuple[Decision, ...], mover: int | None) -> None:
        """``Game._reopen``; when the mover alone acts next (most moves), its decision reopens
        and no other seat's is kept: the answer without comparing the decisions."""
        now = self.decisions()
        if len(now) == 1 and now[0].seat == mover:
            self.opened = {str(mover): self.move_count}
        else:
            super()._reopen(before, mover)

    # ----- who acts -------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        return self._kept("decisions", self._decisions)

    def _decisions(self) -> tuple[Decision, ...]:
        if self.phase == "over":
            return ()
        if self.phase == "aces":
            return tuple(_aces_decision(s) for s, b in enumerate(self.boards) if not b["ordered"] and not b["out"])
        bt = self.battle
        if bt is not None:
            if bt["step"] == "engage":
                return (Decision(bt["defender"], "engage", False, "engage",
                                 say("{player} attacks you: engage attackers with your guardians.",
                                     player=self.players[bt["attacker"]])),)
            seat = battle.committing(self)
            return (Decision(seat, "commit", False, battle.default_commit(self, seat),
                             say("Your commit for this battle: battle cards, base tap, the split of your attack.")
                             if battle.needs_split(self, seat) else
                             say("Your commit for this battle: battle cards, base tap.")),)
        default = "end" if self.phase == "consolidation" else "done"
        return (Decision(self.current, "turn", False, default, PROMPT[self.phase]),)

    # ----- actions --------------------------------------------------------------------
    def parse(self, seat: int, text: str) -> Action:
        return parse(seat, text)

    def to_act(self) -> frozenset[int]:
        return self._kept("to_act", _seats, self.decisions())

    def is_over(self) -> bool:
        return self.winners is not None  # ``outcome`` is None exactly while there are no winners

    def choices(self, seat: int, prefix: Sequence[str] = ()) -> Choices:
        if type(prefix) is not tuple:
            prefix = tuple(prefix)
        return self._kept(("choices", seat, prefix), self._choices, seat, prefix)

    def _choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        for d in self.decisions():
            if d.seat == seat:
                break
        else:
            return NOTHING
        if d.name == "order-aces":
            return opening.choices(self, seat, prefix)
        if d.name == "engage":
            if not prefix:
                return Choices("token", (Option("engage", say("Engage")),), prompt=d.prompt)
            return battle.engage_choices(self, seat, prefix[1:]) if prefix[0] == "engage" else NOTHING
        if d.name == "commit":
            root = battle.commit_root(self, seat)
            if not prefix:
                return Choices("token", tuple(root), prompt=d.prompt)
            if prefix[0] in ("seize", "boost") and prefix[0] in {o.token for o in root}:
                return COMPLETE if len(prefix) == 1 else NOTHING
            return battle.commit_choices(self, seat, prefix[1:]) if prefix[0] == "commit" else NOTHING
        return self._turn_choices(seat, prefix)

    def _turn_choices(self, seat: int, prefix: tuple[str, ...]) -> Choices:
        roots, tokens = self._kept(("roots", seat), self._turn_roots, seat)
        return self._turn_step(seat, prefix, roots, tokens)

    def _turn_step(self, seat: int, prefix: tuple[str, ...], roots: tuple[Option, ...],
                   tokens: frozenset[str]) -> Choices:
        phase = self.phase
        if not prefix:
            return Choices("token", roots, prompt=PROMPT[phase])
        verb = prefix[0]
        if verb not in tokens:
            return NOTHING
        if verb == "done":
            return COMPLETE if len(prefix) == 1 else NOTHING
        if verb == "end":
            return turn.choices(self, seat, prefix)
        if verb == "attack":
            return battle.declare_choices(self, seat, prefix[1:])
        if verb in ("heal", "revive", "queen"):
            return free.choices(self, seat, prefix)
        if phase == "construction":
            return construction.choices(self, seat, prefix)
        return consolidation.choices(self, seat, prefix)

    def _turn_roots(self, seat: int) -> tuple[tuple[Option, ...], frozenset[str]]:
        """The first step of a turn's move: what the phase offers now, then its finish (and their tokens)."""
        phase = self.phase
        roots: list[Option] = []
        if phase == "construction":
            roots += construction.root_options(self, seat)
        elif phase == "battle":
            if battle.ready_patrols(self, seat) and battle.defenders(self, seat):
                roots.append(ATTACK)
        else:
            roots += consolidation.root_options(self, seat)
        roots += free.root_options(self, seat, queens=phase != "battle")
        roots.append(FINISH.get(phase, END))
        return tuple(roots), frozenset(o.token for o in roots)

    def _apply(self, seat: int, action: Action, decided: tuple[Decision, ...] | None = None) -> list[Event]:
        """``decided``: this state's decisions when already known (``apply``: the state copied)."""
        events: list[Event] = []
        d = next((d for d in (self.decisions() if decided is None else decided) if d.seat == seat), None)
        assert d is not None
        name = d.name
        if isinstance(action, OrderAces):
            self._need(name == "order-aces", say("Your Aces are already in order."))
            opening.apply(self, seat, action, events)
        elif isinstance(action, Engage):
            self._need(name == "engage", say("You are not being attacked now."))
            battle.apply_engage(self, seat, action, events)
        elif isinstance(action, (Seize, Boost)):
            self._need(name == "commit", say("You can take the initiative only in a battle, before the first commit."))
            battle.apply_seize(self, seat, action, events)
        elif isinstance(action, Commit):
            self._need(name == "commit", say("There is no commit to make now."))
            battle.apply_commit(self, seat, action, events)
        else:
            self._need(name == "turn", say("Wait for the battle to finish.") if self.battle else
                       say("That is not something you can do now."))
            self._apply_turn(seat, action, events)
        return events

    def _need(self, ok: bool, reason: Any) -> None:
        if not ok:
            raise IllegalMove(reason, "turn")

    def _apply_turn(self, seat: int, action: Action, events: list[Event]) -> None:
        phase = self.phase
        if isinstance(action, Heal):
            free.apply_heal(self, seat, action, events)
        elif isinstance(action, Revive):
            free.apply_revive(self, seat, action, events)
        elif isinstance(action, AttachQueen):
            self._need(phase != "battle", say("Queens are played in your construction or consolidation."))
            free.apply_queen(self, seat, action, events)
        elif isinstance(action, CONSTRUCTION_MOVES):
            self._need(phase == "construction", say("That is a construction move, and your construction is over."))
            construction.apply(self, seat, action, events)
        elif isinstance(action, Declare):
            self._need(phase == "battle", say("Battles come after construction, before consolidation."))
            battle.apply_declare(self, seat, action, events)
        elif isinstance(action, (Move, Assemble)):
            self._need(phase == "consolidation", say("Moving and assembling come in your consolidation."))
            consolidation.apply(self, seat, action, events)
        elif isinstance(action, Done):
            self._need(phase in ("construction", "battle"),
                       say("You are in your consolidation: finish it by ending your turn."))
            if phase == "construction":
                lost = self.pool
                self.pool = 0
                self.phase = "battle"
                self.emit(events, say_n("{player} finishes construction ({n} unused marker lost).",
                                        "{player} finishes construction ({n} unused markers lost).",
                                        player=self.players[seat], n=lost) if lost else
                          say("{player} finishes construction.", player=self.players[seat]))
            else:
                self.phase = "consolidation"
                self.emit(events, say("{player} finishes battles.", player=self.players[seat]))
        elif isinstance(action, EndTurn):
            turn.apply(self, seat, action, events)
        else:  # pragma: no cover
            raise IllegalMove(say("That is not something you can do now."), "turn")

    def _forfeit(self, seat: int) -> list[Event]:
        events: list[Event] = []
        turn.forfeit(self, seat, events)
        return events

    # ----- results --------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        return Outcome(tuple(self.winners), None, decode(self.summary_text),
                       {"rounds": self.rounds_done, "turns": self.turn_count})

    # ----- what each recipient sees ----------------------------------------------------
    def view(self, seat: int | None) -> MaginotView:
        return self._kept(("view", seat), view, self, seat)

    def known(self, seat: int | None) -> frozenset[str]:
        return self._kept(("known", seat), self._known, seat)

    def _known(self, seat: int | None) -> frozenset[str]:
        finished = self.__dict__.get("_held") is not None
        parts = [_board_known(b, seat == s, finished) for s, b in enumerate(self.boards)]
        if self.battle:
            parts.append(self.battle["played"])
        return frozenset().union(*parts)

    def all_cards(self) -> list[str]:
        """Every card's place, for the invariant: each card of every deck exactly once."""
        out: list[str] = []
        for b in self.boards:
            out += b["deck"] + b["hand"] + b["discard"] + b["fallen"] + b["gone"] + b["finished"]
            out += [a["ace"] for a in b["base"]]
            out += [r["card"] for r in b["resources"]] + [r["queen"] for r in b["resources"] if r["queen"]]
            out += [c["card"] for c in b["building"]]
            for u in b["units"]:
                out += [u["h"], u["s"], u["c"]] + ([u["queen"]] if u["queen"] else [])
        if self.battle:
            out += self.battle["played"]
        return out

    # ----- copying ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """A deep copy of every field, as marshal's round trip makes it: a board is card lists and
        lists of flat records (their values are all text, numbers, flags or None), so those are
        copied by slicing; anything else by :func:`deep_copy`."""
        # bench: playouts/s and CPU per interaction — every ``apply`` copies the state
        out = {}
        for name in _field_names(type(self)):
            v = getattr(self, name)
            if name == "boards":
                v = [_copy_board(b) for b in v]
            elif name == "journal":
                v = [deep_copy(e) for e in v]  # an entry holds phrases' JSON (dicts): copied whole
            elif type(v) not in ATOMS:
                v = deep_copy(v)
            out[name] = v
        return out

    def copy(self) -> "MaginotLine":
        return self._copy()

    # bench: playouts/s and CPU per interaction — a move copies only the boards it may change
    def _copy(self, only: tuple[int, ...] | None = None, records: frozenset[str] | None = None) -> "MaginotLine":
        """A copy (``copy``: of every field); ``only`` (``apply``'s own use): the state a move is
        applied to, which copies the boards the move may change (those seats') and shares the other
        boards, the fields no move changes in place (``SHARED``) and the log's entries (a move adds
        entries; ``redact_log`` copies them before it rewrites one) with this state; ``records``: of
        those boards, the lists of records to copy (``CHANGES``), the others shared."""
        new = object.__new__(type(self))  # the dataclass's __init__ only sets the fields
        if only is None:
            new.__dict__.update(self._state())
            return new
        fields = self.__dict__
        out = {}
        for name in _field_names(type(self)):
            v = fields[name]
            if type(v) in ATOMS or name in SHARED:
                pass
            elif name == "boards":
                v = [_copy_board(b, records) if i in only else b for i, b in enumerate(v)]
            elif name == "journal":
                v = v[:]
            else:
                v = deep_copy(v)
            out[name] = v
        new.__dict__.update(out)
        return new

    def redact_log(self, names: Any, replacement: str) -> None:
        """The core's rewrite, reading each entry's English (an entry holds a phrase's JSON)."""
        names = [n for n in names if n]
        if not names:
            return
        self.journal = [list(e) for e in self.journal]  # its entries may be shared (``_copy``)
        for entry in self.journal:
            text = decode(entry[0], True) if type(entry[0]) is dict else entry[0]
            if text and any(n in text for n in names):
                entry[0] = replacement

    def redact(self, seat: int, action: str) -> str:
        if action.startswith("aces ") and action != "aces random":
            return "aces …"
        return action


def _copy_board(b: dict, records: frozenset[str] | None = None) -> dict:
    """A copy of a board; ``records`` (``apply``'s own use): the lists of records to copy, the
    others shared (the move changes none of them)."""
    out = {}
    for k, v in b.items():
        if type(v) in ATOMS:
            out[k] = v
        elif k in CARD_LISTS and type(v) is list:
            out[k] = v[:]  # card codes
        elif k in RECORD_LISTS and type(v) is list:
            if records is None or k in records:
                out[k] = [x.copy() if type(x) is dict else deep_copy(x) for x in v]  # flat records
            else:
                out[k] = v
        else:
            out[k] = deep_copy(v)
    return out


# What a board shows, by the board's record and whether the reader is its seat: a finished
# state's boards never change, and a move shares those it leaves alone with the state before it,
# so each board's part of ``known`` is worked out once while it lasts (held here, by the record).
_KNOWN: dict[tuple[int, bool], tuple[dict, frozenset[str]]] = {}
KNOWN = 2048


def _board_known(b: dict, mine: bool, finished: bool) -> frozenset[str]:
    key = (id(b), mine)
    held = _KNOWN.get(key) if finished else None
    if held is not None and held[0] is b:
        return held[1]
    out: set[str] = set()
    add = out.add
    out.update(b["discard"], b["fallen"], b["finished"])
    for a in b["base"]:
        if mine or a["shown"]:
            add(a["ace"])
    for r in b["resources"]:
        add(r["card"])
        if r["queen"]:
            add(r["queen"])
    for u in b["units"]:
        for x in (u["h"], u["s"], u["c"], u["queen"]):
            if x:
                add(x)
    if mine:
        out.update(b["hand"])
        for c in b["building"]:
            add(c["card"])
    found = frozenset(out)
    if finished:
        if len(_KNOWN) >= KNOWN:
            _KNOWN.clear()
        _KNOWN[key] = (b, found)
    return found


def deep_copy(x: Any) -> Any:
    """An exact deep copy of JSON-like data (dicts, lists, text, numbers, flags, None)."""
    t = type(x)
    if t is list:
        return [v if type(v) in ATOMS else deep_copy(v) for v in x]
    if t is dict:
        return {k: v if type(v) in ATOMS else deep_copy(v) for k, v in x.items()}
    if t in ATOMS:
        return x
    return marshal.loads(marshal.dumps(x))  # anything else as the core copies it


def _seats(decisions: tuple[Decision, ...]) -> frozenset[int]:
    return frozenset(d.seat for d in decisions)


def _aces_decision(seat: int) -> Decision:
    return Decision(seat, "order-aces", False, "aces random", say("Put your four Aces in order, #1 first."))



GAME = MaginotLine
__all__ = ["MaginotLine", "GAME", "MaginotView"]
