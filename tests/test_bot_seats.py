"""Bot seats at the table service: the host seats the built-in player in the lobby, it plays
its turns at once (inside the same update), is never pinged and keeps no stats; hints say what
it would do, in one plain sentence."""

from __future__ import annotations

import random
import re

import pytest

from bot.engine.hints import describe, hint, hint_sentence
from bot.engine.registry import GAME_IDS, spec
from bot.tables import MAX_BOT_STEPS, TableError, is_bot
from bot.tables.games import load_game

CH = 777
CW = "court_wars"


async def test_add_bot_is_for_the_host_in_a_lobby_with_room(service, people):
    await service.new_table(CH, 1, people[0], CW)
    with pytest.raises(TableError, match="Only the host"):
        await service.add_bot(CH, people[1])
    change = await service.add_bot(CH, people[0])
    assert [s.name for s in change.table.seats] == ["Ana", "Deckhand bot 1"]
    assert is_bot(change.table.seats[1].user_id)
    for _ in range(2):
        change = await service.add_bot(CH, people[0])
    assert [s.name for s in change.table.seats][1:] == ["Deckhand bot 1", "Deckhand bot 2", "Deckhand bot 3"]
    assert len({s.user_id for s in change.table.seats}) == 4
    with pytest.raises(TableError, match="full"):
        await service.add_bot(CH, people[0])
    with pytest.raises(TableError, match="moved on"):
        await service.add_bot(CH, people[0], revision=1)


async def test_no_bot_in_a_game_for_one_nor_after_the_start(service, people):
    await service.new_table(CH, 1, people[0], "gridcannon")
    with pytest.raises(TableError, match="lobby"):
        await service.add_bot(CH, people[0])
    await service.new_table(CH + 1, 1, people[0], CW)
    await service.add_bot(CH + 1, people[0])
    await service.start(CH + 1, people[0])
    with pytest.raises(TableError, match="lobby"):
        await service.add_bot(CH + 1, people[0])


async def test_host_leaving_passes_the_lobby_to_a_person_never_a_bot(service, people):
    await service.new_table(CH, 1, people[0], CW)
    await service.add_bot(CH, people[0])
    await service.join(CH, people[1])
    change = await service.leave(CH, people[0])
    assert change.table.host_id == people[1].user_id
    change = await service.leave(CH, people[1])
    assert change.table.status == "abandoned", "a lobby of bots alone closes"


async def test_bots_play_at_once_to_the_end_and_keep_no_stats(service, store, people):
    await service.new_table(CH, 1, people[0], CW)
    await service.add_bot(CH, people[0])
    await service.add_bot(CH, people[0])
    change = await service.start(CH, people[0])
    rng = random.Random(5)
    seen_bot_moves = 0
    for _ in range(600):
        table = change.table
        if table.status != "playing":
            break
        game = load_game(table)
        assert game.to_act() == {0}, "after every update it is the person's turn (bots have played)"
        assert all(not is_bot(u) for u in change.pings)
        assert change.pings == [], "one person at the table: nobody is pinged"
        before = len(table.moves)
        change = await service.move(CH, people[0], str(spec(CW).player(game, 0, rng)))
        seen_bot_moves += sum(1 for m in change.table.moves[before:] if m[0] != 0)
        stored = await store.get(CH)
        assert stored.revision == change.table.revision and len(stored.moves) == len(change.table.moves)
    assert change.table.status == "finished"
    assert seen_bot_moves > 0
    assert change.record is not None
    rows = await service.stats(1, CW)
    assert [r["user_id"] for r in rows] == [people[0].user_id], "only the person has a result"


async def test_bot_first_to_act_plays_at_the_start(service, people):
    await service.new_table(CH, 1, people[0], CW, ["first=1"])
    await service.add_bot(CH, people[0])
    change = await service.start(CH, people[0])
    game = load_game(change.table)
    assert game.to_act() == {0}
    assert change.table.moves and change.table.moves[0][0] == 1, "the bot's opening turn was played at once"
    assert any("Deckhand bot 1" in e for e in change.events)


async def test_pings_go_to_people_only(service, people):
    await service.new_table(CH, 1, people[0], CW)
    await service.join(CH, people[1])
    await service.add_bot(CH, people[0])
    change = await service.start(CH, people[0])
    rng = random.Random(2)
    for _ in range(60):
        table = change.table
        if table.status != "playing":
            break
        game = load_game(table)
        seat = min(game.to_act())
        assert not is_bot(table.seats[seat].user_id)
        change = await service.move(CH, people[seat], str(spec(CW).player(game, seat, rng)))
        assert all(u in (people[0].user_id, people[1].user_id) for u in change.pings)
        now = load_game(change.table)
        if change.table.status == "playing":
            acting = {change.table.seats[s].user_id for s in now.to_act()}
            assert set(change.pings) <= acting


def test_bot_steps_are_bounded():
    assert 100 <= MAX_BOT_STEPS <= 10_000


CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|10[SHDC])(?![A-Za-z0-9])")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_hints_one_plain_sentence(game_id):
    s = spec(game_id)
    n = s.min_players if s.min_players > 1 else 1
    game = s.state.new([f"P{i}" for i in range(n)], s.options.parse(list(s.quick_options)).dump(), seed=11)
    rng = random.Random(3)
    for _ in range(60):
        if game.is_over():
            break
        seat = min(game.to_act())
        action, reason = hint(game, seat)
        game.parse(seat, str(action))  # a legal, well-formed action
        sentence = hint_sentence(game, seat)
        assert sentence.endswith(".") and ", because " in sentence and "\n" not in sentence
        assert not CODE.search(sentence), sentence  # cards with suit symbols, never codes
        assert describe(game, seat, action)
        game, _ = game.apply(seat, str(s.player(game, seat, rng)))


MULTI = [g for g in GAME_IDS if spec(g).max_players > 1]


@pytest.mark.parametrize("game_id", MULTI)
async def test_one_person_and_bots_play_every_game_to_the_end(service, people, game_id):
    """Whatever the game (simultaneous secret decisions, story lines, clocks), the table only
    ever waits for the person, and the game ends."""
    s = spec(game_id)
    await service.new_table(CH, 1, people[0], game_id, list(s.quick_options))
    for _ in range(s.max_players - 1):
        await service.add_bot(CH, people[0])
    change = await service.start(CH, people[0])
    rng = random.Random(7)
    for _ in range(3000):
        if change.table.status != "playing":
            break
        game = load_game(change.table)
        assert game.to_act() == {0}, f"waiting for {game.to_act()}"
        change = await service.move(CH, people[0], str(s.player(game, 0, rng)))
        assert 0 not in change.private or all(isinstance(t, str) for t in change.private[0])
        assert not any(s_ for s_ in change.private if s_ != 0), "a bot's private texts go nowhere"
    assert change.table.status == "finished"
