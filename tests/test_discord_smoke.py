"""The whole bot started the way `python -m bot run` starts it, with DISCORD_API_BASE and
DISCORD_GATEWAY_URL pointing at the stand-in: HELLO, IDENTIFY, READY, GUILD_CREATE, then a
game played over the gateway; the turn-limit loop runs too."""

from __future__ import annotations

import asyncio

from bot.app import build
from bot.config import Settings
from tests.discord_helpers import no_deferral_deadline
from bot.standin import SAFETY_TIMEOUT, guild_cached


async def test_full_start_over_the_gateway(standin, tmp_path):
    settings = Settings.from_env({"DISCORD_TOKEN": "fake-token", "DECKHAND_DATABASE": str(tmp_path / "db.sqlite3"),
                                  "DISCORD_API_BASE": standin.base_url, "DISCORD_GATEWAY_URL": standin.gateway_url})
    g = standin.guild(name="Smoke")
    ana = standin.user(name="ana")
    g.add_member(ana)
    bot = no_deferral_deadline(build(settings))
    bot._connection.guild_ready_timeout = 0.05
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    bot.add_listener(on_ready)
    task = asyncio.create_task(bot.start(settings.require_token()))
    try:
        await asyncio.wait_for(ready.wait(), SAFETY_TIMEOUT)
        assert await guild_cached(bot, g.id) is not None
        res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=ana, guild=g)
        assert not res.ephemeral and "Gridcannon" in res.embed["title"]
        first = next(cid for cid, _, _ in standin.buttons(res.message_id) if ":s:" in cid)
        clicked = await standin.click(bot, res.message_id, first, user=ana)
        assert clicked.callback_type in (4, 7)  # a whole move edits the table; a first step opens a picker
        assert "moved on" not in clicked.text
        assert bot.get_cog("Tables").timeout_loop.is_running()
    finally:
        await bot.close()
        await asyncio.wait_for(task, SAFETY_TIMEOUT)
    assert task.exception() is None
    assert settings.database.exists()


async def test_a_real_run_warms_its_picture_processes(standin, db_path):
    """`run` builds a warm bot: once started, its picture processes are up (the first table does not
    wait for them); the tests' bots start cold."""
    from bot.app import DeckhandBot
    from bot.render import pictures
    from bot.standin import GUILD_READY_TIMEOUT, logged_in

    try:
        warm = DeckhandBot(db_path, run_timeouts=False, warm=True, guild_ready_timeout=GUILD_READY_TIMEOUT)
        async with logged_in(warm) as bot:
            assert await bot._warming >= 1, "the picture processes answered"
        async with logged_in(DeckhandBot(db_path, run_timeouts=False, guild_ready_timeout=GUILD_READY_TIMEOUT)) as cold:
            assert not cold.warm and not hasattr(cold, "_warming")
    finally:
        pictures.shutdown()


async def test_a_bots_close_stops_its_picture_processes(standin, db_path, monkeypatch):
    """A bot that closes stops the picture processes it started (the tests share one pool across
    bots, through a wrapper that keeps it: here the bot sees the module itself)."""
    import bot.app
    from bot.app import DeckhandBot
    from bot.render import pictures
    from bot.standin import GUILD_READY_TIMEOUT, logged_in

    monkeypatch.setattr(bot.app, "pictures", pictures)  # not the tests' keeping wrapper
    stopped = []
    real = pictures.shutdown
    monkeypatch.setattr(pictures, "shutdown", lambda *a, **k: (stopped.append(True), real(*a, **k))[1])
    async with logged_in(DeckhandBot(db_path, run_timeouts=False, guild_ready_timeout=GUILD_READY_TIMEOUT)):
        pass
    assert stopped == [True], "closing the bot stops its picture processes"
