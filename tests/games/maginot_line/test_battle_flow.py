"""A 3-player battle step by step: the defender engages, both commit, the state is reloaded (a
restart) between the commits, and the built-in player's choices come only from its view."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core import IllegalMove
from bot.engine.maginot_line import GAME, auto_move
from bot.engine.maginot_line.player import random_walk

from .helpers import act, begin, hand, public, resource, unit


def test_three_players_engage_commit_restart_commit():
    g = begin(3, aces={1: "AHACASAD"})
    resource(g, 1, "6D")
    a1 = unit(g, 0, "6H", "5S", "7C")
    a2 = unit(g, 0, "3H", "3S", "4C")
    gd = unit(g, 1, "4H", "3S", "4C", zone="guardian")
    gd2 = unit(g, 1, "2H", "2S", "2C", zone="guardian")
    hand(g, 0, "JC", "KC")
    hand(g, 1, "JH", "KS")
    g.phase = "battle"
    g, ev = act(g, 0, f"attack @1 {a1} #1@1 {a2} #2@1")
    assert [(d.seat, d.name, d.public) for d in g.decisions()] == [(1, "engage", False)]
    with pytest.raises(IllegalMove):
        g.apply(2, "engage")  # Cat is not in this battle
    g, ev = act(g, 1, f"engage {gd} {a1} {gd2} {a1}")
    assert "Initiative: Ana 0, Ben 6; Ben holds it." in public(ev)
    assert [(d.seat, d.name) for d in g.decisions()] == [(0, "commit")]
    assert g.decisions()[0].default == "commit split 4 3"
    g, ev = act(g, 0, f"commit JC@0 {a1} KC@0 {gd} split 7 3")
    assert "Ana's first commit: J♣ on [6♥ 5♠ 7♣]; K♣ on [4♥ 3♠ 4♣]; split 7 to" in public(ev)
    # restart: the table reloads the stored state between the commits
    g = GAME.from_json(json.loads(json.dumps(g.to_json())))
    assert [(d.seat, d.name) for d in g.decisions()] == [(1, "commit")]
    assert g.choices(1).tokens() == ["commit"]  # no K♦: no seize
    g, ev = act(g, 1, f"commit KS@1 {gd2} JH@1 #2@1")
    text = public(ev)
    assert "second commit" in text and "Outcome" in text
    assert g.unit(1, gd) is None  # 7 in, Armor 0 → destroyed
    assert g.unit(1, gd2)["wounds"] == 0  # K♠
    assert g.boards[1]["base"][1]["wounds"] == 1  # 4 in, 3 temporary life
    assert g.unit(0, a1)["wounds"] == 1  # 4 + 2 − 5
    assert g.battle is None and g.decisions()[0].seat == 0
    assert sorted(g.boards[0]["discard"]) == ["JC@0", "KC@0"]


def test_stale_commit_is_refused():
    g = begin()
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 1, "JS")
    hand(g, 0, "JC")
    g.phase = "battle"
    g, _ = act(g, 0, f"attack @1 {a} #1@1")
    g2, _ = act(g, 1, "commit")
    g3, _ = act(g2, 0, "commit")
    with pytest.raises(IllegalMove):
        g3.apply(1, "commit JS@1 #1@1")  # the battle is over: a stale answer


def test_built_in_player_beats_random():
    """A sample; the report measures 200+ games (see the closing note)."""
    wins = 0
    for seed in range(6):
        g = GAME.new(["P0", "P1"], ["rounds=0"], seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            d = rng.choice(g.decisions())
            move = auto_move(g, d.seat, rng) if d.seat == 0 else random_walk(g, d.seat, rng)
            g, _ = g.apply(d.seat, move)
        wins += g.outcome().winners == (0,)
    assert wins >= 5
