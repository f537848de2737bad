"""The turn-limit sweep's requests go out from the bot's sender thread (bot.ui.courier), through the
stand-in: each table's message edited before its notice is posted, nothing of the sweep sent by
the bot's own client, a refused edit still followed by its notice, a newer state shown while the
thread sends still shown last; and closing the bot stops the thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading

import discord

from tests.conftest import Clock
from tests.discord_helpers import guild_with, latest_table, start_by_slash
from bot.standin import join_gateway, logged_in

SENDER = "deckhand: sweep sender"


def senders() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == SENDER and t.is_alive()]


async def timed_out_tables(standin, bot, count: int) -> tuple[list[int], list[dict]]:
    g, users = guild_with(standin, ("ana", "ben", "cat"))
    channels = [await start_by_slash(standin, bot, g, users, "court_wars", minutes=1,
                                     channel=g.text_channel(f"t{i}")) for i in range(count)]
    clock = Clock(bot.desk.clock())
    bot.service.clock = clock
    clock.advance(2 * 86400)
    return channels, users


@contextlib.asynccontextmanager
async def slow_sweep_edit(bot):
    """A sweep started with its table edits slow to reach Discord from the sender thread: the sweep's
    task, once its first edit is on its way."""
    began = threading.Event()
    real = discord.http.HTTPClient.edit_message

    async def edit_message(http, cid, mid, **kw):
        if threading.current_thread().name == SENDER:  # the sweep's edit: slow to reach Discord
            began.set()
            await asyncio.sleep(0.3)
        return await real(http, cid, mid, **kw)

    discord.http.HTTPClient.edit_message = edit_message
    try:
        sweep = asyncio.create_task(bot.get_cog("Tables").check_timeouts())
        while not began.is_set():
            await asyncio.sleep(0.005)
        yield sweep
    finally:
        discord.http.HTTPClient.edit_message = real


async def test_the_sweeps_edits_and_notices_reach_discord_in_order_from_the_sender_thread(standin, bot):
    channels, _ = await timed_out_tables(standin, bot, 5)
    live = {ch: int(latest_table(standin, ch)["id"]) for ch in channels}
    assert bot.courier.running and len(senders()) == 1, "started with the bot"
    own: list[str] = []  # what the bot's own client sends meanwhile
    real = bot.http.request

    def request(route, **kw):
        own.append(f"{route.method} {route.path}")
        return real(route, **kw)

    bot.http.request = request
    mark = len(standin.requests)
    try:
        assert await bot.get_cog("Tables").check_timeouts() == len(channels)
    finally:
        del bot.http.request
    assert own == [], "the sweep's requests go through the sender thread"
    sent = [(r.method, r.path) for r in standin.requests[mark:]]
    for ch in channels:
        edit, notice = ("PATCH", f"/channels/{ch}/messages/{live[ch]}"), ("POST", f"/channels/{ch}/messages")
        mine = [s for s in sent if s in (edit, notice)]
        assert mine == [edit, notice], (ch, mine)
        shown = standin._message(live[ch])
        assert "Time is up" in json.dumps(shown["embeds"], ensure_ascii=False), ch
        assert "time is up" in (standin.channel_messages(ch, include_ephemeral=False)[-1].get("content") or "")
    assert len(sent) == 2 * len(channels), sent


async def test_a_refused_edit_is_logged_and_its_notice_still_posted(standin, bot, monkeypatch, caplog):
    channels, _ = await timed_out_tables(standin, bot, 3)
    refused = channels[1]
    real = discord.http.HTTPClient.edit_message

    def edit_message(http, cid, mid, **kw):
        if int(cid) == refused:
            raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "Missing Access")
        return real(http, cid, mid, **kw)

    monkeypatch.setattr(discord.http.HTTPClient, "edit_message", edit_message)
    with caplog.at_level(logging.INFO, logger="cogs.tables"):
        assert await bot.get_cog("Tables").check_timeouts() == len(channels)
    assert [r.getMessage() for r in caplog.records if "could not edit table message" in r.getMessage()] == [
        f"could not edit table message {int(latest_table(standin, refused)['id'])} in {refused}: "
        "403 Forbidden (error code: 0): Missing Access"]
    for ch in channels:
        assert "time is up" in (standin.channel_messages(ch, include_ephemeral=False)[-1].get("content") or ""), ch


async def test_closing_the_bot_stops_the_sender_thread(standin, make_bot):
    before = senders()
    bot = make_bot()
    async with logged_in(bot):
        assert len(senders()) == len(before) + 1
        spent = bot.courier.cpu_seconds()
        assert spent > 0, "its thread's CPU is read from outside it"
    assert senders() == before, "no sender thread left alive"
    assert not bot.courier.running and bot.courier.cpu_seconds() >= spent


async def test_without_a_sender_the_sweep_goes_through_the_bots_own_client(standin, bot, monkeypatch):
    """A courier that cannot send (no token: terminal mode, a bot not logged in) is left alone:
    the bot's own client sends the sweep's requests, as before, and no thread is started."""
    from bot.ui.courier import Courier

    channels, _ = await timed_out_tables(standin, bot, 2)
    await bot.courier.close()
    monkeypatch.setattr(Courier, "usable", property(lambda self: False))
    own: list[tuple[str, str]] = []
    real = bot.http.request

    def request(route, **kw):
        own.append((route.method, route.path))
        return real(route, **kw)

    monkeypatch.setattr(bot.http, "request", request)
    assert await bot.get_cog("Tables").check_timeouts() == len(channels)
    assert sorted(own) == sorted([("PATCH", "/channels/{channel_id}/messages/{message_id}"),
                                  ("POST", "/channels/{channel_id}/messages")] * len(channels)), own
    assert not bot.courier.running and senders() == []



async def test_a_newer_state_shown_while_the_sender_edits_is_shown_last(standin, bot):
    """The sweep's edit of a table message is held on the event loop (the channel's showing lock)
    until the sender thread has sent it: a newer state shown meanwhile (here /game turnlimit's,
    through the same lock) goes out after it, so it is what the table message shows."""

    from tests.discord_helpers import shown_revision

    g, users = guild_with(standin, ("ana", "ben", "cat"))
    where = g.text_channel("slow")
    channel = await start_by_slash(standin, bot, g, users, "court_wars", minutes=1, channel=where)
    clock = Clock(bot.desk.clock())
    bot.service.clock = clock
    clock.advance(2 * 86400)
    live = int(latest_table(standin, channel)["id"])
    async with slow_sweep_edit(bot) as sweep:
        # The limit switched off: a new limit would make the turn (two days old) due again, and a
        # page of this sweep read after it would tell it again, as the next sweep would.
        await standin.slash(bot, "game turnlimit", {"minutes": 0}, user=users[0], guild=g, channel=where)
        assert await sweep == 1
        await standin.settle(bot)
    newest = await bot.service.get(channel)
    assert newest.turn_limit == 0 and shown_revision(standin, live) == newest.revision, "the later state shows last"


async def test_closing_the_bot_during_a_sweep_leaves_no_sender_thread(standin, make_bot):
    """The bot closes while its sender thread is sending a sweep: the thread stops, and what the
    sweep still hands over is refused, not sent by a new thread."""
    import asyncio

    before = senders()
    bot = make_bot()
    await join_gateway(bot)
    try:
        channels, _ = await timed_out_tables(standin, bot, 3)
        async with slow_sweep_edit(bot) as sweep:
            await bot.close()
            await asyncio.gather(sweep, return_exceptions=True)
        assert senders() == before, "no sender thread left alive"
        assert not bot.courier.running
    finally:
        await bot.close()
