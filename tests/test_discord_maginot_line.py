"""The Maginot Line through the Discord stand-in: a 3-player game in a guild channel (lobby, join,
start), each player ordering their Aces privately, played with buttons and pickers; a battle where
the defender engages and both players commit, with a restart of the bot between the two commits;
wrong player, wrong window and stale button refused privately with the table unchanged; and no
public message naming a card that is not public."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.engine.cards import pretty
from bot.engine.maginot_line import battle
from bot.engine.maginot_line.model import face
from bot.tables.games import load_game
from tests.discord_helpers import guild_with, auto_move_for, components, latest_table, parse_cid, press_move
from bot.standin import logged_in, walk_components

# The table's seed (drawn with secrets.randbits when the game starts) is fixed so the game is the same
# every run. With it, and the built-in player choosing every move (auto_move_for(…, i) for the i-th
# move), a battle where the defender can engage comes at move 90. "Mobile defence" (V1: untapped
# patrols may engage too) is on because within six rounds the built-in player rarely has guardians.
SEED = 66
VARIANTS = "Mobile defence, rounds=4"

CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK2?)@\d\b")
PRETTY = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
SYM = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def people(standin):
    return guild_with(standin, ("ana", "ben", "cat", "dee"))


async def snapshot(bot, channel):
    return dataclasses.asdict(await bot.service.get(channel))


def public(standin, channel):
    return standin.channel_messages(channel, include_ephemeral=False)


def public_text(msg: dict) -> str:
    """Everything a public message shows: content, embeds, component labels, custom_ids, options."""
    from bot.standin import DiscordStandIn

    parts = [DiscordStandIn.message_text(msg)]
    for e in msg.get("embeds") or []:
        parts.append(repr(e))
    for c in walk_components(msg.get("components")):
        parts += [c.get("label") or "", c.get("custom_id") or "", c.get("placeholder") or ""]
        for o in c.get("options") or []:
            parts += [o.get("label") or "", o.get("value") or "", o.get("description") or ""]
    return "\n".join(parts)


def assert_public_names_only_known(text: str, known: frozenset[str]) -> None:
    """Exact codes must be known; a face (own decks share faces) must be the face of a known card."""
    for code in CODE.findall(text):
        assert code in known, f"{code} named in public but not public"
    known_faces = {face(c) for c in known}
    for r, s in PRETTY.findall(text):
        f = ("T" if r == "10" else r) + SYM[s]
        assert f in known_faces, f"{pretty(f)} named in public but no such card is public"


async def assert_refused(standin, bot, channel, do, *words):
    """``do()`` is answered privately, with one of ``words``, and the stored row is unchanged."""
    before = await snapshot(bot, channel)
    res = await do()
    assert res.ephemeral, res.text
    assert any(w in res.text for w in words), res.text
    assert await snapshot(bot, channel) == before
    return res


@pytest.fixture
def fixed_seed(monkeypatch):
    import bot.tables

    monkeypatch.setattr(bot.tables.lobby.secrets, "randbits", lambda n: SEED)


async def test_three_players_battle_with_restart_between_commits(standin, make_bot, fixed_seed):
    g, users = people(standin)
    channel = int(g.channel["id"])
    uid = [int(u["id"]) for u in users]
    where = {"guild": g}
    moves = pings = endings = 0

    async def play(bot, i):
        """The i-th move, chosen by the built-in player, made with buttons by whoever must act."""
        nonlocal moves, pings, endings
        seat, move = await auto_move_for(bot, channel, i)
        n = len(public(standin, channel))
        live = latest_table(standin, channel)["id"]
        res = await press_move(standin, bot, channel, move, users[seat])
        assert res.ephemeral and res.text.startswith("Done"), res.text  # every answer here is private
        posted = public(standin, channel)[n:]
        # The table message is edited in place; new is only a ping when someone new must act (only
        # them), or the ending.
        assert latest_table(standin, channel)["id"] == live
        new = [latest_table(standin, channel), *posted]
        assert len(posted) <= 1, [m.get("content") for m in posted]
        assert new[0]["embeds"] and not standin.pinged_user_ids(new[0])
        if posted and "is over" in posted[0]["content"]:
            endings += 1
        elif posted:
            pings += 1
            assert "your turn" in new[1]["content"]
            table = await bot.service.get(channel)
            acting = {uid[s] for s in load_game(table).to_act()}
            assert set(standin.pinged_user_ids(new[1])) <= acting
        moves += 1
        return seat, move, res, new

    async with logged_in(make_bot()) as bot1:
        # Lobby, join by button and by command, start.
        res = await standin.slash(bot1, "game new", {"game": "maginot_line", "variants": VARIANTS},
                                  user=users[0], **where)
        assert not res.ephemeral
        await standin.click(bot1, res.message_id, label="Join", user=users[1])
        joined = await standin.slash(bot1, "game join", user=users[2], **where)
        assert joined.ephemeral and "sat down" in joined.text
        start = await standin.slash(bot1, "game start", user=users[0], **where)
        assert start.ephemeral and "Maginot" in standin._message(res.message_id)["embeds"][0]["title"]
        table = await bot1.service.get(channel)
        assert table.status == "playing" and table.seed == SEED
        assert table.options == ["Mobile defence", "rounds=4"]
        # The Ace orders are private decisions of all three at once: all are pinged but the host, who
        # just pressed Start; no move on the table.
        start_pings = [m for m in start.followups if standin.pinged_user_ids(m)]
        assert [sorted(standin.pinged_user_ids(m)) for m in start_pings] == [sorted(uid[1:3])]
        assert [label for _, label, _ in standin.buttons(res.message_id)] == ["My view / act"]
        lobby_messages = len(public(standin, channel))

        i = 0
        ordered = []
        while load_game(await bot1.service.get(channel)).phase == "aces":
            seat, move, res, new = await play(bot1, i)
            ordered.append(seat)
            i += 1
            if len(ordered) < 3:  # nobody else learns the order
                assert "has ordered their Aces" in standin.message_text(new[0])
        assert sorted(ordered) == [0, 1, 2]

        # Play until the defender of a battle can engage.
        while True:
            game = load_game(await bot1.service.get(channel))
            assert not game.is_over(), "no battle with an engagement"
            if game.battle and game.battle["step"] == "engage" and battle.engagers(game):
                break
            await play(bot1, i)
            i += 1
        attacker, defender = game.battle["attacker"], game.battle["defender"]
        bystander = 3 - attacker - defender
        # The declare pinged the defender, and only them.
        last_ping = [m for m in public(standin, channel) if standin.pinged_user_ids(m)][-1]
        assert standin.pinged_user_ids(last_ping) == [uid[defender]]
        table_msg = int(latest_table(standin, channel)["id"])
        me = next(c["custom_id"] for c in components(standin, table_msg) if parse_cid(c["custom_id"])[2] == "me")

        # Wrong player: the attacker and the bystander are told it is not their move, privately.
        for who in (attacker, bystander):
            panel = await assert_refused(standin, bot1, channel,
                                         lambda who=who: standin.click(bot1, table_msg, me, user=users[who]),
                                         "Not your move")
            assert not components(standin, panel.message_id)
        await assert_refused(standin, bot1, channel,
                             lambda: standin.slash(bot1, "game move", {"move": "engage"}, user=users[bystander],
                                                   **where), f"It is {game.players[defender]}'s turn.")
        await assert_refused(standin, bot1, channel,
                             lambda: standin.click(bot1, table_msg, me, user=users[3]), "not playing")
        # Wrong window: the defender may not commit before engaging; the attacker may not go on with
        # the turn while the battle waits.
        await assert_refused(standin, bot1, channel,
                             lambda: standin.slash(bot1, "game move", {"move": "commit"}, user=users[defender],
                                                   **where), "There is no commit to make now.")
        await assert_refused(standin, bot1, channel,
                             lambda: standin.slash(bot1, "game move", {"move": "done"}, user=users[attacker],
                                                   **where), f"It is {game.players[defender]}'s turn.")

        # The defender opens their panel (the engage step), then engages by buttons; the old
        # panel's step button is stale afterwards.
        opened = await standin.click(bot1, table_msg, me, user=users[defender])
        assert opened.ephemeral and "Your move" in opened.text
        old_step = next(c["custom_id"] for c in components(standin, opened.message_id)
                        if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == "s")
        seat, move, res, new = await play(bot1, i)
        i += 1
        assert seat == defender and move.startswith("engage ") and len(move.split()) >= 3, move
        game = load_game(await bot1.service.get(channel))
        assert game.battle["engaged"], "the defender engaged"
        assert "engages:" in standin.message_text(new[0])
        await assert_refused(standin, bot1, channel,
                             lambda: standin.click(bot1, opened.message_id, old_step, user=users[defender]),
                             "moved on")

        # The first commit.
        first = battle.committing(game)
        second = defender if first == attacker else attacker
        seat, move, res, new = await play(bot1, i)
        i += 1
        assert seat == first and move.startswith("commit"), move
        game = load_game(await bot1.service.get(channel))
        assert game.battle and len(game.battle["commits"]) == 1
        assert [d.seat for d in game.decisions()] == [second]
        assert len(new) == 2 and standin.pinged_user_ids(new[1]) == [uid[second]]
        before_restart = await snapshot(bot1, channel)

    # A restart between the two commits: nothing lost, the second committer still asked.
    async with logged_in(make_bot()) as bot2:
        assert await snapshot(bot2, channel) == before_restart
        game = load_game(await bot2.service.get(channel))
        assert [d.seat for d in game.decisions()] == [second] and len(game.battle["commits"]) == 1
        # The first committer may not commit twice.
        await assert_refused(standin, bot2, channel,
                             lambda: standin.slash(bot2, "game move", {"move": "commit"}, user=users[first],
                                                   **where), f"It is {game.players[second]}'s turn.")
        # Wrong window: engaging again once the commits have begun.
        await assert_refused(standin, bot2, channel,
                             lambda: standin.slash(bot2, "game move", {"move": "engage"}, user=users[second],
                                                   **where), "You are not being attacked now.")
        seat, move, res, new = await play(bot2, i)
        i += 1
        assert seat == second and move.startswith("commit"), move
        table = await bot2.service.get(channel)
        game = load_game(table)
        assert game.battle is None or game.battle["attacks"] != before_restart["state"]["battle"]["attacks"]
        shown = "\n".join(standin.message_text(m) for m in new)
        assert "second commit" in shown and "Outcome" in shown, shown
        # The engage panel from before the restart is still stale.
        await assert_refused(standin, bot2, channel,
                             lambda: standin.click(bot2, opened.message_id, old_step, user=users[defender]),
                             "moved on")

        # Play to the end (the round limit).
        for _ in range(300):
            table = await bot2.service.get(channel)
            if table.status != "playing":
                break
            await play(bot2, i)
            i += 1
        table = await bot2.service.get(channel)
        assert table.status == "finished"
        game = load_game(table)

    # No public message names a card that is not public at the end.
    known = game.known(None)
    msgs = public(standin, channel)
    for m in msgs:
        assert_public_names_only_known(public_text(m), known)
    # Every public message is accounted for: the lobby (the table, edited in place by every move)
    # and the start's ping, then the moves' pings and the one ending.
    assert len(msgs) == lobby_messages + pings + endings and lobby_messages == 2 and endings == 1
    assert moves == i


async def test_a_press_of_several_moves_is_played_whole_or_not_at_all(standin, bot, fixed_seed):
    """A press that makes several moves (taps, a phase's passing steps) plays them one by one, each
    logged alone, saved together; when one of them is refused, none is played."""
    from bot.tables import Actor, TableError
    from tests.play_loop import play_turns

    _, users, channel, _, _ = await play_turns(standin, bot, "maginot_line", 2, 2, "rounds=3")  # the Aces
    game = load_game(await bot.service.get(channel))
    seat = min(game.to_act())
    actor = Actor(int(users[seat]["id"]), users[seat]["username"])
    desk = bot.get_cog("Tables").desk
    before = await snapshot(bot, channel)
    with pytest.raises(TableError, match="base"):
        await desk.moves(channel, actor, ["tapbase", "tapbase"])  # the second tap of the base is refused
    assert await snapshot(bot, channel) == before  # nothing played, nothing saved
    update = await desk.moves(channel, actor, ["tapbase", "done"])
    after = await bot.service.get(channel)
    assert after.revision == before["revision"] + 1  # one save
    assert [m[:2] for m in after.moves[len(before["moves"]):]] == [[seat, "tapbase"], [seat, "done"]]
    assert update.mine is not None and update.mine.acting  # the battle phase is the same seat's
    assert not update.pings  # the same seat acts on: nobody is pinged


async def test_several_taps_in_one_select_say_what_each_did(standin, bot, fixed_seed):
    """The panel's "Several at once" select: every move chosen is played in the order offered, each
    its own entry in the record, and the panel says what each did in one sentence."""
    from tests.play_loop import play_turns

    _, users, channel, _, _ = await play_turns(standin, bot, "maginot_line", 2, 2, "rounds=3")  # the Aces
    table = await bot.service.get(channel)
    seat = min(load_game(table).to_act())
    user = users[seat]
    me = next(c for c, label, _ in standin.buttons(int(latest_table(standin, channel)["id"])) if label == "My view / act")
    panel = await standin.click(bot, int(latest_table(standin, channel)["id"]), me, user=user)
    batch = next(c for c in components(standin, panel.message_id)
                 if (c.get("custom_id") or "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == "b"
                 and "Several" in (c.get("placeholder") or ""))
    values = [o["value"] for o in batch["options"] if not o["value"].split()[-1].startswith("JD")]
    logged = len(table.moves)
    res = await standin.select(bot, panel.message_id, batch["custom_id"], values, user=user)
    moves = [m[1] for m in (await bot.service.get(channel)).moves[logged:]]
    assert moves == [v.partition(" ")[2] for v in values] and len(moves) >= 2
    said = res.text.partition("\n")[0]  # (chosen privately, but no secret: "you chose")
    assert res.ephemeral and said.startswith("Done: you chose ") and ", then " in said, said
    assert "Tap your base" in said or "Tap " in said.partition(", then ")[0]
    assert (await bot.service.get(channel)).revision == table.revision + 1
