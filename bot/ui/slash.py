"""The slash commands' tree: every command worked on through the bot's turnstile (bot.ui.turnstile)."""

from __future__ import annotations

import discord

from bot.ui.presses import let_go


class GatedTree(discord.app_commands.CommandTree):
    """The slash commands, each worked on through the bot's turnstile (bot.ui.turnstile)."""

    async def _call(self, interaction: discord.Interaction) -> None:
        async with self.client.turnstile():  # type: ignore[attr-defined]
            await super()._call(interaction)
        # Handled (an error raised instead goes to discord.py's error handler, which still needs it).
        # Held here: this frame's argument and discord.py's invoker closure's cell.
        let_go(interaction, 2)
