"""``python -m bot strength GAME``: how the Easy and Strong levels fare against Normal.

Seeded games, one seat at the level under test and every other seat Normal, the level's seat
moving round the table from game to game. A win counts 1, a win shared by k seats 1/k, anything
else 0; the rate is printed with its 95 % Wilson interval. Gridcannon (solo): each level's own
win rate over the same deals.
"""

from __future__ import annotations

import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TextIO

from bot.engine.levels import choose
from bot.engine.registry import spec

MAX_MOVES = 20_000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    d = 1 + z * z / n
    return max(0.0, (centre - spread) / d), min(1.0, (centre + spread) / d)


@dataclass(frozen=True)
class Job:
    game_id: str
    players: int
    level: str
    index: int  # the game's number: its seed and the level's seat
    seed: int
    budget: float | None
    playouts: int | None


def play_one(job: Job) -> float:
    """One seeded game: the level's share of the win (a module-level function: a pool runs it)."""
    s = spec(job.game_id)
    me = job.index % job.players
    game_seed = job.seed * 1_000_003 + job.index
    game = s.state.new([f"Player {i + 1}" for i in range(job.players)], (), seed=game_seed)
    rng = random.Random(game_seed)
    for _ in range(MAX_MOVES):
        decisions = game.decisions()
        if not decisions:
            break
        seat = decisions[0].seat
        if seat == me:
            action = choose(job.level, game, seat, rng, budget=job.budget, playouts=job.playouts)
        else:
            action = s.player(game, seat, rng)
        game, _ = game.apply(seat, str(action))
    out = game.outcome()
    if out is None or me not in out.winners:
        return 0.0
    return 1 / len(out.winners)


@dataclass
class Rate:
    label: str
    wins: float
    games: int

    def line(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        return f"  {self.label:<34} {100 * rate:5.1f} %   95 % interval {100 * lo:5.1f}–{100 * hi:5.1f} %   " \
               f"({self.wins:g} of {self.games})"


def measure(game_id: str, games: int, players: list[int] | None = None, budget: float | None = None,
            playouts: int | None = None, seed: int = 1, workers: int = 1, levels: tuple[str, ...] = ("strong", "easy"),
            progress: TextIO | None = sys.stderr, every: float = 60.0) -> list[Rate]:
    """The rates: for each table size (default 2 and the largest; Gridcannon: solo) and each level
    (Gridcannon: Normal too), ``games`` seeded games. ``progress`` gets a line at each tenth of the
    games and at least every ``every`` seconds: the games played and the running rate."""
    s = spec(game_id)
    solo = s.max_players == 1
    if players is None:
        players = [1] if solo else sorted({max(2, s.min_players), s.max_players})
    for n in players:
        if not s.min_players <= n <= s.max_players:
            raise ValueError(f"{s.title} takes {s.min_players} to {s.max_players} players, not {n}.")
    if games < 1:
        raise ValueError(f"--games takes a number of games, 1 or more, not {games}.")
    order = (*levels, "normal") if solo and "normal" not in levels else levels
    jobs = [(n, level, [Job(game_id, n, level, i, seed, budget, playouts) for i in range(games)])
            for n in players for level in order]
    total = sum(len(j) for _, _, j in jobs)
    done = 0
    last = time.monotonic()
    out: list[Rate] = []
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for n, level, batch in jobs:
            results = pool.map(play_one, batch) if pool else map(play_one, batch)
            wins = 0.0
            who = f"{level.capitalize()} alone" if solo else f"{level.capitalize()} vs Normal, {n} players"
            for k, r in enumerate(results, 1):
                wins += r
                done += 1
                now = time.monotonic()
                if progress is not None and (progress.isatty() or done % max(1, total // 10) == 0
                                             or now - last >= every):
                    last = now
                    progress.write(f"\rstrength {game_id}: {done}/{total} games; {who}: {wins:g} of {k}"
                                   + ("" if progress.isatty() else "\n"))
                    progress.flush()
            out.append(Rate(who, wins, len(batch)))
    finally:
        if pool:
            pool.shutdown()
        if progress is not None and progress.isatty():
            progress.write("\n")
    return out


def report(game_id: str, rates: list[Rate], budget: float | None, playouts: int | None) -> str:
    s = spec(game_id)
    how = (f"{playouts} playouts a move" if playouts is not None else "") + \
        (" and " if playouts is not None and budget is not None else "") + \
        (f"{budget:g} s of CPU a move" if budget is not None else "")
    setting = "solo, over the same deals" if s.max_players == 1 else \
        "the level in one seat, Normal in the others, seats alternated; a shared win counts 1/k"
    head = f"{s.title}: win rates ({setting}; Strong: {how})"
    return "\n".join([head, *(r.line() for r in rates)])


def run(args: Any) -> int:
    budget, playouts = args.budget, args.playouts
    if budget is None and playouts is None:
        from bot.engine.levels import strong_budget

        budget = strong_budget()
    levels = tuple(dict.fromkeys(getattr(args, "level", None) or ("strong", "easy")))
    rates = measure(args.game, args.games, [args.players] if args.players else None, budget, playouts,
                    seed=args.seed, workers=args.workers, levels=levels, progress=sys.stderr)
    print(report(args.game, rates, budget, playouts))
    return 0
