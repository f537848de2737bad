"""Building blocks for test fixtures: a running stand-in with this process's discord.py pointed at
it, a bot logged in and connected to its gateway, a guild once the bot has it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, AsyncIterator

from bot.standin.records import SAFETY_TIMEOUT, StandInError
from bot.standin.server import DiscordStandIn

# How long a test's bot waits for GUILD_CREATEs after READY (``guild_ready_timeout``, a documented
# ``discord.Client`` option, 2 s by default): the stand-in sends them at once, right after READY.
GUILD_READY_TIMEOUT = 0.02


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


# Under discord's logger, where the stand-in collects ERRORs (settle() raises them).
_log = logging.getLogger("discord.standin")


def _connection_ended(bot: Any, task: asyncio.Task) -> None:
    """A gateway connection that failed (discord.py raised out of ``connect()``, e.g. parsing a
    frame): said at ERROR and the bot closed, so a wait for it ends and the failure is raised."""
    if task.cancelled() or task.exception() is None or bot.is_closed():
        return
    _log.error("the bot's gateway connection failed", exc_info=task.exception())
    asyncio.ensure_future(bot.close())


async def join_gateway(bot: Any, token: str = "fake-token", *, timeout: float = SAFETY_TIMEOUT) -> asyncio.Task:
    """``await bot.login(token)`` (runs setup_hook), then ``bot.connect()`` in a task, until the bot
    is ready; the task (it ends once ``bot.close()`` closed the bot). For a test that restarts its bot
    by hand; :func:`logged_in` is this with the close at exit."""
    await bot.login(token)
    connection = asyncio.create_task(bot.connect(), name="standin: the bot's gateway connection")
    connection.add_done_callback(lambda task: _connection_ended(bot, task))
    ready = asyncio.ensure_future(bot.wait_until_ready())
    try:
        await asyncio.wait({connection, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        ready.cancel()
    if connection.done():
        connection.result()  # the connection failed: raise why
        raise StandInError("the bot's gateway connection ended before it was ready")
    if not bot.is_ready():
        raise StandInError(f"the bot was not ready {timeout}s after connecting to the stand-in's gateway")
    return connection


@contextlib.asynccontextmanager
async def logged_in(bot: Any, token: str = "fake-token", *, connect: bool = True,
                    timeout: float = SAFETY_TIMEOUT) -> AsyncIterator[Any]:
    """``await bot.login(token)`` against the stand-in (runs setup_hook), then ``bot.connect()`` to
    its gateway until the bot is ready (``connect=False``: logged in only, e.g. a bot that only builds
    payloads for bots in other processes); ``bot.close()`` at exit. Give the bot a small
    ``guild_ready_timeout`` (:data:`GUILD_READY_TIMEOUT`) or the handshake waits 2 s."""
    connection: asyncio.Task | None = None
    try:
        if connect:
            connection = await join_gateway(bot, token, timeout=timeout)
        else:
            await bot.login(token)
        yield bot
    finally:
        await bot.close()
        if connection is not None:  # connect() returns once the bot is closed (a failure was logged at ERROR)
            await asyncio.wait([connection], timeout=timeout)
