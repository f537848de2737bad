"""Bot seats' levels at the table service: the host seats Easy, Normal and Strong bots; Easy and
Normal play inside the change that hands them the turn, a Strong seat's move is thought in another
process and played at the revision it was thought on (thought again when the table moved
meanwhile); a table whose Strong bot was thinking when its process stopped is resumed by the
start-up and by the sweep; a tournament's bots play at its level."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine import levels
from bot.engine.registry import spec
from bot.store.base import BOT_THINKING
from bot.tables import Actor, TableError
from bot.tables import thinking
from bot.tables.games import load_game
from bot.tables.service import TableService
from bot.tables.tournaments import Tournaments
from tests.service_helpers import Threads

CH = 901
CW = "court_wars"


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setenv("DECKHAND_STRONG_SECONDS", "0.02")  # a Strong move's budget in the tests: small
    yield
    thinking.shutdown()


@pytest.fixture
def main_process_levels(monkeypatch):
    """The levels chosen in this process (the thinking processes are spawned clean: not recorded)."""
    chosen: list[str] = []
    real = levels.choose

    def recording(level, game, seat, rng, budget=None):
        chosen.append(level)
        return real(level, game, seat, rng, budget)

    monkeypatch.setattr(levels, "choose", recording)
    return chosen


async def settled(service: TableService) -> None:
    """Wait until no bot of the service is thinking (bounded: a bot that never ends fails the test)."""
    for _ in range(6000):
        if not service.thinking():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a bot kept thinking")


async def strong_table(service: TableService, host: Actor, *others: str, first: int = 0) -> None:
    await service.new_table(CH, 1, host, CW, [f"first={first}"])
    for level in others:
        await service.add_bot(CH, host, level=level)
    await service.start(CH, host)


async def test_the_host_seats_each_level_and_a_wrong_one_changes_nothing(service, store, people):
    await service.new_table(CH, 1, people[0], CW)
    for level in ("easy", "strong", "normal"):
        change = await service.add_bot(CH, people[0], level=level)
    assert [(s.name, s.level) for s in change.table.seats[1:]] == [
        ("Deckhand bot 1", "easy"), ("Deckhand bot 2", "strong"), ("Deckhand bot 3", "normal")]
    assert "(Normal, the built-in player)" in change.events[0]
    stored = await store.get(CH)
    assert [s.level for s in stored.seats] == [None, "easy", "strong", "normal"]
    await service.new_table(CH + 1, 1, people[0], CW)
    before = await store.get(CH + 1)
    with pytest.raises(TableError, match="level is one of Easy, Normal, Strong"):
        await service.add_bot(CH + 1, people[0], level="grandmaster")
    after = await store.get(CH + 1)
    assert (after.revision, after.seats) == (before.revision, before.seats)


async def test_a_strong_bot_thinks_in_another_process_to_the_end(service, store, people, main_process_levels):
    await strong_table(service, people[0], "strong", "easy")
    rng = random.Random(3)
    for _ in range(400):
        await settled(service)
        table = await store.get(CH)
        if table.status != "playing":
            break
        game = load_game(table)
        assert game.to_act() == {0}, "once the bots are done, the table waits for the person"
        assert BOT_THINKING not in table.series, "nobody thinks: no mark"
        before = len(table.moves)
        change = await service.move(CH, people[0], str(spec(CW).player(game, 0, rng)))
        assert all(m[0] != 1 for m in change.table.moves[before:]), "the Strong seat never plays inside the person's change"
        if thinking_now := service.thinking():
            assert thinking_now == [CH]
            assert (await store.get(CH)).series.get(BOT_THINKING) is not None, "the table is marked as thinking"
    table = await store.get(CH)
    assert table.status == "finished"
    strong_moves = sum(1 for m in table.moves if m[0] == 1)
    assert strong_moves > 3 and any(m[0] == 2 for m in table.moves)
    assert "easy" in main_process_levels and "strong" not in main_process_levels, \
        "Easy plays inline; Strong is thought in another process, never here"


async def hand_over(service: TableService, store, person: Actor, seed: int) -> None:
    """The person plays until the Strong seat must act; the process stops at once, before its bot
    has thought (what a crash leaves: the table marked, nothing half saved)."""
    rng = random.Random(seed)
    for _ in range(50):
        game = load_game(await store.get(CH))
        if game.to_act() != {0}:
            return
        await service.move(CH, person, str(spec(CW).player(game, 0, rng)))
        await service.stop_thinking()
    raise AssertionError("the turn never passed")


async def test_a_restart_while_a_strong_bot_thinks_is_resumed_by_the_sweep_and_the_start_up(store, clock, people):
    first = TableService(store, clock=clock)
    await strong_table(first, people[0], "strong", first=0)
    await hand_over(first, store, people[0], 1)
    stopped = await store.get(CH)
    assert stopped.moves[-1][0] == 0 and load_game(stopped).to_act() == {1}
    assert stopped.series[BOT_THINKING] is not None and stopped.alarm <= clock()
    assert [t.channel_id for t in await store.due(clock())] == [CH], "due for the sweep at once"

    swept = TableService(store, clock=clock)
    await swept.check_timeouts()
    assert swept.thinking() == [CH], "the sweep woke the thinking bot"
    await settled(swept)
    after = await store.get(CH)
    assert len(after.moves) > len(stopped.moves) and after.moves[len(stopped.moves)][0] == 1
    assert after.status != "playing" or (load_game(after).to_act() == {0} and BOT_THINKING not in after.series)

    assert after.status == "playing"  # once more, resumed by a start-up this time
    await hand_over(swept, store, people[0], 2)
    again = await store.get(CH)
    assert again.series.get(BOT_THINKING) is not None and load_game(again).to_act() == {1}
    started = TableService(store, clock=clock)
    assert await started.resume_thinking() == 1
    await settled(started)
    resumed = await store.get(CH)
    assert len(resumed.moves) > len(again.moves) and resumed.moves[len(again.moves)][0] == 1


async def test_a_table_that_moved_while_the_bot_thought_is_thought_again(service, store, people, monkeypatch):
    await strong_table(service, people[0], "strong", first=0)
    real = thinking.think
    calls: list[int] = []

    async def think(game, seat, level, seed, budget):
        calls.append(seat)
        if len(calls) == 1:  # meanwhile the host changes the table (its revision moves on)
            await service.set_turn_limit(CH, people[0], 7200)
        return await real(game, seat, level, seed, budget)

    monkeypatch.setattr(thinking, "think", think)
    rng = random.Random(4)
    while not calls:  # the person plays until the Strong seat thinks
        game = load_game(await store.get(CH))
        before = await service.move(CH, people[0], str(spec(CW).player(game, 0, rng)))
        await settled(service)
    table = await store.get(CH)
    assert len(calls) >= 2 and calls[:2] == [1, 1], "thought again on the table as it is now"
    assert table.turn_limit == 7200 and table.moves[len(before.table.moves)][0] == 1, "then played, once"
    assert table.revision == before.table.revision + 2 + (len(calls) - 2), "the turn limit, then one save a move"


async def test_a_tournaments_bots_play_at_its_level(db_path, clock):
    from bot.store import Store

    store = await Store.open(db_path)
    try:
        service = TableService(store, clock=clock)
        tours = Tournaments(service)
        org = Actor(7, "Org", can_manage=True)
        with pytest.raises(TableError, match="level"):
            await tours.create(1 << 22, 55, org, CW, "swiss", bots=2, bot_level="grandmaster")
        view = await tours.create(1 << 22, 55, org, CW, "swiss", round_seconds=7200, bots=3, bot_level="strong")
        assert view.bot_level == "strong"
        await tours.join(view.id, Actor(100, "Ana"))
        await tours.start(view.id, org)
        threads = Threads()
        await threads.run(tours, view.id)
        await settled(service)
        t = await tours.load(view.id)
        assert t.bot_level == "strong"
        boards = [b for b in t.current if not b.bye]
        assert boards
        for b in boards:
            table = await store.get(b.channel)
            assert [s.level for s in table.seats if s.user_id < 0] == ["strong"] * sum(u < 0 for u in b.players)
            if all(u < 0 for u in b.players):  # bots only: played to the end by thinking, with no channel
                assert table.status == "finished"
    finally:
        await store.close()
