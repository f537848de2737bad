"""The play-loop driver: whole games through the Discord stand-in, each seat's turn played the
way a person would with the built-in player's moves — a move button on the table when the table
offers the first step, else the seat's private panel (opened once, then carried through the
turn), text through its box, and a press that makes several of the planned moves at once
(a select of whole moves, a passing chain, the pass chosen in a story line's box) where the
panel offers one. It counts interactions, panels posted, public messages and pings a turn.

The moves are the built-in player's: before each press the rest of the seat's turn is planned
on a copy of the game (seeded by turn and move number), and a press may make the first few of
them — in another order only within the press (taps, say), never another move."""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from unittest import mock

from bot.engine.registry import spec
from bot.tables.games import load_game
from tests.discord_helpers import components, guild_with, latest_table, parse_cid, step_tokens

THEN = ";"


@dataclass
class Turn:
    seat: int
    moves: list[str] = field(default_factory=list)
    interactions: int = 0
    panels: int = 0  # private panels posted (a panel edited in place is not a new one)
    public: int = 0  # public messages posted (pings and the ending included)
    pings: dict[int, int] = field(default_factory=dict)  # user -> pings in this turn change
    marks: list[int] = field(default_factory=list)  # interactions so far after each move made

    def interactions_until(self, n: int) -> int:
        """The interactions it took to make the turn's first ``n`` moves."""
        return self.marks[n - 1] if 0 < n <= len(self.marks) else self.interactions


def people(standin, n):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


@contextmanager
def seeded(seed: int):
    """Tables dealt from ``seed`` (the lobby draws a table's seed from ``secrets``)."""
    rng = random.Random(seed)
    with mock.patch("bot.tables.lobby.secrets.randbits", side_effect=lambda k: rng.getrandbits(k)):
        yield


async def open_game(standin, bot, game_id, n, variants=""):
    g, users = people(standin, n)
    options = {"game": game_id, **({"variants": variants} if variants else {})}
    res = await standin.slash(bot, "game new", options, user=users[0], guild=g)
    for u in users[1:]:
        await standin.click(bot, res.message_id, label="Join", user=u)
    if (await bot.service.get(int(g.channel["id"]))).status == "playing":  # a solo game starts at once
        return g, users, int(g.channel["id"]), res
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


def plan(game, seat: int, i: int, done: int, line: str, limit: int = 40) -> list[str]:
    """The rest of ``seat``'s turn as the built-in player would play it, from ``game`` (a copy)."""
    out: list[str] = []
    while seat in game.to_act() and not game.is_over() and len(out) < limit:
        move = str(spec(game.game_id).player(game, seat, random.Random(f"{i}:{done + len(out)}")))
        tokens = move.split()
        if game.choices(seat, tokens[:1]).kind == "text":
            move = f"{tokens[0]} {line}"
        out.append(move)
        game, _ = game.apply(seat, move)
    return out


def _covers(moves: list[str], planned: list[str]) -> bool:
    """``moves`` are the first len(moves) planned moves, in any order."""
    return bool(moves) and Counter(moves) == Counter(planned[:len(moves)])


def _seq(tokens: tuple[str, ...]) -> list[str]:
    return [m.strip() for m in " ".join(tokens).split(THEN) if m.strip()]


def _batch_pick(c: dict, planned: list[str]) -> list[str] | None:
    """The values of a select of whole moves that make the longest run of planned moves."""
    by_move = {o["value"].partition(" ")[2]: o["value"] for o in c.get("options", [])}
    k = 0
    while k < len(planned) and k < c.get("max_values", 1) and planned[k] in by_move \
            and planned[k] not in planned[:k]:
        k += 1
    return [by_move[m] for m in planned[:k]] or None


async def play_move(standin, bot, channel, planned: list[str], user, turn: Turn, panel: int | None) -> int | None:
    """Make the first planned move — or the first few, where one press makes them — with buttons,
    selects and a text box; returns the panel to carry on with (or None)."""
    before = (await bot.service.get(channel)).revision
    where = panel if panel is not None and components(standin, panel) else int(latest_table(standin, channel)["id"])
    tokens = tuple(planned[0].split())
    text = None
    table = await bot.service.get(channel)
    game = load_game(table)
    seat = table.seat_of(int(user["id"]))
    if game.choices(seat, tokens[:1]).kind == "text":
        tokens, text = tokens[:1], planned[0].partition(" ")[2]

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
        # A press that makes several planned moves (or a whole one): the longest such.
        best: tuple[int, Any] | None = None
        for c, arg in kinds.get("ok", []):
            moves = _seq(step_tokens(bot, arg))
            if len(moves) > 1 and _covers(moves, planned) and (best is None or len(moves) > best[0]):
                best = (len(moves), partial(standin.click, bot, where, c["custom_id"], user=user))
        for c, _ in kinds.get("b", []):
            values = _batch_pick(c, planned)
            if values and (best is None or len(values) > best[0]):
                best = (len(values), partial(standin.select, bot, where, c["custom_id"], values, user=user))
        if best is not None:
            await act(best[1]())
            continue
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
            fields = standin.modal_fields(res.modal["custom_id"])
            answer = {fields[0]["custom_id"]: text}
            k = 1
            for f in fields[1:]:  # the next lines, and the move that follows them, in the same box
                if f["type"] == 4:  # the next line (of the step its custom_id names), when planned
                    verb = f["custom_id"].removeprefix("line:")
                    if k < len(planned) and planned[k].split()[0] == verb and k == len(answer):
                        answer[f["custom_id"]] = planned[k].partition(" ")[2]
                        k += 1
                elif k == len(answer) and k < len(planned):
                    values = [o["value"] for o in f.get("options", [])]
                    assert planned[k] in values, (planned, values)
                    answer[f["custom_id"]] = [planned[k]]
            await act(standin.submit_modal(bot, res.modal["custom_id"], answer, user=user))
            continue
        step = None
        for c, arg in kinds.get("s", []):
            got = step_tokens(bot, arg)
            if (c.get("label") or "").startswith("↩") or not got or got != tokens[:len(got)]:
                continue
            if step is None or len(got) > len(step[1]):
                step = (c, got)
        if step is not None:
            await act(standin.click(bot, where, step[0]["custom_id"], user=user))
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
        assert me, f"no way to make {planned[0]} from {where}: {list(kinds)}"
        await act(standin.click(bot, where, me[0]["custom_id"], user=user))
    else:
        raise AssertionError(f"could not make {planned[0]}")
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
        solo = len(table.seats) == 1  # a solo game is one long turn: a move is measured as one
        if solo and turn.moves:
            break
        planned = plan(game, seat, i, len(turn.moves), f"A line {i}.", 1 if solo else 40)
        logged = len(table.moves)
        panel = await play_move(standin, bot, channel, planned, users[seat], turn, panel)
        made = [m[1] for m in (await bot.service.get(channel)).moves[logged:] if m[0] == seat]
        assert made and _covers(made[:len(planned)], planned), (made, planned)
        turn.moves += made
        turn.marks += [turn.interactions] * len(made)
        assert len(turn.moves) < 60
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
