"""The whole game as an animation in the bench: a 151-move Gridcannon game and a 130-move Maginot
Line game for two, played by the built-in players, each made into the animation its end message
carries (the public's eyes). Per game: the CPU seconds to make it (every step's view, every
frame drawn, the GIF written: what a picture process spends; target 1.5 s; and again, as a
process that drew the game's pictures before, its words' tiles kept), its size (target 4 MB), and
the share of a frame the GIF writes on average (each frame's changed box only)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bot.cli import default_players, play_auto
from bot.engine.registry import spec
from bot.records import make_record
from bot.render import animation, pictures
from bot.tables.replays import Replay, file_key

CPU_TARGET_S = 1.5
SIZE_TARGET_MB = 4.0
# (game, players, options, seed): seeds whose games are as long as the figures say
GAMES = (("gridcannon", 1, (), 19), ("maginot_line", 2, ("rounds=6",), 65))


def finished_record(game_id: str, players: int, options: tuple[str, ...], seed: int) -> dict[str, Any]:
    s = spec(game_id)
    game = s.state.new(default_players(game_id, players), s.state.check_options(list(options)), seed=seed)
    game, moves = play_auto(game, random.Random(seed))
    return make_record(game, moves, status="finished")


def animation_figures(quick: bool, report: Callable[[Any], None], Figure: Callable[..., Any]) -> None:  # noqa: N803
    pictures.warm()  # as a picture process is before it takes work
    largest = (0.0, "")
    for game_id, players, options, seed in GAMES[:1] if quick else GAMES:
        record = finished_record(game_id, players, options, seed)
        replay = Replay(file_key(record), record)
        moves = replay.last
        started = time.process_time()
        made = animation.draw(game_id, replay.frames(None))
        cpu = time.process_time() - started
        title = f"{game_id}: animation of a {moves}-move game"
        if made is None:
            report(Figure(f"{title}, CPU", float("nan"), "s", CPU_TARGET_S, note="not measured: nothing drawn"))
            continue
        report(Figure(f"{title}, CPU", cpu, "s", CPU_TARGET_S))
        again = time.process_time()
        animation.draw(game_id, replay.frames(None))  # a process that drew this game's words before
        report(Figure(f"{title}, CPU, drawn a second time (its words' tiles kept)", time.process_time() - again, "s"))
        report(Figure(f"{title}, size ({made.fmt})", len(made.data) / 1e6, "MB"))
        largest = max(largest, (len(made.data) / 1e6, game_id))
        if made.fmt == "gif":
            written = animation.boxes(made.data)
            full = written[0][2] * written[0][3]
            share = sum(w * h for _, _, w, h in written[1:]) / max(1, len(written) - 1) / full
            report(Figure(f"{title}, frame area written (changed box)", share * 100, "%"))
    report(Figure(f"animations: the largest ({largest[1]})", largest[0], "MB", SIZE_TARGET_MB))
