"""Random and built-in playouts of The Knight, the Rogue, the Princess and the Dragon."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from bot.engine.knight_rogue_princess_dragon import ALL_CARDS, GAME, auto_move
from bot.render.knight_rogue_princess_dragon import panel, text
from tests.playout import choose_random, playout

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
RENDERERS = (text, lambda v: panel(v).as_text())
OPTION_SETS = [
    (),
    ("Newest on Top",),
    ("Loose Passing",),
    ("Open Race",),
    ("Free Choice",),
    ("Last Word",),
    ("Open Race", "Free Choice", "Newest on Top"),
    ("Loose Passing", "Last Word", "opener=2"),
]


def invariant(g) -> None:
    zones = [c for p in g.own for c in p] + [c for p in g.showing for c in p]
    zones += [c for p in g.received for c in p] + list(g.story_pile)
    if g.card is not None:
        zones.append(g.card)
    counts = Counter(zones)
    if g.ended_early is None:
        assert sorted(counts) == sorted(ALL_CARDS) and set(counts.values()) == {1}, counts
    for s, suit in enumerate("SHDC"):
        assert all(c[1] == suit for c in g.own[s] + g.showing[s] + g.used[s])
        assert len(g.own[s]) + len(g.showing[s]) + len(g.used[s]) == 4
        assert set(g.used[s]).isdisjoint(g.own[s] + g.showing[s])
    assert len(g.story_by) == len(g.story_pile)
    assert 0 <= g.passes <= 4
    tellings = [e for e in g.transcript if e["kind"] in ("opening", "tell")]
    assert len(tellings) == sum(len(u) for u in g.used) - (1 if g.step == "tell" else 0)


def checking(chooser):
    """A chooser that also checks the invariant, for the games played without per-step checks."""

    def choose(g, seat, rng):
        invariant(g)
        return chooser(g, seat, rng)

    return choose


def check_finished(g, options) -> None:
    tellers = [e["seat"] for e in g.transcript if e["kind"] in ("opening", "tell")]
    assert len(tellers) == 16 and Counter(tellers) == Counter({0: 4, 1: 4, 2: 4, 3: 4})
    assert g.transcript[-1]["kind"] == "close" and g.transcript[-1]["seat"] == g.story_by[-1]
    if "Loose Passing" not in options:
        # No dead end: the story never jams, nobody tells twice in a row, S receives 3, others 4.
        assert all(a != b for a, b in pairwise(tellers))
        in_play = len(g.story_pile) - 1
        held = sum(len(r) for r in g.received) + in_play
        assert held == 15
    out = g.outcome()
    assert out is not None and out.details["story_pile"] == g.story_pile
    if "Last Word" in options:
        assert out.winners == (g.story_by[-1],) and out.score == 1
    else:
        assert out.winners == ()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_playouts(options):
    # 320 games in all; the full per-step checks (JSON, no leak, renders) on the first few.
    for seed in range(40):
        g, moves = playout(GAME, PLAYERS, seed, options, chooser=checking(choose_random), invariant=invariant,
                           renderers=RENDERERS, check_every_step=seed < 3)
        check_finished(g, options)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_auto_playouts(options):
    for seed in range(7):
        g, moves = playout(GAME, PLAYERS, 1000 + seed, options, chooser=checking(auto_move),
                           invariant=invariant, renderers=RENDERERS, check_every_step=seed < 2)
        check_finished(g, options)
        assert all(len(m) < 60 for _, m in moves)


def test_no_dead_end_guarantee_received_counts():
    import random

    for seed in range(200):
        g = GAME.new(PLAYERS, seed=seed)
        rng = random.Random(seed)
        while g.step != "wrapup":
            seat = rng.choice(sorted(g.to_act()))
            moves = g.legal_moves(seat) or [f"{p.verb} Line." for p in g.prompts(seat)]
            assert moves
            g, _ = g.apply(seat, rng.choice(moves))
        assert [len(r) for r in g.received] == [3 if s == g.starter else 4 for s in range(4)]


def test_determinism():
    a, ma = playout(GAME, PLAYERS, 4242, ("Open Race",))
    b, mb = playout(GAME, PLAYERS, 4242, ("Open Race",))
    assert ma == mb and a.to_json() == b.to_json()
