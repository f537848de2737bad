"""Seeded random playouts of Cardchess2 through ``choices`` only, with the contract checked at
every step: every action reached is accepted, invariants, JSON round trip, no leak in views and
events; every 20th step also the whole view text, ``apply`` leaving its input alone, and a
re-deal of what the seat cannot see (same choices, same built-in choice); replay at the end.

``DECKHAND_PLAYOUTS`` (default 48 in the long run, 16 otherwise) is the total: half with the rulebook's
defaults, half spread over the variants and settings."""

from __future__ import annotations

import os
import random

import pytest

from bot.engine.cardchess2 import GAME, auto_move
from tests.conftest import LONG_TESTS
from tests.games.copies import assert_copy_is_the_cores

from .helpers import PLAYERS, choose_random, play

N = int(os.environ.get("DECKHAND_PLAYOUTS", "48" if LONG_TESTS else "16"))  # the contract suite plays 200 more
VARIANT_SETS = [
    ("Own decks",),
    ("Short range", "Pawn march"),
    ("Optional step", "Powers before suits", "Wide powers"),
    ("Remote enforcement", "Matched reinforcement", "Sudden goal"),
    ("out_of_play=14", "turn_cap=60"),
]


@pytest.mark.parametrize("block", range(8))
def test_random_playouts_default_rules(block):
    seeds = range(block, N // 2, 8)
    ends = [play(seed)[0] for seed in seeds]
    assert ends and all(g.outcome() is not None for g in ends)


@pytest.mark.parametrize("options", VARIANT_SETS, ids=lambda o: "+".join(o))
def test_random_playouts_with_variants(options):
    games = [play(1000 + seed, options) for seed in range(max(1, N // 2 // len(VARIANT_SETS)))]
    assert all(g.outcome() is not None and record for g, record in games)


def test_built_in_player_beats_a_random_player():
    wins = 0
    games = 40
    for seed in range(games):
        g = GAME.new(PLAYERS, [], seed=seed)
        rng = random.Random(seed)
        bot = seed % 2
        while not g.is_over():
            seat = sorted(g.to_act())[0]
            move = auto_move(g, seat, rng) if seat == bot else choose_random(g, seat, rng)
            g, _ = g.apply(seat, move)
        wins += bot in g.outcome().winners
    assert wins > games * 0.75


def test_built_in_player_playouts_keep_the_contract():
    for seed in range(6):
        g, record = play(500 + seed, (), chooser=auto_move)
        assert g.outcome() is not None and record


@pytest.mark.parametrize("options", [[], ["Own decks"]])
def test_copy_is_the_cores_deep_copy(options):
    # copy() and _state() are hand-written for speed: at every step of a game they must equal the
    # core's marshal copy, share no list or dict with the original (a later move changes only the copy)
    # and keep nothing worked out for the original.
    game = GAME.new(list(PLAYERS), options, seed=47)
    rng = random.Random(47)
    steps = 0
    while not game.is_over() and steps < 300:
        game.choices(min(game.to_act()), ())  # something worked out and kept for this state
        twin = assert_copy_is_the_cores(game)
        assert "_memo" not in vars(twin)
        seat = min(game.to_act())
        game, _ = game.apply(seat, auto_move(game, seat, rng))
        steps += 1
    assert steps > 10
