"""The real press, timed: a gateway INTERACTION_CREATE payload through discord.py, the cog, the
desk and the store, the message built and serialised, sent to the stand-in (a multipart upload
when it carries a picture) — button clicks on the table message and on private panels, and
``/game move`` — on tables of 30, 300 and 1,000 moves, and many tables at once."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bot.benchkit.feeder import USER_BASE, Feeder, buttons, options, running_bot

GAME = "maginot_line"  # with teams (4 seats) its games run past 1,000 moves
OPTIONS = ["Teams"]
SEATS = 4
SEED = 0  # a game of about 2,000 moves
LATE_MS = 50.0  # Discord's round trip in the burst run across the network (the stand-in's delay)


@dataclass
class Sample:
    kind: str  # "table" (a button on the table message), "panel" (a button on a private panel), "slash"
    channel: int
    token: str
    start: float  # monotonic, when the payload was fed
    wall: float  # until discord.py had handled it (s)
    cpu: float  # process CPU meanwhile (s)
    calls: int  # store calls meanwhile
    edit: float | None = None  # monotonic, when the table's edit reached the stand-in


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    openings: list[Sample] = field(default_factory=list)  # "My hand" presses before a panel move
    lost: int = 0
    errors: int = 0


def actors() -> list[Any]:
    from bot.tables import Actor

    return [Actor(USER_BASE + i, f"Player {i}") for i in range(SEATS)]


async def template(service: Any, channel: int, moves: int, seed: int = SEED) -> None:
    """A table ``moves`` moves long, played by the built-in players through the service."""
    from bot.engine.registry import spec
    from bot.tables.games import load_game

    people = actors()
    await service.new_table(channel, 1, people[0], GAME, OPTIONS, seed=seed)
    for a in people[1:]:
        await service.join(channel, a)
    await service.start(channel, people[0])
    rng = random.Random(seed)
    for _ in range(moves):
        row = await service.require(channel)
        game = load_game(row)
        seat = min(game.to_act())
        await service.move(channel, people[seat], str(spec(GAME).player(game, seat, rng)))


async def clone(store: Any, backend: str, source: int, channels: list[int]) -> None:
    """Copies of a table (row and move log) in other channels, made by the database itself."""
    if backend == "sqlite":
        cols = [r[1] for r in await store.execute("PRAGMA table_info(tables)")]
    else:
        cols = [r[0] for r in await store.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'tables' "
            "AND table_schema = current_schema() ORDER BY ordinal_position")]
    arg = (lambda i: "?") if backend == "sqlite" else (lambda i: f"${i}")
    exprs = {c: f"t.{c}" for c in cols}
    exprs["channel_id"] = arg(1)
    exprs["table_id"] = arg(2)
    if "message_id" in exprs:
        exprs["message_id"] = "NULL"
    for ch in channels:
        tid = f"{ch:016x}"  # a table id as the store makes them (hex), so buttons name it
        await store.execute(f"INSERT INTO tables ({', '.join(cols)}) SELECT {', '.join(exprs[c] for c in cols)} "
                            f"FROM tables t WHERE t.channel_id = {arg(3)}", (ch, tid, source))
        await store.execute(f"INSERT INTO moves (table_id, ply, entry) SELECT {arg(1)}, m.ply, m.entry "
                            f"FROM moves m JOIN tables t ON t.table_id = m.table_id WHERE t.channel_id = {arg(2)}",
                            (tid, source))


class Presser:
    """Presses on the tables of one bot, one at a time (timed) or many at once."""

    def __init__(self, bot: Any, feeder: Feeder, counting: Any):
        self.bot, self.feeder, self.counting = bot, feeder, counting
        self.table_message: dict[int, int] = {}
        self.rng = random.Random(1)
        self.failed = 0  # handler tasks that raised
        # Copies of one table show the same pictures: forget them before each press, so every
        # press draws its own, as a real table's changed view does.
        self.fresh_pictures = False

    async def show(self, channels: list[int]) -> None:
        cog = self.bot.get_cog("Tables")
        for ch in channels:
            reader = await self.bot.desk.require_public(ch)
            mid = await cog.place.show_table(reader)
            assert mid is not None, "the table message was not posted"
            self.table_message[ch] = mid

    async def next_move(self, ch: int) -> tuple[int, str] | None:
        """The next move (the bench's own work: chosen before the press, not timed)."""
        from bot.engine.registry import spec
        from bot.tables.games import load_game

        row = self.bot.service.cached(ch) or await self.bot.service.get(ch)
        if row is None or row.status != "playing":
            return None
        game = load_game(row)
        seat = min(game.to_act())
        return seat, str(spec(row.game).player(game, seat, self.rng))

    async def _tokens(self, ch: int, who: int, arg: str, tid: str, rev: int) -> tuple[str, ...]:
        if arg.startswith("~"):
            return await self.bot.desk.get_draft(arg[1:], ch, USER_BASE + who, tid, rev)
        return tuple(arg.split())

    async def _way(self, ch: int, message: dict[str, Any], seat: int, move: str
                   ) -> tuple[str, str | None, bool] | None:
        """The component of ``message`` that goes furthest towards ``move``: (custom_id, the value
        to select or None for a button, whether it makes the whole move)."""
        want = tuple(move.split())
        best: tuple[int, str, str | None] | None = None
        for cid, kind, arg in buttons(message):
            if kind not in ("s", "ok") or arg.startswith("↩"):
                continue
            _, tid, rev, _, _ = cid.split(":", 4)
            try:
                got = await self._tokens(ch, seat, arg, tid, int(rev))
            except Exception:
                continue
            if got and got == want[:len(got)] and (best is None or len(got) > best[0]):
                best = (len(got), cid, None)
        for cid, kind, arg in buttons(message, 3):
            if kind != "k":
                continue
            _, tid, rev, _, _ = cid.split(":", 4)
            try:
                done = await self._tokens(ch, seat, arg, tid, int(rev))
            except Exception:
                continue
            if done == want[:len(done)] and len(done) < len(want) and want[len(done)] in options(message, cid):
                if best is None or len(done) + 1 > best[0]:
                    best = (len(done) + 1, cid, want[len(done)])
        if best is None:
            return None
        return best[1], best[2], best[0] == len(want)

    async def timed(self, payload: dict[str, Any], kind: str, ch: int) -> Sample:
        if self.fresh_pictures:
            from bot.render import pictures

            pictures.cache_clear()
        calls, cpu = self.counting.calls, time.process_time()
        start = time.monotonic()
        self.failed += await self.feeder.press(payload)
        wall = time.monotonic() - start
        return Sample(kind, ch, payload["token"], start, wall, time.process_time() - cpu, self.counting.calls - calls)

    async def press(self, ch: int, prefer: str, run: Run) -> bool:
        """One move on ``ch`` by the preferred road (else by ``/game move``), timed."""
        nxt = await self.next_move(ch)
        if nxt is None:
            return False
        seat, move = nxt
        f = self.feeder
        if prefer in ("table", "panel"):  # the table message's My hand, then the private panel's steps
            msg = await f.message(self.table_message[ch])
            me = next((c for c, kind, _ in buttons(msg) if kind == "me"), None)
            if me is not None:
                opening = await self.timed(f.click(msg, me, seat), "open", ch)
                run.openings.append(opening)
                panel_id = (await f.get(f"original/{opening.token}"))["id"]
                for _ in range(8):
                    panel = await f.message(panel_id) if panel_id else {}
                    way = await self._way(ch, panel, seat, move) if panel else None
                    if way is None:
                        break
                    cid, value, whole = way
                    payload = f.click(panel, cid, seat) if value is None else f.select(panel, cid, value, seat)
                    sample = await self.timed(payload, "panel" if whole else "step", ch)
                    if whole:
                        run.samples.append(sample)
                        return True
                    run.openings.append(sample)
        run.samples.append(await self.timed(f.slash_move(ch, move, seat), "slash", ch))
        return True

    async def edits(self, run: Run) -> None:
        """When each press's table edit reached the stand-in (from its log)."""
        log = (await self.feeder.log())["log"]
        by_token: dict[str, float] = {}
        by_message: dict[str, list[float]] = {}
        for arrived, method, kind, ref, embeds, _size, ctype in log:
            if not embeds:
                continue
            if kind == "callback" and ctype == 7:
                by_token.setdefault(ref, arrived)
            elif kind == "channel-edit" and method == "PATCH":
                by_message.setdefault(ref, []).append(arrived)
        for s in run.samples:
            if s.kind == "table" and s.token in by_token:
                s.edit = by_token[s.token]
                continue
            times = by_message.get(str(self.table_message[s.channel]), [])
            after = [t for t in times if s.start <= t <= s.start + s.wall]
            s.edit = after[0] if after else None


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


def fresh_caches() -> None:
    """Forget what earlier cells left in this process's caches (games, readers' answers, pictures),
    as a bot started anew would: the cells' tables share ids across back ends and lengths, and a
    newer revision of a table id held from an earlier cell made every later lookup of it miss."""
    from bot.render import pictures
    from bot.tables.games import GAMES
    from bot.tables.reader import ASKED

    GAMES.clear()
    ASKED.clear()
    pictures.cache_clear()


async def latency(backend: Any, length: int, tables: int, presses: int, pictures_on: bool) -> Run:
    """``tables`` copies of a table ``length`` moves long, each pressed ``presses`` times in turn
    (one press at a time), by the table message, a private panel and ``/game move`` in rotation."""
    from bot.tables.service import TableService

    store = await backend.open(f"press{length}{'p' if pictures_on else ''}")
    try:
        await template(TableService(store), 1, length)
        channels = [100 + i for i in range(tables)]
        await clone(store, backend.name, 1, channels)
        fresh_caches()
        async with running_bot(store, pictures_on) as (bot, feeder, counting):
            if pictures_on:
                from bot.engine.registry import sample_views
                from bot.render import pictures

                await pictures.prepare(sample_views())
            presser = Presser(bot, feeder, counting)
            await presser.show(channels)
            warm = Run()
            for ch in channels:  # the first press on a copy reads it from the store: not timed
                await presser.press(ch, "slash", warm)
            before = {ch: len((await store.get(ch)).moves) for ch in channels}
            presser.fresh_pictures = pictures_on
            run = Run()
            roads = ("table", "panel", "slash")
            for i in range(presses):
                for j, ch in enumerate(channels):
                    await presser.press(ch, roads[(i + j) % 3], run)
            await presser.edits(run)
            done = {ch: sum(1 for s in run.samples if s.channel == ch) for ch in channels}
            for ch in channels:
                stored = await store.get(ch)
                run.lost += before[ch] + done[ch] - len(stored.moves)
            run.errors = len(feeder.errors.records) + presser.failed
        return run
    finally:
        await store.close()


def load() -> float:
    return os.getloadavg()[0]


__all__ = ["Presser", "Run", "Sample", "latency", "load", "p", "statistics"]


@dataclass
class Burst:
    interactions: int = 0
    moves: int = 0
    elapsed: float = 0.0
    cpu: float = 0.0
    stall: float = 0.0  # the event loop's longest stall (s), wall
    stall_cpu: float = 0.0  # ... in the loop thread's CPU time (s)
    # The garbage collector in the timed windows: its longest collection (the loop thread's CPU,
    # s) of each generation, and how many full (oldest-generation) collections ran.
    gc_longest: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    gc_full: int = 0
    # The tidy-up the bot makes once quiet (bot.ui.turnstile.tidy_up), made after the last round:
    # its CPU (s), a walk of everything alive.
    tidy: float = 0.0
    errors: int = 0
    lost: int = 0
    tables: int = 0


class _Collections:
    """Times every garbage collection while ``on`` (its thread's CPU), into a :class:`Burst`."""

    def __init__(self, out: Burst):
        self.out, self.on, self._start = out, False, 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._start = time.thread_time()
            return
        g = info["generation"]
        self.out.gc_longest[g] = max(self.out.gc_longest[g], time.thread_time() - self._start)
        self.out.gc_full += g == 2


async def many(backend: Any, tables: int, rounds: int, pictures_on: bool, latency_ms: float = 0.0) -> Burst:
    """``tables`` tables of mixed lengths (30, 300 and 1,000 moves) pressed at once: every round,
    one ``/game move`` on every table and a **My hand** on every other one, all fed together; the
    stand-in answers ``latency_ms`` late (Discord's round trip; 0: the loopback's)."""
    from bot.bench import LoopWatch
    from bot.tables.service import TableService

    store = await backend.open(f"many{'p' if pictures_on else ''}{'l' if latency_ms else ''}")
    out = Burst(tables=tables)
    collections = _Collections(out)
    gc.callbacks.append(collections)
    try:
        service = TableService(store)
        lengths = (30, 300, 1000)
        for i, n in enumerate(lengths):
            await template(service, 1 + i, n)
        channels = [1000 + i for i in range(tables)]
        share = {30: channels[: tables // 2], 300: channels[tables // 2: tables * 17 // 20],
                 1000: channels[tables * 17 // 20:]}
        for i, n in enumerate(lengths):
            await clone(store, backend.name, 1 + i, share[n])
        fresh_caches()
        async with running_bot(store, pictures_on, latency_ms) as (bot, feeder, counting):
            if pictures_on:
                from bot.engine.registry import sample_views
                from bot.render import pictures

                await pictures.prepare(sample_views())
            presser = Presser(bot, feeder, counting)
            await presser.show(channels)
            warm = Run()
            for ch in channels:
                await presser.press(ch, "slash", warm)
            before = {ch: len((await store.get(ch)).moves) for ch in channels}
            errors0 = len(feeder.errors.records)
            played = dict.fromkeys(channels, 0)
            for r in range(rounds):
                payloads: list[tuple[int, dict[str, Any]]] = []
                for k, ch in enumerate(channels):  # chosen and built before the clock starts
                    nxt = await presser.next_move(ch)
                    if nxt is None:
                        continue
                    seat, move = nxt
                    payloads.append((ch, feeder.slash_move(ch, move, seat)))
                    if (k + r) % 2 == 0:
                        msg = await feeder.message(presser.table_message[ch])
                        me = next((c for c, kind, _ in buttons(msg) if kind == "me"), None)
                        if me is not None:
                            payloads.append((0, feeder.click(msg, me, (seat + 1) % SEATS)))
                if pictures_on:  # copies of three tables: their pictures are drawn anew each round
                    from bot.render import pictures

                    pictures.cache_clear()
                with LoopWatch() as watch:
                    collections.on = True
                    start, cpu = time.perf_counter(), time.process_time()
                    tasks = []
                    for _, pl in payloads:  # one event per turn of the loop, as the gateway reads them
                        tasks += feeder.feed(pl)
                        await asyncio.sleep(0)
                    results = await asyncio.gather(*tasks, return_exceptions=True)
                    out.elapsed += time.perf_counter() - start
                    out.cpu += time.process_time() - cpu
                    collections.on = False
                out.stall = max(out.stall, watch.worst)
                out.stall_cpu = max(out.stall_cpu, watch.worst_cpu)
                out.errors += sum(1 for x in results if isinstance(x, BaseException))
                out.interactions += len(payloads)
                for ch, _ in payloads:
                    if ch:
                        played[ch] += 1
                        out.moves += 1
            out.errors += len(feeder.errors.records) - errors0
            from bot.ui.turnstile import tidy_up

            cpu = time.thread_time()
            tidy_up()
            out.tidy = time.thread_time() - cpu
            for ch in channels:
                stored = await store.get(ch)
                out.lost += before[ch] + played[ch] - len(stored.moves)
        return out
    finally:
        gc.callbacks.remove(collections)
        await store.close()


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


async def press_figures(backend: Any, quick: bool, report: Any) -> None:
    """The real press on one back end: latency, CPU and store round trips by table length (with
    and without pictures on SQLite), then many tables at once."""
    from bot.bench import Figure

    tag = f"[{backend.name}]"
    tables, presses = (4, 6) if quick else (50, 20)
    cpu_no_picture: dict[int, float] = {}
    for pictures_on in ((False, True) if backend.name == "sqlite" else (False,)):
        what = "with its picture" if pictures_on else "no picture"
        for length in (30, 300, 1000):
            run = await latency(backend, length, tables, presses, pictures_on)
            everything = run.samples + run.openings
            cpu = sum(s.cpu for s in everything) / max(1, len(everything)) * 1000
            edits = [(s.edit - s.start) * 1000 for s in run.samples if s.edit is not None]
            roads = {k: sum(1 for s in run.samples if s.kind == k) for k in ("panel", "slash")}
            name = f"{tag} real press, {length}-move tables, {what}"
            print(f"  ({name}: {len(run.samples)} moves — {roads['panel']} on private panels, {roads['slash']} by "
                  f"/game move — and {len(run.openings)} other presses (My hand on the table message, panel steps); "
                  f"load {load():.1f})", flush=True)
            report(Figure(f"{name}: main-process CPU per interaction", cpu, "ms", None if pictures_on else 1.5))
            if not pictures_on:
                cpu_no_picture[length] = cpu
            target = 25.0 if pictures_on else 5.0
            report(Figure(f"{name}: click → table edit p50", p(edits, 50), "ms"))
            report(Figure(f"{name}: click → table edit p99", p(edits, 99), "ms", target))
            missing = len(run.samples) - len(edits)
            report(Figure(f"{name}: moves with no table edit seen", missing, "count", 0))
            for road in ("panel", "slash"):
                calls = [s.calls for s in run.samples if s.kind == road]
                if calls:
                    report(Figure(f"{name}: store round trips per move press ({road}), most", max(calls), "calls", 1))
            opens = [s.calls for s in run.openings]
            if opens:
                report(Figure(f"{name}: store round trips per other press (My hand, a step), mean", mean(opens),
                              "calls"))
            report(Figure(f"{name}: errors", run.errors, "count", 0))
            report(Figure(f"{name}: lost updates", run.lost, "count", 0))
        if not pictures_on:
            report(Figure(f"{tag} real press, no picture: CPU per interaction, 1,000 ÷ 30 moves",
                          cpu_no_picture[1000] / cpu_no_picture[30], "x", 1.2))
    # The stand-in answers at once (loopback); on SQLite the burst is also run with Discord's
    # answers 50 ms late, as across the network (no target: the loop must not wait on them).
    cells = [(False, 0.0), (True, 0.0), (False, LATE_MS)] if backend.name == "sqlite" else [(False, 0.0)]
    for pictures_on, late in cells:
        rounds = 3 if quick else 12
        burst = await many(backend, 200, rounds, pictures_on, late)
        what = "with pictures" if pictures_on else "no pictures"
        if late:
            what += f", Discord answering {late:.0f} ms late"
        name = f"{tag} 200 tables of mixed lengths at once, {what}"
        print(f"  ({name}: {burst.interactions} interactions, {burst.moves} of them moves, in {rounds} rounds; "
              f"load {load():.1f})", flush=True)
        target = None if late else 300.0 if pictures_on else 1000.0
        report(Figure(f"{name}: interactions/s", burst.interactions / burst.elapsed, "ops/s",
                      target, higher_is_better=True))
        report(Figure(f"{name}: main-process CPU per interaction", burst.cpu / max(1, burst.interactions) * 1000,
                      "ms"))
        report(Figure(f"{name}: event loop blocked at most (wall)", burst.stall * 1000, "ms", 20))
        report(Figure(f"{name}: event loop blocked at most (its thread's CPU)", burst.stall_cpu * 1000, "ms", 20))
        young, middle, full = (x * 1000 for x in burst.gc_longest)
        report(Figure(f"{name}: longest garbage collection, young / middle generation (CPU)", max(young, middle), "ms"))
        report(Figure(f"{name}: longest full garbage collection (CPU)", full, "ms"))
        report(Figure(f"{name}: full garbage collections", burst.gc_full, "count"))
        report(Figure(f"{name}: the tidy-up once quiet, everything collected (CPU)", burst.tidy * 1000, "ms"))
        report(Figure(f"{name}: errors", burst.errors, "count", 0))
        report(Figure(f"{name}: lost updates", burst.lost, "count", 0))
