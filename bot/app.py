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
from bot.render import pictures
from bot.store import Store, open_store
from bot.tables.service import TableService
from bot.tables.desk import Desk
from bot.ui.components import PREFIX as COMPONENT_PREFIX, PlainView
from bot.ui.courier import Courier
from bot.ui.presses import answer_own_presses, let_go, listens
from bot.ui.slash import GatedTree
from bot.ui.turnstile import ALONE, Turnstile, size_for, tidy_up
from bot.ui.wire import Wire
from bot.ratings import rate_history

log = logging.getLogger(__name__)
_client_log = logging.getLogger("discord.client")  # discord.py's, which logs every event dispatched at DEBUG
_METHODS: dict[tuple[type, str], bool] = {}  # (the bot's class, "on_<event>"): whether the class has it

COGS = ("cogs.tables", "cogs.game_cog", "cogs.tournaments")  # the table commands, one group per game, /tournament

# Deckhand never joins voice: discord.py's start-up warnings that voice libraries are missing are noise.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


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


GC_THRESHOLD = (ALONE, 10, 1000)  # collections are made between interactions (bot.ui.turnstile), and
# what survives them is set aside; the collector's own full collections seldom (bot.tables.clock's
# sweep, with middle ones of its own, would otherwise make full ones of what it let through)


def settle_memory() -> None:
    """Once started: move everything alive (modules, the registry, the discord.py machinery) out of
    the garbage collector's way, so a full collection no longer walks it (the turnstile's tidy-up,
    which also collects what was set aside before and died in a cycle). Measured by the bench,
    a full collection during 200 tables at once fell from about 21 ms to 4 ms of blocked loop.

    The young generations are collected every 2,000 new objects instead of 700: a press makes
    and drops many short-lived ones, and fewer survive into the older generations. The real
    press's 200-table burst (six rounds): the collector's CPU in the timed windows fell from about
    560 to 250 ms (1,800 interactions). Those collections are made as an interaction leaves the
    turnstile (``bot.ui.turnstile.between_presses``), its answers sent, and what survives them is
    set aside as this sets aside the start-up's objects; the collector's own threshold becomes
    ``ALONE`` (5,000), reached by work outside interactions."""
    tidy_up()
    gc.set_threshold(*GC_THRESHOLD)


def answered_by_dynamic_items(view: Any) -> bool:
    """A plain View of plain buttons and selects whose custom_ids are Deckhand's (``dh2:…``): the
    bot's DynamicItems answer every press on it (after a restart too), so discord.py need not keep
    it. Left to itself, discord.py keeps every such view sent — one per table edit and per private
    panel, an ephemeral one with a 15-minute timer task — each press also runs a no-op task for
    it, and the views pile up for the garbage collector to walk."""
    if type(view) is PlainView:  # Deckhand's own buttons as dicts: nothing discord.py could keep
        return True
    if type(view) is not discord.ui.View:
        return False
    for item in view.walk_children():
        if type(item) not in (discord.ui.Button, discord.ui.Select):
            return False
        custom_id = getattr(item, "custom_id", None)
        if custom_id is not None and not custom_id.startswith(f"{COMPONENT_PREFIX}:"):
            return False
    return True


def let_go_of_view(view: discord.ui.View | PlainView) -> None:
    """A view sent and not kept (:func:`answered_by_dynamic_items`) is unlinked from its items.

    Each item points back at its view (``item._view``, which discord.py reads only when it
    dispatches a press to a view it keeps): every table edit and panel answer left its view, its
    buttons and its ``_ViewWeights`` in a reference cycle for the garbage collector — in the real
    press's burst, one view a press. Unlinked, as ``View.remove_item`` leaves an item, they are freed
    by reference counting once the message is sent; the view itself is unchanged (sent again, it
    makes the same components). A :class:`~bot.ui.components.PlainView` has no items to unlink."""
    for item in getattr(view, "children", ()):
        item._update_view(None)


def amortize_bucket_cleanup(http: Any, floor: int = 256) -> None:
    """discord.py scans every rate-limit bucket it holds each time it makes a new one, once it holds
    256: quadratic when one turn-limit sweep tells a thousand channels (two thousand new buckets,
    about half a second of event loop in the bench). Here the scan runs only once the count has
    doubled since the last one; inactive buckets still go, the held ones stay under twice the live."""
    original = getattr(http, "_try_clear_expired_ratelimits", None)
    buckets = getattr(http, "_buckets", None)
    if original is None or not isinstance(buckets, dict):  # another discord.py: leave it as it is
        return
    mark = floor

    def clear() -> None:
        nonlocal mark
        if len(buckets) < mark:
            return
        original()
        mark = max(floor, 2 * len(buckets))

    http._try_clear_expired_ratelimits = clear


class DeckhandBot(commands.Bot):
    """Deckhand. No privileged intents: everything happens through interactions. Guild messages
    (not their content) only count how far a table message has scrolled up its channel."""

    def __init__(self, database: Path | str, *, run_timeouts: bool = True, owner_ids: frozenset[int] = frozenset(),
                 warm: bool = False,
                 database_url: str | None = None, sweep_seconds: float | None = None, **options: Any):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # not privileged; without message_content nothing is read
        self.turnstile = Turnstile()  # at most a few interactions worked on at once (a burst waits, parked)
        # No message cache: the bot reads no message back (on_message only counts what is posted
        # below a table message), and discord.py would otherwise keep the last 1,000 messages of
        # every channel it sees, with their authors, for the collector to walk.
        options.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=GatedTree,
                         owner_ids=set(owner_ids) or None,
                         allowed_contexts=discord.app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                                                  private_channel=True),
                         allowed_installs=discord.app_commands.AppInstallationType(guild=True, user=True),
                         **options)
        amortize_bucket_cleanup(self.http)
        self.courier = Courier(self.http, tune=amortize_bucket_cleanup)  # the sweep's sender thread, on first use
        self.wire = Wire(self.http)  # the press's hot requests on kept-alive connections of its own (bot.ui.wire)
        self.wire.serve_webhooks()  # its follow-ups too
        state = self._connection
        keep_view = state.store_view

        def store_view(view: Any, message_id: int | None = None) -> None:
            if not answered_by_dynamic_items(view):
                keep_view(view, message_id)
            else:
                let_go_of_view(view)

        state.store_view = store_view  # type: ignore[method-assign]
        answer_own_presses(state)
        self.database = Path(database)
        self.database_url = database_url
        self.run_timeouts = run_timeouts
        self.warm = warm  # a real run's start-up (see setup_hook); tests start cold
        self.sweep_seconds = sweep_seconds
        self.store: Store | None = None
        self.service: TableService
        self.desk: Desk

    @property
    def sweep_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """The shards whose tables this process sweeps (None: all, one process)."""
        return None

    async def setup_hook(self) -> None:
        self.store = await open_store(self.database_url or self.database)
        self.turnstile.resize(size_for(getattr(self.store, "backend", "")))
        await rate_history(self.store)  # finished games from before ratings are rated once, oldest first
        self.service = TableService(self.store)
        self.service.sweep_shards = self.sweep_shards
        self.desk = Desk(self.service)  # the Discord layer's only road to the tables: readers, never games
        for cog in COGS:
            await self.load_extension(cog)
        if self.sweep_seconds is not None and (cog := self.get_cog("Tables")) is not None:
            cog.timeout_loop.change_interval(seconds=self.sweep_seconds)  # type: ignore[attr-defined]
        if self.warm:  # a real run: the picture processes start now, not on the first table's move
            settle_memory()
            samples = await asyncio.to_thread(sample_views)
            self._warming = asyncio.create_task(pictures.prepare(samples), name="deckhand: warm the picture processes")

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's (``commands.Bot.dispatch``, 2.7.1), for an event no ``wait_for`` waits for
        and no ``on_`` method of the bot answers (the ``interaction`` of every press, the
        ``app_command_completion`` of every slash command): its listeners started alone, as
        discord.py starts them, without looking for the waiters and the method it does not find
        (an ``AttributeError`` raised and caught each time). Anything else, and every event while
        discord.py's debug log is on (it logs each), is discord.py's own road."""
        ev = "on_" + event_name
        if event_name in self._listeners or _client_log.isEnabledFor(logging.DEBUG) or self._answers(ev):
            return super().dispatch(event_name, *args, **kwargs)
        for event in self.extra_events.get(ev, ()):
            self._schedule_event(event, ev, *args, **kwargs)

    def _answers(self, method: str) -> bool:
        """Whether the bot has an ``on_`` method of this name (its class's, looked up once, or its own)."""
        if method in self.__dict__:
            return True
        known = _METHODS.get((type(self), method))
        if known is None:
            known = _METHODS[(type(self), method)] = hasattr(type(self), method)
        return known

    def _schedule_event(self, coro: Any, event_name: str, /, *args: Any, **kwargs: Any) -> Any:
        """discord.py's, but an ``interaction`` listener marked for other kinds of interaction
        (bot.ui.presses.listens_to: the text boxes' in cogs.tables) is not started for this one: it
        would only return. (discord.py's dispatch does not use the task it returns.)"""
        if event_name == "on_interaction" and len(args) == 1 and not kwargs and not listens(coro, args[0]):
            return None
        return super()._schedule_event(coro, event_name, *args, **kwargs)

    async def _run_event(self, coro: Any, event_name: str, *args: Any, **kwargs: Any) -> None:
        await super()._run_event(coro, event_name, *args, **kwargs)
        if event_name == "on_interaction" and args and isinstance(args[0], discord.Interaction) and not kwargs:
            # A text box is answered by the ``interaction`` listener (cogs.tables); every text box
            # passes through it (discord.py's task for the open box's Modal, started before it, is
            # done in its first step), and so does every interaction through a listener of its own.
            # Held here: the arguments' tuple.
            let_go(args[0], 1)

    async def on_ready(self) -> None:
        shards = self.sweep_shards
        where = f"shards {', '.join(map(str, shards[1]))} of {shards[0]}" if shards else "every shard"
        log.info("ready: %d servers on %s", len(self.guilds), where)
        if self.warm:  # the servers' caches are filled: out of the collector's way too
            settle_memory()

    async def close(self) -> None:
        self.turnstile.close()  # no tidy-up planned by a closed bot
        await super().close()
        await self.wire.close()
        await self.close_courier()
        if self.store is not None:
            await self.store.close()
            self.store = None
        await asyncio.to_thread(pictures.shutdown)  # the picture workers

    async def close_courier(self) -> None:
        """Stop the turn-limit sweep's sender thread (bot.ui.courier), if it was started."""
        await self.courier.close()


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
                                  database_url=settings.database_url, sweep_seconds=settings.sweep_seconds)
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
