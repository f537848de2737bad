"""Helpers for driving Deckhand's tables through the Discord stand-in."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import auto_player
from bot.tables import load_game


def table_messages(standin, channel_id: int) -> list[dict]:
    """Public messages carrying a table (an embed and Deckhand buttons), oldest first."""
    out = []
    for m in standin.channel_messages(channel_id, include_ephemeral=False):
        if m.get("embeds") and any((cid or "").startswith("dh:") for cid, _, _ in standin.buttons(int(m["id"]))):
            out.append(m)
    return out


def latest_table(standin, channel_id: int) -> dict:
    msgs = table_messages(standin, channel_id)
    assert msgs, "no table message in the channel"
    return msgs[-1]


async def press_move(standin, bot, channel_id: int, move: str, user: dict) -> Any:
    """Make ``move`` with buttons only: a whole-move button if the table has one, else the picker."""
    table = await bot.service.get(channel_id)
    rev = table.revision
    msg = latest_table(standin, channel_id)
    ids = {cid for cid, _, _ in standin.buttons(int(msg["id"]))}
    direct = f"dh:{rev}:mv:{move}"
    if direct in ids:
        return await standin.click(bot, int(msg["id"]), direct, user=user)
    if f"dh:{rev}:me:" in ids and f"dh:{rev}:pf:{move.split()[0]}" not in ids:
        # Secret or simultaneous moves: open the private panel first.
        res = await standin.click(bot, int(msg["id"]), f"dh:{rev}:me:", user=user)
        assert res.ephemeral
        panel_id = res.message_id
    else:
        panel_id = int(msg["id"])
    tokens = move.split()
    prefix: list[str] = []
    res = None
    for _ in range(len(tokens) + 2):
        ids = {cid for cid, _, _ in standin.buttons(panel_id)}
        whole = f"dh:{rev}:mv:{move}"
        if whole in ids:
            return await standin.click(bot, panel_id, whole, user=user)
        nxt = tokens[len(prefix)]
        step = f"dh:{rev}:pf:{' '.join([*prefix, nxt])}"
        if step in ids:
            res = await standin.click(bot, panel_id, step, user=user)
            assert res.ephemeral, "the picker is private"
            panel_id = res.message_id
            prefix.append(nxt)
            continue
        select = f"dh:{rev}:pk:{' '.join(prefix)}"
        msg_components = standin.select_options(panel_id, select)
        assert msg_components, f"no way to choose {move!r} after {prefix}: {ids}"
        res = await standin.select(bot, panel_id, select, [nxt], user=user)
        panel_id = res.message_id
        prefix.append(nxt)
    raise AssertionError(f"could not make {move!r} with buttons")


async def write_via_modal(standin, bot, channel_id: int, move: str, user: dict) -> Any:
    """A free-text move: press its ✍ button (on the table or the private panel), fill the modal."""
    table = await bot.service.get(channel_id)
    rev = table.revision
    verb, _, text = move.partition(" ")
    wanted = f"dh:{rev}:tx:{verb}"
    msg = latest_table(standin, channel_id)
    ids = {cid for cid, _, _ in standin.buttons(int(msg["id"]))}
    if wanted in ids:
        res = await standin.click(bot, int(msg["id"]), wanted, user=user)
    else:
        panel = await standin.click(bot, int(msg["id"]), f"dh:{rev}:me:", user=user)
        assert panel.ephemeral
        res = await standin.click(bot, panel.message_id, wanted, user=user)
    assert res.modal is not None, f"no modal for {move!r}: {res.text}"
    modal_id = res.modal["custom_id"]
    field = standin.modal_fields(modal_id)[0]
    field_id = field["custom_id"]
    return await standin.submit_modal(bot, modal_id, {field_id: text}, user=user)


async def make_move(standin, bot, channel_id: int, seat: int, move: str, users: list[dict]) -> Any:
    """Make a move as the seat's player the way a player would: text through a modal, else buttons."""
    table = await bot.service.get(channel_id)
    game = load_game(table)
    verb = move.split(" ", 1)[0]
    if any(p.verb == verb for p in game.prompts(seat)):
        return await write_via_modal(standin, bot, channel_id, move, users[seat])
    return await press_move(standin, bot, channel_id, move, users[seat])


async def auto_move_for(bot, channel_id: int, seed: int) -> tuple[int, str]:
    table = await bot.service.get(channel_id)
    game = load_game(table)
    seat = min(game.to_act())
    return seat, auto_player(table.game)(game, seat, random.Random(seed))


__all__ = ["auto_move_for", "latest_table", "make_move", "press_move", "table_messages", "write_via_modal"]
