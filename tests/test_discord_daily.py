"""The daily Gridcannon challenge through the Discord stand-in: ``/game daily`` deals the same
deck to two users in their own DMs, a second attempt is refused, and the leaderboard ranks the
finished attempts."""

from __future__ import annotations

from bot.tables.games import load_game
from tests.discord_helpers import auto_moves, latest_table, press_move


def public_deal(table) -> dict:
    view = load_game(table).view(None)
    return {k: v for k, v in vars(view).items() if k not in ("players", "log")}


async def test_two_users_get_the_same_deal_one_attempt_and_a_leaderboard(standin, bot, clock):
    bot.service.clock = clock
    g = standin.guild()
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    for u in (ana, ben):
        g.add_member(u)
    # Ana asks in a server channel: the deal goes to her DMs; Ben asks in his DM with the bot.
    res_a = await standin.slash(bot, "game daily", user=ana, guild=g)
    assert res_a.ephemeral and "DMs" in res_a.text
    dm_a = int(standin.dm_channel(ana)["id"])
    table_a = latest_table(standin, dm_a)
    assert "Daily challenge" in (table_a.get("content") or "")
    assert not [m for m in standin.channel_messages(int(g.channel["id"]), include_ephemeral=False)
                if m.get("embeds")], "nothing of the deal is posted in the server channel"
    clock.advance(1)
    res_b = await standin.slash(bot, "game daily", user=ben)
    assert not res_b.ephemeral and "Gridcannon" in res_b.embed["title"]
    dm_b = int(standin.dm_channel(ben)["id"])
    assert int(res_b.message["channel_id"]) == dm_b

    ta, tb = await bot.service.get(dm_a), await bot.service.get(dm_b)
    assert ta.seed == tb.seed and ta.table_id != tb.table_id
    assert public_deal(ta) == public_deal(tb), "the same deal for everyone today"
    assert table_a["embeds"][0]["description"] == res_b.embed["description"]

    again = await standin.slash(bot, "game daily", user=ana, guild=g)
    assert again.ephemeral and "already" in again.text
    hint = await standin.slash(bot, "game hint", user=ben)
    assert hint.ephemeral and "without hints" in hint.text

    # Ana plays hers to the end with buttons, a second per move; Ben takes longer, then gives up.
    async for _, _, _, move in auto_moves(bot, dm_a, 600):
        clock.advance(1)
        res = await press_move(standin, bot, dm_a, move, ana)
        assert not (res.ephemeral and "moved on" in res.text), res.text
    assert (await bot.service.get(dm_a)).status == "finished"
    spoiler = await standin.slash(bot, "game export", user=ana, channel=standin.dm_channel(ana))
    assert spoiler.ephemeral and "secret until the day ends" in spoiler.text and not spoiler.files
    clock.advance(5000)
    gave_up = await standin.slash(bot, "game abandon", user=ben)
    assert gave_up.ephemeral and "abandoned" in gave_up.text  # the table message and the ending say so
    after = await standin.slash(bot, "game daily", user=ben)
    assert after.ephemeral and "one attempt a day" in after.text and "Yours: lost" in after.text
    assert after.embed["title"].startswith("Daily Gridcannon"), "with the day's leaderboard"

    board = await standin.slash(bot, "game daily", {"leaderboard": True}, user=ben)
    assert board.ephemeral and "Daily Gridcannon" in board.embed["title"]
    lines = board.embed["fields"][0]["value"].splitlines()
    assert lines[0].lower().startswith("1. **ana**") and lines[1].lower().startswith("2. **ben** — lost")
    outcome = load_game(await bot.service.get(dm_a)).outcome()
    assert ("won, score" in lines[0]) == bool(outcome.winners)
