"""The replay viewer's step in the bench: a finished game of each kind replayed from its record,
every step's frame (reader, picture, message) made going forward (first visits: pictures drawn),
then again going back (cached); the target is a cached step under 50 ms."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.engine.registry import spec
from bot.records import make_record
from bot.render import pictures
from bot.tables.replays import Replay, Viewing, eyes_for, file_key
from bot.ui import replay as viewer

GAMES = ("court_wars", "cardchess2", "maginot_line")
STEP_TARGET_MS = 50.0


def finished_record(game_id: str, seed: int = 4) -> dict[str, Any]:
    """A game of ``game_id`` played to its end by the built-in players, as its record."""
    s = spec(game_id)
    players = [f"Player {i + 1}" for i in range(max(2, s.min_players))]
    game = s.state.new(players, s.quick_options, seed=seed)
    rng = random.Random(seed)
    moves: list[list[Any]] = []
    for _ in range(5000):
        if game.is_over():
            break
        seat = min(game.to_act())
        move = str(s.player(game, seat, rng))
        game, _ = game.apply(seat, move)
        moves.append([seat, move])
    return make_record(game, moves, status="finished")


async def replay_figures(quick: bool, report: Callable[[Any], None], figure: Callable[..., Any]) -> None:
    await pictures.prepare()
    slowest = (0.0, "")
    for game_id in GAMES[:1] if quick else GAMES:
        record = finished_record(game_id)
        replay = await asyncio.to_thread(Replay, file_key(record), record)
        viewing = Viewing(replay, eyes_for(game_id, replay.players))
        steps = min(len(record["moves"]), 40 if quick else 120)
        first, cached = [], []
        for step in range(steps + 1):
            t = time.perf_counter()
            await viewer.frame(viewing, step, None)
            first.append(time.perf_counter() - t)
        for step in range(steps, -1, -1):
            t = time.perf_counter()
            await viewer.frame(viewing, step, None)
            cached.append(time.perf_counter() - t)
        report(figure(f"{game_id}: replay step, first visit (picture drawn), p50", statistics.median(first) * 1000,
                      "ms"))
        report(figure(f"{game_id}: replay step, cached, max of {len(cached)}", max(cached) * 1000, "ms"))
        slowest = max(slowest, (max(cached) * 1000, game_id))
    report(figure(f"replay step, cached: the slowest ({slowest[1]})", slowest[0], "ms", STEP_TARGET_MS))
