"""The public table catches up with the store after a fault, through the stand-in: the bot dies
between a move's commit and the table message's edit (here: the edit never happens and the bot is
closed), and the table message shows the current state after the next press on it and after the
restart; what the table messages show is written to the store in batches, off the press's road."""

from __future__ import annotations

from tests.discord_helpers import auto_move_for, guild_with, latest_table, shown_revision, start_by_slash
from bot.standin import logged_in


def _draw_button(standin, message_id: int) -> str:
    return next(c for c, _, _ in standin.buttons(message_id) if (c or "").startswith("dh2:") and c.endswith(":s:draw"))


async def _move_without_its_edit(standin, b, g, users, channel, monkeypatch) -> int:
    """One move committed whose table message is never edited (the process dies in between)."""
    seat, move = await auto_move_for(b, channel, 0)
    place = b.get_cog("Tables").place

    async def dies(*_a, **_k):
        raise RuntimeError("the process died here")

    with monkeypatch.context() as m:
        m.setattr(place, "show", dies)
        m.setattr(place, "show_table", dies)
        await standin.slash(b, "game move", {"move": move}, user=users[seat], guild=g, allow_errors=True,
                            expect_answer=False)
    return seat


async def test_a_stale_press_on_a_table_message_left_behind_brings_it_up_to_date(standin, bot, monkeypatch):
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, "court_wars")
    table = int(latest_table(standin, channel)["id"])
    draw = _draw_button(standin, table)
    seat = await _move_without_its_edit(standin, bot, g, users, channel, monkeypatch)
    row = await bot.service.get(channel)
    assert shown_revision(standin, table) < row.revision, "left behind"
    res = await standin.click(bot, table, draw, user=users[seat])  # the button of the state shown
    assert res.callbacks and res.callback_type == 7, "the table message itself is edited first"
    assert shown_revision(standin, table) == row.revision
    assert any("moved on" in (f.get("content") or "") for f in res.followups), res.followups
    assert (await bot.service.get(channel)).revision == row.revision, "nothing changed"


async def test_a_table_left_behind_by_a_crash_is_edited_when_the_bot_starts_again(standin, make_bot, monkeypatch):
    g, users = guild_with(standin, ("ana", "ben"))
    async with logged_in(make_bot()) as b:
        channel = await start_by_slash(standin, b, g, users, "court_wars")
        table = int(latest_table(standin, channel)["id"])
        await _move_without_its_edit(standin, b, g, users, channel, monkeypatch)
        revision = (await b.service.get(channel)).revision
        assert shown_revision(standin, table) < revision
        assert await b.desk.behind() == [channel]
    async with logged_in(make_bot()) as b:  # the restart
        await b.get_cog("Tables").catching_up
        assert shown_revision(standin, table) == revision, "caught up at start-up"
        await b.get_cog("Tables").place.save_marks()
        assert await b.desk.behind() == []
    async with logged_in(make_bot()) as b:  # and once caught up, not edited again
        edits = len(standin.requests)
        await b.get_cog("Tables").catching_up
        assert not [r for r in standin.requests[edits:] if r.method == "PATCH"]


async def test_what_the_messages_show_is_written_in_batches_after_the_edits(standin, bot):
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, "court_wars")
    place = bot.get_cog("Tables").place
    seat, move = await auto_move_for(bot, channel, 0)
    await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
    row = await bot.service.get(channel)
    assert place.unsaved.get(channel) == (row.table_id, row.revision)
    assert await bot.desk.behind() == [channel], "not yet written: the press made one trip to the store"
    await place.save_marks()
    assert not place.unsaved and await bot.desk.behind() == []
