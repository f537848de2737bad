"""Seeded random playouts of Cardchess2 through ``choices`` only, with the contract checked at
every step: accepted actions, invariants, JSON round trip, replay, no leak, re-deal."""

from __future__ import annotations

import os

import pytest

from .helpers import play

N = int(os.environ.get("DECKHAND_PLAYOUTS", "200"))
OPTION_SETS = [
    (),
    ("Own decks",),
    ("Short range", "Pawn march"),
    ("Optional step", "Powers before suits", "Wide powers"),
    ("Remote enforcement", "Matched reinforcement", "Sudden goal"),
    ("out_of_play=14", "turn_cap=60"),
]


@pytest.mark.parametrize("block", range(4))
def test_random_playouts_default_rules(block):
    seeds = range(block, N, 4)
    ends = [play(seed)[0].outcome() for seed in seeds]
    assert all(o is not None for o in ends)


@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: "+".join(o))
def test_random_playouts_with_variants(options):
    for seed in range(max(10, N // 20)):
        g, record = play(1000 + seed, options)
        assert g.outcome() is not None and record
