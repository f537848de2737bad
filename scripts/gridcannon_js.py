"""Gridcannon random playouts: Deckhand's engine against an independent JavaScript engine on the
same decks (steps per second, games per second), both measured in this one run.

The JavaScript engine is the public file ``engine.mjs`` of GeekKingCloud/gridcannon-omarchy on
GitHub (a Gridcannon for the Omarchy desktop). It is not part of Deckhand and is never committed:
this script fetches it at run time into a temporary folder, or reads the copy you name:

    python scripts/gridcannon_js.py --games 200
    python scripts/gridcannon_js.py --engine /path/to/engine.mjs      # a copy placed by hand
    GRIDCANNON_JS_ENGINE=/path/to/engine.mjs python scripts/gridcannon_js.py

To place it by hand: download
https://raw.githubusercontent.com/GeekKingCloud/gridcannon-omarchy/HEAD/engine.mjs anywhere
outside the repository. Needs Node.js 18+ (``node`` on PATH). ``python -m bot bench --only
engines --gridcannon-js PATH`` prints the same comparison in its own run from a source checkout: it loads this file (the
comparison is not part of the installed package) and never downloads the engine.

What each side does: both get the same 54-card
decks (top card first; jokers included), play Version 2 (the JavaScript "revised" mode) and, at
every step, pick one action uniformly with a seeded generator from a list of every legal action:
Deckhand asks ``decisions()``, lists ``legal_moves(0)`` (its engine's listing of every legal
action) and plays ``apply(0, notation)``; the JavaScript driver lists the legal actions with the
engine's own functions (``royalSlots``, ``placements``, ``armourSlots``, the opening choice, draws
and ploys) and plays one with ``act``. Deckhand's random walk of ``choices`` (token by token,
labels and all, as the bench's per-game playouts do) is printed too, but not compared: the
JavaScript side has nothing like it. The rules differ in details, so games differ in length:
compare steps per second. Wall clock and CPU time are both printed (timings grow with the load
average; Node's CPU time counts its compiler and garbage-collector threads too).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

DRIVER = r"""
import { readFileSync } from "node:fs";
import * as E from "./engine.mjs";

const decks = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rounds = Number(process.argv[3] || 1);

function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function legal(s) {
  const out = [];
  const nonEmpty = [];
  for (let i = 0; i < 9; i++) if (s.grid[i].length) nonEmpty.push(i);
  if (s.stage === "mulligan") {
    out.push({ type: "keep" });
    for (const i of nonEmpty) out.push({ type: "replace", index: i });
    return out;
  }
  if (s.pending && E.royal(s.pending)) {
    for (const i of E.royalSlots(s)) out.push({ type: "royal", index: i });
    return out;
  }
  if (s.stage !== "play") return out;
  if (s.pending) {
    const places = E.placements(s);
    for (const i of places) out.push({ type: "place", index: i });
    for (const i of E.armourSlots(s)) out.push({ type: "armour", index: i });
    if (s.mode === "classic" && !places.length) for (const i of nonEmpty) out.push({ type: "reset", index: i });
  } else if (s.deck.length) {
    out.push({ type: "draw" });
  } else if (s.mode === "classic") {
    for (const i of nonEmpty) out.push({ type: "refill", index: i });
  }
  if (s.mode === "revised") {
    if (s.ploys.some((c) => c.rank === 1)) for (const i of nonEmpty) out.push({ type: "extract", index: i });
    if (s.ploys.some((c) => c.rank === 0))
      for (const from of nonEmpty) {
        const c = E.top(s.grid[from]);
        for (const i of E.placements(s, c)) if (i !== from) out.push({ type: "move", from, index: i });
      }
  }
  return out;
}

let steps = 0, games = 0, stuck = 0;
const start = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) {
  decks.forEach((deck, n) => {
    const rng = mulberry32(n + 1 + r * 100003);
    let s = E.createGame("revised", deck);
    for (let k = 0; k < 5000 && s.status === "playing"; k++) {
      const acts = legal(s);
      if (!acts.length) { stuck++; break; }
      s = E.act(s, acts[Math.floor(rng() * acts.length)]);
      steps++;
    }
    games++;
  });
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const used = process.cpuUsage(cpu0);
console.log(JSON.stringify({ steps, games, seconds, cpu: (used.user + used.system) / 1e6, stuck }));
"""


@dataclass
class Run:
    """One side's playouts: steps and games played, wall-clock and CPU seconds."""

    steps: int
    games: int
    seconds: float
    cpu: float
    stuck: int = 0

    @property
    def rate(self) -> float:
        return self.steps / self.seconds

    @property
    def cpu_rate(self) -> float:
        return self.steps / self.cpu


def same_decks(n: int) -> list[list[str]]:
    """``n`` shuffled 54-card decks (seeded), top card first."""
    from bot.engine import cards

    full = cards.deck(2)
    decks = []
    for i in range(n):
        deck = list(full)
        random.Random(i).shuffle(deck)
        decks.append(deck)
    return decks


def js_card(card: str) -> dict[str, object]:
    """A Deckhand card code as the JavaScript engine writes cards."""
    if card.startswith("JK"):
        i = 0 if card == "JK" else 1
        return {"id": f"X{i}", "suit": "X", "rank": 0}
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(card[0]) or int(card[0])
    return {"id": f"{card[1]}{rank}", "suit": card[1], "rank": rank}


def python_playouts(decks: list[list[str]], rounds: int = 1, walk: bool = False) -> Run:
    """Random playouts on Deckhand's engine: a uniform pick among the legal moves (as the
    JavaScript side does), or (``walk``) a random walk through ``choices`` as the bench does."""
    from bot.bench import random_action
    from bot.engine.registry import spec

    cls = spec("gridcannon").state
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    for r in range(rounds):
        for n, deck in enumerate(decks):
            rng = random.Random(n + 1 + r * 100003)
            game = cls.new(["P1"], seed=n, deck=deck)
            for _ in range(5000):
                if not game.decisions():
                    break
                move = random_action(game, 0, rng) if walk else rng.choice(game.legal_moves(0))
                game, _ = game.apply(0, move)
                steps += 1
            games += 1
    return Run(steps, games, time.perf_counter() - start, time.process_time() - cpu)


def node_version(node: str) -> str:
    return subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()


def node_playouts(engine: Path, decks: list[list[str]], rounds: int = 1, node: str | None = None) -> Run:
    """Random playouts on the JavaScript engine ``engine`` (a copy of ``engine.mjs``), run by
    Node.js in a temporary folder. Raises RuntimeError with the reason when it cannot run."""
    node = node or shutil.which("node")
    if node is None:
        raise RuntimeError("Node.js (node) is not on PATH")
    if not engine.is_file():
        raise RuntimeError(f"no engine.mjs at {engine}")
    with tempfile.TemporaryDirectory(prefix="gridcannon-js-") as tmp:
        folder = Path(tmp)
        shutil.copy(engine, folder / "engine.mjs")
        (folder / "driver.mjs").write_text(DRIVER)
        (folder / "decks.json").write_text(json.dumps([[js_card(c) for c in d] for d in decks]))
        done = subprocess.run([node, str(folder / "driver.mjs"), str(folder / "decks.json"), str(rounds)],
                              capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["(no output)"]
        error = next((line for line in lines if "Error" in line), lines[-1])  # "SyntaxError: …", not the stack
        raise RuntimeError(f"node failed: {error.strip()[:200]}")
    try:
        js = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        raise RuntimeError(f"the driver printed no figures: {done.stdout.strip()[-200:]!r}") from None
    return Run(js["steps"], js["games"], js["seconds"], js["cpu"], js["stuck"])


def figures(engine: str | None, quick: bool, report: Callable[[Any], None], figure: Callable[..., Any]) -> None:
    """The bench's comparison: both engines' random playouts (a random legal move) on the same
    decks in this run, and Deckhand's steps per CPU second over the JavaScript engine's (target ≥ 1;
    the wall-clock ratio beside it)."""
    games, rounds = 200, 1 if quick else 3
    name = f"gridcannon ÷ engine.mjs: random playouts, a random legal move ({games} decks × {rounds})"
    node = shutil.which("node")
    if not engine:
        why = "no engine.mjs given (--gridcannon-js PATH; never downloaded)"
    elif node is None:
        why = "Node.js (node) is not on PATH"
    else:
        decks = same_decks(games)
        try:
            js = node_playouts(Path(engine), decks, rounds, node)
            version = node_version(node)
            why = ""
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            why = str(e).replace("\n", " ")[:200]
    if why:
        report(figure(name, float("nan"), "×", 1, True, note=f"not measured: {why}"))
        return
    py = python_playouts(decks, rounds)
    report(figure(f"gridcannon: random playouts, a random legal move ({py.steps} steps; CPU {py.cpu_rate:.0f}/s)",
                  py.rate, "steps/s"))
    report(figure(f"engine.mjs (Node {version}), the same ({js.steps} steps; "
                  f"CPU {js.cpu_rate:.0f}/s)", js.rate, "steps/s"))
    # The verdict reads CPU time, which the load average of a shared machine disturbs least; the
    # wall-clock ratio is in the name.
    report(figure(f"{name}, CPU time (wall clock {py.rate / js.rate:.2f})", py.cpu_rate / js.cpu_rate, "×", 1, True))


URL = "https://raw.githubusercontent.com/GeekKingCloud/gridcannon-omarchy/HEAD/engine.mjs"


def engine_file(given: str | None, folder: Path) -> Path | None:
    path = given or os.environ.get("GRIDCANNON_JS_ENGINE")
    if path:
        return Path(path)
    target = folder / "engine.mjs"
    try:
        with urllib.request.urlopen(URL, timeout=20) as r:
            target.write_bytes(r.read())
        return target
    except OSError as e:
        print(f"Could not fetch {URL} ({e}). Download it by hand and pass --engine PATH.", file=sys.stderr)
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="decks (default 200)")
    ap.add_argument("--rounds", type=int, default=1, help="play every deck this many times")
    ap.add_argument("--engine", help="a copy of engine.mjs (else fetched into a temporary folder)")
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        print("Node.js (node) is not on PATH: the JavaScript side cannot run.", file=sys.stderr)
        return 2
    decks = same_decks(args.games)
    with tempfile.TemporaryDirectory(prefix="gridcannon-js-") as tmp:
        found = engine_file(args.engine, Path(tmp))
        if found is None or not found.exists():
            return 2
        try:
            js = node_playouts(found, decks, args.rounds, node)
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
    py = python_playouts(decks, args.rounds)
    walk = python_playouts(decks, args.rounds, walk=True)
    load = os.getloadavg()[0]
    print(f"Gridcannon random playouts on the same {args.games} decks × {args.rounds} (load average {load:.1f}):")
    for name, run in [("Deckhand (Python), a random legal move:     ", py),
                      ("Deckhand (Python), a random walk of choices:", walk),
                      (f"engine.mjs (Node {node_version(node)}), a random legal move:", js)]:
        print(f"  {name} {run.rate:8.0f} steps/s {run.games / run.seconds:7.1f} games/s  (CPU {run.cpu_rate:6.0f} "
              f"steps/s; {run.steps} steps, {run.seconds:.2f} s{f', {run.stuck} stuck' if run is js else ''})")
    for what, ratio in [("wall clock", py.rate / js.rate), ("CPU time", py.cpu_rate / js.cpu_rate)]:
        print(f"  Deckhand ÷ engine.mjs, a random legal move, steps/s ({what}): {ratio:.2f}  "
              f"{'PASS' if ratio >= 1 else 'FAIL'} (target ≥ 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
