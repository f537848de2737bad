"""The Knight, the Rogue, the Princess and the Dragon through the Discord stand-in: a lobby of
four, flips, tellings through modals, passes, the priority round, the story file; restarts."""

from __future__ import annotations

from bot.tables.games import load_game
from tests.discord_helpers import auto_move_for, auto_moves, latest_table, make_move
from bot.standin import logged_in

KRPD = "knight_rogue_princess_dragon"


def seat_four(standin):
    g = standin.guild()
    users = [standin.user(name=n) for n in ("ana", "ben", "cat", "dee", "eve")]
    for u in users:
        g.add_member(u)
    return g, users


async def open_lobby(standin, bot, g, users, n=4, options=None):
    args = {"game": KRPD}
    if options:
        args["variants"] = options
    res = await standin.slash(bot, "game new", args, user=users[0], guild=g)
    assert not res.ephemeral and "lobby" in res.embed["title"]
    lobby = res.message_id
    for u in users[1:n]:
        r = await standin.click(bot, lobby, label="Join", user=u)
        assert r.callback_type == 7  # the lobby message is edited in place
    return lobby


async def started_four(standin, bot):
    """Four players seated and the game started by the host: the guild, its people, the channel."""
    g, users = seat_four(standin)
    lobby = await open_lobby(standin, bot, g, users)
    await standin.click(bot, lobby, label="Start", user=users[0])
    return g, users, int(g.channel["id"])


async def test_lobby_refusals_and_start(standin, bot):
    g, users = seat_four(standin)
    lobby = await open_lobby(standin, bot, g, users, n=2)
    twice = await standin.click(bot, lobby, label="Join", user=users[1])
    assert twice.ephemeral and "already seated" in twice.text
    early = await standin.click(bot, lobby, label="Start", user=users[0]) if not dict(
        (label, disabled) for _, label, disabled in standin.buttons(lobby))["Start"] else None
    assert early is None, "Start is disabled until enough players have joined"
    for u in users[2:4]:
        await standin.click(bot, lobby, label="Join", user=u)
    full = await standin.click(bot, lobby, label="Join", user=users[4])
    assert full.ephemeral and "full" in full.text
    not_host = await standin.click(bot, lobby, label="Start", user=users[2])
    assert not_host.ephemeral and "Only the host" in not_host.text
    outsider = await standin.click(bot, lobby, label="Start", user=users[4])
    assert outsider.ephemeral
    started = await standin.click(bot, lobby, label="Start", user=users[0])
    assert started.callback_type == 7
    pings = [m for m in standin.channel_messages(int(g.channel["id"]), include_ephemeral=False)
             if standin.pinged_user_ids(m)]
    table = await bot.service.get(int(g.channel["id"]))
    first = table.seats[min(load_game(table).to_act())].user_id
    if first == int(users[0]["id"]):  # the host just pressed Start: no ping for them
        assert not pings or first not in standin.pinged_user_ids(pings[-1])
    else:
        assert standin.pinged_user_ids(pings[-1]) == [first]
    assert all("@everyone" not in str(m.get("allowed_mentions")) for m in pings)


async def test_whole_story_with_modals_and_story_file(standin, bot):
    g, users, channel = await started_four(standin, bot)
    n_pings = 0
    async for i, _, seat, move in auto_moves(bot, channel, 400):
        move = str(move)
        if move.startswith(("tell", "twist", "wrapup", "close")):
            move = move.split(" ", 1)[0] + f" Line {i}: @everyone <@&1> **bold** by seat {seat}."
        before = len(standin.channel_messages(channel, include_ephemeral=False))
        res = await make_move(standin, bot, channel, seat, move, users)
        assert not (res.ephemeral and ("moved on" in res.text or "not" in res.text.lower()[:20])), res.text
        after = standin.channel_messages(channel, include_ephemeral=False)[before:]
        n_pings += sum(1 for m in after if standin.pinged_user_ids(m))
        for m in after:  # story text never pings anyone
            assert "everyone" not in str(m.get("allowed_mentions", {}).get("parse", []))
    table = await bot.service.get(channel)
    assert table.status == "finished"
    assert n_pings > 10, "each turn change pings the player to act"
    files = [f for m in standin.channel_messages(channel, include_ephemeral=False) for f in standin.files(int(m["id"]))
             if f.filename == "story.md"]
    assert files, "the finished story is offered as a Markdown file"
    story = files[-1].data.decode()
    assert "# The Knight, the Rogue, the Princess and the Dragon" in story
    assert story.count("Line ") >= 16 + 2  # 16 tellings, the wrap-up and the closing
    for u in users[:4]:
        assert u["username"] in story or u.get("global_name", "") in story
    shown = await standin.slash(bot, "game story", user=users[1], guild=g)
    assert shown.ephemeral and "page 1 of" in shown.embed["footer"]["text"]
    final = latest_table(standin, channel)
    assert "Rematch" in [label for _, label, _ in standin.buttons(int(final["id"]))]
    stats = await standin.slash(bot, "game stats", {"game": KRPD}, user=users[0], guild=g)
    assert "played" in str(stats.embeds)


async def test_restart_mid_lobby_and_mid_game(standin, make_bot):
    g, users = seat_four(standin)
    channel = int(g.channel["id"])
    async with logged_in(make_bot()) as bot1:
        lobby = await open_lobby(standin, bot1, g, users, n=3)
    async with logged_in(make_bot()) as bot2:
        await standin.click(bot2, lobby, label="Join", user=users[3])
        started = await standin.click(bot2, lobby, label="Start", user=users[0])
        assert started.callback_type == 7
        for i in range(5):
            seat, move = await auto_move_for(bot2, channel, i)
            move = str(move)
            await make_move(standin, bot2, channel, seat, move, users)
        before = await bot2.service.get(channel)
    async with logged_in(make_bot()) as bot3:
        seat, move = await auto_move_for(bot3, channel, 77)
        move = str(move)
        await make_move(standin, bot3, channel, seat, move, users)
        assert (await bot3.service.get(channel)).revision == before.revision + 1


async def test_wrong_player_and_text_limits(standin, bot):
    g, users, channel = await started_four(standin, bot)
    table = await bot.service.get(channel)
    seat = min(load_game(table).to_act())
    other = users[(seat + 1) % 4]
    msg = latest_table(standin, channel)
    button = next(cid for cid, _, _ in standin.buttons(int(msg["id"])) if ":s:" in cid)
    wrong = await standin.click(bot, int(msg["id"]), button, user=other)
    assert wrong.ephemeral and "turn" in wrong.text
    say = await standin.slash(bot, "game say", {"text": "hello"}, user=other, guild=g)
    assert say.ephemeral
    after = await bot.service.get(channel)
    assert after.revision == table.revision


async def test_game_commands_for_verbs_and_lines(standin, bot):
    g, users, channel = await started_four(standin, bot)
    told = 0
    async for i, _, seat, move in auto_moves(bot, channel, 60):
        move = str(move)
        verb, _, rest = move.partition(" ")
        path = f"knight-rogue-princess-dragon {verb}"
        if verb in ("tell", "wrapup", "twist", "close"):
            r = await standin.slash(bot, path, {"text": f"Line {i}"}, user=users[seat], guild=g)
            told += 1
        elif rest:
            r = await standin.slash(bot, path, {"choice": move}, user=users[seat], guild=g)
        else:
            r = await standin.slash(bot, path, user=users[seat], guild=g)
        assert r.ephemeral and r.text.startswith("Done"), r.text  # the table message shows the move
    assert told >= 10
    late = await standin.slash(bot, "knight-rogue-princess-dragon tell", {"text": "not now"}, user=users[4], guild=g)
    assert late.ephemeral


PASS_SEED = 0


async def test_the_pass_is_chosen_in_the_story_lines_box(standin, bot):
    """The box of a story line carries the pass that follows it: a label (type 18) wrapping a string
    select of exactly the rules' legal recipients, optional. Submitted with a recipient, the line and
    the pass are two moves of the record, saved at once, the words escaped where the bot repeats them."""
    from tests.play_loop import open_game, play_turn, seeded

    with seeded(PASS_SEED):  # a deal whose first telling comes within the first turns
        _, users, channel, _ = await open_game(standin, bot, KRPD, 4)
    for i in range(12):  # the flips, up to a telling that is followed by a pass
        game = load_game(await bot.service.get(channel))
        seat = min(game.to_act())
        if game.decision_of(seat).name == "tell" and game.view(None).transcript:
            break
        await play_turn(standin, bot, channel, users, i)
    else:
        raise AssertionError("no telling came")
    after, _ = game.apply(seat, "tell x")
    legal = [f"pass {o.token}" for o in after.choices(seat, ("pass",)).options]
    table_id = int(latest_table(standin, channel)["id"])
    tell = next(c for c, label, _ in standin.buttons(table_id) if label.startswith("✍"))
    res = await standin.click(bot, table_id, tell, user=users[seat])
    box = res.modal
    labels = [c for c in box["components"] if c["type"] == 18]
    assert len(labels) == 1 and labels[0]["component"]["type"] == 3 and labels[0]["label"].startswith("Then: Pass")
    select = labels[0]["component"]
    assert [o["value"] for o in select["options"]] == legal and select.get("required") is False
    text_id = standin.modal_fields(box["custom_id"])[0]["custom_id"]
    table = await bot.service.get(channel)
    done = await standin.submit_modal(bot, box["custom_id"], {text_id: "The **knight** waves @everyone", "then": [legal[-1]]},
                                      user=users[seat])
    after_table = await bot.service.get(channel)
    assert [m[1] for m in after_table.moves[len(table.moves):]] == ["tell The **knight** waves @everyone", legal[-1]]
    assert after_table.revision == table.revision + 1
    for said in [done.text, *(m.get("content") or "" for m in done.followups)]:  # the table, the answer
        assert "**knight**" not in said and "@everyone" not in said.replace("@\u200beveryone", ""), said
    assert "knight" in done.text and "passes" in done.text  # the table answers a box opened on it
