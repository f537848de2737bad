"""Turn limits through the Discord stand-in (Court Wars, three players, a 1-minute limit): the
warning ping when a quarter of the turn is left, the time-up ping, each a short message that
mentions only the late player; Skip playing the late player's whole turn (draw, then place a
guard); the time-up notice and the Skip/Remove buttons gone once the turn has passed."""

from __future__ import annotations

import json
import logging

from bot.store import StoreError
from bot.tables.games import load_game
from tests.discord_helpers import (
    auto_move_for, click_seen, components, guild_with, latest_table, make_move, parse_cid, seen, shown_revision,
    start_by_slash,
    table_messages,
)


def people(standin, n=3):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


async def started(standin, bot, clock):
    bot.service.clock = clock
    g, users = people(standin)
    channel = await start_by_slash(standin, bot, g, users, "court_wars", minutes=1)
    table = await bot.service.get(channel)
    late = min(load_game(table).to_act())
    return g, users, channel, late


def button(standin, message_id: int, kind: str) -> str:
    return next(c["custom_id"] for c in components(standin, message_id)
                if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == kind)


def public(standin, channel):
    return standin.channel_messages(channel, include_ephemeral=False)


def time_up_shown(standin, message_id: int) -> tuple[bool, set[str]]:
    msg = standin._message(message_id)
    labels = {label for _, label, _ in standin.buttons(message_id)}
    shown = "Time is up" in json.dumps(msg["embeds"], ensure_ascii=False)
    return shown, labels & {"Skip late player", "Remove late player"}


async def test_warning_and_time_up_pings_mention_only_the_late_player(standin, bot, clock):
    g, users, channel, late = await started(standin, bot, clock)
    cog = bot.get_cog("Tables")
    late_id = int(users[late]["id"])
    tables_before = len(table_messages(standin, channel))
    posted = len(public(standin, channel))

    clock.advance(44)
    assert await cog.check_timeouts() == 0
    clock.advance(1)  # 45 s of 60: a quarter of the turn is left
    assert await cog.check_timeouts() == 1
    warning = public(standin, channel)[-1]
    assert warning["content"] == f"<@{late_id}> — a quarter of your turn is left at Court Wars (about 15 s to go)."
    assert standin.pinged_user_ids(warning) == [late_id]
    assert warning["allowed_mentions"]["parse"] == [] and [int(u) for u in warning["allowed_mentions"]["users"]] == [late_id]
    assert not warning["embeds"] and not warning.get("components"), "a short message, not the table"
    assert await cog.check_timeouts() == 0, "one warning a turn"

    clock.advance(15)
    assert await cog.check_timeouts() == 1
    up = public(standin, channel)[-1]
    assert up["content"].startswith(f"<@{late_id}> — time is up at Court Wars; the other players or the host may "
                                    "**Skip** your turn")
    assert standin.pinged_user_ids(up) == [late_id]
    assert not up["embeds"] and not up.get("components")
    assert await cog.check_timeouts() == 0, "time up is told once"
    assert len(public(standin, channel)) == posted + 2, "two pings, nothing else"
    assert len(table_messages(standin, channel)) == tables_before, "the table is not reposted"


async def test_skip_plays_the_whole_turn_and_the_notice_and_buttons_go(standin, bot, clock):
    g, users, channel, late = await started(standin, bot, clock)
    clock.advance(61)
    assert await bot.get_cog("Tables").check_timeouts() == 1
    shown = int(latest_table(standin, channel)["id"])
    assert time_up_shown(standin, shown) == (True, {"Skip late player", "Remove late player"})
    before = await bot.service.get(channel)
    other = users[(late + 1) % 3]
    done = await standin.click(bot, shown, label="Skip late player", user=other)
    assert not done.ephemeral
    after = await bot.service.get(channel)
    played = after.moves[len(before.moves):]
    assert [m[0] for m in played] == [late, late], "the whole turn: draw, then place a guard"
    assert played[0][1] == "draw" and played[1][1].startswith("place")
    assert late not in load_game(after).to_act()
    assert not after.timed_out
    # The clicked message now shows the table after the turn: no time-up notice, no Skip/Remove.
    assert time_up_shown(standin, done.message_id) == (False, set())
    # The next player is warned in their own turn.
    nxt = min(load_game(after).to_act())
    clock.advance(45)
    assert await bot.get_cog("Tables").check_timeouts() == 1
    assert standin.pinged_user_ids(public(standin, channel)[-1]) == [int(users[nxt]["id"])]


async def test_when_the_late_player_moves_the_time_up_goes_away(standin, bot, clock):
    g, users, channel, late = await started(standin, bot, clock)
    clock.advance(61)
    assert await bot.get_cog("Tables").check_timeouts() == 1
    live = int(latest_table(standin, channel)["id"])
    assert time_up_shown(standin, live) == (True, {"Skip late player", "Remove late player"})  # edited in place
    old = int(latest_table(standin, channel)["id"])
    assert time_up_shown(standin, old)[0]
    shown = seen(standin, old)  # what another player's screen shows now
    for i in range(10):  # the late player finishes their turn themselves
        table = await bot.service.get(channel)
        if late not in load_game(table).to_act():
            break
        seat, move = await auto_move_for(bot, channel, i)
        await make_move(standin, bot, channel, seat, move, users)
    table = await bot.service.get(channel)
    assert late not in load_game(table).to_act() and not table.timed_out
    assert time_up_shown(standin, int(latest_table(standin, channel)["id"])) == (False, set())
    before = await bot.service.get(channel)
    old_skip = next(c["custom_id"] for row in shown["components"] for c in row["components"]
                    if parse_cid(c["custom_id"])[2] == "sk")
    stale = await click_seen(standin, bot, shown, old_skip, users[1])  # the old Skip is refused
    assert stale.ephemeral and "moved on" in stale.text
    assert (await bot.service.get(channel)).revision == before.revision


async def test_the_sweep_loop_survives_a_database_hiccup(standin, bot, clock, caplog):
    """The loop runs every few seconds and one failed sweep does not stop it."""
    await started(standin, bot, clock)
    cog = bot.get_cog("Tables")
    assert cog.timeout_loop.seconds <= 5
    real = bot.service.store.due

    async def broken(*args, **kw):
        raise StoreError("Could not find tables whose turn ran out: the database is locked.")

    bot.service.store.due = broken
    with caplog.at_level(logging.ERROR, logger="cogs.tables"):
        await cog.timeout_loop.coro(cog)  # one turn of the loop: logged, not raised
    assert any("sweep failed" in r.getMessage() for r in caplog.records)
    bot.service.store.due = real
    clock.advance(45)
    assert await cog.check_timeouts() == 1


async def test_many_tables_are_told_each_once(standin, bot, clock):
    """The sweep tells several tables at once: each table's message is edited and each notice
    posted once, every one counted."""
    bot.service.clock = clock
    channels = []
    for _ in range(11):  # more tables than the lanes that tell them
        _, _, channel, _ = await started(standin, bot, clock)
        channels.append(channel)
    clock.advance(61)
    assert await bot.get_cog("Tables").check_timeouts() == len(channels)
    for channel in channels:
        notices = [m for m in public(standin, channel) if "time is up" in (m.get("content") or "")]
        assert len(notices) == 1, channel
        shown = int(latest_table(standin, channel)["id"])
        assert time_up_shown(standin, shown) == (True, {"Skip late player", "Remove late player"})
    assert await bot.get_cog("Tables").check_timeouts() == 0


async def test_a_table_message_made_ahead_is_not_shown_after_a_newer_move(standin, bot, clock):
    """The sweep makes a page's table messages ahead of showing them: a move that lands in between
    is what the table message shows, not the time-up made before it."""
    from bot.ui.placement import render

    g, users, channel, late = await started(standin, bot, clock)
    clock.advance(61)
    [update] = await bot.desk.check_timeouts()
    ahead = await render(update.public)
    assert ahead is not None and "Time is up" in json.dumps(ahead.embed.to_dict(), ensure_ascii=False)
    seat, move = await auto_move_for(bot, channel, 1)
    await make_move(standin, bot, channel, seat, move, users)  # the late player moves meanwhile
    shown = int(latest_table(standin, channel)["id"])
    after = await bot.service.get(channel)
    assert after.revision > update.table.revision
    assert shown_revision(standin, shown) == after.revision
    await bot.get_cog("Tables").place.show_made(update.public, ahead)
    assert shown_revision(standin, shown) == after.revision, "the newer move's table stays shown"


async def test_a_warning_leaves_the_table_message_and_its_buttons_as_they_are(standin, bot, clock):
    """A warning changes nothing the table shows: only the notice is posted (no edit of the table
    message), and the buttons on it (their revision) still work afterwards."""
    g, users, channel, late = await started(standin, bot, clock)
    shown = int(latest_table(standin, channel)["id"])
    revision = shown_revision(standin, shown)
    asked = len(standin.requests)
    clock.advance(45)
    assert await bot.get_cog("Tables").check_timeouts() == 1
    sent = standin.requests[asked:]
    assert [(r.method, r.path) for r in sent] == [("POST", f"/channels/{channel}/messages")], "the notice only"
    assert sent[0].json["content"].startswith(f"<@{users[late]['id']}> — a quarter of your turn is left")
    assert shown_revision(standin, shown) == revision
    before = await bot.service.get(channel)
    assert before.revision == revision and before.warned_for == before.turn_since
    done = await standin.click(bot, shown, label="Draw", user=users[late])  # a button of the message as it was
    assert not done.ephemeral, "accepted, not refused as stale"
    after = await bot.service.get(channel)
    assert len(after.moves) == len(before.moves) + 1 and after.warned_for == before.warned_for
    assert await bot.get_cog("Tables").check_timeouts() == 0, "the turn was warned once"
