"""A handled interaction leaves no reference cycle behind: once every answer is sent and every
task it started is done, discord.py's ``Interaction`` (with its message, member, channel…) is freed
by reference counting at once, not left for a full garbage collection."""

from __future__ import annotations

import gc

import discord

from tests.discord_helpers import auto_moves, guild_with, press_move, start_by_slash


def alive() -> list[discord.Interaction]:
    return [o for o in gc.get_objects() if type(o) is discord.Interaction]


async def test_presses_and_slash_commands_are_freed_without_the_collector(standin, bot, monkeypatch):
    from bot.render import pictures

    async def no_picture(game_id, view):
        return None

    monkeypatch.setattr(pictures, "table_picture", no_picture)
    monkeypatch.setattr(pictures, "seat_picture", no_picture)
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")
    await standin.settle(bot)
    gc.collect()
    assert alive() == []
    gc.disable()
    try:
        answered = 0
        async for _, _, seat, move in auto_moves(bot, channel, 6):  # table buttons, the private panel's steps
            res = await press_move(standin, bot, channel, move, users[seat])
            answered += res is not None and bool(res.callbacks)
            await standin.settle(bot)
            assert alive() == [], "a press's Interaction outlived it (a reference cycle)"
        res = await standin.slash(bot, "game status", {}, user=users[0], guild=g,
                                  channel=standin._where(channel)[1])
        assert res.callbacks
        await standin.settle(bot)
        assert alive() == [], "a slash command's Interaction outlived it (a reference cycle)"
        assert answered >= 3
    finally:
        gc.enable()


async def test_an_interaction_still_held_keeps_its_response(standin, bot):
    """Held elsewhere (here a listener that keeps it), an interaction keeps its response: a late
    answer still knows the first one was sent."""
    g, users = guild_with(standin, ["ana"])
    kept: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        kept.append(interaction)

    bot.add_listener(on_interaction)
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
    assert res.callbacks and len(kept) == 1
    assert kept[0].response.is_done()
    await kept[0].followup.send("late", ephemeral=True)  # the followup still works
