"""Shard clusters: several ``python -m bot run`` processes on one PostgreSQL, each running some of
the shards, and ``run``'s start-up failures as one line.

The cluster test starts two real bot processes (``python -m bot run`` with DECKHAND_SHARD_COUNT=2
and DECKHAND_SHARD_IDS 0 and 1) against the Discord stand-in, which routes each guild's events to
the shard Discord would (DMs to shard 0), and a real PostgreSQL server started by the tests."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.config import ConfigError, Settings, parse_shards, shard_of
from bot.engine.registry import spec
from bot.store.postgres import PostgresStore
from bot.tables.games import load_game
from tests.playout import choose_random
from bot.standin import running_standin
from tests.store.conftest import backend, store  # noqa: F401 — fixtures: both back ends (PostgreSQL: tests/conftest.py)
from tests.store.helpers import playing

ROOT = Path(__file__).resolve().parent.parent


# ----- settings -----------------------------------------------------------------------------------
def test_shard_settings_from_the_environment():
    s = Settings.from_env({"DECKHAND_SHARD_COUNT": "4", "DECKHAND_SHARD_IDS": "3, 0-1"})
    assert (s.shard_count, s.shard_ids) == (4, (0, 1, 3))
    s = Settings.from_env({"DECKHAND_SHARD_COUNT": "2"})
    assert (s.shard_count, s.shard_ids) == (2, None)
    s = Settings.from_env({})
    assert (s.shard_count, s.shard_ids, s.identify_delay, s.sweep_seconds) == (None, None, 5.0, 5.0)
    assert Settings.from_env({"DECKHAND_SHARD_COUNT": "3", "DECKHAND_SHARD_IDS": "2"}).shard_ids == (2,)


@pytest.mark.parametrize("count, ids, says", [
    ("", "0", "needs DECKHAND_SHARD_COUNT"),
    ("0", "", "DECKHAND_SHARD_COUNT takes"),
    ("two", "", "DECKHAND_SHARD_COUNT takes"),
    ("2", "2", "run from 0 to 1"),
    ("2", "1-0", "run from 0 to 1"),
    ("2", "x", "like 0,1 or 0-3"),
    ("2", ",", "names no shard"),
])
def test_bad_shard_settings_are_named(count, ids, says):
    with pytest.raises(ConfigError, match=says):
        parse_shards(count, ids)


def test_a_guilds_shard_is_discords_rule():
    assert shard_of(None, 4) == 0
    assert shard_of(5 << 22, 4) == 1
    assert shard_of((7 << 22) | 0x3FFFFF, 4) == 3
    assert shard_of(123, 1) == 0


async def test_build_makes_one_process_of_a_cluster(tmp_path):
    from bot.app import DeckhandBot, ShardedDeckhandBot, build

    base = {"DECKHAND_DATABASE": str(tmp_path / "x.db"), "DECKHAND_IDENTIFY_DELAY": "0.2"}
    one = build(Settings.from_env(base))
    assert type(one) is DeckhandBot and one.sweep_shards is None
    bot = build(Settings.from_env({**base, "DECKHAND_SHARD_COUNT": "4", "DECKHAND_SHARD_IDS": "2-3"}))
    assert isinstance(bot, ShardedDeckhandBot)
    assert (bot.shard_count, bot.shard_ids, bot.sweep_shards) == (4, [2, 3], (4, (2, 3)))
    every = build(Settings.from_env({**base, "DECKHAND_SHARD_COUNT": "2"}))
    assert every.sweep_shards == (2, (0, 1))
    # Staggered IDENTIFY: the process's first IDENTIFY waits its first shard id x the delay.
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await bot.before_identify_hook(2, initial=True)
    assert 0.38 <= loop.time() - t0 < 2.0
    t0 = loop.time()
    await every.before_identify_hook(0, initial=True)
    assert loop.time() - t0 < 0.1, "shard 0 goes first"


# ----- the store: due() keeps a process's own shards ---------------------------------------------
async def test_due_keeps_the_tables_of_the_given_shards(store):  # noqa: F811 — both back ends
    guilds = {0: 8 << 22, 1: 9 << 22, 2: 10 << 22}  # shards 0, 1, 2 of 4
    rows = []
    for i, gid in enumerate(guilds.values()):
        rows.append(playing(10 + i, since=1000.0 + i, guild_id=gid))
    rows.append(playing(20, since=1005.0, guild_id=None))
    for t in rows:
        await store.save(t, None)
    now = 10_000_000.0
    every = [t.channel_id for t in await store.due(now)]
    assert sorted(every) == [10, 11, 12, 20]
    assert sorted(t.channel_id for t in await store.due(now, shards=(4, [0]))) == [10, 20], "DMs are shard 0's"
    assert sorted(t.channel_id for t in await store.due(now, shards=(4, (1, 2)))) == [11, 12]
    assert await store.due(now, shards=(4, [3])) == []
    assert sorted(t.channel_id for t in await store.due(now, shards=(1, [0]))) == [10, 11, 12, 20]
    # Pages of one shard: the (alarm, channel) key carries on past the other shards' rows.
    got, after = [], None
    while page := await store.due(now, limit=1, after=after, shards=(4, [0, 2])):
        got += [t.channel_id for t in page]
        after = (page[-1].alarm, page[-1].channel_id)
    assert sorted(got) == [10, 12, 20] and len(got) == len(set(got))
    with pytest.raises(ValueError):
        await store.due(now, shards=(2, [2]))


# ----- run: one line when Discord cannot be reached or refuses the token -------------------------
def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DECKHAND_", "DATABASE_URL"))}
    env.update(extra)
    return env


async def _run(env: dict[str, str], *args: str, timeout: float = 60) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", *args, cwd=ROOT, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    return proc.returncode, err.decode()


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


async def test_run_when_discord_cannot_be_reached_is_one_line(tmp_path):
    port = _closed_port()
    code, err = await _run(_env(DISCORD_TOKEN="some-token", DECKHAND_DATABASE=str(tmp_path / "x.db"),
                                DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
                                DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway"))
    assert code == 2, err
    assert "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()], err
    assert err.startswith("deckhand: Cannot reach Discord at http://127.0.0.1:") and str(port) in err


async def test_run_with_a_refused_token_is_one_line(tmp_path):
    async with running_standin() as standin:
        standin.refused_tokens.add("reset-token")
        code, err = await _run(_env(DISCORD_TOKEN="reset-token", DECKHAND_DATABASE=str(tmp_path / "x.db"),
                                    DISCORD_API_BASE=standin.base_url, DISCORD_GATEWAY_URL=standin.gateway_url))
        assert [r.status for r in standin.requests] == [401]  # the login asked once, and stopped there
    assert code == 2, err
    assert "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()], err
    assert "refused the token in DISCORD_TOKEN" in err


async def test_run_when_the_database_cannot_be_opened_is_one_line(tmp_path):
    async with running_standin() as standin:
        code, err = await _run(_env(DISCORD_TOKEN="t", DATABASE_URL=f"postgresql://postgres@/x?host={tmp_path}/none",
                                    DISCORD_API_BASE=standin.base_url, DISCORD_GATEWAY_URL=standin.gateway_url))
    assert code == 2, err
    assert "Traceback" not in err and err.strip().splitlines() == [err.strip()], err
    assert err.startswith("deckhand: Cannot connect to PostgreSQL")


async def test_run_refuses_a_shard_outside_the_count_in_one_line(tmp_path):
    code, err = await _run(_env(DISCORD_TOKEN="t", DECKHAND_DATABASE=str(tmp_path / "x.db")),
                           "--shard-count", "2", "--shards", "2")
    assert code == 2 and err.strip().splitlines() == [err.strip()] and "run from 0 to 1" in err


# ----- two bot processes on one PostgreSQL ----------------------------------------------------------
def _guild_on(standin, shard: int, count: int, name: str):
    while True:
        gid = standin.snowflake()
        if shard_of(gid, count) == shard:
            return standin.guild(id=gid, name=name)


class Cluster:
    """Two ``python -m bot run`` processes (shards 0 and 1 of 2), their logs, and a template bot
    in this process that only builds the slash-command payloads (it never connects)."""

    def __init__(self, standin, template, url: str, logs: Path):
        self.standin, self.template, self.url, self.logs = standin, template, url, logs
        self.procs: list[asyncio.subprocess.Process] = []

    def token(self, shard: int) -> str:
        return f"shard-{shard}-token"

    async def start(self) -> None:
        for shard in (0, 1):
            env = _env(DISCORD_TOKEN=self.token(shard), DATABASE_URL=self.url,
                       DISCORD_API_BASE=self.standin.base_url, DISCORD_GATEWAY_URL=self.standin.gateway_url,
                       DECKHAND_SHARD_COUNT="2", DECKHAND_SHARD_IDS=str(shard), DECKHAND_IDENTIFY_DELAY="0",
                       DECKHAND_SWEEP_SECONDS="0.3", DECKHAND_LOG_LEVEL="INFO")
            log = open(self.logs / f"shard{shard}.log", "wb")
            self.procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stdout=log, stderr=log))
            log.close()
        deadline = asyncio.get_running_loop().time() + 60
        while not all("ready: " in self.log(s) for s in (0, 1)):
            for s, p in enumerate(self.procs):
                if p.returncode is not None:
                    raise AssertionError(f"shard {s}'s process ended ({p.returncode}):\n{self.log(s)}")
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("the bot processes did not get ready:\n" + self.log(0) + self.log(1))
            await asyncio.sleep(0.1)

    def log(self, shard: int) -> str:
        return (self.logs / f"shard{shard}.log").read_text(errors="replace")

    async def stop(self) -> None:
        for p in self.procs:
            if p.returncode is None:
                p.send_signal(2)  # SIGINT: discord.py closes the bot
        for p in self.procs:
            try:
                await asyncio.wait_for(p.wait(), 20)
            except asyncio.TimeoutError:
                p.kill()
                await p.wait()

    async def quiet(self, seconds: float = 0.25) -> None:
        """Wait until the bots made no request for ``seconds`` (follow-ups and edits done),
        looking every 0.05 s."""
        loop = asyncio.get_running_loop()
        n, since = len(self.standin.requests), loop.time()
        while loop.time() - since < seconds:
            await asyncio.sleep(0.05)
            if len(self.standin.requests) != n:
                n, since = len(self.standin.requests), loop.time()

    async def slash(self, command: str, options: dict | None = None, **kw):
        res = await self.standin.slash(self.template, command, options, timeout=30, **kw)
        return res


@pytest.fixture
async def cluster(pg_server, tmp_path):  # noqa: F811
    from bot.app import DeckhandBot
    from bot.standin import logged_in

    url = await pg_server.create_database("shards_")
    async with running_standin() as standin:
        guilds = {0: _guild_on(standin, 0, 2, "Zero"), 1: _guild_on(standin, 1, 2, "One")}
        async with logged_in(DeckhandBot(tmp_path / "template.sqlite3", run_timeouts=False), connect=False) as template:
            c = Cluster(standin, template, url, tmp_path)
            c.guilds = guilds
            try:
                await c.start()
                c.db = await PostgresStore.open(url)
                try:
                    yield c
                finally:
                    await c.db.close()
            finally:
                await c.stop()
        for s in (0, 1):
            assert "Traceback" not in c.log(s), c.log(s)


async def _move(c: Cluster, channel: int, user: dict, guild, rng: random.Random, shard: int | None = None):
    before = await c.db.get(channel)
    game = load_game(before)
    move = choose_random(game, 0, rng)
    res = await c.slash("game move", {"move": move}, user=user, guild=guild,
                        channel=None if guild else c.standin.channels[channel], shard=shard)
    await c.quiet()
    after = await c.db.get(channel)
    return res, before, after, move


async def test_two_processes_share_one_database(cluster):
    c = cluster
    standin = c.standin
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    g0, g1 = c.guilds[0], c.guilds[1]
    for g in (g0, g1):
        g.add_member(ana)
        g.add_member(ben)
    assert sorted(standin.shards.values()) == [(0, 2), (1, 2)], "each process identified its own shard"
    ready = {tuple(m["d"]["shard"]) for m in standin.gateway_received if m.get("op") == 2}
    assert ready == {(0, 2), (1, 2)}

    # Moves on tables of both shards and in a DM (shard 0): each goes to the process of its shard only.
    # The three tables are played at the same time (each its own moves in turn, its own seed).
    async def play(i: int, g) -> int:
        rng = random.Random(11 + i)
        res = await c.slash("game new", {"game": "gridcannon"}, user=ana, guild=g)
        assert not res.ephemeral and "Gridcannon" in res.embed["title"], res.text
        await c.quiet()
        channel = int(g.channel["id"]) if g else int(standin.dm_channel(ana)["id"])
        for _ in range(3):
            res, before, after, move = await _move(c, channel, ana, g, rng)
            assert res.callbacks and "moved on" not in res.text and "Someone else" not in res.text, res.text
            assert after.revision == before.revision + 1 and len(after.moves) == len(before.moves) + 1, move
        return channel

    places = (g0, g1, None)
    tables = dict(zip(await asyncio.gather(*[play(i, g) for i, g in enumerate(places)]), places, strict=True))
    assert len(tables) == 3
    rows = {t.channel_id: t for t in await c.db.tables("playing")}
    assert set(rows) == set(tables) and all(len(rows[ch].moves) == 3 for ch in tables)

    # Concurrent writes to one table from both processes (the stand-in hands every other
    # interaction to the other shard's process): every write that was acknowledged is kept.
    lobby = g0.text_channel("lobby")
    channel = int(lobby["id"])
    host = standin.user(name="host")
    g0.add_member(host)
    res = await c.slash("game new", {"game": "maginot_line"}, user=host, guild=g0, channel=lobby)
    assert not res.ephemeral, res.text
    await c.quiet()
    players = [standin.user(name=f"p{i}") for i in range(spec("maginot_line").max_players - 1)]
    for p in players:
        g0.add_member(p)
    for verb in ("join", "leave", "join", "leave", "join"):
        start = await c.db.get(channel)
        before = {s.user_id for s in start.seats}
        actors = [p for p in players if (int(p["id"]) in before) == (verb == "leave")]
        results = await asyncio.gather(*[
            c.slash(f"game {verb}", user=p, guild=g0, channel=lobby, shard=i % 2) for i, p in enumerate(actors)])
        await c.quiet()
        table = await c.db.get(channel)
        # Each is answered privately: done (the table message shows it), or refused.
        done = {int(p["id"]) for p, r in zip(actors, results, strict=True) if "The table: https://" in r.text}
        refused = [r.text for r in results if "The table: https://" not in r.text]
        assert all(r.ephemeral for r in results)
        assert all("at the same moment" in text for text in refused), refused
        seated = {s.user_id for s in table.seats}
        assert seated == (before | done if verb == "join" else before - done), (verb, refused)
        assert table.revision == start.revision + len(done), "one revision per acknowledged write, no more"
        assert done, "at least one write of each burst went through"

    # The sweep fires once per due table: make every table's turn run out, then let both
    # processes sweep (every 0.3 s) until every table was told, and for 1.5 s (five sweeps of each)
    # more. Each table is told once, by the process of its shard.
    conn = await asyncpg.connect(c.url)
    try:
        await conn.execute("UPDATE tables SET turn_since = turn_since - 10 * 86400, deadline = deadline - 10 * 86400, "
                           "alarm = alarm - 10 * 86400 "
                           "WHERE status = 'playing'")
    finally:
        await conn.close()
    start = len(standin.requests)

    def told(channel: int) -> list:
        return [r for r in standin.requests[start:]
                if r.method == "POST" and r.path == f"/channels/{channel}/messages"
                and "time is up" in str(r.json).lower()]

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not all(told(channel) for channel in tables) and loop.time() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.5)
    await c.quiet()
    for channel, g in tables.items():
        told_here = told(channel)
        assert len(told_here) == 1, (channel, len(told_here))
        shard = shard_of(g.id if g else None, 2)
        assert told_here[0].auth == f"Bot {c.token(shard)}", "told by the process of the table's shard"
        assert (await c.db.get(channel)).timed_out
