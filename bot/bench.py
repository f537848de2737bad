"""``python -m bot bench``: speed figures printed beside their targets (PASS/FAIL; never asserted in tests).

1. Engines: actions/s replaying recorded games (apply only), whole games/s with the built-in
   player choosing every action, and random playouts (steps/s, every action a random walk
   through ``choices``), per game; then Gridcannon's random playouts beside an independent
   JavaScript engine's on the same decks when ``--gridcannon-js`` names a copy of it (never
   downloaded; the comparison is ``scripts/gridcannon_js.py``, loaded from the source checkout,
   not part of the package), else "not measured" with the reason.
2. Pictures: each game's picture drawn and encoded (CPU p50 and p99, bytes) over many varied
   views, as a picture process draws them.
3. The replay viewer: a finished game's steps, forward (drawn) and back (cached); the end
   message's animation of a whole game (CPU and size).
4. Discord: the bot in a process of its own (``bot.benchkit.botside``) pointed at the Discord
   stand-in this process serves, 200 tables played at once by simulated players, beside the
   floor (a minimal discord.py bot), and the turn-limit sweep (``bot.benchkit.discord_road``).

``--only engines,pictures,replay,animation,discord`` runs some parts; ``--quick`` repeats less.
``--json`` prints ``{"figures": [{"name", "value", "unit", "target", "met"}]}`` as the last line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli import default_players, play_auto
from bot.engine.registry import GAME_IDS, spec



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


SECTIONS = ("engines", "pictures", "replay", "animation", "discord")


def run_bench(quick: bool = False, as_json: bool = False, only: tuple[str, ...] = SECTIONS,
              gridcannon_js: str | None = None, profile: str | None = None) -> int:
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
        from bot.benchkit.levels import playout_figures

        playout_figures(quick, report, Figure)
        if not quick:  # a few minutes of CPU: only in the full bench
            from bot.benchkit.levels import strong_rate_figure

            strong_rate_figure(report, Figure)
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
    if "animation" in only:
        print("\nThe end message's animation (the whole game as the public saw it): CPU of this process, off the\n"
              "bot's event loop (a picture process draws it), and its size.")
        from bot.benchkit.animation import animation_figures

        animation_figures(quick, report, Figure)
    if "discord" in only:
        print("\nThrough Discord's road: the bot (python -m bot run's) in a process of its own, talking to the Discord\n"
              "stand-in served by this process over its gateway and REST; simulated players press what the bot shows\n"
              "them (a move button, My hand, a step, an option, Confirm). SQLite: a file, WAL.")
        from bot.benchkit.discord_road import discord_figures

        folder = Path(profile) if profile else None
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
        asyncio.run(discord_figures(quick, report, Figure, percentile, profile=folder))
    if as_json:
        print(json.dumps({"figures": [f.as_json() for f in figures]}))
    return 0
