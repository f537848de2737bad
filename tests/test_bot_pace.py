"""Bots pace like people where speed matters (KRPD's Open Race): a bot racing a person answers
after a human-like delay drawn from the table's seeded generator, so a person answering in 2 s
wins about as often as each bot; elsewhere bots act at once."""

from __future__ import annotations


from bot.store import Seat, TableRow
from bot.tables.bots import BOT_FASTEST, PERSON, bot_delay, race_slowest
from bot.tables.games import load_game
from tests.service_helpers import open_race

KRPD = "knight_rogue_princess_dragon"
CH = 4242


def test_a_person_answering_in_two_seconds_wins_about_as_often_as_each_bot():
    for bots in (1, 2, 3):
        wins = {"person": 0, **{b: 0 for b in range(bots)}}
        races = 3000
        for race in range(races):
            t = TableRow(channel_id=1, guild_id=1, game=KRPD, status="playing", host_id=1,
                         seats=[Seat(1, "Ana")] + [Seat(-(b + 1), f"bot {b}") for b in range(bots)], options=[],
                         seed=race, moves=[[0, "x", 0.0]] * (race % 7))
            delays = {b: bot_delay(t, b + 1, bots) for b in range(bots)}
            assert all(BOT_FASTEST <= d <= race_slowest(bots) for d in delays.values())
            fastest = min(delays, key=delays.get)
            wins["person" if delays[fastest] > PERSON else fastest] += 1
        share = 1 / (bots + 1)
        for who, n in wins.items():
            assert abs(n / races - share) < 0.05, (bots, who, n / races)
    assert race_slowest(3) < 6, "a few seconds, not a minute"


async def test_racing_bots_wait_their_delay_then_answer(service, clock, people):
    """At a table of one person and three bots, the race opens with the bots still to answer; when
    their delay has passed the table plays them (the Discord layer's timer calls this)."""
    from bot.tables.desk import Desk

    desk = Desk(service)

    def alone(game) -> None:
        assert game.to_act() == {0}, "outside a race the bots have played at once"

    table = await open_race(service, CH, people, bots=3, attempts=12, each=alone)
    game = load_game(table)
    racing = {d.seat for d in game.decisions() if d.clock_seconds is not None}
    assert 0 in racing and racing & {1, 2, 3}, "bots are in the race, and have not answered yet"
    wait = await desk.bot_wait(CH)
    assert wait is not None and BOT_FASTEST <= wait <= race_slowest(len(racing) - 1)
    assert await desk.play_due_bots(CH) is None, "not before its time"
    clock.advance(wait + 0.01)
    update = await desk.play_due_bots(CH)
    assert update is not None and update.public.table.revision == table.revision + 1
    after = await service.get(CH)
    assert len(after.moves) > len(table.moves) and int(after.moves[len(table.moves)][0]) in racing - {0}
