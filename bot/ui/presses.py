"""A press of one of Deckhand's components (``dh2:…``) and a slash command, from the gateway's
payload to its handler.

discord.py parses every press into a whole ``discord.Message`` of the clicked message and rebuilds
that message's whole View to find the item pressed; Deckhand's handlers read neither. Here the
clicked message is built only when read (:class:`PressedMessage`) and the pressed component alone
becomes an item (:func:`answer_own_presses`); everything else is discord.py's own road. The
interaction of a press or a slash command leaves what no press reads (entitlements, locales, the
member's roles and times…) to be built when read (:class:`LeanInteraction`, :class:`LeanMember`);
an ``interaction`` listener for one kind of interaction is started for that kind only
(:func:`listens_to`). And a handled interaction is let go of (:func:`let_go`) as soon as nothing
holds it.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import discord
from discord.channel import _threaded_channel_factory
from discord.enums import try_enum

from bot.ui.components import PREFIX as COMPONENT_PREFIX, Component, Kind, template_of

view_log = logging.getLogger("discord.ui.view")  # discord.py's own, for a press's failure (as discord.py logs it)

LISTENS_TO = "__deckhand_listens_to__"  # on an ``interaction`` listener: the kinds of interaction it handles


def listens_to(*kinds: discord.InteractionType) -> Any:
    """Mark an ``interaction`` listener as handling these kinds of interaction only (the function
    itself, unwrapped): the bot (bot.app.DeckhandBot) starts no task for it on any other kind.
    discord.py starts one task per listener for every interaction, each only to return at once
    when it is not of its kind."""
    def mark(listener: Any) -> Any:
        setattr(listener, LISTENS_TO, frozenset(kinds))
        return listener

    return mark


def listens(listener: Any, interaction: Any) -> bool:
    """Whether an ``interaction`` listener handles this interaction (unmarked: every one)."""
    kinds = getattr(listener, LISTENS_TO, None)
    return kinds is None or getattr(interaction, "type", None) in kinds


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


class _Later:
    """A slot of a discord.py class read through its subclass: when it is still unset, the object's
    ``_build_later`` sets it (with the others built later) the way discord.py would have."""

    __slots__ = ("slot",)

    def __init__(self, slot: Any) -> None:
        self.slot = slot  # the discord.py class's own slot (its member descriptor)

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        try:
            return self.slot.__get__(obj, owner)
        except AttributeError:
            obj._build_later()  # raises AttributeError when there is nothing left to build
            return self.slot.__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        self.slot.__set__(obj, value)

    def __delete__(self, obj: Any) -> None:
        self.slot.__delete__(obj)


MEMBER_LATER = ("joined_at", "premium_since", "_roles", "client_status", "activities", "pending", "_avatar", "_banner",
                "_flags", "_avatar_decoration_data", "timed_out_until")


class LeanMember(discord.Member):
    """The member of an interaction, with what a press reads (its user, nick and permissions:
    id, name, display name, ``interaction.permissions``) set at once and the rest (roles, join
    and boost times, status, avatar, flags…) when first read: that read runs discord.py's own
    ``Member.__init__`` on the same payload, its user kept. A ``discord.Member``: equality,
    hashing, ``isinstance`` are discord.py's."""

    __slots__ = ("_later",)

    def __init__(self, *, data: Any, guild: Any, state: Any) -> None:
        self._later = data
        self._state = state
        self._user = state.store_user(data["user"])
        data["roles"], data["flags"]  # noqa: B018 — a payload without them fails here, as in discord.py
        self.guild = guild
        self.nick = data.get("nick", None)
        try:
            self._permissions = int(data["permissions"])
        except KeyError:
            self._permissions = None

    def _build_later(self) -> None:
        data = getattr(self, "_later", None)
        if data is None:  # built already (or copied by discord.py's Member._copy): an unset slot
            raise AttributeError("member")
        self._later = None
        user = self._user
        discord.Member.__init__(self, data=data, guild=self.guild, state=self._state)
        self._user = user  # made of the same payload; the object already handed out stays the member's


for _name in MEMBER_LATER:
    setattr(LeanMember, _name, _Later(getattr(discord.Member, _name)))

INTERACTION_LATER = ("entitlement_sku_ids", "entitlements", "_integration_owners", "context", "locale", "guild_locale")
_NOT_AGAIN = frozenset({"guild_id", "guild", "channel", "message", "member", "user"})  # not needed for the later ones


class LeanInteraction(discord.Interaction):
    """discord.py's ``Interaction`` of a slash command or of a press of a Deckhand component, its
    parts no press reads built when first read.

    ``Interaction._from_data`` (2.7.1) is followed step for step for what a press reads — ids,
    type, data, token, guild, channel, user, permissions, its message — except that the member
    is a :class:`LeanMember` and the clicked message of a Deckhand press a
    :class:`PressedMessage`. The entitlements, the authorizing integrations, the context and the
    two locales are left unset until one of them is read: that read runs discord.py's own
    ``_from_data`` on the same payload (without its guild, channel, member and message) and takes
    them from it. An ``Interaction``: everything else (its response, followup, command, the
    tree's and the views' handling) is discord.py's."""

    __slots__ = ("_later",)

    def _from_data(self, data: Any) -> None:
        self._later = data
        state = self._state
        self.id = int(data["id"])
        self.type = try_enum(discord.InteractionType, data["type"])
        self.data = data.get("data")
        self.token = data["token"]
        self.version = data["version"]
        self.guild_id = discord.utils._get_as_snowflake(data, "guild_id")
        self.channel = None
        self.application_id = int(data["application_id"])
        self.filesize_limit = data["attachment_size_limit"]
        guild = None
        if self.guild_id:
            guild = state._get_or_create_unavailable_guild(self.guild_id, data=data.get("guild"))
            if guild.me is None and self._client.user is not None:
                guild._add_member(discord.Member._from_client_user(user=self._client.user, guild=guild, state=state))
        raw_channel = data.get("channel", {})
        channel_id = discord.utils._get_as_snowflake(raw_channel, "id")
        if channel_id is not None and guild is not None:
            self.channel = guild and guild._resolve_channel(channel_id)
        raw_ch_type = raw_channel.get("type")
        if self.channel is None and raw_ch_type is not None:
            factory, ch_type = _threaded_channel_factory(raw_ch_type)
            if factory is None:
                logging.info("Unknown channel type {type} for channel ID {id}.".format_map(raw_channel))
            elif ch_type in (discord.ChannelType.group, discord.ChannelType.private):
                self.channel = factory(me=self._client.user, data=raw_channel, state=state)
            elif guild is not None:
                self.channel = factory(guild=guild, state=state, data=raw_channel)
        try:
            raw = data["message"]
        except KeyError:
            self.message = None
        else:
            if _own_press(data):  # Interaction._from_data's upgrade of a message without a guild, when built
                self.message = PressedMessage(state=state, channel=self.channel, data=raw, guild=guild)
            else:
                self.message = discord.Message(state=state, channel=self.channel, data=raw)
                if guild is not None and self.message.guild is None:
                    self.message.guild = guild
        self.user = discord.utils.MISSING
        self._permissions = 0
        self._app_permissions = int(data.get("app_permissions", 0))
        if guild is not None:
            try:
                member = data["member"]
            except KeyError:
                pass
            else:
                self.user = LeanMember(state=state, guild=guild, data=member)
                self._permissions = self.user._permissions or 0
        else:
            try:
                self.user = discord.User(state=state, data=data["user"])
            except KeyError:
                pass

    def _build_later(self) -> None:
        data = getattr(self, "_later", None)
        if data is None:
            raise AttributeError("interaction")
        self._later = None
        made = discord.Interaction(data={k: v for k, v in data.items() if k not in _NOT_AGAIN}, state=self._state)
        for name in INTERACTION_LATER:
            setattr(self, name, getattr(made, name))


for _name in INTERACTION_LATER:
    setattr(LeanInteraction, _name, _Later(getattr(discord.Interaction, _name)))
del _name


def _own_press(data: Any) -> bool:
    """A press of a Deckhand component (``dh2:…``) on a message."""
    inner = data.get("data")
    return (data.get("type") == 3 and isinstance(data.get("message"), dict) and isinstance(inner, dict)
            and isinstance(inner.get("custom_id"), str) and inner["custom_id"].startswith(f"{COMPONENT_PREFIX}:"))


def pressed_interaction(state: Any, data: Any) -> discord.Interaction | None:
    """discord.py's ``Interaction`` of a press of a Deckhand component on a message, as a
    :class:`LeanInteraction` (its message a :class:`PressedMessage`); None for any other payload
    (left to discord.py's own parser)."""
    if not _own_press(data) or (data.get("guild_id") is not None and not isinstance(data.get("member"), dict)):
        return None
    return LeanInteraction(data=data, state=state)


def command_interaction(state: Any, data: Any) -> discord.Interaction | None:
    """discord.py's ``Interaction`` of a slash command (or any application command) for the
    command tree, as a :class:`LeanInteraction`; None for any other payload or without a tree."""
    if data.get("type") != 2 or not state._command_tree or (
            data.get("guild_id") is not None and not isinstance(data.get("member"), dict)):
        return None
    return LeanInteraction(data=data, state=state)


def parse_presses_lazily(state: Any) -> None:
    """discord.py's ``INTERACTION_CREATE`` parser, for a press of a Deckhand component (``dh2:…``)
    on a message and for an application command: the same ``discord.Interaction`` made from the
    same payload as a :class:`LeanInteraction` (its clicked message a :class:`PressedMessage`),
    then the stored views' dispatch or the command tree's, and the ``interaction`` event, as the
    parser does them. Anything else (a text box, autocomplete, a press on another prefix or
    without a message, a guild payload without its member) goes through discord.py's own parser."""
    parsers = getattr(state, "parsers", None)
    parse = parsers.get("INTERACTION_CREATE") if isinstance(parsers, dict) else None
    if parse is None or not hasattr(state, "_view_store") or not hasattr(state, "_command_tree"):
        return  # another discord.py: leave it as it is

    def parse_interaction_create(data: Any) -> None:
        interaction = pressed_interaction(state, data)
        if interaction is not None:
            inner = data["data"]
            state._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)
        else:
            interaction = command_interaction(state, data)
            if interaction is None:
                return parse(data)
            state._command_tree._from_interaction(interaction)
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
