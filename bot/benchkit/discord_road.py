"""The bench's Discord figures: the real bot in a process of its own (``bot.benchkit.botside``),
pointed at the Discord stand-in served here (in a thread of this process), driven the way Discord
drives it — INTERACTION_CREATE over the gateway, answers over REST — by simulated players.

Court Wars for two at every table. A player's press is a random walk through what the bot showed
that player: a move button on the table, else My hand, then a step, a select's option, a page or
Confirm on the private panel, until the move is made. Click→answer is timed from the interaction
sent to its first answer received. Three runs of the same bot: paced (each player presses after a
think time, a random wait of a second on average: about 200 presses a second over 200 tables),
a burst (every table presses again as soon as it is answered: the most the process serves), and
paced again with pictures. The floor is the smallest discord.py bot doing what a press does,
driven the same way (paced, then a burst). The turn-limit sweep: 1,000 tables fall due at once after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.standin import DiscordStandIn, StandInError, walk_components
from bot.standin.background import StandInThread

GAME = "court_wars"
TOKEN = "bench-token"
WALK = frozenset({"s", "k", "b", "p", "ok"})  # what a player presses on a private panel
REVISION_KINDS = frozenset({"me", "cc", "sk", "rv", "rm", "ng", "sf"})  # table buttons that carry the revision
DANGER = 4  # a button's style: giving up and the like


def ours(msg: dict) -> list[tuple[dict, str, str]]:
    """The message's Deckhand components that can be pressed: (component, kind, arg)."""
    out = []
    for c in walk_components(msg.get("components")):
        cid = c.get("custom_id") or ""
        if not cid.startswith("dh2:") or c.get("disabled") or c.get("style") == DANGER:
            continue
        _, _, _, kind, arg = cid.split(":", 4)
        out.append((c, kind, arg))
    return out


def to_act(embed: dict) -> str:
    """The name of the player the table marks as the one to act (◀ beside a court), lower-cased."""
    for f in embed.get("fields") or []:
        if "◀" in f.get("name", ""):
            return f["name"].replace("◀", "").split()[-1].lower()
    return ""


def revision_of(msg: dict) -> int | None:
    for c in walk_components(msg.get("components")):
        cid = c.get("custom_id") or ""
        if cid.startswith("dh2:") and cid.split(":", 4)[3] in REVISION_KINDS:
            return int(cid.split(":", 4)[2])
    return None


@dataclass
class Tally:
    """What the simulated players saw: click→answer times (ms), errors, presses made."""

    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refusals: int = 0

    async def timed(self, work: Awaitable[Any]) -> Any:
        start = time.perf_counter()
        try:
            res = await work
        except (StandInError, asyncio.TimeoutError) as e:
            self.errors.append(f"{type(e).__name__}: {e}"[:300])
            return None
        if not res.callbacks:
            self.errors.append("unanswered")
            return None
        self.times.append((time.perf_counter() - start) * 1000)
        return res


@dataclass
class Table:
    channel: dict
    users: dict[str, dict]  # display name → user
    rng: random.Random
    panel: int | None = None  # the private panel being walked through
    user: dict | None = None  # whose panel
    steps: int = 0
    shown: int | None = None  # the revision the table showed when the player began the move
    moved: bool = False  # a move was made on the panel: until the table message shows it, My hand


class Players:
    """The simulated players of every table, in the stand-in's loop."""

    def __init__(self, s: DiscordStandIn, tables: int, seed: int = 1, guild: Any = None):
        self.s = s
        self.guild = guild or s.guild(name="Bench")
        self.tables: list[Table] = []
        for i in range(tables):
            users = [s.user(name=f"t{seed}x{i}{side}") for side in "ab"]
            for u in users:
                self.guild.add_member(u)
            ch = self.guild.text_channel(f"table-{i}")
            self.tables.append(Table(ch, {u["username"].lower(): u for u in users}, random.Random(seed * 100_003 + i)))

    async def open_all(self, tally: Tally, at_once: int = 40) -> None:
        gate = asyncio.Semaphore(at_once)

        async def one(t: Table) -> None:
            async with gate:
                await self.open(t, tally)

        await asyncio.gather(*(one(t) for t in self.tables))

    async def open(self, t: Table, tally: Tally) -> None:
        a, b = t.users.values()
        where = {"guild": self.guild, "channel": t.channel}
        await tally.timed(self.s.slash(None, "game new", {"game": GAME}, user=a, **where))
        await tally.timed(self.s.slash(None, "game join", user=b, **where))
        await tally.timed(self.s.slash(None, "game start", user=a, **where))
        t.panel = None

    def table_message(self, t: Table) -> dict | None:
        for m in reversed(self.s.channel_messages(int(t.channel["id"]), include_ephemeral=False)):
            if m.get("embeds") and ours(m):
                return m
        return None


    async def press(self, t: Table, tally: Tally) -> None:
        """One press of the player whose turn it is (a new game when the last one ended)."""
        s = self.s
        if t.panel is not None and t.steps < 12:
            panel = s.messages.get(t.panel)
            choices = [x for x in ours(panel or {}) if x[1] in WALK and not (x[0].get("label") or "").startswith("↩")]
            if choices:
                c, kind, _ = t.rng.choice(choices)
                t.steps += 1
                if c.get("type") == 3:  # a select: one of its options
                    value = t.rng.choice([o["value"] for o in c.get("options") or []])
                    res = await tally.timed(s.select(None, t.panel, c["custom_id"], [value], user=t.user))
                else:
                    res = await tally.timed(s.click(None, t.panel, c["custom_id"], user=t.user))
                self.follow(t, res, tally)
                return
        t.panel = None
        msg = self.table_message(t)
        embed = ((msg or {}).get("embeds") or [{}])[0]
        title = embed.get("title") or ""
        user = t.users.get(to_act(embed))
        if msg is None or user is None:  # over: the next game
            await self.open(t, tally)
            return
        comps = ours(msg)
        steps = [c for c, kind, _ in comps if kind == "s" and not (c.get("label") or "").startswith("↩")]
        if revision_of(msg) == t.shown and t.moved:  # the table message not edited yet: the hand shows the table
            steps = []
        hand = [c for c, kind, _ in comps if kind == "me"]
        target = t.rng.choice(steps) if steps else (hand or [None])[0]
        if target is None:
            tally.errors.append(f"no move button on the table: {title!r}")
            return
        t.user, t.steps, t.shown, t.moved = user, 0, revision_of(msg), False
        res = await tally.timed(s.click(None, int(msg["id"]), target["custom_id"], user=user))
        self.follow(t, res, tally)

    def follow(self, t: Table, res: Any, tally: Tally) -> None:
        """Go on with the panel the answer showed, if it offers a next step."""
        t.panel = None
        if res is not None and "moved on since" in (res.text or ""):  # a stale press: refused
            tally.refusals += 1
        if res is None or not res.ephemeral or res.message_id is None:
            return
        panel = self.s.messages.get(int(res.message_id))
        if panel is not None and any(kind in WALK for _, kind, _ in ours(panel)):
            t.panel = int(res.message_id)
        elif (res.text or "").startswith("Done"):
            t.moved = True
        else:
            tally.refusals += 1

    async def play(self, seconds: float, think: float | None) -> Tally:
        """Every table pressing for ``seconds``: after a think time averaging ``think`` seconds, or
        (None) again as soon as it is answered."""
        tally = Tally()
        end = time.perf_counter() + seconds

        async def table(t: Table) -> None:
            if think:
                await asyncio.sleep(t.rng.uniform(0, think))
            while time.perf_counter() < end:
                await self.press(t, tally)
                if think:
                    await asyncio.sleep(t.rng.expovariate(1 / think))

        await asyncio.gather(*(table(t) for t in self.tables))
        self.s.forget(keep=self.kept())
        return tally

    def kept(self) -> list[int]:
        keep = [t.panel for t in self.tables if t.panel is not None]
        for t in self.tables:
            if (m := self.table_message(t)) is not None:
                keep.append(int(m["id"]))
        return keep


class FloorPlayers:
    """One message with one button per channel, pressed as Deckhand's tables are."""

    def __init__(self, s: DiscordStandIn, tables: int, seed: int = 1):
        self.s = s
        self.guild = s.guild(name="Floor")
        self.user = s.user(name="presser")
        self.guild.add_member(self.user)
        self.channels = [self.guild.text_channel(f"floor-{i}") for i in range(tables)]
        self.messages: list[int] = []
        self.rng = random.Random(seed)

    async def open_all(self, tally: Tally) -> None:
        for ch in self.channels:
            res = await tally.timed(self.s.slash(None, "floor", user=self.user, guild=self.guild, channel=ch))
            self.messages.append(int(res.message_id))

    async def play(self, seconds: float, think: float | None) -> Tally:
        tally = Tally()
        end = time.perf_counter() + seconds

        async def one(mid: int) -> None:
            if think:
                await asyncio.sleep(self.rng.uniform(0, think))
            while time.perf_counter() < end:
                cid = self.s.buttons(mid)[0][0]
                await tally.timed(self.s.click(None, mid, cid, user=self.user))
                if think:
                    await asyncio.sleep(self.rng.expovariate(1 / think))

        await asyncio.gather(*(one(m) for m in self.messages))
        self.s.forget(keep=self.messages)
        return tally


class BotProcess:
    """``python -m bot.benchkit.botside`` with the stand-in's URLs and the bench's database."""

    def __init__(self, t: StandInThread, folder: Path, *args: str, env: dict[str, str] | None = None,
                 profile: Path | None = None):
        self.t = t
        self.log = folder / f"bot{len(list(folder.glob('bot*.log')))}.log"
        self.args = (*args, "--profile", str(profile / f"{self.log.stem}.prof")) if profile else args
        self.env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": t.standin.base_url,
                    "DISCORD_GATEWAY_URL": t.standin.gateway_url, "DECKHAND_DATABASE": str(folder / "bench.sqlite3"),
                    "DECKHAND_LOG_LEVEL": "WARNING", **(env or {})}
        self.env.pop("DATABASE_URL", None)
        self.proc: asyncio.subprocess.Process | None = None

    async def sync(self) -> None:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "sync", env=self.env,
                                                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, err = await proc.communicate()
        if proc.returncode:
            raise RuntimeError(f"python -m bot sync failed: {err.decode()[-500:]}")

    async def __aenter__(self) -> BotProcess:
        with open(self.log, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.benchkit.botside", *self.args, env=self.env, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=log)
        await asyncio.wrap_future(self.t.submit(lambda s: s.wait_for_bots(len(s.sessions) + 1, timeout=120)))
        while not (await self.ask("ready"))["ready"]:
            await asyncio.sleep(0.1)
        return self

    async def mark(self) -> dict[str, Any]:
        return await self.ask("mark")

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 60))

    async def __aexit__(self, *exc: Any) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        await self.quiet()
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 60)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()

    async def quiet(self, seconds: float = 1.0, limit: float = 60.0) -> None:
        """Until the bot has sent nothing for ``seconds`` (the follow-ups and table edits after the last
        answers have landed), so that it is not closed in the middle of them."""
        start = last_change = time.perf_counter()
        seen = -1
        while time.perf_counter() - last_change < seconds and time.perf_counter() - start < limit:
            now = await asyncio.wrap_future(self.t.submit(lambda s: s.request_count))
            if now != seen:
                seen, last_change = now, time.perf_counter()
            await asyncio.sleep(0.1)



@dataclass
class Run:
    tally: Tally
    cpu: float  # the bot process's (and its picture processes')
    held_ms: float  # the longest one piece of work held the loop (a task's step or a collection), CPU
    held_by: str  # what: the longest step's coroutine, and the longest collection's CPU
    stall_ms: float  # the ticker's longest gap between turns of the loop, wall time (queues included)
    stall_cpu_ms: float  # ... and its thread's CPU in that gap
    gc_ms: float  # the longest garbage collection, wall time
    gc_cpu: float  # CPU seconds of the loop's thread in garbage collections
    seconds: float
    driver_cpu: float  # this process's: the stand-in and the players
    requests: int  # the bot's requests to Discord meanwhile

    @property
    def per_second(self) -> float:
        return len(self.tally.times) / self.seconds

    @property
    def cpu_ms(self) -> float:
        return self.cpu / max(len(self.tally.times), 1) * 1000


async def measured(bot: BotProcess, work: Callable[[], Awaitable[Tally]]) -> Run:
    def sent(s: DiscordStandIn) -> int:
        return s.request_count

    before, requests = await bot.mark(), await asyncio.wrap_future(bot.t.submit(sent))
    start, driver = time.perf_counter(), time.process_time()
    tally = await work()
    seconds, driver = time.perf_counter() - start, time.process_time() - driver
    after, requests = await bot.mark(), await asyncio.wrap_future(bot.t.submit(sent)) - requests
    held_by = f"{after['step_by']} {after['step_ms']:.1f} ms, a collection {after['gc_cpu_ms']:.1f} ms"
    return Run(tally, after["cpu"] - before["cpu"], after["held_ms"], held_by, after["stall_ms"], after["stall_cpu_ms"],
               after["gc_ms"], after["gc_cpu"] - before["gc_cpu"], seconds, driver, requests)


def logged_errors(log: Path) -> list[str]:
    """The lines a bot process logged at ERROR (and tracebacks printed without a log line)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return [x for x in text.splitlines() if " ERROR " in x or x.startswith("Traceback")]


def stored_revisions(db: Path) -> dict[int, int]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return {int(ch): int(rev) for ch, rev in c.execute("SELECT channel_id, revision FROM tables")}


def lost_updates(players: Players, db: Path) -> int:
    """Tables whose message does not show the revision the store holds (a committed move unseen,
    or a move seen that the store lost)."""
    stored = stored_revisions(db)
    lost = 0
    for t in players.tables:
        msg = players.table_message(t)
        shown = revision_of(msg) if msg else None
        if shown != stored.get(int(t.channel["id"])):
            lost += 1
    return lost


async def discord_figures(quick: bool, report: Callable[[Any], None], Figure: Any, percentile: Callable, *,
                          tables: int = 200, seconds: float | None = None, due: int | None = None,
                          profile: Path | None = None) -> None:
    """The figures, each given to ``report``: ``tables`` played at once for ``seconds`` a run, then
    ``due`` tables falling due at once. ``profile``: a folder where each bot process leaves its cProfile
    (bot0.prof the floor, bot1.prof Deckhand without pictures, bot2.prof with them)."""
    seconds = seconds or (6.0 if quick else 20.0)
    due = due or (300 if quick else 1000)
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-discord-") as tmp, StandInThread() as t:
        folder = Path(tmp)

        async def there(work: Callable[[DiscordStandIn], Any]) -> Any:
            return await asyncio.wrap_future(t.submit(work))

        # The floor.
        floor = await there(lambda s: FloorPlayers(s, tables))
        async with BotProcess(t, folder, "--floor", profile=profile) as bot:
            await there(lambda s: floor.open_all(Tally()))
            floor_paced = await measured(bot, lambda: there(lambda s: floor.play(seconds, 1.0)))
            floor_burst = await measured(bot, lambda: there(lambda s: floor.play(seconds, None)))
        # Deckhand, no pictures: paced, then a burst.
        players: Players = await there(lambda s: Players(s, tables))
        plain = BotProcess(t, folder, "--no-pictures", profile=profile)
        await plain.sync()
        async with plain as bot:
            opening = Tally()
            await there(lambda s: players.open_all(opening))
            paced = await measured(bot, lambda: there(lambda s: players.play(seconds, 1.0)))
            burst = await measured(bot, lambda: there(lambda s: players.play(seconds, None)))
        lost = await there(lambda s: lost_updates(players, folder / "bench.sqlite3"))
        # Deckhand with its pictures, paced; then more tables are opened (the sweep's), all with a turn limit.
        pictured = BotProcess(t, folder, env={"DECKHAND_SWEEP_SECONDS": "0.5"}, profile=profile)
        async with pictured as bot:
            await asyncio.sleep(3)  # the picture processes warm up as the bot starts
            pics = await measured(bot, lambda: there(lambda s: players.play(seconds, 1.0)))
            watched = await there(lambda s: watch_one_table(s, players, WATCHERS, seconds))
            more: Players = await there(lambda s: Players(s, max(due - tables, 0), seed=2, guild=players.guild))
            await there(lambda s: more.open_all(opening))
            await there(lambda s: limit_turns(s, players.tables + more.tables, players.guild))
        # The sweep: after a restart, every table is past its turn limit at once.
        sweep = await sweep_figures(pictured, folder / "bench.sqlite3")
        logged = [line for log in sorted(folder.glob("bot*.log")) for line in logged_errors(log)]
        errors = len(opening.errors) + sum(len(r.tally.errors) for r in (paced, burst, pics)) + len(logged)
        for line in logged[:5]:
            print(f"  the bot logged: {line[:300]}")

    note = f"{tables} tables of {GAME.replace('_', ' ').title()} for two on SQLite"
    runs = (paced, burst, pics)
    print("  the loop's longest hold in each run — " + "; ".join(
        f"{name}: {r.held_by}" for name, r in (("floor paced", floor_paced), ("floor burst", floor_burst),
                                                ("paced", paced), ("burst", burst), ("with pictures", pics)))
        + f"; the sweep: {sweep['held_by']}")
    print("  CPU per interaction of the bot process: paced {:.2f} ms, burst {:.2f} ms, with pictures {:.2f} ms "
          "(its picture processes included)".format(paced.cpu_ms, burst.cpu_ms, pics.cpu_ms))
    print(f"  {note}: paced {len(paced.tally.times)} presses, burst {len(burst.tally.times)}, with pictures "
          f"{len(pics.tally.times)}; refusals seen {sum(r.tally.refusals for r in runs)}; the stand-in and the "
          f"players' CPU a press in this process: {burst.driver_cpu / max(len(burst.tally.times), 1) * 1000:.2f} ms; "
          f"the loop's longest gap between turns (presses waiting their turn included) in CPU "
          f"{max(r.stall_cpu_ms for r in runs):.1f} ms (the floor's burst: {floor_burst.stall_cpu_ms:.1f} ms), in wall time "
          f"(with the machine's load) {max(r.stall_ms for r in runs):.1f} ms; "
          f"the longest garbage collection: {max(r.gc_ms for r in runs):.1f} ms; requests to Discord a press: "
          f"{burst.requests / max(len(burst.tally.times), 1):.2f} (the floor: "
          f"{floor_burst.requests / max(len(floor_burst.tally.times), 1):.2f}); the garbage collector's share of that "
          f"CPU in the burst: {burst.gc_cpu / max(burst.cpu, 1e-9):.0%} (the floor: "
          f"{floor_burst.gc_cpu / max(floor_burst.cpu, 1e-9):.0%})")
    report(Figure("paced, no pictures: click → answer p50", percentile(paced.tally.times, 50), "ms"))
    report(Figure("paced, no pictures: click → answer p99", percentile(paced.tally.times, 99), "ms", 25))
    report(Figure("paced, the floor (discord.py's road alone): click → answer p99", percentile(floor_paced.tally.times, 99),
                  "ms"))
    report(Figure("paced, with pictures: click → answer p99", percentile(pics.tally.times, 99), "ms", 60))
    report(Figure("burst: interactions a second, one process", burst.per_second, "ops/s", 400, True))
    report(Figure("burst: click → answer p50", percentile(burst.tally.times, 50), "ms"))
    report(Figure("errors (unanswered presses, errors logged), all runs", errors, "count", 0))
    report(Figure("lost updates (table message ≠ stored table)", lost, "count", 0))
    report(Figure("event loop held at most by one step or collection (CPU), all runs", max(r.held_ms for r in runs),
                  "ms", 20))
    report(Figure("event loop held at most, the floor's burst (discord.py's road alone)", floor_burst.held_ms, "ms"))
    report(Figure("CPU per interaction, burst (bot process)", burst.cpu_ms, "ms"))
    report(Figure("CPU per interaction, the floor (one DynamicItem button)", floor_burst.cpu_ms, "ms"))
    report(Figure("CPU per interaction ÷ the floor's", burst.cpu_ms / floor_burst.cpu_ms, "×", 3))
    report(Figure(f"sweep: {sweep['due']} tables due at a restart, event loop held at most", sweep["held_ms"],
                  "ms", 20))
    report(Figure(f"sweep: {sweep['due']} tables due at a restart, handled", sweep["handled"], "tables"))
    report(Figure(f"a table with {WATCHERS} watchers: edits a second of a watcher message, at most",
                  watched["busiest"], "edits", 1))
    report(Figure(f"a table with {WATCHERS} watchers ({watched['moves']:.0f} presses): a watcher message's edit "
                  "after the table's, p99", watched["lag_p99"], "ms"))
    report(Figure(f"sweep: {sweep['due']} tables due at a restart, all handled (from the bot's start)",
                  sweep["seconds"], "s"))


WATCHERS = 20


async def watch_one_table(s: DiscordStandIn, players: Players, watchers: int, seconds: float) -> dict[str, float]:
    """``watchers`` people watch the first table from channels of their own while its players play
    on as fast as they are answered: the most edits any watcher message got in a second, and how
    far behind the table's own edit a watcher message was edited (p99)."""
    t = players.tables[0]
    table_channel = int(t.channel["id"])
    mids = []
    for i in range(watchers):
        user = s.user(name=f"watcher{i}")
        players.guild.add_member(user)
        lounge = players.guild.text_channel(f"lounge-{i}")
        res = await s.slash(None, "game watch", {"table": str(table_channel)}, user=user, guild=players.guild,
                            channel=lounge)
        mids.append(int(res.message_id))
    start = len(s.requests)
    end = time.perf_counter() + seconds
    tally = Tally()
    answered = []  # when each press was answered (a move on the table message is shown by its answer)
    while time.perf_counter() < end:
        await players.press(t, tally)
        answered.append(time.monotonic())
    await asyncio.sleep(2)  # the last watcher edits, a second apart at most
    sent = s.requests[start:]
    table_edits = sorted([*answered, *(r.arrived for r in sent if r.method == "PATCH"
                                       and f"/channels/{table_channel}/messages/" in r.path)])
    busiest, lags = 0, []
    for mid in mids:
        times = [r.arrived for r in sent if r.method == "PATCH" and r.path.endswith(f"/messages/{mid}")]
        busiest = max([busiest, *(sum(1 for u in times if x <= u < x + 1.0) for x in times)])
        for x in times:
            before = [e for e in table_edits if e <= x]
            if before:
                lags.append((x - before[-1]) * 1000)
    lags.sort()
    return {"busiest": busiest, "lag_p99": lags[int(0.99 * (len(lags) - 1))] if lags else float("nan"),
            "moves": len(tally.times)}


async def limit_turns(s: DiscordStandIn, tables: list[Table], guild: Any, at_once: int = 40) -> None:
    """A turn limit of 30 minutes at every table (its host's /game turnlimit)."""
    for i in range(0, len(tables), at_once):
        await asyncio.gather(*(s.slash(None, "game turnlimit", {"minutes": 30}, user=next(iter(t.users.values())),
                                       guild=guild, channel=t.channel) for t in tables[i:i + at_once]))


async def sweep_figures(bot: BotProcess, db: Path) -> dict[str, Any]:
    """The bot restarted after every turn limit ran out: the longest hold of its loop, and how
    long until every table was handled (its revision moved)."""
    before = stored_revisions(db)
    with sqlite3.connect(db) as c:  # the bot is down: every turn limit ran out meanwhile
        c.execute("UPDATE tables SET turn_since = turn_since - 7200, warned_for = turn_since - 7200, deadline = 1, "
                  "alarm = 1 WHERE status = 'playing'")
        due = c.execute("SELECT COUNT(*) FROM tables WHERE status = 'playing'").fetchone()[0]
    start = time.perf_counter()
    async with bot:
        while True:
            after = stored_revisions(db)
            handled = sum(1 for ch, rev in after.items() if rev != before.get(ch))
            if handled >= due or time.perf_counter() - start > 300:
                break
            await asyncio.sleep(0.2)
        seconds = time.perf_counter() - start
        mark = await bot.mark()  # since the bot was ready (the sweep starts with it)
    return {"due": due, "handled": handled, "held_ms": mark["held_ms"], "seconds": seconds,
            "held_by": f"{mark['step_by']} {mark['step_ms']:.1f} ms, a collection {mark['gc_cpu_ms']:.1f} ms"}
