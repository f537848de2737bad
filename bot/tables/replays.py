"""Step-through replays of finished games: a stored (or attached) record replayed into the list
of its states, and one reader's object per step, as the game's export policy allows.

A :class:`Replay` is built from a record by :func:`bot.records.replay` (move by move, keeping
every state and the events of every move); nothing new is stored. Who may look through which
eyes follows the spec's ``export_seed``: where a finished game's secrets may be told, every
seat's view and the public one; where they stay secret for ever, the public view only, and a
seat's own view for the person who played it. The daily deal is replayable once its day ends.

The Discord layer meets replays through :class:`Replays` (the store stays behind it) and gets
:class:`Viewing` objects: readers (``bot.tables.reader``) and event lines, never games.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.words import decode, say
from bot.i18n import Words, words
from bot.engine.cards import pretty_text
from bot.engine.core import Event, Game
from bot.engine.registry import spec
from bot.records import FORFEIT, check_record, illegal, not_set_up, why
from bot.render.panel import clip
from bot.render.animation import Frame, caption_text
from bot.tables.daily import DAILY_GAME, daily_day, daily_seed
from bot.tables.errors import TableError
from bot.tables.films import Film, film
from bot.tables.reader import Reader, SeatFacts, TableFacts

if TYPE_CHECKING:
    from bot.tables.desk import Desk

log = logging.getLogger(__name__)

RECENT = 25  # games offered by the autocomplete
MAX_RECORD_BYTES = 2_000_000  # an attached record larger than this is refused
NOT_FOUND = say("I know no finished game by that name here. Pick one of the suggestions, or attach an exported record.")
TODAY = say("Today's daily deal stays secret until the day ends (UTC); its replay opens tomorrow.")


def stored_key(record_id: int) -> str:
    """The key of a stored record in custom_ids: ``r`` and its id in base 36."""
    return "r" + _base36(record_id)


def file_key(record: dict[str, Any]) -> str:
    """The key of an attached record: ``f`` and a digest of its content (it names the record,
    which never changes, so a button naming it is never stale)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "f" + hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def record_id_of(key: str) -> int | None:
    """The stored record's id a key names (None: not a stored record's key)."""
    if len(key) < 2 or key[0] != "r" or len(key) > 14:
        return None
    try:
        return int(key[1:], 36)
    except ValueError:
        return None


@dataclass(frozen=True)
class Listing:
    """A recent finished game as the autocomplete offers it (no secret in it)."""

    key: str
    game: str
    title: str
    players: tuple[str, ...]
    result: str  # finished | abandoned
    summary: str  # how it ended: a phrase (said in the reader's language), or an older record's English
    moves: int
    finished_at: float
    here: bool  # played in this channel

    def label(self, w: Words | None = None) -> str:
        """``w``: the reader's words (the summary said in them; an older record's, as it wrote it)."""
        w = w or words("en")
        who = ", ".join(self.players) or "?"
        summary = str(self.summary) if w.english else w.line(self.summary)
        how = (summary if self.result == "finished" and self.summary else
               {"finished": w.tp("game result", "finished"), "abandoned": w.tp("game result", "abandoned")}.get(
                   self.result, self.result))
        return f"{self.title} — {who} — " + w.n("{n} move", "{n} moves", self.moves) + f" — {how}"


class Replay:
    """A finished game's every state, replayed from its record: step 0 is the deal, step ``k``
    the table after move ``k``. The games stay private to this class.

    Every state is not kept (a long Maginot Line game's would take a hundred megabytes): one every
    :attr:`EVERY` steps, and the others are replayed from the one before when asked, the recent
    ones (and their readers, with their views) kept in small caches. The events of every step are
    kept: the picker lists each step's line."""

    EVERY = 16  # steps between two kept states
    STATES = 64  # recent states rebuilt between them, kept
    READERS = 256  # recent readers (each with its view), kept

    def __init__(self, key: str, record: dict[str, Any], *, channel_id: int = 0, guild_id: int | None = None):
        check_record(record)
        self.key = key
        self.digest = file_key(record)  # the record's content: what caches of its pictures are keyed by
        self.game = str(record["game"])
        self.title = spec(self.game).title
        self.players = tuple(str(p) for p in record["players"])
        self.options = tuple(str(o) for o in record.get("options", []))
        self.seed = int(record["seed"])
        self.channel_id, self.guild_id = channel_id, guild_id
        cls = spec(self.game).state
        try:
            game = cls.new(list(self.players), list(self.options), seed=self.seed)
        except ValueError as e:
            raise not_set_up(e) from None
        kept: dict[int, Game] = {0: game}
        events: list[tuple[Event, ...]] = [()]
        moves: list[tuple[int, str]] = []
        for i, (seat, move) in enumerate(record["moves"], start=1):
            try:
                game, evs = _step(game, int(seat), str(move))
            except ValueError as e:
                raise illegal(i, seat, str(move), e) from None
            if i % self.EVERY == 0:
                kept[i] = game
            events.append(tuple(evs))
            moves.append((int(seat), str(move)))
        kept[len(moves)] = game
        self.__kept = kept
        self.__moves = tuple(moves)
        self.__events = events
        self.movers = (None, *(seat for seat, _ in moves))
        out = game.outcome()
        self.summary = out.summary if out is not None else say("The game was abandoned.")
        self.finished = out is not None
        self.people: tuple[tuple[int, str, str], ...] | None = None  # a stored record's people (user, name, outcome)
        self.daily: str | None = None  # a daily deal's day
        # bench: click→answer p99 — a step of a long replay neither replays from the deal nor asks its view again
        self._states: OrderedDict[int, Game] = OrderedDict()
        self._readers: OrderedDict[tuple[int, int | None], Reader] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def steps(self) -> int:
        """How many steps there are (the deal and every move)."""
        return len(self.__moves) + 1

    @property
    def last(self) -> int:
        return len(self.__moves)

    def __state(self, step: int) -> Game:
        """The game at ``step``: a kept one, a recent one, or replayed from the kept one before
        (call with the lock held)."""
        found = self.__kept.get(step)
        if found is None:
            found = self._states.get(step)
        if found is not None:
            return found
        at = step - step % self.EVERY
        game = self.__kept[at]
        for j in range(step - 1, at, -1):  # the nearest recent state before: stepping on is one move
            if j in self._states:
                at, game = j, self._states[j]
                break
        for seat, move in self.__moves[at:step]:
            at += 1
            game = _step(game, seat, move)[0]
            if at not in self.__kept:
                self._states[at] = game
                self._states.move_to_end(at)
        while len(self._states) > self.STATES:
            self._states.popitem(last=False)
        return game

    def reader(self, step: int, seat: int | None) -> Reader:
        """The reader ``seat`` (None: the public) of the table at ``step`` (kept for a while: its
        view is made once). Who may use which seat is :class:`Viewing`'s business."""
        step = max(0, min(step, self.last))
        with self._lock:
            found = self._readers.get((step, seat))
            if found is None:
                over = step == self.last and self.finished
                facts = TableFacts(
                    channel_id=self.channel_id, guild_id=self.guild_id, game=self.game, key=self.key, revision=step,
                    status="finished" if over else "playing", host_id=0,
                    seats=tuple(SeatFacts(0, p) for p in self.players), options=self.options, turn_limit=0,
                    timed_out=False, moves=step, started=True, daily=None)
                found = self._readers[(step, seat)] = Reader(facts, self.__state(step), seat)
                while len(self._readers) > self.READERS:
                    self._readers.popitem(last=False)
            self._readers.move_to_end((step, seat))
            return found

    def line(self, step: int, seat: int | None) -> tuple[str, ...]:
        """What happened at ``step`` (its move's events) as ``seat`` (None: the public) read it then."""
        if not 0 <= step <= self.last:
            return ()
        return tuple(t for t in (e.for_(seat) for e in self.__events[step]) if t)

    def mover(self, step: int) -> str:
        """Who moved at ``step`` ("" for the deal)."""
        seat = self.movers[step] if 0 <= step <= self.last else None
        return self.players[seat] if seat is not None and 0 <= seat < len(self.players) else ""

    def frames(self, seat: int | None, lang: str = "en") -> tuple[Frame, ...]:
        """Every step as ``seat`` (None: the public) read it then: that step's reader's view and
        a caption (the move's line as that reader read it), in ``lang``. What an animation is drawn from."""
        return tuple(Frame(self.reader(k, seat).view, caption_text(k, self.last, self.mover(k), self.line(k, seat),
                                                                   lang), lang)
                     for k in range(self.steps))

    def notable(self, seat: int | None, lang: str = "en") -> str:
        """The step that said the most to ``seat`` (None: the public), as "move 12: …" ("" if none), in ``lang``."""
        best, said = 0, ()
        for k in range(1, self.steps):
            lines = self.line(k, seat)
            if len(lines) > len(said):
                best, said = k, lines
        if len(said) < 2:
            return ""
        w = words(lang)
        told = " ".join(" ".join((t if w.english else w.line(t)).split()) for t in said)[:300]
        return w.t("move {step}, {mover}: {said}", step=best, mover=self.mover(best), said=told)

    # ----- for tests: the secrecy oracle ----------------------------------------------------
    def known(self, step: int, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` may know at ``step`` (the engine's oracle, for the tests)."""
        with self._lock:
            return self.__state(step).known(seat)

    def events(self, step: int) -> tuple[Event, ...]:
        return self.__events[step]


def _step(game: Game, seat: int, move: str) -> tuple[Game, list[Event]]:
    """One logged move (a forfeit included), with its events."""
    if move == FORFEIT:
        return game.forfeit(seat)
    return game.apply(seat, move)


def eyes_for(game: str, players: Sequence[str], own: Sequence[int] = ()) -> tuple[int | None, ...]:
    """Whose eyes a viewer may look through: everyone's where the game's secrets may be told
    after it ends (its export policy), else the public's and the viewer's own seats'."""
    if spec(game).export_seed:
        return (None, *range(len(players)))
    return (None, *sorted({s for s in own if 0 <= s < len(players)}))


def seats_of(players: Sequence[str], people: Sequence[tuple[int, str, str]], user_id: int) -> tuple[int, ...]:
    """The seats ``user_id`` played: the people (seat order, bots left out) matched to the
    players' names in order."""
    out, at = [], 0
    for uid, name, _ in people:
        for i in range(at, len(players)):
            if players[i] == name:
                if uid == user_id:
                    out.append(i)
                at = i + 1
                break
    return tuple(out)


@dataclass(frozen=True)
class Viewing:
    """One viewer's replay: the replay and whose eyes this viewer may look through."""

    replay: Replay
    eyes: tuple[int | None, ...]
    where: str = ""  # where it was played, in words

    @property
    def tells_all(self) -> bool:
        """The game's secrets may be told once it is over (its export policy)."""
        return spec(self.replay.game).export_seed

    def allowed(self, seat: int | None) -> bool:
        return seat in self.eyes

    def may_film(self, seat: int | None) -> bool:
        """The whole game through these eyes may be handed out as an animation: the public's, and
        a seat's where the game's secrets end with it (a file can be passed on)."""
        return self.allowed(seat) and (seat is None or self.tells_all)

    def reader(self, step: int, seat: int | None) -> Reader:
        if not self.allowed(seat):
            raise TableError(say("You may not look through that seat's eyes in this game."))
        return self.replay.reader(step, seat)

    def line(self, step: int, seat: int | None) -> tuple[str, ...]:
        if not self.allowed(seat):
            return ()
        return self.replay.line(step, seat)

    def public(self) -> "Viewing":
        """The same replay through the public's eyes only: what a shared moment is made from,
        whatever eyes its sharer was looking through."""
        return Viewing(self.replay, (None,), self.where)

    def step(self, move: int) -> int:
        """``move`` as a step of this replay; TableError (nothing changes) when there is none."""
        last = self.replay.last
        if not 0 <= move <= last:
            raise TableError(say("That game has moves 0 (the deal) to {last}; there is no move {move}.", last=last, move=move))
        return move


class _ReplayCache:
    """Recent replays by key (a stored record or an attached one's digest): stepping back and
    forth replays nothing and draws each view once."""
    # bench: click→answer p99 — replaying a long record is a moment (done off the loop), not for every press

    def __init__(self, size: int = 16):
        self.size = size
        self._items: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Replay | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, replay: Replay) -> None:
        with self._lock:
            self._items[replay.key] = replay
            self._items.move_to_end(replay.key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


REPLAYS = _ReplayCache()  # attached records' replays, by digest (the same content, the same replay)


class Replays:
    """The replay viewer's road to the stored records (the Discord layer never meets the store):
    recent games of a channel or server, and a viewer's replay of one, checked for access."""

    def __init__(self, store: Any, clock: Any):
        self._store = store
        self._clock = clock
        self._stored = _ReplayCache()  # this store's records' replays, by record id
        self.end_animation = True  # ending_film draws the game that ended (the bot's DECKHAND_END_ANIMATION)

    def today(self) -> str:
        return daily_day(self._clock())

    async def recent(self, channel_id: int, guild_id: int | None, user_id: int, limit: int = RECENT) -> list[Listing]:
        """The newest finished games of this channel, and of this server the user played in;
        today's daily deal left out."""
        out = []
        today = self.today()
        for r in await self._store.recent_records(channel_id, guild_id, user_id, limit):
            rec = r.record
            if not isinstance(rec, dict) or r.daily == today:
                continue
            try:
                title = spec(r.game).title
            except KeyError:
                continue
            out.append(Listing(stored_key(r.id), r.game, title, tuple(str(p) for p in rec.get("players", [])),
                               r.result, _summary(rec.get("result")), len(rec.get("moves") or []), r.finished_at,
                               r.channel_id == channel_id))
        return out

    async def open(self, key: str, channel_id: int, guild_id: int | None, user_id: int) -> Viewing:
        """A stored game's replay for this viewer; TableError when it is not theirs to see. A
        record never changes: once replayed, it is kept with its people (no store read a step)."""
        record_id = record_id_of(key)
        if record_id is None:
            raise TableError(NOT_FOUND)
        replay = self._stored.get(key)
        if replay is None or replay.people is None:
            row = await self._store.stored_record(record_id)
            if row is None or not _may_see(row.channel_id, row.guild_id, row.people, channel_id, guild_id, user_id):
                raise TableError(NOT_FOUND)
            if row.daily is not None and row.daily >= self.today():
                raise TableError(TODAY)
            if not isinstance(row.record, dict):
                raise TableError(say("That game's record cannot be read, so it cannot be replayed."))
            replay = await _build(key, row.record, row.channel_id, row.guild_id,
                                  say("That game's record cannot be replayed"))
            replay.people, replay.daily = row.people, row.daily
            self._stored.put(replay)
        if not _may_see(replay.channel_id, replay.guild_id, replay.people, channel_id, guild_id, user_id):
            raise TableError(NOT_FOUND)
        if replay.daily is not None and replay.daily >= self.today():
            raise TableError(TODAY)
        own = seats_of(replay.players, replay.people, user_id)
        where = "" if replay.channel_id == channel_id else f"<#{replay.channel_id}>"
        return Viewing(replay, eyes_for(replay.game, replay.players, own), where)

    async def open_file(self, record: Any) -> Viewing:
        """An attached record's replay (the record as exported): no seat is the viewer's own."""
        try:
            check_record(record)
        except ValueError as e:
            raise TableError(say("That file cannot be replayed: {error}.", error=why(e))) from None
        if record["game"] == DAILY_GAME and int(record["seed"]) == daily_seed(self.today()):
            raise TableError(TODAY)
        key = file_key(record)
        replay = REPLAYS.get(key)
        if replay is None:
            replay = await _build(key, record, 0, None, say("That file cannot be replayed"))
            REPLAYS.put(replay)
        return Viewing(replay, eyes_for(replay.game, replay.players))

    async def ending_film(self, reader: Reader) -> Film | None:
        """The game that just ended at ``reader``'s table as the public saw it, as an animation
        (None: no game was dealt, today's daily deal, the record is not this game's, or the bot's
        end animation is off)."""
        t = reader.table
        if not self.end_animation or not t.started or t.daily is not None:
            return None
        try:
            record = await self._store.last_record(t.channel_id)
            if not isinstance(record, dict) or record.get("game") != t.game or \
                    len(record.get("moves") or ()) != t.moves or list(record.get("players") or ()) != list(reader.players):
                return None
            replay = await _build(file_key(record), record, t.channel_id, t.guild_id, "")
            return await film(Viewing(replay, (None,)), None, reader.lang)  # the table's language
        except Exception:  # the end message goes out without its animation, never not at all
            log.exception("the animation of the game that ended in %s failed", t.channel_id)
            return None

    def cached_file(self, key: str) -> Viewing | None:
        """An attached record's replay this process still holds (None: read the file again)."""
        replay = REPLAYS.get(key) if key.startswith("f") else None
        return Viewing(replay, eyes_for(replay.game, replay.players)) if replay is not None else None


def _summary(result: Any) -> str:
    """How a stored game ended: its phrase (``said``), or the English of a record from before it was kept."""
    if not isinstance(result, dict):
        return ""
    english = str(result.get("summary") or "")
    said = result.get("said")
    if isinstance(said, dict):
        try:
            found = decode(said)
        except (TypeError, KeyError, ValueError, IndexError, AttributeError):  # a damaged phrase: its English
            return english
        return found if isinstance(found, str) else english
    return english


def _may_see(where: int, guild: int | None, people: Any, channel_id: int, guild_id: int | None, user_id: int) -> bool:
    """A game of this channel, or one of this server that the viewer played in."""
    if where == channel_id:
        return True
    return guild_id is not None and guild == guild_id and any(u == user_id for u, _, _ in people or ())


async def _build(key: str, record: dict[str, Any], channel_id: int, guild_id: int | None, reason: str) -> Replay:
    """Replay a record off the event loop (a long game takes a moment)."""
    try:
        return await asyncio.to_thread(Replay, key, record, channel_id=channel_id, guild_id=guild_id)
    except ValueError as e:
        raise TableError(say("{why}: {error}.", why=reason, error=why(e))) from None


_BY_DESK: "weakref.WeakKeyDictionary[Desk, Replays]" = weakref.WeakKeyDictionary()


def replays_of(desk: "Desk") -> Replays:
    """The replays reader beside a desk (the same store and clock)."""
    found = _BY_DESK.get(desk)
    if found is None:
        service = desk._service  # the tables layer's own: the Discord layer holds only the result
        found = _BY_DESK[desk] = Replays(service.store, lambda: service.clock())  # the service's clock, as it is now
    return found


# ----- the viewer's words and custom_ids (bot/ui/replay.py makes its payloads of them) -------------
def eye_code(seat: int | None) -> str:
    return "p" if seat is None else str(seat)


def eye_of(code: str) -> int | None:
    if code == "p":
        return None
    if not code.isdigit() or len(code) > 2:
        raise TableError(say("That button is not one of mine."))
    return int(code)


def step_label(viewing: Viewing, step: int, seat: int | None, w: Words | None = None) -> str:
    """A step as the picker lists it: its number, who moved and what the eyes read of it (``w``: the
    viewer's words)."""
    w = w or words("en")
    replay = viewing.replay
    if step == 0:
        return w.t("0. The deal")
    said = viewing.line(step, seat)
    if said:  # a label shows no Markdown
        text = " ".join((pretty_text(said[0]) if w.english else w.line(said[0])).split())
    else:
        text = w.t("(nothing to see)")
    return clip(f"{step}. {' '.join(replay.mover(step).split())}: {text}", 100)


def eyes_label(viewing: Viewing, seat: int | None, w: Words | None = None) -> str:
    w = w or words("en")
    if seat is None:
        return w.t("The public view")
    return clip(w.t("{name}'s view", name=" ".join(viewing.replay.players[seat].split())), 100)
