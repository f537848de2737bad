"""Ratings: who finished where from each game's outcome, and the new ratings checked against the
openskill library's own answers for hand-worked cases (a 2-player win, a 4-player order, a tie,
teams, forfeits, a bot opponent that stays fixed); the display number."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from openskill.models import PlackettLuce

from bot.engine.core import Outcome
from bot.ratings import (
    BOT_SIGMA, NEW, Skill, bot_skill, display, finishing_places, new_ratings, seat_users, teams_of,
)

LIB = PlackettLuce()  # the library with its defaults, asked directly


def lib(teams: list[list[Skill]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    out = LIB.rate([[LIB.rating(s.mu, s.sigma) for s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in out]


def mine(result: dict[int, Skill], users: list[int]) -> list[tuple[float, float]]:
    return [(result[u].mu, result[u].sigma) for u in users]


def close(a, b) -> bool:
    return all(x == pytest.approx(y, abs=1e-9) for pa, pb in zip(a, b, strict=True) for x, y in zip(pa, pb, strict=True))


def test_two_player_win_is_the_librarys_answer_and_moves_the_right_way():
    places = finishing_places("cardchess2", Outcome((1,)), 2)
    assert places == [1, 0]
    got = new_ratings("cardchess2", places, [10, 20], {})
    expected = lib([[NEW], [NEW]], [1.0, 0.0])
    assert close(mine(got, [10, 20]), [expected[0][0], expected[1][0]])
    assert got[20].mu > NEW.mu > got[10].mu and got[20].sigma < NEW.sigma
    assert (got[20].display, got[10].display) == (1138, 927)  # a newcomer's 1,000 after one game


def test_four_player_order_by_the_court_wars_rulebook():
    """Ruling 18 on the round limit: most living stacks, then total Defence; the win goes to the
    first and the others follow in that order (a tie on both shares a place)."""
    names = ("Ana", "Ben", "Cat", "Dee")
    out = Outcome((2,), details={"reason": "stalemate",
                                 "living_stacks": {"Ana": 1, "Ben": 2, "Cat": 3, "Dee": 2},
                                 "total_defence": {"Ana": 40, "Ben": 35, "Cat": 60, "Dee": 50}})
    places = finishing_places("court_wars", out, 4, view=SimpleNamespace(players=names))
    assert places == [3, 2, 0, 1]
    current = {1: Skill(27.0, 5.0), 2: Skill(24.0, 4.0), 3: Skill(25.0, 8.0), 4: Skill(30.0, 2.0)}
    got = new_ratings("court_wars", places, [1, 2, 3, 4], current)
    expected = lib([[current[u]] for u in (1, 2, 3, 4)], [3.0, 2.0, 0.0, 1.0])
    assert close(mine(got, [1, 2, 3, 4]), [t[0] for t in expected])
    # Last standing: everyone else has no stack left, so the rest share a place.
    last = Outcome((0,), details={"living_stacks": {"Ana": 2, "Ben": 0, "Cat": 0, "Dee": 0},
                                  "total_defence": {"Ana": 30, "Ben": 0, "Cat": 0, "Dee": 0}})
    assert finishing_places("court_wars", last, 4, view=SimpleNamespace(players=names)) == [0, 1, 1, 1]


def test_celestial_emperor_ranks_the_rest_by_its_scoring_rule():
    rows = [{"seat": 0, "v": 5, "T": 6, "qualifies": True}, {"seat": 1, "v": 9, "T": 2, "qualifies": False},
            {"seat": 2, "v": 3, "T": 4, "qualifies": True}, {"seat": 3, "v": 2, "T": 1, "qualifies": False}]
    out = Outcome((0,), details={"scoring": {"rows": rows}})
    # Qualifying by highest card (0, then 2), then the others by lowest card (3, then 1).
    assert finishing_places("celestial_emperor", out, 4) == [0, 3, 1, 2]
    tied = [dict(r, v=4, T=2, qualifies=True) for r in rows]
    assert finishing_places("celestial_emperor", Outcome((3,), details={"scoring": {"rows": tied}}), 4) == [1, 1, 1, 0]


def test_a_tie_shares_a_place_and_is_the_librarys_answer():
    """The Knight, the Rogue, the Princess and the Dragon without *Last word*: nobody wins, all
    share first place."""
    places = finishing_places("knight_rogue_princess_dragon", Outcome(()), 4)
    assert places == [0, 0, 0, 0]
    current = {1: Skill(30.0, 3.0), 2: Skill(20.0, 3.0), 3: NEW, 4: Skill(25.0, 1.0)}
    got = new_ratings("knight_rogue_princess_dragon", places, [1, 2, 3, 4], current)
    expected = lib([[current[u]] for u in (1, 2, 3, 4)], [0.0, 0.0, 0.0, 0.0])
    assert close(mine(got, [1, 2, 3, 4]), [t[0] for t in expected])
    assert got[1].mu < 30.0 and got[2].mu > 20.0, "a draw pulls the stronger down and the weaker up"
    # A Cardchess2 draw: no winners, one place.
    assert finishing_places("cardchess2", Outcome(()), 2) == [0, 0]


def test_maginot_teams_by_the_rulebook_and_the_librarys_team_answer():
    assert teams_of("maginot_line", ["Teams"], 4) == [[0, 2], [1, 3]]  # ruling 30: seats 1 & 3 v 2 & 4
    assert teams_of("maginot_line", ["Teams"], 6) == [[0, 3], [1, 4], [2, 5]]
    assert teams_of("maginot_line", [], 4) is None and teams_of("court_wars", [], 4) is None
    # The engine's own teams win over the rulebook's layout when its final view shows them.
    boards = [SimpleNamespace(seat=s, team=s // 2, out=False, base=()) for s in range(4)]
    assert teams_of("maginot_line", ["Teams"], 4, SimpleNamespace(boards=boards)) == [[0, 1], [2, 3]]
    current = {1: Skill(26.0, 4.0), 2: Skill(22.0, 6.0), 3: Skill(28.0, 2.0), 4: NEW}
    places = finishing_places("maginot_line", Outcome((1, 3)), 4)
    assert places == [1, 0, 1, 0]
    got = new_ratings("maginot_line", places, [1, 2, 3, 4], current, teams=[[0, 2], [1, 3]])
    (a, c), (b, d) = lib([[current[1], current[3]], [current[2], current[4]]], [1.0, 0.0])
    assert close(mine(got, [1, 2, 3, 4]), [a, b, c, d])
    assert got[2].mu > 22.0 and got[4].mu > NEW.mu and got[1].mu < 26.0 and got[3].mu < 28.0


def test_a_forfeit_finishes_last_the_first_to_leave_lowest():
    # Four at Court Wars: seat 3 left first, then seat 0; seat 1 won; seat 2 stayed to the end.
    places = finishing_places("court_wars", Outcome((1,)), 4, forfeited=[3, 0])
    assert places == [2, 0, 1, 3]
    got = new_ratings("court_wars", places, [1, 2, 3, 4], {}, forfeited=[3, 0])
    expected = lib([[NEW]] * 4, [2.0, 0.0, 1.0, 3.0])
    assert close(mine(got, [1, 2, 3, 4]), [t[0] for t in expected])
    assert got[4].mu < got[1].mu < got[3].mu < got[2].mu
    # A leaver never wins by it: even when the engine lists them among the winners (their team won).
    assert finishing_places("maginot_line", Outcome((0, 2)), 4, forfeited=[2]) == [0, 1, 2, 1]


def test_a_teammate_who_left_is_rated_alone_and_last():
    current = {1: Skill(25.0, 3.0), 2: Skill(25.0, 3.0), 3: Skill(25.0, 3.0), 4: Skill(25.0, 3.0)}
    places = finishing_places("maginot_line", Outcome((0, 2)), 4, forfeited=[2])
    got = new_ratings("maginot_line", places, [1, 2, 3, 4], current, teams=[[0, 2], [1, 3]], forfeited=[2])
    # Sides: [0] (its partner left), [1, 3], then the leaver [2] alone.
    (a,), (b, d), (c,) = lib([[current[1]], [current[2], current[4]], [current[3]]], [0.0, 1.0, 2.0])
    assert close(mine(got, [1, 2, 3, 4]), [a, b, c, d])
    assert got[3].mu < 25.0 < got[1].mu


def test_a_bot_opponent_is_fixed_and_counts_for_the_person():
    bot = bot_skill("cardchess2")
    assert bot == Skill(25.0, BOT_SIGMA)
    got = new_ratings("cardchess2", [0, 1], [7, -1], {})
    assert set(got) == {7}, "the bot is not rated"
    (me,), _ = lib([[NEW], [bot]], [0.0, 1.0])
    assert close(mine(got, [7]), [me])
    # The next game meets the same bot, whatever it did before: its strength never moves.
    again = new_ratings("cardchess2", [1, 0], [7, -1], got)
    (me2,), _ = lib([[got[7]], [bot]], [1.0, 0.0])
    assert close(mine(again, [7]), [me2])
    # Two bot seats at one table are the same built-in player, each a side of its own.
    three = new_ratings("court_wars", [1, 0, 2], [-1, 7, -2], {})
    _, (me3,), _ = lib([[bot], [NEW], [bot]], [1.0, 0.0, 2.0])
    assert close(mine(three, [7]), [me3])


def test_nothing_to_rate():
    assert new_ratings("cardchess2", [0, 1], [-1, -2], {}) == {}, "bots only"
    assert new_ratings("court_wars", [0, 1, 2], [7, 8, 7], {}) == {}, "someone seated twice"
    assert new_ratings("maginot_line", [0, 0, 0, 0], [1, 2, 3, 4], {}, teams=[[0, 1, 2, 3]]) == {}, "one side"
    with pytest.raises(ValueError):
        new_ratings("maginot_line", [0, 1, 0, 1], [1, 2, 3, 4], {}, teams=[[0, 2], [1]])


def test_display_is_conservative_and_a_newcomer_shows_1000():
    assert display(25.0, 25.0 / 3.0) == 1000 == NEW.display
    assert display(25.0, 1.5) == 1820
    assert display(25.0, 3.0) < display(25.0, 1.5), "the surer rating shows higher at the same mean"


def test_a_records_seats_are_matched_to_its_results():
    players = ["Ana", "Deckhand bot 1", "Ben", "Ana"]
    results = [(7, "Ana", "win"), (8, "Ben", "loss"), (9, "Ana", "loss")]
    assert seat_users(players, Outcome((3,)), results) == [(9, "Ana"), (-1, "Deckhand bot 1"), (8, "Ben"), (7, "Ana")]
    assert seat_users(["Ana", "Ana"], Outcome(()), [(7, "Ana", "draw"), (9, "Ana", "draw")]) is None, "ambiguous"
    assert seat_users(["Ana", "Ben"], Outcome((0,)), [(7, "Zed", "win")]) is None
