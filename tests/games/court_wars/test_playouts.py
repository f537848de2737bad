"""Random and built-in playouts of Court Wars: invariants, no leaks, replay, determinism."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.engine import cards
from bot.engine.court_wars import GAME, NO_JOKERS, SAME_VALUE, CourtWarsGame, auto_move, guard_value
from bot.render import court_wars as render
from tests.games.court_wars.test_contract import check_knowledge
from tests.conftest import LONG_TESTS, seeds
from tests.playout import choose_random, renderers
from tests.playout import playout as checked_playout
from tests.games.copies import assert_copy_is_the_cores

PLAYERS = ["Ana", "Ben", "Cat", "Dee"]
RENDERERS = renderers(render)


def playout(*args, **kw):
    """The shared playout; Court Wars' log tells history (under Shuffle Recycle it may name a card
    seen on the discard pile and since shuffled into the hidden draw pile, ruling 19)."""
    return checked_playout(*args, history_log=True, **kw)


OPTION_SETS = [
    (),
    ("No Jokers",),
    ("Same-Value",),
    ("Shuffle Recycle",),
    ("Single Ace",),
    ("rounds=5",),
    ("No Jokers", "Same-Value", "Shuffle Recycle", "Single Ace", "first=1"),
]


def invariant(g: CourtWarsGame) -> None:
    """Every card in exactly one place; stacks well formed; counters consistent."""
    seen = list(g.draw_pile) + list(g.discard_pile) + ([g.pending] if g.pending else [])
    for seat, positions in enumerate(g.courts):
        for i, p in enumerate(positions):
            assert p["court"] == "KQJ"[i] + g.suits[seat]
            seen.append(p["court"])
            seen += p["guards"]
            if p["joker"]:
                seen.append(p["joker"])
            assert all(guard_value(c) for c in p["guards"])
            values = [guard_value(c) for c in p["guards"]]
            if SAME_VALUE in g.options:
                assert values == sorted(values, reverse=True)
            else:
                assert all(a > b for a, b in zip(values, values[1:], strict=False))
            assert (p["joker"] is not None) == (p["state"] == "jokered")
            if p["state"] == "defeated":
                assert not p["guards"]
        assert g.eliminated[seat] == (not g.living(seat))
    full = cards.deck(0 if NO_JOKERS in g.options else 2)
    assert Counter(seen) == Counter(full), (Counter(seen) - Counter(full), Counter(full) - Counter(seen))
    assert (g.pending is not None) == (g.phase in ("guard", "joker"))
    if g.is_over():
        assert g.winners and all(not g.eliminated[s] for s in g.winners)
    else:
        assert not g.eliminated[g.current]
        assert sum(not e for e in g.eliminated) >= 2


def full_invariant(g: CourtWarsGame) -> None:
    """The invariant and, for every recipient, no view, log or offered label placing a card it
    may not know. The renders are read by the playout's own leak check, given ``RENDERERS``
    (reading them here too would render every step twice)."""
    invariant(g)
    check_knowledge(g, [])


def no_resign(g, seat, rng):
    moves = [m for m in g.legal_moves(seat) if m != "resign"]
    return rng.choice(moves)


def checking(chooser, every: int = 25, offered: bool = False):
    """Invariant at every step; JSON round-trip and the leak check on a sample of steps
    (the harness's per-step checks are too slow for hundreds of long games). ``offered``: the
    move must be one ``legal_moves`` lists (for a chooser that does not pick from them: a move
    walked through ``choices`` or picked from ``legal_moves`` is one by construction)."""
    count = [0]

    def choose(g, seat, rng):
        invariant(g)
        count[0] += 1
        if count[0] % every == 0:
            data = json.loads(json.dumps(g.to_json()))
            assert CourtWarsGame.from_json(data).to_json() == g.to_json()
            check_knowledge(g, [], RENDERERS)
        move = str(chooser(g, seat, rng))
        if offered:
            assert move in g.legal_moves(seat)
        return move

    return choose


def unresigning_playouts(seeds, options, max_moves: int):
    """Random playouts that never resign, on 2, 3 and 4 seats by turns, each checked by
    :func:`checking`: (game, moves) each."""
    for seed in seeds:
        n = 2 + seed % 3
        yield playout(GAME, PLAYERS[:n], seed, options(seed), chooser=checking(no_resign),
                      check_every_step=False, max_moves=max_moves)


def test_random_playouts_full_checks():
    for seed in seeds(8):
        n = 2 + seed % 3
        g, _ = playout(GAME, PLAYERS[:n], seed, OPTION_SETS[seed % len(OPTION_SETS)],
                       invariant=full_invariant, renderers=RENDERERS)
        assert g.outcome() is not None


@pytest.mark.parametrize("block", range(3))
def test_random_playouts_many(block):
    # 33 games in three tests in the long run (two workers stay busy): seeds 24 to 56, every pair of an
    # option set (seed % 7) and a table size (2 + seed % 3) at least once; the contract suite plays 200 more.
    for seed in seeds(11, 24 + block, 3):
        n = 2 + seed % 3
        g, _ = playout(GAME, PLAYERS[:n], seed, OPTION_SETS[seed % len(OPTION_SETS)],
                       chooser=checking(choose_random), check_every_step=False)
        invariant(g)


def test_random_playouts_without_resigning_end_under_the_round_limit():
    reasons = Counter()
    for g, _ in unresigning_playouts(range(12), lambda seed: OPTION_SETS[seed % len(OPTION_SETS)], 5000):
        invariant(g)
        reasons[g.end_reason] += 1
        if g.end_reason == "stalemate":
            assert g.quiet_rounds >= g.opts.rounds
    assert reasons["last_standing"] and reasons["stalemate"]


def test_full_checks_on_some_long_games_with_recycling():
    recycled = 0
    for seed, n in [(1, 2), (2, 3), (3, 4)]:
        g, _ = playout(GAME, PLAYERS[:n], seed, OPTION_SETS[seed], chooser=no_resign,
                       invariant=full_invariant, renderers=RENDERERS)
        recycled += g.recycled > 0
        if recycled and not LONG_TESTS:
            break  # the first game that recycles is enough, but in the long run
    assert recycled


def test_random_playouts_with_the_limit_off():
    for g, _ in unresigning_playouts(seeds(9), lambda seed: ("rounds=0",), 10_000):
        assert g.end_reason == "last_standing"


def test_auto_playouts():
    reasons = Counter()
    for seed in seeds(20):
        n = 2 + seed % 3
        g, _ = playout(GAME, PLAYERS[:n], seed, OPTION_SETS[seed % len(OPTION_SETS)],
                       chooser=checking(auto_move, offered=True), check_every_step=False,
                       max_moves=3000)
        invariant(g)
        reasons[g.end_reason] += 1
    assert reasons["last_standing"] > reasons["stalemate"]
    for seed in range(3):
        g, _ = playout(GAME, PLAYERS[: 2 + seed], seed, ("rounds=0",), chooser=checking(auto_move, offered=True),
                       check_every_step=False)
        assert g.end_reason == "last_standing"
    g, _ = playout(GAME, PLAYERS[:3], 99, (), chooser=auto_move, invariant=full_invariant, renderers=RENDERERS)


def test_determinism_same_seed_same_game():
    a, ma = playout(GAME, PLAYERS[:3], 1234, ("Shuffle Recycle",), chooser=no_resign, check_every_step=False)
    b, mb = playout(GAME, PLAYERS[:3], 1234, ("Shuffle Recycle",), chooser=no_resign, check_every_step=False)
    assert ma == mb and a.to_json() == b.to_json()
    c, _ = playout(GAME, PLAYERS[:3], 1235, ("Shuffle Recycle",), chooser=no_resign, check_every_step=False)
    assert c.to_json() != a.to_json()


def test_auto_move_beats_random():
    wins = 0
    games = 40
    for seed in range(games):
        auto_seat = seed % 2

        def chooser(g, seat, rng, auto_seat=auto_seat):
            return auto_move(g, seat, rng) if seat == auto_seat else no_resign(g, seat, rng)

        g, _ = playout(GAME, PLAYERS[:2], seed, (), chooser=chooser, check_every_step=False)
        wins += auto_seat in g.outcome().winners
    assert wins >= games * 0.75, wins


def test_auto_move_is_deterministic_given_rng():
    g = CourtWarsGame.new(PLAYERS[:4], seed=8)
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(200):
        if g.is_over():
            break
        seat = g.current
        move = auto_move(g, seat, rng_a)
        assert move == auto_move(g, seat, rng_b)
        g, _ = g.apply(seat, move)


@pytest.mark.parametrize("players, options", [(2, []), (3, [NO_JOKERS]), (4, [SAME_VALUE])])
def test_copy_is_the_cores_deep_copy(players, options):
    # copy() and _state() are hand-written for speed: at every step of a game they must equal the
    # core's marshal copy and share no list or dict with the original (a later move changes only the copy).
    game = CourtWarsGame.new([f"P{i + 1}" for i in range(players)], options, seed=43)
    rng = random.Random(43)
    steps = 0
    while not game.is_over() and steps < 400:
        assert_copy_is_the_cores(game)
        seat = min(game.to_act())
        game, _ = game.apply(seat, auto_move(game, seat, rng))
        steps += 1
    assert steps > 20
