"""The bot's side of the real press: a real ``DeckhandBot`` (its cogs, the table service on a
store the bench opened) logged in to the bench's stand-in, fed real INTERACTION_CREATE payloads
through discord.py's own parser, each press waited for until discord.py has handled it."""

from __future__ import annotations

import asyncio
import itertools
import logging
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord

from bot.benchkit.server import APP_ID, BOT_USER

GUILD_ID = 910_000_000_000_000_000
USER_BASE = 920_000_000_000_000_000
PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31))  # plain member


class CountingStore:
    """The store, with every call counted (a call is one round trip to the database)."""

    def __init__(self, inner: Any):
        self._inner = inner
        self.calls = 0
        self.names: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not asyncio.iscoroutinefunction(attr):
            return attr

        async def counted(*args: Any, **kw: Any) -> Any:
            self.calls += 1
            self.names[name] = self.names.get(name, 0) + 1
            return await attr(*args, **kw)

        return counted


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


BENCH_CHANNELS = (*range(1, 4), *range(100, 300), *range(1000, 1200))  # the channels the bench's tables use


def guild_create() -> dict[str, Any]:
    """The GUILD_CREATE a real bot receives at start-up for the bench's guild (the guilds intent):
    its channels and the bot's own member, so a press finds them cached as in a real run."""
    channel = {"type": 0, "guild_id": str(GUILD_ID), "position": 0, "parent_id": None, "nsfw": False,
               "permission_overwrites": [], "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
    return {"id": str(GUILD_ID), "name": "Bench", "icon": None, "owner_id": str(USER_BASE), "features": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": PERMISSIONS, "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "emojis": [], "stickers": [], "member_count": 5, "large": False, "unavailable": False,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "premium_tier": 0, "nsfw_level": 0, "preferred_locale": "en-US", "system_channel_flags": 0,
            "channels": [{**channel, "id": str(ch), "name": f"table-{ch}"} for ch in BENCH_CHANNELS],
            "members": [{"user": BOT_USER, "nick": None, "avatar": None, "roles": [], "deaf": False, "mute": False,
                         "joined_at": "2026-01-01T00:00:00+00:00", "flags": 0, "pending": False}],
            "threads": [], "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": []}


def user(i: int) -> dict[str, Any]:
    uid = USER_BASE + i
    return {"id": str(uid), "username": f"player{i}", "global_name": f"Player {i}", "discriminator": "0",
            "avatar": None, "bot": False, "public_flags": 0}


class Feeder:
    """Presses for one bot: buttons of the messages it posted, and slash commands."""

    def __init__(self, bot: Any, base: str, session: aiohttp.ClientSession):
        self.bot = bot
        self.base = base  # the stand-in's root URL
        self.http = session
        self.ids = itertools.count(930_000_000_000_000_000)
        self.errors = _Errors()
        self.server_pid = 0

    # ----- payloads --------------------------------------------------------------------
    def payload(self, type_: int, data: dict[str, Any], who: int, channel_id: int,
                message: dict[str, Any] | None = None) -> dict[str, Any]:
        iid = next(self.ids)
        source = message["id"] if message is not None else "0"
        u = user(who)
        p: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": type_, "token": f"bench.{channel_id}.{source}.{iid}",
            "version": 1, "attachment_size_limit": 10 * 1024 * 1024, "app_permissions": "2248473465835073",
            "locale": "en-US", "entitlements": [], "entitlement_sku_ids": [], "data": data,
            "guild_id": str(GUILD_ID), "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "member": {"user": u, "nick": None, "avatar": None, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                       "deaf": False, "mute": False, "flags": 0, "pending": False, "permissions": PERMISSIONS,
                       "communication_disabled_until": None},
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": f"table-{channel_id}",
                        "position": 0, "parent_id": None, "nsfw": False, "permissions": PERMISSIONS, "flags": 0},
            "channel_id": str(channel_id), "context": 0, "authorizing_integration_owners": {"0": str(GUILD_ID)},
        }
        if message is not None:
            p["message"] = message
        return p

    def click(self, message: dict[str, Any], custom_id: str, who: int) -> dict[str, Any]:
        return self.payload(3, {"custom_id": custom_id, "component_type": 2}, who, int(message["channel_id"]),
                            message)

    def select(self, message: dict[str, Any], custom_id: str, value: str, who: int) -> dict[str, Any]:
        return self.payload(3, {"custom_id": custom_id, "component_type": 3, "values": [value]}, who,
                            int(message["channel_id"]), message)

    def slash_move(self, channel_id: int, move: str, who: int) -> dict[str, Any]:
        data = {"id": "940000000000000001", "name": "game", "type": 1,
                "options": [{"name": "move", "type": 1, "options": [{"name": "move", "type": 3, "value": move}]}]}
        return self.payload(2, data, who, channel_id)

    # ----- feeding ---------------------------------------------------------------------
    def feed(self, payload: dict[str, Any]) -> list[asyncio.Future[Any]]:
        """Hand the payload to discord.py's parser; the tasks it started to handle it (caught by
        a task factory set only meanwhile: the tasks the handlers start later are made as in a
        real run)."""
        captured: list[asyncio.Future[Any]] = []
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Future[Any]:
            task = previous(loop, coro, **kw) if previous else asyncio.Task(coro, loop=loop, **kw)
            captured.append(task)
            return task

        loop.set_task_factory(factory)  # type: ignore[arg-type]
        try:
            self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        finally:
            loop.set_task_factory(previous)
        return captured

    async def press(self, payload: dict[str, Any]) -> int:
        """Feed one payload and wait until discord.py has handled it; how many handlers failed."""
        tasks = self.feed(payload)
        done = await asyncio.gather(*tasks, return_exceptions=True)
        return sum(1 for x in done if isinstance(x, BaseException))

    # ----- the stand-in's side ----------------------------------------------------------
    async def get(self, route: str) -> Any:
        async with self.http.get(f"{self.base}/bench/{route}") as r:
            return await r.json()

    async def message(self, message_id: int) -> dict[str, Any]:
        return await self.get(f"message/{message_id}")

    async def log(self, since: int = 0) -> dict[str, Any]:
        return await self.get(f"log?since={since}")


def buttons(message: dict[str, Any], type_: int = 2) -> list[tuple[str, str, str]]:
    """(custom_id, kind, arg) of each Deckhand button (or select: ``type_`` 3) of a message as
    the stand-in holds it."""
    out = []
    for row in message.get("components") or []:
        for c in row.get("components") or []:
            cid = c.get("custom_id") or ""
            if c.get("type") == type_ and cid.startswith("dh2:") and not c.get("disabled"):
                _, _, _, kind, arg = cid.split(":", 4)
                out.append((cid, kind, arg))
    return out


def options(message: dict[str, Any], custom_id: str) -> list[str]:
    for row in message.get("components") or []:
        for c in row.get("components") or []:
            if c.get("custom_id") == custom_id:
                return [o["value"] for o in c.get("options") or []]
    return []


@asynccontextmanager
async def running_bot(store: Any, pictures_on: bool, latency_ms: float = 0.0
                      ) -> AsyncIterator[tuple[Any, Feeder, CountingStore]]:
    """A stand-in in a child process and a logged-in bot over ``store`` (counted); the stand-in
    answers the bot's writes ``latency_ms`` late."""
    import bot.app as app
    from bot.render import pictures

    proc = subprocess.Popen([sys.executable, "-m", "bot.benchkit.server", str(latency_ms)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    port = int(await asyncio.to_thread(proc.stdout.readline))
    base = f"http://127.0.0.1:{port}"
    saved = discord.http.Route.BASE, app.open_store
    counting = CountingStore(store)
    real_table, real_seat = pictures.table_picture, pictures.seat_picture

    async def no_picture(game_id: str, view: Any) -> None:
        return None

    if not pictures_on:
        pictures.table_picture = pictures.seat_picture = no_picture  # type: ignore[assignment]
    app.point_at(f"{base}/api/v10", None)

    async def given(*_: Any, **__: Any) -> Any:
        return counting

    app.open_store = given  # type: ignore[assignment]
    bot = app.DeckhandBot("unused.sqlite3", run_timeouts=False)
    errors = None
    session = aiohttp.ClientSession()
    try:
        await bot.login("bench-token")
        bot._connection.parsers["GUILD_CREATE"](guild_create())  # as the gateway sends it at start-up
        app.settle_memory()  # as a real run's start-up does once its cogs are loaded (setup_hook, warm)
        feeder = Feeder(bot, base, session)
        feeder.server_pid = proc.pid
        errors = feeder.errors
        for name in ("discord", "cogs", "bot"):
            logging.getLogger(name).addHandler(errors)
        yield bot, feeder, counting
    finally:
        if errors is not None:
            for name in ("discord", "cogs", "bot"):
                logging.getLogger(name).removeHandler(errors)
        pictures.table_picture, pictures.seat_picture = real_table, real_seat  # type: ignore[assignment]
        discord.http.Route.BASE, app.open_store = saved
        bot.store = None  # the bench closes its own store
        await session.close()
        await bot.close()
        proc.stdin.close()
        try:
            await asyncio.to_thread(proc.wait, 10)
        except subprocess.TimeoutExpired:
            proc.kill()


__all__ = ["CountingStore", "Feeder", "buttons", "options", "running_bot", "user"]
