"""Every kind of table button is revision-checked: a button from an older state of the table (a
press racing another that already changed it, a private copy, an "Are you sure?" asked before the
table moved), or from an earlier table in the same channel, is refused ("moved on") and changes
nothing."""

from __future__ import annotations

import dataclasses

from bot.tables.games import load_game
from tests.discord_helpers import (
    guild_with, auto_move_for, click_seen, components, latest_table, parse_cid, press_move, seen, start_by_slash,
)


def people(standin, n=4):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


async def snapshot(bot, channel):
    return dataclasses.asdict(await bot.service.get(channel))


def button(standin, message_id: int, kind: str) -> str:
    return next(c["custom_id"] for c in components(standin, message_id)
                if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == kind)


def seen_button(shown: dict, kind: str) -> str:
    return next(c["custom_id"] for row in shown["components"] for c in row["components"]
                if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == kind)


async def assert_refused(standin, bot, channel, message, custom_id, user):
    """Press ``custom_id`` on ``message`` (an id, or a message as it was seen earlier): refused."""
    before = await snapshot(bot, channel)
    if isinstance(message, dict):
        res = await click_seen(standin, bot, message, custom_id, user)
    else:
        res = await standin.click(bot, message, custom_id, user=user)
    assert res.ephemeral and "moved on" in res.text, (custom_id, res.text)
    assert res.embeds, "the refusal shows the current table"
    assert await snapshot(bot, channel) == before


async def test_old_lobby_buttons_are_refused(standin, bot):
    g, users = people(standin)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    lobby = res.message_id
    await standin.click(bot, lobby, label="Join", user=users[1])  # edits the lobby in place
    old = seen(standin, lobby)
    await standin.slash(bot, "game join", user=users[2], guild=g)  # the lobby moves on (edited in place)
    for kind, who in (("jn", users[3]), ("lv", users[1]), ("st", users[0]), ("cx", users[0])):
        await assert_refused(standin, bot, channel, old, seen_button(old, kind), who)
    table = await bot.service.get(channel)
    assert table.status == "lobby" and len(table.seats) == 3


async def test_old_concede_does_not_end_the_game_being_played(standin, bot):
    alice = standin.user(name="alice")
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    channel = int(res.message["channel_id"])
    old = seen(standin, res.message_id)
    concede = button(standin, res.message_id, "cc")
    sure = await standin.click(bot, res.message_id, concede, user=alice)  # asks first…
    assert sure.ephemeral and "Are you sure" in sure.text
    _, move = await auto_move_for(bot, channel, 1)
    await press_move(standin, bot, channel, move, alice)  # …then the table moves on
    await assert_refused(standin, bot, channel, old, concede, alice)
    await assert_refused(standin, bot, channel, sure.message_id, standin.find_button(sure.message_id, "Confirm"), alice)
    assert (await bot.service.get(channel)).status == "playing"


async def test_a_new_table_refuses_the_old_tables_buttons(standin, bot):
    alice = standin.user(name="alice")
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    channel = int(res.message["channel_id"])
    old = seen(standin, res.message_id)
    old_ids = [c["custom_id"] for c in components(standin, res.message_id)
               if parse_cid(c["custom_id"])[2] in ("s", "cc")]
    await standin.slash(bot, "game abandon", user=alice)
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    new_table = await bot.service.get(channel)
    assert parse_cid(old_ids[0])[0] != parse_cid(button(standin, latest_table(standin, channel)["id"], "cc"))[0]
    for cid in old_ids:
        await assert_refused(standin, bot, channel, old, cid, alice)
    assert (await bot.service.get(channel)).revision == new_table.revision


async def test_old_skip_and_remove_are_refused_once_the_turn_has_passed(standin, bot, clock):
    bot.service.clock = clock
    g, users = people(standin)
    channel = await start_by_slash(standin, bot, g, users[:3], "court_wars")
    clock.advance(25 * 3600)
    assert await bot.get_cog("Tables").check_timeouts() == 1
    notice = int(latest_table(standin, channel)["id"])
    copy = seen(standin, notice)  # another player sees the same buttons
    table = await bot.service.get(channel)
    late = min(load_game(table).to_act())
    other = users[(late + 1) % 3]
    done = await standin.click(bot, notice, button(standin, notice, "sk"), user=other)  # the first press works…
    assert not done.ephemeral
    for kind in ("rv", "sk"):  # …the copies are stale
        await assert_refused(standin, bot, channel, copy, seen_button(copy, kind), other)


async def test_old_rematch_and_new_game_buttons_are_refused(standin, bot):
    alice = standin.user(name="alice")
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    channel = int(res.message["channel_id"])
    sure = await standin.click(bot, res.message_id, label="Concede", user=alice)
    await standin.click(bot, sure.message_id, label="Confirm", user=alice)
    final = res.message_id  # the table message, edited in place
    new_game = button(standin, final, "ng")
    shown = seen(standin, final)
    again = await standin.click(bot, final, new_game, user=alice)
    assert not again.ephemeral and again.message_id == final
    await assert_refused(standin, bot, channel, shown, new_game, alice)
    assert (await bot.service.get(channel)).status == "playing"


async def test_a_text_box_submitted_after_the_turn_moved_on_is_refused(standin, bot):
    g, users = people(standin, 4)
    channel = await start_by_slash(standin, bot, g, users, "knight_rogue_princess_dragon")
    from tests.discord_helpers import make_move

    for i in range(200):  # play until a seat is asked for a line of the story
        game = load_game(await bot.service.get(channel))
        seat = min(game.to_act())
        verbs = [o.token for o in game.choices(seat, ()).options if game.choices(seat, (o.token,)).kind == "text"]
        if verbs:
            break
        _, move = await auto_move_for(bot, channel, i)
        await make_move(standin, bot, channel, seat, move, users)
    else:
        raise AssertionError("the story never asked for a line")
    table_msg = int(latest_table(standin, channel)["id"])
    me = await standin.click(bot, table_msg, button(standin, table_msg, "me"), user=users[seat])
    text_button = next(c["custom_id"] for c in components(standin, me.message_id)
                       if parse_cid(c["custom_id"])[2] in ("t", "s") and parse_cid(c["custom_id"])[3] == verbs[0])
    opened = await standin.click(bot, me.message_id, text_button, user=users[seat])
    if opened.modal is None:
        text_button = next(c["custom_id"] for c in components(standin, opened.message_id)
                           if parse_cid(c["custom_id"])[2] == "t")
        opened = await standin.click(bot, opened.message_id, text_button, user=users[seat])
    assert opened.modal is not None
    said = await standin.slash(bot, "game say", {"text": "Once upon a time"}, user=users[seat], guild=g)
    assert "moved on" not in said.text
    before = await snapshot(bot, channel)
    field = standin.modal_fields(opened.modal["custom_id"])[0]["custom_id"]
    late = await standin.submit_modal(bot, opened.modal["custom_id"], {field: "a second line"}, user=users[seat])
    assert late.ephemeral and ("moved on" in late.text or "turn" in late.text), late.text
    assert await snapshot(bot, channel) == before
