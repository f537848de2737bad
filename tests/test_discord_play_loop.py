"""The Discord play loop (issue 18), measured through the stand-in: a whole turn played from one
private panel (the same panel shows the seat's next step in place), pings only for a change of who
must act (never the player who just acted, never a bot, one per person), one public message per
move at most besides pings and the ending, and every attached picture described in words.

The driver (``tests.play_loop``) plays each seat's whole turn the way a person would: a move button on the table
when the table offers the first step, else the seat's private panel (opened once, then carried
through the turn), text through its box. It counts interactions and panels posted."""

from __future__ import annotations

import statistics

import pytest

from tests.discord_helpers import latest_table
from tests.play_loop import Turn, open_game, play_turns, seeded


@pytest.fixture(autouse=True)
def dealt_alike():
    """Every run deals the same tables (the lobby draws a table's seed from ``secrets``): the tests
    look for turns of a given shape, which a deal decides."""
    with seeded(18):
        yield


def summary(turns: list[Turn]) -> str:
    ints = [t.interactions for t in turns]
    per_move = sum(t.public for t in turns) / sum(len(t.moves) for t in turns)
    return (f"interactions/turn median {statistics.median(ints)} max {max(ints)}; panels/turn max "
            f"{max(t.panels for t in turns)}; public/move {per_move:.2f}")


async def test_court_wars_draw_then_place_in_two(standin, bot):
    _, _, _, _, turns = await play_turns(standin, bot, "court_wars", 2, 8)
    dp = [t for t in turns if [m.split()[0] for m in t.moves] == ["draw", "place"]]
    assert dp, [t.moves for t in turns]
    assert all(t.interactions <= 2 for t in dp), [(t.moves, t.interactions) for t in dp]
    assert all(t.panels == 0 for t in dp)  # both on the table message
    print("court_wars", summary(turns))


async def test_krpd_tell_then_pass_in_two_and_flip_pings(standin, bot):
    _, users, _, start, turns = await play_turns(standin, bot, "knight_rogue_princess_dragon", 4, 14)
    host = int(users[0]["id"])
    assert host not in [u for m in start.followups for u in standin.pinged_user_ids(m)], "not the host at Start"
    tp = [t for t in turns if [m.split()[0] for m in t.moves] == ["tell", "pass"]]
    assert tp, [t.moves for t in turns]
    print("krpd tell/pass", [(t.interactions, t.panels) for t in tp], summary(turns))
    assert max(t.interactions for t in tp) <= 2  # ✍ (1), the box with the pass chosen in it (2)
    assert all(t.panels <= 1 for t in tp)


async def test_krpd_lines_in_a_row_are_written_in_one_box(standin, bot):
    """The last teller's line, the wrap-up and (when every other player passes at once) the closing
    lines are the same seat's steps with nothing between: one box carries them (2 interactions),
    each played and logged as its own move."""
    _, _, channel, _, turns = await play_turns(standin, bot, "knight_rogue_princess_dragon", 4, 40)
    table = await bot.service.get(channel)
    assert table.status == "finished"
    lines = [t for t in turns if len(t.moves) > 1 and all(m.split()[0] in ("tell", "wrapup", "twist", "close")
                                                           for m in t.moves)]
    assert lines, [t.moves for t in turns]
    assert all(t.interactions <= 2 for t in lines), [(t.moves, t.interactions) for t in lines]
    logged = [m[1] for m in table.moves]
    for t in lines:
        assert all(m in logged for m in t.moves)  # each line its own move in the record


async def test_maginot_construction_and_battle_turn_on_one_panel(standin, bot):
    _, _, _, _, turns = await play_turns(standin, bot, "maginot_line", 2, 6, "rounds=3")
    long = [t for t in turns if len(t.moves) > 1]
    assert long and all(t.panels == 1 for t in long), [(t.moves, t.panels) for t in long]
    print("maginot", summary(turns), [(len(t.moves), t.interactions) for t in turns])


async def test_maginot_construction_and_battle_turn_in_six(standin, bot):
    """Construction and battle (resources, taps, building, the phases' passing steps, a battle's
    declaration) take at most 6 interactions a turn: several taps in one select, a build in one
    pick, and the passing steps left in one press — each move still applied and logged alone.
    Counted from the turn's first move to the end of its battles (consolidation after it is a
    phase of its own: its units and queens are counted in the whole turn's figures)."""
    _, _, channel, _, turns = await play_turns(standin, bot, "maginot_line", 2, 10, "rounds=4")
    both = []
    for t in turns:
        if t.moves[0].startswith("aces"):  # the opening's Ace order, the seat's decision just before its turn
            t = Turn(t.seat, t.moves[1:], t.interactions - t.marks[0], marks=[m - t.marks[0] for m in t.marks[1:]])
        done = [k for k, m in enumerate(t.moves) if m == "done"]
        attack = [k for k, m in enumerate(t.moves) if m.startswith("attack")]
        if done and attack and attack[0] > done[0]:  # through a battle declared (its engage and
            # commits are the battle's own decisions, each a step as before)
            both.append((t.moves[:attack[0] + 1], t.interactions_until(attack[0] + 1)))
        elif len(done) == 2 and not attack:  # through the end of construction and the end of battles
            both.append((t.moves[:done[1] + 1], t.interactions_until(done[1] + 1)))
    assert len(both) >= 4, [t.moves for t in turns]
    assert max(n for _, n in both) <= 6, both
    assert any(len(moves) >= 6 for moves, _ in both)  # long ones among them, not just the short
    logged = [m[1] for m in (await bot.service.get(channel)).moves]
    assert [m for t in turns for m in t.moves] == logged[:sum(len(t.moves) for t in turns)]
    assert not [m for m in logged if ";" in m]  # every move of a press logged on its own
    chained = [t for t in turns if t.moves[-3:] == ["done", "done", "end"]]
    assert chained and all(t.marks[-1] == t.marks[-3] for t in chained)  # the passing steps in one press


async def test_every_picture_carries_a_description(standin, bot):
    g, users, channel, _, _ = await play_turns(standin, bot, "court_wars", 2, 4)
    status = await standin.slash(bot, "game status", user=users[0], guild=g)
    hand = await standin.slash(bot, "game hand", user=users[1], guild=g)
    assert status.ephemeral and hand.ephemeral
    seen = 0
    for m in standin.channel_messages(channel):
        for a in m.get("attachments") or []:
            if (a.get("filename") or "").endswith(".png"):
                seen += 1
                assert (a.get("description") or "").strip(), (a.get("filename"), m.get("content"))
    assert seen >= 2  # the table and its private copy (/game status); Court Wars draws no seat picture


def test_rules_text_is_reflowed_for_discord():
    from bot.ui.payloads import reflow

    text = ("A paragraph hard-wrapped\nat a hundred columns.\n\n- A bullet that\n  goes on.\n- Another.\n"
            "## Heading\n```\ncode\n  kept\n```\n| a | b |\n| 1 | 2 |")
    assert reflow(text) == ("A paragraph hard-wrapped at a hundred columns.\n\n- A bullet that goes on.\n- Another.\n"
                            "## Heading\n```\ncode\n  kept\n```\n| a | b |\n| 1 | 2 |")


async def test_status_is_private_and_ten_presses_move_the_table_down_once(standin, bot):
    import asyncio

    from bot.ui.placement import MOVE_DOWN_AFTER
    from tests.discord_helpers import click_seen, seen, table_messages

    g, users, channel, _ = await open_game(standin, bot, "court_wars", 2)
    onlookers = [standin.user(name=f"watcher{i}") for i in range(8)]
    for u in onlookers:
        g.add_member(u)
    table_id = int(latest_table(standin, channel)["id"])
    early = await standin.slash(bot, "game status", user=users[0], guild=g)
    assert early.ephemeral and "near the bottom" in early.text  # still in view: nothing to move
    assert "Move the table down" not in [label for _, label, _ in standin.buttons(early.message_id)]
    bot.get_cog("Tables").place.below[channel] = MOVE_DOWN_AFTER  # people talked below it (counted as in
    # test_discord_live_table, through the gateway)
    watcher = await standin.slash(bot, "game status", user=onlookers[1], guild=g)
    assert watcher.ephemeral and "Move the table down" not in [b for _, b, _ in standin.buttons(watcher.message_id)]
    shown = []
    for u in users:
        res = await standin.slash(bot, "game status", user=u, guild=g)
        assert res.ephemeral and "scrolled up" in res.text
        shown.append((res.message_id, u))
    public_before = len(standin.channel_messages(channel, include_ephemeral=False))
    press = [(seen(standin, mid), next(c for c, b, _ in standin.buttons(mid) if b == "Move the table down"), u)
             for mid, u in shown]
    results = await asyncio.gather(*(click_seen(standin, bot, m, c, u) for m, c, u in press * 5))  # ten at once
    assert all(r.ephemeral for r in results)
    tables = table_messages(standin, channel)
    assert len(tables) == 1 and int(tables[0]["id"]) != table_id  # moved once
    assert len(standin.channel_messages(channel, include_ephemeral=False)) == public_before + 1
    assert "moved down" in standin._message(table_id)["content"]
