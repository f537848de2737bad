"""The Discord bot: a discord.py ``commands.Bot`` that owns the store and the table service."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.config import Settings
from bot.engine.registry import sample_views
from bot.i18n.commands import CommandTranslator
from bot.render import pictures
from bot.store import Store, open_store
from bot.tables import thinking
from bot.tables.service import TableService
from bot.tables.desk import Desk
from bot.tables.replays import replays_of
from bot.ratings import rate_history
from bot.ui.components import Delivered, first_delivery

log = logging.getLogger(__name__)

COGS = ("cogs.tables", "cogs.watch", "cogs.game_cog", "cogs.tournaments")  # the table commands, watching, one group
# per game, /tournament


def point_at(api_base: str | None, gateway_url: str | None) -> tuple[str, str]:
    """Send REST and gateway traffic to a proxy or a local Discord stand-in (None: leave that one
    as it is). Returns where they went before, ``(api_base, gateway_url)``: ``point_at(*before)``
    points them back. The one place that sets discord.py's two endpoints."""
    before = (discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY))
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return before


class _NoVoice(logging.Filter):
    """Deckhand never joins voice: discord.py's start-up warnings that voice libraries are missing are noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


logging.getLogger("discord.client").addFilter(_NoVoice())


class Tree(discord.app_commands.CommandTree):
    """The slash commands' tree: a command Discord delivers twice is answered once."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return first_delivery(interaction)


class DeckhandBot(commands.Bot):
    """Deckhand. No privileged intents: everything happens through interactions. Guild messages
    (not their content) only count how far a table message has scrolled up its channel."""

    def __init__(self, database: Path | str, *, run_timeouts: bool = True, owner_ids: frozenset[int] = frozenset(),
                 warm: bool = False,
                 database_url: str | None = None, sweep_seconds: float | None = None, end_animation: bool = True,
                 picture_wait: float | None = None, **options: Any):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # not privileged; without message_content nothing is read
        # No message cache: the bot reads no message back (on_message only counts what is posted
        # below a table message), and discord.py would otherwise keep the last 1,000 messages of
        # every channel it sees, with their authors, for the collector to walk.
        options.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=Tree,
                         owner_ids=set(owner_ids) or None,
                         allowed_contexts=discord.app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                                                  private_channel=True),
                         allowed_installs=discord.app_commands.AppInstallationType(guild=True, user=True),
                         **options)
        self.delivered = Delivered()  # the interactions this process has seen (a second delivery is let go)
        self.database = Path(database)
        self.database_url = database_url
        self.run_timeouts = run_timeouts
        self.warm = warm  # a real run's start-up (see setup_hook); tests start cold
        self.sweep_seconds = sweep_seconds
        self.end_animation = end_animation  # the end message's animation of the whole game (DECKHAND_END_ANIMATION)
        self.picture_wait = picture_wait  # an answer's wait for its new picture (DECKHAND_PICTURE_WAIT; None: it waits)
        self.frozen = False  # start-up's objects moved out of the collector's walks (on_ready)
        self.store: Store | None = None
        self.service: TableService
        self.desk: Desk

    @property
    def sweep_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """The shards whose tables this process sweeps (None: all, one process)."""
        return None

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())  # the commands in Spanish and German, at sync
        self.store = await open_store(self.database_url or self.database)
        await rate_history(self.store)  # finished games from before ratings are rated once, oldest first
        self.service = TableService(self.store)
        self.service.sweep_shards = self.sweep_shards
        self.desk = Desk(self.service)  # the Discord layer's only road to the tables: readers, never games
        replays_of(self.desk).end_animation = self.end_animation
        await self.desk.pings.load()  # each player's ping preferences: read once, not on a press
        for cog in COGS:
            await self.load_extension(cog)
        if self.sweep_seconds is not None and (cog := self.get_cog("Tables")) is not None:
            cog.timeout_loop.change_interval(seconds=self.sweep_seconds)  # type: ignore[attr-defined]
        if self.warm:  # a real run: the picture processes start now, not on the first table's move
            samples = await asyncio.to_thread(sample_views)
            self._warming = asyncio.create_task(pictures.prepare(samples), name="deckhand: warm the picture processes")

    async def on_ready(self) -> None:
        shards = self.sweep_shards
        where = f"shards {', '.join(map(str, shards[1]))} of {shards[0]}" if shards else "every shard"
        log.info("ready: %d servers on %s", len(self.guilds), where)
        if not self.frozen:  # once: what start-up made (modules, classes, caches) lives as long as the process
            self.frozen = True
            gc.freeze()  # bench: event loop held at most (a full collection walking them took ~50 ms here)

    async def close(self) -> None:
        await super().close()
        if getattr(self, "desk", None) is not None:
            await self.desk.stop_thinking()  # before the store closes (the cog's unload stops them too)
        if self.store is not None:
            await self.store.close()
            self.store = None
        await asyncio.to_thread(pictures.shutdown)  # the picture workers
        await asyncio.to_thread(thinking.shutdown)  # and the thinking ones


class ShardedDeckhandBot(DeckhandBot, commands.AutoShardedBot):
    """One process of a shard cluster: it runs ``shard_ids`` of ``shard_count`` shards.

    Discord sends each guild's events on shard ``(guild_id >> 22) % shard_count`` and DMs on
    shard 0, so the process with shard 0 serves the DMs; every process sweeps the turn limits of
    its own shards' tables only (DMs: shard 0's). IDENTIFY is staggered: within the process
    discord.py waits 5 s between its shards; across processes the first IDENTIFY waits
    ``identify_delay`` × the first shard id, so processes started together take turns.
    """

    def __init__(self, database: Path | str, *, shard_count: int, shard_ids: tuple[int, ...] | None = None,
                 identify_delay: float = 5.0, **options: Any):
        ids = list(shard_ids) if shard_ids is not None else None
        super().__init__(database, shard_count=shard_count, shard_ids=ids, **options)
        self.identify_delay = identify_delay

    @property
    def sweep_shards(self) -> tuple[int, tuple[int, ...]] | None:
        count = self.shard_count or 1
        return count, tuple(self.shard_ids) if self.shard_ids is not None else tuple(range(count))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if initial:
            first = min(self.shard_ids) if self.shard_ids else 0
            if first and self.identify_delay:
                log.info("waiting %.1f s before shard %s identifies (after the shards before it)",
                         first * self.identify_delay, shard_id)
                await asyncio.sleep(first * self.identify_delay)
            return
        await super().before_identify_hook(shard_id, initial=initial)


def build(settings: Settings, *, run_timeouts: bool = True) -> DeckhandBot:
    point_at(settings.api_base, settings.gateway_url)
    common: dict[str, Any] = dict(run_timeouts=run_timeouts, owner_ids=settings.owner_ids, warm=True,
                                  database_url=settings.database_url, sweep_seconds=settings.sweep_seconds,
                                  end_animation=settings.end_animation, picture_wait=settings.picture_wait)
    if settings.shard_count is None:
        return DeckhandBot(settings.database, **common)
    return ShardedDeckhandBot(settings.database, shard_count=settings.shard_count, shard_ids=settings.shard_ids,
                              identify_delay=settings.identify_delay, **common)


async def sync_commands(bot: DeckhandBot, guild_id: int | None) -> int:
    """Register the slash commands: with a guild id there only (instant), else globally."""
    if guild_id is not None:
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    else:
        synced = await bot.tree.sync()
    return len(synced)
