"""The cache of games: a hit on a game held as an object makes it the most recent (the one packed
next is another); a kind's size is walked on its first game, once in ``every`` after, and once in
``every * later`` once it has settled."""

from __future__ import annotations

from unittest import mock

from bot.store import TableRow
from bot.tables import games
from bot.tables.games import SizeEstimate, _GameCache, _Packed
from tests.test_game_cache import _game


def test_a_hit_on_a_live_game_keeps_it_and_packs_the_least_recent():
    cache = _GameCache(live=2)
    rows = [TableRow(i, None, "maginot_line", "playing", 0, [], [], i, table_id=f"t{i}", revision=5) for i in range(3)]
    found = [_game(5, seed=i) for i in range(3)]
    cache.put(rows[0], found[0])
    cache.put(rows[1], found[1])
    assert cache.get(rows[0]) is found[0]  # an object: the very same, now the most recent
    cache.put(rows[2], found[2])  # a third live game: the least recent (t1, not t0) is packed
    assert cache.get(rows[0]) is found[0] and isinstance(cache._games["t1"][1], _Packed)
    assert list(cache._live) == ["t2", "t0"]
    back = cache.get(rows[1])
    assert back.to_json() == found[1].to_json() and list(cache._live) == ["t0", "t1"]


def test_a_kinds_size_is_walked_less_often_once_settled():
    walked = []
    with mock.patch.object(games, "deep_size", side_effect=lambda obj: walked.append(obj) or 1000 + len(walked)):
        sizes = SizeEstimate(every=4, settle=3, later=5)
        for n in range(60):
            sizes.of("kind", n)
    # the first, then once in 4 for the first 12 puts, then once in 20
    assert walked == [0, 4, 8, 20, 40]
    assert sizes.known("kind") >= 1001 and sizes.known("other") == sizes.default
