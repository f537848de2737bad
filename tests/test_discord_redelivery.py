"""A press Discord delivers twice is answered once. One that changes nothing (My view / act, Show table,
the story's file, a text box, Keep playing) is known in this process only, with no write to the
store; a table's action (join, leave, start…) is remembered in the store, as a move is with it."""

from __future__ import annotations

from bot.ui.components import Delivered
from tests.discord_helpers import guild_with, latest_table, start_by_slash


async def test_my_view_delivered_twice_is_answered_once_and_writes_nothing(standin, bot):
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, "court_wars")
    table = int(latest_table(standin, channel)["id"])
    first = await standin.click(bot, table, label="My view", user=users[1])
    assert first.ephemeral and first.callbacks
    again = await standin.interact(bot, first.payload, expect_answer=False)
    assert not again.callbacks and not again.requests  # not answered a second time
    assert not await bot.store.seen_interaction(first.id)  # never written to the store (written now)
    other = await standin.click(bot, table, label="My view", user=users[1])  # a new press is answered
    assert other.ephemeral and other.callbacks


async def test_a_join_delivered_twice_is_remembered_in_the_store(standin, bot):
    g, users = guild_with(standin, ("ana", "ben"))
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    join = await standin.click(bot, res.message_id, label="Join", user=users[1])
    assert join.callbacks
    again = await standin.interact(bot, join.payload, expect_answer=False)
    assert not again.callbacks and not again.requests
    assert await bot.store.seen_interaction(join.id)


def test_delivered_keeps_the_last_ids_only():
    seen = Delivered(size=3)
    assert [seen.first(i) for i in (1, 2, 3)] == [True] * 3
    assert not seen.first(2)
    assert seen.first(4)  # 1 is forgotten
    assert seen.first(1) and not seen.first(4)
