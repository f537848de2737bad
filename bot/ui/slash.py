"""The slash commands' tree: every command worked on through the bot's turnstile
(bot.ui.turnstile), and a plain one called without discord.py's generic machinery.

discord.py answers every slash command by building a ``Namespace`` of its options (with the
payload's resolved users, members, channels and roles), then a dict of arguments from it, each
through its parameter's transformer. A plain command's options (strings, integers, booleans, to
parameters whose transformer gives the value back: ``/game move``, ``/game hand``, ``/game
join``…) come out of all that exactly as the payload has them. Here such a command's arguments are read from the
payload (:func:`plain_call`) and the rest of the tree's road is kept step for step
(:meth:`GatedTree._call_plain`). Anything else — a context menu, an option of another type (a
number, a user, a channel…) or through a transformer of its own (a ``Choice``), resolved data, a
command or option the tree does not know, a required option missing, autocomplete — goes through
the tree as before.
"""

from __future__ import annotations

import weakref
from typing import Any

import discord
from discord import app_commands
from discord.app_commands.errors import AppCommandError, CheckFailure
from discord.app_commands.transformers import IdentityTransformer

from bot.ui.presses import let_go

PLAIN_OPTIONS = frozenset({3, 4, 5})  # string, integer, boolean: the Namespace keeps their values as sent


def _plain(param: Any) -> bool:
    """A parameter whose transformer gives back the value it is given (a plain ``str``, ``int`` or
    ``bool``, a ``Range`` of them, one with choices as plain values): discord.py's own
    ``IdentityTransformer.transform``, not a choice's lookup."""
    annotation = param._annotation
    return (getattr(type(annotation), "transform", None) is IdentityTransformer.transform
            and not getattr(annotation, "__discord_app_commands_is_choice__", True))


_PARAMETERS: "weakref.WeakKeyDictionary[Any, tuple[dict[str, str], tuple[tuple[str, bool, Any], ...]]]" = \
    weakref.WeakKeyDictionary()


def _parameters(command: Any) -> tuple[dict[str, str], tuple[tuple[str, bool, Any], ...]]:
    """A command's plain parameters by the name Discord sends (to its argument's name), and every
    parameter's argument name, whether it is required and its default; worked out once a command."""
    found = _PARAMETERS.get(command)
    if found is None:
        params = tuple(command._params.values())
        found = _PARAMETERS[command] = ({p.display_name: p.name for p in params if _plain(p)},
                                        tuple((p.name, p.required, p.default) for p in params))
    return found


def plain_call(tree: app_commands.CommandTree, interaction: discord.Interaction) -> tuple[Any, dict[str, Any]] | None:
    """A chat-input command whose every option is plain, and the arguments the tree would call it
    with: each option's value as sent, the default of each parameter left out. None for anything
    else (the tree's own road)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    data: Any = interaction.data
    if not isinstance(data, dict) or data.get("type", 1) != 1 or data.get("resolved"):
        return None
    try:
        command, options = tree._get_app_command_options(data)  # the tree's own lookup (guild copies too)
        if type(command) is not app_commands.Command:
            return None
        plain, params = _parameters(command)
        values: dict[str, Any] = {}
        for option in options:
            name = plain.get(option.get("name"))  # type: ignore[arg-type]
            if name is None or option.get("type") not in PLAIN_OPTIONS or "value" not in option:
                return None
            values[name] = option["value"]  # type: ignore[typeddict-item]
    except Exception:  # noqa: BLE001 — not found, or a payload out of shape: the tree raises it, after its check
        return None
    if len(values) != len(options):  # an option named twice
        return None
    for name, required, default in params:
        if name not in values:
            if required:  # the tree says the signature does not match
                return None
            values[name] = default
    return command, values


class GatedTree(app_commands.CommandTree):
    """The slash commands, each worked on through the bot's turnstile (bot.ui.turnstile)."""

    async def _call(self, interaction: discord.Interaction) -> None:
        async with self.client.turnstile():  # type: ignore[attr-defined]
            call = plain_call(self, interaction)
            if call is None:
                await super()._call(interaction)
            else:
                await self._call_plain(interaction, *call)
        # Handled (an error raised instead goes to discord.py's error handler, which still needs it).
        # Held here: this frame's argument and discord.py's invoker closure's cell.
        let_go(interaction, 2)

    async def _call_plain(self, interaction: discord.Interaction, command: Any, arguments: dict[str, Any]) -> None:
        """``CommandTree._call`` of a chat-input command (2.7.1) with its arguments already read:
        the tree's check, the command's checks (its group's and its cog's ``interaction_check``
        too), its callback with discord.py's wrapping of an error, the command's and the tree's
        error handlers, and the completion event. ``interaction.command`` is set as the tree sets
        it; ``interaction.namespace``, read by nothing on this road, is the tree's own when read."""
        if not await self.interaction_check(interaction):
            interaction.command_failed = True
            return
        interaction._cs_command = command  # type: ignore[attr-defined]
        try:
            if not await command._check_can_run(interaction):
                raise CheckFailure(f"The check functions for command {command.name!r} failed.")
            await command._do_call(interaction, arguments)
        except AppCommandError as e:
            interaction.command_failed = True
            await command._invoke_error_handlers(interaction, e)
            await self.on_error(interaction, e)
        else:
            if not interaction.command_failed:
                self.client.dispatch("app_command_completion", interaction, command)
