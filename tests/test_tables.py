"""The table service: lobby, turns, pings, turn limits, forfeits, records, restarts.

Driven with the Knight/Rogue/Princess/Dragon engine (4 seats, free text) and the
built-in players, on a real SQLite file.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.registry import spec
from bot.records import replay
from bot.store import Store
from bot.tables import Actor, TableError, wilson_lower_bound
from bot.tables.games import load_game
from tests.service_helpers import open_race
from bot.tables.service import TableService

KRPD = "knight_rogue_princess_dragon"
CH = 555


async def seated(service, people, n=4, game=KRPD, options=None):
    await service.new_table(CH, 1, people[0], game, options or [])
    for p in people[1:n]:
        await service.join(CH, p)
    return await service.start(CH, people[0])


async def play_one(service, people, rng):
    table = await service.get(CH)
    game = load_game(table)
    seat = min(game.to_act())
    move = str(spec(table.game).player(game, seat, rng))
    return await service.move(CH, people[seat], move)


async def test_lobby_join_leave_start(service, people):
    change = await service.new_table(CH, 1, people[0], KRPD)
    assert change.table.status == "lobby" and len(change.table.seats) == 1
    with pytest.raises(TableError, match="already seated"):
        await service.join(CH, people[0])
    with pytest.raises(TableError, match="at least 4"):
        await service.start(CH, people[0])
    for p in people[1:4]:
        await service.join(CH, p)
    with pytest.raises(TableError, match="full"):
        await service.join(CH, people[4])
    with pytest.raises(TableError, match="Only the host"):
        await service.start(CH, people[1])
    await service.leave(CH, people[3])
    await service.join(CH, people[4])
    change = await service.start(CH, people[0])
    assert change.table.status == "playing"
    assert [s.name for s in change.table.seats] == ["Ana", "Ben", "Cat", "Eve"]
    assert change.pings, "the first player to act is pinged"
    with pytest.raises(TableError, match="not taking players"):
        await service.join(CH, people[3])


async def test_one_table_per_channel(service, people):
    await service.new_table(CH, 1, people[0], KRPD)
    with pytest.raises(TableError, match="already has"):
        await service.new_table(CH, 1, people[1], "gridcannon")


async def test_host_leaving_lobby_passes_host(service, people):
    await service.new_table(CH, 1, people[0], KRPD)
    await service.join(CH, people[1])
    change = await service.leave(CH, people[0])
    assert change.table.host_id == people[1].user_id


async def test_wrong_player_and_wrong_turn_change_nothing(service, store, people):
    await seated(service, people)
    before = await store.get(CH)
    game = load_game(before)
    actor_seat = min(game.to_act())
    other = (actor_seat + 1) % 4
    with pytest.raises(TableError):
        await service.move(CH, people[other], "flip")
    with pytest.raises(TableError, match="not playing"):
        await service.move(CH, people[4], "flip")
    with pytest.raises(TableError):
        await service.move(CH, people[actor_seat], "fly to the moon")
    after = await store.get(CH)
    assert (after.state, after.revision, after.moves) == (before.state, before.revision, before.moves)


async def test_stale_revision_refused(service, people):
    change = await seated(service, people)
    rev = change.table.revision
    await play_one(service, people, random.Random(1))
    game = load_game(await service.get(CH))
    seat = min(game.to_act())
    move = str(spec(KRPD).player(game, seat, random.Random(2)))
    with pytest.raises(TableError, match="moved on"):
        await service.move(CH, people[seat], move, revision=rev)


async def test_pings_only_on_turn_change(service, people):
    await seated(service, people)
    rng = random.Random(3)
    for _ in range(30):
        table = await service.get(CH)
        before = load_game(table).to_act()
        change = await play_one(service, people, rng)
        if change.finished:
            break
        after = load_game(change.table).to_act()
        expected = sorted(change.table.seats[s].user_id for s in after - before)
        assert change.pings == expected


async def test_whole_game_record_replays(service, store, people):
    await seated(service, people)
    rng = random.Random(4)
    change = None
    for _ in range(500):
        change = await play_one(service, people, rng)
        if change.finished:
            break
    assert change is not None and change.finished and change.record
    table = await store.get(CH)
    assert table.status == "finished"
    game = replay(json.loads(json.dumps(change.record)))
    assert game.to_json() == load_game(table).to_json()
    stats = await service.stats(1, KRPD)
    assert len(stats) == 4 and all(r["played"] == 1 for r in stats)


async def test_timeout_skip_and_remove(service, clock, people):
    await seated(service, people)
    await service.set_turn_limit(CH, people[0], 60)
    with pytest.raises(TableError, match="at least 1 minute"):
        await service.set_turn_limit(CH, people[0], 59)
    assert await service.check_timeouts() == []
    clock.advance(61)
    changes = await service.check_timeouts()
    assert len(changes) == 1 and "Time is up" in changes[0].events[0]
    assert await service.check_timeouts() == [], "each timeout is told once"
    table = await service.get(CH)
    late = min(load_game(table).to_act())
    other = (late + 1) % 4
    with pytest.raises(TableError, match="other players or the host"):
        await service.skip(CH, Actor(999, "Stranger"))
    change = await service.skip(CH, people[other])
    assert "skipped" in change.events[0]
    # Skip plays the late player's whole turn (every step until another seat is to act).
    assert change.table.moves and all(m[0] == late for m in change.table.moves)
    assert late not in load_game(change.table).to_act()
    clock.advance(61)
    await service.check_timeouts()
    table = await service.get(CH)
    late = min(load_game(table).to_act())
    change = await service.remove(CH, people[(late + 1) % 4])
    # The Knight/Rogue/Princess/Dragon needs all four: a forfeit ends the story.
    assert change.finished and change.table.status == "finished"
    assert change.record["moves"][-1] == [late, "!forfeit"]
    assert replay(change.record).to_json() == load_game(change.table).to_json()


async def test_abandon_rights(service, people):
    await seated(service, people)
    with pytest.raises(TableError, match="Only the host"):
        await service.abandon(CH, people[1])
    change = await service.abandon(CH, Actor(people[1].user_id, "Ben", can_manage=True))
    assert change.table.status == "abandoned"
    await service.new_table(CH, 1, people[2], KRPD)  # the channel is free again


async def test_restart_loses_nothing(db_path, clock, people):
    s1 = await Store.open(db_path)
    svc1 = TableService(s1, clock=clock)
    await seated(svc1, people)
    rng = random.Random(5)
    for _ in range(6):
        await play_one(svc1, people, rng)
    before = await s1.get(CH)
    await s1.close()
    s2 = await Store.open(db_path)
    svc2 = TableService(s2, clock=clock)
    after = await s2.get(CH)
    assert after.state == before.state and after.revision == before.revision
    await play_one(svc2, people, rng)
    assert (await s2.get(CH)).revision == before.revision + 1
    await s2.close()


async def test_rematch_keeps_seats(service, people):
    await seated(service, people)
    await service.abandon(CH, people[0])
    change = await service.rematch(CH, people[1])
    assert change.table.status == "playing"
    assert [s.user_id for s in change.table.seats] == [p.user_id for p in people[:4]]
    with pytest.raises(TableError):
        await service.rematch(CH, people[1])


async def test_solo_game_starts_at_once(service, people):
    change = await service.new_table(CH, None, people[0], "gridcannon")
    assert change.table.status == "playing" and change.pings == []


def test_wilson_rewards_many_wins_over_one_lucky_game():
    assert wilson_lower_bound(1, 1) < wilson_lower_bound(8, 10)
    assert wilson_lower_bound(0, 0) == 0.0


async def test_open_race_clock_runs_out_on_the_table_clock(service, clock, people):
    """KRPD ruling 8 (Open Race): after 60 s with no play the race ends — the table's sweep
    plays every racer's default (pass) as soon as the rulebook's clock runs out, long before
    the turn limit."""
    table = await open_race(service, CH, people)  # a deal whose story reaches the race with someone able to play
    racing = load_game(table).decisions()
    assert all(d.clock_seconds == 60 and d.default == "pass" for d in racing)
    assert table.deadline == table.turn_since + 60
    clock.advance(59)
    assert await service.check_timeouts() == []
    clock.advance(2)
    changes = await service.check_timeouts()
    assert len(changes) == 1 and "clock ran out" in changes[0].events[0]
    after = await service.get(CH)
    game = load_game(after)
    assert not any(d.name == "race" for d in game.decisions()), "the race is over"
    assert [m[1] for m in after.moves[-len(racing):]] == ["pass"] * len(racing)
    assert after.game_clock is None and not after.timed_out
