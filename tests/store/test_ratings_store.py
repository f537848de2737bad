"""Ratings on both back ends: read by (guild, game, users), saved once per game with the check
that nobody's rating moved meanwhile, a leaderboard by the conservative value with a minimum of
games, a player's ratings and place, the finished records in date order, one-off jobs."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Seat
from bot.store.base import PlayerRating, StaleRatings
from tests.store.helpers import row

G = 555


def pr(user: int, ordinal: float, games: int, name: str = "", game: str = "court_wars", guild: int = G,
       change: int = 0) -> PlayerRating:
    return PlayerRating(guild, game, user, name or f"P{user}", ordinal + 9.0, 3.0, ordinal, games, change, 100.0 + games)


async def test_a_game_is_saved_once_and_read_back(store):
    assert await store.ratings(G, "court_wars", [1, 2]) == {}
    assert not await store.is_rated("t1")
    first = [pr(1, 5.0, 1, "Ana", change=69), pr(2, -4.0, 1, "Ben", change=-37)]
    assert await store.save_ratings("t1", G, "court_wars", first, {1: 0, 2: 0}, 100.0)
    assert await store.is_rated("t1")
    assert await store.ratings(G, "court_wars", [1, 2, 3]) == {1: first[0], 2: first[1]}
    again = [pr(1, 50.0, 2, "Ana"), pr(2, 50.0, 2, "Ben")]
    assert not await store.save_ratings("t1", G, "court_wars", again, {1: 1, 2: 1}, 200.0), "a game is rated once"
    assert await store.ratings(G, "court_wars", [1, 2]) == {1: first[0], 2: first[1]}
    # The same users elsewhere are other ratings: another game, another server.
    assert await store.ratings(G, "cardchess2", [1, 2]) == {}
    assert await store.ratings(G + 1, "court_wars", [1, 2]) == {}


async def test_a_rating_that_moved_meanwhile_refuses_the_whole_save(store):
    await store.save_ratings("t1", G, "court_wars", [pr(1, 5.0, 1)], {1: 0}, 100.0)
    with pytest.raises(StaleRatings):  # computed from "no rating yet", but user 1 has one game now
        await store.save_ratings("t2", G, "court_wars", [pr(1, 9.0, 1), pr(2, 1.0, 1)], {1: 0, 2: 0}, 200.0)
    assert not await store.is_rated("t2"), "nothing of a refused save is kept, its key neither"
    assert set(await store.ratings(G, "court_wars", [1, 2])) == {1}
    assert await store.save_ratings("t2", G, "court_wars", [pr(1, 9.0, 2), pr(2, 1.0, 1)], {1: 1, 2: 0}, 200.0)
    assert (await store.ratings(G, "court_wars", [1]))[1].games == 2


async def test_concurrent_saves_of_one_player_count_each_game_once(store):
    """Two games of the same player saved at once from the same reading: one wins, the other is
    told to read again (never a lost update)."""
    outcomes = await asyncio.gather(*(store.save_ratings(f"t{i}", G, "court_wars", [pr(1, float(i), 1)], {1: 0}, 1.0)
                                      for i in range(6)), return_exceptions=True)
    assert sum(o is True for o in outcomes) == 1
    assert all(isinstance(o, StaleRatings) for o in outcomes if o is not True)
    assert (await store.ratings(G, "court_wars", [1]))[1].games == 1


async def test_leaderboard_by_conservative_value_with_a_minimum_of_games(store):
    rows = [pr(1, 10.0, 5), pr(2, 12.0, 4), pr(3, 11.0, 9), pr(4, 11.0, 6), pr(5, 11.0, 6), pr(6, -2.0, 30),
            pr(7, 99.0, 50, game="cardchess2"), pr(8, 99.0, 50, guild=G + 1)]
    for i, r in enumerate(rows):
        await store.save_ratings(f"t{i}", r.guild_id, r.game, [r], {r.user_id: 0}, 1.0)
    board = await store.leaderboard(G, "court_wars", min_games=5)
    # 2 has too few games; 3, 4 and 5 tie on value: more games first, then the lower id.
    assert [r.user_id for r in board] == [3, 4, 5, 1, 6]
    assert [r.user_id for r in await store.leaderboard(G, "court_wars", min_games=1, limit=2)] == [2, 3]
    assert [await store.rating_place(G, "court_wars", u, min_games=5) for u in (3, 4, 5, 1, 6, 2, 99)] == [
        1, 2, 3, 4, 5, None, None]
    assert await store.rating_place(G, "court_wars", 2, min_games=1) == 1
    assert await store.leaderboard(G, "gridcannon") == []


async def test_a_players_ratings_in_every_game_or_one(store):
    for i, (game, guild) in enumerate([("maginot_line", G), ("court_wars", G), ("cardchess2", G + 1)]):
        await store.save_ratings(f"t{i}", guild, game, [pr(1, 3.0, 2, game=game, guild=guild)], {1: 0}, 1.0)
    assert [r.game for r in await store.player_ratings(G, 1)] == ["court_wars", "maginot_line"]
    assert [r.game for r in await store.player_ratings(G, 1, "maginot_line")] == ["maginot_line"]
    assert await store.player_ratings(G, 2) == []


async def test_names_follow_the_latest_game(store):
    await store.save_ratings("t1", G, "court_wars", [pr(1, 1.0, 1, "Ana")], {1: 0}, 1.0)
    await store.save_ratings("t2", G, "court_wars", [pr(1, 2.0, 2, "Ana B.")], {1: 1}, 2.0)
    assert (await store.ratings(G, "court_wars", [1]))[1].name == "Ana B."


async def test_finished_records_in_the_order_they_finished_with_their_results(store):
    for channel, guild in ((1, G), (2, None), (3, G)):
        t = row(channel, guild_id=guild, game="court_wars", status="finished",
                seats=[Seat(7, "Ana"), Seat(-1, "Deckhand bot 1"), Seat(8, "Ben")])
        await store.save(t, None, {"format": 1, "game": "court_wars", "players": ["Ana", "Deckhand bot 1", "Ben"]},
                         "finished", [(7, "Ana", "win"), (8, "Ben", "loss")])
    await store.save(row(4, guild_id=G, status="abandoned"), None, {"format": 1}, "abandoned", [])
    # Make the finishing times out of insertion order: record 3 finished first.
    await store.execute("UPDATE records SET finished_at = 10 WHERE channel_id = 3")
    await store.execute("UPDATE records SET finished_at = 20 WHERE channel_id = 1")
    await store.execute("UPDATE records SET finished_at = 30 WHERE channel_id IN (2, 4)")
    first = await store.finished_records(None, 2)
    assert [r.finished_at for r in first] == [10.0, 20.0]
    rest = await store.finished_records((first[-1].finished_at, first[-1].id), 10)
    assert [r.finished_at for r in rest] == [30.0, 30.0] and rest[0].id < rest[1].id
    assert await store.finished_records((rest[-1].finished_at, rest[-1].id), 10) == []
    r = first[0]
    assert (r.guild_id, r.game, r.result, r.record["players"]) == (G, "court_wars", "finished",
                                                                   ["Ana", "Deckhand bot 1", "Ben"])
    assert r.table_id and sorted(r.results) == [(7, "Ana", "win"), (8, "Ben", "loss")]
    assert [x.guild_id for x in rest] == [None, G] and rest[1].result == "abandoned" and rest[1].results == ()


async def test_a_job_is_marked_done_once(store):
    assert not await store.job_done("rate_history")
    await store.mark_job_done("rate_history")
    await store.mark_job_done("rate_history")
    assert await store.job_done("rate_history")
    assert not await store.job_done("something else")
