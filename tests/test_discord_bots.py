"""Bot seats and hints through the Discord stand-in: the host presses **Add a bot**, the bot plays
its Court Wars turns at once while the person plays with buttons and pickers to the end, nobody
pings a bot; ``/game hint`` answers the player to act privately, in one sentence."""

from __future__ import annotations

import re

from bot.tables import Actor
from bot.tables.games import load_game
from tests.discord_helpers import guild_with, auto_move_for, latest_table, make_move, parse_cid

CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC])(?![A-Za-z0-9])")


def people(standin, n=2):
    return guild_with(standin, ("ana", "ben", "cat")[:n])


async def test_a_bot_seat_plays_court_wars_to_the_end(standin, bot):
    g, (ana, ben) = people(standin)
    channel = int(g.channel["id"])
    lobby = await standin.slash(bot, "game new", {"game": "court_wars", "variants": "first=1"}, user=ana, guild=g)
    labels = [label for _, label, _ in standin.buttons(lobby.message_id)]
    assert {"Add Easy bot", "Add Normal bot", "Add Strong bot"} <= set(labels)
    refused = await standin.click(bot, lobby.message_id, label="Add Normal bot", user=ben)
    assert refused.ephemeral and "Only the host" in refused.text
    added = await standin.click(bot, lobby.message_id, label="Add Normal bot", user=ana)
    assert not added.ephemeral
    seats = next(f["value"] for f in added.embed["fields"] if f["name"].startswith("Seats"))
    assert "Deckhand bot 1" in seats and "<@-" not in seats
    kinds = {parse_cid(cid)[2] for cid, _, _ in standin.buttons(added.message_id) if cid}
    assert "ab" in kinds
    start = await standin.click(bot, added.message_id, label="Start", user=ana)
    assert not start.ephemeral
    table = await bot.service.get(channel)
    assert table.status == "playing" and load_game(table).to_act() == {0}
    assert table.moves and table.moves[0][0] == 1, "the bot (first to act) played its turn at once"

    hinted = outsider = False
    for i in range(500):
        table = await bot.service.get(channel)
        if table.status != "playing":
            break
        game = load_game(table)
        assert game.to_act() == {0}, "whenever the table waits, it waits for the person"
        if i in (0, 7):
            hint = await standin.slash(bot, "game hint", user=ana, guild=g)
            assert hint.ephemeral and ", because " in hint.text and hint.text.endswith(".")
            assert hint.text.count("\n") == 0 and not CODE.search(hint.text)
            assert (await bot.service.get(channel)).revision == table.revision, "a hint changes nothing"
            hinted = True
        if i == 3:
            other = await standin.slash(bot, "game hint", user=ben, guild=g)
            assert other.ephemeral and "not playing" in other.text
            outsider = True
        _, move = await auto_move_for(bot, channel, i)
        res = await make_move(standin, bot, channel, 0, move, [ana])
        assert not (res.ephemeral and "moved on" in res.text), res.text
    assert hinted and outsider
    table = await bot.service.get(channel)
    assert table.status == "finished"
    assert sum(1 for m in table.moves if m[0] == 1) > 3, "the bot played many turns"
    for m in standin.channel_messages(channel):
        assert not any(u < 0 for u in standin.pinged_user_ids(m)), "nobody pings a bot"
        assert "<@-" not in (m.get("content") or "")
    final = latest_table(standin, channel)
    assert "game over" in final["embeds"][0]["footer"]["text"]
    rows = await bot.service.stats(g.id, "court_wars")
    assert [r["user_id"] for r in rows] == [int(ana["id"])]
    over = await standin.slash(bot, "game hint", user=ana, guild=g)
    assert over.ephemeral and "no game in progress" in over.text


async def test_hint_only_for_the_seat_to_act(standin, bot):
    g, (ana, ben, cat) = people(standin, 3)
    await standin.slash(bot, "game new", {"game": "court_wars", "variants": "first=0"}, user=ana, guild=g)
    await standin.slash(bot, "game join", user=ben, guild=g)
    await standin.slash(bot, "game start", user=ana, guild=g)
    waiting = await standin.slash(bot, "game hint", user=ben, guild=g)
    assert waiting.ephemeral and "not your move" in waiting.text
    mine = await standin.slash(bot, "game hint", user=ana, guild=g)
    assert mine.ephemeral and mine.text.startswith("💡 ") and ", because " in mine.text
    stranger = await standin.slash(bot, "game hint", user=cat, guild=g)
    assert stranger.ephemeral and "not playing" in stranger.text


async def test_add_a_bot_is_disabled_when_the_table_is_full(standin, bot):
    g, (ana,) = people(standin, 1)
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    for _ in range(3):
        res = await standin.click(bot, res.message_id, label="Add Normal bot", user=ana)
        assert not res.ephemeral, res.text
    buttons = {label: disabled for _, label, disabled in standin.buttons(res.message_id)}
    assert buttons["Add Normal bot"] is True and buttons["Add Strong bot"] is True and buttons["Start"] is False
    seats = next(f["value"] for f in res.embed["fields"] if f["name"].startswith("Seats"))
    assert [line.split(". ", 1)[1] for line in seats.splitlines()][1:] == [
        "🤖 Deckhand bot 1 (Normal)", "🤖 Deckhand bot 2 (Normal)", "🤖 Deckhand bot 3 (Normal)"]


async def test_racing_bots_answer_after_a_human_delay_through_discord(standin, bot, monkeypatch):
    """KRPD's Open Race at a table of one person and three bots: when the race opens the bots have
    not answered; after their delay (here fixed at 3 s, long enough for any machine's load) the
    bot timer answers for them, with no interaction from anyone, and the table message shows it."""
    import asyncio

    import bot.tables.bots as bots_module

    delay = 3.0
    monkeypatch.setattr(bots_module, "bot_delay", lambda t, seat, n: delay)

    def racing_bots(t) -> set[int]:
        """Bots in a race the person is in too (a race the person is not in, bots answer at once)."""
        timed = {d.seat for d in load_game(t).decisions() if d.clock_seconds is not None}
        return timed - {0} if 0 in timed else set()
    g = standin.guild()
    ana = standin.user(name="ana")
    g.add_member(ana)
    channel = int(g.channel["id"])
    for attempt in range(12):
        lobby = await standin.slash(bot, "game new", {"game": "knight_rogue_princess_dragon",
                                                      "variants": "Open Race"}, user=ana, guild=g)
        for _ in range(3):
            await standin.click(bot, lobby.message_id, label="Add Normal bot", user=ana)
        await standin.click(bot, lobby.message_id, label="Start", user=ana)
        for i in range(200):
            table = await bot.service.get(channel)
            if table.status != "playing" or racing_bots(table):
                break
            _, move = await auto_move_for(bot, channel, attempt * 1000 + i)
            await make_move(standin, bot, channel, 0, move, [ana])
        if table.status == "playing" and racing_bots(table):
            break
        if table.status == "playing":
            await bot.service.abandon(channel, Actor(int(ana["id"]), "ana"))
    else:
        raise AssertionError("the race never opened")
    bots_racing = racing_bots(table)
    assert bots_racing, "bots race the person and have not answered yet"
    import time

    while time.time() < table.turn_since + delay - 0.5:  # not before its delay, however idle the table
        assert (await bot.service.get(channel)).revision == table.revision, "a bot answered too soon"
        await asyncio.sleep(0.05)
    for _ in range(400):  # then the timer answers for it
        await asyncio.sleep(0.05)
        if (await bot.service.get(channel)).revision > table.revision:
            break
    after = await bot.service.get(channel)
    assert after.revision > table.revision and int(after.moves[len(table.moves)][0]) in bots_racing

    def shows(rev: int) -> bool:
        shown = latest_table(standin, channel)
        return any(f":{rev}:" in c["custom_id"] for row in shown.get("components", [])
                   for c in row.get("components", []) if c.get("custom_id"))

    for _ in range(200):  # the timer edits the table message after saving the answer
        current = (await bot.service.get(channel)).revision
        if shows(current):
            break
        await asyncio.sleep(0.05)
    assert shows((await bot.service.get(channel)).revision), "the table message shows the answer"
