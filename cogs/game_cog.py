"""Per-game slash commands, generated from each game's spec: ``/<command> <verb> [choice|text]``.

One subcommand per action kind the spec lists: an action with arguments takes a ``choice``
that autocompletes from ``choices`` a step at a time (so only legal choices are offered, from
the player's own view); a free-text action takes a ``text``; an action without arguments
takes nothing. The move itself goes through the shared table cog, so refusals, secrecy and
pings behave the same way. No verb list is copied here: add an action to a game and its
command appears.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.words import say
from bot.engine.registry import GameSpec, specs
from bot.ui import payloads

if TYPE_CHECKING:
    from bot.app import DeckhandBot
    from cogs.tables import Tables

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
TEXT_MAX = 1000


class GameCog(commands.Cog):
    """The slash commands of one game. Build with :func:`game_cog`."""

    def __init__(self, bot: "DeckhandBot", spec: GameSpec, group: app_commands.Group):
        self.bot, self.spec = bot, spec
        self.__cog_app_commands__ = [group]
        super().__init__()

    @property
    def tables(self) -> "Tables":
        return self.bot.get_cog("Tables")  # type: ignore[return-value]

    async def choices(self, interaction: discord.Interaction, verb: str, current: str) -> list[app_commands.Choice[str]]:
        from cogs.tables import legal_choices

        return await legal_choices(self.bot.desk, interaction, current, game_id=self.spec.id, verb=verb)

    async def run(self, interaction: discord.Interaction, verb: str, choice: str | None, text: str | None) -> None:
        from cogs.tables import refuse

        try:
            reader = await self.bot.desk.public(interaction.channel_id)
        except Exception as e:  # a damaged table says so in one line
            return await refuse(interaction, str(e))
        if reader is None or reader.game != self.spec.id:
            name = self.spec.title.removeprefix("The ")
            return await refuse(interaction, say("There is no {name} table in this channel. Start one with "
                                                 "`/game new game:{id}`.", name=name, id=self.spec.id))
        if choice is not None and choice.strip() == payloads.NOTHING:  # the entry that said why nothing may be chosen
            return await self.tables.nothing_chosen(interaction, verb)
        if text is not None:
            move = f"{verb} {text}"
        elif choice:
            move = choice if choice.split()[0] == verb else f"{verb} {choice}"
        else:
            move = verb
        await self.tables.play(interaction, move, via="slash")


def _has_arguments(action: type) -> bool:
    return bool(dataclasses.is_dataclass(action) and dataclasses.fields(action))


def game_cog(bot: "DeckhandBot", spec: GameSpec) -> GameCog:
    """A cog with ``/<spec.command> <verb>`` for each of the game's action kinds."""
    group = app_commands.Group(name=spec.command, description=f"Moves in {spec.title}"[:100],
                               allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)
    name = "".join(part.title() for part in spec.command.split("-"))
    cog_class = type(GameCog)(f"{name}Cog", (GameCog,), {"__module__": __name__}, name=f"{spec.title} moves")
    cog = cog_class.__new__(cog_class)

    def choice_command(verb: str, description: str) -> app_commands.Command:
        @app_commands.describe(choice="Pick from the choices offered (they follow the rules)")
        async def callback(interaction: discord.Interaction, choice: str | None = None) -> None:
            await cog.run(interaction, verb, choice, None)

        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await cog.choices(interaction, verb, current)

        command = app_commands.Command(name=verb, description=description[:100], callback=callback)
        command.autocomplete("choice")(complete)
        return command

    def text_command(verb: str, description: str) -> app_commands.Command:
        @app_commands.describe(text="Your words (plain text)")
        async def callback(interaction: discord.Interaction, text: app_commands.Range[str, 1, TEXT_MAX]) -> None:
            await cog.run(interaction, verb, None, text)

        return app_commands.Command(name=verb, description=description[:100], callback=callback)

    def bare_command(verb: str, description: str) -> app_commands.Command:
        async def callback(interaction: discord.Interaction) -> None:
            await cog.run(interaction, verb, None, None)

        return app_commands.Command(name=verb, description=description[:100], callback=callback)

    seen: set[str] = set()
    for action in spec.actions:
        verb = action.verb
        if verb in seen:
            continue
        seen.add(verb)
        if action.free_text:
            group.add_command(text_command(verb, action.help))
        elif _has_arguments(action):
            group.add_command(choice_command(verb, action.help))
        else:
            group.add_command(bare_command(verb, action.help))
    cog_class.__init__(cog, bot, spec, group)
    return cog


async def setup(bot: "DeckhandBot") -> None:
    for spec in specs():
        await bot.add_cog(game_cog(bot, spec))
