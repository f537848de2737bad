"""A player's lesson (its presses, revision-checked) and the lesson offered once, on both back ends."""

from __future__ import annotations


async def test_a_lesson_is_kept_revision_checked(store):
    assert await store.lesson(5, "maginot_line") is None
    assert await store.save_lesson(5, "maginot_line", [["aces AD AC AS AH"]], None)
    assert not await store.save_lesson(5, "maginot_line", [["x"]], None)  # one lesson a game: a second start loses
    assert await store.lesson(5, "maginot_line") == ([["aces AD AC AS AH"]], 1)
    assert await store.save_lesson(5, "maginot_line", [["aces AD AC AS AH"], ["resource TD", "resource 4D"]], 1)
    assert not await store.save_lesson(5, "maginot_line", [["stale"]], 1)  # a press from an older message
    assert await store.lesson(5, "maginot_line") == ([["aces AD AC AS AH"], ["resource TD", "resource 4D"]], 2)
    assert await store.save_lesson(5, "maginot_line", [], 2)  # started again
    assert await store.lesson(5, "maginot_line") == ([], 0)
    assert await store.lesson(6, "maginot_line") is None and await store.lesson(5, "gridcannon") is None
    big = 2**62
    assert await store.save_lesson(big, "gridcannon", [["draw"]], None)
    assert await store.lesson(big, "gridcannon") == ([["draw"]], 1)


async def test_a_lesson_is_offered_once_per_player_and_game(store):
    assert await store.offer_lesson(5, "maginot_line")
    assert not await store.offer_lesson(5, "maginot_line")
    assert await store.offer_lesson(5, "gridcannon")
    assert await store.offer_lesson(6, "maginot_line")
