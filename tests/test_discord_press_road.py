"""The road of a press through the bot: a Deckhand component goes straight to its handler (the
clicked message's whole View is not rebuilt), and a move made on a private panel edits the table
message before the panel shows its next step."""

from __future__ import annotations

import discord
import pytest

from tests.discord_helpers import auto_moves, guild_with, latest_table, no_pictures, played, press_move, start_by_slash


async def test_presses_skip_the_view_and_a_panel_move_edits_the_table_first(standin, bot, monkeypatch):
    no_pictures(monkeypatch)
    built: list[int] = []
    from_message = discord.ui.View.from_message.__func__  # type: ignore[attr-defined]

    def counted(cls, message, /, *, timeout=180.0):
        built.append(message.id)
        return from_message(cls, message, timeout=timeout)

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(counted))
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")
    table_id = int(latest_table(standin, channel)["id"])
    sent: list[str] = []  # what the bot began to send, in order
    edit_message = bot.http.edit_message

    def table_edit(channel_id, message_id, **kw):
        sent.append("table" if int(message_id) == table_id else "other edit")
        return edit_message(channel_id, message_id, **kw)

    monkeypatch.setattr(bot.http, "edit_message", table_edit)
    from discord.webhook.async_ import AsyncWebhookAdapter

    answer = AsyncWebhookAdapter.create_interaction_response

    def panel_answer(self, *args, **kw):  # every interaction's first answer goes through it
        sent.append("panel")
        return answer(self, *args, **kw)

    monkeypatch.setattr(AsyncWebhookAdapter, "create_interaction_response", panel_answer)
    panel_moves = 0
    async for _, _, seat, move in auto_moves(bot, channel, 40):
        del sent[:]
        res = await press_move(standin, bot, channel, move, users[seat])
        if res is None or not (res.ephemeral and played(res)):
            continue
        assert res.callback_type == 7 and res.message_id != table_id  # the panel itself, updated in place
        assert "Done" in res.text
        if "table" in sent:
            panel_moves += 1
            assert sent[-2:] == ["table", "panel"], sent  # the table message first, then the panel's next step
    assert panel_moves >= 3
    assert built == [], "a Deckhand press rebuilt the clicked message's View"


async def test_the_bots_first_answers_are_discord_pys_own_requests(standin, bot):
    """bot.ui.answers posts the very callback discord.py's InteractionResponse posts (the same
    body), marks the response done, and raises on an HTTP error as discord.py does."""
    from bot.ui import answers
    from bot.ui.payloads import NO_PINGS

    g, users = guild_with(standin, ["ana"])
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
    table = standin._message(res.message_id)
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    bot.add_listener(on_interaction)
    for _ in range(4):  # presses nobody answers: a custom_id that is not the bot's
        payload = standin._component_payload(table, {"custom_id": "elsewhere:1", "component_type": 2}, users[0])
        await standin.interact(bot, payload, expect_answer=False)
    assert len(seen) == 4

    def last_callback() -> dict:
        return next(r.json for r in reversed(standin.requests) if r.path.endswith("/callback"))

    embed = discord.Embed(title="A table", description="x")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="dh2:t:1:s:go"))
    mine = await answers.send(seen[0], "hello", embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS)
    body = last_callback()
    theirs = await seen[1].response.send_message("hello", embed=embed, view=view, ephemeral=True,
                                                 allowed_mentions=NO_PINGS)
    assert last_callback() == body and seen[0].response.is_done()
    assert mine is not None and mine != theirs.message_id and standin._message(mine)["content"] == "hello"
    await answers.edit_in_place(seen[2], content="edited", embed=None, view=view, attachments=[])
    body = last_callback()
    await seen[3].response.edit_message(content="edited", embed=None, view=view, attachments=[])
    assert last_callback() == body and seen[2].response.is_done()
    seen[2].response._response_type = None  # answer it again: Discord refuses, and that raises
    with pytest.raises(discord.HTTPException):
        await answers.edit_in_place(seen[2], content="again")
    assert [why for _, why in standin.rejected] == ["Interaction has already been acknowledged."]
    standin.rejected.clear()  # refused on purpose
    with pytest.raises(discord.InteractionResponded):
        await answers.send(seen[0], "again")


async def test_a_press_no_item_of_the_bot_matches_is_left_alone_as_before(standin, bot):
    """A Deckhand-looking custom_id of no kind the bot knows, or one the clicked message does not
    hold, is answered by nobody (as discord.py's own dispatch leaves it); no error is logged."""
    g, users = guild_with(standin, ["ana"])
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
    table = standin._message(res.message_id)
    held = standin.buttons(res.message_id)[0][0]
    assert held.startswith("dh2:")
    for custom_id in ("dh2:zz:1:nokind:x", held.rsplit(":", 1)[0] + ":not-on-the-message"):
        payload = standin._component_payload(table, {"custom_id": custom_id, "component_type": 2}, users[0])
        got = await standin.interact(bot, payload, expect_answer=False)
        assert not got.callbacks and not got.requests
    sat = await standin.click(bot, res.message_id, held, user=users[0])  # the held one is answered
    assert sat.callbacks
