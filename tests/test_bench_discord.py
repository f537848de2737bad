"""The bench's Discord part works end to end, small: the bot and the floor in processes of their
own, driven through the stand-in by simulated players; every figure is printed, nothing failed,
nothing was lost. (Its timings are the bench's to print; nothing here asserts a speed.)"""

from __future__ import annotations

import math

import pytest

from bot.bench import Figure, percentile
from bot.benchkit.discord_road import discord_figures


@pytest.mark.long  # four bot processes, their picture processes and a restart: ~40 s wall, ~20 s CPU
async def test_the_discord_bench_plays_tables_through_the_standin_and_prints_its_figures() -> None:
    figures: list[Figure] = []
    await discord_figures(True, figures.append, Figure, percentile, tables=3, seconds=1.5, due=4)
    by_name = {f.name: f for f in figures}
    assert len(by_name) == len(figures) == 18
    assert sum(1 for f in figures if f.target is not None) <= 15
    errors = by_name["errors (unanswered presses, errors logged), all runs"]
    lost = by_name["lost updates (table message ≠ stored table)"]
    assert (errors.value, lost.value) == (0, 0)
    # Every table due was handled (a table whose game had just ended is not due: 3 or 4 of the 4).
    handled = [f for f in figures if f.name.startswith("sweep: ") and f.name.endswith(", handled")]
    assert len(handled) == 1 and handled[0].value == int(handled[0].name.split()[1]) >= 3, handled
    for f in figures:
        assert not math.isnan(f.value) and f.value >= 0, f
    assert by_name["burst: interactions a second, one process"].value > 0
    assert by_name["CPU per interaction, the floor (one DynamicItem button)"].value > 0
    assert by_name["event loop held at most by one step or collection (CPU), all runs"].value > 0  # the steps are timed
