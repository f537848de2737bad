"""``python -m bot bench``: speed figures printed beside their targets (PASS/FAIL; never asserted in tests).

1. Engines: actions/s replaying recorded games (apply only), whole games/s with the built-in
   player choosing every action, and random playouts (steps/s, every action a random walk
   through ``choices``), per game; then Gridcannon's random playouts beside an independent
   JavaScript engine's on the same decks when ``--gridcannon-js`` names a copy of it (never
   downloaded; the comparison is ``scripts/gridcannon_js.py``, loaded from the source checkout,
   not part of the package), else "not measured" with the reason.
2. Server-side figures (the table service and the message builder, no Discord stand-in): one
   interaction on a 300-move table, many tables at once, flat with the number of stored tables.

2b. Pictures: each game's picture drawn and encoded (CPU p50 and p99, bytes) over many varied
   views, as a picture process draws them.

``--only engines,pictures,replay,service`` runs some parts; ``--quick`` repeats less.
``--json`` prints ``{"figures": [{"name", "value", "unit", "target", "met"}]}`` as the last line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli import default_players, play_auto
from bot.engine.registry import GAME_IDS, spec
from bot.store.pgserver import PrivatePostgres

LONG_GAME = "maginot_line"  # games run past 300 moves (Court Wars ends near 130)
MANY_GAME = "court_wars"


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = False
    note: str = ""  # "not measured: why" (value is NaN)

    @property
    def met(self) -> bool | None:
        if self.target is None or self.note:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    def line(self) -> str:
        target = ""
        if self.target is not None:
            sign = "≥" if self.higher_is_better else "≤"
            verdict = "" if self.note else ("PASS" if self.met else "FAIL")
            target = f"target {sign} {self.target:g} {self.unit}  {verdict}"
        if self.note:
            return f"{self.name:<66} {'—':>10} {self.unit:<8} {target} {self.note}"
        return f"{self.name:<66} {self.value:>10.2f} {self.unit:<8} {target}"

    def as_json(self) -> dict[str, Any]:
        value = None if self.note else round(self.value, 3)
        out = {"name": self.name, "value": value, "unit": self.unit, "target": self.target, "met": self.met}
        if self.note:
            out["note"] = self.note
        return out


def comparison_script() -> Any:
    """``scripts/gridcannon_js.py`` of the source checkout this package runs from, loaded as a module
    (the comparison with the JavaScript engine is not part of the installed package), or None."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "scripts" / "gridcannon_js.py"
    found = importlib.util.spec_from_file_location("gridcannon_js", path) if path.exists() else None
    if found is None or found.loader is None:
        return None
    module = importlib.util.module_from_spec(found)
    sys.modules[found.name] = module  # its dataclasses look their module up
    found.loader.exec_module(module)
    return module


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


# ----- 1. engines -------------------------------------------------------------------------
def engine_figures(game_id: str, games: int) -> list[Figure]:
    cls = spec(game_id).state
    names = default_players(game_id, 4 if cls.max_players >= 4 else None)
    recorded: list[tuple[int, list[list[Any]]]] = []
    start = time.perf_counter()
    total = 0
    for i in range(games):
        game, moves = play_auto(cls.new(names, seed=i), random.Random(i))
        recorded.append((i, moves))
        total += len(moves)
    auto_elapsed = time.perf_counter() - start
    start = time.perf_counter()
    for seed, moves in recorded:
        game = cls.new(names, seed=seed)
        for seat, move in moves:
            game, _ = game.apply(seat, move)
    apply_elapsed = time.perf_counter() - start
    return [Figure(f"{game_id}: apply (replaying {total} actions)", total / apply_elapsed, "actions/s"),
            Figure(f"{game_id}: whole games, built-in players", games / auto_elapsed, "games/s")]


QUITTING = frozenset({"resign", "concede", "quit", "forfeit"})


def random_action(game: Any, seat: int, rng: random.Random) -> str:
    """A uniformly random complete action, walked through ``choices`` (giving up only when it is
    all that is offered; free text gets a short line)."""
    tokens: tuple[str, ...] = ()
    for _ in range(200):
        c = game.choices(seat, tokens)
        if c.kind == "text":
            return " ".join((*tokens, "A quiet line."))
        if c.kind == "range":
            nxt = [str(rng.randint(c.lo, c.hi))] if c.hi >= c.lo else []
        elif c.kind == "set":
            toks = c.tokens()
            hi = min(c.hi, len(toks))
            nxt = [",".join(sorted(rng.sample(toks, rng.randint(c.lo, hi)), key=toks.index))] if hi >= c.lo else []
        else:
            nxt = [o.token for o in c.options if o.style != "danger" and o.token not in QUITTING] or \
                  [o.token for o in c.options]
        if c.complete and tokens and (not nxt or rng.random() < 0.25):
            return " ".join(tokens)
        if not nxt:
            raise RuntimeError(f"{game.game_id}: a dead end in choices after {tokens!r}")
        tokens += (rng.choice(nxt),)
    raise RuntimeError(f"{game.game_id}: choices never completed: {tokens!r}")


def random_playouts(game_id: str, games: int, max_steps: int = 5000) -> tuple[int, float]:
    """Random playouts (every action a random walk through ``choices``): steps and seconds."""
    cls = spec(game_id).state
    names = default_players(game_id, None)
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(i)
        game = cls.new(names, seed=i)
        for _ in range(max_steps):
            decisions = game.decisions()
            if not decisions:
                break
            seat = decisions[0].seat
            game, _ = game.apply(seat, random_action(game, seat, rng))
            steps += 1
    return steps, time.perf_counter() - start


# ----- the back ends ----------------------------------------------------------------------
class Backend:
    """Opens stores on one database of one back end, a fresh database (file or schema) per name."""

    def __init__(self, name: str, folder: Path, dsn: str | None = None):
        self.name = name
        self.folder = folder
        self.dsn = dsn

    async def open(self, db: str) -> Any:
        if self.name == "sqlite":
            from bot.store import SQLiteStore

            return await SQLiteStore.open(self.folder / f"{db}.sqlite3")
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(self.dsn or "", schema=f"bench_{db}", max_size=20)


@asynccontextmanager
async def backends(folder: Path) -> AsyncIterator[list[tuple[Backend | None, str]]]:
    """(backend, why not) for SQLite and PostgreSQL; PostgreSQL is None with the reason if it cannot start."""
    out: list[tuple[Backend | None, str]] = [(Backend("sqlite", folder), "")]
    server = None
    try:
        import asyncpg  # noqa: F401

        # PostgreSQL's default durability (fsync on, synchronous_commit on): a commit returns once
        # its WAL is flushed. The bench never turns synchronous_commit off.
        server = await asyncio.to_thread(lambda: PrivatePostgres(
            "deckhand-bench-pg-", "-c max_connections=100 -c shared_buffers=64MB", timeout=90).start())
        out.append((Backend("postgres", folder, server.dsn), ""))
    except Exception as e:  # the PostgreSQL figures say why instead
        out.append((None, f"not measured: {e}".replace("\n", " ")[:160]))
    try:
        yield out
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop)


# ----- 2, 3, 4. interactions ----------------------------------------------------------------
class LoopWatch:
    """Measures the longest stretch the event loop went without running a 1 ms ticker: in wall
    time (``worst``; on a loaded machine it includes the time the process waited for a core) and
    in the CPU time of the loop's thread (``worst_cpu``: the work that blocked it, whatever the load)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        last, last_cpu = time.perf_counter(), time.thread_time()
        while True:
            await asyncio.sleep(0.001)
            now, cpu = time.perf_counter(), time.thread_time()
            self.worst = max(self.worst, now - last - 0.001)
            self.worst_cpu = max(self.worst_cpu, cpu - last_cpu)
            last, last_cpu = now, cpu

    def __enter__(self) -> "LoopWatch":
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._task:
            self._task.cancel()


SECTIONS = ("engines", "pictures", "replay", "service")


def run_bench(quick: bool = False, as_json: bool = False, only: tuple[str, ...] = SECTIONS,
              gridcannon_js: str | None = None) -> int:
    figures: list[Figure] = []

    def report(f: Figure) -> None:
        figures.append(f)
        print(f.line(), flush=True)

    games = 3 if quick else 40
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    loop = "uvloop" if "uvloop" in type(asyncio.get_event_loop_policy()).__module__ else "asyncio's own"
    print(f"Load average {load:.1f} on {os.cpu_count()} CPUs when the bench started (timings grow with it); "
          f"event loop: {loop}.")
    if "engines" in only:
        print("Engines (built-in players; apply = replaying the recorded actions)")
        for game_id in GAME_IDS:
            for f in engine_figures(game_id, games):
                report(f)
            steps, seconds = random_playouts(game_id, max(2, games // 2))
            report(Figure(f"{game_id}: random playouts (random walks through choices; {steps} steps)",
                          steps / seconds, "steps/s"))
        print("Gridcannon beside an independent JavaScript engine (engine.mjs, given by --gridcannon-js; never\n"
              "downloaded): both pick a random legal action from a full listing, on the same decks, in this run")
        js_engine = comparison_script()
        if js_engine is None:
            report(Figure("gridcannon ÷ engine.mjs: random playouts", float("nan"), "×", 1, True,
                          note="not measured: the comparison is scripts/gridcannon_js.py of a source checkout"))
        else:
            js_engine.figures(gridcannon_js, quick, report, Figure)
    if "pictures" in only:
        print("\nPictures (phone size, as the picture processes draw them): every game's picture drawn and\n"
              "encoded once for each of many varied views (seeded games of the built-in players, public and\n"
              "seat views), after a picture process's warm-up; CPU time of this process.")
        from bot.benchkit.pictures import picture_figures

        picture_figures(quick, report, Figure)
    if "replay" in only:
        print("\nThe replay viewer (/game replay): a finished game's frames (reader, picture, message) stepping\n"
              "forward (each picture drawn) and back (cached), the Discord round trip aside.")
        from bot.benchkit.replay import replay_figures

        asyncio.run(replay_figures(quick, report, Figure))
    if "service" not in only:
        if as_json:
            print(json.dumps({"figures": [f.as_json() for f in figures]}))
        return 0
    print("\nInteractions, server-side (remember the interaction, load, check, apply, save; embed and components\n"
          "built on the loop, the picture in the picture processes; no Discord stand-in, so none of its cost is\n"
          "in these figures; its own cost is measured by the tests' stand-in, not here).\n"
          "SQLite: a file, WAL, synchronous=NORMAL. PostgreSQL: a private local server at its default durability\n"
          "(fsync=on, synchronous_commit=on; the bench never sets synchronous_commit=off).")
    from bot.benchkit.service import store_figures

    asyncio.run(store_figures(quick, report))
    if as_json:
        print(json.dumps({"figures": [f.as_json() for f in figures]}))
    return 0
