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
engines --gridcannon-js PATH`` prints the same comparison (it never downloads the file).

What each side does (the harness is ``bot/benchkit/gridcannon_js.py``): both get the same 54-card
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
import os
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

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
    from bot.benchkit.gridcannon_js import node_playouts, node_version, python_playouts, same_decks

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
