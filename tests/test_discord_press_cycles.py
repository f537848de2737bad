"""A handled interaction leaves no reference cycle behind: once every answer is sent and every
task it started is done, discord.py's ``Interaction`` (with its message, member, channel…) and the
views sent in answer are freed by reference counting at once, not left for a full garbage
collection."""

from __future__ import annotations

import gc

import discord

from tests.discord_helpers import auto_move_for, auto_moves, guild_with, no_pictures, played, press_move, start_by_slash


def alive() -> list[discord.Interaction]:
    return [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]


def views_sent_and_not_kept() -> list[discord.ui.View]:
    """Views discord.py does not keep (every press on them answered by the bot's dynamic items)."""
    from bot.app import answered_by_dynamic_items

    return [o for o in gc.get_objects() if type(o) is discord.ui.View and answered_by_dynamic_items(o)]


async def test_presses_and_slash_commands_are_freed_without_the_collector(standin, bot, monkeypatch):
    no_pictures(monkeypatch)
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")
    await standin.settle(bot)
    gc.collect()
    assert alive() == [] and views_sent_and_not_kept() == []
    gc.disable()
    try:
        answered = 0
        async for _, _, seat, move in auto_moves(bot, channel, 6):  # table buttons, the private panel's steps
            res = await press_move(standin, bot, channel, move, users[seat])
            answered += res is not None and bool(res.callbacks)
            await standin.settle(bot)
            assert alive() == [], "a press's Interaction outlived it (a reference cycle)"
            assert views_sent_and_not_kept() == [], "a view sent outlived its message (a reference cycle)"
        for seed in range(3):  # /game move, as the bench's burst presses it
            seat, move = await auto_move_for(bot, channel, seed)
            res = await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g,
                                      channel=standin._where(channel)[1])
            assert res.callbacks and played(res)
            await standin.settle(bot)
            assert alive() == [], "a slash command's Interaction outlived it (a reference cycle)"
            assert views_sent_and_not_kept() == []
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
    pressed = await standin.click(bot, res.message_id, label="Concede", user=users[0])  # a press, kept too
    assert pressed.callbacks and len(kept) == 2
    for interaction in kept:
        assert interaction.response.is_done()
        await interaction.followup.send("late", ephemeral=True)  # the followup still works


async def test_text_boxes_submitted_are_freed_without_the_collector(standin, bot):
    """A text box's submit is answered by the ``interaction`` listener: freed the same way."""
    from tests.discord_helpers import moves_with_text_boxes
    from tests.test_discord_krpd import started_four

    g, users, channel = await started_four(standin, bot)
    await standin.settle(bot)
    gc.collect()
    gc.disable()
    try:
        async for move in moves_with_text_boxes(standin, bot, channel, users, 3):
            assert alive() == [], f"an Interaction outlived {move!r} (a reference cycle)"
    finally:
        gc.enable()
