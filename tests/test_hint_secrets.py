"""`/game hint` tells nothing the player cannot know: with every card the seat to act has not seen
re-dealt among their places, the hint — action and reason — is word for word the same."""

from __future__ import annotations

import pytest

from bot.engine.hints import hint_sentence
from tests.render.pictures import POSITIONS, positions, redeal


@pytest.mark.parametrize("game_id", list(POSITIONS))
def test_a_hint_does_not_change_when_unseen_cards_are_redealt(game_id: str) -> None:
    states = positions(game_id)
    checked = moved_total = 0
    for game in states[:: max(1, len(states) // 15)]:
        if game.is_over() or not game.to_act():
            continue
        seat = min(game.to_act())
        told = hint_sentence(game, seat)
        for k in range(3):
            other, moved = redeal(game, seat, seed=100 * checked + k)
            moved_total += moved
            assert hint_sentence(other, seat) == told, (game_id, seat, told)
        checked += 1
    assert checked >= 5, "enough positions were checked"
    assert moved_total > 0, "some unseen cards were really moved"


@pytest.mark.parametrize("game_id", ["maginot_line", "court_wars", "cardchess2", "gridcannon", "celestial_emperor",
                                     "knight_rogue_princess_dragon"])
def test_a_plan_is_given_when_the_move_has_no_aim_and_tells_no_secret(game_id: str) -> None:
    """A plan (what to build or aim for next) comes from the seat's own view: with the unseen cards
    re-dealt it is word for word the same; it is given at some positions, not at all."""
    from bot.engine.hints import hint, plan

    states = [g for g in positions(game_id) if not g.is_over() and g.to_act()]
    planned = 0
    for k, game in enumerate(states):
        seat = min(game.to_act())
        aim = plan(game, seat, hint(game, seat)[0])
        if aim is None:
            continue
        planned += 1
        told = hint_sentence(game, seat)
        assert told.endswith(f"Plan: {aim}.") and "@" not in aim
        other, _ = redeal(game, seat, seed=k)
        assert hint_sentence(other, seat) == told
    assert 0 < planned < len(states), (planned, len(states))
