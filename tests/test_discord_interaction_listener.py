"""The text boxes' ``interaction`` listener (cogs.tables) is marked for text boxes
(bot.ui.presses.listens_to): the bot starts its task for a text box's submit only, not for every
press and slash command as discord.py would (each such task only returned). A listener without
the mark still gets every interaction."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.ui.presses import listens, listens_to
from tests.discord_helpers import moves_with_text_boxes, no_pictures


def test_a_marked_listener_listens_to_its_kinds_only():
    @listens_to(discord.InteractionType.modal_submit)
    async def boxes(interaction) -> None: ...

    async def everything(interaction) -> None: ...

    class Seen:
        def __init__(self, kind):
            self.type = kind

    assert listens(boxes, Seen(discord.InteractionType.modal_submit))
    for kind in (discord.InteractionType.component, discord.InteractionType.application_command,
                 discord.InteractionType.autocomplete):
        assert not listens(boxes, Seen(kind))
        assert listens(everything, Seen(kind))
    assert listens(everything, object())


async def test_the_text_box_listener_starts_for_text_boxes_only(standin, bot, monkeypatch):
    from tests.test_discord_krpd import started_four

    no_pictures(monkeypatch)
    started: list[tuple[str, str, int]] = []
    schedule = commands.Bot._schedule_event

    def noted(self, coro, event_name, /, *args, **kwargs):
        task = schedule(self, coro, event_name, *args, **kwargs)
        if event_name == "on_interaction":
            owner = type(getattr(coro, "__self__", None)).__name__
            started.append((owner, coro.__name__, args[0].type.value))
        return task

    monkeypatch.setattr(commands.Bot, "_schedule_event", noted)
    every: list[int] = []

    async def on_interaction(interaction: discord.Interaction) -> None:  # unmarked: every interaction
        every.append(interaction.type.value)

    bot.add_listener(on_interaction)
    g, users, channel = await started_four(standin, bot)
    await standin.settle(bot)
    async for _ in moves_with_text_boxes(standin, bot, channel, users, 2):
        pass
    ours = [kind for owner, name, kind in started if owner == "Tables"]
    assert ours and set(ours) == {5}, "the text boxes' listener was started for another interaction"
    assert sorted(ours) == sorted(k for k in every if k == 5)  # one task for each text box submitted
    assert {2, 3, 5} <= set(every), "an unmarked listener missed an interaction"
    assert len(every) == sum(1 for owner, _, _ in started if owner != "Tables")
