"""Seeded random playouts through ``choices`` only, checked at every step (TESTING.md 2 and 3)."""

from __future__ import annotations

import os

import pytest

from bot.engine.maginot_line.model import MaginotOptions

from tests.conftest import LONG_TESTS

from .contract import playout

COUNT = int(os.environ.get("DECKHAND_PLAYOUTS", "60" if LONG_TESTS else "20"))  # the contract suite plays 200 more
VARIANTS = [[], ["Mobile defence"], ["Top only"], ["Diamond initiative"], ["Hand limit"], ["Teams"]]


def _case(i: int):
    n = (2, 4, 6, 3, 5)[i % 5]
    opts = list(VARIANTS[i % len(VARIANTS)])
    if opts == ["Teams"] and n not in (4, 6):
        opts = []
    return n, opts + [f"rounds={1 + i % 3}"]


@pytest.mark.parametrize("i", range(COUNT))
def test_random_playout(i):
    n, opts = _case(i)
    MaginotOptions.parse(opts).check_players(n)
    # Every third game has the built-in player in seat 0, so battles come early in short games.
    g, record = playout(n, seed=1000 + i, options=opts, forfeit_at=(30 + i) if i % 7 == 3 else None,
                        bots=(0,) if i % 3 == 0 else (), redeal_every=4, views_every=1 if i < 6 else 2)
    assert g.is_over() and record


@pytest.mark.parametrize("n", [2, 3])
def test_full_games_with_built_in_players(n):
    """Whole games to the end (eliminations, victory) with the built-in player on some seats."""
    g, record = playout(n, seed=77 + n, options=["rounds=0"], bots=(0,), redeal_every=10, views_every=5)
    out = g.outcome()
    assert out is not None and out.winners
    assert any(b["out"] for b in g.boards)
