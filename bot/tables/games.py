"""The game of a stored table: the one place a row becomes an engine ``Game`` (its snapshot
with the moves after it replayed), and the cache of recent games. Only the table service uses
it; the Discord layer and the renders get readers (``bot.tables.reader``), never games."""

from __future__ import annotations

import threading
from collections import OrderedDict

from bot.engine.core import Game
from bot.engine.registry import spec
from bot.records import apply_logged
from bot.store import TableRow
from bot.tables.errors import TableError


class _GameCache:
    """The game of each recent table at its latest revision, by table id: a move neither parses a
    state nor replays the log when its table was loaded or saved in this process. A hit needs the
    same (table id, revision). Games never change (``apply`` makes a new one), so one may be
    shared; thread-safe (messages and pictures are built in worker threads)."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._games: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table: TableRow) -> Game | None:
        with self._lock:
            found = self._games.get(table.table_id) if table.table_id else None
        return found[1] if found is not None and found[0] == table.revision else None

    def put(self, table: TableRow, game: Game) -> None:
        if not table.table_id:
            return
        with self._lock:
            held = self._games.get(table.table_id)
            if held is not None and held[0] > table.revision:
                return  # a newer revision is already held
            self._games[table.table_id] = (table.revision, game)
            self._games.move_to_end(table.table_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


GAMES = _GameCache()



def load_game(table: TableRow) -> Game:
    """The table's current game: the one the service holds, else the cached one of this table and
    revision, else its snapshot (``state``) with the moves after it (``state_ply``) replayed."""
    if table.state is None:
        raise TableError("The game has not started yet.")
    if table.live is not None:
        return table.live
    game = GAMES.get(table)
    if game is None:
        game = spec(table.game).state.from_json(table.state)
        if table.state_ply is not None:
            for seat, move, *_ in table.moves[table.state_ply:]:
                game = apply_logged(game, int(seat), str(move))
        GAMES.put(table, game)
    table.live = game
    return game


