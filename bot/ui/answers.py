"""The first answer to an interaction, as discord.py's ``InteractionResponse`` makes it.

``edit_in_place`` and ``send`` post the same interaction callback (the body made by discord.py's
own ``interaction_message_response_params``, the request ``interaction.response.edit_message`` /
``send_message`` makes, sent on the bot's lean sender (bot.ui.wire) or through discord.py's own
webhook adapter, and an HTTP error raises as there), mark the response done
(``interaction.response.is_done()``), and keep a view that discord.py would keep. What they skip:
discord.py builds an ``InteractionCallbackResponse`` from Discord's answer, a whole
``discord.Message`` (its components, embeds, author) that Deckhand never reads; only the new
message's id is read from the answer.
"""

from __future__ import annotations

import contextlib

from typing import Any

import discord
from discord import utils
from discord.enums import InteractionResponseType
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bot.ui import wire
from bot.ui.components import PlainView

_ANSWERABLE_IN_PLACE = (discord.InteractionType.component, discord.InteractionType.modal_submit)


async def _post(interaction: discord.Interaction, params: Any, read: bool = True) -> Any:
    """The callback's request through the bot's sender's webhook adapter (bot.ui.wire), or
    discord.py's own when the client has none. ``read=False``: Discord's answer is not read (the
    sender gives None instead of parsing it)."""
    http = interaction._state.http
    with contextlib.nullcontext() if read else wire.unread():
        return await wire.adapter_of(interaction.client).create_interaction_response(
            interaction.id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, params=params)


def _message_id(data: Any) -> int | None:
    """The new message's id in Discord's answer to a callback (``with_response``)."""
    inner = data.get("interaction") if isinstance(data, dict) else None
    return utils._get_as_snowflake(inner, "response_message_id") if isinstance(inner, dict) else None


async def edit_in_place(interaction: discord.Interaction, *, content: Any = MISSING, embed: Any = MISSING,
                        view: Any = MISSING, attachments: Any = MISSING,
                        allowed_mentions: Any = MISSING) -> None:
    """``interaction.response.edit_message(...)``: the clicked message edited as the first answer."""
    response = interaction.response
    if response._response_type:
        raise discord.InteractionResponded(interaction)
    msg = interaction.message
    message_id = msg.id if msg is not None else None
    if interaction.type not in _ANSWERABLE_IN_PLACE:
        return
    state: Any = interaction._state
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content=content, embed=embed, view=view,
        attachments=attachments, previous_allowed_mentions=state.allowed_mentions, allowed_mentions=allowed_mentions)
    data = await _post(interaction, params, read=message_id is None)  # else the clicked message's id is the one
    response._response_type = InteractionResponseType.message_update
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id or _message_id(data))


def _ephemeral() -> discord.MessageFlags:
    flags = discord.MessageFlags._from_value(0)
    flags.ephemeral = True
    flags.suppress_embeds = False
    flags.suppress_notifications = False
    return flags


_EPHEMERAL = _ephemeral()  # made once: the request's builders only read its value


def ephemeral_flags(ephemeral: bool, view: Any = MISSING) -> Any:
    """A message's flags as discord.py's ``send_message`` and ``followup.send`` make them (MISSING
    when not ephemeral). One object for every message, made once: discord.py's request builders
    only read its ``value``, except with a components-v2 ``view`` (they mark the flags so), which
    gets flags of its own."""
    if not ephemeral:
        return MISSING
    if view is not MISSING and view is not None and view.has_components_v2():
        return _ephemeral()
    return _EPHEMERAL


async def send(interaction: discord.Interaction, content: Any = None, *, embed: Any = MISSING, view: Any = MISSING,
               files: Any = MISSING, ephemeral: bool = False, allowed_mentions: Any = MISSING,
               read_id: bool = True) -> int | None:
    """``interaction.response.send_message(...)``: a new message as the first answer; its id (when
    Discord says it). ``read_id=False``: the caller does not need the id (None is returned), and
    Discord's answer is read only when discord.py keeps the view sent (it keeps it by that id)."""
    response = interaction.response
    if response._response_type:
        raise discord.InteractionResponded(interaction)
    flags = ephemeral_flags(ephemeral, view)
    state: Any = interaction._state
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value, content=content, tts=False, embed=embed, files=files,
        previous_allowed_mentions=state.allowed_mentions, allowed_mentions=allowed_mentions, flags=flags, view=view)
    keeps_view = view is not MISSING and view is not None and type(view) is not PlainView and not view.is_finished()
    data = await _post(interaction, params, read=read_id or keeps_view)
    response._response_type = InteractionResponseType.channel_message
    message_id = _message_id(data)
    if view is not MISSING and not view.is_finished():
        if ephemeral and view.timeout is None:
            view.timeout = 15 * 60.0
        state.store_view(view, message_id)
    return message_id
