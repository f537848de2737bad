"""The bot's dispatch of events (bot.app.DeckhandBot.dispatch): an event nothing waits for and no
``on_`` method answers starts its listeners directly; waiters, methods and listeners are all still
reached as discord.py reaches them."""

from __future__ import annotations

import asyncio
import logging

import discord

from tests.discord_helpers import guild_with


async def _slash(standin, bot, users, g) -> None:
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)


async def test_a_listener_of_an_event_the_bot_has_no_method_for_is_started(standin, bot):
    g, users = guild_with(standin, ["ana"])
    heard: list[tuple] = []

    async def completed(interaction, command):
        heard.append((interaction.id, command.qualified_name))

    bot.add_listener(completed, "on_app_command_completion")
    assert not hasattr(bot, "on_app_command_completion") and "app_command_completion" not in bot._listeners
    await _slash(standin, bot, users, g)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(heard) == 1 and heard[0][1] == "game new"


async def test_a_waiter_and_a_method_are_still_reached(standin, bot):
    g, users = guild_with(standin, ["ana"])
    called: list[int] = []

    async def on_app_command_completion(interaction, command):
        called.append(interaction.id)

    waiting = asyncio.ensure_future(bot.wait_for("app_command_completion"))
    await asyncio.sleep(0)
    await _slash(standin, bot, users, g)
    interaction, command = await asyncio.wait_for(waiting, 5)
    assert isinstance(interaction, discord.Interaction) and command.qualified_name == "game new"
    assert "app_command_completion" not in bot._listeners  # the waiter was taken, as discord.py takes it

    bot.event(on_app_command_completion)  # the bot's own method now answers the event
    await _slash(standin, bot, users, g)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(called) == 1


async def test_with_discord_pys_debug_log_every_event_is_logged(standin, bot, caplog):
    g, users = guild_with(standin, ["ana"])
    with caplog.at_level(logging.DEBUG, logger="discord.client"):
        await _slash(standin, bot, users, g)
    said = [r.getMessage() for r in caplog.records if r.name == "discord.client"]
    assert "Dispatching event interaction" in said and "Dispatching event app_command_completion" in said


def test_the_method_looked_up_is_the_classs_or_the_bots_own(make_bot):
    bot = make_bot()
    assert bot._answers("on_message")  # commands.Bot's
    assert not bot._answers("on_app_command_completion")

    async def on_app_command_completion(*_):
        pass

    bot.on_app_command_completion = on_app_command_completion
    assert bot._answers("on_app_command_completion")
