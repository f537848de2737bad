"""The game of a stored table: the one place a row becomes an engine ``Game`` (its snapshot
with the moves after it replayed), and the cache of recent games. Only the table service uses
it; the Discord layer and the renders get readers (``bot.tables.reader``), never games."""

from __future__ import annotations

import dataclasses
import gc
import marshal
import sys
import threading
import types
from collections import OrderedDict
from typing import Any

from bot.engine.words import say
from bot.engine.core import Game
from bot.engine.registry import spec
from bot.records import apply_logged
from bot.store import MoveLog, TableRow, unpacked
from bot.tables.errors import TableError

MB = 1 << 20
GAME_CACHE_BYTES = 48 * MB  # the recent games kept, in (estimated) bytes
# ... of which the most recently used are held as objects, the rest packed.
LIVE_GAMES = 1024  # bench: event loop blocked — the sweep's 1,000 due tables read each game a few times, far apart

_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(obj: Any, limit: int = 50_000) -> int:
    """Bytes held by ``obj`` and everything it reaches (each object once; classes, modules and
    functions not counted), walking at most ``limit`` objects."""
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack and len(seen) < limit:
        o = stack.pop()
        if id(o) in seen or isinstance(o, _SKIP):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        stack.extend(gc.get_referents(o))
    return total


class SizeEstimate:
    """The size of an object of a kind (a game id, a class), measured on the first of its kind and
    then once in ``every``, once in ``every * later`` after the first ``settle`` measurements; it
    follows growth at once and shrinkage slowly."""
    # bench: event loop blocked — a walk of a game is about a millisecond on the loop: never on every move

    def __init__(self, every: int = 64, default: int = 32 * 1024, settle: int = 8, later: int = 8):
        self.every, self.default = every, default
        self.settled, self.later_every = settle * every, later * every
        self._sizes: dict[Any, int] = {}
        self._seen: dict[Any, int] = {}
        self._lock = threading.Lock()

    def of(self, kind: Any, obj: Any) -> int:
        with self._lock:
            n = self._seen.get(kind, 0)
            self._seen[kind] = n + 1
            known = self._sizes.get(kind)
        if known is not None and n % (self.every if n < self.settled else self.later_every):
            return known
        measured = deep_size(obj)
        with self._lock:
            old = self._sizes.get(kind)
            self._sizes[kind] = measured if old is None else max(measured, (3 * old + measured) // 4)
            return self._sizes[kind]

    def known(self, kind: Any) -> int:
        """The last estimate for the kind (``default`` before the first)."""
        with self._lock:
            return self._sizes.get(kind, self.default)


GAME_SIZES = SizeEstimate()


class _Packed:
    """A game the cache no longer holds as objects: its fields as marshal bytes, rebuilt as
    ``Game.copy`` does (the class called with the fields)."""
    # bench: event loop blocked — one object for the collector instead of about 70 for a Maginot Line game

    __slots__ = ("cls", "blob")

    def __init__(self, game: Game):
        self.cls = type(game)
        self.blob = marshal.dumps({f.name: getattr(game, f.name) for f in dataclasses.fields(game)})

    def game(self) -> Game:
        return self.cls(**marshal.loads(self.blob))


class _GameCache:
    """The game of each recent table at its latest revision, by table id. A hit needs the
    same (table id, revision). Games never change (``apply`` makes a new one), so one may be
    shared; thread-safe (messages and pictures are built in worker threads). Bounded in bytes
    (an estimate of each game's, by its game), not in entries: a long game weighs more.

    Only the ``live`` most recently used games are held as objects; the others are packed
    (:class:`_Packed`) and rebuilt when used. A full collection walked every cached game's lists
    and dicts: with 1,000 hot tables, most of what it walked."""

    # bench: CPU per interaction, click→answer p99 — a press neither parses a state nor replays the log
    def __init__(self, max_bytes: int = GAME_CACHE_BYTES, live: int = LIVE_GAMES):
        self.max_bytes = max_bytes
        self.live = live
        self.bytes = 0
        self._games: OrderedDict[str, tuple[int, Game | _Packed, int]] = OrderedDict()
        self._live: OrderedDict[str, None] = OrderedDict()  # the ids held as objects, least recent first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def _used(self, table_id: str) -> None:
        """``table_id`` holds a game object, most recently used; pack the least recent beyond ``live``."""
        self._live[table_id] = None
        self._live.move_to_end(table_id)
        while len(self._live) > self.live:
            old, _ = self._live.popitem(last=False)
            held = self._games.get(old)
            if held is not None and isinstance(held[1], Game):
                self._games[old] = (held[0], _Packed(held[1]), held[2])

    def get(self, table: TableRow) -> Game | None:
        if not table.table_id:
            return None
        with self._lock:
            found = self._games.get(table.table_id)
            if found is None or found[0] != table.revision:
                return None
            game = found[1]
            if type(game) is _Packed:
                game = game.game()
                self._games[table.table_id] = (found[0], game, found[2])
                self._used(table.table_id)
            else:  # held as an object: among the live ones (a game leaves them only packed or dropped)
                try:
                    self._live.move_to_end(table.table_id)
                except KeyError:
                    self._used(table.table_id)
            return game

    def put(self, table: TableRow, game: Game) -> bool:
        """Hold ``game`` as the table's at its revision; False when it is not held (no table id, or
        a newer revision of the table is held)."""
        if not table.table_id:
            return False
        with self._lock:
            held = self._games.get(table.table_id)
            if held is not None and held[0] > table.revision:
                return False  # a newer revision is already held
        size = GAME_SIZES.of(table.game, game)
        with self._lock:
            held = self._games.pop(table.table_id, None)
            if held is not None:
                self.bytes -= held[2]
            self._games[table.table_id] = (table.revision, game, size)
            self.bytes += size
            self._used(table.table_id)
            while self.bytes > self.max_bytes and len(self._games) > 1:
                gone, (_, _, dropped) = self._games.popitem(last=False)
                self._live.pop(gone, None)
                self.bytes -= dropped
            return table.table_id in self._games

    def clear(self) -> None:
        with self._lock:
            self._games.clear()
            self._live.clear()
            self.bytes = 0


GAMES = _GameCache()


def row_bytes(table: TableRow) -> int:
    """An estimate of a row's size in memory: its move log (about 100 bytes a move as a
    :class:`~bot.store.MoveLog` of texts, 180 as a list of lists; measured), its recent events,
    and its state (about its game's size)."""
    per_move = 100 if isinstance(table.moves, MoveLog) else 180
    return 2048 + per_move * len(table.moves) + 200 * len(table.events) + GAME_SIZES.known(table.game)


def load_game(table: TableRow) -> Game:
    """The table's current game: the one the service holds, else the cached one of this table and
    revision, else its snapshot (``state``) with the moves after it (``state_ply``) replayed."""
    if table.state is None:
        raise TableError(say("The game has not started yet."))
    if table.live is not None:
        return table.live
    game = GAMES.get(table)
    if game is not None:
        if not table.held:  # a row of the service's cache keeps no game object (see TableRow.held)
            table.live = game
        return game
    game = spec(table.game).state.from_json(unpacked(table.state))
    if table.state_ply is not None:
        for seat, move, *_ in table.moves[table.state_ply:]:
            game = apply_logged(game, int(seat), str(move))
    if not GAMES.put(table, game) or not table.held:  # not in the cache of games: the row keeps it
        table.live = game
    return game
