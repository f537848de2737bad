"""``python -m bot migrate-store``: a whole store copied SQLite → PostgreSQL and back, checked,
resumed after kill -9 with nothing doubled, and refused where it must be.

The databases are made with today's code: a few tables played through the table service (an
ongoing game past a snapshot, a finished game with its record and results, a lobby), then cloned
in SQL to DECKHAND_MIGRATE_TABLES tables (default 800: more than one 500-row batch of every kind,
and a kill -9 in the first tenth of the tables; 20,000 on request), with daily entries, drafts,
remembered interactions and set-aside rows beside them."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.engine.registry import spec
from bot.store import SQLiteStore
from bot.store.migrate import MigrateError, check, copy_store
from bot.store.postgres import PostgresStore
from bot.tables import Actor
from bot.tables.games import GAMES, load_game
from bot.tables.service import TableService

ROOT = Path(__file__).resolve().parents[2]
TABLES = int(os.environ.get("DECKHAND_MIGRATE_TABLES", "800"))
COPIED = ("tables", "moves", "records", "results", "daily", "drafts", "interactions", "set_aside")


# ----- databases ------------------------------------------------------------------------------------
@pytest.fixture
def pg_database(pg_server):
    """Makes a fresh, empty PostgreSQL database on the test server: its URL."""
    return functools.partial(pg_server.create_database, "m_")


async def open_any(target: str):
    if target.startswith("postgresql://"):
        return await PostgresStore.open(target)
    return await SQLiteStore.open(target)


async def play(service: TableService, channel: int, game: str, players: int, seed: int, moves: int | None) -> None:
    """A table through the service: dealt, joined, started and ``moves`` moves played (None: to the end)."""
    actors = [Actor(1000 + i, f"Player {i + 1}") for i in range(players)]
    await service.new_table(channel, 5 << 22, actors[0], game, seed=seed)
    if moves == -1:  # a lobby
        return
    for a in actors[1:]:
        await service.join(channel, a)
    if players > 1:
        await service.start(channel, actors[0])
    await play_on(service, channel, seed, moves)


async def play_on(service: TableService, channel: int, seed: int, moves: int | None) -> None:
    rng = random.Random(seed)
    played = 0
    while moves is None or played < moves:
        table = await service.require(channel)
        if table.status != "playing":
            break
        g = load_game(table)
        seat = min(g.to_act())
        await service.move(channel, Actor(table.seats[seat].user_id, table.seats[seat].name),
                           str(spec(table.game).player(g, seat, rng)))
        played += 1


def seq(n: int) -> str:
    return f"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) "


async def fill(store, n: int) -> dict[str, int]:
    """``n`` tables made with today's code (three played, the rest cloned in SQL) and the rest
    of the store's tables beside them; returns the row counts."""
    service = TableService(store)
    await play(service, 1, "court_wars", 2, 11, 40)  # ongoing, past a snapshot (32 moves)
    await play(service, 2, "knight_rogue_princess_dragon", 4, 2, None)  # finished: a record and results
    await play(service, 3, "gridcannon", 1, 3, -1)  # a lobby
    assert (await store.get(1)).state_ply == 32 and (await store.get(2)).status == "finished"
    (record_id,) = (await store.execute("SELECT record_id FROM tables WHERE channel_id = 2"))[0]
    cols = [c for c in await columns(store, "tables")]
    k = n - 3
    exprs = {c: f"t.{c}" for c in cols}
    exprs.update(channel_id="1000000 + x", table_id="t.table_id || '-' || x",
                 guild_id="(x % 7) * 4194304 + 99", message_id="NULL", message_table="NULL",
                 record_id="CASE WHEN x % 3 = 1 THEN 100000 + x ELSE t.record_id END")
    template = "CASE x % 3 WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 3 END"
    await store.execute(f"{seq(k)}INSERT INTO tables ({', '.join(cols)}) SELECT {', '.join(exprs[c] for c in cols)} "
                        f"FROM c JOIN tables t ON t.channel_id = {template}")
    await store.execute(f"{seq(k)}INSERT INTO moves (table_id, ply, entry) SELECT m.table_id || '-' || x, m.ply, m.entry "
                        "FROM c JOIN tables t ON t.channel_id = 1 JOIN moves m ON m.table_id = t.table_id "
                        "WHERE x % 3 = 0")
    await store.execute(f"{seq(k)}INSERT INTO records (id, channel_id, table_id, guild_id, game, result, record, "
                        "finished_at) SELECT 100000 + x, 1000000 + x, r.table_id || '-' || x, r.guild_id, r.game, "
                        f"r.result, r.record, r.finished_at + x FROM c JOIN records r ON r.id = {record_id} "
                        "WHERE x % 3 = 1")
    await store.execute(f"{seq(k)}INSERT INTO results (record_id, guild_id, game, user_id, name, outcome) "
                        "SELECT 100000 + x, s.guild_id, s.game, s.user_id + x, s.name, s.outcome "
                        f"FROM c JOIN results s ON s.record_id = {record_id} WHERE x % 3 = 1")
    await store.execute(f"{seq(n // 10)}INSERT INTO daily (day, user_id, name, table_id, started_at, finished_at, won, "
                        "score, kills) SELECT '2026-11-' || (10 + x % 20), x, 'Player ' || x, 'd' || x, 1000.5 + x, "
                        "CASE WHEN x % 2 = 0 THEN 2000.25 + x END, CASE WHEN x % 2 = 0 THEN x % 4 / 2 END, "
                        "CASE WHEN x % 2 = 0 THEN x % 17 END, NULL FROM c")
    await store.execute(f"{seq(n // 10)}INSERT INTO drafts (id, table_id, seat, decision_rev, tokens, created_at) "
                        "SELECT 'dr' || x, 't' || x, x % 4, x, '[\"attack\",\"' || x || '\"]', 1.5 * x FROM c")
    await store.execute(f"{seq(n)}INSERT INTO interactions (id, seen_at) SELECT '' || (900000000000 + x), 3.25 * x FROM c")
    for channel in (1000000 + 3, 1000000 + 6):  # set aside (by hand): the raw row kept, an empty table left
        assert await store.set_aside(channel, "kept for the test")
    return await counts(store)


async def columns(store, table: str) -> list[str]:
    if store.backend == "sqlite":
        return [r[1] for r in await store.execute(f"PRAGMA table_info({table})")]
    return [r[0] for r in await store.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = $1 ORDER BY ordinal_position", (table,))]


async def counts(store) -> dict[str, int]:
    return {t: (await store.execute(f"SELECT COUNT(*) FROM {t}"))[0][0] for t in COPIED}


async def make_source(kind: str, pg_database, tmp_path: Path) -> tuple[str, dict[str, int]]:
    name = await pg_database() if kind == "postgres" else str(tmp_path / "source.sqlite3")
    store = await open_any(name)
    try:
        started = time.perf_counter()
        made = await fill(store, TABLES)
        print(f"\n[{kind}] {TABLES:,} tables made in {time.perf_counter() - started:.1f} s: {made}")
    finally:
        await store.close()
    return name, made


def migrate(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DECKHAND_", "DATABASE_URL"))}
    return subprocess.run([sys.executable, "-m", "bot", "migrate-store", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=600)


# ----- the copy ---------------------------------------------------------------------------------
async def test_sqlite_to_postgres_and_back(pg_database, tmp_path):
    """Every row of every table crosses both ways; the check finds nothing; a copied table plays
    on, and a new record on PostgreSQL gets a new id (the id sequence moved past the copied ones)."""
    source_name, made = await make_source("sqlite", pg_database, tmp_path)
    assert made["tables"] == TABLES and made["moves"] > TABLES and made["results"] > made["records"] > TABLES // 4
    pg = await pg_database()
    back = str(tmp_path / "back.sqlite3")
    lines: list[str] = []
    source, target = await SQLiteStore.open(source_name), await PostgresStore.open(pg)
    try:
        started = time.perf_counter()
        report = await copy_store(source, target, say=lines.append)
        there = time.perf_counter() - started
        assert report.mismatches == [] and report.games_checked == TABLES
        assert await counts(target) == made
    finally:
        await source.close()
        await target.close()
    source, target = await PostgresStore.open(pg), await SQLiteStore.open(back)
    try:
        started = time.perf_counter()
        report = await copy_store(source, target, say=lines.append)
        back_again = time.perf_counter() - started
        assert report.mismatches == [] and await counts(target) == made
    finally:
        await source.close()
        await target.close()
    print(f"\nmigrate-store, {TABLES:,} tables: SQLite → PostgreSQL {there:.1f} s, PostgreSQL → SQLite {back_again:.1f} s")
    assert any(line.startswith("tables: 500 of ") for line in lines)  # a line a batch
    assert len([line for line in lines if line.startswith(f"Copied {TABLES:,} tables, {made['moves']:,} moves, ")]) == 2
    print("\n".join(line for line in lines if not line.startswith(tuple(f"{t}: " for t in COPIED))))
    first, last = await SQLiteStore.open(source_name), await SQLiteStore.open(back)
    try:
        assert (await check(first, last))[0] == []  # the round trip is the original, row for row
    finally:
        await first.close()
        await last.close()
    GAMES.clear()
    store = await PostgresStore.open(pg)
    try:
        service = TableService(store)
        (copied,) = (await store.execute("SELECT MAX(id) FROM records"))[0]
        await play_on(service, 1000000 + 3 * 7, 11, None)  # a clone of the ongoing game, played on to its end
        assert (await store.get(1000000 + 3 * 7)).status == "finished"
        (newest,) = (await store.execute("SELECT record_id FROM tables WHERE channel_id = $1", (1000000 + 3 * 7,)))[0]
        assert newest == copied + 1  # a new id, after the copied ones
    finally:
        await store.close()


@pytest.mark.parametrize("direction", ["sqlite-postgres", "postgres-sqlite"])
async def test_kill_9_mid_copy_then_run_again_finishes_with_nothing_doubled(direction, pg_database, tmp_path):
    source_kind, target_kind = direction.split("-")
    source_name, made = await make_source(source_kind, pg_database, tmp_path)
    target_name = await pg_database() if target_kind == "postgres" else str(tmp_path / "target.sqlite3")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DECKHAND_", "DATABASE_URL"))}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "migrate-store", "--from", source_name, "--to", target_name,
                             "--batch", "20"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    seen: list[str] = []
    try:
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("tables: ") and len(seen) >= 6:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert len(seen) >= 6, proc.stderr.read()
    target = await open_any(target_name)
    try:
        halfway = await counts(target)
        assert 0 < halfway["tables"] < made["tables"]  # killed mid-copy
    finally:
        await target.close()
    again = migrate("--from", source_name, "--to", target_name, "--batch", "20")
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr
    assert again.stdout.startswith("Resuming the unfinished copy")
    first_line = next(line for line in again.stdout.splitlines() if line.startswith("tables: "))
    assert int(first_line.split()[1].replace(",", "")) > 20  # resumed, not started over
    assert "Checked: every row is the same on both sides" in again.stdout
    source, target = await open_any(source_name), await open_any(target_name)
    try:
        assert await counts(target) == made  # nothing doubled, nothing missing
        assert (await check(source, target))[0] == []
    finally:
        await source.close()
        await target.close()
    done = migrate("--from", source_name, "--to", target_name)  # finished: the target is no longer empty
    assert done.returncode == 2 and "already holds data" in done.stderr


# ----- refusals ---------------------------------------------------------------------------------------
async def test_a_target_that_holds_tables_is_refused_unless_forced(tmp_path):
    source_name, target_name = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    for name, channel in ((source_name, 1), (target_name, 2)):
        store = await SQLiteStore.open(name)
        await play(TableService(store), channel, "court_wars", 2, channel, 3)
        await store.close()
    out = migrate("--from", source_name, "--to", target_name)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "already holds data (1 tables, 3 moves" in out.stderr
    store = await SQLiteStore.open(target_name)
    assert [t.channel_id for t in await store.tables()] == [2]  # untouched
    await store.close()
    out = migrate("--from", source_name, "--to", target_name, "--force")
    assert out.returncode == 0, out.stderr
    store = await SQLiteStore.open(target_name)
    assert [t.channel_id for t in await store.tables()] == [1, 2]  # the source's added, the target's kept
    await store.close()


async def test_a_table_without_a_primary_key_stops_the_copy_before_anything_is_written(tmp_path):
    source, target = await SQLiteStore.open(tmp_path / "a.sqlite3"), await SQLiteStore.open(tmp_path / "b.sqlite3")
    try:
        await play(TableService(source), 1, "court_wars", 2, 1, 2)
        for store in (source, target):
            await store.execute("CREATE TABLE notes (channel_id INTEGER, text TEXT)")
        with pytest.raises(MigrateError, match="notes has no primary key"):
            await copy_store(source, target, say=lambda line: None)
        assert await counts(target) == dict.fromkeys(COPIED, 0)
        for store in (source, target):  # a new table with a key (a future schema's) is copied like the rest
            await store.execute("DROP TABLE notes")
            await store.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT)")
        await source.execute("INSERT INTO notes VALUES ('a', 'x'), ('b', NULL)")
        report = await copy_store(source, target, say=lambda line: None)
        assert report.mismatches == [] and report.totals["notes"] == 2
        assert await target.execute("SELECT * FROM notes ORDER BY id") == [("a", "x"), ("b", None)]
    finally:
        await source.close()
        await target.close()


@pytest.mark.parametrize("args, says", [
    (["--to", "mysql://db/deckhand"], "--to takes a postgresql:// URL or a SQLite file path"),
    (["--to", "x.sqlite3", "--from", "no/such/file.sqlite3"], "there is no database file"),
    (["--to", "x.sqlite3", "--batch", "0"], "--batch takes a number of rows, 1 or more"),
    (["--to", "."], "is a folder"),
])
def test_bad_arguments_are_one_clear_line(args, says, tmp_path):
    out = migrate(*args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and says in out.stderr, out.stderr
    assert not (ROOT / "x.sqlite3").exists()


async def test_the_same_database_is_refused(tmp_path):
    name = str(tmp_path / "a.sqlite3")
    store = await SQLiteStore.open(name)
    await play(TableService(store), 1, "court_wars", 2, 1, 2)
    await store.close()
    out = migrate("--from", name, "--to", str(tmp_path / "." / "a.sqlite3"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == "deckhand: The source and the target are the same database."


async def test_the_check_finds_what_differs(tmp_path):
    """A move changed, a row missing, an extra row, a game that no longer rebuilds: each is a
    mismatch the check names (and the copy keeps its marker, so it is not taken as finished)."""
    source, target = await SQLiteStore.open(tmp_path / "a.sqlite3"), await SQLiteStore.open(tmp_path / "b.sqlite3")
    try:
        await fill(source, 40)
        report = await copy_store(source, target, say=lambda line: None)
        assert report.mismatches == []
        assert (await check(source, target))[0] == []
        playing = (await target.execute("SELECT table_id FROM tables WHERE channel_id = 1"))[0][0]
        tampers = [
            ("UPDATE moves SET entry = '[0,\"draw\",1.0]' WHERE table_id = ? AND ply = 35", (playing,),
             "moves: rows differ on the target"),
            ("DELETE FROM daily WHERE user_id = 1", (), "daily: rows missing on the target"),
            ("INSERT INTO interactions (id, seen_at) VALUES ('extra', 1.0)", (), "interactions: the target holds"),
            ("DELETE FROM results WHERE rowid = (SELECT MIN(rowid) FROM results)", (), "results: "),
        ]
        for sql, args, says in tampers:  # each on top of the last: each still found
            await target.execute(sql, args)
            found, _ = await check(source, target)
            assert any(says in m for m in found), (says, found)
        mended = await copy_store(source, target, say=lambda line: None, force=True)  # the extra row may stay
        assert mended.mismatches == [] and await counts(target) == {**await counts(source), "interactions": 41}
        await target.execute("UPDATE moves SET entry = '[0,\"fly away\",1.0]' WHERE table_id = ? AND ply = 35",
                             (playing,))
        await source.execute("UPDATE moves SET entry = '[0,\"fly away\",1.0]' WHERE table_id = ? AND ply = 35",
                             (playing,))
        found, _ = await check(source, target)  # the same on both sides, but the game cannot be rebuilt
        assert any(m.startswith("table 1: its game cannot be rebuilt on the target") for m in found), found
    finally:
        await source.close()
        await target.close()
