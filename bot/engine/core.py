"""The v2 game contract: typed actions chosen step by step, decisions, per-recipient events,
typed views, declared knowledge.

An engine is pure: no discord, asyncio, database or global ``random``. A game's state is a
dataclass subclassing :class:`Game`; :meth:`Game.apply` never mutates it but returns a new
state plus events, or raises :class:`IllegalMove` and leaves everything as it was.

The vocabulary (python-chess / OpenSpiel style):

- :class:`Decision` — who acts now, in which named decision (``turn``, ``enforce``, ``commit``…),
  whether its choices may be shown publicly, and what a timeout does.
- :class:`Action` — a small frozen dataclass per kind; ``str(action)`` is the notation
  (records, terminal, slash commands); :meth:`Game.parse` is the only parser. Each kind declares
  its words once (``notation``, typed by :class:`Codec` s) and a game's :class:`Notation` writes
  and reads them.
- :meth:`Game.choices` — the next step of an action being built: one token, a set, an integer
  range or free text, each option with typed data from the seat's view; never a dead end.
- :class:`Event` — what happened, as each recipient may read it, at the moment it happened.
- :meth:`Game.view` — a typed view where every card the recipient may not know is
  :data:`HIDDEN` (or a count); the recent log is inside it.
- :meth:`Game.known` — the test oracle: the cards a seat may know the place of now.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import marshal
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, dataclass_transform

from bot.engine.options import Options
from bot.engine.words import Phrase, decode, encode, say


def fast_maker(cls: type) -> Any:
    """A fast constructor of a frozen view dataclass given every field by keyword: the same object
    its ``__init__`` makes (the fields set in order; the class has no ``__post_init__``), without
    the frozen class's one ``object.__setattr__`` per field — a view is made for every recipient
    of every state."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    assert not hasattr(cls, "__post_init__")
    new = object.__new__

    def make(**values: Any) -> Any:
        if len(values) != len(names):
            raise TypeError(f"{cls.__name__} takes every field: {sorted(set(names) ^ set(values))}")
        obj = new(cls)
        obj.__dict__.update({name: values[name] for name in names})
        return obj

    return make

Seat = int
MAX_REASON = 300  # characters of a refusal
MAX_ACTION_TEXT = 4000  # characters of a written action (a story line and its verb fit)
PUBLIC: None = None  # the recipient "everyone watching" (no seat)


# ----- refusals -----------------------------------------------------------------------------
class IllegalMove(ValueError):
    """An action the rules forbid. ``str()`` is the reason for the acting seat to read.

    ``rule`` names the rule or ruling (``"R12"``, ``"turn"``, ``"parse"``); a refusal is made
    only from what the acting seat may know, and is shown only to it.
    """

    def __init__(self, reason: str, rule: str = "", **args: Any):
        if len(reason) > MAX_REASON:  # a reason may quote the player's text: keep it readable
            reason = reason[: MAX_REASON - 1] + "…"  # (a Phrase so long is said in English only)
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.args_ = args


# ----- who acts -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """A seat that must (or may) act now, and in what.

    ``public``: the decision's choices are the same from the public view, so they may appear on
    the public table message; otherwise they are offered only privately.
    ``default``: the notation a timeout plays (``None``: the built-in player decides).
    """

    seat: Seat
    name: str = "turn"
    public: bool = True
    default: str | None = None
    prompt: str = ""  # one sentence: what the seat is asked to do
    clock_seconds: int | None = None  # the rulebook's own clock: after this, the table plays ``default``
    # Where that clock runs from, as a mark the engine keeps (KRPD's Open Race: the plays so far): the
    # table starts it again only when the mark changes. None: it starts again at every answer.
    clock_from: int | None = None


# ----- actions and choices ------------------------------------------------------------------
@dataclass_transform(frozen_default=True)
class Action:
    """Base of typed actions. A kind is one declaration: its class words as keywords, its fields
    as annotations (``class Move(Action, verb="move", notation="{unit:card}"): unit: str = ""``),
    made a frozen dataclass by :meth:`__init_subclass__`. ``verb``, ``help`` and ``notation``
    (the words after the verb, see :class:`Notation`); ``str()`` writes the notation from the
    fields, sets in canonical order."""

    verb: ClassVar[str] = ""
    help: ClassVar[str] = ""
    notation: ClassVar[str] = ""  # the pattern of the words after the verb: "{cell}", "{card} [{jack:card}]"
    usage: ClassVar[str] = ""  # the refusal when the words do not fit the pattern (a template, see Notation)
    free_text: ClassVar[bool] = False  # the action's last argument is the player's own words
    grammar: ClassVar["Grammar | None"] = None  # the compiled ``notation``, set by the game's Notation

    def __init_subclass__(cls, **words: Any) -> None:
        super().__init_subclass__()
        for name, value in words.items():  # only the words every kind (or its base) declares
            if not hasattr(cls, name):
                raise TypeError(f"{cls.__name__}: an action kind has no {name!r} to declare")
            setattr(cls, name, value)
        dataclass(frozen=True)(cls)

    def __str__(self) -> str:
        grammar = type(self).grammar
        return self.verb if grammar is None else grammar.write(self)


class TextAction(Action):
    """A generic free-text action ``<verb> <text>`` (story lines)."""

    verb_: str = ""
    text: str = ""

    def __str__(self) -> str:
        return f"{self.verb_} {self.text}".strip()


@dataclass(frozen=True)
class Option:
    """One offered next token. ``data`` is typed, from the seat's view (a card code, a cell,
    a number, a :class:`Hidden`…); ``label`` is plain words for it (renderers may restyle)."""

    token: str
    label: str = ""
    data: Any = None
    style: str = ""  # "primary" | "danger" | "" — a hint for buttons


@dataclass(frozen=True)
class Progress:
    """A typed progress note for a multi-step action: ``total`` of ``target`` (Σ 72 of 90)."""

    name: str
    total: int
    target: int | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.total}" + (f" of {self.target}" if self.target is not None else "")


SlotKind = Literal["token", "set", "range", "text"]


@dataclass(frozen=True)
class Choices:
    """The next step after a prefix of tokens.

    ``kind``: ``token`` (pick one option), ``set`` (pick ``lo``..``hi`` options, written as one
    token joined by ``,`` in canonical order), ``range`` (an integer ``lo``..``hi``), ``text``
    (free text up to ``max_len`` characters), or ``token`` with no options when the prefix is
    complete and nothing may follow. ``complete``: the prefix itself is a legal action.
    """

    kind: SlotKind = "token"
    options: tuple[Option, ...] = ()
    lo: int = 0
    hi: int = 0
    max_len: int = 0
    prompt: str = ""
    complete: bool = False
    progress: Progress | None = None
    required: bool = True  # for text: an empty text is refused

    @property
    def empty(self) -> bool:
        return not self.complete and not self.options and self.kind == "token"

    def tokens(self) -> list[str]:
        return [o.token for o in self.options]


# ----- events and the log ------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """What happened, per recipient, as of the moment it happened.

    ``public`` is what everyone else reads (``None``: nothing); ``private`` maps a seat to what
    that seat reads instead (``"You add 8♥ at d3"`` while the channel reads ``"North adds a
    card at d3"``). ``kind`` and ``data`` are a typed payload for renderers and tests;
    ``reveals``: the cards it shows everyone who reads it, as it happens (a later event of the
    same action may hide them again).
    """

    public: str | None
    private: Mapping[Seat, str] = field(default_factory=dict)
    kind: str = ""
    data: Any = None
    reveals: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The public text, else the first private one (a shorthand for tests and logs)."""
        return self.public if self.public is not None else next(iter(self.private.values()), "")

    def for_(self, seat: Seat | None) -> str | None:
        """The text ``seat`` (``None``: the public) reads, or ``None``."""
        if seat is not None and seat in self.private:
            return self.private[seat]
        return self.public

    def to_json(self) -> list[Any]:
        """``[public, {seat: private}]``; a :class:`~bot.engine.words.Phrase` as its message and
        arguments (the same JSON in every language)."""
        return [encode(self.public), {str(k): encode(v) for k, v in self.private.items()}]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> "Event":
        return cls(decode(data[0], True), {int(k): decode(v, True) for k, v in (data[1] or {}).items()})


@dataclass(frozen=True)
class Hidden:
    """A card the recipient may not know: shown as a card back (or counted)."""

    where: str = ""

    def __str__(self) -> str:
        return "🂠"


HIDDEN = Hidden()


@dataclass(frozen=True)
class View:
    """Common part of every typed view. Games subclass it with their own fields."""

    game: str
    seat: Seat | None
    players: tuple[str, ...]
    deciding: tuple[Decision, ...]  # who acts now, in what (public knowledge)
    recent: tuple[str, ...]  # the recent log as this recipient may read it, oldest first
    over: bool = False
    result: str = ""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game. ``winners`` are seat numbers (may be empty)."""

    winners: tuple[Seat, ...]
    score: int | None = None
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)


# ----- the game state ----------------------------------------------------------------------
LOG_SIZE = 12


@dataclass
class Game(abc.ABC):
    """Base class of game states: JSON-like dataclass fields, a seeded generator, a log.

    Subclasses set the class attributes and implement ``_setup``, ``decisions``, ``parse``,
    ``choices``, ``_apply``, ``outcome``, ``view`` and ``known``.
    """

    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    Options: ClassVar[type[Options]] = Options
    state_version: ClassVar[int] = 1
    log_size: ClassVar[int] = LOG_SIZE

    players: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)  # the stored form of the typed options
    seed: int = 0
    rng_calls: int = 0
    move_count: int = 0
    forfeited: list[int] = field(default_factory=list)
    # The recent log: [public text or None, {seat: text}] per entry, newest last.
    journal: list[list[Any]] = field(default_factory=list)
    # seat (as text) -> move_count at which that seat's current decision opened: a picker made
    # then is still good; another seat's answer in a simultaneous decision does not change it.
    opened: dict[str, int] = field(default_factory=dict)

    # ----- creation -------------------------------------------------------------------
    @classmethod
    def new(cls, players: Sequence[str], options: Iterable[str] | Options = (), seed: int | None = None,
            deck: Sequence[str] | None = None) -> "Game":
        """A new game for ``players`` (display names, in seat order). ``deck`` (top card first)
        fixes the deal instead of shuffling; ``seed`` drives every other random choice."""
        opts = options if isinstance(options, Options) else cls.Options.parse(options)
        if not cls.min_players <= len(players) <= cls.max_players:
            need = (f"exactly {cls.min_players}" if cls.min_players == cls.max_players
                    else f"{cls.min_players} to {cls.max_players}")
            raise IllegalMove(f"{cls.title} needs {need} players, not {len(players)}.", "players")
        opts.check_players(len(players))
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        game = cls(players=list(players), options=opts.dump(), seed=int(seed))
        game._setup(list(deck) if deck is not None else None)
        return game

    @classmethod
    def check_options(cls, options: Iterable[str]) -> list[str]:
        """Parse and normalise stored/typed option strings (raises IllegalMove)."""
        return cls.Options.parse(options).dump()

    @property
    def opts(self) -> Options:
        """The typed options (parsed once per state object)."""
        cached = self.__dict__.get("_opts")
        if cached is None:
            cached = _parsed_options(self.Options, tuple(self.options))
            object.__setattr__(self, "_opts", cached)
        return cached

    @abc.abstractmethod
    def _setup(self, deck: list[str] | None) -> None:
        """Deal the game (``deck`` top card first, or shuffled with :meth:`rng`)."""

    def rng(self) -> random.Random:
        """A fresh generator derived from the seed; each call advances the state."""
        self.rng_calls += 1
        return random.Random(f"{self.game_id}:{self.seed}:{self.rng_calls}")

    # ----- who acts -------------------------------------------------------------------
    @abc.abstractmethod
    def decisions(self) -> tuple[Decision, ...]:
        """The open decisions (several for simultaneous choices; empty when over)."""

    def to_act(self) -> frozenset[int]:
        return frozenset(d.seat for d in self.decisions())

    def decision_of(self, seat: Seat) -> Decision | None:
        for d in self.decisions():
            if d.seat == seat:
                return d
        return None

    def waiting_for(self) -> str:
        names = [self.players[d.seat] for d in self.decisions()]
        if not names:
            return "The game is over."
        who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        return f"It is {who}'s turn."

    # ----- actions --------------------------------------------------------------------
    @abc.abstractmethod
    def parse(self, seat: Seat, text: str) -> Action:
        """The typed action written ``text`` (the notation); raises IllegalMove on bad syntax."""

    @abc.abstractmethod
    def choices(self, seat: Seat, prefix: Sequence[str] = ()) -> Choices:
        """The next step after ``prefix`` (tokens). Depends only on ``view(seat)``.
        An unknown or illegal prefix gives an empty :class:`Choices`."""

    def legal_actions(self, seat: Seat) -> Iterator[Action]:
        """Every complete legal action, by walking :meth:`choices` (small games and tests;
        free text and wide ranges are not walked)."""
        for tokens in walk_choices(self, seat):
            yield self.parse(seat, " ".join(tokens))

    def describe(self, seat: Seat, action: str) -> str:
        """The plain-words label the seat's choices give the last token of ``action`` (as a
        picker or autocomplete shows it); the notation itself if none is offered."""
        tokens = tuple(action.split())
        if not tokens:
            return action
        for o in self.choices(seat, tokens[:-1]).options:
            if o.token == tokens[-1] and o.label:
                return o.label
        return action

    def legal_moves(self, seat: Seat) -> list[str]:
        """The notation of every legal action (small games and tests only; the Discord layer
        and the terminal use :meth:`choices`)."""
        return [" ".join(t) for t in walk_choices(self, seat)]

    def _checked(self, seat: Seat, action: Action | str) -> Action:
        """The move ``seat`` may play now, read from its notation; IllegalMove (the game over, no
        such seat, not its turn, an empty, too long or unreadable move) otherwise."""
        if self.is_over():
            raise IllegalMove("The game is over.", "over")
        if not 0 <= seat < len(self.players):
            raise IllegalMove("That seat is not in the game.", "seat")
        if seat not in self.to_act():
            raise IllegalMove(self.waiting_for(), "turn")
        if isinstance(action, str):
            if not action.strip():
                raise IllegalMove("Empty move.", "parse")
            if len(action) > MAX_ACTION_TEXT:
                raise IllegalMove(f"That move is too long ({len(action)} characters).", "parse")
            action = self.parse(seat, action)
        return action

    def apply(self, seat: Seat, action: Action | str) -> tuple["Game", list[Event]]:
        """The state after ``seat`` plays ``action``, and what happened. Never mutates ``self``."""
        action = self._checked(seat, action)
        before = self.decisions()
        new = self.copy()
        events = new._apply(seat, action)
        new.move_count += 1
        new._reopen(before, seat)
        return new, events

    def _reopen(self, before: tuple[Decision, ...], mover: Seat | None) -> None:
        """Note the move at which each seat's decision opened (the mover's always reopens)."""
        old = {d.seat: d.name for d in before}
        now = {d.seat: d.name for d in self.decisions()}
        opened = {k: v for k, v in self.opened.items() if int(k) in now}
        for s, name in now.items():
            if s == mover or old.get(s) != name or str(s) not in opened:
                opened[str(s)] = self.move_count
        self.opened = opened

    def opened_at(self, seat: Seat) -> int:
        """The move count at which ``seat``'s current decision opened (its pickers' revision)."""
        return self.opened.get(str(seat), 0)

    @abc.abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a typed action to this (already copied) state; raise IllegalMove first."""

    def forfeit(self, seat: Seat) -> tuple["Game", list[Event]]:
        """The state after ``seat`` leaves mid-game (left, removed or timed out). Closes any
        decision the leaver holds. Not an action: nobody can send it as a move."""
        if self.is_over():
            raise IllegalMove("The game is over.", "over")
        if not 0 <= seat < len(self.players) or seat in self.forfeited:
            raise IllegalMove("That player is not in the game.", "seat")
        new = self.copy()
        new.forfeited.append(seat)
        events: list[Event] = []
        before = self.decisions()
        new.emit(events, f"{self.players[seat]} forfeits.")
        events += new._forfeit(seat)
        new.move_count += 1
        new._reopen(before, seat)
        return new, events

    def _forfeit(self, seat: Seat) -> list[Event]:
        """Go on without ``seat`` as the rulebook's elimination says; a game that cannot go on
        ends with no winner."""
        return []

    # ----- results --------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.outcome() is not None

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is finished, else ``None``."""

    # ----- what each recipient sees ----------------------------------------------------
    @abc.abstractmethod
    def view(self, seat: Seat | None) -> View:
        """What ``seat`` (``None``: the public) may see, every unknown card :data:`HIDDEN`."""

    @abc.abstractmethod
    def known(self, seat: Seat | None) -> frozenset[str]:
        """The cards (codes) whose place ``seat`` may know now. A test oracle, not a filter."""

    def base_view(self, seat: Seat | None) -> dict[str, Any]:
        """The common :class:`View` fields, for subclasses' ``view``."""
        out = self.outcome()
        return {
            "game": self.game_id, "seat": seat, "players": tuple(self.players),
            "deciding": self.decisions(), "recent": self.recent(seat),
            "over": out is not None, "result": out.summary if out else "",
        }

    # ----- events and the log ---------------------------------------------------------
    def emit(self, events: list[Event] | None, public: str | None, private: Mapping[Seat, str] | None = None,
             *, log: bool = True, kind: str = "", data: Any = None, reveals: Iterable[str] = ()) -> Event:
        """Record an event in the log (unless ``log`` is false) and in ``events``."""
        event = Event(public, dict(private or {}), kind, data, tuple(reveals))
        if log:
            self.journal = (self.journal + [event.to_json()])[-self.log_size:]
        if events is not None:
            events.append(event)
        return event

    def recent(self, seat: Seat | None, n: int | None = None) -> tuple[str, ...]:
        # Event.from_json(entry).for_(seat), without building an Event per entry per recipient.
        key = None if seat is None else str(seat)
        out = []
        for entry in self.journal:
            private = entry[1]
            text = private[key] if private and key in private else entry[0]
            if text:
                out.append(decode(text, True) if type(text) is dict else text)
        return tuple(out[-n:] if n else out)

    def redact_log(self, names: Iterable[str], replacement: str) -> None:
        """Knowledge was lost (a card went back face down into a pile): rewrite log entries
        whose public text names any of ``names`` (the engine knows which ones)."""
        names = [n for n in names if n]
        if not names:
            return
        for entry in self.journal:
            if entry[0] and any(n in entry[0] for n in names):
                entry[0] = replacement

    # ----- records --------------------------------------------------------------------
    def redact(self, seat: Seat, action: str) -> str:
        """``action`` as others may see it in an exported record (hide secret arguments)."""
        return action

    # ----- copying and JSON -----------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """A deep copy of every field (JSON-like by contract; marshal copies them exactly)."""
        return marshal.loads(marshal.dumps({name: getattr(self, name) for name in _field_names(type(self))}))

    def copy(self) -> "Game":
        return type(self)(**self._state())

    def to_json(self) -> dict[str, Any]:
        return {"format": self.state_version, "game": self.game_id, "state": self._state()}

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Bring a stored state of an older format up to ``state_version`` (override per game)."""
        raise ValueError(f"unsupported {cls.game_id} state format {data.get('format')!r}")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Game":
        if data.get("game") != cls.game_id:
            raise ValueError(f"not a {cls.game_id} state: {data.get('game')!r}")
        if data.get("format") != cls.state_version:
            data = cls.upgrade(data)
        names = {f.name for f in dataclasses.fields(cls)}
        state = dict(data["state"])
        unknown = set(state) - names
        if unknown:
            raise ValueError(f"unknown {cls.game_id} state fields: {', '.join(sorted(unknown))}")
        game = cls(**state)
        if "opened" not in state:  # an upgraded older state: every open decision opened now
            game.opened = {str(d.seat): game.move_count for d in game.decisions()}
        return game


class KeepsAnswers:
    """A game whose finished states keep what they are asked (mixed in before :class:`Game`).

    A state that ``apply``, ``forfeit`` or ``from_json`` hands out is never changed again (the next
    move changes a copy), so what is asked of it — decisions, views, knowledge, choices — is worked
    out once and kept under its key by :meth:`_kept`, at most ``HELD`` answers a state. A state
    being built (``new``, ``copy``, a test's position, a move being applied) keeps nothing."""
    # bench: CPU per interaction — a press's panel and its look-ahead ask one state the same things many times

    HELD = 256  # answers a finished state keeps (not a field: no annotation)

    def apply(self, seat: Seat, action: "Action | str") -> tuple[Any, list[Event]]:
        new, events = super().apply(seat, action)  # type: ignore[misc]
        new.__dict__["_held"] = {}
        return new, events

    def forfeit(self, seat: Seat) -> tuple[Any, list[Event]]:
        new, events = super().forfeit(seat)  # type: ignore[misc]
        new.__dict__["_held"] = {}
        return new, events

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        game = super().from_json(data)  # type: ignore[misc]
        game.__dict__["_held"] = {}
        return game

    def _kept(self, key: Any, make: Any, *args: Any) -> Any:
        """``make(*args)``, kept under ``key`` when this state is finished."""
        held = self.__dict__.get("_held")
        if held is None:
            return make(*args)
        found = held.get(key)
        if found is None:
            found = make(*args)
            if len(held) < self.HELD:
                held[key] = found
        return found


def fields_with_flat_sliced(game: "Game", flat: Sequence[str]) -> dict[str, Any]:
    """Every field of ``game`` by name, in order, the ``flat`` ones (lists of immutable items:
    cards, texts, numbers) sliced: where an engine's own copy starts; each engine copies its nested
    fields after it, and its tests hold the whole equal to the core's marshal copy (``Game._state``)."""
    d = game.__dict__
    state = {name: d[name] for name in _field_names(type(game))}
    for name in flat:
        state[name] = state[name][:]
    return state


@functools.lru_cache(maxsize=None)  # bench: playouts/s — every copy asks it
def _field_names(cls: type) -> tuple[str, ...]:
    """A state class's field names, in order (looked up once per class)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.lru_cache(maxsize=256)  # bench: playouts/s — every state's typed options
def _parsed_options(kind: type[Options], stored: tuple[str, ...]) -> Options:
    """Typed options are frozen: each stored form is parsed once, not once per state object."""
    return kind.parse(stored)


# ----- helpers for engines ------------------------------------------------------------------
def walk_choices(game: Game, seat: Seat, prefix: tuple[str, ...] = (), limit: int = 100_000) -> Iterator[tuple[str, ...]]:
    """Every complete action reachable through ``choices`` (token slots and small ranges and
    sets only; free text is skipped). For small games, tests and built-in players."""
    stack = [prefix]
    seen = 0
    while stack:
        p = stack.pop()
        c = game.choices(seat, p)
        if c.complete and p:
            yield p
            seen += 1
            if seen >= limit:
                return
        nxt: list[str] = []
        if c.kind == "token":
            nxt = c.tokens()
        elif c.kind == "range" and c.hi - c.lo <= 64:
            nxt = [str(i) for i in range(c.lo, c.hi + 1)]
        elif c.kind == "set" and len(c.options) <= 10:
            nxt = [",".join(s) for s in subsets(c.tokens(), c.lo, c.hi)]
        for tok in reversed(nxt):
            stack.append(p + (tok,))


def subsets(tokens: Sequence[str], lo: int, hi: int) -> Iterator[tuple[str, ...]]:
    from itertools import combinations

    for k in range(max(lo, 0), min(hi, len(tokens)) + 1):
        yield from combinations(tokens, k)


def choices_from_actions(actions: Iterable[Sequence[str]], prefix: Sequence[str],
                         describe: Any = None, prompt: str = "") -> Choices:
    """The next step after ``prefix`` from the full token lists of every legal action — for
    games whose legal actions are few (a prefix tree). ``describe(tokens) -> (label, data)``
    labels the next token given the prefix extended by it."""
    n = len(prefix)
    prefix = tuple(prefix)
    seen: dict[str, Option] = {}
    complete = False
    for tokens in actions:
        tokens = tuple(tokens)
        if tokens[:n] != prefix:
            continue
        if len(tokens) == n:
            complete = True
            continue
        tok = tokens[n]
        if tok not in seen:
            label, data = describe(prefix + (tok,)) if describe else (tok, None)
            seen[tok] = Option(tok, label, data)
    return Choices("token", tuple(seen.values()), prompt=prompt, complete=complete)


def split_tokens(text: str) -> list[str]:
    return text.split()


def seat_of(players: Sequence[str], name: str) -> int:
    """The seat of a player by name or number (``1``-based), for the terminal."""
    for i, p in enumerate(players):
        if p.lower() == name.lower():
            return i
    if name.isdigit() and 1 <= int(name) <= len(players):
        return int(name) - 1
    raise IllegalMove(f"No player {name!r}.")


# ----- notation: each action kind's words declared once ------------------------------------
class Codec(abc.ABC):
    """How one slot of a notation is written and read back. A slot takes ``lo``..``hi`` words
    (``hi`` None: any number); ``read`` gets them and the parse context (a seat, a state…)
    and refuses bad words with :class:`IllegalMove`."""

    lo: int = 1
    hi: int | None = 1

    def fits(self, words: Sequence[str]) -> bool:
        """Whether the slot may take these words (their number; reading checks the rest)."""
        return len(words) >= self.lo and (self.hi is None or len(words) <= self.hi)

    @abc.abstractmethod
    def read(self, words: Sequence[str], ctx: Any) -> Any:
        """The value these words stand for (every codec reads its own way)."""

    def write(self, value: Any) -> str:
        return str(value)

    def empty(self, value: Any) -> bool:
        """An optional part is left out when its values are empty."""
        return value is None or value == () or value == ""


class Word(Codec):
    """One word: ``read(word, ctx)`` makes the value, ``write(value)`` the word. ``missing``:
    the slot may be left empty, and is then refused with these words (clearer than the usage)."""

    def __init__(self, read: Any, write: Any = str, missing: str = ""):
        self._read, self._write, self.missing = read, write, missing
        self.lo = 0 if missing else 1

    def read(self, words: Sequence[str], ctx: Any) -> Any:
        if not words:
            raise IllegalMove(self.missing, "parse")
        return self._read(words[0], ctx)

    def write(self, value: Any) -> str:
        return self._write(value)


class Words(Word):
    """``lo`` or more words read as one, joined by ``glue`` (a card ``10 h``, a clan ``white tiger``)."""

    def __init__(self, read: Any, write: Any = str, glue: str = " ", lo: int = 1):
        super().__init__(read, write)
        self.glue, self.lo, self.hi = glue, lo, None

    def read(self, words: Sequence[str], ctx: Any) -> Any:
        return self._read(self.glue.join(words), ctx)


class Pair(Codec):
    """Two words, each read by its codec, as a tuple ``(first, second)``."""

    lo = hi = 2

    def __init__(self, first: Codec, second: Codec):
        self.first, self.second = first, second

    def read(self, words: Sequence[str], ctx: Any) -> Any:
        return self.first.read(words[:1], ctx), self.second.read(words[1:], ctx)

    def write(self, value: Any) -> str:
        return f"{self.first.write(value[0])} {self.second.write(value[1])}"


class Many(Codec):
    """A tuple of items, ``item.lo`` words each, at least ``lo`` of them (``sizes``: the only
    counts allowed). ``none``: words read as the empty tuple; ``blank``: how it is written.
    ``order``: the canonical order (a sort key) a set is written in; ``once``: the refusal when
    an item repeats; ``odd``: the refusal when the words do not make whole items (else they do
    not fit). Items are written joined by ``sep``."""

    def __init__(self, item: Codec, *, lo: int = 0, sizes: tuple[int, ...] | None = None, sep: str = " ",
                 none: tuple[str, ...] = (), blank: str = "", order: Any = None, once: str = "", odd: str = ""):
        self.item, self.sizes, self.sep, self.none, self.blank = item, sizes, sep, none, blank
        self.order, self.once, self.odd = order, once, odd
        self.items_lo = min(sizes) if sizes else lo
        self.lo, self.hi = self.items_lo * item.lo, None

    def fits(self, words: Sequence[str]) -> bool:
        if len(words) == 1 and words[0].lower() in self.none:
            return True
        n, w = len(words), self.item.lo
        if n % w:
            return bool(self.odd) and n >= self.lo
        return n // w >= self.items_lo and (self.sizes is None or n // w in self.sizes)

    def read(self, words: Sequence[str], ctx: Any) -> Any:
        if len(words) == 1 and words[0].lower() in self.none:
            return ()
        w = self.item.lo
        if len(words) % w:
            raise IllegalMove(self.odd, "parse")
        items = [self.item.read(words[k:k + w], ctx) for k in range(0, len(words), w)]
        if self.once and len(set(items)) != len(items):
            raise IllegalMove(self.once, "parse")
        return tuple(sorted(items, key=self.order) if self.order is not None else items)

    def write(self, value: Any) -> str:
        return self.sep.join(self.item.write(x) for x in value) if value else self.blank


class Text(Codec):
    """The player's own words: the rest of the written text after the verb, as written (the
    parser hands them over whole; read as words they are joined back)."""

    lo, hi = 0, None

    def read(self, words: Sequence[str], ctx: Any) -> Any:
        return " ".join(words)


TEXT = Text()
ANY_MORE = "…"  # a notation item: any further words are ignored


@dataclass(frozen=True)
class _Slot:
    fields: tuple[str, ...]
    codec: Codec
    stops: frozenset[str]  # literal words later in the pattern: the slot never takes them


class _Optional:
    """An optional part ``[…]``: written only when none of its slots is empty."""

    def __init__(self, items: tuple[Any, ...]):
        self.items = items
        self.slots = tuple(i for i in items if isinstance(i, _Slot))


class Grammar:
    """One action kind's compiled notation: the verb, then ``kind.notation``'s items — literal
    words, slots ``{field}`` / ``{field:codec}`` / ``{field1,field2:codec}`` (a codec giving a
    tuple) and optional parts ``[…]``, left out when their values are empty."""

    def __init__(self, kind: type[Action], codecs: Mapping[str, Codec]):
        self.kind = kind
        self.items = self._compile(kind.notation.split(), codecs)
        names = {f.name for f in dataclasses.fields(kind)} if dataclasses.is_dataclass(kind) else set()
        used = {f for s in self._slots(self.items) for f in s.fields}
        if used != names:
            raise ValueError(f"{kind.__name__}'s notation {kind.notation!r} names {sorted(used)}, fields {sorted(names)}")
        self.need = sum(s.codec.lo for s in self.items if isinstance(s, _Slot))
        self.free_text = any(s.codec is TEXT for s in self._slots(self.items))
        # Most notations are fixed words (a verb, then one word a slot): read those without a search.
        fixed = all(isinstance(i, str) and i != ANY_MORE or isinstance(i, _Slot) and i.codec.lo == i.codec.hi == 1
                    for i in self.items)
        self.fixed = tuple((k, i) for k, i in enumerate(self.items)) if fixed else None

    def _compile(self, words: list[str], codecs: Mapping[str, Codec]) -> tuple[Any, ...]:
        out: list[Any] = []
        group: list[Any] | None = None
        for word in words:
            opens, closes = word.startswith("["), word.endswith("]")
            word = word.strip("[]")
            if opens:
                group = []
            item: Any = word.lower()
            if word.startswith("{"):
                names, _, codec = word.strip("{}").partition(":")
                fields = tuple(names.split(","))
                item = _Slot(fields, TEXT if codec == "text" else codecs[codec or fields[0]], frozenset())
            (group if group is not None else out).append(item)
            if closes and group is not None:
                out.append(_Optional(tuple(group)))
                group = None
        return self._stops(tuple(out), frozenset())

    def _stops(self, items: tuple[Any, ...], after: frozenset[str]) -> tuple[Any, ...]:
        out: list[Any] = []
        for item in reversed(items):
            if isinstance(item, _Optional):
                item = _Optional(self._stops(item.items, after))
                after = after | {w for w in item.items if isinstance(w, str)}
            elif isinstance(item, _Slot):
                item = dataclasses.replace(item, stops=after)
            elif item != ANY_MORE:
                after = after | {item}
            out.append(item)
        return tuple(reversed(out))

    @classmethod
    def _slots(cls, items: tuple[Any, ...]) -> Iterator[_Slot]:
        for item in items:
            if isinstance(item, _Optional):
                yield from cls._slots(item.items)
            elif isinstance(item, _Slot):
                yield item

    # ----- writing ----------------------------------------------------------------------
    def write(self, action: Action) -> str:
        if not self.items:
            return action.verb
        parts = [action.verb]
        self._write(self.items, action, parts)
        return " ".join(p for p in parts if p).strip()

    def _write(self, items: tuple[Any, ...], action: Action, parts: list[str]) -> None:
        for item in items:
            if type(item) is _Slot:
                parts.append(item.codec.write(self._value(item, action)))
            elif type(item) is _Optional:
                if not any(s.codec.empty(self._value(s, action)) for s in item.slots):
                    self._write(item.items, action, parts)
            elif item != ANY_MORE:
                parts.append(item)

    @staticmethod
    def _value(slot: _Slot, action: Action) -> Any:
        if len(slot.fields) == 1:
            return getattr(action, slot.fields[0])
        return tuple(getattr(action, f) for f in slot.fields)

    # ----- reading ----------------------------------------------------------------------
    def fits(self, words: Sequence[str]) -> Iterator[list[tuple[_Slot, Sequence[str]]]]:
        """The ways the slots may share ``words``, the greediest first (literals and word counts
        only: reading them may still refuse)."""
        if self.fixed is None:
            return self._fit(self.items, words, 0)
        if len(words) != len(self.items):
            return iter(())
        fit = []
        for k, item in self.fixed:
            if type(item) is _Slot:
                fit.append((item, words[k:k + 1]))
            elif words[k].lower() != item:
                return iter(())
        return iter((fit,))

    def _fit(self, items: tuple[Any, ...], words: Sequence[str], i: int) -> Iterator[list[tuple[_Slot, Sequence[str]]]]:
        if not items:
            if i == len(words):
                yield []
            return
        head, rest = items[0], items[1:]
        if isinstance(head, _Optional):
            yield from self._fit(head.items + rest, words, i)
            yield from self._fit(rest, words, i)
        elif head == ANY_MORE:
            yield []
        elif isinstance(head, str):
            if i < len(words) and words[i].lower() == head:
                yield from self._fit(rest, words, i + 1)
        else:
            end = i
            while end < len(words) and words[end].lower() not in head.stops:
                end += 1
            for k in range(end, i - 1, -1):
                if head.codec.fits(words[i:k]):
                    for tail in self._fit(rest, words, k):
                        yield [(head, words[i:k]), *tail]

    def read(self, fit: list[tuple[_Slot, Sequence[str]]], rest: str, ctx: Any) -> Action:
        values: dict[str, Any] = {}
        for slot, words in fit:
            value = rest if slot.codec is TEXT else slot.codec.read(words, ctx)
            if len(slot.fields) == 1:
                values[slot.fields[0]] = value
            else:
                values.update(zip(slot.fields, value, strict=True))
        return self.kind(**values)


def _unknown(word: str, words: Sequence[str], ctx: Any) -> IllegalMove:
    return IllegalMove(say("Unknown move {word}.", word=repr(word.lower()[:20])), "parse")


class Notation:
    """A game's notation, written once: each action kind declares ``verb`` and ``notation``;
    ``codecs`` name the typed converters its slots use. ``str(action)`` writes it and
    :meth:`parse` is the one parser.

    ``usage``: the refusal template when the words do not fit a kind whose own ``usage`` is
    empty (or a function ``(kind, ctx) -> template``); templates may use ``{verb}``, ``{word}``
    (the verb as written), ``{n}`` (the words a kind needs at least) and ``{s}`` (plural).
    ``unknown(word, words, ctx)`` makes the refusal of an unknown verb; ``prepare`` rewrites a
    text before it is split (accepted spellings)."""

    def __init__(self, kinds: Iterable[type[Action]], codecs: Mapping[str, Codec] | None = None, *,
                 usage: Any = "Write it as: {verb}.", usage_rule: str = "parse", unknown: Any = _unknown,
                 prepare: Any = None):
        self.kinds = tuple(kinds)
        self.usage, self.usage_rule, self.unknown, self.prepare = usage, usage_rule, unknown, prepare
        self.by_verb: dict[str, list[type[Action]]] = {}
        for kind in self.kinds:
            kind.grammar = Grammar(kind, codecs or {})
            self.by_verb.setdefault(kind.verb, []).append(kind)

    def parse(self, text: str, ctx: Any = None, kinds: Iterable[type[Action]] | None = None) -> Action:
        """The action written ``text`` (any case, extra spaces), among ``kinds`` (default: all);
        raises :class:`IllegalMove` on bad syntax."""
        if self.prepare is not None:
            text = self.prepare(text)
        words = text.split()
        if not words:
            raise IllegalMove("Empty move.", "parse")
        candidates = self.by_verb.get(words[0].lower(), [])
        if kinds is not None:
            candidates = [k for k in candidates if k in kinds]
        if not candidates:
            raise self.unknown(words[0], words, ctx)
        refused: IllegalMove | None = None
        for kind in candidates:  # the first fit whose words read; else the plainest fit's refusal
            grammar = kind.grammar
            assert grammar is not None
            rest = ""
            if grammar.free_text:  # the player's own words, as written
                parts = text.strip().split(None, 1)
                rest = parts[1].strip() if len(parts) > 1 else ""
            for fit in grammar.fits(words[1:]):
                try:
                    return grammar.read(fit, rest, ctx)
                except IllegalMove as e:
                    refused = e if refused is None or kind is candidates[0] else refused
        raise refused or self.refuse(candidates[0], words[0], ctx)

    def refuse(self, kind: type[Action], word: str, ctx: Any) -> IllegalMove:
        """The refusal of words that do not fit ``kind``'s notation."""
        template = self.usage(kind, ctx) if callable(self.usage) else (kind.usage or self.usage)
        n = kind.grammar.need if kind.grammar is not None else 0
        args = {"verb": kind.verb, "word": word, "n": n, "s": "" if n == 1 else "s"}
        if isinstance(template, Phrase):  # a catalogue message: said in the reader's language, its arguments filled in
            filled = {k: v for k, v in args.items() if "{" + k + "}" in template.msgid}
            return IllegalMove(Phrase(template.msgid, None, {**filled, **template.args}), self.usage_rule)
        return IllegalMove(template.format(**args), self.usage_rule)
