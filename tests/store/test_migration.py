"""Migrating today's database (schema 1, made with the store of commit 91d7c08 by
``fixtures/make_schema1.py``): every table loads, byte for byte, and stays playable; two
processes opening a database at once migrate it once."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

from bot.engine.registry import spec
from bot.store import SQLiteStore
from bot.store.base import SNAPSHOT_EVERY
from bot.store.sqlite import SCHEMA_VERSION
from bot.tables.games import load_game
from tests.store.helpers import playing, schema1_database



def old_rows(path: Path) -> dict[int, dict]:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    rows = {r["channel_id"]: dict(r) for r in db.execute("SELECT * FROM tables")}
    db.close()
    return rows


async def test_schema_1_database_migrates_with_every_table_intact(tmp_path):
    path = schema1_database(tmp_path / "old.sqlite3")
    before = old_rows(path)
    assert sorted((r["game"], r["status"]) for r in before.values()) == sorted([
        ("court_wars", "lobby"), ("gridcannon", "playing"), ("court_wars", "playing"),
        ("celestial_emperor", "playing"), ("knight_rogue_princess_dragon", "playing"), ("court_wars", "finished")])
    store = await SQLiteStore.open(path)
    assert await store.execute("PRAGMA user_version") == [(SCHEMA_VERSION,)]
    raw_states = dict(await store.execute("SELECT channel_id, state FROM tables"))
    ids = set()
    for channel, old in before.items():
        t = await store.get(channel)
        assert raw_states[channel] == old["state"]  # the stored state, byte for byte
        assert t.state == (None if old["state"] is None else json.loads(old["state"]))
        assert t.moves == json.loads(old["moves"])
        assert [[x.user_id, x.name] for x in t.seats] == json.loads(old["seats"])
        assert t.options == json.loads(old["options"])
        assert (t.revision, t.events, t.series, t.turn_since) == (
            old["revision"], json.loads(old["events"]), json.loads(old["series"]), old["turn_since"])
        assert t.deadline == (old["turn_since"] + old["turn_limit"] if old["status"] == "playing" else None)
        ids.add(t.table_id)
    assert len(ids) == len(before)  # a table id each
    assert (await store.last_record(6))["status"] == "finished"
    assert [(r["user_id"], r["won"], r["lost"]) for r in await store.stats(555, "court_wars", None)] == [
        (100, 1, 0), (101, 0, 1)]
    due = await store.due(2e9, limit=10)
    assert sorted(t.channel_id for t in due) == [2, 3, 4, 5]
    # Every game in play takes its next moves (more than a snapshot's worth) and saves each; a
    # fresh load (snapshot + replay) is the game that was saved.
    rng = random.Random(1)
    for t in await store.tables("playing"):
        assert t.state_ply == len(t.moves)  # an old row's state holds every move
        for _ in range(SNAPSHOT_EVERY + 3):
            game = load_game(t)
            if game.is_over():
                break
            seat = min(game.to_act())
            move = str(spec(t.game).player(game, seat, rng))
            new, _events = game.apply(seat, move)
            t.moves.append([seat, move, 1.0])
            t.live = new
            t.revision += 1
            await store.save(t, t.revision - 1)
            again = await store.get(t.channel_id)
            assert len(again.moves) == len(t.moves)
            assert load_game(again).to_json() == new.to_json()
        assert len(t.moves) > len(json.loads(before[t.channel_id]["moves"]))
    await store.close()


async def test_two_openers_at_once_migrate_once(backend):
    stores = await asyncio.gather(*(backend.open() for _ in range(4)))  # each migrates as it opens
    versions = {await s.migrate() for s in stores}
    await stores[0].save(playing(1), None)
    seen = [(await s.get(1)).table_id for s in stores]
    for s in stores:
        await s.close()
    assert len(versions) == 1 and len(set(seen)) == 1
