"""Readers of one game share what they asked of it, and a seat's next reader takes over what its
picker previewed: what they offer is exactly what a reader asking the engine anew offers."""

from __future__ import annotations

import random

import pytest

from bot.ui import payloads as ui
from bot.engine.registry import spec, specs
from bot.store import MoveLog, Seat, TableRow
from bot.tables.reader import ASKED, Reader, TableFacts, reader_of

GAMES = [(s.id, s.state.min_players if s.id != "maginot_line" else 4, ["Teams"] if s.id == "maginot_line" else [])
         for s in specs()]


def make_table(moves: list[list], game: str = "maginot_line", seats: int = 4, options: list[str] | None = None) -> TableRow:
    row = TableRow(channel_id=9, guild_id=None, game=game, status="playing", host_id=1,
                   seats=[Seat(1 + i, f"p{i}") for i in range(seats)], options=options or [], seed=0,
                   created_at=1.0)
    row.moves = MoveLog(moves) if not isinstance(row.moves, list) else [list(m) for m in moves]
    row.table_id = "t9"
    row.revision = len(moves)
    return row


def components_of(view) -> list[dict]:
    """A message's components as they are sent, row after row (of a PlainView or a View)."""
    return [c for row in view.to_components() for c in row["components"]]


def offered(reader: Reader) -> tuple:
    """Everything a seat's panel shows: its text and the components (custom ids, labels, options)."""
    drafts = ui.Drafts()
    text, view = ui.picker(reader, ui.Step(()), drafts)
    return text, components_of(view)


@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_a_followed_reader_offers_what_a_fresh_one_does(game_id, seats, options):
    ASKED.clear()
    game = spec(game_id).state.new([f"p{i}" for i in range(seats)], options, seed=0)
    rng = random.Random(0)
    log: list[list] = []
    followed = 0

    def table(moves: list[list]) -> TableRow:
        return make_table(moves, game_id, seats, options)

    for _ in range(160):
        seat = min(game.to_act())
        reader = reader_of(table(log), game, seat)
        offered(reader)  # the picker previews this seat's moves (kept for the next reader)
        move = str(spec(game_id).player(game, seat, rng))
        game = game.apply(seat, move)[0]
        log.append([seat, move, 0])
        if game.outcome() is not None:
            break
        nxt = min(game.to_act())
        shared = reader_of(table(log), game, nxt)
        fresh = Reader(TableFacts.of(table(log)), game, nxt)
        if nxt == seat and reader.after(move, acting=False) is not None:
            followed += 1
        assert offered(shared) == offered(fresh)
        for o in fresh.choices(()).options:
            assert shared.choices((o.token,)) == fresh.choices((o.token,))
    if game_id == "maginot_line":
        assert followed > 10  # the game has turns of several moves by one seat
