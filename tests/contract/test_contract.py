"""One suite, run against every registered game (as OpenSpiel runs random_sim_test on all its
games): seeded random playouts driven only through ``choices``, every step checked.

``DECKHAND_PLAYOUTS`` sets the playouts per game (default 20; 200 with DECKHAND_LONG_TESTS=1, as CI
runs it), spread over the player counts the game allows; the figures are printed at the end of the run.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from bot.engine.core import Choices, Decision, IllegalMove, View, walk_choices
from bot.engine.levels import choose
from bot.engine.options import Options
from bot.engine.registry import GAME_IDS, spec
from tests.conftest import LONG_TESTS
from tests.contract.harness import Playout, card_universe, random_action, redeal

PLAYOUTS = int(os.environ.get("DECKHAND_PLAYOUTS", "200" if LONG_TESTS else "20"))
SHARDS = 25 if PLAYOUTS > 100 else 10  # each game's playouts are split into this many tests (a few seconds
# each), so both workers stay busy to the end


def player_counts(game_id: str) -> list[int]:
    s = spec(game_id)
    return sorted({s.min_players, (s.min_players + s.max_players) // 2, s.max_players})


CASES = [(g, shard) for g in GAME_IDS for shard in range(SHARDS)]


@pytest.mark.parametrize("game_id, shard", CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_random_playouts_through_choices(game_id, shard):
    """Playouts finish; every action reached through choices is accepted; the JSON round-trips
    and replays at every step; no view, event, log or label (at every step of a walk through the
    picker) names a card its recipient may not know, at every step; no text render or panel does,
    and re-dealing what the public or a deciding seat cannot see changes nothing it is shown,
    offered or refused, at the steps checked in full (every kind of step of every playout: see
    harness.FULL_FIRST); bad input changes nothing."""
    s = spec(game_id)
    counts = player_counts(game_id)
    seeds = [i for i in range(PLAYOUTS) if i % SHARDS == shard]
    for i in seeds:
        n = counts[i % len(counts)]
        seed = 1000 * (GAME_IDS.index(game_id) + 1) + i
        options = (*random_variants(s, n, random.Random(seed)), *s.quick_options)
        Playout(s, n, seed=seed, options=options, bot_seat=(i // 3) % n if i % 3 == 0 else None).run()


def random_variants(s, n: int, rng: random.Random) -> tuple[str, ...]:
    """A random set of the game's variants that its options accept together (often none)."""
    names = [i.name for i in s.options.infos() if i.is_variant]
    for _ in range(5):
        chosen = tuple(n for n in names if rng.random() < 0.2)
        try:
            s.options.parse(chosen).check_players(n)
            return chosen
        except IllegalMove:
            continue
    return ()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spec_is_complete(game_id):
    s = spec(game_id)
    assert s.id == game_id and s.title and s.credit and s.summary
    assert 1 <= s.min_players <= s.max_players <= 6
    assert issubclass(s.options, Options) and s.state.Options is s.options
    assert s.actions and all(a.verb and a.help for a in s.actions)
    assert s.command and s.command == s.command.lower() and " " not in s.command
    rules = s.rules_text()
    assert s.credit.split(" (")[0].split(",")[0] in rules or s.title in rules
    assert len(s.rules_sections()) >= 3
    for info in s.options.infos():
        assert info.help, f"option {info.name} has no help text"
    assert "../" not in rules and "/work/" not in rules


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_options_round_trip_and_refuse_nonsense(game_id):
    s = spec(game_id)
    every = [i.name for i in s.options.infos() if i.is_variant]
    for name in every:
        try:
            opts = s.options.parse([name])
        except IllegalMove:
            continue  # a variant that needs another one (validate says so)
        assert s.options.parse(opts.dump()) == opts
    with pytest.raises(IllegalMove):
        s.options.parse(["No Such Variant"])
    with pytest.raises(IllegalMove) as e:
        s.options.parse(["x" * 5000])
    assert len(str(e.value)) < 300


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_and_decisions_are_typed(game_id):
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(s.max_players)], seed=5)
    for r in [None, *range(s.max_players)]:
        v = game.view(r)
        assert isinstance(v, View) and v.seat == r and v.game == game_id
    for d in game.decisions():
        assert isinstance(d, Decision) and d.name
        c = game.choices(d.seat, ())
        assert isinstance(c, Choices) and not c.empty


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_determinism_and_a_whole_game_by_the_built_in_player(game_id):
    s = spec(game_id)
    names = [f"P{i + 1}" for i in range(s.min_players if s.min_players > 1 else 1)]

    def play(seed: int) -> list[str]:
        game = s.state.new(names, seed=seed)
        rng = random.Random(seed)
        out = [json.dumps(game.to_json(), sort_keys=True)]
        for _ in range(5000):
            if game.is_over():
                return out
            seat = min(game.to_act())
            game, _ = game.apply(seat, str(s.player(game, seat, rng)))
            out.append(json.dumps(game.to_json(), sort_keys=True))
        raise AssertionError("the built-in player never finished")

    assert play(3) == play(3)
    assert play(3) != play(4)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_walked_choices_are_exactly_the_legal_actions_early_on(game_id):
    """For the first few decisions: every complete action walk_choices finds is accepted, and a
    random mutation of a legal action that choices does not offer is refused."""
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(s.min_players)], seed=9)
    rng = random.Random(9)
    for _ in range(6):
        if game.is_over():
            break
        seat = min(game.to_act())
        offered = {" ".join(t) for t in walk_choices(game, seat, limit=2000)}
        for action in list(offered)[:50]:
            game.apply(seat, action)  # accepted
        for action in list(offered)[:20]:
            broken = action + " extra"
            if broken not in offered:
                with pytest.raises(IllegalMove):
                    game.apply(seat, broken)
        game, _ = game.apply(seat, random_action(game, seat, rng))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_redeal_keeps_every_view_it_should(game_id):
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(s.max_players)], seed=21)
    universe = card_universe(game)
    for r in [None, *range(s.max_players)]:
        other = redeal(game, r, random.Random(1), universe)
        assert repr(other.view(r)) == repr(game.view(r))


def positions(game_id: str, players: int, seed: int, stops: tuple[int, ...]):
    """States of a game played by the Normal player, at the given move numbers (seeded)."""
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(players)], s.quick_options, seed=seed)
    rng = random.Random(seed)
    for step in range(max(stops) + 1):
        if game.is_over():
            return
        if step in stops:
            yield game
        seat = game.decisions()[0].seat
        game, _ = game.apply(seat, str(s.player(game, seat, rng)))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_strong_and_easy_choose_the_same_on_a_state_re_dealt_for_their_seat(game_id):
    """Strong (a fixed seed and a small playout cap) and Easy pick the same action on the real
    state and on one where every card the seat cannot see was re-dealt: they never read a hidden
    card (the "built-in pick compared" check of the playouts, for the other levels)."""
    s = spec(game_id)
    compared = 0
    for players in sorted({s.min_players, s.max_players}):
        for game in positions(game_id, players, seed=31 + players, stops=(0, 3, 9, 25)):
            universe = card_universe(game)
            for d in game.decisions():
                other = redeal(game, d.seat, random.Random(compared), universe)
                for level in ("strong", "easy"):
                    mine = str(choose(level, game, d.seat, random.Random(7), playouts=3))
                    theirs = str(choose(level, other, d.seat, random.Random(7), playouts=3))
                    assert mine == theirs, f"{level} peeked at move {game.move_count}: {mine!r} vs {theirs!r}"
                    compared += 1
    assert compared >= 4
