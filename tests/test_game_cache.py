"""The service's caches hold hot tables compactly: a row's state packed, only the most recently
used games as objects (the others packed and rebuilt the same)."""

from __future__ import annotations

import gc
import random

from bot.engine.registry import spec
from bot.store import PackedState, TableRow, unpacked
from bot.tables.games import _GameCache, _Packed


def _game(moves: int, seed: int = 0):
    cls = spec("maginot_line").state
    game = cls.new(["a", "b", "c", "d"], ["Teams"], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = min(game.to_act())
        game, _ = game.apply(seat, str(spec("maginot_line").player(game, seat, rng)))
    return game


def test_a_packed_state_reads_as_the_dict_it_holds():
    state = _game(40).to_json()
    packed = PackedState(state)
    assert packed == state and state == packed and dict(packed) == state and unpacked(packed) == state
    assert packed["state"] == state["state"] and PackedState(packed) == packed
    assert packed.unpack() is not packed.unpack()  # every read a fresh copy: the packed one never changes
    assert unpacked(state) is state and unpacked(None) is None
    gc.collect()
    assert not gc.is_tracked(packed._blob)


def test_only_the_most_recent_games_are_objects_and_a_packed_one_comes_back_the_same():
    cache = _GameCache(live=2)
    games = [_game(30 + i, seed=i) for i in range(4)]
    rows = [TableRow(i, None, "maginot_line", "playing", 0, [], [], i, table_id=f"t{i}", revision=5) for i in range(4)]
    for row, game in zip(rows, games, strict=True):
        cache.put(row, game)
    held = [cache._games[r.table_id][1] for r in rows]
    assert [isinstance(h, _Packed) for h in held] == [True, True, False, False]
    back = cache.get(rows[0])
    assert back is not games[0] and back.to_json() == games[0].to_json()
    assert back.to_act() == games[0].to_act() and back.decisions() == games[0].decisions()
    assert cache.get(rows[0]) is back  # an object again, the most recent
    assert isinstance(cache._games["t2"][1], _Packed)  # ... and the least recent object packed
    stale = TableRow(0, None, "maginot_line", "playing", 0, [], [], 0, table_id="t0", revision=4)
    assert cache.get(stale) is None


async def test_a_cached_row_keeps_no_game_object_and_the_table_plays_on(tmp_path):
    from bot.store import SQLiteStore
    from bot.tables import Actor
    from bot.tables.games import load_game
    from bot.tables.service import TableService

    store = await SQLiteStore.open(tmp_path / "t.sqlite3")
    try:
        service = TableService(store)
        people = [Actor(10 + i, f"P{i}") for i in range(4)]
        await service.new_table(1, 1, people[0], "maginot_line", ["Teams"], seed=3)
        for p in people[1:]:
            await service.join(1, p)
        await service.start(1, people[0])
        rng = random.Random(3)
        for _ in range(40):  # past a snapshot (every 32 moves)
            row = service.cached(1) or await service.get(1)
            game = load_game(row)
            seat = min(game.to_act())
            change = await service.move(1, people[seat], str(spec("maginot_line").player(game, seat, rng)))
            cached = service.cached(1)
            assert cached.held and cached.live is None and isinstance(cached.state, PackedState)
            assert load_game(cached) is load_game(cached) and cached.live is None
        stored = await store.get(1)
        assert stored.revision == change.table.revision and stored.state == cached.state
        assert load_game(stored).to_json() == load_game(cached).to_json()
    finally:
        await store.close()


def test_a_row_keeps_its_game_when_the_cache_holds_a_newer_revision_of_its_table():
    from bot.tables.games import GAMES, load_game

    game = _game(3)
    newer = TableRow(7, None, "maginot_line", "playing", 0, [], [], 0, table_id="same-id", revision=100)
    GAMES.put(newer, _game(5))
    try:
        row = TableRow(7, None, "maginot_line", "playing", 0, [], [], 0, state=game.to_json(), table_id="same-id",
                       revision=3)
        row.held = True
        first = load_game(row)
        assert first.to_json() == game.to_json()
        assert row.live is first and load_game(row) is first  # not replayed again on every read
    finally:
        GAMES.clear()
