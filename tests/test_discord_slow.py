"""When the work takes longer than Discord allows for a first answer, the bot defers and then
still says what happened (instead of "This interaction failed" over a saved move)."""

from __future__ import annotations

import asyncio

from tests.discord_helpers import auto_move_for, shown_revision


async def test_a_slow_move_is_deferred_then_shown(standin, bot, monkeypatch):
    import bot.ui.play as table_cog

    monkeypatch.setattr(table_cog, "DEFER_AFTER", 0.0)
    original = bot.service.move

    async def slow_move(*args, **kwargs):
        await asyncio.sleep(0.05)  # a busy disk or a locked database
        return await original(*args, **kwargs)

    monkeypatch.setattr(bot.service, "move", slow_move)
    alice = standin.user(name="alice")
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    channel = int(res.message["channel_id"])
    table_id = res.message_id
    before = await bot.service.get(channel)
    _, move = await auto_move_for(bot, channel, 1)
    res = await standin.slash(bot, "game move", {"move": move}, user=alice)
    assert res.callback_type == 5, "deferred (thinking) first"
    assert res.ephemeral and res.text.startswith("Done"), "then the mover is told, privately"
    assert (await bot.service.get(channel)).revision == before.revision + 1
    # The table message itself shows the move; nothing else was posted.
    assert [int(m["id"]) for m in standin.channel_messages(channel, include_ephemeral=False)] == [table_id]
    assert shown_revision(standin, table_id) == before.revision + 1
