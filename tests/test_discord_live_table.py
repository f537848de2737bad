"""One live table message per table, through the Discord stand-in.

Every action edits the table message in place, whatever it came through (button, picker, text box,
slash command); the only new public messages are a short turn ping (linking to the table) and one
message when the game ends. A game of each of the six games is counted. Then: the table moves down
the channel when it has scrolled away, a table message that cannot be edited is replaced, and
Concede / Resign / ``/game leave`` ask "Are you sure?" first.
"""

from __future__ import annotations

import asyncio
import datetime

import pytest

from bot.engine.registry import spec
from bot.tables.games import load_game
from bot.standin import SAFETY_TIMEOUT, guild_cached
from tests.discord_helpers import (
    auto_move_for, auto_moves, guild_with, components, latest_table, make_move, parse_cid, press_move, public_posts,
    shown_revision, table_messages,
)
from tests.play_loop import seeded


@pytest.fixture(autouse=True)
def dealt_alike():
    """Every run deals the same tables (the lobby draws a table's seed from ``secrets``): a test
    that looks for a position (an extract of six stacks) or plays to the end does not depend on luck."""
    with seeded(7):
        yield

NAMES = ("ana", "ben", "cat", "dee")
# (game, players, variants): the shortest games the rulebooks allow, to keep the count quick.
GAMES = [
    ("gridcannon", 1, ""),
    ("cardchess2", 2, "turn_cap=40"),
    ("court_wars", 3, "rounds=3"),
    ("celestial_emperor", 3, ""),
    ("maginot_line", 3, "rounds=3"),
    ("knight_rogue_princess_dragon", 4, ""),
]


def people(standin, n):
    return guild_with(standin, NAMES[:n])


def link_to(g, message_id: int) -> str:
    return f"https://discord.com/channels/{g.id}/{g.channel['id']}/{message_id}"


async def open_table(standin, bot, game_id, n, variants=""):
    """``/game new``, the others join (by button and by command), the host starts."""
    g, users = people(standin, n)
    options = {"game": game_id, **({"variants": variants} if variants else {})}
    res = await standin.slash(bot, "game new", options, user=users[0], guild=g)
    assert not res.ephemeral
    table_id = res.message_id
    for i, u in enumerate(users[1:]):
        if i % 2:
            joined = await standin.slash(bot, "game join", user=u, guild=g)
            assert joined.ephemeral and link_to(g, table_id) in joined.text  # the answer links to the table
        else:
            await standin.click(bot, table_id, label="Join", user=u)
    if n > 1:
        await standin.click(bot, table_id, label="Start", user=users[0])
    return g, users, int(g.channel["id"]), table_id


@pytest.mark.parametrize("game_id,players,variants", GAMES, ids=[g for g, _, _ in GAMES])
async def test_a_whole_game_posts_one_table_message_pings_and_one_ending(standin, bot, game_id, players, variants):
    g, users, channel, table_id = await open_table(standin, bot, game_id, players, variants)
    uid = [int(u["id"]) for u in users]
    title = spec(game_id).title
    link = link_to(g, table_id)
    pings = 0
    start_pings = sum(1 for m in public_posts(standin, channel) if standin.pinged_user_ids(m))
    async for i, table, seat, move in auto_moves(bot, channel, 2000):
        game = load_game(table)
        n = len(public_posts(standin, channel))
        shown_before = standin.message_text(standin._message(table_id)), standin._message(table_id)["components"]
        if i % 5 == 4 and game.choices(seat, (move.split()[0],)).kind != "text":
            res = await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
            assert res.ephemeral, res.text  # the mover is answered privately; the table shows the move
            sure = [cid for cid, _, _ in res.buttons() if parse_cid(cid)[2] == "ym"] if res.message_id else []
            if sure:  # giving the game up (the built-in player concedes in some deals) asks first
                res = await standin.click(bot, res.message_id, sure[0], user=users[seat])
                assert res.ephemeral, res.text
        else:
            await make_move(standin, bot, channel, seat, move, users)
        after = await bot.service.get(channel)
        assert after.revision > table.revision, (move, after.revision)
        # The same table message shows the move.
        assert [int(m["id"]) for m in table_messages(standin, channel)] == [table_id]
        shown = standin.message_text(standin._message(table_id)), standin._message(table_id)["components"]
        assert "rev " not in shown[0]  # no revision in its footer
        # edited in place: its table buttons carry the new revision (else, with none, it changed)
        assert shown_revision(standin, table_id) == after.revision if shown_revision(standin, table_id) is not None \
            else shown != shown_before
        new = public_posts(standin, channel)[n:]
        turn = [m for m in new if standin.pinged_user_ids(m)]
        assert len(turn) <= 1, [m["content"] for m in new]  # at most one ping a turn
        for m in turn:
            assert m["content"].endswith(f"— your turn at {title}: {link}") and not m["embeds"]
            acting = {uid[s] for s in load_game(after).to_act()}
            assert set(standin.pinged_user_ids(m)) <= acting
            assert uid[seat] not in standin.pinged_user_ids(m), "never the player who just acted"
            pings += 1
        others = [m for m in new if m not in turn]
        assert len(others) == (1 if after.status == "finished" else 0), [m["content"] for m in others]
    table = await bot.service.get(channel)
    assert table.status == "finished", "the game did not end"
    posts = public_posts(standin, channel)
    assert int(posts[0]["id"]) == table_id  # the lobby became the table, and stayed the only one
    assert "game over" in standin.message_text(posts[0])
    ending = posts[-1]
    assert f"**{title} is over.**" in ending["content"] and link in ending["content"]
    assert not standin.pinged_user_ids(ending)
    films = [a["filename"] for a in ending.get("attachments") or () if a["filename"].endswith((".gif", ".webp"))]
    assert not films, "the test's bot has its end animation off (DECKHAND_END_ANIMATION)"
    # The start pings whoever acts first unless that is the host, who just pressed Start; solo: nobody.
    assert start_pings <= (1 if players > 1 else 0)
    assert len(posts) == 1 + start_pings + pings + 1
    assert all(standin.pinged_user_ids(m) for m in posts[1:-1])
    assert pings >= 1 if players > 1 else pings == 0


async def test_a_table_never_shows_more_than_a_row_of_moves_and_extract_is_one_select(standin, bot):
    """Gridcannon: the nine "extract r1c1 … r3c3" choices are one select, not nine buttons."""
    g, users, channel, table_id = await open_table(standin, bot, "gridcannon", 1)
    for i in range(200):
        game = load_game(await bot.service.get(channel))
        rows = standin._message(table_id)["components"]
        moves = [c for c in components(standin, table_id) if parse_cid(c["custom_id"])[2] == "s"]
        assert sum(1 for r in rows if any(parse_cid(c["custom_id"])[2] == "s" and c.get("style") != 4
                                          for c in r["components"])) <= 1
        assert len([c for c in moves if c.get("style") != 4]) <= 5
        if len(game.choices(0, ("extract",)).options) > 5:
            break
        _, move = await auto_move_for(bot, channel, i)
        await press_move(standin, bot, channel, move, users[0])
    else:
        raise AssertionError("no extract with more than five stacks")
    extract = next(c["custom_id"] for c in components(standin, table_id) if parse_cid(c["custom_id"])[2] == "s"
                   and parse_cid(c["custom_id"])[3] == "extract")
    panel = await standin.click(bot, table_id, extract, user=users[0])
    assert panel.ephemeral
    comps = components(standin, panel.message_id)
    selects = [c for c in comps if c["type"] == 3]
    assert len(selects) == 1 and len(selects[0]["options"]) == len(game.choices(0, ("extract",)).options)
    assert not [c for c in comps if c["type"] == 2 and parse_cid(c["custom_id"])[2] == "s"
                and parse_cid(c["custom_id"])[3].startswith("extract ")]


async def someone_talks(standin, bot, g, user, count):
    """Other people's messages in the channel (the bot sees that they exist, not what they say)."""
    cog = bot.get_cog("Tables")
    channel = int(g.channel["id"])
    start = cog.place.below.get(channel, 0)
    ids = [standin.snowflake() for _ in range(count)]
    # Wait for the bot to have received each message (then settle() waits for its listeners),
    # not for a while.
    received = [asyncio.ensure_future(bot.wait_for("message", check=lambda m, i=i: m.id == i, timeout=SAFETY_TIMEOUT))
                for i in ids]
    for i in ids:
        await standin.gateway_dispatch("MESSAGE_CREATE", {
            "id": str(i), "channel_id": g.channel["id"], "guild_id": str(g.id), "author": user,
            "content": "", "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": 0,
        })
    await asyncio.gather(*received)
    await standin.settle(bot)
    assert cog.place.below.get(channel, 0) == start + count, "the bot counts each message below its table"


async def test_the_table_moves_down_when_it_has_scrolled_away(standin, make_bot):

    g, users = people(standin, 2)  # the guild exists before the bot connects to the gateway
    bot = make_bot()  # its guild_ready_timeout is small (2 s by default, per guild)
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), SAFETY_TIMEOUT)
        assert await guild_cached(bot, g.id) is not None
        await moves_down(standin, bot, g, users)
    finally:
        await bot.close()
        await asyncio.wait_for(task, SAFETY_TIMEOUT)


async def moves_down(standin, bot, g, users):
    from cogs.tables import MOVE_DOWN_AFTER

    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    table_id = res.message_id
    await standin.click(bot, table_id, label="Join", user=users[1])
    await standin.click(bot, table_id, label="Start", user=users[0])
    seat, move = await auto_move_for(bot, channel, 0)
    await make_move(standin, bot, channel, seat, move, users)
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [table_id]
    await someone_talks(standin, bot, g, users[0], MOVE_DOWN_AFTER - 1)
    seat, move = await auto_move_for(bot, channel, 1)
    await make_move(standin, bot, channel, seat, move, users)
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [table_id], "not far enough yet"
    await someone_talks(standin, bot, g, users[1], 1)
    seat, move = await auto_move_for(bot, channel, 2)
    await make_move(standin, bot, channel, seat, move, users)
    moved = table_messages(standin, channel)
    assert len(moved) == 1 and int(moved[0]["id"]) > table_id
    new_id = int(moved[0]["id"])
    old = standin._message(table_id)
    assert standin.buttons(table_id) == [] and old["content"] == f"The table moved down the channel: {link_to(g, new_id)}"
    assert shown_revision(standin, int(moved[0]["id"])) == (await bot.service.get(channel)).revision
    # Moves go on editing the new one.
    seat, move = await auto_move_for(bot, channel, 3)
    await make_move(standin, bot, channel, seat, move, users)
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [new_id]
    assert shown_revision(standin, new_id) == (await bot.service.get(channel)).revision


async def test_a_table_message_that_cannot_be_edited_is_posted_again(standin, bot):
    g, users, channel, table_id = await open_table(standin, bot, "court_wars", 2)
    standin._delete(table_id)  # someone deleted it (or the app may not edit in this channel)
    seat, move = await auto_move_for(bot, channel, 0)
    res = await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
    assert not res.ephemeral and res.embeds, "the new table is the answer"
    assert any("Done" in m["content"] for m in standin.channel_messages(channel) if m["ephemeral"])
    new_id = res.message_id
    assert await bot.service.store.message_id(channel) == new_id
    seat, move = await auto_move_for(bot, channel, 1)
    await make_move(standin, bot, channel, seat, move, users)
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [new_id]


async def test_concede_asks_first_and_keep_playing_changes_nothing(standin, bot):
    g, users, channel, table_id = await open_table(standin, bot, "gridcannon", 1)
    labels = [(label, parse_cid(cid)[2]) for cid, label, _ in standin.buttons(table_id)]
    row_of = {c.get("label"): i for i, r in enumerate(standin._message(table_id)["components"]) for c in r["components"]}
    assert row_of["Concede"] != row_of[labels[0][0]], "Concede sits apart from the moves"
    before = await bot.service.get(channel)
    sure = await standin.click(bot, table_id, label="Concede", user=users[0])
    assert sure.ephemeral and "Are you sure" in sure.text
    assert {label for _, label, _ in sure.buttons()} == {"Confirm", "Keep playing"}
    kept = await standin.click(bot, sure.message_id, label="Keep playing", user=users[0])
    assert kept.ephemeral and kept.message_id == sure.message_id and "Nothing was changed" in kept.text
    after = await bot.service.get(channel)
    assert (after.revision, after.status, after.state) == (before.revision, "playing", before.state)
    assert len(public_posts(standin, channel)) == 1
    sure = await standin.click(bot, table_id, label="Concede", user=users[0])
    done = await standin.click(bot, sure.message_id, label="Confirm", user=users[0])
    assert done.ephemeral and "conceded" in done.text
    assert (await bot.service.get(channel)).status == "finished"
    posts = public_posts(standin, channel)
    assert len(posts) == 2 and "Gridcannon is over" in posts[1]["content"]
    assert "New game" in [label for _, label, _ in standin.buttons(table_id)]


async def test_leave_asks_mid_game_but_not_in_the_lobby(standin, bot):
    g, users = people(standin, 4)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    table_id = res.message_id
    for u in users[1:]:
        await standin.click(bot, table_id, label="Join", user=u)
    left = await standin.slash(bot, "game leave", user=users[3], guild=g)  # the lobby: no question
    assert left.ephemeral and "left" in left.text
    assert len((await bot.service.get(channel)).seats) == 3
    await standin.click(bot, table_id, label="Start", user=users[0])
    before = await bot.service.get(channel)
    sure = await standin.slash(bot, "game leave", user=users[1], guild=g)
    assert sure.ephemeral and "Are you sure" in sure.text
    await standin.click(bot, sure.message_id, label="Keep playing", user=users[1])
    assert (await bot.service.get(channel)).revision == before.revision
    sure = await standin.slash(bot, "game leave", user=users[1], guild=g)
    done = await standin.click(bot, sure.message_id, label="Confirm", user=users[1])
    assert done.ephemeral
    game = load_game(await bot.service.get(channel))
    assert 1 in game.forfeited
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [table_id]


async def test_resign_sits_apart_and_asks_first(standin, bot):
    g, users, channel, table_id = await open_table(standin, bot, "court_wars", 3)
    game = load_game(await bot.service.get(channel))
    seat = min(game.to_act())
    # On the table, Resign sits on the row below the moves.
    rows = standin._message(table_id)["components"]
    assert [c["label"] for c in rows[1]["components"]][-1].startswith("Resign")
    assert not any(c["label"].startswith("Resign") for c in rows[0]["components"])
    # So it does on the private panel.
    panel = await standin.click(bot, table_id, label="My ", user=users[seat])
    rows = standin._message(panel.message_id)["components"]
    resign_row = next(i for i, r in enumerate(rows) for c in r["components"] if c.get("label", "").startswith("Resign"))
    assert all(c.get("label", "").startswith("Resign") or parse_cid(c["custom_id"])[2] != "s"
               for c in rows[resign_row]["components"])
    resign = next(c["custom_id"] for r in rows for c in r["components"] if c.get("label", "").startswith("Resign"))
    sure = await standin.click(bot, panel.message_id, resign, user=users[seat])
    assert sure.ephemeral and sure.message_id == panel.message_id and "Are you sure" in sure.text  # in place
    assert (await bot.service.get(channel)).status == "playing" and not load_game(
        await bot.service.get(channel)).forfeited
    kept = await standin.click(bot, sure.message_id, label="Keep playing", user=users[seat])
    assert "Your seat" in kept.text  # the panel is back
    sure = await standin.slash(bot, "court-wars resign", user=users[seat], guild=g)
    assert sure.ephemeral and "Are you sure" in sure.text
    done = await standin.click(bot, sure.message_id, label="Confirm", user=users[seat])
    assert done.ephemeral and "Done" in done.text
    assert any("resigns" in e for e in (await bot.service.get(channel)).events[-3:])
    assert latest_table(standin, channel)["id"] == str(table_id)


async def test_a_cancelled_lobby_closes_in_place(standin, bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    await standin.click(bot, res.message_id, label="Join", user=users[1])
    closed = await standin.click(bot, res.message_id, label="Cancel", user=users[0])
    assert not closed.ephemeral and closed.message_id == res.message_id
    assert "closed" in closed.embed["title"] and standin.buttons(res.message_id) == []
    assert (await bot.service.get(channel)).status == "abandoned"
    assert len(public_posts(standin, channel)) == 1


async def test_a_seat_picture_goes_on_the_private_panel(standin, bot):
    """When a game draws a seat's own picture (Cardchess2: your face-down cards named), the private
    panel carries it, drawn off the loop; a game with no private cards (Court Wars) attaches none."""
    import io

    from PIL import Image

    g, users, channel, table_id = await open_table(standin, bot, "cardchess2", 2)
    hand = await standin.slash(bot, "game hand", user=users[1], guild=g)
    assert hand.ephemeral
    assert [f.filename for f in hand.files] == ["hand.png"] and hand.files[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    assert hand.embed["image"]["url"] == "attachment://hand.png"
    assert Image.open(io.BytesIO(hand.files[0].data)).width >= 400

    g2, users2, _, _ = await open_table(standin, bot, "court_wars", 2)
    plain = await standin.slash(bot, "game hand", user=users2[1], guild=g2)
    assert plain.ephemeral and plain.files == [] and "image" not in plain.embed


async def test_two_actions_at_once_leave_the_newer_table_showing(standin, bot, monkeypatch):
    """The first action's picture is slow; the second lands meanwhile. Without care the older table
    would be written last; the table message must end on the newest state."""
    import random

    import bot.render.pictures as pictures

    g, users, channel, table_id = await open_table(standin, bot, "court_wars", 2)
    table = await bot.service.get(channel)
    game = load_game(table)
    first = min(game.to_act())
    move_a = str(spec("court_wars").player(game, first, random.Random(1)))
    after_a, _ = game.apply(first, move_a)
    second = min(after_a.to_act())
    move_b = str(spec("court_wars").player(after_a, second, random.Random(2)))

    original = pictures.table_picture
    slow = {"left": 1}
    drawing, release = asyncio.Event(), asyncio.Event()

    async def table_picture(game_id, view, lang="en"):
        if slow["left"]:  # the first action's picture is held until the second action is in
            slow["left"] -= 1
            drawing.set()
            await release.wait()
        return await original(game_id, view, lang)

    monkeypatch.setattr(pictures, "table_picture", table_picture)

    async def feed(move, user):  # over the gateway, not waited for: both moves in flight at once
        payload = standin._payload(2, standin._command_data(bot, "game move", {"move": move}, g), user, g, None)
        return await standin.deliver(bot, payload)

    res_a = await feed(move_a, users[first])
    await asyncio.wait_for(drawing.wait(), SAFETY_TIMEOUT)  # the first move is saved; its table is being drawn
    assert (await bot.service.get(channel)).revision == table.revision + 1
    saved = asyncio.Event()
    save = bot.service.move

    async def save_and_tell(*args, **kwargs):
        out = await save(*args, **kwargs)
        saved.set()
        return out

    monkeypatch.setattr(bot.service, "move", save_and_tell)
    res_b = await feed(move_b, users[second])
    await asyncio.wait_for(saved.wait(), SAFETY_TIMEOUT)  # the second move lands while the first is drawn
    assert (await bot.service.get(channel)).revision == table.revision + 2
    release.set()
    await standin.settle(bot)
    assert res_a.ephemeral and res_b.ephemeral
    final = await bot.service.get(channel)
    assert final.revision == table.revision + 2
    assert [int(m["id"]) for m in table_messages(standin, channel)] == [table_id]
    shown_revs = {parse_cid(c)[1] for c, _, _ in standin.buttons(table_id) if parse_cid(c)[2] == "me"}
    assert shown_revs == {final.revision}  # the later state shows last
