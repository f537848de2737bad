"""Per-game slash commands: ``/<game> <verb> [choice|text]``, one cog per game.

Each game cog turns its notation's verbs into subcommands whose ``choice`` option
autocompletes to the seat's legal moves for that verb (so only legal choices are
offered), and whose free-text verbs take a ``text`` option. The move itself goes
through the shared table cog, so refusals, secrecy and pings behave the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import game_class

if TYPE_CHECKING:
    from bot.app import DeckhandBot
    from cogs.tables import Tables

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)


class GameCog(commands.Cog):
    """The slash commands of one game. Build with :func:`game_cog`."""

    def __init__(self, bot: "DeckhandBot", game_id: str, group: app_commands.Group):
        self.bot, self.game_id = bot, game_id
        self.__cog_app_commands__ = [group]
        super().__init__()

    @property
    def tables(self) -> "Tables":
        return self.bot.get_cog("Tables")  # type: ignore[return-value]

    async def choices(self, interaction: discord.Interaction, verb: str, current: str) -> list[app_commands.Choice[str]]:
        from cogs.tables import legal_choices

        return await legal_choices(self.bot.service, interaction, current, game_id=self.game_id, verb=verb)

    async def run(self, interaction: discord.Interaction, verb: str, choice: str | None, text: str | None) -> None:
        from cogs.tables import refuse

        table = await self.bot.service.get(interaction.channel_id)
        if table is None or table.game != self.game_id:
            title = game_class(self.game_id).title
            return await refuse(interaction, f"There is no {title} table in this channel. Start one with "
                                             f"`/game new game:{self.game_id}`.")
        if text is not None:
            move = f"{verb} {text}"
        elif choice:
            move = choice if choice.split()[0] == verb else f"{verb} {choice}"
        else:
            move = verb
        await self.tables.play(interaction, move, via="slash")


def game_cog(bot: "DeckhandBot", game_id: str, name: str, verbs: dict[str, str], text_verbs: dict[str, str]) -> GameCog:
    """A cog with ``/name verb`` for each move verb (``choice`` autocompleted) and text verb (``text``)."""
    title = game_class(game_id).title
    group = app_commands.Group(name=name, description=f"Moves in {title}"[:100],
                               allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)
    cog_class = type(GameCog)(f"{name.title().replace('-', '')}Cog", (GameCog,), {"__module__": __name__},
                              name=f"{title} moves")
    cog = cog_class.__new__(cog_class)

    def move_command(verb: str, description: str) -> app_commands.Command:
        async def callback(interaction: discord.Interaction, choice: str | None = None) -> None:
            await cog.run(interaction, verb, choice, None)

        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await cog.choices(interaction, verb, current)

        command = app_commands.Command(name=verb, description=description[:100], callback=callback)
        command._params["choice"].description = "Pick from the legal choices offered"
        command.autocomplete("choice")(complete)
        return command

    def text_command(verb: str, description: str) -> app_commands.Command:
        async def callback(interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000]) -> None:
            await cog.run(interaction, verb, None, text)

        command = app_commands.Command(name=verb, description=description[:100], callback=callback)
        command._params["text"].description = "Your line (plain text)"
        return command

    for verb, description in verbs.items():
        group.add_command(move_command(verb, description))
    for verb, description in text_verbs.items():
        group.add_command(text_command(verb, description))
    cog_class.__init__(cog, bot, game_id, group)
    return cog
