"""Helpers for driving Deckhand's tables through the Discord stand-in."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import auto_player
from bot.tables import load_game
from bot.ui import END


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


async def auto_move_for(bot, channel_id: int, seed: int) -> tuple[int, str]:
    table = await bot.service.get(channel_id)
    game = load_game(table)
    seat = min(game.to_act())
    return seat, auto_player(table.game)(game, seat, random.Random(seed))


__all__ = ["END", "auto_move_for", "latest_table", "press_move", "table_messages"]
