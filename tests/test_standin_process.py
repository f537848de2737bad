"""The stand-in apart from its driver's loop: in a thread of its own (``StandInThread``) and in a
process of its own (``python -m bot.standin``, driven through its control API), with a real
discord.py bot connected to it that the driver does not hold (``bot=None``: the slash commands as
the bot synced them, each interaction waited for by its answer)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import AsyncIterator

import aiohttp
import discord
import pytest

from bot.app import point_at
from bot.standin import SAFETY_TIMEOUT, StandInError, fail_on_discord_errors, logged_in
from bot.standin.background import StandInThread
from tests.test_standin import GUILD_ID, make_bot

ROOT = Path(__file__).resolve().parent.parent


@contextlib.asynccontextmanager
async def pointed_at(api_base: str, gateway_url: str) -> AsyncIterator[None]:
    before = point_at(api_base, gateway_url)
    try:
        yield
    finally:
        point_at(*before)


async def test_a_standin_in_its_own_thread_drives_a_bot_it_does_not_hold() -> None:
    with StandInThread() as t, fail_on_discord_errors():
        s = t.standin

        async def there(work):  # the stand-in's work runs in its loop; this loop runs the bot
            return await asyncio.wrap_future(t.submit(work))

        async with pointed_at(s.base_url, s.gateway_url), logged_in(make_bot()) as bot:
            await bot.tree.sync()
            g = await there(lambda s: s.guild(id=GUILD_ID))
            shown = await there(lambda s: s.slash(None, "demo show", guild=g))
            assert shown.embed["title"] == "Board" and shown.buttons()[0] == ("counter:0", "Count 0", False)
            clicked = await there(lambda s: s.click(None, shown.message_id, "counter:0"))
            assert clicked.callback_type == 7 and clicked.content == "count=1"
            found = await there(lambda s: s.slash(None, "demo find", {"query": "grid", "seats": 3}, guild=g))
            assert found.content == "found grid for 3"
            with pytest.raises(StandInError, match="synced no slash command /admin"):
                await there(lambda s: s.slash(None, "admin", guild=g))  # a guild command, not synced there yet
            await bot.tree.sync(guild=discord.Object(GUILD_ID))
            admin = await there(lambda s: s.slash(None, "admin", guild=g))
            assert admin.content == "admin ok" and admin.ephemeral
        assert t.call(lambda s: s.unanswered) == []


async def test_python_m_bot_standin_serves_a_bot_in_another_process_and_a_driver_through_its_control() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.standin", "--until-stdin-closes", cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        urls = json.loads(await asyncio.wait_for(proc.stdout.readline(), SAFETY_TIMEOUT))
        assert urls["api_base"].endswith("/api/v10") and urls["gateway_url"].startswith("ws://127.0.0.1:")
        control = urls["control"]
        async with aiohttp.ClientSession() as http:

            async def ask(method: str, route: str, **body):
                kw = {"json": body} if method == "POST" else {"params": body}
                async with http.request(method, f"{control}/{route}", **kw) as r:
                    got = await r.json()
                    assert r.status == 200, got
                    return got

            with fail_on_discord_errors():
                async with pointed_at(urls["api_base"], urls["gateway_url"]), logged_in(make_bot()) as bot:
                    assert bot.user.id == int(urls["application_id"])
                    await bot.tree.sync()
                    info = await ask("GET", "wait-bots", count=1)
                    assert [x["live"] for x in info["sessions"]] == [True]
                    ana = await ask("POST", "user", name="ana")
                    g = await ask("POST", "guild", name="Far", members=[ana["id"]])
                    shown = await ask("POST", "slash", command="demo show", user_id=ana["id"], guild_id=g["id"])
                    assert shown["answered"] and shown["callback_type"] == 4 and shown["embeds"][0]["title"] == "Board"
                    clicked = await ask("POST", "click", message_id=shown["message_id"], label="Count 0",
                                        user_id=ana["id"])
                    assert clicked["callback_type"] == 7 and clicked["content"] == "count=1"
                    pinged = await ask("POST", "slash", command="demo ping", options={"who": {"user": ana["id"]}},
                                       user_id=ana["id"], guild_id=g["id"])
                    assert pinged["ephemeral"] and pinged["content"] == "pinged"
                    msg = await ask("GET", f"message/{shown['message_id']}")
                    assert msg["message"]["content"] == "count=1" and msg["versions"] == 2
                    sent = await ask("GET", "requests")
                    assert [r["path"] for r in sent["requests"] if r["path"].endswith("/callback")] == [
                        f"/interactions/{x['id']}/{x['token']}/callback" for x in (shown, clicked, pinged)]
                    assert sent["unhandled"] == []
                    async with http.post(f"{control}/click", json={"message_id": shown["message_id"],
                                                                   "custom_id": "counter:0"}) as r:
                        assert r.status == 400 and "no component 'counter:0'" in (await r.json())["error"]
    finally:
        proc.stdin.close()
        code = await asyncio.wait_for(proc.wait(), SAFETY_TIMEOUT)
    assert code == 0, (await proc.stderr.read()).decode()
