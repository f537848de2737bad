"""The built-in player against itself: N seeded games, who wins, how long, and how often K♠ went
on an Ace (and what became of the Ace). Prints figures, asserts nothing (not a test).

    python -m tests.games.maginot_line.measure_player [games] [players]
"""

from __future__ import annotations

import random
import statistics
import sys

from bot.engine.maginot_line import SPEC


def play(n: int, seed: int, cap: int = 20000) -> dict:
    g = SPEC.state.new([f"P{i}" for i in range(n)], ["rounds=100"], seed=seed)
    rng = random.Random(seed)
    ks_ace = ks_ace_lost = 0
    for _ in range(cap):
        if g.is_over():
            break
        seat = min(g.to_act())
        g, events = g.apply(seat, SPEC.player(g, seat, rng))
        text = [e.for_(None) or "" for e in events]
        for k, t in enumerate(text):
            if t.startswith("Outcome:"):
                for part in t.split("; "):
                    if "Ace #" in part and "K♠" in part:
                        ks_ace += 1
                        if any(" loses " in x for x in text[k + 1:]):
                            ks_ace_lost += 1
    out = g.outcome()
    return {"over": out is not None, "winners": out.winners if out else (), "turns": g.turn_count,
            "rounds": g.rounds_done, "ks_ace": ks_ace, "ks_ace_lost": ks_ace_lost}


def main(games: int = 200, n: int = 2) -> None:
    rs = [play(n, 5000 + i) for i in range(games)]
    done = [r for r in rs if r["over"]]
    wins = [0] * n
    for r in done:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    limit = sum(1 for r in done if r["rounds"] >= 100)
    turns = [r["turns"] for r in done]
    print(f"{games} games, {n} players (seeds 5000..{5000 + games - 1}): finished {len(done)}, "
          f"on the round limit {limit}")
    print("wins by seat: " + ", ".join(f"seat {s}: {w:.1f} ({w / max(1, len(done)):.0%})" for s, w in enumerate(wins)))
    print(f"turns: median {statistics.median(turns):.0f}, mean {statistics.mean(turns):.1f}, "
          f"min {min(turns)}, max {max(turns)}")
    print(f"K♠ on an Ace: {sum(r['ks_ace'] for r in rs)} times in {sum(1 for r in rs if r['ks_ace'])} games; "
          f"an Ace lost in the same battle: {sum(r['ks_ace_lost'] for r in rs)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
