"""The contract every Deckhand game engine follows.

An engine is pure: no discord, asyncio, database or global ``random``. A game is a
dataclass state; :meth:`Game.apply` never mutates it but returns a new state plus
events, or raises :class:`IllegalMove` and leaves everything as it was.

Seats are numbered ``0..n-1``. Moves are text (a notation shared by slash commands,
buttons, the terminal and records): space-separated tokens, so a UI can offer them
one token at a time (``place r1c1``, ``attack K 2 1:Q 1``). Free text (story lines)
is a move too: ``<verb> <text>``, announced by :meth:`Game.prompts`.
"""

from __future__ import annotations

import abc
import dataclasses
import marshal
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Sequence

from bot.engine import cards

# One refusal class for v1 and v2 engines: tables, cogs and the terminal catch this name and v2
# engines (bot.engine.core) raise it, so both kinds of game are refused the same way.
from bot.engine.core import IllegalMove

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Event:
    """Something that happened. ``to`` is ``None`` for everyone, else the seats that may see it."""

    text: str
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True)
class TextPrompt:
    """A free-text move a seat may (or must) make now: ``f"{verb} {text}"``."""

    verb: str
    label: str
    required: bool = True
    max_len: int = 1000
    skip: str | None = None  # the move that skips an optional text, e.g. "skip"


@dataclass(frozen=True)
class Variant:
    name: str
    summary: str


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game. ``winners`` are seat numbers (may be empty)."""

    winners: tuple[int, ...]
    score: int | None = None
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Game(abc.ABC):
    """Base class for game states. Subclasses are dataclasses with JSON-able fields.

    Subclasses define the class attributes and implement ``_setup``, ``to_act``,
    ``legal_moves``, ``_apply``, ``outcome`` and ``view``.
    """

    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    variants: ClassVar[tuple[Variant, ...]] = ()
    credit: ClassVar[str] = ""
    summary: ClassVar[str] = ""  # a rules summary for /game rules
    state_version: ClassVar[int] = 1
    # True when some moves are secret choices (Celestial Emperor's committed cards): the
    # Discord layer then offers moves only in ephemeral messages, never on the public table.
    secret_moves: ClassVar[bool] = False
    # Numeric table settings, written "name=value" among the options: name -> (default, min, max).
    settings: ClassVar[dict[str, tuple[int, int, int]]] = {}

    players: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    seed: int = 0
    rng_calls: int = 0
    move_count: int = 0
    forfeited: list[int] = field(default_factory=list)

    # ----- creation -------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: Sequence[str],
        options: Iterable[str] = (),
        seed: int | None = None,
        deck: Sequence[str] | None = None,
    ) -> "Game":
        """A new game for ``players`` (display names, in seat order).

        ``deck`` (top card first) fixes the deal instead of shuffling, for tests and
        records; ``seed`` drives every other random choice.
        """
        opts = cls.check_options(options)
        if not cls.min_players <= len(players) <= cls.max_players:
            if cls.min_players == cls.max_players:
                need = f"exactly {cls.min_players}"
            else:
                need = f"{cls.min_players} to {cls.max_players}"
            raise IllegalMove(f"{cls.title} needs {need} players, not {len(players)}.")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        game = cls(players=list(players), options=opts, seed=int(seed))
        game._setup(list(deck) if deck is not None else None)
        return game

    @classmethod
    def check_options(cls, options: Iterable[str]) -> list[str]:
        """Normalise variant names (any case, ``_``/``-`` for spaces) and ``name=value`` settings."""
        def norm(text: str) -> str:
            return "".join(ch for ch in text.lower() if ch.isalnum())

        known = {norm(v.name): v.name for v in cls.variants}
        out: list[str] = []
        for raw in options:
            if "=" in raw:
                name, _, value = raw.partition("=")
                name = name.strip().lower()
                if name not in cls.settings:
                    names = ", ".join(cls.settings) or "none"
                    raise IllegalMove(f"{cls.title} has no setting {name!r}. Settings: {names}.")
                _, lo, hi = cls.settings[name]
                try:
                    number = int(value.strip())
                except ValueError:
                    raise IllegalMove(f"Setting {name} needs a whole number, not {value.strip()!r}.") from None
                if not lo <= number <= hi:
                    raise IllegalMove(f"Setting {name} must be from {lo} to {hi}.")
                out = [o for o in out if not o.startswith(name + "=")] + [f"{name}={number}"]
                continue
            match = known.get(norm(raw))
            if match is None:
                names = ", ".join(v.name for v in cls.variants) or "none"
                raise IllegalMove(f"{cls.title} has no variant {raw!r}. Variants: {names}.")
            if match not in out:
                out.append(match)
        return out

    def setting(self, name: str) -> int:
        """The value of a numeric setting (its default unless the options set it)."""
        for o in self.options:
            if o.startswith(name + "="):
                return int(o.split("=", 1)[1])
        return self.settings[name][0]

    def has(self, option: str) -> bool:
        return option in self.options

    @abc.abstractmethod
    def _setup(self, deck: list[str] | None) -> None:
        """Deal the game (``deck`` top card first, or shuffled with :meth:`rng`)."""

    # ----- randomness -----------------------------------------------------------------
    def rng(self) -> random.Random:
        """A fresh generator derived from the seed; each call advances the state."""
        self.rng_calls += 1
        return random.Random(f"{self.game_id}:{self.seed}:{self.rng_calls}")

    # ----- the contract ---------------------------------------------------------------
    @abc.abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may move now (several for simultaneous choices; empty when over)."""

    @abc.abstractmethod
    def legal_moves(self, seat: int) -> list[str]:
        """Every legal move of ``seat`` now, in notation (free-text moves excluded)."""

    def prompts(self, seat: int) -> list[TextPrompt]:
        """Free-text moves ``seat`` may make now."""
        return []

    def apply(self, seat: int, move: str) -> tuple["Game", list[Event]]:
        """The state after ``seat`` plays ``move``, and what happened. Never mutates ``self``."""
        if self.is_over():
            raise IllegalMove("The game is over.")
        if seat not in self.to_act():
            raise IllegalMove(self.waiting_for())
        text = " ".join(move.split()) if not self.is_text_move(seat, move) else move.strip()
        if not text:
            raise IllegalMove("Empty move.")
        new = self.copy()
        events = new._apply(seat, text)
        new.move_count += 1
        return new, events

    def forfeit(self, seat: int) -> tuple["Game", list[Event]]:
        """The state after ``seat`` leaves mid-game (left, removed or timed out)."""
        if self.is_over():
            raise IllegalMove("The game is over.")
        if not 0 <= seat < len(self.players) or seat in self.forfeited:
            raise IllegalMove("That player is not in the game.")
        new = self.copy()
        new.forfeited.append(seat)
        events = [Event(f"{self.players[seat]} forfeits."), *new._forfeit(seat)]
        return new, events

    def _forfeit(self, seat: int) -> list[Event]:
        """Engines override: go on without ``seat`` as the rulebook's elimination says, ending
        the game when one player is left; a game that cannot go on ends with no winner."""
        return []

    def is_text_move(self, seat: int, move: str) -> bool:
        verb = move.strip().split(" ", 1)[0].lower()
        return any(p.verb == verb for p in self.prompts(seat))

    def text_of(self, seat: int, move: str, prompt: TextPrompt) -> str:
        """The free text of a text move, checked against the prompt."""
        parts = move.strip().split(None, 1)
        text = parts[1].strip() if len(parts) > 1 else ""
        if prompt.required and not text:
            raise IllegalMove(f"{prompt.label}: some text is required.")
        if len(text) > prompt.max_len:
            raise IllegalMove(f"{prompt.label}: at most {prompt.max_len} characters (got {len(text)}).")
        return text

    @abc.abstractmethod
    def _apply(self, seat: int, move: str) -> list[Event]:
        """Apply a normalised move to this (already copied) state; raise IllegalMove first."""

    def is_over(self) -> bool:
        return self.outcome() is not None

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is finished, else ``None``."""

    @abc.abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public). JSON-able; renderers see only this."""

    def hidden_cards(self, seat: int | None) -> set[str]:
        """Cards whose identity ``seat`` (``None``: the public) must not see anywhere now.

        The no-leak tests check that none of them appears in that seat's view, its
        renders or the events it is shown.
        """
        return set()

    def waiting_for(self) -> str:
        names = [self.players[s] for s in sorted(self.to_act())]
        if not names:
            return "The game is over."
        return f"It is {' and '.join(names)}'s turn."

    def describe(self, seat: int, move: str) -> str:
        """A short human label for a legal move (autocomplete, buttons)."""
        return move

    # ----- the v2 calls, derived (for the Discord layer while engines move onto v2) -----
    def decisions(self) -> tuple[Any, ...]:
        from bot.engine.core import Decision

        return tuple(Decision(s, "turn", public=not self.secret_moves) for s in sorted(self.to_act()))

    def opened_at(self, seat: int) -> int:
        return self.move_count

    def choices(self, seat: int, prefix: Sequence[str] = ()) -> Any:
        from bot.engine.core import Choices, Option, choices_from_actions

        prefix = tuple(prefix)
        if seat not in self.to_act() or self.is_over():
            return Choices()
        prompts = {p.verb: p for p in self.prompts(seat)}
        if prefix and prefix[0] in prompts:
            p = prompts[prefix[0]]
            if len(prefix) == 1:
                return Choices("text", max_len=p.max_len, prompt=p.label, required=p.required)
            return Choices(complete=len(prefix) == 2)
        legal = [m.split() for m in self.legal_moves(seat)]

        def label(tokens: tuple[str, ...]) -> tuple[str, None]:
            whole = " ".join(tokens)
            if any(" ".join(m) == whole for m in legal):
                return cards.pretty_text(self.describe(seat, whole)), None
            return cards.pretty_text(whole) + " …", None

        c = choices_from_actions(legal, prefix, label)
        if not prefix:
            extra = tuple(Option(v, p.label) for v, p in prompts.items())
            c = dataclasses.replace(c, options=c.options + extra)
        return c

    def redact(self, seat: int, move: str) -> str:
        """The move as others may see it in a public log (hide secret choices)."""
        return move

    # ----- copying and JSON -----------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """A deep copy of every field. Fields are JSON-like by contract, so marshal (in memory,
        never stored) copies them exactly, several times faster than copy.deepcopy; apply()
        copies the state on every move."""
        return marshal.loads(marshal.dumps({f.name: getattr(self, f.name) for f in dataclasses.fields(self)}))

    def copy(self) -> "Game":
        return type(self)(**self._state())

    def to_json(self) -> dict[str, Any]:
        return {"format": self.state_version, "game": self.game_id, "state": self._state()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Game":
        if data.get("game") != cls.game_id:
            raise ValueError(f"not a {cls.game_id} state: {data.get('game')!r}")
        if data.get("format") != cls.state_version:
            raise ValueError(f"unsupported {cls.game_id} state format {data.get('format')!r}")
        return cls(**data["state"])


def seat_of(players: Sequence[str], name: str) -> int:
    """The seat of a player by name or number (``1``-based), for the terminal."""
    for i, p in enumerate(players):
        if p.lower() == name.lower():
            return i
    if name.isdigit() and 1 <= int(name) <= len(players):
        return int(name) - 1
    raise IllegalMove(f"No player {name!r}.")
