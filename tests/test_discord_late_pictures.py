"""An answer never waits long for its table's picture (``DECKHAND_PICTURE_WAIT``): here it waits not
at all, so every move's answer keeps the picture the table message carries, and the new picture
follows in an edit of that message — of the state the table shows, never an older one. A message's
embed never points at a picture it does not carry."""

from __future__ import annotations

import asyncio

from bot.render.pictures import draw_table
from bot.standin import logged_in
from tests.discord_helpers import auto_moves, guild_with, latest_table, make_move


async def drawn(bot, timeout: float = 60.0) -> None:
    """Until no picture is being drawn to follow an answer."""
    place = bot.get_cog("Tables").place
    for _ in range(int(timeout / 0.02)):
        if not place.drawing:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"pictures still being drawn: {place.drawing}")


def picture_of(version) -> bytes | None:
    embeds = version.payload.get("embeds") or []
    image = ((embeds[0] if embeds else {}).get("image") or {}).get("url") or ""
    names = [a.get("filename") for a in version.payload.get("attachments") or []]
    if not image:
        return None
    assert image == "attachment://table.png" and "table.png" in names, (image, names)  # it carries what it shows
    return version.files[names.index("table.png")].data


async def test_each_answer_keeps_the_picture_and_the_new_one_follows_for_the_state_shown(standin, make_bot):
    bot_ = make_bot()
    bot_.picture_wait = 0.0  # no answer waits: each picture follows its answer
    async with logged_in(bot_) as bot:
        g, users = guild_with(standin, ["ana"])
        await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
        ch = int(g.channel["id"])
        await drawn(bot)
        table_id = int(latest_table(standin, ch)["id"])
        assert picture_of(standin.message_versions(table_id)[-1]) is not None
        followed = 0
        async for _i, _, seat, move in auto_moves(bot, ch, 6):
            before = len(standin.message_versions(table_id))
            await make_move(standin, bot, ch, seat, move, users)
            answer = standin.message_versions(table_id)[before]
            assert not answer.files or picture_of(answer) == picture_of(standin.message_versions(table_id)[before - 1])
            await drawn(bot)
            versions = standin.message_versions(table_id)[before:]
            public = await bot.desk.public(ch)
            if public.table.status == "playing":
                assert picture_of(versions[-1]) == draw_table("gridcannon", public.view)  # the state shown, drawn
                followed += len(versions) > 1
        assert followed >= 3  # the pictures came in edits of their own
        for v in standin.message_versions(table_id):
            picture_of(v)
