"""The Discord bot: a discord.py ``commands.Bot`` that owns the store and the table service."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
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
from bot.ui.components import PREFIX as COMPONENT_PREFIX, Component, Kind, PlainView, template_of
from bot.ui.courier import Courier
from bot.ui.turnstile import ALONE, Turnstile
from bot.ui.wire import Wire
from bot.ratings import rate_history

log = logging.getLogger(__name__)
view_log = logging.getLogger("discord.ui.view")  # discord.py's own, for a press's failure (as discord.py logs it)

COGS = ("cogs.tables", "cogs.game_cog", "cogs.tournaments")  # the table commands, one group per game, /tournament

# Deckhand never joins voice: discord.py's start-up warnings that voice libraries are missing are noise.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a proxy or a local Discord stand-in."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


GC_THRESHOLD = (ALONE, 10, 10)  # young collections are made between interactions (bot.ui.turnstile)


def settle_memory() -> None:
    """Once started: move everything alive (modules, the registry, the discord.py machinery) out of
    the garbage collector's way, so a full collection no longer walks it. Measured by the bench,
    a full collection during 200 tables at once fell from about 21 ms to 4 ms of blocked loop.

    The youngest generation is collected every 2,000 new objects instead of 700: a press makes
    and drops many short-lived ones, and fewer survive into the older generations. The real
    press's 200-table burst (six rounds): the collector's CPU in the timed windows fell from about
    560 to 250 ms (1,800 interactions). Those young collections are made as an interaction leaves
    the turnstile (``bot.ui.turnstile.between_presses``), its answers sent; the collector's own
    threshold becomes ``ALONE`` (5,000), reached by work outside interactions."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def let_go(interaction: discord.Interaction, held: int) -> bool:
    """Break the one reference cycle a handled interaction is left in, once nothing else holds it.

    discord.py's ``interaction.response`` (an ``InteractionResponse``, cached in the interaction's
    ``_cs_response`` slot) points back at its interaction (``_parent``): every press and slash
    command answered leaves the interaction — with its message, member, user, channel, guild,
    namespace and the message's components, about 30 tracked objects — for the garbage collector.
    Presses stay in flight a while, so these survive into the older generations and only a full
    collection (tens of milliseconds of blocked loop in a burst) frees them.

    ``held`` is how many references the caller holds itself (its frame's, a closure's). When the
    interaction has no other holder than those and its own response — every task that used it is
    done, no late notice, deferral or listener still has it — the response is dropped from the
    interaction: reference counting frees both at once. Anything else still holding it (a task
    building the panel's next step, a listener, an exception's traceback) leaves it as it is
    (the collector's, as before); the last of its handlers to finish lets it go. True when let go."""
    try:
        response = interaction._cs_response  # type: ignore[attr-defined]
    except AttributeError:  # never answered through discord.py's response: no cycle
        return False
    if getattr(response, "_parent", None) is not interaction:
        return False
    # Besides the caller's: this frame's argument, getrefcount's own, and the response's _parent.
    if sys.getrefcount(interaction) > held + 3:
        return False
    del interaction._cs_response  # type: ignore[attr-defined]
    return True


class GatedTree(discord.app_commands.CommandTree):
    """The slash commands, each worked on through the bot's turnstile (bot.ui.turnstile)."""

    async def _call(self, interaction: discord.Interaction) -> None:
        async with self.client.turnstile():  # type: ignore[attr-defined]
            await super()._call(interaction)
        # Handled (an error raised instead goes to discord.py's error handler, which still needs it).
        # Held here: this frame's argument and discord.py's invoker closure's cell.
        let_go(interaction, 2)


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


class PressedMessage(discord.Message):
    """The clicked message of a press on one of Deckhand's components, built when first read.

    discord.py builds the whole ``discord.Message`` of every press (its components, embeds, author,
    mentions) while parsing it; a press's road reads only the message's ``id`` and ``flags``, and
    the pressed component (from the payload, :func:`_pressed_item`). Here those two are set at
    once and everything else is left unset until any other attribute is read: that read runs
    discord.py's own ``Message.__init__`` on the same payload (and the interaction's upgrade of a
    message without a guild), so the message read is the one discord.py would have made. It is a
    ``discord.Message``: ``isinstance``, equality and hashing (by id) are discord.py's."""

    __slots__ = ("_payload", "_guild_after", "_built")

    def __init__(self, *, state: Any, channel: Any, data: Any, guild: Any = None) -> None:
        self._built = False
        self._state = state
        self.channel = channel
        self.id = int(data["id"])
        self.flags = discord.MessageFlags._from_value(data.get("flags", 0))
        self._payload = data
        self._guild_after = guild  # the interaction's guild, for a message without one (as discord.py)

    def _build(self) -> None:
        self._built = True  # from here an unset attribute raises, as on a discord.Message
        flags = self.flags
        discord.Message.__init__(self, state=self._state, channel=self.channel, data=self._payload)
        self.flags = flags  # the same value; the object already read stays the message's
        if self.guild is None and self._guild_after is not None:  # Interaction._from_data's upgrade
            self.guild = self._guild_after
        self._guild_after = None

    def __getattr__(self, name: str) -> Any:  # only for an attribute not set yet
        if name.startswith("__") or name in PressedMessage.__slots__ or self._built:
            raise AttributeError(name)
        self._build()
        return getattr(self, name)


def pressed_interaction(state: Any, data: Any) -> discord.Interaction | None:
    """discord.py's ``Interaction`` of a press of a Deckhand component on a message, its message a
    :class:`PressedMessage`; None for any other payload (left to discord.py's own parser)."""
    inner, raw = data.get("data"), data.get("message")
    if (data.get("type") != 3 or not isinstance(raw, dict) or not isinstance(inner, dict)
            or not isinstance(inner.get("custom_id"), str) or not inner["custom_id"].startswith(f"{COMPONENT_PREFIX}:")
            or (data.get("guild_id") is not None and not isinstance(data.get("member"), dict))):
        return None
    rest = dict(data)
    del rest["message"]
    interaction = discord.Interaction(data=rest, state=state)
    # Interaction._from_data gives a message without a guild the interaction's (the member's) guild.
    guild = interaction.user.guild if interaction.guild_id and isinstance(interaction.user, discord.Member) else None
    interaction.message = PressedMessage(state=state, channel=interaction.channel, data=raw, guild=guild)
    return interaction


def parse_presses_lazily(state: Any) -> None:
    """discord.py's ``INTERACTION_CREATE`` parser, for a press of a Deckhand component (``dh2:…``)
    on a message: the same ``discord.Interaction`` made from the same payload, its clicked
    message a :class:`PressedMessage` (built when read), the stored views' dispatch and the
    ``interaction`` event as the parser does them. Anything else (a slash command, a text box, a
    press on another prefix or without a message, a guild payload without its member) goes
    through discord.py's own parser."""
    parsers = getattr(state, "parsers", None)
    parse = parsers.get("INTERACTION_CREATE") if isinstance(parsers, dict) else None
    if parse is None or not hasattr(state, "_view_store"):  # another discord.py: leave it as it is
        return

    def parse_interaction_create(data: Any) -> None:
        interaction = pressed_interaction(state, data)
        if interaction is None:
            return parse(data)
        inner = data["data"]
        state._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)
        state.dispatch("interaction", interaction)

    parsers["INTERACTION_CREATE"] = parse_interaction_create


def answer_own_presses(state: Any) -> None:
    """A press of one of Deckhand's components (``dh2:…``) goes straight to its DynamicItem.

    discord.py answers a press on a dynamic item by first rebuilding the clicked message's whole
    View (every button and select as ui objects) to find the one pressed, which Deckhand's
    handlers never read. Here only the pressed component becomes an item; the rest of discord.py's
    dispatch is kept: the stored views' lookup and the ``interaction`` event (the parser's), the
    DynamicItem's ``from_custom_id``, ``interaction_check`` and ``callback`` with the same logging
    of a failure. Anything else (another prefix, no message or a components-v2 one, a custom_id
    two dynamic items match, or another kind of item) goes through discord.py's own road."""
    store = getattr(state, "_view_store", None)
    everyone = getattr(store, "dispatch_dynamic_items", None)
    if everyone is None or not isinstance(getattr(store, "_dynamic_items", None), dict) \
            or not hasattr(discord.ui.view, "_component_to_item"):  # another discord.py: leave it as it is
        return
    prefix = f"{COMPONENT_PREFIX}:"
    index: dict[str, Any] = {"of": None}

    def candidates(custom_id: str) -> list[tuple[Any, Any]]:
        """The dynamic items that may match: the one of the custom_id's kind (its fourth field; a
        Deckhand kind's template matches no other), and every item with a template of its own."""
        items = store._dynamic_items
        of = tuple(items.values())
        if index["of"] != of:  # dynamic items were added or removed: index them again
            by_kind: dict[str, list[tuple[Any, Any]]] = {}
            others: list[tuple[Any, Any]] = []
            for pattern, factory in items.items():
                kind = getattr(factory, "kind", None)
                if isinstance(kind, Kind) and getattr(pattern, "pattern", None) == template_of(kind):
                    by_kind.setdefault(kind.value, []).append((pattern, factory))
                else:
                    others.append((pattern, factory))
            index.update(of=of, by_kind=by_kind, others=others)
        parts = custom_id.split(":", 4)
        return index["by_kind"].get(parts[3], []) + index["others"] if len(parts) == 5 else index["others"]

    def dispatch_dynamic_items(component_type: int, custom_id: str, interaction: discord.Interaction) -> None:
        message = interaction.message
        if not custom_id.startswith(prefix) or message is None or message.flags.components_v2:
            return everyone(component_type, custom_id, interaction)
        found = [(factory, match) for pattern, factory in candidates(custom_id)
                 if (match := pattern.fullmatch(custom_id)) is not None]
        if len(found) != 1 or not issubclass(found[0][0], Component):
            return everyone(component_type, custom_id, interaction)
        factory, match = found[0]
        store.add_task(asyncio.create_task(_answer_press(component_type, factory, interaction, custom_id, match),
                                           name=f"discord-ui-dynamic-item-{factory.__name__}-{custom_id}"))

    store.dispatch_dynamic_items = dispatch_dynamic_items
    parse_presses_lazily(state)  # and the clicked message of such a press is built only when read


async def _answer_press(component_type: int, factory: Any, interaction: discord.Interaction, custom_id: str,
                        match: Any) -> None:
    """discord.py's ``ViewStore.schedule_dynamic_item_call`` for one plain message's component,
    with the pressed component alone made an item (not the message's whole View)."""
    try:
        await _dispatch_press(component_type, factory, interaction, custom_id, match)
    finally:
        let_go(interaction, 1)  # held here: this frame's argument


def _pressed_item(component_type: int, interaction: discord.Interaction, custom_id: str) -> Any:
    """The pressed component of the clicked message as discord.py's ui item (None: not there).

    A :class:`PressedMessage` not yet built is searched in its payload (its action rows'
    components) and the one component found becomes discord.py's component and item, as
    ``message.components`` would have made it; any other message through its components."""
    message = interaction.message
    assert message is not None
    if type(message) is PressedMessage and not message._built:
        found = None
        for row in message._payload.get("components") or ():
            for c in (row.get("components") or ()) if row.get("type") == 1 else (row,):
                if c.get("type") == component_type and c.get("custom_id") == custom_id:
                    found = c
                    break
            if found is not None:
                break
        if found is None:
            return None
        if found.get("type") == 2 and found.get("custom_id") and "url" not in found and "sku_id" not in found:
            return _button_item(found)
        pressed = discord.components._component_factory(found)
    else:
        pressed = next((c for row in message.components for c in getattr(row, "children", (row,))
                        if c.type.value == component_type and getattr(c, "custom_id", None) == custom_id), None)
    return discord.ui.view._component_to_item(pressed) if pressed is not None else None


def _button_item(data: dict[str, Any]) -> discord.ui.Button:
    """``discord.ui.Button.from_component(discord.components.Button(data))`` for a button with a
    custom_id (no url, no sku): the same item, holding the component made from the dict (as
    ``Button._refresh_component`` keeps one) instead of a second one built field by field."""
    item = discord.ui.Button.__new__(discord.ui.Button)
    discord.ui.Item.__init__(item)
    item._provided_custom_id = True  # Button.__init__'s, given a custom_id
    item._underlying = discord.components.Button(data)
    item.row = None
    return item


async def _dispatch_press(component_type: int, factory: Any, interaction: discord.Interaction, custom_id: str,
                          match: Any) -> None:
    base_item = _pressed_item(component_type, interaction, custom_id)
    if base_item is None:  # as discord.py: a press of a component the message does not hold is dropped
        return
    try:
        item = await factory.from_custom_id(interaction, base_item, match)
    except Exception:
        view_log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    item._refresh_state(interaction, interaction.data)
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        view_log.exception("Ignoring exception in dynamic item callback for %r", item)


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

    async def _run_event(self, coro: Any, event_name: str, *args: Any, **kwargs: Any) -> None:
        await super()._run_event(coro, event_name, *args, **kwargs)
        if event_name == "on_interaction" and args and isinstance(args[0], discord.Interaction) and not kwargs:
            # A text box is answered by the ``interaction`` listener (cogs.tables); every interaction
            # passes through it (discord.py's task for the open box's Modal, started before it, is
            # done in its first step). Held here: the arguments' tuple.
            let_go(args[0], 1)

    async def on_ready(self) -> None:
        shards = self.sweep_shards
        where = f"shards {', '.join(map(str, shards[1]))} of {shards[0]}" if shards else "every shard"
        log.info("ready: %d servers on %s", len(self.guilds), where)
        if self.warm:  # the servers' caches are filled: out of the collector's way too
            settle_memory()

    async def close(self) -> None:
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
