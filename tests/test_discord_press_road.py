"""The road of a press through the bot: a Deckhand component goes straight to its handler (the
clicked message's whole View is not rebuilt), and a move made on a private panel edits the table
message before the panel shows its next step."""

from __future__ import annotations

import discord

from tests.discord_helpers import auto_moves, guild_with, latest_table, played, press_move, start_by_slash


async def test_presses_skip_the_view_and_a_panel_move_edits_the_table_first(standin, bot, monkeypatch):
    from bot.render import pictures

    async def no_picture(game_id, view):
        return None

    # Without pictures (each drawn in another process: the table's and the panel's would race).
    monkeypatch.setattr(pictures, "table_picture", no_picture)
    monkeypatch.setattr(pictures, "seat_picture", no_picture)
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
    answer = discord.InteractionResponse.edit_message

    async def panel_answer(self, **kw):
        sent.append("panel")
        return await answer(self, **kw)

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", panel_answer)
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
