"""The Discord play loop (issue 18), measured through the stand-in: a whole turn played from one
private panel (the same panel shows the seat's next step in place), pings only for a change of who
must act (never the player who just acted, never a bot, one per person), one public message per
move at most besides pings and the ending, and every attached picture described in words.

``play_turn`` plays one seat's whole turn the way a person would: a move button on the table
when the table offers the first step, else the seat's private panel (opened once, then carried
through the turn), text through its box. It counts interactions and panels posted."""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field

from bot.engine.registry import spec
from bot.tables.games import load_game
from tests.discord_helpers import guild_with, components, latest_table, parse_cid, step_tokens


@dataclass
class Turn:
    seat: int
    moves: list[str] = field(default_factory=list)
    interactions: int = 0
    panels: int = 0  # private panels posted (a panel edited in place is not a new one)
    public: int = 0  # public messages posted (pings and the ending included)
    pings: dict[int, int] = field(default_factory=dict)  # user -> pings in this turn change


def people(standin, n):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


async def open_game(standin, bot, game_id, n, variants=""):
    g, users = people(standin, n)
    options = {"game": game_id, **({"variants": variants} if variants else {})}
    res = await standin.slash(bot, "game new", options, user=users[0], guild=g)
    for u in users[1:]:
        await standin.click(bot, res.message_id, label="Join", user=u)
    start = await standin.click(bot, res.message_id, label="Start", user=users[0])
    return g, users, int(g.channel["id"]), start


def _ours(mid, standin):
    out: dict[str, list[tuple[dict, str]]] = {}
    for c in components(standin, mid):
        cid = c.get("custom_id") or ""
        if cid.startswith("dh2:"):
            _, _, kind, arg = parse_cid(cid)
            out.setdefault(kind, []).append((c, arg))
    return out


async def play_move(standin, bot, channel, tokens, text, user, turn: Turn, panel: int | None) -> int | None:
    """One move by buttons, selects and a text box; returns the panel to carry on with (or None)."""
    before = (await bot.service.get(channel)).revision
    where = panel if panel is not None and components(standin, panel) else int(latest_table(standin, channel)["id"])

    async def act(coro):
        nonlocal where
        res = await coro
        turn.interactions += 1
        if res.ephemeral and res.callback_type == 4 and res.components:
            turn.panels += 1
        if res.ephemeral and res.message_id and res.components:
            where = res.message_id
        return res

    for _ in range(40):
        if (await bot.service.get(channel)).revision > before:
            break
        kinds = _ours(where, standin)
        done = False
        for c, arg in kinds.get("ok", []) + kinds.get("ym", []):
            if step_tokens(bot, arg) == tokens:
                await act(standin.click(bot, where, c["custom_id"], user=user))
                done = True
                break
        if done:
            continue
        text_btn = [c for c, arg in kinds.get("t", []) if step_tokens(bot, arg) == tokens]
        if text is not None and text_btn:
            res = await act(standin.click(bot, where, text_btn[0]["custom_id"], user=user))
            assert res.modal is not None, res.text
            field_id = standin.modal_fields(res.modal["custom_id"])[0]["custom_id"]
            await act(standin.submit_modal(bot, res.modal["custom_id"], {field_id: text}, user=user))
            continue
        best = None
        for c, arg in kinds.get("s", []):
            got = step_tokens(bot, arg)
            if (c.get("label") or "").startswith("↩") or not got or got != tokens[:len(got)]:
                continue
            if best is None or len(got) > len(best[1]):
                best = (c, got)
        if best is not None:
            await act(standin.click(bot, where, best[0]["custom_id"], user=user))
            continue
        chosen = False
        for c, arg in kinds.get("k", []):
            so_far = step_tokens(bot, arg)
            if so_far != tokens[:len(so_far)] or len(so_far) >= len(tokens):
                continue
            if tokens[len(so_far)] in [o["value"] for o in c.get("options", [])]:
                await act(standin.select(bot, where, c["custom_id"], [tokens[len(so_far)]], user=user))
                chosen = True
                break
        if chosen:
            continue
        nxt = [c for c, _ in kinds.get("p", []) if c["label"].startswith("Next") and not c.get("disabled")]
        if nxt:
            await act(standin.click(bot, where, nxt[0]["custom_id"], user=user))
            continue
        me = [c for c, _ in kinds.get("me", [])]
        assert me, f"no way to make {tokens} from {where}: {list(kinds)}"
        await act(standin.click(bot, where, me[0]["custom_id"], user=user))
    else:
        raise AssertionError(f"could not make {tokens}")
    return where if standin._message(where)["flags"] & 64 else panel


async def play_turn(standin, bot, channel, users, i) -> Turn:
    table = await bot.service.get(channel)
    game = load_game(table)
    seat = min(game.to_act())
    turn = Turn(seat)
    n = len(standin.channel_messages(channel, include_ephemeral=False))
    panel = None
    while True:
        table = await bot.service.get(channel)
        game = load_game(table)
        if table.status != "playing" or seat not in game.to_act():
            break
        move = str(spec(table.game).player(game, seat, random.Random(f"{i}:{len(turn.moves)}")))
        tokens, text = tuple(move.split()), None
        if game.choices(seat, tokens[:1]).kind == "text":
            tokens, text = tokens[:1], f"A line {i}."
        panel = await play_move(standin, bot, channel, tokens, text, users[seat], turn, panel)
        turn.moves.append(move)
        assert len(turn.moves) < 40
    new = standin.channel_messages(channel, include_ephemeral=False)[n:]
    turn.public = len(new)
    for m in new:
        for u in standin.pinged_user_ids(m):
            turn.pings[u] = turn.pings.get(u, 0) + 1
    return turn


async def play_turns(standin, bot, game_id, n, turns, variants=""):
    g, users, channel, start = await open_game(standin, bot, game_id, n, variants)
    uid = [int(u["id"]) for u in users]
    out = []
    for i in range(turns):
        if (await bot.service.get(channel)).status != "playing":
            break
        turn = await play_turn(standin, bot, channel, users, i)
        assert uid[turn.seat] not in turn.pings, f"the player who just acted was pinged: {turn}"
        assert all(k == 1 for k in turn.pings.values()), turn.pings  # at most one per person a turn change
        assert turn.panels <= 1, turn  # one private panel a turn at most, carried through it
        assert turn.public <= len(turn.moves) + 2, turn  # a ping and (at the end) the ending, no more
        out.append(turn)
    return g, users, channel, start, out


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
    assert max(t.interactions for t in tp) <= 3  # ✍ (1), the box (2), pass on the table (3)
    assert all(t.panels <= 1 for t in tp)


async def test_maginot_construction_and_battle_turn_on_one_panel(standin, bot):
    _, _, _, _, turns = await play_turns(standin, bot, "maginot_line", 2, 6, "rounds=3")
    long = [t for t in turns if len(t.moves) > 1]
    assert long and all(t.panels == 1 for t in long), [(t.moves, t.panels) for t in long]
    print("maginot", summary(turns), [(len(t.moves), t.interactions) for t in turns])


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
