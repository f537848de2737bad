"""A table in a new thread; the first player of a rematch follows the rulebook's series rule."""

from __future__ import annotations

from bot.tables.games import load_game
from tests.discord_helpers import latest_table


async def test_new_table_in_a_thread(standin, bot):
    g = standin.guild()
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    g.add_member(ana)
    g.add_member(ben)
    res = await standin.slash(bot, "game new", {"game": "court_wars", "thread": True}, user=ana, guild=g)
    assert res.ephemeral and "<#" in res.text
    thread_id = int(res.text.split("<#")[1].split(">")[0])
    lobby = latest_table(standin, thread_id)
    joined = await standin.click(bot, int(lobby["id"]), label="Join", user=ben)
    assert joined.callback_type == 7
    table = await bot.service.get(thread_id)
    assert table is not None and [s.user_id for s in table.seats] == [int(ana["id"]), int(ben["id"])]
    assert await bot.service.get(int(g.channel["id"])) is None, "the thread is its own channel"
    assert await bot.service.store.message_id(thread_id) == int(lobby["id"])  # the thread's table message
    started = await standin.slash(bot, "game start", user=ana, guild=g, channel=standin.channels[thread_id])
    assert started.ephemeral and latest_table(standin, thread_id)["id"] == lobby["id"]  # edited in place


async def test_thread_refused_in_a_dm(standin, bot):
    ana = standin.user(name="ana")
    res = await standin.slash(bot, "game new", {"game": "gridcannon", "thread": True}, user=ana)
    assert res.ephemeral and "server" in res.text


async def test_rematch_two_players_the_loser_starts(standin, bot):
    g = standin.guild()
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    g.add_member(ana)
    g.add_member(ben)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    await standin.click(bot, res.message_id, label="Join", user=ben)
    await standin.click(bot, res.message_id, label="Start", user=ana)
    table = await bot.service.get(channel)
    seat = min(load_game(table).to_act())
    users = [ana, ben]
    sure = await standin.slash(bot, "court-wars resign", user=users[seat], guild=g)
    assert sure.ephemeral and "Are you sure" in sure.text
    await standin.click(bot, sure.message_id, label="Confirm", user=users[seat])
    table = await bot.service.get(channel)
    assert table.status == "finished"
    loser = seat
    final = latest_table(standin, channel)
    await standin.click(bot, int(final["id"]), label="Rematch", user=ana)
    again = load_game(await bot.service.get(channel))
    assert again.opts.first == loser
    assert again.view(None).first == loser


async def test_rematch_three_players_first_seat_moves_on(service, people):
    await service.new_table(7, 1, people[0], "court_wars")
    for p in people[1:3]:
        await service.join(7, p)
    await service.start(7, people[0])
    first = load_game(await service.get(7)).view(None).first
    await service.abandon(7, people[0])
    await service.rematch(7, people[1])
    again = load_game(await service.get(7))
    assert again.view(None).first == (first + 1) % 3
