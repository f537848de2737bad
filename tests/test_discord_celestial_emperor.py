"""Warriors of the Celestial Emperor through the Discord stand-in: private hands, hidden
simultaneous card choices, narration by modals, the step-by-step scoring, the story file,
and a restart in the middle of a duel that loses nothing and reveals nothing."""

from __future__ import annotations

import json

import pytest

from bot.tables.games import load_game
from tests.discord_helpers import auto_move_for, auto_moves, components, latest_table, make_move, parse_cid
from tests.playout import card_patterns
from bot.standin import logged_in

CE = "celestial_emperor"


def public_text(standin, messages) -> str:
    return "\n".join(json.dumps({k: m.get(k) for k in ("content", "embeds", "components")}, ensure_ascii=False)
                     for m in messages)


def assert_hidden(blob: str, hidden: set[str], where: str) -> None:
    for card in hidden:
        for pat in card_patterns(card):
            assert not pat.search(blob), f"{card} leaked in {where}"


async def start_game(standin, bot, n=3, options="Seat Order Clans"):
    g = standin.guild()
    users = [standin.user(name=x) for x in ("ana", "ben", "cat", "dee")[:n]]
    for u in users:
        g.add_member(u)
    res = await standin.slash(bot, "game new", {"game": CE, "variants": options}, user=users[0], guild=g)
    for u in users[1:]:
        await standin.click(bot, res.message_id, label="Join", user=u)
    await standin.click(bot, res.message_id, label="Start", user=users[0])
    return g, users, int(g.channel["id"])


async def test_whole_game_hidden_choices_and_story(standin, bot):
    g, users, channel = await start_game(standin, bot, n=3)
    table = await bot.service.get(channel)
    msg = latest_table(standin, channel)
    labels = [label for _, label, _ in standin.buttons(int(msg["id"]))]
    assert "My view / act" in labels  # one name for the private panel in every phase
    assert not [cid for cid, _, _ in standin.buttons(int(msg["id"])) if ":mv:" in cid], \
        "no card choice ever sits on the public table"
    hand = await standin.slash(bot, "game hand", user=users[1], guild=g)
    assert hand.ephemeral and "Celestial Emperor table in" in hand.text
    seen = len(standin.channel_messages(channel, include_ephemeral=False))
    committed_checked = False
    async for i, _, seat, move in auto_moves(bot, channel, 500):
        verb = move.split()[0]
        if verb in ("setting", "describe", "strike", "parry", "withdraw", "nullify", "victory", "return"):
            move = f"{verb} Line {i} by {users[seat]['username']}."
        res = await make_move(standin, bot, channel, seat, move, users)
        if verb in ("commit", "trick", "keep"):
            assert res.ephemeral, "a secret choice is answered privately"
        game = load_game(await bot.service.get(channel))
        new = standin.channel_messages(channel, include_ephemeral=False)[seen:]
        seen += len(new)
        unknown = set(game.all_cards()) - game.known(None)
        assert_hidden(public_text(standin, new), unknown, f"public messages after {move!r}")
        if verb == "commit" and not committed_checked and game.view(None).duel and game.view(None).duel.committed:
            shown = latest_table(standin, channel)
            assert "committed" in json.dumps(shown["embeds"]).lower()
            assert "My view / act" in [label for _, label, _ in standin.buttons(int(shown["id"]))]
            committed_checked = True
    table = await bot.service.get(channel)
    assert table.status == "finished"
    assert committed_checked
    final = latest_table(standin, channel)
    text = json.dumps(final["embeds"], ensure_ascii=False)
    assert "qualif" in text.lower(), "the scoring is shown step by step"
    files = [f for m in standin.channel_messages(channel, include_ephemeral=False) for f in standin.files(int(m["id"]))
             if f.filename == "story.md"]
    assert files
    story = files[-1].data.decode()
    assert "Dragon" in story and "Phoenix" in story and "Line " in story
    assert "# Warriors of the Celestial Emperor" in story


async def test_restart_mid_duel_loses_and_reveals_nothing(standin, make_bot):
    async with logged_in(make_bot()) as bot1:
        g, users, channel = await start_game(standin, bot1, n=2)
        # Play until the attacker has committed and the defender has not.
        for i in range(40):
            game = load_game(await bot1.service.get(channel))
            duel = game.view(None).duel
            if duel and len(duel.committed) == 1:
                break
            seat, move = await auto_move_for(bot1, channel, i)
            await make_move(standin, bot1, channel, seat, move, users)
        before = await bot1.service.get(channel)
        game = load_game(before)
        defender = min(game.to_act())
        # The defender opens their private panel before the restart.
        msg = latest_table(standin, channel)
        panel = await standin.click(bot1, int(msg["id"]), label="My view", user=users[defender])
        assert panel.ephemeral
    async with logged_in(make_bot()) as bot2:
        after = await bot2.service.get(channel)
        assert after.state == before.state and after.revision == before.revision
        status = await standin.slash(bot2, "game status", user=users[0], guild=g)
        attacker_card = [m for s, m, _ in after.moves if m.startswith("commit")][-1].split()[1]
        assert_hidden(json.dumps(status.embeds), {attacker_card}, "the table after a restart")
        move = [m for m in game.legal_moves(defender) if m.startswith("commit")][0]
        res = None
        where = panel.message_id
        for n in range(1, len(move.split()) + 1):  # the panel made before the restart still works
            tokens = move.split()
            step = next((c["custom_id"] for c in components(standin, where)
                         if parse_cid(c["custom_id"])[2] == "s" and parse_cid(c["custom_id"])[3].split() == tokens[:n]),
                        None)
            if step is not None:
                res = await standin.click(bot2, where, step, user=users[defender])
            else:  # more than one row of choices: a select
                select = next(c["custom_id"] for c in components(standin, where)
                              if parse_cid(c["custom_id"])[2] == "k" and parse_cid(c["custom_id"])[3].split() == tokens[:n - 1])
                res = await standin.select(bot2, where, select, [tokens[n - 1]], user=users[defender])
            where = res.message_id or where
        assert res.ephemeral and "moved on" not in res.text
        game2 = load_game(await bot2.service.get(channel))
        assert game2.view(None).duel.revealed, "both cards in: revealed together"


async def test_slash_commit_is_private_and_checked(standin, bot):
    g, users, channel = await start_game(standin, bot, n=2)
    for i in range(10):
        game = load_game(await bot.service.get(channel))
        seat = min(game.to_act())
        commits = [m for m in game.legal_moves(seat) if m.startswith("commit")]
        if commits:
            break
        _, move = await auto_move_for(bot, channel, i)
        await make_move(standin, bot, channel, seat, move, users)
    other = users[1 - seat]
    wrong = await standin.slash(bot, "celestial-emperor commit", {"choice": commits[0]}, user=other, guild=g)
    assert wrong.ephemeral
    bogus = await standin.slash(bot, "celestial-emperor commit", {"choice": "commit 5X"}, user=users[seat], guild=g)
    assert bogus.ephemeral
    choices = await standin.autocomplete(bot, "celestial-emperor commit", {"choice": ""}, focused="choice",
                                         user=users[seat], guild=g)
    assert [c["value"] for c in choices] == commits
    nothing_for_others = await standin.autocomplete(bot, "celestial-emperor commit", {"choice": ""},
                                                    focused="choice", user=other, guild=g)
    assert [c["name"] for c in nothing_for_others] == [load_game(await bot.service.get(channel)).waiting_for()]
    ok = await standin.slash(bot, "celestial-emperor commit", {"choice": commits[0]}, user=users[seat], guild=g)
    assert ok.ephemeral and ok.text.startswith("Done: your secret choice is in"), ok.text  # a hidden card
    public = [m for m in ok.followups if not m.get("ephemeral")]
    assert public, "the public table is updated"
    assert_hidden(json.dumps([m.get("embeds") for m in public]), {commits[0].split()[1]}, "the public table")


async def test_export_hides_secret_choices(standin, bot):
    g, users, channel = await start_game(standin, bot, n=2)
    secret = []
    for i in range(12):
        seat, move = await auto_move_for(bot, channel, i)
        await make_move(standin, bot, channel, seat, move, users)
        if move.startswith(("commit", "trick")):
            secret.append(move)
    assert secret
    sure = await standin.slash(bot, "game abandon", user=users[0], guild=g)
    assert sure.ephemeral and "Are you sure" in sure.text  # a game in progress with several people asks first
    await standin.click(bot, sure.message_id, label="Confirm", user=users[0])
    table = await bot.service.get(channel)
    exp = await standin.slash(bot, "game export", user=users[1], guild=g)
    assert exp.ephemeral
    record = json.loads(exp.files[0].data)
    assert record["redacted"] is True and record["seed"] is None
    assert table.status == "abandoned"
    moves = [m for _, m in record["moves"]]
    assert not set(secret) & set(moves)
    assert "commit (hidden)" in moves
    from bot.records import replay

    with pytest.raises(ValueError, match="secret choices hidden"):
        replay(record)
