"""The built-in player's levels: Easy and Strong play legal actions in every game, Strong's
settings, the strength command's plumbing (a tiny run)."""

from __future__ import annotations

import random

import pytest

from bot.__main__ import main
from bot.engine.levels import LEVELS, choose, strong_budget
from bot.engine.registry import GAME_IDS, spec
from bot.engine.strong import sample
from bot.engine.determinize import card_universe
from bot.strength import wilson


def states(game_id: str, players: int, seed: int, every: int, count: int):
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(players)], s.quick_options, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not game.is_over() and count:
        if step % every == 0:
            yield game
            count -= 1
        seat = game.decisions()[0].seat
        game, _ = game.apply(seat, str(s.player(game, seat, rng)))
        step += 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_level_plays_a_legal_action_at_various_points(game_id):
    s = spec(game_id)
    checked = 0
    for players in sorted({s.min_players, s.max_players}):
        for game in states(game_id, players, seed=11, every=7, count=6):
            for d in game.decisions():
                for level in LEVELS:
                    action = choose(level, game, d.seat, random.Random(checked), playouts=3)
                    game.apply(d.seat, str(action))  # raises IllegalMove if not legal
                    checked += 1
    assert checked >= 9


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_whole_game_with_easy_in_one_seat_finishes(game_id):
    s = spec(game_id)
    n = max(2, s.min_players) if s.max_players > 1 else 1
    game = s.state.new([f"P{i + 1}" for i in range(n)], s.quick_options, seed=4)
    rng = random.Random(4)
    for _ in range(20_000):
        if game.is_over():
            break
        seat = game.decisions()[0].seat
        game, _ = game.apply(seat, str(choose("easy" if seat == 0 else "normal", game, seat, rng)))
    assert game.is_over()


def test_strong_is_reproducible_with_a_playout_cap_and_differs_from_normal_somewhere():
    s = spec("court_wars")
    differ = 0
    for game in states("court_wars", 2, seed=3, every=3, count=8):
        seat = game.decisions()[0].seat
        a = str(choose("strong", game, seat, random.Random(5), playouts=12))
        assert a == str(choose("strong", game, seat, random.Random(5), playouts=12))
        differ += a != str(s.player(game, seat, random.Random(5)))
    assert differ >= 1  # it searches, not only replays Normal's pick


def test_a_sample_keeps_what_the_seat_knows_and_moves_what_it_does_not():
    game = next(states("court_wars", 2, seed=8, every=1, count=1))
    universe = card_universe(game)
    known = game.known(0)
    other = sample(game, 0, random.Random(1), universe, known, game.to_json())
    assert repr(other.view(0)) == repr(game.view(0))
    assert other.to_json()["state"] != game.to_json()["state"]
    assert card_universe(other) == universe


def test_unknown_level_and_strong_budget_setting(monkeypatch):
    game = spec("court_wars").state.new(["A", "B"], seed=1)
    with pytest.raises(ValueError):
        choose("grandmaster", game, 0, random.Random(1))
    monkeypatch.setenv("DECKHAND_STRONG_SECONDS", "0.25")
    assert strong_budget() == 0.25
    monkeypatch.setenv("DECKHAND_STRONG_SECONDS", "nonsense")
    assert strong_budget() == 1.0


def test_wilson_interval():
    lo, hi = wilson(70, 100)
    assert lo < 0.7 < hi and 0.60 < lo < 0.61 and 0.78 < hi < 0.79
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_strength_command_runs_a_tiny_series(capsys):
    assert main(["strength", "celestial_emperor", "--games", "2", "--players", "2", "--playouts", "2"]) == 0
    out = capsys.readouterr().out
    assert "Strong vs Normal, 2 players" in out and "Easy vs Normal, 2 players" in out and "95 % interval" in out
    assert main(["strength", "gridcannon", "--games", "1", "--playouts", "2"]) == 0
    out = capsys.readouterr().out
    assert "Strong alone" in out and "Normal alone" in out and "Easy alone" in out
    assert main(["strength", "court_wars", "--games", "0"]) == 2


def test_bench_reports_strong_playouts_per_second_untargeted():
    from bot.bench import Figure
    from bot.benchkit.levels import playout_figures

    figures: list = []
    playout_figures(True, figures.append, Figure)
    assert {f.name.split(":")[0] for f in figures} == set(GAME_IDS) - {"knight_rogue_princess_dragon"}
    assert all(f.target is None and f.value > 0 and f.unit == "playouts/s" for f in figures)


def test_bench_reports_strong_win_rate_untargeted_with_its_interval_and_games():
    from bot.bench import Figure
    from bot.benchkit.levels import strong_rate_figure

    figures: list = []
    strong_rate_figure(figures.append, Figure, games=2, budget=0.01)
    (f,) = figures
    assert f.name.startswith("court_wars: Strong's win rate vs Normal at 0.01 s a move") and "of 2 games, 95 %" in f.name
    assert f.target is None and f.unit == "%" and 0 <= f.value <= 100
