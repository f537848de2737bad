"""``/game pings`` through the Discord stand-in (Court Wars, two players): never → no turn ping,
though the table still shows whose turn it is; after N hours → no ping at once, then one short
ping from the sweep once the turn has waited N hours (the test's clock moved by hand), none if the
turn was played meanwhile; bad input is refused in a short message and nothing is kept."""

from __future__ import annotations

from bot.tables.games import load_game
from tests.discord_helpers import auto_move_for, guild_with, latest_table, make_move, public_posts, start_by_slash


async def play_until_turn_of(standin, bot, channel, users, seat: int) -> None:
    """Moves by the others until it is ``seat``'s turn (one of theirs played at least)."""
    for i in range(60):
        mover, move = await auto_move_for(bot, channel, i)
        if mover == seat and i:
            return
        await make_move(standin, bot, channel, mover, move, users)
    raise AssertionError("never their turn")


async def setup(standin, bot, clock):
    bot.service.clock = clock
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, "court_wars")
    first = min(load_game(await bot.service.get(channel)).to_act())
    return g, users, channel, 1 - first  # the one who waits first


def pings_of(standin, channel, user, since: int) -> list[dict]:
    return [m for m in public_posts(standin, channel)[since:] if int(user["id"]) in standin.pinged_user_ids(m)]


async def test_never_sends_no_ping_but_the_table_shows_the_turn(standin, bot, clock):
    g, users, channel, waiter = await setup(standin, bot, clock)
    res = await standin.slash(bot, "game pings", {"when": "never"}, user=users[waiter], guild=g)
    assert res.ephemeral and "never" in res.text
    shown = await standin.slash(bot, "game pings", user=users[waiter], guild=g)
    assert shown.ephemeral and shown.text.startswith("Your turn pings on this server: never")
    posted = len(public_posts(standin, channel))
    await play_until_turn_of(standin, bot, channel, users, waiter)
    assert pings_of(standin, channel, users[waiter], posted) == []
    assert users[waiter]["username"] in str(latest_table(standin, channel)["embeds"]).lower(), "the table says whose turn"
    clock.advance(30 * 24 * 3600)
    await bot.get_cog("Tables").check_timeouts()  # the turn limit's notices are not turn pings
    assert all("your turn at" not in m["content"] for m in pings_of(standin, channel, users[waiter], posted))
    # the other player (every turn, the default) is pinged as before
    posted = len(public_posts(standin, channel))
    await play_until_turn_of(standin, bot, channel, users, 1 - waiter)
    assert ["your turn at Court Wars" in m["content"] for m in pings_of(standin, channel, users[1 - waiter], posted)] \
        == [True]

async def test_after_hours_pings_once_the_turn_has_waited(standin, bot, clock):
    g, users, channel, waiter = await setup(standin, bot, clock)
    await standin.slash(bot, "game turnlimit", {"minutes": 0}, user=users[0], guild=g)  # no limit notices
    res = await standin.slash(bot, "game pings", {"when": "after", "hours": 3}, user=users[waiter], guild=g)
    assert res.ephemeral and "3 h" in res.text
    posted = len(public_posts(standin, channel))
    await play_until_turn_of(standin, bot, channel, users, waiter)
    assert pings_of(standin, channel, users[waiter], posted) == [], "not at once"
    cog = bot.get_cog("Tables")
    clock.advance(3 * 3600 - 60)
    assert await cog.check_timeouts() == 0
    assert pings_of(standin, channel, users[waiter], posted) == []
    clock.advance(60)
    assert await cog.check_timeouts() == 1
    pinged = pings_of(standin, channel, users[waiter], posted)
    assert len(pinged) == 1 and "your turn at Court Wars" in pinged[0]["content"]
    assert standin.pinged_user_ids(pinged[0]) == [int(users[waiter]["id"])]
    assert await cog.check_timeouts() == 0, "once"

    # The turn is played before its hours are up: no ping for it.
    await play_until_turn_of(standin, bot, channel, users, 1 - waiter)
    await play_until_turn_of(standin, bot, channel, users, waiter)
    posted = len(public_posts(standin, channel))
    clock.advance(3600)
    await play_until_turn_of(standin, bot, channel, users, 1 - waiter)
    clock.advance(3 * 3600)
    await cog.check_timeouts()
    assert pings_of(standin, channel, users[waiter], posted) == []


async def test_bad_pings_input_is_refused_and_nothing_kept(standin, bot):
    g, users = guild_with(standin, ("ana",))
    for options, says in (({"when": "after"}, "how many hours"), ({"when": "after", "hours": 0}, "1 to 168"),
                          ({"when": "after", "hours": 169}, "1 to 168"), ({"when": "never", "hours": 2}, "only with"),
                          ({"hours": 2}, "Say when")):
        res = await standin.slash(bot, "game pings", options, user=users[0], guild=g)
        assert res.ephemeral and says in res.text and len(res.text) < 120, (options, res.text)
    assert await bot.service.store.all_ping_prefs() == []
    shown = await standin.slash(bot, "game pings", user=users[0], guild=g)
    assert shown.text == "Your turn pings on this server: every turn."
