"""INTERACTION_CREATE payloads as Discord builds them: who and where (a guild member in a channel, a
DM with the bot, a private channel of a user-installed app), a slash command's options checked
against the command (from the bot's own tree, or from the schema it synced when the bot runs in
another process), a button's or a select's press on a message the bot posted, a modal's answers."""

from __future__ import annotations

import zlib
from typing import Any, Iterator

import discord

from bot.standin.fakes import DEFAULT_APP_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, FakeGuild
from bot.standin.records import StandInError, _wire

# Application command option types (Discord's numbers).
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(1, 12)


class _Option:
    """One option of a command, from discord.py's tree or from the synced JSON."""

    def __init__(self, name: str, type: int, *, required: bool, choices: list[Any], min_value: Any, max_value: Any,
                 autocomplete: bool, python_name: str | None = None) -> None:
        self.name, self.type, self.required, self.choices = name, type, required, choices
        self.min_value, self.max_value, self.autocomplete = min_value, max_value, autocomplete
        self.python_name = python_name or name

    @classmethod
    def of_parameter(cls, p: Any) -> _Option:
        return cls(p.display_name, p.type.value, required=p.required, choices=[c.value for c in p.choices or ()],
                   min_value=p.min_value, max_value=p.max_value, autocomplete=bool(p.autocomplete), python_name=p.name)

    @classmethod
    def of_json(cls, o: dict) -> _Option:
        lo, hi = o.get("min_value"), o.get("max_value")
        if o.get("type") == STRING:
            lo, hi = o.get("min_length", lo), o.get("max_length", hi)
        return cls(o["name"], o["type"], required=bool(o.get("required")), choices=[c["value"] for c in o.get("choices") or ()],
                   min_value=lo, max_value=hi, autocomplete=bool(o.get("autocomplete")))


class Payloads:
    """Building interaction payloads for :class:`DiscordStandIn` (a part of it)."""

    application_id: int
    guilds: dict[int, FakeGuild]
    channels: dict[int, dict]
    private_channels: set[int]
    commands: dict[int | None, list[dict]]

    def _context(self, user: dict, guild: FakeGuild | None, channel: dict | None) -> dict:
        """The where/who part of an interaction payload (guild member + channel, or DM user + channel)."""
        if guild is not None:
            channel = channel or guild.channel
            if channel.get("guild_id") != str(guild.id):
                raise StandInError(f"channel {channel['id']} is not in guild {guild.id}")
            member = dict(guild.member(user))
            member.setdefault("permissions", DEFAULT_MEMBER_PERMISSIONS)
            ch = dict(channel)
            ch["permissions"] = member["permissions"]
            return {
                "guild_id": str(guild.id),
                "guild": guild.partial(),
                "guild_locale": guild.locale,
                "member": member,
                "channel": ch,
                "channel_id": channel["id"],
                "context": 0,
                "authorizing_integration_owners": {"0": str(guild.id)},
            }
        channel = channel or self.dm_channel(user)
        if channel.get("guild_id"):
            raise StandInError("guild=None (a DM) but the channel belongs to a guild")
        if int(channel["id"]) in self.private_channels:  # a user-installed app in people's own DM or group DM
            return {
                "user": user,
                "channel": channel,
                "channel_id": channel["id"],
                "context": 2,
                "authorizing_integration_owners": {"1": user["id"]},
            }
        return {
            "user": user,
            "channel": channel,
            "channel_id": channel["id"],
            "context": 1,
            "authorizing_integration_owners": {"0": "0"},
        }

    def _payload(
        self, type_: int, data: dict, user: dict, guild: FakeGuild | None, channel: dict | None, locale: str = "en-US"
    ) -> dict:
        p = {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": type_,
            "token": f"standin-token-{self.snowflake()}",
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": DEFAULT_APP_PERMISSIONS,
            "locale": user.get("locale", locale) if locale == "en-US" else locale,  # a user's own language, if set
            "entitlements": [],
            "entitlement_sku_ids": [],
            "data": data,
        }
        p.update(self._context(user, guild, channel))
        return p

    # --- slash commands -------------------------------------------------------------------------
    def _lookup_command(self, bot: Any, path: str, guild: FakeGuild | None) -> tuple[dict, list[_Option], int | None]:
        """(the root command's JSON, the invoked command's options, its guild or None) from the bot's tree."""
        parts = path.split()
        if not parts:
            raise StandInError("empty command path")
        tree = bot.tree
        root, cmd_guild = None, None
        if guild is not None:
            root = tree.get_command(parts[0], guild=discord.Object(guild.id))
            if root is not None:
                cmd_guild = guild.id
        if root is None:
            root = tree.get_command(parts[0])
        if root is None:
            elsewhere = [gid for gid in self.guilds if tree.get_command(parts[0], guild=discord.Object(gid)) is not None]
            if elsewhere:
                where = "in DMs" if guild is None else f"in guild {guild.id}"
                raise StandInError(f"/{parts[0]} is a guild command of {elsewhere}; Discord does not offer it {where}")
            raise StandInError(f"the bot has no slash command /{parts[0]}")
        cmd = root
        for name in parts[1:]:
            sub = cmd.get_command(name) if isinstance(cmd, discord.app_commands.Group) else None
            if sub is None:
                raise StandInError(f"/{path}: no subcommand {name!r}")
            cmd = sub
        if isinstance(cmd, discord.app_commands.Group):
            raise StandInError(f"/{path} is a group; Discord only invokes its subcommands")
        return root.to_dict(tree), [_Option.of_parameter(p) for p in cmd.parameters], cmd_guild

    def _lookup_synced(self, path: str, guild: FakeGuild | None) -> tuple[dict, list[_Option], int | None]:
        """The same from the commands the bot synced (``tree.sync()``): for a bot in another process."""
        parts = path.split()
        if not parts:
            raise StandInError("empty command path")

        def find(gid: int | None) -> dict | None:
            return next((c for c in self.commands.get(gid, []) if c["name"] == parts[0] and c.get("type", 1) == 1), None)

        root, cmd_guild = (find(guild.id), guild.id) if guild is not None else (None, None)
        if root is None:
            root, cmd_guild = find(None), None
        if root is None:
            raise StandInError(f"the bot synced no slash command /{parts[0]}" + (f" for guild {guild.id}" if guild else ""))
        options = root.get("options") or []
        for name in parts[1:]:
            sub = next((o for o in options if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
            if sub is None:
                raise StandInError(f"/{path}: no subcommand {name!r}")
            options = sub.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
            raise StandInError(f"/{path} is a group; Discord only invokes its subcommands")
        return root, [_Option.of_json(o) for o in options], cmd_guild

    @staticmethod
    def _check_context(spec: dict, cmd_guild: int | None, guild: FakeGuild | None, path: str,
                       private: bool = False) -> None:
        ctx = spec.get("contexts")
        if guild is None:
            if cmd_guild is not None:
                raise StandInError(f"/{path} is a guild command; Discord does not offer it in DMs")
            if spec.get("dm_permission") is False:
                raise StandInError(f"/{path} is guild_only; Discord does not offer it in DMs")
            if private and ctx is not None and 2 not in ctx:
                raise StandInError(f"/{path} has contexts={ctx}; Discord does not offer it in a private channel")
            if not private and ctx is not None and 1 not in ctx:
                raise StandInError(f"/{path} has contexts={ctx}; Discord does not offer it in a bot DM")
        elif cmd_guild is None and ctx is not None and 0 not in ctx:
            raise StandInError(f"/{path} has contexts={ctx}; Discord does not offer it in a guild")

    def _option_value(self, opt: _Option, value: Any, resolved: dict, guild: FakeGuild | None) -> Any:
        t = opt.type
        if t == STRING:
            return str(value)
        if t == INTEGER:
            if isinstance(value, bool) or int(value) != value:
                raise StandInError(f"option {opt.name}: {value!r} is not an integer")
            return int(value)
        if t == BOOLEAN:
            if not isinstance(value, bool):
                raise StandInError(f"option {opt.name}: {value!r} is not a boolean")
            return value
        if t == NUMBER:
            return float(value)
        if t in (USER, MENTIONABLE) and isinstance(value, dict) and "username" in value:
            resolved.setdefault("users", {})[value["id"]] = value
            if guild is not None:
                m = {k: v for k, v in guild.member(value).items() if k != "user"}
                m["permissions"] = DEFAULT_MEMBER_PERMISSIONS
                resolved.setdefault("members", {})[value["id"]] = m
            return value["id"]
        if t == CHANNEL and isinstance(value, dict):
            ch = {k: value[k] for k in ("id", "name", "type", "parent_id", "thread_metadata") if k in value}
            ch["permissions"] = DEFAULT_MEMBER_PERMISSIONS
            resolved.setdefault("channels", {})[value["id"]] = ch
            return value["id"]
        if t == ATTACHMENT and isinstance(value, dict) and "filename" in value:  # an attachment (see upload())
            resolved.setdefault("attachments", {})[value["id"]] = value
            return value["id"]
        if t in (ROLE, MENTIONABLE) and isinstance(value, dict):
            resolved.setdefault("roles", {})[value["id"]] = value
            return value["id"]
        raise StandInError(f"option {opt.name}: cannot build a type-{t} option from {value!r}")

    def _command_data(
        self, bot: Any, path: str, options: dict | None, guild: FakeGuild | None, focused: str | None = None,
        channel: dict | None = None,
    ) -> dict:
        """The ``data`` of a slash command (or of its autocomplete, ``focused`` on one option), checked
        as Discord's client checks it. ``bot=None``: from the commands the bot synced."""
        spec, opts, cmd_guild = self._lookup_command(bot, path, guild) if bot is not None else self._lookup_synced(path, guild)
        private = channel is not None and int(channel["id"]) in self.private_channels
        self._check_context(spec, cmd_guild, guild, path, private)
        options = dict(options or {})
        params = {o.name: o for o in opts}
        by_py = {o.python_name: o for o in opts}
        resolved: dict = {}
        leaf: list[dict] = []
        given = {}
        for key, value in options.items():
            opt = params.get(key) or by_py.get(key)
            if opt is None:
                raise StandInError(f"/{path} has no option {key!r}; it has {list(params)}")
            given[opt.name] = (opt, value)
        if focused is not None:
            fopt = params.get(focused) or by_py.get(focused)
            if fopt is None:
                raise StandInError(f"/{path} has no option {focused!r} to autocomplete")
            if not fopt.autocomplete:
                raise StandInError(f"/{path} option {focused!r} has no autocomplete")
            focused = fopt.name
            given.setdefault(focused, (fopt, ""))
        for name, opt in params.items():
            if name not in given:
                if opt.required and focused is None:
                    raise StandInError(f"/{path}: required option {name!r} missing (Discord would not send it)")
                continue
            _, value = given[name]
            if name == focused:
                leaf.append({"name": name, "type": opt.type, "value": str(value), "focused": True})
                continue
            v = self._option_value(opt, value, resolved, guild)
            if focused is None:
                if opt.choices and v not in opt.choices:
                    raise StandInError(f"/{path} {name}={v!r} is not one of its choices")
                lo, hi = opt.min_value, opt.max_value
                n = len(v) if isinstance(v, str) else v
                if isinstance(n, (int, float)) and ((lo is not None and n < lo) or (hi is not None and n > hi)):
                    raise StandInError(f"/{path} {name}={v!r} is outside [{lo}, {hi}]")
            leaf.append({"name": name, "type": opt.type, "value": v})
        parts = path.split()
        nested = leaf
        for i in range(len(parts) - 1, 0, -1):
            nested = [{"name": parts[i], "type": SUB_COMMAND if i == len(parts) - 1 else SUB_COMMAND_GROUP,
                       "options": nested}]
        stored = [c for c in self.commands.get(cmd_guild, []) if c["name"] == parts[0] and c.get("type", 1) == 1]
        data: dict[str, Any] = {
            "id": stored[0]["id"] if stored else str((1 << 59) + zlib.crc32(f"{parts[0]}:{cmd_guild}".encode())),
            "name": parts[0],
            "type": 1,
            "options": nested,
        }
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        if resolved:
            data["resolved"] = resolved
        return data

    # --- components and modals ------------------------------------------------------------------
    @staticmethod
    def _check_visible(msg: dict, user: dict) -> None:
        owner = msg.get("_owner_id")
        if owner is not None and owner != int(user["id"]):
            raise StandInError(f"message {msg['id']} is ephemeral to user {owner}; {user['id']} cannot see it")

    def _component_payload(self, msg: dict, data: dict, user: dict) -> dict:
        guild, ch = self._where(msg["channel_id"])
        payload = self._payload(3, data, user, guild, ch)
        payload["message"] = _wire(msg)
        return payload

    def _modal_answer(self, comps: list[dict], values: dict[str, Any], used: set[str], counter: Iterator[int]) -> list:
        out = []
        for c in comps:
            t = c.get("type")
            cid = c.get("custom_id")
            ident = c.get("id", next(counter))
            if t == 1:
                out.append(
                    {"type": 1, "id": ident, "components": self._modal_answer(c.get("components", []), values, used, counter)}
                )
            elif t == 18:
                out.append(
                    {"type": 18, "id": ident, "component": self._modal_answer([c["component"]], values, used, counter)[0]}
                )
            elif t == 4:
                v = values.get(cid, c.get("value") or "")
                used.add(cid)
                if c.get("required", True) and not v:
                    raise StandInError(f"modal text input {cid!r} is required")
                lo, hi = c.get("min_length"), c.get("max_length")
                if v and ((lo is not None and len(v) < lo) or (hi is not None and len(v) > hi)):
                    raise StandInError(f"modal text input {cid!r}: {len(v)} characters, allowed [{lo}, {hi}]")
                out.append({"type": 4, "id": ident, "custom_id": cid, "value": str(v)})
            elif t in (3, 5, 6, 7, 8, 19, 22):
                v = values.get(cid, [])
                used.add(cid)
                if t == 3:  # a string select in a box takes what Discord's client lets a person pick
                    options = [o["value"] for o in c.get("options", [])]
                    bad = [x for x in v if x not in options]
                    if bad:
                        raise StandInError(f"modal select {cid!r} has no option(s) {bad}; options: {options}")
                    lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                    if (c.get("required", True) or v) and not lo <= len(v) <= hi or len(v) > hi:
                        raise StandInError(f"modal select {cid!r} takes {lo}-{hi} values, got {len(v)}")
                out.append({"type": t, "id": ident, "custom_id": cid, "values": list(v)})
            elif t in (21, 23):
                used.add(cid)
                out.append({"type": t, "id": ident, "custom_id": cid, "value": values.get(cid)})
            else:
                out.append({"type": t, "id": ident})
        return out
