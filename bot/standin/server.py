"""The stand-in itself: one aiohttp server on 127.0.0.1 with the REST API under ``/api/v10``, the
gateway websocket at ``/gateway-ws`` and (for a driver in another process) a small control API
under ``/standin/``; its state; pointing this process's discord.py at it."""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from typing import Any, Callable, Iterable

from aiohttp import web

from bot.standin.driver import Driver
from bot.standin.fakes import FakeGuild, People
from bot.standin.gateway import Gateway, GatewaySession
from bot.standin.messages import MessageStore
from bot.standin.payloads import Payloads
from bot.standin.records import TOKEN_LIFE, InteractionResult, Request, Shown, StandInError, UploadedFile, _ErrorCollector
from bot.standin.rest import RestRoutes


class DiscordStandIn(Driver, Payloads, Gateway, RestRoutes, MessageStore, People):
    """Fake Discord (REST under /api/v10 and a gateway websocket) on 127.0.0.1.

    ``latency``: seconds every REST request but a read waits before it is answered (Discord's
    round trip across the network; 0 on loopback)."""

    def __init__(self, *, application_id: int | None = None, bot_name: str = "Deckhand", latency: float = 0.0,
                 host: str = "127.0.0.1", port: int = 0) -> None:
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
        self.host = host
        self.port: int | None = port or None
        self._wanted_port = port
        self.latency = latency
        self.requests: list[Request] = []
        self.request_count = 0  # every request ever (``forget`` drops the list, not the count)
        self.unhandled: list[Request] = []
        self.rejected: list[tuple[Request, str]] = []  # requests real Discord would refuse (400), with why
        self.rate_limited: list[Request] = []  # requests answered 429 (see rate_limit())
        self.users: dict[int, dict] = {self.application_id: self.bot_user, int(self.owner["id"]): self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, dict] = {}
        self.private_channels: set[int] = set()  # people's own DMs and group DMs (the bot is not in them)
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
        self.sessions: dict[str, GatewaySession] = {}  # the bots' gateway sessions (one per shard connected)
        self.identified = asyncio.Event()
        self.discord_errors: list[logging.LogRecord] = []
        self.settle_ignore: set[str] = set()  # extra task-name prefixes settle() must not wait for
        self.refused_tokens: set[str] = set()  # REST answers 401 to these bot tokens (as Discord to a reset token)
        self._error_mark = 0
        self._error_handler: _ErrorCollector | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, str] | None = None
        self._default_user: dict | None = None
        self._rate_limits: list[dict] = []
        self._drops: list[dict] = []
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = []
        self._setup_routes()

    # --- lifecycle ------------------------------------------------------------------------------
    @property
    def root_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The REST base (``DISCORD_API_BASE`` of a bot in another process)."""
        return f"{self.root_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway (``DISCORD_GATEWAY_URL`` of a bot in another process)."""
        return f"ws://{self.host}:{self.port}/gateway-ws"

    def application(self) -> web.Application:
        """The aiohttp application: gateway, REST, and (``python -m bot.standin``) the control routes."""
        from bot.standin.control import add_control_routes

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway-ws", self._ws_handler)
        add_control_routes(app, self)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest_handler)
        app.router.add_route("*", "/{tail:.*}", self._rest_handler)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._wanted_port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> None:
        """Point this process's discord.py (REST, webhooks/interactions and gateway) at the stand-in
        (``bot.app.point_at``, the one place that does) and collect discord's ERROR logs."""
        from bot.app import point_at

        if self._saved is None:
            self._saved = point_at(self.base_url, self.gateway_url)
        else:
            point_at(self.base_url, self.gateway_url)
        if self._error_handler is None:
            self._error_handler = _ErrorCollector(self.discord_errors)
            logging.getLogger("discord").addHandler(self._error_handler)

    def uninstall(self) -> None:
        """Point discord.py back where it pointed before ``install``; stop collecting its ERRORs."""
        if self._saved is not None:
            from bot.app import point_at

            point_at(*self._saved)
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

    def forget(self, keep: Iterable[int] = ()) -> None:
        """Drop what a long run no longer reads (the requests, the history shown, the answered
        interactions, messages but those in ``keep``), so a bench's memory stays flat."""
        self.requests.clear()
        self.shown.clear()
        self.versions.clear()
        self.deleted_messages.clear()
        kept = {int(k) for k in keep}
        self.messages = {k: v for k, v in self.messages.items() if k in kept}
        now = time.monotonic()  # an answered interaction's token still takes follow-ups, as on Discord
        self.interactions = {t: r for t, r in self.interactions.items()
                             if not r.answered or now - r.created < TOKEN_LIFE}
        for r in self.interactions.values():
            r.requests = []
        self.modals = [m for m in self.modals if not m["submitted"]]

    async def wait_for_bots(self, count: int = 1, *, timeout: float = 60.0) -> None:
        """Until ``count`` gateway sessions are connected (bots, or shards, past IDENTIFY)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while sum(1 for s in self.sessions.values() if s.live.is_set()) < count:
            if loop.time() > deadline:
                raise StandInError(f"{count} bot connection(s) awaited; {len(self.sessions)} connected")
            self.identified.clear()
            try:
                await asyncio.wait_for(self.identified.wait(), max(deadline - loop.time(), 0.001))
            except asyncio.TimeoutError:
                pass
