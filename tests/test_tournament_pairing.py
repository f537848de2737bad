"""Swiss pairing, elimination brackets and tables of several: properties of the pure functions."""

from __future__ import annotations

import random

import pytest

from bot.tables.pairing import (
    FILL, Board, Entrant, board_points, bracket_order, elimination_round, knocked_out, met, standings, swiss_round,
    swiss_rounds, table_sizes, tables_round,
)


def nine() -> list[Entrant]:
    return [Entrant(100 + i, f"P{i}", rating=float(i)) for i in range(9)]


def play(boards: list[Board], rng: random.Random, draws: bool = True) -> None:
    for bd in boards:
        if bd.bye:
            continue
        roll = rng.random()
        if draws and roll < 0.2:
            bd.places = [0, 0]
        else:
            bd.places = [0, 1] if roll < 0.6 else [1, 0]


@pytest.mark.parametrize("seed", range(25))
def test_swiss_nine_players_no_repeats_bye_rotates(seed):
    rng = random.Random(seed)
    people = nine()
    rounds: list[list[Board]] = []
    n_rounds = swiss_rounds(9)
    assert n_rounds == 4
    for _ in range(n_rounds):
        boards = swiss_round(people, rounds)
        seated = [u for bd in boards for u in bd.players]
        assert sorted(seated) == sorted(e.user_id for e in people), "everyone plays once a round"
        byes = [bd for bd in boards if bd.bye]
        assert len(byes) == 1 and byes[0].places == [0]
        before = met(rounds)
        for bd in boards:
            if not bd.bye:
                assert frozenset(bd.players) not in before, f"a repeat pairing in round {len(rounds) + 1}"
        play(boards, rng)
        rounds.append(boards)
    byed = [bd.players[0] for r in rounds for bd in r if bd.bye]
    assert len(set(byed)) == len(byed), "nobody gets a second bye while others have had none"
    # a bye is a win, and counts no opponent
    table = {s.user_id: s for s in standings(people, rounds)}
    for u in byed:
        assert table[u].byes == 1 and table[u].played == n_rounds - 1
        assert len(table[u].opponents) == n_rounds - 1
    assert sum(s.points for s in table.values()) == 4 * 4 + 4  # four games a round and a bye


def test_swiss_pairs_by_score():
    people = nine()
    r1 = [Board([100, 101], [0, 1]), Board([102, 103], [0, 1]), Board([104, 105], [0, 1]),
          Board([106, 107], [0, 1]), Board([108], [0], bye=True)]
    r2 = swiss_round(people, [r1])
    winners = {100, 102, 104, 106, 108}
    # with five winners, four pairs of winners cannot all exist: at most one winner meets a loser
    mixed = [bd for bd in r2 if not bd.bye and len(set(bd.players) & winners) == 1]
    assert len(mixed) <= 1
    assert next(bd for bd in r2 if bd.bye).players[0] not in winners | {108}, "the bye goes to the bottom"


def test_buchholz_breaks_ties():
    people = [Entrant(1, "A"), Entrant(2, "B"), Entrant(3, "C"), Entrant(4, "D")]
    rounds = [[Board([1, 2], [0, 1]), Board([3, 4], [0, 1])],
              [Board([1, 3], [1, 0]), Board([2, 4], [0, 1])]]
    # A: beat B, lost to C -> 1 point; opponents B (1) + C (2) = 3
    # D: lost to C, lost to B -> 0; B: lost to A, beat D -> 1; opponents A (1) + D (0) = 1
    table = standings(people, rounds)
    assert [s.user_id for s in table] == [3, 1, 2, 4]
    by = {s.user_id: s for s in table}
    assert by[1].points == by[2].points == 1.0
    assert by[1].buchholz == 3.0 and by[2].buchholz == 1.0
    assert by[3].buchholz == 1.0 + 0.0


def test_a_draw_is_half_each_and_a_dropped_player_is_not_paired():
    people = nine()
    bd = Board([100, 101], [0, 0])
    assert board_points(bd) == {100: 0.5, 101: 0.5}
    people[3].dropped = True
    boards = swiss_round(people, [])
    seated = {u for b in boards for u in b.players}
    assert 103 not in seated and len(seated) == 8 and not any(b.bye for b in boards)


def test_repeats_only_when_unavoidable():
    people = [Entrant(i, f"P{i}") for i in range(1, 5)]
    rounds: list[list[Board]] = []
    for _ in range(3):
        boards = swiss_round(people, rounds)
        for b in boards:
            b.places = [0, 1]
        rounds.append(boards)
    assert len(met(rounds)) == 6, "three rounds of four: everyone met everyone once"
    fourth = swiss_round(people, rounds)
    assert len(fourth) == 2  # a repeat now, but still a full round


def test_bracket_of_six_seeds_and_byes():
    assert bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    people = [Entrant(i, f"P{i}", rating=10.0 - i) for i in range(6)]  # P0 the top seed
    r1 = elimination_round(people, [])
    byes = sorted(b.players[0] for b in r1 if b.bye)
    assert byes == [0, 1], "the top two seeds skip round one"
    for b in r1:
        if not b.bye:
            b.places = [1, 0]  # the lower seed wins every game
    r2 = elimination_round(people, [r1])
    assert len(r2) == 2 and all(not b.bye for b in r2)
    for b in r2:
        b.places = [0, 0]  # draws: the higher seed goes through
    r3 = elimination_round(people, [r1, r2])
    assert len(r3) == 1 and sorted(r3[0].players) == [0, 1]
    r3[0].places = [0, 1]
    out = knocked_out(people, [r1, r2, r3])
    assert out == {1, 2, 3, 4, 5}


def test_tables_of_four_for_twelve_and_points_by_place():
    people = [Entrant(i, f"P{i}", rating=float(i)) for i in range(1, 13)]
    r1 = tables_round(people, [], 4, 2, 6, fill=False)
    assert [len(b.players) for b in r1] == [4, 4, 4]
    assert r1[0].players == [12, 11, 10, 9], "seeded by rating when nobody has points"
    for b in r1:
        b.places = [0, 1, 1, 3]
    assert board_points(r1[0]) == {12: 3.0, 11: 1.5, 10: 1.5, 9: 0.0}
    r2 = tables_round(people, [r1], 4, 2, 6, fill=False)
    assert r2[0].players == [12, 8, 4, 11], "the winners of round one at the top table, then the best 1.5"
    assert [len(b.players) for b in r2] == [4, 4, 4]


def test_table_sizes_fill_or_even_out():
    assert table_sizes(10, 4, 3, 6, fill=True) == [4, 4, 4]
    assert table_sizes(10, 4, 3, 6, fill=False) == [4, 3, 3]
    assert table_sizes(9, 4, 4, 4, fill=False) == [4, 4]
    people = [Entrant(i, f"P{i}") for i in range(1, 11)]
    boards = tables_round(people, [], 4, 3, 6, fill=True)
    assert [u for u in boards[-1].players if u <= FILL] == [FILL - 1, FILL - 2]
    sitting_out = tables_round([Entrant(i, f"P{i}") for i in range(1, 10)], [], 4, 4, 4, fill=False)
    assert [b.bye for b in sitting_out].count(True) == 1 and sitting_out[-1].points == 1.5
