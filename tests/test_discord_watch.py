"""Watching a table from elsewhere (``/game watch``), through the stand-in: a message in another
channel (or privately) that follows the table as the public sees it, with a link to it and how many
watch; Stop watching (its watcher's only); the end shows the final table; a restart keeps the
watchers following; twenty watchers are edited after the table message, each at most once a second;
Discord refusing a watcher message drops it; a table in a DM is watched with a code its player gives."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import auto_move_for, guild_with, latest_table, shown_revision, start_by_slash
from bot.standin import logged_in
from tests.play_loop import seeded


def pace(bot, seconds: float = 0.0):
    """The watcher messages' pace (0: every edit at once, for tests that follow a whole game)."""
    cog = bot.get_cog("Watch")
    cog.pacer.pace = seconds
    return cog


async def move(standin, bot, g, users, channel: int, seed: int) -> None:
    seat, mv = await auto_move_for(bot, channel, seed)
    await standin.slash(bot, "game move", {"move": mv}, user=users[seat], guild=g)


def buttons(standin, mid: int) -> list[str]:
    return [label for _, label, _ in standin.buttons(mid)]


async def watched_table(standin, bot, names=("ana", "ben", "zed", "cat")):
    g, users = guild_with(standin, names)
    channel = await start_by_slash(standin, bot, g, users[:2], "court_wars")
    lounge = g.text_channel("lounge")
    await standin.gateway_dispatch("GUILD_CREATE", g.create_payload())  # the bot knows the server's channels
    return g, users, channel, lounge


async def test_watch_from_another_channel_follows_the_public_table(standin, bot):
    g, users, channel, lounge = await watched_table(standin, bot)
    cog = pace(bot)
    choices = await standin.autocomplete(bot, "game watch", {"table": ""}, focused="table", user=users[2], guild=g,
                                         channel=lounge)
    assert [c["value"] for c in choices] == [str(channel)]
    assert "Court Wars" in choices[0]["name"] and "Ana" in choices[0]["name"] and "#general" in choices[0]["name"]
    res = await standin.slash(bot, "game watch", {"table": str(channel)}, user=users[2], guild=g, channel=lounge)
    assert not res.ephemeral and int(res.message["channel_id"]) == int(lounge["id"])
    table = latest_table(standin, channel)
    assert f"/{channel}/{table['id']}" in res.content and "1 watching" in res.content
    assert buttons(standin, res.message_id) == ["Stop watching"], "a watcher never acts"
    assert res.allowed_mentions == {"parse": []}, "never pinged"
    for i in range(3):
        await move(standin, bot, g, users, channel, i)
    await cog.pacer.drained()
    watched = standin._message(res.message_id)
    assert watched["embeds"][0]["description"] == latest_table(standin, channel)["embeds"][0]["description"]
    assert len(standin.message_versions(res.message_id)) >= 2 and buttons(standin, res.message_id) == ["Stop watching"]
    assert all(v.payload.get("allowed_mentions") in (None, {"parse": []}) for v in standin.message_versions(res.message_id))
    # Bad input: a short refusal, nothing stored.
    bad = await standin.slash(bot, "game watch", {"table": "<@123> **nope**"}, user=users[3], guild=g, channel=lounge)
    assert bad.ephemeral and "not a table in play" in bad.content
    same = await standin.slash(bot, "game watch", {"table": str(channel)}, user=users[3], guild=g)
    assert same.ephemeral and "in this channel already" in same.content
    assert len(cog.watching.of((await bot.service.get(channel)).table_id)) == 1


async def test_the_count_of_watchers_and_stop_watching_for_its_watcher_only(standin, bot):
    g, users, channel, lounge = await watched_table(standin, bot)
    cog = pace(bot)
    first = await standin.slash(bot, "game watch", {"table": str(channel)}, user=users[2], guild=g, channel=lounge)
    second = await standin.slash(bot, "game watch", {"table": str(channel)}, user=users[3], guild=g, channel=lounge)
    await cog.pacer.drained()
    assert "2 watching" in standin._message(first.message_id)["content"]
    assert "2 watching" in standin._message(second.message_id)["content"]
    other = await standin.click(bot, first.message_id, label="Stop watching", user=users[3])
    assert other.ephemeral and "Only the one who started watching" in other.content
    assert buttons(standin, first.message_id) == ["Stop watching"], "nothing changed"
    stop = await standin.click(bot, first.message_id, label="Stop watching", user=users[2])
    assert stop.callback_type == 7 and not standin._message(first.message_id)["components"]
    await cog.pacer.drained()
    assert "1 watching" in standin._message(second.message_id)["content"]
    versions = len(standin.message_versions(first.message_id))
    await move(standin, bot, g, users, channel, 0)
    await cog.pacer.drained()
    assert len(standin.message_versions(first.message_id)) == versions, "a closed watcher message is not followed"
    assert len(standin.message_versions(second.message_id)) > 2


@pytest.mark.end_animation  # it reads the end message's animation
async def test_watching_ends_at_the_game_end_with_the_final_table(standin, bot):
    g, users, channel, lounge = await watched_table(standin, bot)
    cog = pace(bot)
    res = await standin.slash(bot, "game watch", {"table": str(channel), "private": True}, user=users[2], guild=g,
                              channel=lounge)
    assert res.ephemeral and "Watching in our DMs" in res.content
    dm = standin.dm_channel(users[2])
    (watched,) = standin.channel_messages(dm["id"])
    i = 0
    while (await bot.service.get(channel)).status == "playing":
        await move(standin, bot, g, users, channel, i)
        i += 1
    await cog.pacer.drained()
    final = standin._message(int(watched["id"]))
    assert final["content"].startswith("The game is over") and not final["components"]
    assert final["embeds"][0] == latest_table(standin, channel)["embeds"][0], "the final table"
    names = [a["filename"] for a in final["attachments"]]
    assert names[0] == "table.png" and len(names) == 2 and names[1].rsplit(".", 1)[-1] in ("gif", "webp"), names
    film = final["attachments"][1]
    assert film.get("description"), "the animation carries the game told in words"
    assert cog.watching.of((await bot.service.get(channel)).table_id) == []
    assert await bot.store.watchers() == []


async def test_a_restart_keeps_the_watchers_following(standin, make_bot):
    g, users = guild_with(standin, ("ana", "ben", "zed"))
    lounge = g.text_channel("lounge")
    async with logged_in(make_bot()) as b:
        channel = await start_by_slash(standin, b, g, users[:2], "court_wars")
        res = await standin.slash(b, "game watch", {"table": str(channel)}, user=users[2], guild=g, channel=lounge)
        await pace(b).pacer.drained()
    async with logged_in(make_bot()) as b:  # the restart
        cog = pace(b)
        await cog.catching_up
        before = len(standin.message_versions(res.message_id))
        await move(standin, b, g, users, channel, 0)
        await cog.pacer.drained()
        assert len(standin.message_versions(res.message_id)) == before + 1
        revision = (await b.service.get(channel)).revision
        assert shown_revision(standin, int(latest_table(standin, channel)["id"])) == revision
        assert standin._message(res.message_id)["embeds"][0] == latest_table(standin, channel)["embeds"][0]
        await cog.save_marks()
        assert [w.shows for w in await b.store.watchers()] == [revision]


async def test_twenty_watchers_after_the_table_and_at_most_one_edit_a_second_each(standin, bot):
    g, users = guild_with(standin, ["ana", "ben"] + [f"w{i}" for i in range(20)])
    channel = await start_by_slash(standin, bot, g, users[:2], "court_wars")
    lounge = g.text_channel("lounge")
    cog = pace(bot, 1.0)
    watchers = []
    for u in users[2:]:
        res = await standin.slash(bot, "game watch", {"table": str(channel)}, user=u, guild=g, channel=lounge)
        watchers.append(res.message_id)
    await cog.pacer.drained()
    table = int(latest_table(standin, channel)["id"])
    mark = len(standin.requests)
    for i in range(3):  # three moves within a second: each watcher message edited once or twice, not three times
        await move(standin, bot, g, users, channel, i)
    await cog.pacer.drained()
    after = standin.requests[mark:]
    edits = [(k, r) for k, r in enumerate(after) if r.method == "PATCH"]
    table_edits = [k for k, r in edits if r.path.endswith(f"/messages/{table}")]
    watcher_edits = [k for k, r in edits if int(r.path.rpartition("/")[2]) in watchers]
    assert table_edits and watcher_edits and table_edits[0] < watcher_edits[0], "the table message is edited first"
    revision = (await bot.service.get(channel)).revision
    for mid in watchers:
        mine = [r for r in standin.requests if r.method == "PATCH" and r.path.endswith(f"/messages/{mid}")]
        gaps = [b.arrived - a.arrived for a, b in zip(mine, mine[1:], strict=False)]
        assert all(gap >= 1.0 for gap in gaps), f"watcher message {mid}: edits {gaps} apart"
        moved = [r for r in after if r.method == "PATCH" and r.path.endswith(f"/messages/{mid}")]
        assert 1 <= len(moved) <= 2, "moves that land within a second make one edit (the latest state)"
        assert standin._message(mid)["embeds"][0] == latest_table(standin, channel)["embeds"][0]
    assert all(w.shows == revision for w in cog.watching.of((await bot.service.get(channel)).table_id))


async def test_a_watcher_channel_that_refuses_the_bot_drops_its_watcher(standin, bot, caplog):
    g, users, channel, lounge = await watched_table(standin, bot)
    cog = pace(bot)
    res = await standin.slash(bot, "game watch", {"table": str(channel)}, user=users[2], guild=g, channel=lounge)
    key = (await bot.service.get(channel)).table_id
    standin.private_channels.add(int(lounge["id"]))  # the bot lost access: 403 Missing Access
    with caplog.at_level(logging.INFO, logger="cogs.watch"):
        await move(standin, bot, g, users, channel, 0)
        await cog.pacer.drained()
    assert cog.watching.of(key) == [] and await bot.store.watchers() == []
    said = [r for r in caplog.records if r.name == "cogs.watch"]
    assert len(said) == 1 and said[0].levelno == logging.INFO and str(res.message_id) in said[0].getMessage()
    await move(standin, bot, g, users, channel, 1)  # the table goes on
    assert shown_revision(standin, int(latest_table(standin, channel)["id"])) == (await bot.service.get(channel)).revision


async def test_a_table_in_a_dm_is_watched_with_the_code_its_player_gives(standin, bot):
    g, users = guild_with(standin, ("ana", "zed"))
    ana, zed = users
    cog = pace(bot)
    new = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=ana)  # in ana's DM with the bot
    dm = int(standin.dm_channel(ana)["id"])
    table = int(latest_table(standin, dm)["id"])
    hidden = await standin.autocomplete(bot, "game watch", {"table": ""}, focused="table", user=zed, guild=g)
    assert [c["value"] for c in hidden] == ["∅"] and "No table is in play" in hidden[0]["name"], \
        "a table in a DM is listed for no one"
    invite = await standin.click(bot, table, label="Invite a watcher", user=ana)
    assert invite.ephemeral and "/game watch table:" in invite.content
    code = invite.content.split("table:")[1].split("`")[0]
    res = await standin.slash(bot, "game watch", {"table": code.upper()}, user=zed, guild=g)
    assert not res.ephemeral and buttons(standin, res.message_id) == ["Stop watching"]
    assert f"/@me/{dm}/{table}" in res.content
    seat, mv = await auto_move_for(bot, dm, 0)
    await standin.slash(bot, "game move", {"move": mv}, user=ana)
    await cog.pacer.drained()
    assert standin._message(res.message_id)["embeds"][0] == latest_table(standin, dm)["embeds"][0]
    assert new.message_id == table


@pytest.mark.end_animation  # it reads the end message's animation
async def test_gridcannon_watched_from_another_channel_follows_every_move_and_ends_with_its_animation(standin, bot):
    g, users = guild_with(standin, ("ana", "zed"))
    ana, zed = users
    lounge = g.text_channel("lounge")
    await standin.gateway_dispatch("GUILD_CREATE", g.create_payload())
    cog = pace(bot)
    with seeded(4):  # a deal the built-in player finishes
        await standin.slash(bot, "game new", {"game": "gridcannon"}, user=ana, guild=g)  # a solo game starts at once
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game watch", {"table": str(channel)}, user=zed, guild=g, channel=lounge)
    assert not res.ephemeral and "1 watching" in res.content
    moves = 0
    while (await bot.service.get(channel)).status == "playing":
        assert moves < 400, "the game never ended"
        await move(standin, bot, g, users, channel, moves)
        moves += 1
        await cog.pacer.drained()
        watched, table = standin._message(res.message_id), latest_table(standin, channel)
        if (await bot.service.get(channel)).status == "playing":  # the watcher message shows this very move
            assert watched["embeds"][0] == table["embeds"][0], f"move {moves}"
    assert moves > 10 and len(standin.message_versions(res.message_id)) >= moves
    final = standin._message(res.message_id)
    assert final["content"].startswith("The game is over") and not final["components"]
    names = [a["filename"] for a in final["attachments"]]
    assert len(names) == 2 and names[1].rsplit(".", 1)[-1] in ("gif", "webp"), names
