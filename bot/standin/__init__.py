"""A Discord stand-in on 127.0.0.1: the REST API and the gateway websocket that discord.py talks
to, and a driver that plays Discord's users — one stand-in for the tests and the bench.

discord.py stays real; only the network edge is stood in for. The stand-in records every request,
keeps every message the bot sent (so a test presses exactly the buttons the bot posted) and every
version of everything it showed, answers as Discord does (400, 401, 403, 429, 40060…) and fails
the test on any route it does not implement. Modules:

- ``records``: requests, uploads, ``Shown``, ``InteractionResult``; the ERROR-log collector.
- ``fakes``: users, guilds (``FakeGuild``), DMs and private channels.
- ``messages``: messages built, checked against Discord's limits, edited; the history.
- ``rest``: the REST routes. ``gateway``: the websocket (sessions, shards, heartbeats, resume).
- ``payloads``: INTERACTION_CREATE payloads. ``driver``: slash/click/select/submit_modal/interact/settle.
- ``server``: ``DiscordStandIn`` itself. ``fixtures``: ``running_standin``, ``logged_in``, ``join_gateway``, ``guild_cached``.
- ``control``, ``__main__``, ``background``: the stand-in in another process or thread than its driver.

Typical use (the tests' conftest wraps these)::

    async with running_standin() as standin:          # server + discord.py pointed at it
        async with logged_in(make_bot()) as bot:       # bot.login + bot.connect to its gateway
            alice = standin.user(name="alice")
            g = standin.guild()
            res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice, guild=g)
            res2 = await standin.click(bot, res.message_id, label="Join", user=alice)

Every driver call sends a realistic INTERACTION_CREATE over the gateway, waits until discord.py
has parsed it and finished handling it (``settle``), re-raises anything discord.py logged at
ERROR, and returns an ``InteractionResult`` holding exactly what the bot sent back for it.
"""

from bot.standin.fakes import DEFAULT_APP_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, FakeGuild
from bot.standin.fixtures import GUILD_READY_TIMEOUT, guild_cached, join_gateway, logged_in, running_standin
from bot.standin.gateway import GatewaySession
from bot.standin.records import (
    DISPATCH_TASK_PREFIXES,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SAFETY_TIMEOUT,
    InteractionResult,
    Request,
    Shown,
    StandInError,
    UploadedFile,
    fail_on_discord_errors,
    walk_components,
)
from bot.standin.server import DiscordStandIn

__all__ = [
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DISPATCH_TASK_PREFIXES",
    "EPHEMERAL",
    "GUILD_READY_TIMEOUT",
    "IS_COMPONENTS_V2",
    "LOADING",
    "SAFETY_TIMEOUT",
    "DiscordStandIn",
    "FakeGuild",
    "GatewaySession",
    "InteractionResult",
    "Request",
    "Shown",
    "StandInError",
    "UploadedFile",
    "fail_on_discord_errors",
    "guild_cached",
    "join_gateway",
    "logged_in",
    "running_standin",
    "walk_components",
]
