"""Ratings on both back ends: read by (guild, game, users), saved once per game with the check
that nobody's rating moved meanwhile, a leaderboard by the conservative value with a minimum of
games, a player's ratings and place, the finished records in date order, one-off jobs."""

from __future__ import annotations

import asyncio
import importlib
import random
from dataclasses import replace

import pytest

from bot.engine.registry import spec
from bot.ratings import MIN_GAMES, RatingChange, bot_skill, display, rate_history, rateable, record_result
from bot.store import Seat, SQLiteStore, TableRow
from bot.store.base import PlayerRating, StaleRatings
from bot.tables import Actor, is_bot
from bot.tables.games import load_game
from bot.tables.service import TableService
from bot.tables.reader import TableFacts
from bot.ui.ratings import change_lines, leaderboard_embed, lobby_lines, rating_embed
from tests.store.helpers import row, schema1_database


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


# ----- rating finished games: live, and the history of a database made before ratings -----------
PEOPLE = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat", "Dee"])]


async def play(service: TableService, channel: int, guild: int | None, game: str, people: list[Actor], bots: int = 0,
               options: tuple[str, ...] = (), seed: int = 1, leave_at: tuple[int, Actor] | None = None) -> TableRow:
    """A whole game through the table service, each person playing the built-in player's choice;
    ``leave_at=(n, who)``: ``who`` leaves after ``n`` moves (a forfeit)."""
    await service.new_table(channel, guild, people[0], game, list(options), seed=seed)
    for p in people[1:]:
        await service.join(channel, p)
    for _ in range(bots):
        await service.add_bot(channel, people[0])
    await service.start(channel, people[0])
    rng = random.Random(seed)
    player = spec(game).player
    by_id = {p.user_id: p for p in people}
    for n in range(5000):
        t = await service.get(channel)
        if t.status != "playing":
            return t
        if leave_at is not None and n == leave_at[0]:
            await service.leave(channel, leave_at[1])
            continue
        g = load_game(t)
        seat = min(s for s in g.to_act() if not is_bot(t.seats[s].user_id))
        await service.move(channel, by_id[t.seats[seat].user_id], str(player(g, seat, rng)))
    raise AssertionError(f"the {game} game did not finish")


async def history(service: TableService, after_each=None) -> list[TableRow]:
    """A few finished games of a server (a bot opponent, a forfeit, a shared result), one in a DM
    and one abandoned; ``after_each(table)`` is called when each game has finished."""
    games = [
        dict(channel=1, guild=G, game="cardchess2", people=PEOPLE[:2], options=("turn_cap=80",), seed=1),
        dict(channel=2, guild=G, game="court_wars", people=PEOPLE[:2], seed=2),
        dict(channel=3, guild=G, game="court_wars", people=PEOPLE[:3], bots=1, seed=3, leave_at=(6, PEOPLE[2])),
        dict(channel=4, guild=G, game="knight_rogue_princess_dragon", people=PEOPLE[:4], seed=4),
        dict(channel=5, guild=None, game="cardchess2", people=PEOPLE[:2], options=("turn_cap=80",), seed=5),
        dict(channel=1, guild=G, game="cardchess2", people=[PEOPLE[1], PEOPLE[0]], options=("turn_cap=80",), seed=6),
        dict(channel=6, guild=G, game="cardchess2", people=PEOPLE[:1], bots=1, options=("turn_cap=80",), seed=7),
    ]
    done = []
    for kw in games:
        t = await play(service, **kw)
        done.append(t)
        if after_each is not None:
            await after_each(t)
    # An abandoned game has a record too; it is never rated.
    await service.new_table(7, G, PEOPLE[0], "court_wars", seed=8)
    await service.join(7, PEOPLE[1])
    await service.start(7, PEOPLE[0])
    await service.abandon(7, PEOPLE[0])
    return done


def unrated(store) -> TableService:
    """A table service that leaves rating to the test (the real one rates every game it ends)."""
    service = TableService(store)
    service.rates_games = False
    return service


def table_of(rows: list[tuple]) -> dict[tuple, tuple]:
    return {(g, game, u): (round(mu, 9), round(sigma, 9), games) for g, game, u, mu, sigma, games in rows}


RATINGS_SQL = "SELECT guild_id, game, user_id, mu, sigma, games FROM ratings"


async def test_a_finished_game_is_rated_once_with_the_changes_in_seat_order(store):
    service = unrated(store)
    t = await play(service, 3, G, "court_wars", PEOPLE[:3], bots=1, seed=3, leave_at=(6, PEOPLE[2]))
    game = load_game(t)
    assert t.status == "finished" and game.forfeited == [2]
    changes = await record_result(store, t, game)
    assert [c.user_id for c in changes] == [100, 101, 102], "the people, in seat order; never the bot"
    assert all(c.before == 1000 and c.games == 1 for c in changes)
    by_user = {c.user_id: c for c in changes}
    assert by_user[102].delta < 0 and by_user[102].after == min(c.after for c in changes), "the leaver is last"
    winner = t.seats[game.outcome().winners[0]].user_id
    if winner > 0:
        assert by_user[winner].after == max(c.after for c in changes)
    stored = await store.ratings(G, "court_wars", [100, 101, 102, -1])
    assert set(stored) == {100, 101, 102}
    assert {u: (r.games, r.last_change, display(r.mu, r.sigma)) for u, r in stored.items()} == {
        c.user_id: (1, c.delta, c.after) for c in changes}
    assert await store.is_rated(t.table_id)
    assert await record_result(store, t, game) == [], "a second call rates nothing"
    assert await store.ratings(G, "court_wars", [100, 101, 102]) == stored


async def test_games_that_are_not_rated(store):
    service = unrated(store)
    dm = await play(service, 5, None, "cardchess2", PEOPLE[:2], options=("turn_cap=80",), seed=5)
    assert await record_result(store, dm, load_game(dm)) == [], "a DM has no server"
    await service.new_table(7, G, PEOPLE[0], "court_wars", seed=8)
    await service.join(7, PEOPLE[1])
    await service.start(7, PEOPLE[0])
    gone = (await service.abandon(7, PEOPLE[0])).table
    assert await record_result(store, gone, load_game(gone)) == [], "an abandoned game"
    t = await play(service, 1, G, "cardchess2", PEOPLE[:2], options=("turn_cap=80",), seed=1)
    assert not rateable(replace(t, series={"daily": "2026-11-25"})), "the daily deal"
    assert not rateable(replace(t, seats=t.seats[:1])), "a game for one"
    assert not rateable(replace(t, seats=[Seat(-1, "Deckhand bot 1"), Seat(-2, "Deckhand bot 2")])), "bots only"
    assert await store.player_ratings(G, 100) == []


async def test_history_of_a_database_made_before_ratings_is_rated_once_as_if_live(backend, monkeypatch, tmp_path):
    """A database of today's schema (every migration before the ratings one) with finished games
    in it: opened with ratings, ``rate_history`` rates each finished server game once, in the
    order they finished, to exactly the ratings live rating would have given."""
    module = importlib.import_module(f"bot.store.{backend.name}")
    full = module.MIGRATIONS
    at = next(i for i, m in enumerate(full) if "ratings" in m[1])
    before_ratings = full[:at]  # the schema as it was before ratings (later migrations come after it)
    assert before_ratings and all("ratings" not in m[1] for m in before_ratings)
    monkeypatch.setattr(module, "MIGRATIONS", before_ratings)
    monkeypatch.setattr(module, "SCHEMA_VERSION", before_ratings[-1][0])
    old = await backend.open()
    played = await history(unrated(old))
    await old.close()
    monkeypatch.setattr(module, "MIGRATIONS", full)
    monkeypatch.setattr(module, "SCHEMA_VERSION", full[-1][0])

    # The same games, rated live as each one ends, on a database with ratings from the start.
    other = replace_backend(backend, tmp_path)
    live = await other.open()
    rated_live: list[str] = []

    async def rate_now(t: TableRow) -> None:
        if await record_result(live, t, load_game(t)):
            rated_live.append(t.table_id)

    await history(unrated(live), rate_now)
    expected = table_of(await live.execute(RATINGS_SQL))
    await live.close()
    assert len(rated_live) == 6, "every finished server game; not the DM one"
    assert {k[2] for k in expected} == {100, 101, 102, 103}

    store = await backend.open()
    try:
        assert table_of(await store.execute(RATINGS_SQL)) == {}
        assert await rate_history(store) == 6
        assert table_of(await store.execute(RATINGS_SQL)) == expected
        for t in played:
            assert await store.is_rated(t.table_id) == (t.guild_id is not None)
        assert await store.job_done("rate_history")
        assert await rate_history(store) == 0, "done once"
        # Even if it ran again (the mark lost), no game would count twice.
        await store.execute("DELETE FROM jobs")
        assert await rate_history(store) == 0
        assert table_of(await store.execute(RATINGS_SQL)) == expected
        # A finished game's table rated after the history: still once.
        last = played[-2]
        assert await record_result(store, last, load_game(last)) == []
    finally:
        await store.close()


def replace_backend(backend, tmp_path):
    if backend.name == "sqlite":
        return replace(backend, path=tmp_path / "live.sqlite3")
    return replace(backend, schema=f"{backend.schema}_live")


async def test_history_of_the_oldest_schema_sqlite_database(tmp_path):
    """The schema-1 database (Deckhand 0.1) migrates all the way and its finished Court Wars game
    is rated: Ana (100) won it against Ben (101)."""
    path = schema1_database(tmp_path / "old.sqlite3")
    store = await SQLiteStore.open(path)
    try:
        assert await rate_history(store) == 1
        got = await store.ratings(555, "court_wars", [100, 101])
        assert got[100].games == got[101].games == 1
        assert got[100].ordinal > got[101].ordinal and got[100].last_change > 0 > got[101].last_change
        (record_id,) = (await store.execute("SELECT id FROM records"))[0]
        assert await store.is_rated(f"record:{record_id}"), "a record from before table ids is keyed by its id"
    finally:
        await store.close()


# ----- the Discord-facing text --------------------------------------------------------------------
def test_change_lines_show_each_persons_change():
    changes = [RatingChange(1, "Ana", 1212, 1236, 14), RatingChange(2, "*Ben*_", 1000, 988, 1),
               RatingChange(3, "Cat", 1500, 1500, 30)]
    assert change_lines(changes) == "Ana 1,212 → 1,236 (+24)\n\\*Ben\\*\\_ 1,000 → 988 (−12)\nCat 1,500 → 1,500 (±0)"
    assert change_lines([]) == ""


async def test_lobby_lines_name_each_seats_rating(store):
    await store.save_ratings("t1", G, "court_wars", [PlayerRating(G, "court_wars", 100, "Ana", 30.0, 2.0, 24.0, 14, 24,
                                                                  1.0)], {100: 0}, 1.0)
    t = row(1, guild_id=G, game="court_wars", seats=[Seat(100, "Ana"), Seat(101, "__Ben__"), Seat(-1, "Deckhand bot 1")])
    assert await lobby_lines(store, TableFacts.of(t)) == ["Ana — 1,960 (14 games)", "\\_\\_Ben\\_\\_ — new (1,000)",
                                           f"Deckhand bot 1 — {bot_skill('court_wars').display:,} (built-in player, fixed)"]
    assert await lobby_lines(store, TableFacts.of(row(1, guild_id=None, game="court_wars", seats=t.seats))) == [], "a DM"
    assert await lobby_lines(store, TableFacts.of(row(1, guild_id=G, game="gridcannon"))) == [], "a game for one"


async def test_rating_and_leaderboard_embeds(store):
    for i, (u, name, ordinal, games) in enumerate([(100, "Ana", 20.0, 12), (101, "B*e*n", 5.0, 6), (102, "Cat", 30.0, 2)]):
        await store.save_ratings(f"t{i}", G, "court_wars",
                                 [PlayerRating(G, "court_wars", u, name, ordinal + 6.0, 2.0, ordinal, games, 7, 1.0)],
                                 {u: 0}, 1.0)
    e = await rating_embed(store, G, 100, "Ana", "court_wars")
    assert e.description == "**Ana** — 1,800 · 12 games · last game +7 · #1 on the leaderboard"
    e = await rating_embed(store, G, 102, "Cat", "court_wars")
    assert e.description.endswith(f"on the leaderboard after {MIN_GAMES} games")
    e = await rating_embed(store, G, 101, "B*e*n")
    assert e.description == "**B\\*e\\*n**\nCourt Wars: 1,200 · 6 games · last game +7"
    e = await rating_embed(store, G, 103, "Dee", "court_wars")
    assert "no rating in Court Wars here yet" in e.description
    board = await leaderboard_embed(store, G, "court_wars", 102, "Cat")
    assert board.fields[0].value == ("1. **Ana** — 1,800 · 12 games · last game +7\n"
                                     "2. **B\\*e\\*n** — 1,200 · 6 games · last game +7")
    assert board.fields[1].value == f"not ranked yet ({MIN_GAMES} games needed): **Cat** — 2,200 · 2 games · last game +7"
    empty = await leaderboard_embed(store, G, "maginot_line", 100, "Ana")
    assert not empty.fields and "Nobody has" in empty.description
