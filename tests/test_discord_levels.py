"""Bot levels through the Discord stand-in: the host seats Easy, Normal and Strong bots with one
press each and the lobby shows their levels; a game against a Strong bot is played to its end,
each of its moves thought in another process and shown on the table message like any move; a
restart while the Strong bot is thinking resumes it; a tournament enters its bots at a level."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.engine import levels
from bot.standin import join_gateway
from bot.store.base import BOT_THINKING
from bot.tables import Actor
from bot.tables import thinking
from bot.tables.games import load_game
from tests.discord_helpers import auto_move_for, guild_with, latest_table, make_move, parse_cid, shown_revision


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setenv("DECKHAND_STRONG_SECONDS", "0.02")  # a Strong move's budget in the tests: small
    yield
    thinking.shutdown()


async def settled(bot) -> None:
    """Wait until no bot of this process thinks (bounded: a bot that never ends fails the test)."""
    for _ in range(6000):
        if not bot.service.thinking():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a bot kept thinking")


def seats_field(res) -> list[str]:
    seats = next(f["value"] for f in res.embed["fields"] if f["name"].startswith("Seats"))
    return [line.split(". ", 1)[1] for line in seats.splitlines()]


async def lobby_with(standin, bot, g, host, *levels_: str, game: str = "court_wars", variants: str = "first=0"):
    res = await standin.slash(bot, "game new", {"game": game, "variants": variants}, user=host, guild=g)
    for level in levels_:
        res = await standin.click(bot, res.message_id, label=f"Add {level} bot", user=host)
        assert not res.ephemeral, res.text
    return res


async def test_the_host_adds_easy_normal_and_strong_bots_and_the_lobby_shows_them(standin, bot):
    g, (ana, ben) = guild_with(standin, ("ana", "ben"))
    lobby = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    buttons = [(parse_cid(c)[2:], label) for c, label, _ in standin.buttons(lobby.message_id) if c]
    assert [b for b in buttons if b[0][0] == "ab"] == [
        (("ab", "easy"), "Add Easy bot"), (("ab", "normal"), "Add Normal bot"), (("ab", "strong"), "Add Strong bot")]
    refused = await standin.click(bot, lobby.message_id, label="Add Strong bot", user=ben)
    assert refused.ephemeral and "Only the host" in refused.text
    res = lobby
    for level in ("Easy", "Normal", "Strong"):
        res = await standin.click(bot, res.message_id, label=f"Add {level} bot", user=ana)
        assert not res.ephemeral, res.text
    assert seats_field(res)[1:] == ["🤖 Deckhand bot 1 (Easy)", "🤖 Deckhand bot 2 (Normal)",
                                    "🤖 Deckhand bot 3 (Strong)"]
    table = await bot.service.get(int(g.channel["id"]))
    assert [s.level for s in table.seats] == [None, "easy", "normal", "strong"]
    full = {label: disabled for _, label, disabled in standin.buttons(res.message_id)}
    assert full["Add Easy bot"] and full["Add Normal bot"] and full["Add Strong bot"], "a full table: no more bots"
    rules = await standin.slash(bot, "game rules", {"game": "court_wars"}, user=ana, guild=g)
    help_for = {f["name"]: f["value"] for f in rules.embed["fields"]}
    assert "Add Strong bot" in help_for["Playing against bots"] and "Easy" in help_for["Playing against bots"]
    solo = await standin.slash(bot, "game rules", {"game": "gridcannon"}, user=ana, guild=g)
    assert "Playing against bots" not in {f["name"] for f in solo.embed["fields"]}


async def test_a_game_against_a_strong_bot_is_played_to_its_end(standin, bot, monkeypatch):
    chosen: list[str] = []  # the levels chosen in this process (the thinking processes are not recorded)
    real = levels.choose
    monkeypatch.setattr(levels, "choose", lambda level, *a, **k: chosen.append(level) or real(level, *a, **k))
    g, (ana,) = guild_with(standin, ("ana",))
    channel = int(g.channel["id"])
    res = await lobby_with(standin, bot, g, ana, "Strong", "Easy")
    await standin.click(bot, res.message_id, label="Start", user=ana)
    for i in range(500):
        await settled(bot)
        table = await bot.service.get(channel)
        if table.status != "playing":
            break
        assert load_game(table).to_act() == {0}, "once the bots are done, the table waits for the person"
        assert shown_revision(standin, int(latest_table(standin, channel)["id"])) == table.revision, \
            "the table message shows every bot's move"
        _, move = await auto_move_for(bot, channel, i)
        answered = await make_move(standin, bot, channel, 0, move, [ana])
        assert not (answered.ephemeral and "moved on" in answered.text), answered.text
    table = await bot.service.get(channel)
    assert table.status == "finished"
    assert sum(1 for m in table.moves if m[0] == 1) > 3, "the Strong bot played many moves"
    assert "easy" in chosen and "strong" not in chosen, "Easy plays inline; Strong thinks in another process"
    assert "game over" in latest_table(standin, channel)["embeds"][0]["footer"]["text"]
    for m in standin.channel_messages(channel):
        assert not any(u < 0 for u in standin.pinged_user_ids(m)), "nobody pings a bot"


async def test_a_restart_while_the_strong_bot_thinks_resumes_it(standin, make_bot):
    bot = make_bot()
    await join_gateway(bot)
    g, (ana,) = guild_with(standin, ("ana",))
    channel = int(g.channel["id"])
    res = await lobby_with(standin, bot, g, ana, "Strong")
    await standin.click(bot, res.message_id, label="Start", user=ana)
    person = Actor(int(ana["id"]), "ana")
    for i in range(50):  # the person plays (as a press would) until the Strong bot must think
        table = await bot.service.get(channel)
        if load_game(table).to_act() != {0}:
            break
        _, move = await auto_move_for(bot, channel, i)
        await bot.desk.move(channel, person, move)
        await bot.desk.stop_thinking()  # the process goes down at once: before its bot has thought
    stopped = await bot.service.get(channel)
    assert load_game(stopped).to_act() == {1} and stopped.series.get(BOT_THINKING) is not None
    await standin.settle(bot)
    await bot.close()

    bot = make_bot()  # the restart: a new process on the same database
    await join_gateway(bot)
    try:
        await standin.settle(bot)  # its start-up (on_ready) woke the thinking bot
        await settled(bot)
        await standin.settle(bot)
        after = await bot.service.get(channel)
        assert len(after.moves) > len(stopped.moves) and after.moves[len(stopped.moves)][0] == 1, "it moved"
        assert after.status != "playing" or load_game(after).to_act() == {0}
        assert BOT_THINKING not in after.series
        assert shown_revision(standin, int(latest_table(standin, channel)["id"])) == after.revision, \
            "the table message shows its move"
    finally:
        await bot.close()


MANAGER = discord.Permissions(view_channel=True, send_messages=True, manage_guild=True,
                              use_application_commands=True).value


async def test_a_tournament_enters_its_bots_at_a_level(standin, bot):
    g = standin.guild()
    org = standin.user(name="org")
    g.add_member(org, permissions=MANAGER)
    res = await standin.slash(bot, "tournament new", {"game": "court_wars", "format": "swiss", "bots": 3,
                                                      "bot_level": "strong"}, user=org, guild=g)
    assert not res.ephemeral and "Built-in players play at the Strong level." in res.embed["description"]
    tours = bot.get_cog("Tournaments").tours
    t = await tours.load((await tours.in_channel(int(g.channel["id"]))).id)
    assert t.bot_level == "strong" and [e.user_id for e in t.entrants] == [-1, -2, -3]
    other = standin.guild()
    other.add_member(org, permissions=MANAGER)
    plain = await standin.slash(bot, "tournament new", {"game": "court_wars", "format": "swiss", "bots": 1},
                                user=org, guild=other)
    assert not plain.ephemeral, plain.text
    assert "Built-in players play at the Normal level." in plain.embed["description"]
