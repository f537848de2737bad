"""The animation checks shared by the render and Discord secrecy tests: the frames a reader saw,
made from a record replayed through the engine, and the steps where an animation differs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.registry import spec
from bot.records import FORFEIT
from bot.render.animation import Frame, caption_text, frame_images, read_frames


def expected_frames(record: dict[str, Any], seat_at: Any, lang: str = "en") -> list[Frame]:
    """Every step's frame as ``seat_at(step, game)`` read it then, from the engine itself: the
    game replayed from the record, its view and the step's events for that reader."""
    s = spec(record["game"])
    game = s.state.new(record["players"], record["options"], seed=record["seed"])
    last = len(record["moves"])
    out, events, mover = [], [], ""
    for step in range(last + 1):
        if step:
            seat, move = record["moves"][step - 1]
            game, events = game.forfeit(seat) if move == FORFEIT else game.apply(seat, move)
            mover = record["players"][seat]
        who = seat_at(step, game)
        lines = tuple(t for t in (e.for_(who) for e in events) if t)
        out.append(Frame(game.view(who), caption_text(step, last, mover, lines, lang), lang))
    return out


def mismatches(game_id: str, data: bytes, expected: Sequence[Frame]) -> list[int]:
    """The steps whose frame in the animation ``data`` is not, pixel for pixel, the frame drawn
    from ``expected`` (a frame equal to the one before is merged into it by the writer: so here)."""
    want: list[tuple[int, Any]] = []
    for step, im in enumerate(frame_images(game_id, expected)):
        if want and im.tobytes() == want[-1][1].tobytes():
            continue
        want.append((step, im))
    got = read_frames(data)
    if len(got) != len(want):
        return [step for step, _ in want]
    return [step for (step, w), g in zip(want, got, strict=True) if w.convert("RGB").tobytes() != g.tobytes()]
