"""The Discord bot: a discord.py ``commands.Bot`` that owns the store and the table service."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.config import Settings
from bot.render import pictures
from bot.store import Store, open_store
from bot.tables import TableService

log = logging.getLogger(__name__)

COGS = ("cogs.tables", "cogs.game_cog")  # the table commands, then one command group per registered game


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a proxy or a local Discord stand-in."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class DeckhandBot(commands.Bot):
    """Deckhand. No privileged intents: everything happens through interactions."""

    def __init__(self, database: Path | str, *, run_timeouts: bool = True, owner_ids: frozenset[int] = frozenset(),
                 database_url: str | None = None, **options: Any):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         owner_ids=set(owner_ids) or None,
                         allowed_contexts=discord.app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                                                  private_channel=True),
                         allowed_installs=discord.app_commands.AppInstallationType(guild=True, user=True),
                         **options)
        self.database = Path(database)
        self.database_url = database_url
        self.run_timeouts = run_timeouts
        self.store: Store | None = None
        self.service: TableService

    async def setup_hook(self) -> None:
        self.store = await open_store(self.database_url or self.database)
        self.service = TableService(self.store)
        for cog in COGS:
            await self.load_extension(cog)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        await asyncio.to_thread(pictures.shutdown)  # the picture workers


def build(settings: Settings, *, run_timeouts: bool = True) -> DeckhandBot:
    point_at(settings.api_base, settings.gateway_url)
    return DeckhandBot(settings.database, run_timeouts=run_timeouts, owner_ids=settings.owner_ids,
                       database_url=settings.database_url)


async def sync_commands(bot: DeckhandBot, guild_id: int | None) -> int:
    """Register the slash commands: with a guild id there only (instant), else globally."""
    if guild_id is not None:
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    else:
        synced = await bot.tree.sync()
    return len(synced)
