"""Small faults a player meets, through the stand-in: an interaction delivered twice is answered once
(and nothing is logged); a press of a forged, cut-short or misplaced custom_id gets a short private
refusal instead of "This interaction failed"; an answer Discord never takes is one WARNING line
naming the table, the move stands and the table message catches up through the channel."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import auto_move_for, components, guild_with, latest_table, shown_revision, start_by_slash


async def _started(standin, bot, game: str = "court_wars"):
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, game)
    return g, users, channel


def _button_for(standin, message_id: int, move: str) -> str | None:
    """The custom_id of the table message's button that plays ``move`` in one press, if it has one."""
    for c in components(standin, message_id):
        cid = c.get("custom_id", "")
        if cid.startswith("dh2:") and cid.split(":", 4)[3] == "s" and cid.split(":", 4)[4] == move:
            return cid
    return None


async def _drawing(standin, bot):
    """A Court Wars table whose table message offers its first player's draw as one press."""
    g, users, channel = await _started(standin, bot)
    table = int(latest_table(standin, channel)["id"])
    move = _button_for(standin, table, "draw")
    assert move is not None, components(standin, table)
    seat, _ = await auto_move_for(bot, channel, 0)  # the seat to act
    return g, users, channel, table, move, seat


async def test_a_move_delivered_twice_is_applied_and_answered_once(standin, bot, caplog):
    g, users, channel, table, move, seat = await _drawing(standin, bot)
    before = (await bot.service.get(channel)).revision
    caplog.set_level(logging.INFO)
    pressed = await standin.click(bot, table, move, user=users[seat])
    assert pressed.callbacks
    after_first = (await bot.service.get(channel)).revision
    assert after_first > before, "the move was played"
    again = await standin.interact(bot, pressed.payload, expect_answer=False)
    assert not again.callbacks and not again.requests, "the second delivery is not answered"
    assert (await bot.service.get(channel)).revision == after_first
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.records
    assert not [why for _, why in standin.rejected]


async def test_a_slash_move_delivered_twice_is_answered_once(standin, bot):
    g, users, channel = await _started(standin, bot)
    seat, move = await auto_move_for(bot, channel, 0)
    res = await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
    assert res.callbacks
    revision = (await bot.service.get(channel)).revision
    again = await standin.interact(bot, res.payload, expect_answer=False)
    assert not again.callbacks and not again.requests
    assert (await bot.service.get(channel)).revision == revision


@pytest.mark.parametrize("forge", ["truncated", "unknown kind", "not on the message", "garbage"])
async def test_a_forged_custom_id_gets_a_short_private_refusal(standin, bot, forge):
    g, users, channel = await _started(standin, bot)
    table_msg = latest_table(standin, channel)
    held = next(c["custom_id"] for c in components(standin, int(table_msg["id"])) if c.get("custom_id", "").startswith("dh2:"))
    forged = {"truncated": held.rsplit(":", 1)[0], "unknown kind": "dh2:zz:1:nokind:x",
              "not on the message": held.rsplit(":", 1)[0] + ":elsewhere", "garbage": "x" * 100}[forge]
    row = await bot.service.get(channel)
    payload = standin._component_payload(standin._message(int(table_msg["id"])),
                                         {"custom_id": forged, "component_type": 2}, users[0])
    res = await standin.interact(bot, payload)
    assert res.ephemeral and "not one of mine" in res.text and len(res.text) < 200
    assert (await bot.service.get(channel)).revision == row.revision, "nothing changed"


async def test_an_answer_discord_never_takes_is_one_warning_and_the_table_catches_up(standin, bot, caplog):
    g, users, channel, table, move, seat = await _drawing(standin, bot)
    shown = shown_revision(standin, table)
    # Every try of the interaction's answer is refused (429, as Discord's rate limits answer): discord.py
    # tries five times, then gives up; a 5xx on every try ends the same way, only later.
    standin.rate_limit(r"/interactions/\d+/[^/]+/callback", method="POST", times=5, retry_after=0.01)
    caplog.set_level(logging.INFO)
    res = await standin.click(bot, table, move, user=users[seat], expect_answer=False)
    assert not res.callbacks and len(standin.rate_limited) == 5
    row = await bot.service.get(channel)
    assert row.revision > (shown or 0), "the move stands"
    assert shown_revision(standin, table) == row.revision, "the table message caught up through the channel"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(("cogs", "bot"))]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING, warnings
    assert row.table_id in warnings[0].getMessage()
    assert warnings[0].exc_info is None, "one line, no traceback"


async def test_a_connection_closed_before_the_answer_is_one_warning_and_the_table_catches_up(standin, bot, caplog):
    g, users, channel, table, move, seat = await _drawing(standin, bot)
    standin.drop_connection(r"/interactions/\d+/[^/]+/callback", method="POST")
    caplog.set_level(logging.INFO)
    res = await standin.click(bot, table, move, user=users[seat], expect_answer=False)
    assert not res.callbacks and [r.status for r in res.requests if r.path.endswith("/callback")] == [0]
    row = await bot.service.get(channel)
    assert shown_revision(standin, table) == row.revision, "the table message caught up through the channel"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and row.table_id in warnings[0].getMessage() and warnings[0].exc_info is None, warnings
