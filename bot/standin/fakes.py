"""The people and places the stand-in knows: users, guilds (channels, roles, members), the bot's DMs
and the private channels a user-installed app is used in, all as the JSON Discord sends."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterator

import discord

from bot.standin.records import DISCORD_EPOCH_MS, StandInError, _now_iso

if TYPE_CHECKING:
    from bot.standin.server import DiscordStandIn

# What a plain member and the bot's app may both do in a channel: view/send/read history/embed/attach/react/external emoji.
_CHANNEL_BASICS = dict(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
)
# A plain member also uses app commands; the app also runs private threads and manages messages.
DEFAULT_MEMBER_PERMISSIONS = str(discord.Permissions(**_CHANNEL_BASICS, use_application_commands=True).value)
DEFAULT_APP_PERMISSIONS = str(discord.Permissions(**_CHANNEL_BASICS, create_private_threads=True, manage_threads=True,
                                                  manage_messages=True, mention_everyone=False).value)


class FakeGuild:
    """A guild known to the stand-in: channels, roles, members (all as Discord JSON dicts)."""

    def __init__(self, standin: DiscordStandIn, id: int, name: str, owner_id: int) -> None:
        self.standin = standin
        self.id = id
        self.name = name
        self.owner_id = owner_id
        self.locale = "en-US"
        self.roles: list[dict] = [self._role_json(id, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0)]
        self.channels: list[dict] = []
        self.members: dict[int, dict] = {}

    def __repr__(self) -> str:
        return f"<FakeGuild id={self.id} name={self.name!r}>"

    @staticmethod
    def _role_json(id: int, name: str, permissions: str, position: int) -> dict:
        return {
            "id": str(id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": permissions,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    @property
    def channel(self) -> dict:
        """The first text channel (created on demand as #general)."""
        for ch in self.channels:
            if ch["type"] == 0:
                return ch
        return self.text_channel("general")

    def text_channel(self, name: str = "general", id: int | None = None) -> dict:
        ch = {
            "id": str(id or self.standin.snowflake()),
            "type": 0,
            "guild_id": str(self.id),
            "name": name,
            "position": len(self.channels),
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "permission_overwrites": [],
            "flags": 0,
        }
        self.channels.append(ch)
        self.standin.channels[int(ch["id"])] = ch
        return ch

    def role(self, name: str, permissions: int | str = 0, id: int | None = None) -> dict:
        role = self._role_json(id or self.standin.snowflake(), name, str(int(permissions)), len(self.roles))
        self.roles.append(role)
        return role

    def add_member(
        self, user: dict, roles: list[dict | int] = (), nick: str | None = None, permissions: int | None = None
    ) -> dict:
        """Make user a member (with roles and, optionally, the channel permissions its interactions carry)."""
        member = {
            "user": user,
            "nick": nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r["id"] if isinstance(r, dict) else r) for r in roles],
            "joined_at": _now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            member["permissions"] = str(int(permissions))
        self.members[int(user["id"])] = member
        return member

    def member(self, user: dict) -> dict:
        """The member dict for user (added without roles if not yet a member)."""
        return self.members.get(int(user["id"])) or self.add_member(user)

    def partial(self) -> dict:
        return {"id": str(self.id), "locale": self.locale, "features": []}

    def create_payload(self) -> dict:
        """The GUILD_CREATE `d` for this guild (the bot is a member)."""
        _ = self.channel  # ensure one text channel
        bot_member = dict(self.member(self.standin.bot_user))
        members = [bot_member] + [m for uid, m in self.members.items() if uid != self.standin.application_id]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self.roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [c for c in self.channels if c["type"] not in (11, 12)],
            "threads": [c for c in self.channels if c["type"] in (11, 12)],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


class People:
    """The stand-in's users, guilds and private channels (a part of :class:`DiscordStandIn`)."""

    application_id: int
    bot_user: dict
    owner: dict
    users: dict[int, dict]
    guilds: dict[int, FakeGuild]
    channels: dict[int, dict]
    private_channels: set[int]
    _counter: Iterator[int]
    _last_snowflake: int
    _default_user: dict | None

    # --- ids and fixtures -----------------------------------------------------------------------
    def snowflake(self) -> int:
        """A fresh, increasing snowflake with a realistic timestamp."""
        sf = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0xFFF)
        sf = max(sf, self._last_snowflake + 1)
        self._last_snowflake = sf
        return sf

    def user(self, id: int | None = None, name: str | None = None, *, bot: bool = False) -> dict:
        """Make (and remember) a user dict as Discord sends it."""
        uid = id or self.snowflake()
        name = name or f"user{uid % 10000}"
        u = {
            "id": str(uid),
            "username": name,
            "global_name": name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "avatar_decoration_data": None,
        }
        if hasattr(self, "users"):
            self.users[uid] = u
        return u

    @property
    def default_user(self) -> dict:
        if self._default_user is None:
            self._default_user = self.user(name="tester")
        return self._default_user

    def guild(self, id: int | None = None, name: str = "Test Guild", *, channel: str = "general") -> FakeGuild:
        """A guild with one text channel (``g.channel``); add more with g.text_channel()/role()/add_member()."""
        g = FakeGuild(self, id or self.snowflake(), name, int(self.owner["id"]))
        g.text_channel(channel)
        g.add_member(self.owner)
        self.guilds[g.id] = g
        return g

    def dm_channel(self, user: dict) -> dict:
        """The DM channel between the bot and user (created on first use, same id as POST /users/@me/channels)."""
        for cid, ch in self.channels.items():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == user["id"] and cid not in self.private_channels:
                return ch
        ch = {"id": str(self.snowflake()), "type": 1, "last_message_id": None, "flags": 0, "recipients": [user]}
        self.channels[int(ch["id"])] = ch
        return ch

    def private_channel(self, *users: dict, name: str | None = None) -> dict:
        """A DM between two people, or a group DM of more, that the bot is not in: a user-installed
        app is used there through interactions only, and its channel routes answer 403 Missing
        Access, as Discord's do. Pass everyone in it (the one who will use the app first)."""
        if len(users) < 2:
            raise StandInError("a private channel needs at least two people in it")
        cid = self.snowflake()
        if len(users) == 2:
            ch = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0, "recipients": [users[1]]}
        else:
            ch = {"id": str(cid), "type": 3, "last_message_id": None, "flags": 0, "recipients": list(users[1:]),
                  "name": name, "icon": None, "owner_id": users[0]["id"]}
        self.channels[cid] = ch
        self.private_channels.add(cid)
        return ch

    def _where(self, channel_id: int | str) -> tuple[FakeGuild | None, dict]:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise StandInError(f"unknown channel {channel_id}")
        gid = ch.get("guild_id")
        return (self.guilds[int(gid)] if gid else None), ch
