"""Court Wars through the Discord stand-in: a 3-player game with a join, a start, pings, an attack,
a forfeit by a timed-out player and a win; refusals; restarts mid-lobby and mid-game."""

from __future__ import annotations

import json

from bot.records import replay
from bot.tables.games import load_game
from tests.discord_helpers import guild_with, auto_move_for, auto_moves, latest_table, make_move, table_messages
from bot.standin import logged_in


def people(standin, n=5):
    return guild_with(standin, ("ana", "ben", "cat", "dee", "eve")[:n])


async def test_three_player_game_with_timeout_forfeit_and_win(standin, bot, clock):
    bot.service.clock = clock
    g, users = people(standin)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    lobby = res.message_id
    await standin.click(bot, lobby, label="Join", user=users[1])
    join_before = standin.find_button(lobby, "Join")
    joined = await standin.slash(bot, "game join", user=users[2], guild=g)
    assert joined.ephemeral and "sat down" in joined.text  # the lobby message itself shows the seat
    assert standin.find_button(lobby, "Join") != join_before  # edited in place, at the new revision
    assert f"<@{users[2]['id']}>" in standin.message_text(standin._message(lobby))
    assert len((await bot.service.get(channel)).seats) == 3
    assert [int(m["id"]) for m in standin.channel_messages(channel, include_ephemeral=False)] == [lobby]
    twice = await standin.click(bot, lobby, label="Join", user=users[1])
    assert twice.ephemeral and "already" in twice.text
    stranger = await standin.click(bot, lobby, label="Start", user=users[3])
    assert stranger.ephemeral and "host" in stranger.text
    limit = await standin.slash(bot, "game turnlimit", {"minutes": 1}, user=users[0], guild=g)
    assert "1 min" in limit.text
    start = await standin.slash(bot, "game start", user=users[0], guild=g)
    assert start.ephemeral and latest_table(standin, channel)["id"] == str(lobby)  # the lobby became the table
    assert "Court Wars" in standin._message(lobby)["embeds"][0]["title"]
    assert [f.filename for f in standin.files(lobby)] == ["table.png"]
    table = await bot.service.get(channel)
    first = min(load_game(table).to_act())
    pings = [m for m in start.followups if standin.pinged_user_ids(m)]
    # whoever acts first is pinged, unless that is the host, who just pressed Start
    assert [standin.pinged_user_ids(m) for m in pings] == ([[int(users[first]["id"])]] if first else [])

    # Play until someone has attacked; check refusals on the way.
    attacked = False
    for i in range(300):
        table = await bot.service.get(channel)
        game = load_game(table)
        seat = min(game.to_act())
        other = users[(seat + 1) % 3]
        msg = latest_table(standin, channel)
        mv = [cid for cid, _, _ in standin.buttons(int(msg["id"])) if ":s:" in cid]
        if i == 3:
            wrong = await standin.click(bot, int(msg["id"]), mv[0], user=other)
            assert wrong.ephemeral and "turn" in wrong.text
            outsider = await standin.click(bot, int(msg["id"]), mv[0], user=users[3])
            assert outsider.ephemeral and "not playing" in outsider.text
            assert (await bot.service.get(channel)).revision == table.revision
        _, move = await auto_move_for(bot, channel, i)
        attack = [m for m in game.legal_moves(seat) if m.startswith("attack")]
        if attack:
            move = attack[0]
        if i == 5:  # /game status answers privately; the table, still in view, stays where it is
            status = await standin.slash(bot, "game status", user=users[0], guild=g)
            assert status.ephemeral and "near the bottom" in status.text
            assert "Move the table down" not in [label for _, label, _ in standin.buttons(status.message_id)]
            assert latest_table(standin, channel)["id"] == msg["id"]
        res = await make_move(standin, bot, channel, seat, move, users)
        assert not res.ephemeral or "Done" in res.text, res.text
        if move.startswith("attack"):
            attacked = True
            assert any("spends" in e for e in (await bot.service.get(channel)).events[-3:])
            break
    assert attacked

    # The player to act runs out of time; another player removes them.
    clock.advance(61)
    cog = bot.get_cog("Tables")
    assert await cog.check_timeouts() == 1
    table = await bot.service.get(channel)
    late = min(load_game(table).to_act())
    ping = standin.channel_messages(channel, include_ephemeral=False)[-1]
    assert "time is up" in ping["content"] and standin.pinged_user_ids(ping) == [int(users[late]["id"])]
    await standin.slash(bot, "game status", user=users[0], guild=g)  # the table shows the time-up and its buttons
    notice = latest_table(standin, channel)
    assert "Time is up for" in json.dumps(notice["embeds"], ensure_ascii=False)
    assert {"Skip late player", "Remove late player"} <= {label for _, label, _ in standin.buttons(int(notice["id"]))}
    remover = users[(late + 1) % 3]
    removed = await standin.click(bot, int(notice["id"]), label="Remove late player", user=remover)
    assert not removed.ephemeral and removed.message_id == int(notice["id"])
    assert len(table_messages(standin, channel)) == 1  # one copy of the table keeps the buttons
    table = await bot.service.get(channel)
    game = load_game(table)
    assert late in game.forfeited and table.status == "playing"

    async for _, _, seat, move in auto_moves(bot, channel, 600, 1000):
        await make_move(standin, bot, channel, seat, move, users)
    table = await bot.service.get(channel)
    assert table.status == "finished"
    outcome = load_game(table).outcome()
    assert outcome.winners and late not in outcome.winners
    record = await bot.service.store.last_record(channel)
    assert replay(record).to_json() == table.state
    stats = await standin.slash(bot, "game stats", {"game": "court_wars"}, user=users[0], guild=g)
    assert "Court Wars" in json.dumps(stats.embeds)
    final = latest_table(standin, channel)
    rematch = await standin.click(bot, int(final["id"]), label="Rematch", user=users[1])
    assert not rematch.ephemeral
    again = await bot.service.get(channel)
    assert again.status == "playing" and [s.user_id for s in again.seats] == [s.user_id for s in table.seats]


async def test_full_table_refuses_a_fifth(standin, bot):
    g, users = people(standin)
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    for u in users[1:4]:
        await standin.click(bot, res.message_id, label="Join", user=u)
    full = await standin.click(bot, res.message_id, label="Join", user=users[4])
    assert full.ephemeral and "full" in full.text


async def test_court_wars_slash_commands(standin, bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars", "variants": "Single Ace, rounds=5"},
                              user=users[0], guild=g)
    await standin.click(bot, res.message_id, label="Join", user=users[1])
    await standin.click(bot, res.message_id, label="Start", user=users[0])
    async for _, _, seat, move in auto_moves(bot, channel, 40):
        verb = move.split()[0]
        if move != verb:
            typed = " ".join(move.split()[1:-1]) + " " if len(move.split()) > 2 else ""
            choices = await standin.autocomplete(bot, f"court-wars {verb}", {"choice": typed}, focused="choice",
                                                 user=users[seat], guild=g)
            assert move in [c["value"] for c in choices]
            r = await standin.slash(bot, f"court-wars {verb}", {"choice": move}, user=users[seat], guild=g)
        else:
            r = await standin.slash(bot, f"court-wars {verb}", user=users[seat], guild=g)
        assert r.ephemeral and r.text.startswith("Done"), r.text  # the table message shows the move
    assert load_game(await bot.service.get(channel)).options == ["Single Ace", "rounds=5"]


async def test_restart_mid_lobby_and_mid_game(standin, make_bot):
    g, users = people(standin)
    channel = int(g.channel["id"])
    async with logged_in(make_bot()) as bot1:
        res = await standin.slash(bot1, "game new", {"game": "court_wars"}, user=users[0], guild=g)
        lobby = res.message_id
        await standin.click(bot1, lobby, label="Join", user=users[1])
    async with logged_in(make_bot()) as bot2:
        await standin.click(bot2, lobby, label="Join", user=users[2])
        await standin.click(bot2, lobby, label="Start", user=users[0])
        for i in range(8):
            seat, move = await auto_move_for(bot2, channel, i)
            await make_move(standin, bot2, channel, seat, move, users)
        before = await bot2.service.get(channel)
    async with logged_in(make_bot()) as bot3:
        after = await bot3.service.get(channel)
        assert after.state == before.state
        seat, move = await auto_move_for(bot3, channel, 50)
        await make_move(standin, bot3, channel, seat, move, users)
        assert (await bot3.service.get(channel)).revision == before.revision + 1
