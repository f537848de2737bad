"""A Discord stand-in on 127.0.0.1: REST API + gateway websocket, and a driver for tests.

discord.py stays real; only the network edge is fake (see /work/shared/TESTING.md).

Typical use (conftest wraps these)::

    async with running_standin() as standin:          # server + discord.py pointed at it
        async with logged_in(make_bot()) as bot:       # real bot.login("fake-token")
            alice = standin.user(name="alice")
            g = standin.guild()
            res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice, guild=g)
            res2 = await standin.click(bot, res.message_id, label="Join", user=alice)

Every driver call (slash/autocomplete/click/select/submit_modal/interact) feeds a realistic
INTERACTION_CREATE payload through discord.py's own parser, waits for discord.py to finish handling it
(``settle``), re-raises anything discord.py logged at ERROR, and returns an ``InteractionResult`` holding
exactly what the bot sent back for that interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as _dt
import itertools
import json
import logging
import re
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Iterator

import yarl
from aiohttp import WSMsgType, web

import discord
import discord.gateway
import discord.http

__all__ = [
    "DiscordStandIn",
    "FakeGuild",
    "InteractionResult",
    "Request",
    "StandInError",
    "UploadedFile",
    "Shown",
    "fail_on_discord_errors",
    "guild_cached",
    "logged_in",
    "running_standin",
    "walk_components",
]

DISCORD_EPOCH_MS = 1420070400000
# How long a wait may last before a test fails as hung. Every wait here is for an event (discord.py's
# handler tasks finishing, the bot receiving a gateway frame); this is only the safety net, so it is
# long enough that no loaded machine reaches it (a short deadline made the suite flaky under load).
SAFETY_TIMEOUT = 120.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Names of the asyncio tasks discord.py 2.7.1 spawns while handling an interaction / event.
DISPATCH_TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord-ui-dynamic-item-",
    "discord.py: ",
)

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

_MENTION_RE = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")


class StandInError(AssertionError):
    """A test drove the stand-in in a way real Discord would not allow, or the bot misbehaved."""


@dataclass
class UploadedFile:
    """A file part of a multipart request (or a stored attachment)."""

    filename: str
    data: bytes
    content_type: str | None = None
    field: str | None = None


@dataclass
class Request:
    """One HTTP request discord.py made to the stand-in (path is relative to /api/v10)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile] = field(default_factory=list)
    status: int | None = None
    auth: str | None = None  # the Authorization header ("Bot <token>"), to tell bot processes apart


@dataclass
class Shown:
    """One thing the bot showed someone, as it was at that moment (later edits never change it).

    ``kind``: ``"message"`` (a message as created, or as it became after one edit), ``"modal"``
    (a modal's payload, callback type 9) or ``"autocomplete"`` (the choices of callback type 8).
    ``reader``: the one user who sees it (an ephemeral message's or a DM's user, the user a modal
    or autocomplete answered), or ``None`` for everyone in the channel. ``how`` says which request
    made it: ``send`` (POST channel message), ``edit`` (PATCH channel message), ``response``
    (callback 4), ``deferred`` (callback 5), ``update`` (callback 7), ``webhook-edit`` (PATCH
    @original or a follow-up), ``followup`` (POST webhook), ``modal``, ``autocomplete``.
    ``version`` counts the versions of one message from 0 (its creation). ``payload``: a deep copy
    of the message (``_wire`` form) or of the callback's data; ``files``: the attachments' bytes as
    received (a message's, in the order of its ``attachments``)."""

    seq: int
    kind: str
    how: str
    reader: int | None
    payload: dict
    message_id: int | None = None
    channel_id: int | None = None
    version: int = 0
    interaction_user: int | None = None  # who pressed/typed what made the bot show it (None: no interaction)
    files: list[UploadedFile] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.payload.get("flags") or 0) & EPHEMERAL) if self.kind == "message" else True


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


def _json_response(data: Any, status: int = 200) -> web.Response:
    # Content-Type must be exactly "application/json" (discord.py compares the header verbatim).
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return _json_response(body, status)


def walk_components(components: list[dict] | None) -> Iterator[dict]:
    """Every component dict in a message/modal component tree (rows, containers, sections, labels)."""
    for comp in components or []:
        yield comp
        yield from walk_components(comp.get("components"))
        if isinstance(comp.get("component"), dict):
            yield from walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])


def _wire(msg: dict) -> dict:
    """The message JSON as Discord would send it (drops the stand-in's private bookkeeping keys)."""
    return {k: v for k, v in msg.items() if not k.startswith("_")}


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _format_record(rec: logging.LogRecord) -> str:
    text = f"{rec.name}: {rec.getMessage()}"
    if rec.exc_info and rec.exc_info[1] is not None:
        text += f" [{type(rec.exc_info[1]).__name__}: {rec.exc_info[1]}]"
    return text


@contextlib.contextmanager
def fail_on_discord_errors(logger_name: str = "discord") -> Iterator[list[logging.LogRecord]]:
    """Collect ERROR logs of ``logger_name`` (and children); raise AssertionError at exit if any."""
    handler = _ErrorCollector()
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
    if handler.records:
        raise AssertionError(
            f"{len(handler.records)} ERROR log(s) from {logger_name!r}:\n"
            + "\n".join(_format_record(r) for r in handler.records)
        )


# --------------------------------------------------------------------------------------------------
# Guilds
# --------------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------------
# Interaction results
# --------------------------------------------------------------------------------------------------


class InteractionResult:
    """Everything the bot sent in answer to one interaction (callback, @original edits, follow-ups)."""

    def __init__(self, standin: DiscordStandIn, payload: dict) -> None:
        self.standin = standin
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]  # the interaction type (2 command, 3 component, 4 autocomplete, 5 modal)
        self.channel_id: int | None = int(payload["channel_id"]) if payload.get("channel_id") else None
        self.guild_id: int | None = int(payload["guild_id"]) if payload.get("guild_id") else None
        who = payload.get("member", {}).get("user") or payload.get("user") or {}
        self.user_id: int | None = int(who["id"]) if who else None
        self.source_message_id: int | None = int(payload["message"]["id"]) if isinstance(payload.get("message"), dict) else None
        self.callbacks: list[dict] = []  # {"type": int, "data": dict | None, "files": [UploadedFile]}
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.edits: list[dict] = []  # bodies of @original / webhook message edits made with this token
        self.requests: list[Request] = []  # every request made while this interaction was handled
        self.expect_answer = True

    def __repr__(self) -> str:
        cb = self.callback_type
        return (
            f"<InteractionResult type={self.type} callback={cb} message_id={self.message_id} "
            f"ephemeral={self.ephemeral} followups={len(self.followup_ids)}>"
        )

    # --- the callback ------------------------------------------------------------------------
    @property
    def answered(self) -> bool:
        return bool(self.callbacks)

    @property
    def callback(self) -> dict:
        if not self.callbacks:
            raise StandInError(f"the bot never answered interaction {self.id} (Discord: 'This interaction failed')")
        return self.callbacks[0]

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete, 9 modal."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def data(self) -> dict:
        return self.callback.get("data") or {}

    # --- the message the callback created or updated -------------------------------------------
    @property
    def message_id(self) -> int | None:
        """Id of the message the answer created (4/5) or updated (6/7 on the clicked message)."""
        if self.original_message_id is not None:
            return self.original_message_id
        return self.followup_ids[0] if self.followup_ids else None

    @property
    def message(self) -> dict | None:
        mid = self.message_id
        if mid is None:
            return None
        return self.standin.messages.get(mid) or self.standin.deleted_messages.get(mid)

    def _msg_or_data(self, key: str, default: Any) -> Any:
        msg = self.message
        if msg is not None and (self.callback_type in (4, 5, 6, 7) or not self.callbacks):
            return msg.get(key, default)
        if self.callbacks:
            return self.data.get(key, default) if self.data.get(key) is not None else default
        return default

    @property
    def flags(self) -> int:
        return int(self._msg_or_data("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str:
        return self._msg_or_data("content", "") or ""

    @property
    def embeds(self) -> list[dict]:
        return self._msg_or_data("embeds", []) or []

    @property
    def embed(self) -> dict:
        if not self.embeds:
            raise StandInError(f"no embed in the answer: {self!r}")
        return self.embeds[0]

    @property
    def components(self) -> list[dict]:
        return self._msg_or_data("components", []) or []

    @property
    def allowed_mentions(self) -> dict | None:
        return self._msg_or_data("allowed_mentions", None)

    @property
    def files(self) -> list[UploadedFile]:
        mid = self.message_id
        if mid is not None and (self.callback_type in (4, 5, 6, 7) or not self.callbacks):
            return self.standin.files(mid)
        return [f for cb in self.callbacks for f in cb["files"]]

    @property
    def text(self) -> str:
        """Content plus every embed's title/description/fields/footer, for loose assertions."""
        return self.standin.message_text(self.message) if self.message else self.content

    @property
    def modal(self) -> dict | None:
        return self.data if self.callback_type == 9 else None

    @property
    def choices(self) -> list[dict] | None:
        return self.data.get("choices", []) if self.callback_type == 8 else None

    @property
    def followups(self) -> list[dict]:
        return [self.standin.messages.get(i) or self.standin.deleted_messages[i] for i in self.followup_ids]

    @property
    def messages(self) -> list[dict]:
        """The original response message (if any) followed by the follow-ups."""
        out = [self.message] if self.original_message_id is not None and self.message else []
        return out + [m for m in self.followups if m not in out]

    # --- finders --------------------------------------------------------------------------------
    def _mid(self, message_id: int | None) -> int:
        mid = message_id if message_id is not None else self.message_id
        if mid is None:
            raise StandInError(f"this answer has no message: {self!r}")
        return mid

    def buttons(self, message_id: int | None = None) -> list[tuple[str | None, str | None, bool]]:
        return self.standin.buttons(self._mid(message_id))

    def find_button(self, *args: Any) -> str:
        """find_button(label_substring) on this answer's message, or find_button(message_id, label_substring)."""
        if len(args) == 2:
            return self.standin.find_button(args[0], args[1])
        (label,) = args
        return self.standin.find_button(self._mid(None), label)


# --------------------------------------------------------------------------------------------------
# The stand-in
# --------------------------------------------------------------------------------------------------


class DiscordStandIn:
    """Fake Discord (REST under /api/v10 and a gateway websocket) on 127.0.0.1."""

    def __init__(self, *, application_id: int | None = None, bot_name: str = "Deckhand") -> None:
        self._last_snowflake = 0
        self._counter = itertools.count(1)
        self.application_id: int = application_id or self.snowflake()
        self.bot_user: dict = {
            "id": str(self.application_id),
            "username": bot_name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "public_flags": 0,
            "email": None,
        }
        self.owner: dict = self.user(name="owner")
        self.port: int | None = None
        self.requests: list[Request] = []
        self.unhandled: list[Request] = []
        self.rejected: list[tuple[Request, str]] = []  # requests real Discord would refuse (400), with why
        self.users: dict[int, dict] = {self.application_id: self.bot_user, int(self.owner["id"]): self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.deleted_messages: dict[int, dict] = {}
        self.attachments: dict[int, UploadedFile] = {}
        self.commands: dict[int | None, list[dict]] = {}  # guild_id (None = global) -> stored commands
        self.command_puts: list[tuple[int | None, list[dict]]] = []  # every bulk upsert body, in order
        self.modals: list[dict] = []
        # Everything the bot ever showed, oldest first: every version of every message (creation and
        # each edit, however made), ephemeral ones with their reader, modals and autocomplete choices.
        self.shown: list[Shown] = []
        self.versions: dict[int, list[Shown]] = {}  # message id -> its versions, oldest first
        self.interactions: dict[str, InteractionResult] = {}  # by token
        self.unanswered: list[InteractionResult] = []
        self.gateway_received: list[dict] = []  # every op a bot sent over the gateway
        self.identified = asyncio.Event()
        self.discord_errors: list[logging.LogRecord] = []
        self.settle_ignore: set[str] = set()  # extra task-name prefixes settle() must not wait for
        self._error_mark = 0
        self._error_handler: _ErrorCollector | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self.shards: dict[web.WebSocketResponse, tuple[int, int]] = {}  # socket -> (shard id, shard count)
        self.refused_tokens: set[str] = set()  # REST answers 401 to these bot tokens (as Discord to a reset token)
        self._seq: dict[web.WebSocketResponse, int] = {}
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._default_user: dict | None = None
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = []
        self._setup_routes()

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
        for ch in self.channels.values():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == user["id"]:
                return ch
        ch = {"id": str(self.snowflake()), "type": 1, "last_message_id": None, "flags": 0, "recipients": [user]}
        self.channels[int(ch["id"])] = ch
        return ch

    # --- lifecycle ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-ws"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway-ws", self._ws_handler)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest_handler)
        app.router.add_route("*", "/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> None:
        """Point discord.py (REST, webhooks/interactions and gateway) at the stand-in; collect discord ERRORs."""
        if self._saved is None:
            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        if self._error_handler is None:
            self._error_handler = _ErrorCollector()
            self._error_handler.records = self.discord_errors
            logging.getLogger("discord").addHandler(self._error_handler)

    def uninstall(self) -> None:
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        if self._error_handler is not None:
            logging.getLogger("discord").removeHandler(self._error_handler)
            self._error_handler = None

    def assert_clean(self) -> None:
        """Fail if discord.py hit a route the stand-in lacks, sent something Discord would refuse,
        or left an interaction unanswered."""
        problems = []
        if self.unhandled:
            problems.append("unhandled routes: " + ", ".join(f"{r.method} {r.path}" for r in self.unhandled))
        if self.rejected:
            problems.append("rejected requests: " + "; ".join(f"{r.method} {r.path}: {why}" for r, why in self.rejected))
        if self.unanswered:
            problems.append("unanswered interactions: " + ", ".join(repr(r.payload.get("data")) for r in self.unanswered))
        if problems:
            raise StandInError("Discord stand-in: " + " | ".join(problems))

    # --- settle ---------------------------------------------------------------------------------
    def _pending_dispatch_tasks(self) -> list[asyncio.Task]:
        me = asyncio.current_task()
        prefixes = DISPATCH_TASK_PREFIXES
        out = []
        for t in asyncio.all_tasks():
            if t is me or t.done():
                continue
            name = t.get_name()
            if name.startswith(prefixes) and not any(name.startswith(p) for p in self.settle_ignore):
                out.append(t)
        return out

    async def settle(self, bot: Any = None, *, timeout: float = SAFETY_TIMEOUT, allow_errors: bool = False) -> None:
        """Wait until discord.py finished handling everything dispatched so far (command invokers, view,
        modal and dynamic-item callbacks, event listeners), then re-raise the first exception discord.py
        logged at ERROR meanwhile (unless allow_errors; they stay in ``self.discord_errors``)."""
        deadline = asyncio.get_running_loop().time() + timeout
        failures: list[BaseException] = []
        quiet_rounds = 0
        while quiet_rounds < 3:
            await asyncio.sleep(0)
            pending = self._pending_dispatch_tasks()
            if not pending:
                quiet_rounds += 1
                continue
            quiet_rounds = 0
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                names = ", ".join(f"{t.get_name()} ({t.get_coro()!r})" for t in pending)
                raise StandInError(
                    f"settle(): discord.py still busy after {timeout}s: {names} "
                    "(add long-lived task name prefixes to standin.settle_ignore)"
                )
            done, _ = await asyncio.wait(pending, timeout=remaining)
            for t in done:
                if not t.cancelled() and t.exception() is not None:
                    failures.append(t.exception())
        new_errors = self.discord_errors[self._error_mark :]
        self._error_mark = len(self.discord_errors)
        if failures:
            raise failures[0]
        if new_errors and not allow_errors:
            first = new_errors[0]
            summary = "; ".join(_format_record(r) for r in new_errors)
            exc = first.exc_info[1] if first.exc_info else None
            while isinstance(getattr(exc, "original", None), BaseException):  # CommandInvokeError & co.
                exc = exc.original  # type: ignore[union-attr]
            if exc is not None:
                exc.add_note(f"(re-raised by DiscordStandIn.settle: discord logged ERROR: {summary})")
                raise exc
            raise StandInError(f"discord logged ERROR: {summary}")

    # --- messages -------------------------------------------------------------------------------
    def channel_messages(self, channel_id: int | str, *, include_ephemeral: bool = True) -> list[dict]:
        """Messages the bot posted in a channel (oldest first), with content, embeds, allowed_mentions..."""
        cid = str(channel_id)
        out = [m for m in self.messages.values() if m["channel_id"] == cid]
        if not include_ephemeral:
            out = [m for m in out if not m["ephemeral"]]
        return sorted(out, key=lambda m: int(m["id"]))

    def files(self, message_id: int) -> list[UploadedFile]:
        msg = self.messages.get(message_id) or self.deleted_messages.get(message_id)
        if msg is None:
            raise StandInError(f"no message {message_id}")
        return [self.attachments[int(a["id"])] for a in msg["attachments"]]

    @staticmethod
    def message_text(msg: dict) -> str:
        parts = [msg.get("content") or ""]
        for e in msg.get("embeds") or []:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in walk_components(msg.get("components")):
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    @staticmethod
    def pinged_user_ids(msg: dict) -> list[int]:
        """Users this message actually notifies (mentions in content, filtered by allowed_mentions)."""
        return [int(u["id"]) for u in msg.get("mentions", [])]

    def buttons(self, message_id: int) -> list[tuple[str | None, str | None, bool]]:
        """(custom_id, label, disabled) of every button on a stored message."""
        msg = self._message(message_id)
        return [
            (c.get("custom_id"), c.get("label"), bool(c.get("disabled")))
            for c in walk_components(msg["components"])
            if c.get("type") == 2
        ]

    def find_button(self, message_id: int, label_substring: str) -> str:
        """custom_id of the first button on the message whose label contains label_substring."""
        btns = self.buttons(message_id)
        for cid, label, _ in btns:
            if label and label_substring in label and cid:
                return cid
        raise StandInError(f"no button labelled ~{label_substring!r} on message {message_id}; buttons: {btns}")

    def select_options(self, message_id: int, custom_id: str) -> list[tuple[str, str]]:
        """(value, label) of the string select custom_id on a stored message."""
        comp = self._component(self._message(message_id), custom_id)
        return [(o["value"], o["label"]) for o in comp.get("options", [])]

    def _message(self, message_id: int | str) -> dict:
        msg = self.messages.get(int(message_id))
        if msg is None:
            gone = " (it was deleted)" if int(message_id) in self.deleted_messages else ""
            raise StandInError(f"the bot has no message {message_id}{gone}")
        return msg

    # --- history: every version of everything shown ----------------------------------------------
    def reader_of(self, msg: dict) -> int | None:
        """Who may read a message: the user of an ephemeral one, the recipient of a DM, else None (all)."""
        if msg.get("ephemeral") or int(msg.get("flags") or 0) & EPHEMERAL:
            owner = msg.get("_owner_id")
            return int(owner) if owner is not None else None
        ch = self.channels.get(int(msg["channel_id"]))
        if ch is not None and ch.get("type") == 1:
            return int(ch["recipients"][0]["id"])
        return None

    def _record(self, kind: str, how: str, payload: dict, *, reader: int | None, message_id: int | None = None,
                channel_id: int | None = None, interaction: InteractionResult | None = None,
                files: list[UploadedFile] | None = None) -> Shown:
        version = len(self.versions.get(message_id, ())) if message_id is not None else 0
        item = Shown(len(self.shown), kind, how, reader, copy.deepcopy(payload), message_id, channel_id, version,
                     interaction.user_id if interaction is not None else None, list(files or ()))
        self.shown.append(item)
        if message_id is not None:
            self.versions.setdefault(message_id, []).append(item)
        return item

    def _record_message(self, msg: dict, how: str, interaction: InteractionResult | None = None) -> None:
        files = [self.attachments[int(a["id"])] for a in msg.get("attachments") or [] if int(a["id"]) in self.attachments]
        self._record("message", how, _wire(msg), reader=self.reader_of(msg), message_id=int(msg["id"]),
                     channel_id=int(msg["channel_id"]), interaction=interaction, files=files)

    def message_versions(self, message_id: int | str) -> list[Shown]:
        """Every version of a message (its creation, then one per edit), oldest first; deleted ones too."""
        return list(self.versions.get(int(message_id), ()))

    def shown_since(self, mark: int) -> list[Shown]:
        """What the bot showed after ``mark`` (a length of ``self.shown`` taken earlier)."""
        return self.shown[mark:]

    @staticmethod
    def _component(msg: dict, custom_id: str) -> dict:
        for c in walk_components(msg["components"]):
            if c.get("custom_id") == custom_id:
                return c
        ids = [c.get("custom_id") for c in walk_components(msg["components"]) if c.get("custom_id")]
        raise StandInError(f"message {msg['id']} has no component {custom_id!r}; it has {ids}")

    # ============================================================================================
    # REST
    # ============================================================================================
    def _setup_routes(self) -> None:
        S = r"(\d+)"
        T = r"([^/]+)"
        r = self._routes
        add = lambda m, p, h: r.append((m, re.compile("^" + p + "$"), h))  # noqa: E731
        add("GET", "/users/@me", self._get_me)
        add("GET", f"/users/{S}", self._get_user)
        add("GET", "/oauth2/applications/@me", self._get_application)
        add("GET", "/applications/@me", self._get_application)
        add("GET", "/gateway", self._get_gateway)
        add("GET", "/gateway/bot", self._get_gateway_bot)
        add("POST", f"/interactions/{S}/{T}/callback", self._interaction_callback)
        add("GET", f"/webhooks/{S}/{T}/messages/@original", self._webhook_get)
        add("PATCH", f"/webhooks/{S}/{T}/messages/@original", self._webhook_edit)
        add("DELETE", f"/webhooks/{S}/{T}/messages/@original", self._webhook_delete)
        add("GET", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_get)
        add("PATCH", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_edit)
        add("DELETE", f"/webhooks/{S}/{T}/messages/{S}", self._webhook_delete)
        add("POST", f"/webhooks/{S}/{T}", self._webhook_followup)
        add("POST", f"/channels/{S}/messages", self._channel_send)
        add("GET", f"/channels/{S}/messages/{S}", self._channel_get_message)
        add("PATCH", f"/channels/{S}/messages/{S}", self._channel_edit_message)
        add("DELETE", f"/channels/{S}/messages/{S}", self._channel_delete_message)
        add("POST", f"/channels/{S}/typing", self._typing)
        add("GET", f"/channels/{S}", self._get_channel)
        add("POST", "/users/@me/channels", self._create_dm)
        add("POST", f"/channels/{S}/threads", self._create_thread)
        add("POST", f"/channels/{S}/messages/{S}/threads", self._create_thread_from_message)
        add("PUT", f"/applications/{S}/commands", self._put_commands)
        add("GET", f"/applications/{S}/commands", self._get_commands)
        add("PUT", f"/applications/{S}/guilds/{S}/commands", self._put_commands)
        add("GET", f"/applications/{S}/guilds/{S}/commands", self._get_commands)
        add("GET", f"/attachments/{S}/{T}", self._get_attachment)

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path.startswith("/api/v10"):
            path = path[len("/api/v10") :]
        body: Any = None
        files: list[UploadedFile] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append(UploadedFile(part.filename or "", bytes(data), part.headers.get("Content-Type"), part.name))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                body = json.loads(raw)
        rec = Request(request.method, path, dict(request.query), body, files, auth=request.headers.get("Authorization"))
        self.requests.append(rec)
        if rec.auth and rec.auth.removeprefix("Bot ").strip() in self.refused_tokens:
            rec.status = 401
            return _error(401, 0, "401: Unauthorized")
        for method, pattern, handler in self._routes:
            if method == request.method and (m := pattern.match(path)):
                resp = await handler(rec, *m.groups())
                rec.status = resp.status
                if resp.status == 400:
                    try:
                        why = json.loads(resp.body)["message"]
                    except Exception:  # pragma: no cover
                        why = "?"
                    self.rejected.append((rec, why))
                return resp
        self.unhandled.append(rec)
        rec.status = 404
        return _error(404, 0, f"Discord stand-in: unhandled route {request.method} {path}")

    # --- attachments (the CDN) -----------------------------------------------------------------
    def upload(self, filename: str, data: bytes, content_type: str = "application/json") -> dict:
        """A file a user attaches to a slash command's attachment option (pass the dict as its value)."""
        snow = self.snowflake()
        self.attachments[snow] = UploadedFile(filename, data, content_type, None)
        url = f"http://127.0.0.1:{self.port}/attachments/{snow}/{filename}"
        return {"id": str(snow), "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                "content_type": content_type}

    async def _get_attachment(self, rec: Request, aid: str, filename: str) -> web.Response:
        f = self.attachments.get(int(aid))
        if f is None or f.filename != filename:
            return _error(404, 0, "404: Unknown attachment")
        return web.Response(body=f.data, content_type=f.content_type or "application/octet-stream")

    # --- identity -------------------------------------------------------------------------------
    async def _get_me(self, rec: Request) -> web.Response:
        return _json_response(self.bot_user)

    async def _get_user(self, rec: Request, uid: str) -> web.Response:
        u = self.users.get(int(uid))
        return _json_response(u) if u else _error(404, 10013, "Unknown User")

    async def _get_application(self, rec: Request) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner,
                "team": None,
                "bot": self.bot_user,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "integration_types_config": {"0": {}, "1": {}},
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, rec: Request) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, rec: Request) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    # --- validation -----------------------------------------------------------------------------
    @staticmethod
    def _validate_components(components: list[dict], v2: bool) -> list[str]:
        errs: list[str] = []
        seen: set[str] = set()
        allc = list(walk_components(components))
        if not v2:
            if len(components) > 5:
                errs.append(f"{len(components)} action rows (max 5)")
            for row in components:
                if row.get("type") != 1:
                    errs.append(f"top-level component type {row.get('type')} needs the components-v2 flag")
                    continue
                kids = row.get("components", [])
                if not kids:
                    errs.append("empty action row")
                if any(k.get("type") in (3, 5, 6, 7, 8) for k in kids) and len(kids) > 1:
                    errs.append("a select must be alone in its action row")
                if len(kids) > 5:
                    errs.append(f"{len(kids)} components in an action row (max 5)")
        elif len(allc) > 40:
            errs.append(f"{len(allc)} components (max 40)")
        for c in allc:
            cid = c.get("custom_id")
            if cid is not None:
                if not 1 <= len(cid) <= 100:
                    errs.append(f"custom_id {cid!r} must be 1-100 characters")
                if cid in seen:
                    errs.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if c.get("type") == 2:
                style = c.get("style")
                if style == 5:
                    if not c.get("url") or cid:
                        errs.append("a link button needs url and no custom_id")
                elif style != 6 and not cid:
                    errs.append(f"button {c.get('label')!r} has no custom_id")
                if not c.get("label") and not c.get("emoji"):
                    errs.append("a button needs a label or an emoji")
                if len(c.get("label") or "") > 80:
                    errs.append(f"button label {c.get('label')!r} longer than 80")
            if c.get("type") == 3:
                opts = c.get("options", [])
                if not 1 <= len(opts) <= 25:
                    errs.append(f"select {cid!r} has {len(opts)} options (1-25)")
                values = [o.get("value") for o in opts]
                if len(set(values)) != len(values):
                    errs.append(f"select {cid!r} has duplicate option values")
                for o in opts:
                    if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
                        errs.append(f"select {cid!r} option {o!r}: label/value must be 1-100 characters")
                    if len(o.get("description") or "") > 100:
                        errs.append(f"select {cid!r} option description longer than 100")
            if len(c.get("placeholder") or "") > 150:
                errs.append("placeholder longer than 150")
        return errs

    @classmethod
    def _validate_message(cls, msg: dict) -> list[str]:
        errs: list[str] = []
        content = msg.get("content") or ""
        embeds = msg.get("embeds") or []
        flags = int(msg.get("flags") or 0)
        v2 = bool(flags & IS_COMPONENTS_V2)
        if len(content) > 2000:
            errs.append(f"content is {len(content)} characters (max 2000)")
        if len(embeds) > 10:
            errs.append(f"{len(embeds)} embeds (max 10)")
        total = 0
        for e in embeds:
            limits = {"title": 256, "description": 4096}
            for k, lim in limits.items():
                n = len(e.get(k) or "")
                total += n
                if n > lim:
                    errs.append(f"embed {k} is {n} characters (max {lim})")
            fields = e.get("fields") or []
            if len(fields) > 25:
                errs.append(f"{len(fields)} embed fields (max 25)")
            for f in fields:
                if not f.get("name") or not f.get("value"):
                    errs.append(f"embed field {f!r} needs a non-empty name and value")
                if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                    errs.append(f"embed field {f.get('name')!r} too long (name 256, value 1024)")
                total += len(f.get("name") or "") + len(f.get("value") or "")
            ft = len((e.get("footer") or {}).get("text") or "")
            au = len((e.get("author") or {}).get("name") or "")
            if ft > 2048 or au > 256:
                errs.append("embed footer (2048) or author name (256) too long")
            total += ft + au
        if total > 6000:
            errs.append(f"embeds total {total} characters (max 6000)")
        if v2 and (content or embeds):
            errs.append("a components-v2 message cannot have content or embeds")
        errs += cls._validate_components(msg.get("components") or [], v2)
        if not (flags & LOADING) and not (
            content or embeds or msg.get("components") or msg.get("attachments") or msg.get("poll") or msg.get("sticker_ids")
        ):
            errs.append("Cannot send an empty message")
        return errs

    def _invalid(self, errs: list[str]) -> web.Response:
        code = 50006 if errs == ["Cannot send an empty message"] else 50035
        msg = "; ".join(errs)
        return _error(400, code, msg, {"_errors": [{"code": "STANDIN_INVALID", "message": e} for e in errs]})

    # --- message construction -------------------------------------------------------------------
    def _mentions(self, content: str, allowed: dict | None) -> tuple[list[dict], list[str], bool]:
        ids = [int(x) for x in _MENTION_RE.findall(content or "")]
        role_ids = _ROLE_MENTION_RE.findall(content or "")
        everyone = "@everyone" in (content or "") or "@here" in (content or "")
        if allowed is not None:
            parse = allowed.get("parse", [])
            if "users" not in parse:
                ok = {int(u) for u in allowed.get("users", [])}
                ids = [i for i in ids if i in ok]
            if "roles" not in parse:
                okr = {str(r) for r in allowed.get("roles", [])}
                role_ids = [r for r in role_ids if r in okr]
            if "everyone" not in parse:
                everyone = False
        users = []
        for i in dict.fromkeys(ids):
            users.append(
                self.users.get(i)
                or {
                    "id": str(i),
                    "username": f"user{i}",
                    "discriminator": "0",
                    "avatar": None,
                    "global_name": None,
                    "public_flags": 0,
                }
            )
        return users, role_ids, everyone

    def _attachments_from(self, rec: Request, body: dict, existing: list[dict]) -> list[dict] | str:
        by_field = {f.field: f for f in rec.files}
        new: list[dict] = []
        wanted = body.get("attachments")
        if wanted is None:
            new = list(existing)
            wanted = [{"id": i} for i in range(len(rec.files))] if rec.files else []
        old = {a["id"]: a for a in existing}
        for a in wanted:
            aid = str(a.get("id"))
            if aid in old:
                if old[aid] not in new:
                    new.append(old[aid])
                continue
            f = by_field.get(f"files[{aid}]")
            if f is None:
                return f"attachment {a!r} refers to no uploaded file"
            snow = self.snowflake()
            filename = a.get("filename") or f.filename
            self.attachments[snow] = UploadedFile(filename, f.data, f.content_type, f.field)
            url = f"http://127.0.0.1:{self.port}/attachments/{snow}/{filename}"  # served below, as a CDN would
            new.append(
                {
                    "id": str(snow),
                    "filename": filename,
                    "size": len(f.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": f.content_type,
                    "description": a.get("description"),
                }
            )
        return new

    def _build_message(
        self,
        rec: Request,
        body: dict,
        channel_id: int,
        *,
        type_: int = 0,
        interaction: InteractionResult | None = None,
        extra_flags: int = 0,
        how: str = "send",
    ) -> dict | web.Response:
        body = body or {}
        ch = self.channels.get(channel_id)
        atts = self._attachments_from(rec, body, [])
        if isinstance(atts, str):
            return self._invalid([atts])
        flags = int(body.get("flags") or 0) | extra_flags
        content = body.get("content") or ""
        allowed = body.get("allowed_mentions")
        mentions, roles, everyone = self._mentions(content, allowed)
        mid = self.snowflake()
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": content,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": atts,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "type": type_,
            "flags": flags,
            "mentions": mentions,
            "mention_roles": roles,
            "mention_everyone": everyone,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "allowed_mentions": allowed,
            "ephemeral": bool(flags & EPHEMERAL),
        }
        if body.get("poll"):
            msg["poll"] = body["poll"]
        if ch is not None and ch.get("guild_id"):
            msg["guild_id"] = ch["guild_id"]
        if body.get("message_reference"):
            ref = dict(body["message_reference"])
            ref.setdefault("channel_id", str(channel_id))
            msg["message_reference"] = ref
            msg["type"] = 19
        if interaction is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": (interaction.payload.get("member") or {}).get("user") or interaction.payload.get("user"),
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
            if interaction.type == 2:
                meta["name"] = interaction.payload["data"]["name"]
                meta["command_type"] = 1
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            msg["interaction_metadata"] = meta
            msg["_token"] = interaction.token
            if msg["ephemeral"]:
                msg["_owner_id"] = interaction.user_id
        errs = self._validate_message(msg)
        if errs:
            return self._invalid(errs)
        self.messages[mid] = msg
        if ch is not None:
            ch["last_message_id"] = str(mid)
        self._record_message(msg, how, interaction)
        return msg

    def _apply_edit(self, rec: Request, msg: dict, body: dict, *, how: str = "edit",
                    interaction: InteractionResult | None = None) -> dict | web.Response:
        body = body or {}
        new = dict(msg)
        for key, empty in (("content", ""), ("embeds", []), ("components", []), ("poll", None)):
            if key in body:
                new[key] = body[key] if body[key] is not None else empty
        if "allowed_mentions" in body:
            new["allowed_mentions"] = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            keep = msg["flags"] & (EPHEMERAL | IS_COMPONENTS_V2)
            new["flags"] = (int(body["flags"]) | keep) & ~LOADING
        else:
            new["flags"] = msg["flags"] & ~LOADING
        if "attachments" in body or rec.files:
            atts = self._attachments_from(rec, body, msg["attachments"])
            if isinstance(atts, str):
                return self._invalid([atts])
            new["attachments"] = atts
        new["mentions"], new["mention_roles"], new["mention_everyone"] = self._mentions(
            new["content"], new.get("allowed_mentions")
        )
        new["edited_timestamp"] = _now_iso()
        errs = self._validate_message(new)
        if errs:
            return self._invalid(errs)
        msg.clear()
        msg.update(new)
        self._record_message(msg, how, interaction)
        return msg

    # --- interactions ---------------------------------------------------------------------------
    def _interaction(self, token: str) -> InteractionResult | None:
        return self.interactions.get(token)

    async def _interaction_callback(self, rec: Request, iid: str, token: str) -> web.Response:
        ix = self._interaction(token)
        if ix is None or ix.id != int(iid):
            return _error(404, 10062, "Unknown interaction")
        if ix.callbacks:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = rec.json or {}
        ctype = body.get("type")
        data = body.get("data")
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(ix.type, set())
        if ctype in (6, 7) and ix.source_message_id is None:
            allowed = allowed - {6, 7}
        if ctype not in allowed:
            return self._invalid([f"callback type {ctype} is not valid for interaction type {ix.type}"])
        message: dict | None = None
        if ctype == 4:
            built = self._build_message(rec, data or {}, ix.channel_id, type_=20 if ix.type == 2 else 0, interaction=ix,
                                        how="response")
            if isinstance(built, web.Response):
                return built
            message = built
            ix.original_message_id = int(message["id"])
        elif ctype == 5:
            flags = int((data or {}).get("flags") or 0) & EPHEMERAL
            built = self._build_message(
                rec, {"flags": flags}, ix.channel_id, type_=20 if ix.type == 2 else 0, interaction=ix, extra_flags=LOADING,
                how="deferred",
            )
            if isinstance(built, web.Response):  # pragma: no cover
                return built
            message = built
            ix.original_message_id = int(message["id"])
        elif ctype in (6, 7):
            ix.original_message_id = ix.source_message_id
            if ctype == 7:
                src = self.messages.get(ix.source_message_id)  # type: ignore[arg-type]
                if src is None:
                    return _error(404, 10008, "Unknown Message")
                edited = self._apply_edit(rec, src, data or {}, how="update", interaction=ix)
                if isinstance(edited, web.Response):
                    return edited
                message = edited
        elif ctype == 8:
            choices = (data or {}).get("choices", [])
            errs = []
            if len(choices) > 25:
                errs.append(f"{len(choices)} autocomplete choices (max 25)")
            for c in choices:
                if not 1 <= len(c.get("name") or "") <= 100:
                    errs.append(f"choice name {c.get('name')!r} must be 1-100 characters")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    errs.append(f"choice value {c['value']!r} longer than 100")
            if errs:
                return self._invalid(errs)
            self._record("autocomplete", "autocomplete", {"choices": choices}, reader=ix.user_id,
                         channel_id=ix.channel_id, interaction=ix)
        elif ctype == 9:
            errs = []
            if not 1 <= len((data or {}).get("title") or "") <= 45:
                errs.append("modal title must be 1-45 characters")
            comps = (data or {}).get("components") or []
            if not 1 <= len(comps) <= 5:
                errs.append(f"modal has {len(comps)} top-level components (1-5)")
            for c in walk_components(comps):
                if c.get("type") == 4 and len(c.get("label") or "") > 45:
                    errs.append(f"text input label {c.get('label')!r} longer than 45")
                if c.get("type") == 18 and len(c.get("label") or "") > 45:
                    errs.append(f"label {c.get('label')!r} longer than 45")
            if errs:
                return self._invalid(errs)
            self.modals.append(
                {
                    "token": token,
                    "data": data,
                    "user_id": ix.user_id,
                    "payload": ix.payload,
                    "source_message_id": ix.source_message_id,
                    "submitted": False,
                }
            )
            self._record("modal", "modal", data or {}, reader=ix.user_id, channel_id=ix.channel_id, interaction=ix)
        ix.callbacks.append({"type": ctype, "data": data, "files": list(rec.files)})
        resp: dict[str, Any] = {
            "interaction": {
                "id": str(ix.id),
                "type": ix.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            }
        }
        if message is not None:
            resp["interaction"]["response_message_id"] = message["id"]
            resp["resource"] = {"type": ctype, "message": _wire(message)}
        return _json_response(resp)

    def _webhook_ix(self, app_id: str, token: str) -> InteractionResult | web.Response:
        ix = self._interaction(token)
        if int(app_id) != self.application_id or ix is None:
            return _error(404, 10015, "Unknown Webhook")
        return ix

    def _webhook_target(self, ix: InteractionResult, mid: str | None) -> dict | web.Response:
        if mid is None:
            if ix.original_message_id is None or ix.original_message_id not in self.messages:
                return _error(404, 10008, "Unknown Message")
            return self.messages[ix.original_message_id]
        msg = self.messages.get(int(mid))
        ok = msg is not None and (int(mid) == ix.original_message_id or int(mid) in ix.followup_ids)
        if not ok:
            return _error(404, 10008, "Unknown Message")
        return msg  # type: ignore[return-value]

    async def _webhook_get(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        return msg if isinstance(msg, web.Response) else _json_response(_wire(msg))

    async def _webhook_edit(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        if isinstance(msg, web.Response):
            return msg
        edited = self._apply_edit(rec, msg, rec.json or {}, how="webhook-edit", interaction=ix)
        if isinstance(edited, web.Response):
            return edited
        ix.edits.append(rec.json or {})
        return _json_response(_wire(edited))

    async def _webhook_delete(self, rec: Request, app_id: str, token: str, mid: str | None = None) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        msg = self._webhook_target(ix, mid)
        if isinstance(msg, web.Response):
            return msg
        self._delete(int(msg["id"]))
        return web.Response(status=204)

    async def _webhook_followup(self, rec: Request, app_id: str, token: str) -> web.Response:
        ix = self._webhook_ix(app_id, token)
        if isinstance(ix, web.Response):
            return ix
        if not ix.callbacks:
            return _error(404, 10015, "Unknown Webhook")  # no follow-up before the initial response
        body = rec.json or {}
        orig = self.messages.get(ix.original_message_id) if ix.original_message_id else None
        if ix.callback_type == 5 and orig is not None and orig["flags"] & LOADING:
            # The first follow-up after a "thinking" defer replaces the loading message.
            body = {k: v for k, v in body.items() if k != "flags"}
            edited = self._apply_edit(rec, orig, body, how="followup", interaction=ix)
            if isinstance(edited, web.Response):
                return edited
            ix.edits.append(body)
            return _json_response(_wire(edited))
        built = self._build_message(rec, body, ix.channel_id, interaction=ix, how="followup")  # type: ignore[arg-type]
        if isinstance(built, web.Response):
            return built
        ix.followup_ids.append(int(built["id"]))
        return _json_response(_wire(built))

    # --- channels -------------------------------------------------------------------------------
    def _channel(self, cid: str) -> dict | web.Response:
        ch = self.channels.get(int(cid))
        return ch if ch is not None else _error(404, 10003, "Unknown Channel")

    async def _channel_send(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        if isinstance(ch, web.Response):
            return ch
        body = rec.json or {}
        if int(body.get("flags") or 0) & EPHEMERAL:
            return self._invalid(["ephemeral messages can only be sent as interaction responses"])
        built = self._build_message(rec, body, int(cid))
        if isinstance(built, web.Response):
            return built
        return _json_response(_wire(built))

    def _channel_message(self, cid: str, mid: str) -> dict | web.Response:
        msg = self.messages.get(int(mid))
        if msg is None or msg["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        return msg

    async def _channel_get_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        return msg if isinstance(msg, web.Response) else _json_response(_wire(msg))

    async def _channel_edit_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        if msg["ephemeral"]:
            return _error(404, 10008, "Unknown Message")  # ephemeral messages only via the interaction webhook
        edited = self._apply_edit(rec, msg, rec.json or {})
        return edited if isinstance(edited, web.Response) else _json_response(_wire(edited))

    async def _channel_delete_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        self._delete(int(mid))
        return web.Response(status=204)

    def _delete(self, mid: int) -> None:
        self.deleted_messages[mid] = self.messages.pop(mid)

    async def _typing(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        return ch if isinstance(ch, web.Response) else web.Response(status=204)

    async def _get_channel(self, rec: Request, cid: str) -> web.Response:
        ch = self._channel(cid)
        return ch if isinstance(ch, web.Response) else _json_response(ch)

    async def _create_dm(self, rec: Request) -> web.Response:
        rid = int((rec.json or {}).get("recipient_id", 0))
        user = self.users.get(rid)
        if user is None:
            return _error(404, 10013, "Unknown User")
        return _json_response(self.dm_channel(user))

    def _thread(self, parent: dict, name: str, type_: int, tid: int, body: dict) -> dict:
        th = {
            "id": str(tid),
            "type": type_,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": str(self.application_id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration") or 1440,
                "archive_timestamp": _now_iso(),
                "locked": False,
                "invitable": body.get("invitable", True),
                "create_timestamp": _now_iso(),
            },
            "member": {"id": str(tid), "user_id": str(self.application_id), "join_timestamp": _now_iso(), "flags": 0},
        }
        self.channels[tid] = th
        g = self.guilds.get(int(parent["guild_id"]))
        if g is not None:
            g.channels.append(th)
        return th

    async def _create_thread(self, rec: Request, cid: str) -> web.Response:
        parent = self._channel(cid)
        if isinstance(parent, web.Response):
            return parent
        if not parent.get("guild_id"):
            return self._invalid(["threads can only be created in guild channels"])
        body = rec.json or {}
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return self._invalid(["thread name must be 1-100 characters"])
        return _json_response(self._thread(parent, name, int(body.get("type") or 11), self.snowflake(), body))

    async def _create_thread_from_message(self, rec: Request, cid: str, mid: str) -> web.Response:
        parent = self._channel(cid)
        if isinstance(parent, web.Response):
            return parent
        msg = self._channel_message(cid, mid)
        if isinstance(msg, web.Response):
            return msg
        body = rec.json or {}
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return self._invalid(["thread name must be 1-100 characters"])
        th = self._thread(parent, name, 11, int(mid), body)
        msg["thread"] = th
        return _json_response(th)

    # --- application commands -------------------------------------------------------------------
    async def _put_commands(self, rec: Request, app_id: str, guild_id: str | None = None) -> web.Response:
        if int(app_id) != self.application_id:
            return _error(403, 50001, "Missing Access")
        gid = int(guild_id) if guild_id else None
        body = rec.json or []
        names = [(c.get("type", 1), c.get("name")) for c in body]
        if len(set(names)) != len(names):
            return self._invalid(["duplicate command names"])
        self.command_puts.append((gid, json.loads(json.dumps(body))))
        old = {(c.get("type", 1), c["name"]): c for c in self.commands.get(gid, [])}
        stored = []
        for c in body:
            cmd = json.loads(json.dumps(c))
            prev = old.get((cmd.get("type", 1), cmd["name"]))
            cmd["id"] = prev["id"] if prev else str(self.snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self.snowflake())
            cmd.setdefault("type", 1)
            cmd.setdefault("description", "")
            cmd.setdefault("default_member_permissions", None)
            if gid is not None:
                cmd["guild_id"] = str(gid)
            stored.append(cmd)
        self.commands[gid] = stored
        return _json_response(stored)

    async def _get_commands(self, rec: Request, app_id: str, guild_id: str | None = None) -> web.Response:
        gid = int(guild_id) if guild_id else None
        return _json_response(self.commands.get(gid, []))

    # ============================================================================================
    # Gateway
    # ============================================================================================
    async def _ws_send(self, ws: web.WebSocketResponse, op: int, d: Any, t: str | None = None) -> None:
        s = None
        if op == 0:
            s = self._seq[ws] = self._seq.get(ws, 0) + 1
        await ws.send_str(json.dumps({"op": op, "d": d, "s": s, "t": t}))

    async def _ws_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await self._ws_send(ws, 10, {"heartbeat_interval": 45000, "_trace": ["standin"]})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                self.gateway_received.append(data)
                op = data.get("op")
                if op == 1:
                    await self._ws_send(ws, 11, None)
                elif op == 2:
                    await self._ws_ready(ws, data.get("d") or {})
                elif op == 6:
                    await self._ws_send(ws, 0, {"_trace": ["standin"]}, "RESUMED")
                elif op == 8:
                    d = data.get("d") or {}
                    g = self.guilds.get(int(d.get("guild_id", 0)))
                    members = list(g.members.values()) if g else []
                    await self._ws_send(
                        ws,
                        0,
                        {
                            "guild_id": d.get("guild_id"),
                            "members": members,
                            "chunk_index": 0,
                            "chunk_count": 1,
                            "not_found": [],
                            "nonce": d.get("nonce"),
                        },
                        "GUILD_MEMBERS_CHUNK",
                    )
        finally:
            self._sockets.discard(ws)
            self._seq.pop(ws, None)
            self.shards.pop(ws, None)
        return ws

    @staticmethod
    def shard_of(guild_id: int | str | None, shard_count: int) -> int:
        """Discord's rule: a guild's events go to shard (guild_id >> 22) % shard_count, DMs to shard 0."""
        return (int(guild_id) >> 22) % shard_count if guild_id else 0

    def _serves(self, ws: web.WebSocketResponse, guild_id: int | str | None) -> bool:
        shard = self.shards.get(ws)
        return shard is None or self.shard_of(guild_id, shard[1]) == shard[0]

    async def _ws_ready(self, ws: web.WebSocketResponse, identify: dict | None = None) -> None:
        shard = (identify or {}).get("shard")
        if shard is not None:
            sid, count = int(shard[0]), int(shard[1])
            if not 0 <= sid < count:
                await ws.close(code=4010, message=b"Invalid shard.")
                return
            self.shards[ws] = (sid, count)
        mine = [g for g in self.guilds.values() if self._serves(ws, g.id)]
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": f"standin-session-{self.snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": ["standin"],
            "_trace": ["standin"],
        }
        if shard is not None:
            ready["shard"] = [int(shard[0]), int(shard[1])]
        await self._ws_send(ws, 0, ready, "READY")
        for g in mine:
            await self._ws_send(ws, 0, g.create_payload(), "GUILD_CREATE")
        self.identified.set()

    async def gateway_dispatch(self, event: str, data: dict, *, shard: int | None = None) -> None:
        """Send a DISPATCH (op 0) event to the connected gateway sockets that would get it from Discord:
        an unsharded socket gets everything, a shard its guilds' events (DMs: shard 0). ``shard`` sends
        it to that shard's sockets instead, whatever the guild (for tests of several bot processes)."""
        if not self._sockets:
            raise StandInError("no bot is connected to the stand-in gateway")
        if shard is None:
            targets = [ws for ws in self._sockets if self._serves(ws, data.get("guild_id"))]
        else:
            targets = [ws for ws in self._sockets if self.shards.get(ws, (None,))[0] == shard]
        if not targets:
            raise StandInError(f"no connected shard serves {event} for guild {data.get('guild_id')} (shard={shard})")
        for ws in targets:
            await self._ws_send(ws, 0, data, event)

    # ============================================================================================
    # Driver: building and feeding interactions
    # ============================================================================================
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
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "data": data,
        }
        p.update(self._context(user, guild, channel))
        return p

    def _where(self, channel_id: int | str) -> tuple[FakeGuild | None, dict]:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise StandInError(f"unknown channel {channel_id}")
        gid = ch.get("guild_id")
        return (self.guilds[int(gid)] if gid else None), ch

    @staticmethod
    def _lookup_command(bot: Any, path: str, guild: FakeGuild | None) -> tuple[Any, Any, int | None]:
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
            elsewhere = [
                gid
                for gid in getattr(tree, "_guild_commands", {})
                if tree.get_command(parts[0], guild=discord.Object(gid)) is not None
            ]
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
        return root, cmd, cmd_guild

    def _check_context(self, bot: Any, root: Any, cmd_guild: int | None, guild: FakeGuild | None, path: str) -> None:
        spec = root.to_dict(bot.tree)
        if guild is None:
            if cmd_guild is not None:
                raise StandInError(f"/{path} is a guild command; Discord does not offer it in DMs")
            if spec.get("dm_permission") is False:
                raise StandInError(f"/{path} is guild_only; Discord does not offer it in DMs")
            ctx = spec.get("contexts")
            if ctx is not None and 1 not in ctx:
                raise StandInError(f"/{path} has contexts={ctx}; Discord does not offer it in a bot DM")
        else:
            ctx = spec.get("contexts")
            if cmd_guild is None and ctx is not None and 0 not in ctx:
                raise StandInError(f"/{path} has contexts={ctx}; Discord does not offer it in a guild")

    def _option_value(self, param: Any, value: Any, resolved: dict, guild: FakeGuild | None) -> Any:
        t = param.type.value
        if t == 3:
            return str(value)
        if t == 4:
            if isinstance(value, bool) or int(value) != value:
                raise StandInError(f"option {param.display_name}: {value!r} is not an integer")
            return int(value)
        if t == 5:
            if not isinstance(value, bool):
                raise StandInError(f"option {param.display_name}: {value!r} is not a boolean")
            return value
        if t == 10:
            return float(value)
        if t in (6, 9) and isinstance(value, dict) and "username" in value:
            resolved.setdefault("users", {})[value["id"]] = value
            if guild is not None:
                m = {k: v for k, v in guild.member(value).items() if k != "user"}
                m["permissions"] = DEFAULT_MEMBER_PERMISSIONS
                resolved.setdefault("members", {})[value["id"]] = m
            return value["id"]
        if t in (7,) and isinstance(value, dict):
            ch = {k: value[k] for k in ("id", "name", "type", "parent_id", "thread_metadata") if k in value}
            ch["permissions"] = DEFAULT_MEMBER_PERMISSIONS
            resolved.setdefault("channels", {})[value["id"]] = ch
            return value["id"]
        if t == 11 and isinstance(value, dict) and "filename" in value:  # an attachment (see upload())
            resolved.setdefault("attachments", {})[value["id"]] = value
            return value["id"]
        if t in (8, 9) and isinstance(value, dict):
            resolved.setdefault("roles", {})[value["id"]] = value
            return value["id"]
        raise StandInError(f"option {param.display_name}: cannot build a type-{t} option from {value!r}")

    def _command_data(
        self, bot: Any, path: str, options: dict | None, guild: FakeGuild | None, focused: str | None = None
    ) -> dict:
        root, cmd, cmd_guild = self._lookup_command(bot, path, guild)
        self._check_context(bot, root, cmd_guild, guild, path)
        options = dict(options or {})
        params = {p.display_name: p for p in cmd.parameters}
        by_py = {p.name: p for p in cmd.parameters}
        resolved: dict = {}
        leaf: list[dict] = []
        given = {}
        for key, value in options.items():
            param = params.get(key) or by_py.get(key)
            if param is None:
                raise StandInError(f"/{path} has no option {key!r}; it has {list(params)}")
            given[param.display_name] = (param, value)
        if focused is not None:
            fparam = params.get(focused) or by_py.get(focused)
            if fparam is None:
                raise StandInError(f"/{path} has no option {focused!r} to autocomplete")
            if not fparam.autocomplete:
                raise StandInError(f"/{path} option {focused!r} has no autocomplete")
            focused = fparam.display_name
            given.setdefault(focused, (fparam, ""))
        for name, param in params.items():
            if name not in given:
                if param.required and focused is None:
                    raise StandInError(f"/{path}: required option {name!r} missing (Discord would not send it)")
                continue
            _, value = given[name]
            if name == focused:
                leaf.append({"name": name, "type": param.type.value, "value": str(value), "focused": True})
                continue
            v = self._option_value(param, value, resolved, guild)
            if focused is None:
                if param.choices and v not in [c.value for c in param.choices]:
                    raise StandInError(f"/{path} {name}={v!r} is not one of its choices")
                lo, hi = param.min_value, param.max_value
                n = len(v) if isinstance(v, str) else v
                if isinstance(n, (int, float)) and ((lo is not None and n < lo) or (hi is not None and n > hi)):
                    raise StandInError(f"/{path} {name}={v!r} is outside [{lo}, {hi}]")
            leaf.append({"name": name, "type": param.type.value, "value": v})
        parts = path.split()
        nested = leaf
        for i in range(len(parts) - 1, 0, -1):
            nested = [{"name": parts[i], "type": 1 if i == len(parts) - 1 else 2, "options": nested}]
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

    async def interact(
        self,
        bot: Any,
        payload: dict,
        *,
        via_gateway: bool = False,
        allow_errors: bool = False,
        expect_answer: bool = True,
        timeout: float = SAFETY_TIMEOUT,
        shard: int | None = None,
    ) -> InteractionResult:
        """Feed any INTERACTION_CREATE payload to the bot (parser or gateway), settle, return what it answered."""
        await self.settle(bot, timeout=timeout)
        result = InteractionResult(self, payload)
        result.expect_answer = expect_answer
        self.interactions[payload["token"]] = result
        start = len(self.requests)
        if via_gateway:
            # Wait for the bot to have parsed the frame (discord.py dispatches "interaction" after it
            # started the handlers), not for a while: then settle() below waits for those handlers.
            received = asyncio.ensure_future(
                bot.wait_for("interaction", check=lambda i: i.id == result.id, timeout=timeout))
            try:
                await self.gateway_dispatch("INTERACTION_CREATE", payload, shard=shard)
                # A bot in another process (a shard cluster) never tells this one: its answer does.
                loop = asyncio.get_running_loop()
                deadline = loop.time() + timeout
                while not received.done() and not result.callbacks and loop.time() < deadline:
                    await asyncio.sleep(0.005)
            finally:
                received.cancel()
        else:
            bot._connection.parsers["INTERACTION_CREATE"](payload)
        try:
            await self.settle(bot, timeout=timeout, allow_errors=allow_errors)
        finally:
            result.requests = self.requests[start:]
            if expect_answer and not result.callbacks:
                self.unanswered.append(result)
        return result

    async def slash(
        self,
        bot: Any,
        command: str,
        options: dict | None = None,
        *,
        user: dict | None = None,
        guild: FakeGuild | None = None,
        channel: dict | None = None,
        locale: str = "en-US",
        **kw: Any,
    ) -> InteractionResult:
        """Run /command (e.g. "game new") with typed options as `user` in guild/channel (guild=None: DM)."""
        user = user or self.default_user
        if channel is not None and guild is None and channel.get("guild_id"):
            guild = self.guilds[int(channel["guild_id"])]
        data = self._command_data(bot, command, options, guild)
        payload = self._payload(2, data, user, guild, channel, locale)
        return await self.interact(bot, payload, **kw)

    async def autocomplete(
        self,
        bot: Any,
        command: str,
        options: dict | None = None,
        *,
        focused: str,
        user: dict | None = None,
        guild: FakeGuild | None = None,
        channel: dict | None = None,
        **kw: Any,
    ) -> list[dict]:
        """The choices ({name, value}) the bot offers while `user` types option `focused`."""
        user = user or self.default_user
        if channel is not None and guild is None and channel.get("guild_id"):
            guild = self.guilds[int(channel["guild_id"])]
        data = self._command_data(bot, command, options, guild, focused=focused)
        payload = self._payload(4, data, user, guild, channel)
        res = await self.interact(bot, payload, **kw)
        if res.callback_type != 8:
            raise StandInError(f"autocomplete answered with callback type {res.callback_type}, not 8")
        return res.choices or []

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

    async def click(
        self,
        bot: Any,
        message_id: int | str,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        user: dict | None = None,
        **kw: Any,
    ) -> InteractionResult:
        """Press a button (by custom_id, or by label substring) on a message the bot posted."""
        user = user or self.default_user
        msg = self._message(message_id)
        self._check_visible(msg, user)
        if custom_id is None:
            if label is None:
                raise StandInError("click() needs custom_id or label")
            custom_id = self.find_button(int(message_id), label)
        comp = self._component(msg, custom_id)
        if comp.get("type") != 2:
            raise StandInError(f"{custom_id!r} is a type-{comp.get('type')} component, not a button")
        if comp.get("disabled"):
            raise StandInError(f"button {custom_id!r} ({comp.get('label')!r}) is disabled; nobody can press it")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.interact(bot, self._component_payload(msg, data, user), **kw)

    async def select(
        self, bot: Any, message_id: int | str, custom_id: str, values: list[str], *, user: dict | None = None, **kw: Any
    ) -> InteractionResult:
        """Pick `values` in a string select the bot posted."""
        user = user or self.default_user
        msg = self._message(message_id)
        self._check_visible(msg, user)
        comp = self._component(msg, custom_id)
        if comp.get("type") != 3:
            raise StandInError(f"{custom_id!r} is a type-{comp.get('type')} component, not a string select")
        if comp.get("disabled"):
            raise StandInError(f"select {custom_id!r} is disabled")
        options = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in options]
        if bad:
            raise StandInError(f"select {custom_id!r} has no option(s) {bad}; options: {options}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise StandInError(f"select {custom_id!r} takes {lo}-{hi} values, got {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.interact(bot, self._component_payload(msg, data, user), **kw)

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

    async def submit_modal(
        self, bot: Any, custom_id: str, values: dict[str, Any], *, user: dict | None = None, **kw: Any
    ) -> InteractionResult:
        """Submit the modal `custom_id` the bot showed `user` (callback type 9) with {field custom_id: value}."""
        user = user or self.default_user
        for modal in reversed(self.modals):
            if modal["data"]["custom_id"] == custom_id and not modal["submitted"] and modal["user_id"] == int(user["id"]):
                break
        else:
            shown = [(m["data"]["custom_id"], m["user_id"]) for m in self.modals if not m["submitted"]]
            raise StandInError(f"the bot showed user {user['id']} no modal {custom_id!r}; open modals: {shown}")
        used: set[str] = set()
        comps = self._modal_answer(modal["data"].get("components", []), values, used, itertools.count(1))
        unknown = set(values) - used
        if unknown:
            raise StandInError(f"modal {custom_id!r} has no field(s) {sorted(unknown)}")
        modal["submitted"] = True
        src = modal["payload"]
        guild = self.guilds.get(int(src["guild_id"])) if src.get("guild_id") else None
        ch = self.channels.get(int(src["channel_id"])) or src["channel"]
        payload = self._payload(5, {"custom_id": custom_id, "components": comps}, user, guild, ch)
        if modal["source_message_id"] is not None and modal["source_message_id"] in self.messages:
            payload["message"] = _wire(self.messages[modal["source_message_id"]])
        return await self.interact(bot, payload, **kw)

    def modal_fields(self, custom_id: str) -> list[dict]:
        """The input components (text inputs, selects...) of the last modal the bot showed with this custom_id."""
        for modal in reversed(self.modals):
            if modal["data"]["custom_id"] == custom_id:
                return [c for c in walk_components(modal["data"]["components"]) if c.get("custom_id")]
        raise StandInError(f"the bot never showed a modal {custom_id!r}")


# --------------------------------------------------------------------------------------------------
# Fixture building blocks (conftest wraps these)
# --------------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def running_standin(*, check_clean: bool = True, **kwargs: Any) -> AsyncIterator[DiscordStandIn]:
    """Start a stand-in, point discord.py at it; at exit restore discord.py, stop, and (if the body
    succeeded) fail on unhandled routes, rejected requests or unanswered interactions."""
    standin = DiscordStandIn(**kwargs)
    await standin.start()
    standin.install()
    ok = False
    try:
        yield standin
        ok = True
    finally:
        standin.uninstall()
        await standin.stop()
    if ok and check_clean:
        standin.assert_clean()


async def guild_cached(bot: Any, guild_id: int, *, timeout: float = SAFETY_TIMEOUT) -> Any:
    """The guild once the bot has it: READY may fire before a GUILD_CREATE was handled when the
    machine is slow (discord.py waits ``guild_ready_timeout`` for each), so wait for the event."""
    guild = bot.get_guild(guild_id)
    if guild is not None:
        return guild
    waits = [asyncio.ensure_future(bot.wait_for(event, check=lambda g: g.id == guild_id))
             for event in ("guild_join", "guild_available")]
    try:
        done, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
    if not done:
        raise StandInError(f"the bot never received guild {guild_id}")
    return bot.get_guild(guild_id)


@contextlib.asynccontextmanager
async def logged_in(bot: Any, token: str = "fake-token") -> AsyncIterator[Any]:
    """``await bot.login(token)`` against the stand-in (runs setup_hook); ``bot.close()`` at exit."""
    await bot.login(token)
    try:
        yield bot
    finally:
        await bot.close()
