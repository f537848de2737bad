"""The road out of the table service: one reader's object.

A :class:`Reader` is what one reader — a seat, or the public (spectators, the channel) — may
know of one table: the table's public facts, the game's view for that reader, the decisions
open (public), and, for a seat that must act, its ``choices`` step by step with their labels.
The Discord layer and the renders receive readers and :class:`Update` objects, never a game,
a stored row or the store (an import contract in CI says so), so every payload they make is
made from what its reader may know.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.engine.core import Choices, Decision, Event, View
from bot.engine.registry import spec
from bot.i18n import Words, words
from bot.records import FORFEIT
from bot.tables.base import is_bot, table_key
from bot.tables.bots import bot_level, level_name
from bot.tables.since import Since, of as since_of

if TYPE_CHECKING:
    from bot.engine.core import Game
    from bot.store import TableRow
    from bot.tables.base import Change
    from bot.tables.clock import Notice

class _once:  # noqa: N801 — used as a decorator, like functools.cached_property
    """A reader's property asked once: ``functools.cached_property`` without its lock (Python 3.11's
    is one lock for every instance; two threads asking one reader at once find the same answer)."""
    # bench: click→answer p99 — messages are built in worker threads, which would wait on that one lock

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn, self.name = fn, fn.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        found = obj.__dict__[self.name] = self.fn(obj)
        return found


FORFEIT_TOKENS = ("concede", "resign")  # a game's own way out: asked for confirmation, kept apart from moves
NO_CHOICES = Choices()


@dataclass(frozen=True)
class SeatFacts:
    """A seat as everyone may see it: who sits there."""

    user_id: int
    name: str
    level: str | None = None  # a bot seat's level (easy, normal, strong); None for a person

    @property
    def is_bot(self) -> bool:
        return is_bot(self.user_id)

    @property
    def level_name(self) -> str:
        """A bot seat's level as players read it ("Strong"), else ""."""
        return level_name(self.level) if self.level else ""


@dataclass(frozen=True)
class TableFacts:
    """What anyone in the channel may know of a table: never its state, seed or move log."""

    channel_id: int
    guild_id: int | None
    game: str
    key: str  # names this table (a new game in the same channel gets a new one)
    revision: int
    status: str  # lobby | playing | finished | abandoned
    host_id: int
    seats: tuple[SeatFacts, ...]
    options: tuple[str, ...]
    turn_limit: int  # seconds; 0: no limit
    timed_out: bool
    moves: int  # how many moves were played
    started: bool  # the game was dealt (a lobby closed before it was is not)
    daily: str | None  # the day of a daily challenge's table
    damaged: str | None = None  # why a damaged table cannot be played (one line), else None
    message_id: int | None = None  # the table message, where the store knows it
    lang: str = "en"  # the table's language (the public table, pings, the end message): en, es or de

    @property
    def title(self) -> str:
        return spec(self.game).title

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def people(self) -> list[SeatFacts]:
        return [s for s in self.seats if not s.is_bot]

    @classmethod
    def of(cls, table: "TableRow", damaged: str | None = None) -> "TableFacts":
        """The facts of ``table`` (``damaged``: why it cannot be played, else the row's own)."""
        return cls(
            channel_id=table.channel_id, guild_id=table.guild_id, game=table.game, key=table_key(table),
            revision=table.revision, status=table.status, host_id=table.host_id,
            seats=tuple(SeatFacts(s.user_id, s.name, bot_level(s) if is_bot(s.user_id) else None)
                        for s in table.seats),
            options=tuple(table.options), turn_limit=int(table.turn_limit or 0), timed_out=bool(table.timed_out),
            moves=len(table.moves), started=table.state is not None,
            daily=table.series.get("daily") if table.series else None,
            damaged=damaged if damaged is not None else table.damaged,
            message_id=getattr(table, "message_id", None),
            lang=str(table.series.get("lang", "en")) if table.series else "en",
        )


@dataclass(frozen=True)
class PublicMoves:
    """A public decision's first step, which may be offered on the public table message: its
    choices are the same from the public view (the engine's :attr:`Decision.public`)."""

    seat: int
    opened: int
    choices: Choices


class _Asked:
    """What one seat's readers asked of one (immutable) game: its steps, its previews, what it knows."""
    # bench: CPU per interaction — a press's readers of one game ask the engine once (0.26 ms a press of ~0.6 ms)

    __slots__ = ("game", "moves", "choices", "ahead", "tried", "known", "public", "kept", "decisions")

    def __init__(self, game: "Game | None", moves: int = -1):
        self.game = game
        self.moves = moves  # the moves played before ``game`` (-1: a preview's)
        self.choices: dict[tuple[str, ...], Choices] = {}
        # a move -> the game after it, its own, and the move's events
        self.ahead: dict[str, "tuple[Game, _Asked, list[Event]] | None"] = {}
        # a move applied (as in ``ahead``) whose preview was not yet asked whether it shows anything new
        self.tried: dict[str, "tuple[Game, _Asked, list[Event]] | None"] = {}
        self.known: frozenset[str] | None = None
        self.public: dict[tuple[str, ...], Choices] = {}  # the one public decision's steps
        self.decisions: tuple[Decision, ...] | None = None  # the game's (who acts now)
        self.kept: dict[Hashable, Any] = {}  # what payloads found by asking the seat's reader (``Reader.kept``)

    def previewed(self, move: str) -> "tuple[Game, _Asked, list[Event]] | None":
        """The game after ``move`` as a preview applied it (its asked, the move's events), whether
        the preview was offered (``ahead``) or only tried (``tried``: a batch turned it down first)."""
        found = self.ahead.get(move)
        return found if found is not None else self.tried.get(move)


class _AskedCache:
    """The :class:`_Asked` of recent seats' readers, by (table, seat, status): one entry a seat of a
    hot table, replaced when its game changes (a hit needs the very same game object). The public
    reader's steps are not kept (asked once a revision anyway). Bounded in entries, few (what is
    kept outlives young collections); thread-safe (messages are built in worker threads)."""

    def __init__(self, size: int = 64):
        self.size = size
        self._held: OrderedDict[tuple[Any, ...], _Asked] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, table: TableFacts, game: "Game | None", seat: int | None, log: Sequence[Any] = ()) -> _Asked:
        """``log``: the table's move log, whose last moves may be ones this seat's picker previewed
        (a move played from its panel): the game after them is the preview's, whose steps are known."""
        if game is None or seat is None:  # the public's steps: asked once a revision anyway
            return _Asked(game, table.moves)
        key = (table.channel_id, table.key, table.status, seat)
        with self._lock:
            held = self._held.get(key)
            if held is not None and held.game is game:
                self._held.move_to_end(key)
                return held
            fresh = _Asked(game, table.moves)
            if held is not None:
                _follow(held, fresh, seat, log)
            self._held[key] = fresh
            self._held.move_to_end(key)
            while len(self._held) > self.size:
                self._held.popitem(last=False)
            return fresh

    def clear(self) -> None:
        with self._lock:
            self._held.clear()


ASKED = _AskedCache()


def _follow(held: _Asked, fresh: _Asked, seat: int, log: Sequence[Any]) -> None:
    """When the moves logged since ``held`` (at most a press's few) were all this seat's and each
    was previewed from ``held`` on, ``fresh``'s game is the last preview's (the engines are
    deterministic: a logged move replays exactly), so it takes over what that preview asked."""
    # bench: CPU per interaction — the panel after a move its look-ahead previewed (0.06 ms a press)
    if held.moves < 0 or not 0 < fresh.moves - held.moves <= 8 or len(log) != fresh.moves:
        return
    now: _Asked | None = held
    for entry in log[held.moves:fresh.moves]:
        who, move = entry[0], entry[1]
        found = now.previewed(str(move)) if now is not None and int(who) == seat and move != FORFEIT else None
        if found is None:
            return
        now = found[1]
    if now is not None and now is not held:
        fresh.choices, fresh.ahead, fresh.tried, fresh.known, fresh.kept = (now.choices, now.ahead, now.tried, now.known,
                                                                          now.kept)


class Reader:
    """One reader's object for one table: ``seat`` (``None``: the public).

    Everything here is what that reader may know: the view (every card it may not know is
    hidden), the public decisions, and, for a seat that must act now, ``choices(prefix)``
    with labels. The game behind it is private to this class and never handed out.
    """

    def __init__(self, table: TableFacts, game: "Game | None", seat: int | None, asked: _Asked | None = None,
                 since: Since | None = None, lang: str = "en"):
        self.table = table
        self.seat = seat
        self.lang = lang  # the language its payloads are written in: en, es or de (bot.i18n.language_of)
        self.since = since  # this seat's own "since your last move" (bot.tables.since); never the public's
        self.__game = game
        # Each step asked for once: a picker asks for the same prefixes again (its shortcuts, the
        # words of the steps so far), and the game never changes under a reader. ``asked``: kept
        # for the next reader of the same game (``reader_of``), else this reader's own.
        self.__asked = asked if asked is not None and asked.game is game else _Asked(game)

    def in_language(self, lang: str) -> "Reader":
        """This reader with its words in ``lang`` (what it knows, and what it asked of the game, shared)."""
        if lang == self.lang:
            return self
        return Reader(self.table, self.__game, self.seat, self.__asked, self.since, lang)

    @property
    def words(self) -> Words:
        """The reader's language's words (``bot.i18n.words``)."""
        return words(self.lang)

    def said(self, text: str) -> str:
        """An engine's words (an event, a prompt, a label, a result) in the reader's language; English as it is."""
        return text if self.lang == "en" or not text else words(self.lang).line(text)

    def _said_choices(self, found: Choices, key: Hashable) -> Choices:
        """``found`` (the step ``key``) with its labels and prompt in the reader's language (English:
        ``found`` itself); each step said once a reader."""
        if self.lang == "en" or found is NO_CHOICES:
            return found
        said = self.__dict__.setdefault("_said", {})
        known = said.get(key)
        if known is None:
            w = words(self.lang)
            options = tuple(replace(o, label=w.line(o.label)) if o.label else o for o in found.options)
            known = said[key] = replace(found, options=options, prompt=w.line(found.prompt) if found.prompt else "")
        return known

    # ----- who reads -------------------------------------------------------------------
    @property
    def is_public(self) -> bool:
        return self.seat is None

    @property
    def started(self) -> bool:
        return self.__game is not None

    @property
    def game(self) -> str:
        """The game's id (``gridcannon``…), never the game itself."""
        return self.table.game

    @property
    def title(self) -> str:
        return self.table.title

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

    # ----- the view ----------------------------------------------------------------------
    @_once
    def view(self) -> View | None:
        """The game's view for this reader (None before the game is dealt)."""
        return self.__game.view(self.seat) if self.__game is not None else None

    @property
    def recent(self) -> tuple[str, ...]:
        """The recent log as this reader may read it, oldest first."""
        view = self.view
        if view is None:
            return ()
        return tuple(view.recent) if self.lang == "en" else tuple(self.said(e) for e in view.recent)

    @_once
    def decisions(self) -> tuple[Decision, ...]:
        """Who acts now, in what (public knowledge)."""
        if self.__game is None or self.table.status != "playing":
            return ()
        asked = self.__asked
        if asked.decisions is None:  # the game's, whatever the reader: asked once a game
            asked.decisions = self.__game.decisions()
        if self.lang != "en":  # their prompts in the reader's language
            return tuple(replace(d, prompt=self.said(d.prompt)) for d in asked.decisions)
        return asked.decisions

    @property
    def acting_seats(self) -> frozenset[int]:
        return frozenset(d.seat for d in self.decisions)

    @_once
    def waiting_for(self) -> str:
        """"It is Ana's turn." (public)."""
        return self.said(self.__game.waiting_for()) if self.__game is not None else ""

    @_once
    def result(self) -> str:
        """How the game ended, in plain words ("" while it runs)."""
        out = self.__game.outcome() if self.__game is not None else None
        return self.said(out.summary) if out is not None else ""

    @_once
    def winners(self) -> tuple[int, ...]:
        out = self.__game.outcome() if self.__game is not None else None
        return tuple(out.winners) if out is not None else ()

    @_once
    def forfeited(self) -> tuple[int, ...]:
        return tuple(self.__game.forfeited) if self.__game is not None else ()

    # ----- this seat's decision ----------------------------------------------------------
    @property
    def has_left(self) -> bool:
        return self.seat is not None and self.seat in self.forfeited

    @_once
    def acting(self) -> bool:
        """This seat must (or may) act now (one of ``acting_seats``, not gone: asked of every
        reader a picker's look-ahead makes, without making the set)."""
        seat = self.seat
        return seat is not None and any(d.seat == seat for d in self.decisions) and seat not in self.forfeited

    @_once
    def decision(self) -> Decision | None:
        return next((d for d in self.decisions if d.seat == self.seat), None) if self.seat is not None else None

    @_once
    def opened(self) -> int:
        """The move count at which this seat's decision opened: its pickers' revision."""
        return self.__game.opened_at(self.seat) if self.__game is not None and self.seat is not None else 0

    def choices(self, prefix: Sequence[str] = ()) -> Choices:
        """The next step after ``prefix``, for a seat that must act now (else nothing). Each is
        asked of the game once per reader (a reader's game never changes)."""
        key = prefix if type(prefix) is tuple else tuple(prefix)
        asked = self.__asked.choices
        known = asked.get(key)
        if known is None:
            known = asked[key] = self.__game.choices(self.seat, key) if self.acting else NO_CHOICES
        return known if self.lang == "en" else self._said_choices(known, key)

    def after(self, move: str, *, acting: bool = True) -> "Reader | None":
        """This seat's reader as it would be after playing ``move`` (nothing is played or stored),
        for offering a sequence of moves in one press. None when the move is not legal, the seat
        would no longer act (unless ``acting`` is false), or the move would show this seat
        anything it does not know now (a card drawn, a shuffle): a preview never reads ahead of
        the rules."""
        game = self.__game
        if game is None or not self.acting:
            return None
        if move not in self._ahead:
            ahead = self.__asked.ahead
            if move not in ahead:
                found = self._tried(move)
                known = found[0].known(self.seat) if found is not None else None
                if known is None or not known <= self._known:
                    ahead[move] = None
                else:  # what the seat knows there is what it knows here: the preview's own look-aheads compare to it
                    ahead[move] = found
                    found[1].known = known
            found = ahead[move]
            self._ahead[move] = Reader(self.table, found[0], self.seat, found[1], lang=self.lang) \
                if found is not None else None
        nxt = self._ahead[move]
        return nxt if nxt is not None and (nxt.acting or not acting) else None

    def trial(self, move: str) -> "Reader | None":
        """:meth:`after`'s reader before the one question it asks last: whether the move shows
        this seat anything it does not know now. Only for a test that can only turn a move down
        (``bot.tables.offers.several``: a move that would take another one away is turned down
        without that question); what is offered or shown of a preview is :meth:`after`'s, which
        asks it of the same applied game (its steps asked here are kept for it). None when the
        move is not legal, draws on chance, or the seat would no longer act."""
        game = self.__game
        if game is None or not self.acting:
            return None
        if move in self.__asked.ahead:  # asked already
            return self.after(move)
        found = self._tried(move)
        nxt = Reader(self.table, found[0], self.seat, found[1], lang=self.lang) if found is not None else None
        return nxt if nxt is not None and nxt.acting else None

    def _tried(self, move: str) -> "tuple[Game, _Asked, list[Event]] | None":
        """The game after ``move`` (applied once), with its own asked and the move's events;
        None when the move is not legal or draws on chance."""
        tried = self.__asked.tried
        if move in tried:
            return tried[move]
        game = self.__game
        try:
            new, events = game.apply(self.seat, move)  # type: ignore[union-attr,arg-type]
        except Exception:
            new, events = None, []
        found = tried[move] = (new, _Asked(new), events) if new is not None and new.rng_calls == game.rng_calls \
            else None  # type: ignore[union-attr]
        return found

    @_once
    def _ahead(self) -> dict[str, "Reader | None"]:
        return {}

    @property
    def _known(self) -> frozenset[str]:
        asked = self.__asked
        if asked.known is None:
            asked.known = self.__game.known(self.seat) if self.__game is not None else frozenset()
        return asked.known

    def kept(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, made once per game and seat: what a payload finds by asking this reader
        only (its steps, its previews), kept beside what the reader asked, so the next reader of
        the same game, or of a preview the seat then played, finds it made. ``key`` names the
        question (the caller's name for it and its arguments)."""
        kept = self.__asked.kept
        if key in kept:
            return kept[key]
        found = kept[key] = make()
        return found

    def so_far(self, tokens: Sequence[str]) -> list[str]:
        """The labels of the tokens chosen so far (plain words from this seat's choices); the words
        of a text step (a story line) are one entry, as the engine reads them (the rest of the move)."""
        out = []
        for i, tok in enumerate(tokens):
            c = self.choices(tokens[:i])
            if c.kind == "text":  # the player's own words: the rest of the move, one entry
                text = " ".join(tokens[i:])
                out.append(f"“{text if len(text) <= 60 else text[:59] + '…'}”")
                break
            out.append(next((o.label for o in c.options if o.token == tok), "") or tok)
        return out

    def text_verbs(self) -> list[str]:
        """The first tokens of this seat's free-text actions now (story lines)."""
        return [o.token for o in self.choices(()).options if self.choices((o.token,)).kind == "text"]

    def public_moves(self) -> PublicMoves | None:
        """The one open decision's first step when it may be shown to everyone (else None)."""
        return self._public_moves

    @_once
    def _public_moves(self) -> PublicMoves | None:
        game = self.__game
        if game is None or self.table.status != "playing":
            return None
        deciding = self.decisions
        if len(deciding) != 1 or not deciding[0].public:
            return None
        seat = deciding[0].seat
        return PublicMoves(seat, game.opened_at(seat), self._said_choices(self._public_step(seat, ()), ("public",)))

    def _public_step(self, seat: int, key: tuple[str, ...]) -> Choices:
        public = self.__asked.public
        found = public.get(key)
        if found is None:
            found = public[key] = self.__game.choices(seat, key)  # type: ignore[union-attr]
        return found

    def public_choices(self, prefix: Sequence[str]) -> Choices:
        """A later step of the one public decision (its choices are the same from the public view)."""
        offer = self.public_moves()
        if offer is None:
            return NO_CHOICES
        return self._said_choices(self._public_step(offer.seat, tuple(prefix)), ("public", *prefix))

    @_once
    def solo_concede(self) -> bool:
        """The table's Concede (a forfeit) for a solo game, unless the game's own concede is open."""
        game = self.__game
        if game is None or len(self.table.seats) != 1 or not spec(self.table.game).solo_concede:
            return False
        return not any(o.token == "concede" for o in game.choices(0, ()).options)


def reader_of(table: "TableRow", game: "Game | None", seat: int | None, damaged: str | None = None) -> Reader:
    """The reader ``seat`` (``None``: the public) of ``table`` whose game is ``game``."""
    facts = TableFacts.of(table, damaged)
    return Reader(facts, game, seat, ASKED.of(facts, game, seat, table.moves), since_of(table.series, seat),
                  lang=facts.lang)


@dataclass
class Update:
    """What an action did, as the Discord layer may hold it: the public reader, the actor's own
    reader and private lines, who to ping, whether the game ended, the sweep's notice."""

    public: Reader
    mine: Reader | None = None
    lines: list[str] = field(default_factory=list)  # the actor's private lines (what only they read)
    events: list[str] = field(default_factory=list)  # the public lines this action added
    pings: list[int] = field(default_factory=list)  # users who now must act (never the actor)
    finished: bool = False
    secret: bool = False  # the move stays hidden from the other players (a secret choice)
    notice: "Notice | None" = None
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. rating changes at a game's end

    @property
    def table(self) -> TableFacts:
        return self.public.table


def update_of(change: "Change", game: "Game | None", actor_id: int | None) -> Update:
    """An :class:`Update` from the service's change (``game``: the table's game after it)."""
    table = change.table
    facts = TableFacts.of(table)  # one table's facts for both readers
    public = Reader(facts, game, None, ASKED.of(facts, game, None), lang=facts.lang)
    seat = table.seat_of(actor_id) if actor_id is not None else None
    mine = Reader(facts, game, seat, ASKED.of(facts, game, seat, table.moves), since_of(table.series, seat),
                  lang=facts.lang) if seat is not None and game is not None else None
    lines = list(change.private.get(seat, [])) if seat is not None else []
    # Pings only for a change of who must act: never the actor (they are looking at the table),
    # never a bot, one per person.
    pings = [u for u in dict.fromkeys(change.pings) if u != actor_id and not is_bot(u)]
    return Update(public, mine, lines, list(change.events), pings, change.finished, change.secret, change.notice,
                  {"ratings": list(getattr(change, "ratings", []))})
