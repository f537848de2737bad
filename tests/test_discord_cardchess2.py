"""Cardchess2 through the Discord stand-in: a whole 2-player game in a guild channel with buttons
and pickers (the home-row order answered privately by both seats), attacks that open the
enforcement and reinforcement windows (the defender pinged and answering privately), a restart in
the middle of the enforcement window, refusals of the wrong player, the wrong window and stale
buttons, and no public message naming a card the public may not know."""

from __future__ import annotations

import dataclasses
import json
import types

import pytest

import bot.tables
from bot.engine import cards
from bot.tables.games import load_game
from tests.discord_helpers import (
    guild_with, auto_move_for, components, latest_table, parse_cid, press_move, step_tokens, table_messages,
)
from bot.standin import logged_in

# A table seed (found by playing) whose game opens the enforcement window early and, once,
# the reinforcement window; the built-in player makes every choice.
SEED = 0
OPTIONS = "turn_cap=80"


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """Tables get SEED instead of a random seed, so the game played here is always the same."""
    monkeypatch.setattr(bot.tables.lobby, "secrets", types.SimpleNamespace(randbits=lambda bits: SEED))


def people(standin):
    return guild_with(standin, ("alice", "bob", "carol"))


async def row(bot, channel):
    return dataclasses.asdict(await bot.service.get(channel))


async def open_table(standin, bot, g, users):
    channel = int(g.channel["id"])
    lobby = await standin.slash(bot, "game new", {"game": "cardchess2", "variants": OPTIONS}, user=users[0], guild=g)
    assert not lobby.ephemeral
    await standin.click(bot, lobby.message_id, label="Join", user=users[1])
    start = await standin.click(bot, lobby.message_id, label="Start", user=users[0])
    assert not start.ephemeral, start.text
    # Both seats order their home rows at once: both must act, but the host just pressed Start and
    # is looking at the table, so only the other is pinged.
    pinged = sorted(u for m in start.followups for u in standin.pinged_user_ids(m))
    assert pinged == [int(users[1]["id"])]
    return channel


def user_of(table, users, seat):
    uid = table.seats[seat].user_id
    return next(u for u in users if int(u["id"]) == uid)


async def my_panel(standin, bot, channel, user):
    """The private panel (My view / act) of ``user``."""
    msg = latest_table(standin, channel)
    me = next(c["custom_id"] for c in components(standin, int(msg["id"]))
              if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == "me")
    res = await standin.click(bot, int(msg["id"]), me, user=user)
    assert res.ephemeral, "a player's panel is private"
    return res


def button(standin, bot, message_id, kind, tokens):
    for c in components(standin, message_id):
        cid = c.get("custom_id", "")
        if cid.startswith("dh2:") and parse_cid(cid)[2] == kind:
            if tokens is None or step_tokens(bot, parse_cid(cid)[3]) == tokens:
                return cid
    raise AssertionError(f"no {kind} button for {tokens} on {message_id}")


async def answer_enforcement(standin, bot, channel, user, move, panel=None):
    """The defender's private answer: Enforce, then pick the covering cards (or confirm none)."""
    panel = panel or await my_panel(standin, bot, channel, user)
    step = await standin.click(bot, panel.message_id, button(standin, bot, panel.message_id, "s", ("enforce",)),
                               user=user)
    assert step.ephemeral, step.text
    cells = move.split()[1].split(",") if len(move.split()) > 1 else []
    if step.text.startswith("Done"):  # nothing covers the target: "none" was the only answer (the panel
        # then carries on to the seat's next decision, if any)
        assert not cells and step.text.startswith("Done"), step.text
        return step, step
    if cells:
        select = next(c for c in components(standin, step.message_id) if c.get("type") == 3)
        offered = [o["value"] for o in select["options"]]
        assert set(cells) <= set(offered), (cells, offered)
        res = await standin.select(bot, step.message_id, select["custom_id"], cells, user=user)
    else:
        res = await standin.click(bot, step.message_id, button(standin, bot, step.message_id, "ok", ("enforce",)),
                                  user=user)
    assert res.ephemeral, res.text
    return step, res


def public_text(standin, channel) -> list[str]:
    """Every public message in the channel as one string: content, embeds, buttons' labels and ids."""
    out = []
    for m in standin.channel_messages(channel, include_ephemeral=False):
        parts = [m.get("content") or "", json.dumps(m.get("embeds") or [], ensure_ascii=False)]
        for c in components(standin, int(m["id"])):
            parts += [c.get("label") or "", c.get("custom_id") or "", c.get("placeholder") or ""]
            parts += [o.get("label", "") + " " + o.get("value", "") for o in c.get("options") or []]
        out.append("\n".join(parts))
    return out


async def test_whole_game_with_setup_order_enforcement_and_reinforcement(standin, bot):
    g, users = people(standin)
    channel = await open_table(standin, bot, g, users)
    table = await bot.service.get(channel)
    game = load_game(table)
    assert game.phase == "setup" and game.to_act() == {0, 1}

    # Setup: each seat orders its home row privately, through the panel's pickers.
    ordered = {}
    for i in range(2):
        seat, move = await auto_move_for(bot, channel, i)
        assert move.startswith("order")
        res = await press_move(standin, bot, channel, move, user_of(table, users, seat))
        assert res.ephemeral, res.text
        ordered[seat] = move
    game = load_game(await bot.service.get(channel))
    assert game.phase == "turn" and all(game.ordered)
    for seat, move in ordered.items():  # each order took effect, files a to g
        rank = "1" if game.side(seat) == 0 else "7"
        row_cards = [game.board[f + rank][1] for f in "abcdefg"]
        assert move == "order" and row_cards == game.dealt[seat] or move.split()[1:] == row_cards
    # Neither player's panel names the other's face-down home row.
    for seat in (0, 1):
        panel = await my_panel(standin, bot, channel, user_of(table, users, seat))
        theirs = {v[1] for v in game.board.values() if v[0] == 1 - seat}
        assert not cards.names_any(panel.text + json.dumps(panel.embeds, ensure_ascii=False), theirs)

    public_known: set[str] = set(game.known(None))
    windows = {"enforce": 0, "reinforce": 0}
    actions = 2
    for i in range(2, 400):
        table = await bot.service.get(channel)
        if table.status != "playing":
            break
        game = load_game(table)
        phase = game.phase
        seat, move = await auto_move_for(bot, channel, i)
        user = user_of(table, users, seat)
        if phase == "enforce":
            windows["enforce"] += 1
            a = game.attack
            assert a is not None and seat == 1 - a["attacker"]
            panel = await my_panel(standin, bot, channel, user)
            assert f"Σ {a['sigma']}" in panel.text and str(a["def"]) in panel.text  # the numbers are shown
            await answer_enforcement(standin, bot, channel, user, move, panel)
        else:
            before = load_game(table)
            res = await press_move(standin, bot, channel, move, user)
            assert res.ephemeral, (move, res.text)  # every MOVE, ADD, ATTACK (and window) answer is private
            after = load_game(await bot.service.get(channel))
            if after.phase == "enforce" and before.phase == "turn":
                defender = table.seats[1 - seat].user_id
                pings = [standin.pinged_user_ids(m) for m in res.followups if standin.pinged_user_ids(m)]
                assert pings == [[defender]], pings  # the defender is pinged, and only the defender
            if phase == "reinforce":
                windows["reinforce"] += 1
                assert move.startswith("reinforce")
        actions += 1
        public_known |= load_game(await bot.service.get(channel)).known(None)
    table = await bot.service.get(channel)
    assert table.status == "finished"
    game = load_game(table)
    assert game.outcome() is not None and game.phase == "over"
    assert windows["enforce"] >= 1 and windows["reinforce"] >= 1, windows

    # No public message names a card the public may not know (with no repetition penalty here,
    # what the public knew along the way is what it knows at the end).
    assert public_known == set(game.known(None))
    unknown = set(game.all_cards()) - set(game.known(None))
    texts = public_text(standin, channel)
    leaks = [t for t in texts if cards.names_any(t, unknown)]
    assert not leaks, leaks[:1]
    # The public messages: the lobby (Start turns it into the table, which every action edits in
    # place), the pings of whoever must answer next and the one ending; nothing else.
    posts = standin.channel_messages(channel, include_ephemeral=False)
    pings = [m for m in posts if standin.pinged_user_ids(m)]
    endings = [m for m in posts if "Cardchess2 is over" in (m.get("content") or "")]
    assert len(table_messages(standin, channel)) == 1 and posts[0]["embeds"]
    assert len(texts) == 1 + len(pings) + 1 and len(endings) == 1, (len(texts), actions, len(pings))
    assert len(pings) >= windows["enforce"]


async def play_to_enforcement(standin, bot, channel, users):
    """Play the built-in player's choices with buttons until the enforcement window opens."""
    for i in range(200):
        table = await bot.service.get(channel)
        game = load_game(table)
        if game.phase == "enforce":
            return i
        seat, move = await auto_move_for(bot, channel, i)
        res = await press_move(standin, bot, channel, move, user_of(table, users, seat))
        assert res.ephemeral, res.text
    raise AssertionError("no attack opened the enforcement window")


async def test_refusals_and_a_restart_in_the_enforcement_window(standin, make_bot):
    g, users = people(standin)
    async with logged_in(make_bot()) as bot1:
        channel = await open_table(standin, bot1, g, users)
        # A step button of South's first turn, kept to press once it is stale.
        table = await bot1.service.get(channel)
        i = 0
        while True:
            seat, move = await auto_move_for(bot1, channel, i)
            game = load_game(await bot1.service.get(channel))
            if game.phase == "turn":
                break
            await press_move(standin, bot1, channel, move, user_of(table, users, seat))
            i += 1
        first = user_of(table, users, seat)
        old_panel = await my_panel(standin, bot1, channel, first)
        old_step = next(c["custom_id"] for c in components(standin, old_panel.message_id)
                        if parse_cid(c["custom_id"])[2] == "s")
        await play_to_enforcement(standin, bot1, channel, users)
        table = await bot1.service.get(channel)
        game = load_game(table)
        attacker_seat = game.attack["attacker"]
        attacker, defender = user_of(table, users, attacker_seat), user_of(table, users, 1 - attacker_seat)
        watcher = users[2]
        before = await row(bot1, channel)

        # Wrong player: the attacker answers the defender's window; a watcher acts.
        for who, cmd, args in ((attacker, "game move", {"move": "enforce"}), (attacker, "cardchess2 enforce", {}),
                               (watcher, "game move", {"move": "enforce"})):
            r = await standin.slash(bot1, cmd, args, user=who, guild=g)
            assert r.ephemeral, (cmd, r.text)
            assert await row(bot1, channel) == before
        msg = int(latest_table(standin, channel)["id"])
        watch = await standin.click(bot1, msg, button(standin, bot1, msg, "me", None), user=watcher)
        assert watch.ephemeral and "not playing" in watch.text
        assert await row(bot1, channel) == before
        # Wrong window: the defender makes a turn's action while the enforcement window is open.
        own = next(c for c, v in game.board.items() if v[0] == 1 - attacker_seat)
        for text in (f"move {own} {own}", "pass", "reinforce"):
            r = await standin.slash(bot1, "game move", {"move": text}, user=defender, guild=g)
            assert r.ephemeral, text
            assert await row(bot1, channel) == before
        # Stale: a step button of a turn that has closed.
        r = await standin.click(bot1, old_panel.message_id, old_step, user=first)
        assert r.ephemeral and "moved on" in r.text, r.text
        assert await row(bot1, channel) == before

        # The defender opens the window's panel; then the bot restarts.
        panel = await my_panel(standin, bot1, channel, defender)
        enforce_cid = button(standin, bot1, panel.message_id, "s", ("enforce",))
        table_msg = int(latest_table(standin, channel)["id"])

    async with logged_in(make_bot()) as bot2:
        assert await row(bot2, channel) == before  # nothing lost
        # The old panel's button still works after the restart.
        step = await standin.click(bot2, panel.message_id, enforce_cid, user=defender)
        assert step.ephemeral and "moved on" not in step.text, step.text
        assert await row(bot2, channel) == before
        # The attacker's old buttons are still refused.
        r = await standin.click(bot2, old_panel.message_id, old_step, user=first)
        assert r.ephemeral
        assert await row(bot2, channel) == before
        # The old public table's panel button still opens the defender's panel.
        me = button(standin, bot2, table_msg, "me", None)
        again = await standin.click(bot2, table_msg, me, user=defender)
        assert again.ephemeral and "Σ" in again.text
        # Answer privately (none enforces) with the old panel.
        done = await standin.click(bot2, step.message_id, button(standin, bot2, step.message_id, "ok", ("enforce",)),
                                   user=defender)
        assert done.ephemeral, done.text
        after = await bot2.service.get(channel)
        assert after.revision == before["revision"] + 1
        assert load_game(after).phase != "enforce"
        # The panel pressed before the answer is now stale.
        late = await standin.click(bot2, again.message_id, button(standin, bot2, again.message_id, "s", ("enforce",)),
                                   user=defender)
        assert late.ephemeral and "moved on" in late.text, late.text
        assert await row(bot2, channel) == dataclasses.asdict(after)
