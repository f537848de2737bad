"""Tournaments through the table service: sign-up, rounds opened by the clock, results from the
tables' ends, settling at the round's end, dropping out, a restart between and during rounds."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import spec
from bot.store import Store
from bot.tables import Actor, TableError
from bot.tables.games import load_game
from bot.tables.service import TableService
from bot.tables.tournaments import FINISHED, RUNNING, Tournaments
from tests.service_helpers import Threads, turns

GUILD = 1 << 22
HOUR = 3600


async def opened(db_path, clock) -> tuple[Store, TableService, Tournaments]:
    """The store on ``db_path``, a table service on it and its tournaments (a restart opens them again)."""
    store = await Store.open(db_path)
    service = TableService(store, clock=clock)
    return store, service, Tournaments(service)


async def play_out(service: TableService, channel: int, seed: int) -> None:
    """Play a table to its end, every seat choosing as the built-in player would."""
    rng = random.Random(seed)
    async for table, game, seat in turns(service, channel, 400):
        move = str(spec(table.game).player(game, seat, rng))
        await service.move(channel, Actor(table.seats[seat].user_id, table.seats[seat].name), move)


async def play_rounds(service: TableService, tours: Tournaments, threads: Threads, tid: int, rounds: int) -> None:
    """``rounds`` times: every open board played to its end, then the clock's work."""
    for _ in range(rounds):
        t = await tours.load(tid)
        for k, b in enumerate(t.current):
            if not b.done:
                await play_out(service, b.channel, k)
        await threads.run(tours, tid)


async def start_with(tours: Tournaments, tid: int, organiser: Actor, players: int) -> Threads:
    """``players`` people (P0, P1…) sign up, the organiser starts it and the clock's first work is done."""
    for i in range(players):
        await tours.join(tid, Actor(100 + i, f"P{i}"))
    await tours.start(tid, organiser)
    threads = Threads()
    await threads.run(tours, tid)
    return threads


@pytest.fixture
def organiser():
    return Actor(7, "Org", can_manage=True)


async def test_swiss_of_nine_to_the_end_with_a_restart(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    view = await tours.create(GUILD, 55, organiser, "cardchess2", "swiss", round_seconds=2 * HOUR, bots=6)
    tid = view.id
    people = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat"])]
    for p in people:
        await tours.join(tid, p)
    with pytest.raises(TableError, match="already"):
        await tours.join(tid, people[0])
    with pytest.raises(TableError, match="organiser"):
        await tours.start(tid, people[0])
    started = await tours.start(tid, organiser)
    assert started.status == RUNNING and started.rounds_planned == 4 and len(started.entrants) == 9
    threads = Threads()
    await threads.run(tours, tid)

    for rnd in range(1, 5):
        t = await tours.load(tid)
        assert len(t.rounds) == rnd
        people_boards = [b for b in t.current if not b.bye and any(u > 0 for u in b.players)]
        for b in t.current:
            if b.bye:
                continue
            assert b.channel is not None and b.table
            if all(u < 0 for u in b.players):
                assert b.channel < 0 and b.done, "a table of bots is played at once, out of Discord"
            else:
                assert b.channel > 0 and (b.announced or b.done)
        if rnd == 2:  # a restart between rounds' work: a new service on the same file
            await store.close()
            store, service, tours = await opened(db_path, clock)
        if rnd == 3:  # the round's end settles one table; the others end by play or by leaving
            waiting = [b for b in people_boards if not b.done]
            if waiting:
                await service.leave(waiting[0].channel, Actor(next(u for u in waiting[0].players if u > 0), "x"))
            for b in waiting[1:-1]:
                await play_out(service, b.channel, rnd)
            clock.advance(2 * HOUR + 1)
            await threads.run(tours, tid)
            continue
        for k, b in enumerate(people_boards):
            if not b.done:
                await play_out(service, b.channel, rnd * 10 + k)
                if k == 0 and rnd == 1:  # a restart in the middle of a round: the rest still counts
                    await store.close()
                    store, service, tours = await opened(db_path, clock)
        await threads.run(tours, tid)

    final = await tours.view(tid)
    assert final.status == FINISHED
    assert [p.round for p in threads.posted] == [1, 2, 3, 4] and threads.posted[-1].final
    t = await tours.load(tid)
    pairs = [frozenset(b.players) for r in t.rounds for b in r if not b.bye]
    assert len(pairs) == len(set(pairs)) == 16, "four rounds of four games, no pairing twice"
    byes = [b.players[0] for r in t.rounds for b in r if b.bye]
    assert len(byes) == len(set(byes)) == 4
    table = final.standings
    assert sum(s.points for s in table) == 4 * 5
    assert all(a.points > b.points or (a.points == b.points and a.buchholz >= b.buchholz)
               for a, b in zip(table, table[1:], strict=False))
    # every people's game is recorded and rated
    for r in t.rounds:
        for b in r:
            if b.bye:
                continue
            row = await service.get(b.channel)
            assert row.status in ("finished", "abandoned") and row.series["tournament"][0] == tid
    rated = await store.ratings(GUILD, "cardchess2", [p.user_id for p in people])
    assert set(rated) == {p.user_id for p in people}
    await store.close()


async def test_settled_at_the_round_end_and_drop_out(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    tid = (await tours.create(GUILD, 55, organiser, "court_wars", "swiss", round_seconds=HOUR, rounds=2,
                              settle="draw")).id
    people = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat", "Dee"])]
    for p in people:
        await tours.join(tid, p)
    await tours.leave(tid, people[3])
    assert [e[1] for e in (await tours.view(tid)).entrants] == ["Ana", "Ben", "Cat"]
    await tours.start(tid, organiser)
    threads = Threads()
    await threads.run(tours, tid)
    assert len(threads.announced) == 1 and len(threads.announced[0].users) == 2
    t = await tours.load(tid)
    board = next(b for b in t.current if not b.bye)
    clock.advance(HOUR + 1)
    await threads.run(tours, tid)
    assert len(threads.settled) == 1 and "draw" in threads.settled[0].text
    row = await service.get(board.channel)
    assert row.status == "abandoned"
    t = await tours.load(tid)
    assert t.rounds[0][0].places == [0, 0] and t.rounds[0][0].how == "settled"
    assert len(t.rounds) == 2
    # round two: one player drops out: the table is a forfeit
    b2 = next(b for b in t.current if not b.bye)
    leaver = b2.players[0]
    await tours.drop(tid, Actor(leaver, "x"))
    await threads.run(tours, tid)
    final = await tours.view(tid)
    assert final.status == FINISHED
    t = await tours.load(tid)
    assert t.rounds[1][[i for i, b in enumerate(t.rounds[1]) if not b.bye][0]].places[b2.players.index(leaver)] == 1
    assert next(e for e in final.entrants if e[0] == leaver)[2], "marked as dropped"
    await store.close()


async def test_single_elimination_of_five(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    tid = (await tours.create(GUILD, 55, organiser, "court_wars", "elimination", round_seconds=HOUR, bots=2)).id
    for i, n in enumerate(["Ana", "Ben", "Cat"]):
        await tours.join(tid, Actor(100 + i, n))
    view = await tours.start(tid, organiser)
    assert view.rounds_planned == 3
    threads = Threads()
    await threads.run(tours, tid)
    t = await tours.load(tid)
    assert len(t.current) == 4 and sum(b.bye for b in t.current) == 3, "eight slots: three byes"
    await play_rounds(service, tours, threads, tid, 3)
    final = await tours.view(tid)
    assert final.status == FINISHED and len((await tours.load(tid)).rounds) == 3
    assert not final.standings[0].out and all(s.out for s in final.standings[1:])
    assert threads.posted[-1].final and [p.round for p in threads.posted] == [1, 2, 3]
    await store.close()


async def test_rounds_of_tables_with_fill_ins(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    tid = (await tours.create(GUILD, 55, organiser, "court_wars", "tables", seats=4, rounds=2, fill=True,
                              round_seconds=HOUR)).id
    threads = await start_with(tours, tid, organiser, 6)
    t = await tours.load(tid)
    assert [len(b.players) for b in t.current] == [4, 4]
    assert sum(1 for u in t.current[1].players if u < 0) == 2, "two built-in players fill the second table"
    row = await service.get(t.current[1].channel)
    assert [s.name for s in row.seats][2:] == ["Deckhand bot 1", "Deckhand bot 2"], "named as a lobby names its bots"
    assert t.name_of(t.current[1].players[3]) == "Deckhand bot (a fill-in)"  # in the tournament's messages
    await play_rounds(service, tours, threads, tid, 2)
    final = await tours.view(tid)
    assert final.status == FINISHED and len(final.standings) == 6
    assert sum(s.points for s in final.standings) > 0 and all(s.user_id > 0 for s in final.standings)
    await store.close()


async def test_maginot_tables_of_twelve_settled_for_the_player_ahead(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    tid = (await tours.create(GUILD, 55, organiser, "maginot_line", "tables", seats=4, rounds=1,
                              round_seconds=HOUR)).id
    threads = await start_with(tours, tid, organiser, 12)
    t = await tours.load(tid)
    assert [len(b.players) for b in t.current] == [4, 4, 4] and len(threads.announced) == 3
    # one table is played a while; then the round's time is up
    rng = random.Random(1)
    b = t.current[0]
    for _ in range(40):
        row = await service.get(b.channel)
        game = load_game(row)
        seat = min(game.to_act())
        await service.move(b.channel, Actor(row.seats[seat].user_id, "x"),
                           str(spec(row.game).player(game, seat, rng)))
    await service.leave(t.current[1].channel, Actor(t.current[1].players[2], "x"))  # a forfeit: last there
    clock.advance(HOUR + 1)
    await threads.run(tours, tid)
    t = await tours.load(tid)
    assert t.status == FINISHED and all(b.how == "settled" for b in t.current)
    assert len(threads.settled) == 3
    assert max(t.current[1].places) == t.current[1].places[2], "who left is last at the table"
    assert threads.posted[-1].final
    for b in t.current:
        assert (await service.get(b.channel)).status == "abandoned"
    await store.close()


async def test_a_start_time_starts_it_or_closes_a_short_sign_up(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    full = (await tours.create(GUILD, 55, organiser, "cardchess2", "swiss", starts_in=HOUR)).id
    short = (await tours.create(GUILD, 56, organiser, "cardchess2", "swiss", starts_in=HOUR)).id
    for i in range(3):
        await tours.join(full, Actor(100 + i, f"P{i}"))
    await tours.join(short, Actor(100, "P0"))
    assert await tours.due() == []
    assert await tours.step(full) == [], "not before its time"
    clock.advance(HOUR)
    assert sorted(await tours.due()) == sorted([full, short])
    threads = Threads()
    await threads.run(tours, full)
    await threads.run(tours, short)
    assert (await tours.view(full)).status == RUNNING and len(threads.announced) == 1
    assert (await tours.view(short)).status == "cancelled"
    with pytest.raises(TableError, match="Sign-up has closed"):
        await tours.join(full, Actor(200, "Late"))
    await store.close()


async def test_a_step_cut_short_after_settling_closes_the_table_on_the_next(db_path, clock, organiser):
    store, service, tours = await opened(db_path, clock)
    tid = (await tours.create(GUILD, 55, organiser, "court_wars", "swiss", round_seconds=HOUR, rounds=1)).id
    threads = await start_with(tours, tid, organiser, 2)
    board = (await tours.load(tid)).current[0]

    def settle_only(t):  # what a process killed between its two writes left behind
        t.current[0].places, t.current[0].how = [0, 0], "settled"

    await tours._mutate(tid, settle_only)
    assert (await service.get(board.channel)).status == "playing"
    clock.advance(HOUR + 1)
    await threads.run(tours, tid)
    assert (await service.get(board.channel)).status == "abandoned"
    assert (await tours.view(tid)).status == FINISHED
    await store.close()
