"""The daily Gridcannon challenge at the table service: the day's seed from the UTC date, the same
deal for everyone, one attempt a day, results recorded when the game ends, the leaderboard's order."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import spec
from bot.tables import DAILY_GAME, TableError, daily_day, daily_seed
from bot.tables.games import load_game

EVENING = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC


def deal(table) -> dict:
    """What the player sees at the start: the public view (the grid and the slots)."""
    game = load_game(table)
    return {k: v for k, v in vars(game.view(0)).items() if k not in ("players", "log", "seat")}


def test_day_and_seed_come_from_the_utc_date():
    assert daily_day(EVENING) == "2023-11-14"
    assert daily_day(EVENING + 2 * 3600) == "2023-11-15"  # past midnight UTC
    assert daily_seed("2023-11-14") == daily_seed("2023-11-14")
    assert daily_seed("2023-11-14") != daily_seed("2023-11-15")
    assert 0 <= daily_seed("2023-11-14") < 2**63


async def test_two_players_get_the_same_deal_and_one_attempt(service, clock, people):
    clock.now = EVENING
    a = await service.start_daily(901, people[0])
    b = await service.start_daily(902, people[1])
    assert a.table.game == b.table.game == DAILY_GAME and a.table.status == b.table.status == "playing"
    assert a.table.seed == b.table.seed == daily_seed("2023-11-14")
    assert deal(a.table) == deal(b.table)
    assert a.table.table_id != b.table.table_id
    with pytest.raises(TableError, match="already"):
        await service.start_daily(901, people[0])
    await service.abandon(901, people[0])
    with pytest.raises(TableError, match="one attempt a day"):
        await service.start_daily(901, people[0])
    clock.advance(24 * 3600)
    c = await service.start_daily(901, people[0])
    assert c.table.seed == daily_seed("2023-11-15") != a.table.seed


async def test_an_open_table_in_the_dm_is_refused_without_using_the_attempt(service, clock, people):
    clock.now = EVENING
    await service.new_table(903, None, people[2], "court_wars")
    with pytest.raises(TableError, match="open in our DMs"):
        await service.start_daily(903, people[2])
    assert await service.daily_attempt(people[2].user_id) is None
    await service.cancel(903, people[2])
    assert (await service.start_daily(903, people[2])).table.status == "playing"


async def play_out(service, clock, channel, actor, seconds_per_move):
    rng = random.Random(1)
    for _ in range(2000):
        table = await service.get(channel)
        if table.status != "playing":
            return table
        game = load_game(table)
        clock.advance(seconds_per_move)
        await service.move(channel, actor, str(spec(DAILY_GAME).player(game, 0, rng)))
    raise AssertionError("the daily game did not end")


async def test_results_and_the_leaderboard(service, clock, people):
    clock.now = EVENING
    for i, secs in ((0, 2.0), (1, 1.0)):
        await service.start_daily(910 + i, people[i])
        await play_out(service, clock, 910 + i, people[i], secs)
    await service.start_daily(912, people[2])
    clock.advance(5)
    await service.abandon(912, people[2])
    await service.start_daily(913, people[3])  # still playing: not on the board
    board = await service.daily_board()
    assert [e.user_id for e in board][-1] == people[2].user_id, "an abandoned attempt is a loss, ranked last"
    assert {e.user_id for e in board} == {p.user_id for p in people[:3]}
    ana, ben = (await service.daily_attempt(people[0].user_id)), (await service.daily_attempt(people[1].user_id))
    assert ana.won == ben.won and ana.score == ben.score, "the same deal played the same way ends the same way"
    assert ana.seconds == pytest.approx(2 * ben.seconds), "the same moves, twice as slow"
    assert [e.user_id for e in board][:2] == [people[1].user_id, people[0].user_id], "the quicker first"
    won_score = [(e.won, e.score) for e in board]
    assert won_score == sorted(won_score, key=lambda w: (not w[0], -(w[1] if w[1] is not None else -1)))
    record = load_game(await service.get(910)).outcome()
    assert ana.won == bool(record.winners) and ana.kills == record.details["kills"]
