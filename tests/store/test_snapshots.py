"""Snapshots: a move appends to the log and leaves the stored state alone; the state is written
every SNAPSHOT_EVERY moves and when the game ends; a load (snapshot + the moves after it) is the
game that was played — on both back ends, through the table service."""

from __future__ import annotations

import dataclasses
import random

from bot.engine.registry import spec
from bot.records import apply_logged
from bot.store.base import SNAPSHOT_EVERY
from bot.tables import Actor
from bot.tables.games import GAMES, load_game
from bot.tables.service import TableService


async def raw(store, sql: str, *args):
    q = sql if store.backend == "sqlite" else sql.replace("?", "$1")
    return await store.execute(q, args)


async def play(service: TableService, channel: int, moves: int, rng: random.Random) -> int:
    played = 0
    for _ in range(moves):
        table = await service.require(channel)
        if table.status != "playing":
            break
        game = load_game(table)
        seat = min(game.to_act())
        user = table.seats[seat]
        await service.move(channel, Actor(user.user_id, user.name), str(spec(table.game).player(game, seat, rng)))
        played += 1
    return played


def replay_all(table) -> dict:
    """The game replayed from its seed through every logged move (no snapshot)."""
    game = spec(table.game).state.new([s.name for s in table.seats], table.options, seed=table.seed)
    for seat, move, *_ in table.moves:
        game = apply_logged(game, int(seat), str(move))
    return game.to_json()


async def test_the_log_replays_to_the_snapshot_and_a_load_is_the_game_played(store):
    service = TableService(store)
    a, b = Actor(1, "Ana"), Actor(2, "Ben")
    await service.new_table(5, 9, a, "maginot_line", seed=3)
    await service.join(5, b)
    await service.start(5, a)
    rng = random.Random(3)
    snapshots_seen = set()
    for _ in range(3 * SNAPSHOT_EVERY + 5):
        assert await play(service, 5, 1, rng) == 1
        stored = await store.get(5)
        assert stored.state_ply is not None and 0 <= len(stored.moves) - stored.state_ply < SNAPSHOT_EVERY
        snapshots_seen.add(stored.state_ply)
        # The snapshot is exactly the log replayed up to it ...
        head = dataclasses.replace(stored, moves=stored.moves[:stored.state_ply])
        assert replay_all(head) == stored.state
        # ... and a cold load (no cache) is the game the service holds.
        GAMES.clear()
        assert load_game(stored).to_json() == replay_all(stored)
    assert len(snapshots_seen) >= 3  # the state was written a few times, not on every move
    n = len((await store.get(5)).moves)
    assert n == 3 * SNAPSHOT_EVERY + 5


async def test_a_move_leaves_the_stored_state_alone(store):
    service = TableService(store)
    await service.new_table(6, 9, Actor(1, "Ana"), "maginot_line", seed=4)
    await service.join(6, Actor(2, "Ben"))
    await service.start(6, Actor(1, "Ana"))
    rng = random.Random(4)
    await play(service, 6, SNAPSHOT_EVERY, rng)  # a snapshot was just written
    before = (await raw(store, "SELECT state, state_ply, revision FROM tables WHERE channel_id = ?", 6))[0]
    await play(service, 6, 3, rng)
    after = (await raw(store, "SELECT state, state_ply, revision FROM tables WHERE channel_id = ?", 6))[0]
    assert after[0] == before[0] and after[1] == before[1]  # the state text is untouched
    assert after[2] == before[2] + 3
    count = (await raw(store, "SELECT COUNT(*) FROM moves WHERE table_id = (SELECT table_id FROM tables "
                              "WHERE channel_id = ?)", 6))[0][0]
    assert count == SNAPSHOT_EVERY + 3


async def test_a_restarted_service_plays_on_from_snapshot_and_log(backend):
    store = await backend.open()
    service = TableService(store)
    await service.new_table(7, 9, Actor(1, "Ana"), "maginot_line", seed=11)
    await service.join(7, Actor(2, "Ben"))
    await service.start(7, Actor(1, "Ana"))
    rng = random.Random(11)
    await play(service, 7, SNAPSHOT_EVERY + 7, rng)
    held = load_game(await service.require(7)).to_json()
    await store.close()
    GAMES.clear()
    store = await backend.open()  # a new process: nothing cached
    service = TableService(store)
    table = await service.require(7)
    assert table.state_ply < len(table.moves)  # some moves come from the log
    assert load_game(table).to_json() == held
    assert await play(service, 7, 5, rng) == 5
    await store.close()


async def test_a_finished_game_keeps_its_final_state(store):
    service = TableService(store)
    await service.new_table(8, 9, Actor(1, "Ana"), "knight_rogue_princess_dragon", seed=2)
    for i in range(2, 5):
        await service.join(8, Actor(i, f"P{i}"))
    await service.start(8, Actor(1, "Ana"))
    rng = random.Random(2)
    await play(service, 8, 2000, rng)
    table = await store.get(8)
    assert table.status == "finished"
    assert table.state_ply == len(table.moves)
    assert spec(table.game).state.from_json(table.state).is_over()
    assert table.state == replay_all(table)


async def test_two_processes_moving_one_table_see_each_others_moves(backend):
    """Each service keeps the row it last saved; a move from the other process makes it stale, the
    save's revision check catches that and the move is made on the stored row — none refused
    wrongly, none lost."""
    first, second = await backend.open(), await backend.open()
    one, two = TableService(first), TableService(second)
    ana, ben = Actor(1, "Ana"), Actor(2, "Ben")
    await one.new_table(9, 9, ana, "maginot_line", seed=6)
    await one.join(9, ben)
    await one.start(9, ana)
    rng = random.Random(6)
    for n in range(40):
        service = (one, two)[n % 3 % 2]  # one, two, one, one, two, one, ...
        table = await service.store.get(9)
        game = load_game(table)
        seat = min(game.to_act())
        await service.move(9, (ana, ben)[seat], str(spec(table.game).player(game, seat, rng)))
    GAMES.clear()
    final = await first.get(9)
    assert len(final.moves) == 40 and final.revision == 43
    assert load_game(final).to_json() == replay_all(final)
    await first.close()
    await second.close()
