"""Readers of one game share what they asked of it, and a seat's next reader takes over what its
picker previewed: what they offer is exactly what a reader asking the engine anew offers."""

from __future__ import annotations

import random

import pytest

from bot import ui
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


async def _maginot_counting(service, people, monkeypatch, ch):
    """A two-round Maginot Line table of two started in ``ch`` (nothing asked kept from before),
    and :func:`_count_applies` of its game class."""
    from bot.tables.games import load_game

    ASKED.clear()
    await service.new_table(ch, 1, people[0], "maginot_line", ["rounds=2"])
    await service.join(ch, people[1])
    await service.start(ch, people[0])
    return _count_applies(monkeypatch, type(load_game(await service.get(ch))))


def _count_applies(monkeypatch, cls):
    """The moves applied from now on (a list kept up to date) and the game class's own apply."""
    applied: list[str] = []
    real_apply = cls.apply

    def counting(self, seat, action):
        applied.append(str(action))
        return real_apply(self, seat, action)

    monkeypatch.setattr(cls, "apply", counting)
    return applied, real_apply


async def test_a_previewed_move_is_played_as_its_preview_and_stored_as_if_applied(service, people, monkeypatch):
    """A move the seat's panel previewed is played as that preview (not applied again), and what
    the table keeps (its state, log and events) is what applying it makes."""
    from bot.tables.games import load_game

    ch = 31
    applied, real_apply = await _maginot_counting(service, people, monkeypatch, ch)
    rng = random.Random(3)
    played = previewed = 0
    while played < 40:
        row = await service.get(ch)
        game = load_game(row)
        if row.status != "playing":
            break
        seat = min(game.to_act())
        reader = reader_of(row, game, seat)
        offered(reader)  # the panel: its look-ahead previews some of the seat's moves
        move = str(spec("maginot_line").player(game, seat, rng))
        before = reader.after(move, acting=False)
        expected, events = real_apply(game, seat, move)
        applied.clear()
        change = await service.move(ch, people[seat], move)
        played += 1
        if before is not None:
            previewed += 1
            assert move not in applied  # played as its preview
        stored = load_game(change.table)
        assert stored.to_json() == expected.to_json()
        public = [e.public for e in events if e.public]
        assert change.events[:len(public)] == public
    assert previewed >= 3, previewed
    row = await service.get(ch)
    replayed = spec("maginot_line").state.new([s.name for s in row.seats], list(row.options), seed=row.seed)
    for seat, move, *_ in row.moves:
        replayed = real_apply(replayed, seat, move)[0]
    assert replayed.to_json() == load_game(row).to_json()


async def test_a_move_only_tried_is_played_as_its_trial(service, people, monkeypatch):
    """A move a batch's look-ahead only tried (``Reader.trial``: turned down before asking what it
    shows) is, when played, that trial's game too (not applied again), stored as if applied."""
    from bot.tables.games import load_game

    ch = 32
    applied, real_apply = await _maginot_counting(service, people, monkeypatch, ch)
    rng = random.Random(5)
    tried = 0
    for _ in range(40):
        row = await service.get(ch)
        game = load_game(row)
        if row.status != "playing":
            break
        seat = min(game.to_act())
        move = str(spec("maginot_line").player(game, seat, rng))
        trial = reader_of(row, game, seat).trial(move)
        expected, _ = real_apply(game, seat, move)
        applied.clear()
        change = await service.move(ch, people[seat], move)
        if trial is not None:
            tried += 1
            assert move not in applied  # played as its trial
        assert load_game(change.table).to_json() == expected.to_json()
    assert tried >= 10, tried
