"""The slash-command schema that `tree.sync()` PUTs, snapshotted: review every change to it.

Update after a deliberate change with: DECKHAND_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_discord_schema.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bot.app import sync_commands

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"


def normalise(commands: list[dict]) -> list[dict]:
    return json.loads(json.dumps(sorted(commands, key=lambda c: c["name"]), sort_keys=True))


async def test_global_sync_matches_snapshot(standin, bot):
    count = await sync_commands(bot, None)
    guild_id, body = standin.command_puts[-1]
    assert guild_id is None
    put = normalise(body)
    assert count == len(put)
    game = next(c for c in put if c["name"] == "game")
    # Installable to guilds and users; usable in guilds, DMs and private channels.
    assert sorted(game["integration_types"]) == [0, 1]
    assert sorted(game["contexts"]) == [0, 1, 2]
    if os.environ.get("DECKHAND_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(json.dumps(put, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    assert SNAPSHOT.exists(), "no snapshot yet: run with DECKHAND_UPDATE_SNAPSHOTS=1 and review it"
    expected = json.loads(SNAPSHOT.read_text())
    assert put == expected, ("the slash-command schema changed; review it and update the snapshot with "
                             "DECKHAND_UPDATE_SNAPSHOTS=1")


async def test_guild_sync_for_development(standin, bot):
    g = standin.guild()
    count = await sync_commands(bot, g.id)
    assert count >= 1
    assert standin.commands[g.id], "guild commands stored"
