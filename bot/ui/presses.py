"""A press of one of Deckhand's components (``dh2:…``), from the gateway's payload to its handler.

discord.py parses every press into a whole ``discord.Message`` of the clicked message and rebuilds
that message's whole View to find the item pressed; Deckhand's handlers read neither. Here the
clicked message is built only when read (:class:`PressedMessage`) and the pressed component alone
becomes an item (:func:`answer_own_presses`); everything else is discord.py's own road. And a
handled interaction is let go of (:func:`let_go`) as soon as nothing holds it.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import discord

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
