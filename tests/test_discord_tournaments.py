"""A Swiss tournament of nine (three people, six built-in players) through the Discord stand-in:
/tournament new (Manage Server only), sign-up buttons, the organiser's Start, each round's
tables in threads with their people pinged, moves with /game move, standings (a table and a
picture) after every round, a restart of the bot in the middle, Drop out, the final standings."""

from __future__ import annotations

import random

import discord

from bot.engine.registry import spec
import pytest

from tests.discord_helpers import latest_table, no_deferral_deadline
from tests.service_helpers import turns
from bot.standin import GUILD_READY_TIMEOUT, join_gateway, logged_in
from tests.store.conftest import backend  # noqa: F401 — fixture: both back ends (PostgreSQL: tests/conftest.py)

MANAGER = discord.Permissions(view_channel=True, send_messages=True, manage_guild=True,
                              use_application_commands=True).value


@pytest.fixture
def make_bot_on(backend, monkeypatch):  # noqa: F811
    """Bots on the backend's database (SQLite, then a real PostgreSQL); call again to restart."""
    import bot.app as app

    async def open_store(*_a, **_k):
        return await backend.open()

    monkeypatch.setattr(app, "open_store", open_store)
    return lambda: no_deferral_deadline(app.DeckhandBot("unused.sqlite3", run_timeouts=False, end_animation=False,
                                                            guild_ready_timeout=GUILD_READY_TIMEOUT))


def cog(bot):
    return bot.get_cog("Tournaments")


async def play_table(standin, bot, channel_id: int, users: dict[int, dict], seed: int) -> None:
    """The people at a table play it out with /game move (as the built-in player would choose)."""
    rng = random.Random(seed)
    thread = standin.channels[channel_id]
    async for table, game, seat in turns(bot.service, channel_id, 300):
        user = users[table.seats[seat].user_id]
        move = str(spec(table.game).player(game, seat, rng))
        res = await standin.slash(bot, "game move", {"move": move}, user=user, channel=thread)
        assert not res.ephemeral or "moved on" not in res.text, res.text


async def test_swiss_of_nine_through_discord_with_a_restart(standin, make_bot_on):
    make_bot = make_bot_on
    g = standin.guild()
    org, ana, ben = (standin.user(name=n) for n in ("org", "ana", "ben"))
    g.add_member(org, permissions=MANAGER)
    g.add_member(ana)
    g.add_member(ben)
    users = {int(u["id"]): u for u in (org, ana, ben)}
    channel = int(g.channel["id"])
    async with logged_in(make_bot()) as bot:
        refused = await standin.slash(bot, "tournament new", {"game": "cardchess2", "format": "swiss"}, user=ana,
                                      guild=g)
        assert refused.ephemeral and "Manage Server" in refused.text
        res = await standin.slash(bot, "tournament new", {"game": "cardchess2", "format": "swiss", "bots": 6,
                                                          "round_hours": 2}, user=org, guild=g)
        assert not res.ephemeral and "Sign-up is open" in res.embed["description"]
        signup = res.message_id
        labels = [label for _, label, _ in standin.buttons(signup)]
        assert labels == ["Join", "Leave", "Start", "Cancel"]
        for u in (org, ana, ben):
            joined = await standin.click(bot, signup, label="Join", user=u)
            assert joined.callback_type == 7  # the sign-up message edited in place
        again = await standin.click(bot, signup, label="Join", user=ana)
        assert again.ephemeral and "already" in again.text
        early = await standin.click(bot, signup, label="Start", user=ana)
        assert early.ephemeral and "organiser" in early.text
        started = await standin.click(bot, signup, label="Start", user=org)
        assert started.callback_type == 7
        await standin.settle(bot)
        tid = (await cog(bot).tours.in_channel(channel)).id
        t = await cog(bot).tours.load(tid)
        assert t.status == "running" and len(t.entrants) == 9 and t.rounds_planned == 4
        first_round = t.current

    # a restart between the round's opening and its games: a new bot on the same database
    bot = make_bot()
    await join_gateway(bot)
    try:
        dropped_out = restarted = False
        for rnd in range(1, 5):
            t = await cog(bot).tours.load(tid)
            assert len(t.rounds) == rnd
            if rnd == 1:
                assert [b.to_json() for b in t.current] == [b.to_json() for b in first_round]
            for k, b in enumerate(t.current):
                people = [u for u in b.players if u > 0]
                if b.bye or not people:
                    continue
                thread = b.channel
                assert thread in standin.channels and standin.channels[thread]["parent_id"] == str(channel)
                posted = standin.channel_messages(thread)
                pings = [m for m in posted if standin.pinged_user_ids(m)]
                assert pings and sorted(standin.pinged_user_ids(pings[0])) == sorted(people), "the people pinged"
                assert latest_table(standin, thread), "the table posted in its thread"
                if rnd == 3 and not dropped_out:  # someone drops out with the button of the old sign-up message
                    dropped_out = True
                    leaver = users[people[0]]
                    msg = (await cog(bot).tours.view(tid)).message_id
                    dropped = await standin.click(bot, msg, label="Drop out", user=leaver)
                    assert dropped.callback_type == 7
                    assert (await bot.service.get(thread)).status == "finished", "dropping out forfeits the table"
                    continue
                await play_table(standin, bot, thread, users, rnd * 10 + k)
                if rnd == 2 and not restarted:  # and a restart in the middle of round two
                    restarted = True
                    await standin.settle(bot)
                    await bot.close()
                    bot = make_bot()
                    await join_gateway(bot)
            await standin.settle(bot)
            await cog(bot).tick()
            await standin.settle(bot)
            standings = [m for m in standin.channel_messages(channel)
                         if m.get("embeds") and "standings" in (m["embeds"][0].get("title") or "")]
            assert len(standings) == rnd, "the standings after every round"
            last = standings[-1]
            assert last["attachments"] and last["attachments"][0]["filename"] == "standings.png"
            assert standin.files(int(last["id"]))[0].data[:8] == b"\x89PNG\r\n\x1a\n"
            assert "Pts" in last["embeds"][0]["description"]
        view = await cog(bot).tours.view(tid)
        assert view.status == "finished"
        assert "final standings" in standings[-1]["embeds"][0]["title"]
        shown = standin._message(view.message_id)
        assert "Finished" in shown["embeds"][0]["description"] and not shown.get("components")
        t = await cog(bot).tours.load(tid)
        pairs = [frozenset(b.players) for r in t.rounds for b in r if not b.bye]
        assert len(pairs) == len(set(pairs)) == 16
        assert any(e.dropped for e in t.entrants)
        rated = await bot.service.store.ratings(g.id, "cardchess2", list(users))
        assert rated, "tournament games rate their people"
        assert restarted
    finally:
        await bot.close()


async def test_without_threads_the_round_waits_and_ends_in_draws(standin, make_bot, monkeypatch):
    from types import SimpleNamespace

    g = standin.guild()
    org, ana = standin.user(name="org"), standin.user(name="ana")
    g.add_member(org, permissions=MANAGER)
    g.add_member(ana)
    channel = int(g.channel["id"])
    async with logged_in(make_bot()) as bot:
        tried = []

        async def refused(*args, **kw):
            tried.append(kw.get("name"))
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Permissions")

        monkeypatch.setattr(bot.http, "start_thread_without_message", refused)
        res = await standin.slash(bot, "tournament new", {"game": "court_wars", "format": "swiss", "rounds": 1,
                                                          "round_hours": 1}, user=org, guild=g)
        for u in (org, ana):
            await standin.click(bot, res.message_id, label="Join", user=u)
        await standin.click(bot, res.message_id, label="Start", user=org)
        await standin.settle(bot)
        await cog(bot).tick()
        await standin.settle(bot)
        told = [m for m in standin.channel_messages(channel) if "Create Public Threads" in (m.get("content") or "")]
        assert len(told) == 1 and len(tried) >= 2, "told once, tried again by the clock"
        tid = (await cog(bot).tours.in_channel(channel)).id
        t = await cog(bot).tours.load(tid)
        assert t.current[0].channel is None and not t.current[0].done
        await cog(bot).tours._mutate(tid, lambda t: setattr(t, "round_ends", 0.0))  # the round's time is up
        await cog(bot).tick()
        await standin.settle(bot)
        t = await cog(bot).tours.load(tid)
        assert t.status == "finished" and t.current[0].places == [0, 0] and t.current[0].how == "settled"


async def test_maginot_tables_of_twelve_through_discord_with_a_restart(standin, make_bot):
    g = standin.guild()
    org, ana, ben, cat = (standin.user(name=n) for n in ("org", "ana", "ben", "cat"))
    g.add_member(org, permissions=MANAGER)
    for u in (ana, ben, cat):
        g.add_member(u)
    users = {int(u["id"]): u for u in (org, ana, ben, cat)}
    channel = int(g.channel["id"])
    bot = make_bot()
    await join_gateway(bot)
    try:
        res = await standin.slash(bot, "tournament new", {"game": "maginot_line", "format": "tables", "seats": 4,
                                                          "rounds": 2, "round_hours": 1, "bots": 8, "settle": "ahead"},
                                  user=org, guild=g)
        assert "tables of 4" in res.embed["title"]
        for u in users.values():
            await standin.click(bot, res.message_id, label="Join", user=u)
        await standin.click(bot, res.message_id, label="Start", user=org)
        await standin.settle(bot)
        tid = (await cog(bot).tours.in_channel(channel)).id
        for rnd in range(1, 3):
            t = await cog(bot).tours.load(tid)
            assert len(t.rounds) == rnd
            assert sum(len(b.players) for b in t.current if not b.bye) == (12 if rnd == 1 else 11)
            people_boards = [b for b in t.current if any(u > 0 for u in b.players)]
            for b in people_boards:
                assert b.channel in standin.channels and b.announced
                table = latest_table(standin, b.channel)
                assert table and "Maginot" in (table["embeds"][0].get("title") or "")
            if rnd == 1:  # a person drops out: a forfeit at that table, no table next round
                leaver = next(u for u in people_boards[0].players if u > 0)
                msg = (await cog(bot).tours.view(tid)).message_id
                await standin.click(bot, msg, label="Drop out", user=users[leaver])
                await standin.settle(bot)
            else:  # a restart during the round
                await bot.close()
                bot = make_bot()
                await join_gateway(bot)
            await cog(bot).tours._mutate(tid, lambda t: setattr(t, "round_ends", 0.0))  # the round's time is up
            await cog(bot).tick()
            await standin.settle(bot)
            standings = [m for m in standin.channel_messages(channel)
                         if m.get("embeds") and "standings" in (m["embeds"][0].get("title") or "")]
            assert len(standings) == rnd
        t = await cog(bot).tours.load(tid)
        assert t.status == "finished"
        assert "final standings" in standings[-1]["embeds"][0]["title"]
        settled = [m for b in t.rounds[1] if b.channel and b.channel > 0 for m in standin.channel_messages(b.channel)
                   if "settled as" in (m.get("content") or "")]
        assert settled, "the tables still playing were settled and told so"
        view = await cog(bot).tours.view(tid)
        assert len(view.standings) == 12 and sum(s.points for s in view.standings) > 0
    finally:
        await bot.close()
