"""Gridcannon: seeded random and built-in playouts through the shared harness, with invariants."""

from __future__ import annotations

import random

import pytest

from bot.engine import cards
from bot.engine.core import Game, IllegalMove
from bot.engine.gridcannon import LOSS, WIN, GridcannonGame, auto_move
from bot.render import gridcannon as render
from tests.conftest import seeds
from tests.playout import choose_random, playout, renderers
from tests.games.copies import assert_copy_is_the_cores

G = GridcannonGame
RENDERERS = renderers(render)
VARIANTS = [i.name for i in G.Options.infos() if i.is_variant]


def invariant(g: G) -> None:
    deck = cards.deck(0 if "No Jokers" in g.options else 2)
    zone = list(g.pile) + [c for st in g.grid for c in st] + list(g.set_aside) + list(g.cycle) + list(g.shame)
    zone += [s["royal"] for s in g.slots if s["royal"]] + [c for s in g.slots for c in s["armour"]]
    zone += [p["card"] for p in g.stash] + ([g.pending] if g.pending else [])
    assert sorted(zone) == sorted(deck), "each card must be in exactly one zone"
    dead = sum(1 for s in g.slots if s["royal"] and s["dead"])
    living = sum(1 for s in g.slots if s["royal"] and not s["dead"])
    empty = sum(1 for s in g.slots if not s["royal"])
    assert dead + living + empty == 12
    assert all(not s["armour"] for s in g.slots if not s["royal"])
    assert 0 <= g.known_bottom <= len(g.pile)
    if g.classic:
        assert not g.stash
    out = g.outcome()
    if out is not None:
        assert out.details["kills"] == dead
        if g.phase == WIN:
            assert dead == 12 and out.winners == (0,)
            if g.classic:
                assert out.score == len(g.shame)
            elif "Stash Only" in g.options:
                assert out.score == sum(1 for p in g.stash if not p["spent"])
            else:
                assert out.score == g.max_ploys - sum(1 for p in g.stash if p["spent"])
        else:
            assert g.phase == LOSS and out.winners == () and out.score is None


def checking(chooser):
    """A chooser that also checks the invariant (for games played without per-step checks)."""

    def choose(game, seat, rng):
        invariant(game)
        return chooser(game, seat, rng)

    return choose


def test_random_playouts_version_2_checked_every_step():
    for seed in seeds(5):
        playout(G, ["p"], seed, chooser=choose_random, invariant=invariant, renderers=RENDERERS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playout_each_variant_checked_every_step(variant):
    # Renders are checked for the variants that change what they show (the rest share Version 2's).
    shows = variant in ("Memory Aid", "Classic (Old Version)", "Stash Only", "No Jokers", "Keep Ploys")
    playout(G, ["p"], 100, [variant], chooser=choose_random, invariant=invariant,
            renderers=RENDERERS if shows else ())


def test_many_random_playouts_invariants():
    # Plain Version 2 and every variant by turns (60 games in the long run, 20 otherwise), the invariant
    # checked at every step.
    for seed in seeds(60):
        k = seed % (len(VARIANTS) + 1)
        options = [VARIANTS[k - 1]] if k else []
        game, _ = playout(G, ["p"], 1000 + seed, options, chooser=checking(choose_random), check_every_step=False)
        invariant(game)


def test_auto_playouts():
    for seed in range(3):
        playout(G, ["p"], 200 + seed, chooser=auto_move, invariant=invariant, renderers=RENDERERS)
    for i, variant in enumerate(VARIANTS):
        for seed in seeds(3):
            game, _ = playout(G, ["p"], 300 + 10 * i + seed, [variant], chooser=checking(auto_move),
                              check_every_step=False)
            invariant(game)


def test_auto_move_beats_random():
    def run(chooser, seeds):
        kills = wins = 0
        for seed in seeds:
            g, _ = playout(G, ["p"], seed, chooser=chooser, check_every_step=False)
            out = g.outcome()
            kills += out.details["kills"]
            wins += bool(out.winners)
        return kills / len(seeds), wins

    seeds = range(5000, 5030)
    auto_kills, auto_wins = run(auto_move, seeds)
    rand_kills, rand_wins = run(choose_random, seeds)
    assert auto_kills > rand_kills + 2, (auto_kills, rand_kills)
    assert auto_wins >= rand_wins


def test_determinism():
    a, ma = playout(G, ["p"], 77, chooser=choose_random, check_every_step=False)
    b, mb = playout(G, ["p"], 77, chooser=choose_random, check_every_step=False)
    assert ma == mb and a.to_json() == b.to_json()
    c = G.new(["p"], seed=77)
    d = G.new(["p"], seed=77)
    assert c.to_json() == d.to_json() and c.pile == d.pile
    assert G.new(["p"], seed=78).pile != c.pile


def test_auto_move_is_deterministic_and_legal():
    g = G.new(["p"], seed=9)
    while not g.is_over():
        m1 = auto_move(g, 0, random.Random(g.move_count))
        m2 = auto_move(g, 0, random.Random(g.move_count))
        assert m1 == m2 and str(m1) in g.legal_moves(0)
        g, _ = g.apply(0, m1)


@pytest.mark.parametrize("options", [[], ["Classic (Old Version)"], ["Memory Aid"]])
def test_copy_is_the_cores_deep_copy(options):
    # copy() is hand-written for speed: at every step of a game it must equal the core's marshal
    # copy (_state) and share no list or dict with the original (a later move changes only the copy).
    game = G.new(["p"], options, seed=31)
    rng = random.Random(31)
    while not game.is_over():
        assert_copy_is_the_cores(game)  # the engine's own _state is to_json's
        game, _ = game.apply(0, rng.choice(game.legal_moves(0)))


class CorePath(G):
    """The engine with its hot-path shortcuts undone: the core's apply, copy, state, to_act, reopen and emit."""

    apply = Game.apply
    copy = Game.copy
    _state = Game._state
    to_act = Game.to_act
    _reopen = Game._reopen

    def _say(self, events, text):
        self.emit(events, text)
        self.last_lines = min(self.last_lines + 1, self.log_size)


def _refusal(game, seat, move):
    try:
        game.apply(seat, move)
    except IllegalMove as e:
        return e.reason, e.rule
    return None


@pytest.mark.parametrize("options", [[], ["Classic (Old Version)"], ["Memory Aid", "Keep Ploys"]])
def test_shortcuts_give_the_cores_result(options):
    # Gridcannon writes apply, copy, to_act, reopen and its journal lines out for speed: every step of
    # a game must give the same state, events and refusals as the core's general path.
    game = G.new(["p"], options, seed=5)
    rng = random.Random(5)
    odd = ["", "x" * 5000, "place r1c1", "draw", "royal T1", "keep", "fly away", "extract r2c2"]
    while True:
        core = CorePath(**game._state())
        assert core.decisions() == game.decisions() and core.to_act() == game.to_act()
        for seat, move in [(0, m) for m in odd] + [(1, "draw"), (-1, "draw")]:
            assert _refusal(game, seat, move) == _refusal(core, seat, move), move
        if game.is_over():
            break
        move = rng.choice(game.legal_moves(0))
        mine, events = game.apply(0, move)
        theirs, core_events = core.apply(0, move)
        assert mine.to_json() == theirs.to_json() and events == core_events
        assert mine.opened == theirs.opened and mine.decisions() == theirs.decisions()
        game = mine
