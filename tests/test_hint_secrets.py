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
