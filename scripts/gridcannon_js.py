"""Gridcannon random playouts: Deckhand's engine against an independent JavaScript engine on the
same decks (steps per second, games per second).

The JavaScript engine is the public file ``engine.mjs`` of GeekKingCloud/gridcannon-omarchy on
GitHub (a Gridcannon for the Omarchy desktop). It is not part of Deckhand and is never committed:
this script fetches it at run time into a temporary folder, or reads the copy you name:

    python scripts/gridcannon_js.py --games 200
    python scripts/gridcannon_js.py --engine /path/to/engine.mjs      # a copy placed by hand
    GRIDCANNON_JS_ENGINE=/path/to/engine.mjs python scripts/gridcannon_js.py

To place it by hand: download
https://raw.githubusercontent.com/GeekKingCloud/gridcannon-omarchy/HEAD/engine.mjs anywhere
outside the repository. Needs Node.js 18+ (``node`` on PATH).

Both engines get the same 54-card decks (top card first; jokers included) and play random
legal actions until the game ends: Deckhand's through ``choices`` (as the bench does), the
JavaScript one by listing its legal actions (``royalSlots``, ``placements``, ``armourSlots``, the
opening choice, draws and ploys) and picking one with a seeded generator. The rules differ in
details, so games differ in length: compare steps per second.
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
from pathlib import Path

URL = "https://raw.githubusercontent.com/GeekKingCloud/gridcannon-omarchy/HEAD/engine.mjs"

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


def js_card(card: str) -> dict[str, object]:
    if card.startswith("JK"):
        i = 0 if card == "JK" else 1
        return {"id": f"X{i}", "suit": "X", "rank": 0}
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(card[0]) or int(card[0])
    return {"id": f"{card[1]}{rank}", "suit": card[1], "rank": rank}


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


def python_playouts(decks: list[list[str]], rounds: int, walk: bool = False) -> tuple[int, int, float]:
    """Random playouts on Deckhand's engine: a uniform pick among the legal moves (as the
    JavaScript side does), or (``walk``) a random walk through ``choices`` as the bench does."""
    from bot.bench import random_action
    from bot.engine.registry import spec

    cls = spec("gridcannon").state
    steps = games = 0
    start = time.perf_counter()
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
    return steps, games, time.perf_counter() - start


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
    from bot.engine import cards

    full = cards.deck(2)
    decks = []
    for i in range(args.games):
        deck = list(full)
        random.Random(i).shuffle(deck)
        decks.append(deck)
    with tempfile.TemporaryDirectory(prefix="gridcannon-js-") as tmp:
        folder = Path(tmp)
        found = engine_file(args.engine, folder)
        if found is None or not found.exists():
            return 2
        if found != folder / "engine.mjs":
            shutil.copy(found, folder / "engine.mjs")
        (folder / "driver.mjs").write_text(DRIVER)
        (folder / "decks.json").write_text(json.dumps([[js_card(c) for c in d] for d in decks]))
        done = subprocess.run([node, str(folder / "driver.mjs"), str(folder / "decks.json"), str(args.rounds)],
                              capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        js = json.loads(done.stdout.strip().splitlines()[-1])
    steps, games, seconds = python_playouts(decks, args.rounds)
    wsteps, wgames, wseconds = python_playouts(decks, args.rounds, walk=True)
    load = os.getloadavg()[0]
    print(f"Gridcannon random playouts on the same {args.games} decks × {args.rounds} (load average {load:.1f}):")
    print(f"  Deckhand (Python), a random legal move:      {steps / seconds:10.0f} steps/s  {games / seconds:8.1f} "
          f"games/s  ({steps} steps, {seconds:.2f} s)")
    print(f"  Deckhand (Python), a random walk of choices: {wsteps / wseconds:10.0f} steps/s  "
          f"{wgames / wseconds:8.1f} games/s  ({wsteps} steps, {wseconds:.2f} s)")
    print(f"  engine.mjs (Node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}):"
          f" {js['steps'] / js['seconds']:10.0f} steps/s  {js['games'] / js['seconds']:8.1f} games/s  "
          f"({js['steps']} steps, {js['seconds']:.2f} s, {js['stuck']} stuck)")
    ratio = (steps / seconds) / (js["steps"] / js["seconds"])
    print(f"  Deckhand ÷ engine.mjs, steps/s: {ratio:.2f}  {'PASS' if ratio >= 1 else 'FAIL'} (target ≥ 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
