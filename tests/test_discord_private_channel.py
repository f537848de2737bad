"""A game in a DM between two people (the app installed to a user), through the stand-in, which
answers 403 Missing Access on the channel's routes as Discord does: the table message is edited
through the webhook of the interaction that posted or last answered it, never through the channel;
when that token has expired the table is posted once more, and a press on the older copy turns it
into a link without buttons."""

from __future__ import annotations

from tests.discord_helpers import auto_move_for, shown_revision


def channel_requests(standin, ch: dict) -> list:
    return [r for r in standin.requests if r.path.startswith(f"/channels/{ch['id']}")]


def table_copies(standin, ch: dict) -> list[dict]:
    """The table messages in the channel (public messages with an embed and the table's buttons; a
    turn ping has a button but no embed)."""
    return [m for m in standin.channel_messages(ch["id"], include_ephemeral=False)
            if m.get("embeds") and any((c or "").startswith("dh2:") for c, _, _ in standin.buttons(int(m["id"])))]


async def test_a_game_in_a_private_channel_edits_its_table_through_interactions(standin, bot):
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    ch = standin.private_channel(ana, ben)
    users = [ana, ben]
    lobby = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, channel=ch)
    table = lobby.message_id
    assert lobby.payload["context"] == 2 and not lobby.ephemeral
    await standin.click(bot, table, label="Join", user=ben)
    await standin.click(bot, table, label="Start", user=ana)
    channel = int(ch["id"])
    for i in range(6):  # moves typed as commands: not answered on the table message itself
        seat, move = await auto_move_for(bot, channel, i)
        res = await standin.slash(bot, "game move", {"move": move}, user=users[seat], channel=ch)
        assert res.callbacks and not [why for _, why in standin.rejected]
        assert shown_revision(standin, table) == (await bot.service.get(channel)).revision, "edited in place"
    assert channel_requests(standin, ch) == [], "no request wasted on the channel the bot is not in"
    assert [int(m["id"]) for m in table_copies(standin, ch)] == [table], "one table message"
    edits = [v.how for v in standin.message_versions(table)]
    assert edits.count("webhook-edit") >= 6

    bot.get_cog("Tables").place.handles[channel].until = 0  # its interaction's token has expired
    seat, move = await auto_move_for(bot, channel, 10)
    await standin.slash(bot, "game move", {"move": move}, user=users[seat], channel=ch)
    copies = table_copies(standin, ch)
    assert len(copies) == 2, "posted once more"
    newer = int(copies[-1]["id"])
    assert shown_revision(standin, newer) == (await bot.service.get(channel)).revision
    seat, move = await auto_move_for(bot, channel, 11)
    await standin.slash(bot, "game move", {"move": move}, user=users[seat], channel=ch)
    assert len(table_copies(standin, ch)) == 2, "the new copy is edited: no third"
    assert shown_revision(standin, newer) == (await bot.service.get(channel)).revision
    old_button = next(c for c, _, _ in standin.buttons(table) if (c or "").startswith("dh2:"))
    res = await standin.click(bot, table, old_button, user=ana)
    assert res.callback_type == 7 and not [c for c, _, _ in standin.buttons(table) if (c or "").startswith("dh2:")]
    assert str(newer) in (standin._message(table).get("content") or ""), "it links to the table"
    assert channel_requests(standin, ch) == []
