"""Court Wars: every rule, ruling, example and variant of rules/court_wars.md."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from bot.engine import cards
from bot.engine.core import IllegalMove
from bot.engine.court_wars import CourtWarsGame, CourtWarsView, auto_move
from bot.tables.games import load_game

P = cards.pretty_text  # events and refusals write cards with suit symbols

NAMES = ["Ana", "Ben", "Cat", "Dee"]
STACK = re.compile(r"^([KQJ][SHDC])(\(x\))?(?:\+(JK2?))?(?:\[(.*)\])?$")


def stack(spec: str) -> dict:
    """``KS[8C,4D]``, ``QS[]``, ``QS(x)``, ``QS(x)+JK[5H]`` → a position dict."""
    m = STACK.match(spec)
    assert m, spec
    court, down, joker, guards = m.groups()
    state = "jokered" if joker else ("defeated" if down else "alive")
    return {"court": court, "state": state, "joker": joker,
            "guards": [g for g in (guards or "").split(",") if g]}


def position(seats: list[list[str]], current: int = 0, phase: str = "turn", draw=(), discard=(),
             options=(), pending=None) -> CourtWarsGame:
    game = CourtWarsGame.new(NAMES[: len(seats)], list(options), seed=7, deck=[])
    game.build_round = 0
    game.build_left = []
    game.phase = phase
    game.current = current
    game.first = current
    game.pending = pending
    game.courts = [[stack(s) for s in seat] for seat in seats]
    game.eliminated = [not game.living(s) for s in range(len(seats))]
    game.draw_pile = list(draw)
    game.discard_pile = list(discard)
    game.journal = []
    return game


def W(**kw) -> CourtWarsGame:
    """Position W: P2 (seat 1) to play."""
    kw.setdefault("current", 1)
    return position([["KS[8C,4D]", "QS[]", "JS[7C]"], ["KH[9D]", "QH[7D,5C]", "JH[4C,3D,2C]"]], **kw)


def guards(game: CourtWarsGame, seat: int, letter: str) -> list[str]:
    return game.courts[seat]["KQJ".index(letter)]["guards"]


def state(game: CourtWarsGame, seat: int, letter: str) -> str:
    return game.courts[seat]["KQJ".index(letter)]["state"]


def assert_illegal(game: CourtWarsGame, seat: int, move: str, *fragments: str) -> None:
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        game.apply(seat, move)
    for f in fragments:
        assert f.lower() in str(err.value).lower(), str(err.value)
    assert json.dumps(game.to_json(), sort_keys=True) == before


def texts(events) -> str:
    return "\n".join(e.text for e in events)


# ----- §1 setup ------------------------------------------------------------------------
def test_setup_suits_courts_and_piles():
    for n in (2, 3, 4):
        g = CourtWarsGame.new(NAMES[:n], seed=3)
        assert g.suits == list("SHDC")[:n]
        for s in range(n):
            assert [p["court"] for p in g.courts[s]] == [L + g.suits[s] for L in "KQJ"]
            assert all(p["state"] == "alive" and not p["guards"] for p in g.courts[s])
        assert len(g.draw_pile) == 54 - 3 * n and g.discard_pile == []
        assert g.phase == "build" and g.build_round == 1
    assert len(CourtWarsGame.new(NAMES[:2], ["No Jokers"], seed=3).draw_pile) == 52 - 6


def test_setup_deck_argument_is_the_draw_pile_top_first():
    g = CourtWarsGame.new(NAMES[:2], ["first=0"], deck=["9H", "KS", "8C", "QH", "JK"])
    assert g.draw_pile == ["9H", "8C", "JK"]  # the players' courts are taken out


def test_first_player_random_by_seed_and_setting():
    firsts = {CourtWarsGame.new(NAMES[:3], seed=s).first for s in range(30)}
    assert firsts == {0, 1, 2}
    assert CourtWarsGame.new(NAMES[:3], seed=5).first == CourtWarsGame.new(NAMES[:3], seed=5).first
    g = CourtWarsGame.new(NAMES[:4], ["first=2"], seed=5)
    assert g.first == 2 and g.current == 2 and g.build_left == [2, 3, 0, 1]


def test_settings_checked():
    with pytest.raises(IllegalMove, match="first"):
        CourtWarsGame.new(NAMES[:2], ["first=3"], seed=1)
    with pytest.raises(IllegalMove):
        CourtWarsGame.new(NAMES[:2], ["rounds=-1"], seed=1)
    with pytest.raises(IllegalMove):
        CourtWarsGame.new(NAMES[:2], ["speed=3"], seed=1)
    with pytest.raises(IllegalMove):
        CourtWarsGame.new(NAMES[:1], seed=1)
    g = CourtWarsGame.new(NAMES[:2], ["rounds=5", "first=1"], seed=1)
    assert g.opts.rounds == 5 and g.first == 1
    assert CourtWarsGame.new(NAMES[:2], seed=1).opts.rounds == 20


def test_every_drawn_card_is_announced_and_draw_order_hidden():
    g = CourtWarsGame.new(NAMES[:2], ["first=0"], seed=11)
    hidden = set(g.draw_pile) - g.known(None)
    assert hidden == set(g.draw_pile)
    g2, events = g.apply(0, "draw")
    drawn = [c for c in g.draw_pile if c not in g2.draw_pile]
    assert drawn and all(cards.pretty(c) in texts(events) for c in drawn)
    assert hasattr(g.view(None), "draw_pile") and g.view(None).draw_pile is None


# ----- the opening build (rulings 1 and 2) ----------------------------------------------
def test_ruling_01_opening_build_round_robin_specials_redrawn_discard_uses_pick():
    deck = ["AS", "9H", "JD", "JK", "8C", "7S", "6D", "5C", "4H", "3S", "2D"]
    g = CourtWarsGame.new(NAMES[:2], ["first=0"], deck=deck)
    assert g.legal_moves(0) == ["draw", "resign"]
    assert g.legal_moves(1) == []
    g, ev = g.apply(0, "draw")
    assert g.pending == "9H" and g.phase == "guard" and g.discard_pile == ["AS"]
    assert P("AS") in texts(ev)
    g, _ = g.apply(0, "place K")
    assert guards(g, 0, "K") == ["9H"] and g.current == 1 and g.phase == "build"
    g, _ = g.apply(1, "draw")  # JD and the joker are passed over, face up
    assert g.pending == "8C" and g.discard_pile == ["AS", "JD", "JK"]
    g, _ = g.apply(1, "discard")  # discarding the guard still uses the pick
    assert g.discard_pile[-1] == "8C" and g.current == 0 and g.build_round == 2
    for seat, move in [(0, "place K"), (1, "place Q"), (0, "place Q"), (1, "place Q")]:
        g, _ = g.apply(seat, "draw")
        g, _ = g.apply(seat, move)
    assert g.build_round == 0 and g.phase == "turn" and g.current == 0
    assert guards(g, 0, "K") == ["9H", "7S"] and guards(g, 1, "Q") == ["6D", "4H"]
    assert guards(g, 0, "Q") == ["5C"] and g.draw_pile == ["3S", "2D"]


def test_ruling_01_no_attack_or_joker_during_the_build():
    g = CourtWarsGame.new(NAMES[:2], ["first=0"], deck=["JK", "AD", "9H", "8D"])
    assert not any(m.startswith("attack") for m in g.legal_moves(0))
    assert_illegal(g, 0, "defend", "not possible now")
    g, _ = g.apply(0, "draw")
    assert g.pending == "9H" and "joker" not in " ".join(g.legal_moves(0))


def build_discarding(g: CourtWarsGame) -> tuple[CourtWarsGame, list[int]]:
    """The opening build played out, every drawn guard discarded: the game after it and who drew, in order."""
    order = []
    while g.build_round:
        order.append(g.current)
        g, _ = g.apply(g.current, "draw")
        if g.phase == "guard":
            g, _ = g.apply(g.current, "discard")
    return g, order


def test_ruling_02_first_player_chosen_before_the_build():
    g = CourtWarsGame.new(NAMES[:3], ["first=1"], seed=2)
    g, order = build_discarding(g)
    assert order == [1, 2, 0] * 3
    assert g.current == 1 and g.phase == "turn"


# ----- attacks (rulings 3-9) --------------------------------------------------------------
def test_legal_moves_list_exactly_the_attacks_with_power_at_least_cost():
    g = W()
    listed = {m for m in g.legal_moves(1) if m.startswith("attack")}
    expected = set()
    for src in "KQJ":
        mine = guards(g, 1, src)
        for m in range(1, len(mine) + 1):
            power = sum(int(c[0]) for c in mine[-m:])
            for t in "KQJ":
                theirs = guards(g, 0, t)
                for r in range(1, len(theirs) + 2):
                    cost = sum(int(c[0]) for c in theirs[-r:]) + (10 if r > len(theirs) else 0)
                    if power >= cost:
                        expected.add(f"attack {src} {m} 1:{t} {r}")
    assert listed == expected and listed
    assert "defend" in g.legal_moves(1) and "resign" in g.legal_moves(1)
    for move in g.legal_moves(1):
        g.apply(1, move)  # every listed move is accepted


def test_ruling_03_spend_outermost_guards_as_one_block():
    g = W()
    assert "attack Q 1 1:K 1" in g.legal_moves(1)
    g2, _ = g.apply(1, "attack Q 1 1:K 1")
    assert guards(g2, 1, "Q") == ["7D"]  # the 5C (outermost) was spent, never the 7D alone
    g3, _ = g.apply(1, "attack J 2 1:K 1")  # JH[4C,3D,2C] m=2 spends 3D and 2C (P=5 ≥ 4)
    assert guards(g3, 1, "J") == ["4C"] and g3.discard_pile == ["3D", "2C", "4D"]


def test_ruling_04_defender_guards_removed_outermost_inward():
    g = W()
    g2, _ = g.apply(1, "attack K 1 1:K 1")  # 9 removes the 4D, never the 8C alone
    assert guards(g2, 0, "K") == ["8C"]
    g3, _ = g.apply(1, "attack Q 2 1:K 2")
    assert guards(g3, 0, "K") == []


def test_ruling_05_one_source_one_target():
    g = W()
    assert_illegal(g, 1, "attack Q 2 1:K 1 1:J 1", "attack SOURCE M SEAT:POSITION R")
    assert_illegal(g, 1, "attack Q 2 1:Q", "attack SOURCE M SEAT:POSITION R")
    # KH (9) and JH (9) cannot pool their power against KS (cost 22).
    assert not any(m.endswith("1:K 3") for m in g.legal_moves(1))


def test_ruling_06_stopping_partway_is_legal():
    g, ev = W().apply(1, "attack Q 1 1:K 1")
    assert state(g, 0, "K") == "alive" and guards(g, 0, "K") == ["8C"]
    assert P("removes 4D from Ana's KS") in texts(ev)


def test_ruling_07_overspending_is_allowed_and_the_excess_lost():
    g, _ = W().apply(1, "attack K 1 1:J 1")  # 9 against 7: 2 points lost
    assert guards(g, 0, "J") == [] and state(g, 0, "J") == "alive"
    assert guards(g, 1, "K") == [] and g.discard_pile == ["9D", "7C"]


def test_ruling_08_defeat_costs_all_guards_plus_ten():
    g = W()
    assert "attack Q 2 1:J 2" not in g.legal_moves(1)  # 12 < 7 + 10
    assert_illegal(g, 1, "attack Q 2 1:J 2", "less than the cost 17")
    g = position([["KS[]", "QS[6C]", "JS(x)"], ["KH[9D,8D]", "QH[]", "JH[]"]], current=1)
    g2, ev = g.apply(1, "attack K 2 1:Q 2")  # 17 ≥ 6 + 10
    assert state(g2, 0, "Q") == "defeated" and guards(g2, 0, "Q") == []
    assert P("defeats Ana's QS") in texts(ev)


def test_ruling_09_stacks_without_guards_cannot_attack():
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]])
    assert g.legal_moves(0) == ["defend", "resign"]
    assert_illegal(g, 0, "attack K 1 2:K 1", "no guards", "ruling 9")


def test_attack_illegal_targets():
    g = W()
    assert_illegal(g, 1, "attack Q 1 2:K 1", "own")
    assert_illegal(g, 1, "attack Q 1 3:K 1", "no player 3")
    assert_illegal(g, 1, "attack Q 3 1:K 1", "from 1 to 2")
    assert_illegal(g, 1, "attack Q 1 1:K 4", "from 1 to 3")
    assert_illegal(g, 1, "attack X 1 1:K 1", "not a position")
    assert_illegal(g, 1, "attack Q one 1:K 1", "not a number")
    assert_illegal(g, 1, "attack Q 1 K 1", "not a target")
    dead = position([["KS[]", "QS(x)", "JS[]"], ["KH[9D]", "QH[]", "JH(x)"]], current=1)
    assert_illegal(dead, 1, "attack K 1 1:Q 1", "already defeated")
    assert_illegal(dead, 1, "attack J 1 1:K 1", "defeated and cannot attack")


def test_discard_order_after_an_attack():
    g = position([["KS[]", "QS(x)+JK[6H,3H]", "JS[]"], ["KH[9D,8S,2S]", "QH[]", "JH[]"]], current=1)
    g2, _ = g.apply(1, "attack K 3 1:Q 3")
    # spent guards (innermost first), then removed guards, then the joker
    assert g2.discard_pile == ["9D", "8S", "2S", "6H", "3H", "JK"]


# ----- rulings 10-18 ----------------------------------------------------------------------
def test_ruling_10_ace_attack_optional_then_defend_draw_and_chains():
    g = W(current=0, draw=["AH", "AD", "2H", "QC"])
    g, ev = g.apply(0, "defend")
    assert g.phase == "ace" and g.discard_pile == ["AH"] and "an Ace" in texts(ev)
    assert "skip" in g.legal_moves(0) and "defend" not in g.legal_moves(0)
    g, _ = g.apply(0, "skip")  # the next draw is another ace: the steps repeat
    assert g.phase == "ace" and g.discard_pile == ["AH", "AD"]
    g, _ = g.apply(0, "skip")
    assert g.phase == "guard" and g.pending == "2H" and g.current == 0
    g, _ = g.apply(0, "place J")
    assert g.current == 1 and g.phase == "turn" and guards(g, 0, "J") == ["7C", "2H"]


def test_ruling_10_ace_without_possible_attack_draws_again():
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=["AS", "JD"])
    g, ev = g.apply(0, "defend")
    assert "no attack is possible" in texts(ev)
    assert g.discard_pile == ["AS", "JD"] and g.current == 1


def test_ruling_11_jokers():
    g = position([["KS[]", "QS(x)", "JS(x)"], ["KH[9D,8D]", "QH[]", "JH[]"]], draw=["JK", "JK2", "5C"])
    g, ev = g.apply(0, "defend")
    assert g.phase == "joker" and g.legal_moves(0) == ["joker Q", "joker J", "discard", "resign"]
    assert_illegal(g, 0, "joker K", "not defeated", "ruling 11")
    g2, _ = g.apply(0, "discard")  # placing is optional
    assert g2.discard_pile == ["JK"] and g2.current == 1
    g, _ = g.apply(0, "joker Q")
    q = g.courts[0][1]
    assert q["state"] == "jokered" and q["joker"] == "JK"
    v = g.view(None).seats[0].positions[1]
    assert v.defence == 10 and v.attack == 0
    # P2 defends with a court, then P1 draws the second joker: only J can take it now
    g.draw_pile.insert(0, "QD")
    g, _ = g.apply(1, "defend")
    g, _ = g.apply(0, "defend")
    assert g.legal_moves(0) == ["joker J", "discard", "resign"]
    g, _ = g.apply(0, "discard")
    g.draw_pile = ["2C"]
    g, _ = g.apply(1, "defend")
    g, _ = g.apply(1, "discard")
    g.draw_pile = ["4H"]
    g, _ = g.apply(0, "defend")
    assert "place Q" in g.legal_moves(0)  # a joker takes guards like a court
    g, _ = g.apply(0, "place Q")
    assert guards(g, 0, "Q") == ["4H"]
    g, ev = g.apply(1, "attack K 2 1:Q 2")  # 17 ≥ 4 + 10: the joker is discarded
    q = g.courts[0][1]
    assert q["state"] == "defeated" and q["joker"] is None and g.discard_pile[-1] == "JK"
    assert P("defeats Ana's joker on QS") in texts(ev)
    g.draw_pile = ["JK"]
    g.discard_pile.remove("JK")
    g, _ = g.apply(0, "defend")
    assert "joker Q" in g.legal_moves(0)  # that position may take a joker again


def test_ruling_12_joker_discarded_without_a_free_defeated_position():
    g = position([["KS[]", "QS(x)+JK[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=["JK2"])
    g, ev = g.apply(0, "defend")
    assert g.discard_pile == ["JK2"] and g.current == 1 and "ruling 12" in texts(ev)
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=["JK"])
    g, _ = g.apply(0, "defend")
    assert g.discard_pile == ["JK"] and g.current == 1


def test_ruling_13_drawn_court_is_discarded_and_ends_the_turn():
    g = W(current=0, draw=["JD", "5H"])
    g, ev = g.apply(0, "defend")
    assert g.discard_pile == ["JD"] and g.current == 1 and g.phase == "turn"
    assert P("JD") in texts(ev) and "court card" in texts(ev)


def test_ruling_14_discard_pile_turned_over_without_shuffling():
    g = W(current=0, draw=[], discard=["5H", "QD", "9S"])
    g, ev = g.apply(0, "defend")
    assert g.pending == "5H" and g.draw_pile == ["QD", "9S"] and g.discard_pile == []
    assert "turned over (3 cards)" in texts(ev)
    assert set(g.draw_pile) - g.known(None) == set()  # the new order is public
    v = g.view(None)
    assert v.draw_order_public and list(v.draw_pile) == ["QD", "9S"]


def test_ruling_15_any_living_opponent_may_be_attacked_and_last_standing_wins():
    g = position([["KS[TS]", "QS(x)", "JS(x)"], ["KH[]", "QH(x)", "JH(x)"], ["KD[]", "QD[]", "JD(x)"]])
    attacks = [m for m in g.legal_moves(0) if m.startswith("attack")]
    assert {m.split()[3] for m in attacks} == {"2:K", "3:K", "3:Q"}
    g = position([["KS[TS]", "QS(x)", "JS[TC]"], ["KH[]", "QH(x)", "JH(x)"], ["KD[]", "QD(x)", "JD(x)"]],
                 draw=["QC"])
    g, ev = g.apply(0, "attack K 1 2:K 1")
    assert g.eliminated == [False, True, False] and "Ben is eliminated" in texts(ev)
    assert g.current == 2 and not g.is_over()
    assert_illegal(g, 2, "attack K 1 2:K 1", "no guards")
    g, _ = g.apply(2, "defend")
    g, ev = g.apply(0, "attack J 1 3:K 1")
    assert g.is_over() and g.outcome().winners == (0,) and "last player standing" in texts(ev)
    assert g.to_act() == frozenset() and g.view(None).over


def test_ruling_16_guards_only_on_own_living_stacks():
    g = position([["KS[8C,4D]", "QS(x)", "JS[7C]"], ["KH[]", "QH[]", "JH[]"]], pending="9H", phase="guard")
    assert g.legal_moves(0) == ["discard", "resign"]
    g = position([["KS[8C,4D]", "QS(x)", "JS[7C]"], ["KH[]", "QH[]", "JH[]"]], pending="3H", phase="guard")
    assert g.legal_moves(0) == ["place K", "place J", "discard", "resign"]
    assert_illegal(g, 0, "place Q", "defeated", "ruling 16")
    assert_illegal(g, 0, "place KH", "not one of your courts")


def test_ruling_17_guard_that_cannot_be_placed_is_discarded():
    g = position([["KS[2C]", "QS(x)", "JS[2D]"], ["KH[]", "QH[]", "JH[]"]], draw=["9H"])
    g, ev = g.apply(0, "defend")
    assert g.discard_pile == ["9H"] and g.current == 1 and "ruling 17" in texts(ev)
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=["9H"])
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(0, "discard")  # a placeable guard may be discarded too
    assert g.discard_pile == ["9H"] and g.current == 1


def quiet_game(seats, rounds, n_draws=40, **kw):
    return position(seats, draw=["QC", "JC", "KC"] * n_draws, options=[f"rounds={rounds}"], **kw)


def test_ruling_18_stalemate_limit_most_living_stacks_wins():
    g = quiet_game([["KS[]", "QS[]", "JS(x)"], ["KH[]", "QH[]", "JH[]"]], rounds=2)
    for _ in range(3):
        g, _ = g.apply(g.current, "defend")
    assert not g.is_over() and g.quiet_rounds == 1
    g, ev = g.apply(g.current, "defend")
    out = g.outcome()
    assert out.winners == (1,) and out.details["reason"] == "stalemate"
    assert "No position defeated in 2 rounds" in texts(ev)


def test_ruling_18_stalemate_tie_break_total_defence_then_shared():
    g = quiet_game([["KS[5C]", "QS[]", "JS(x)"], ["KH[]", "QH[4D]", "JH(x)"]], rounds=1)
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(1, "defend")
    assert g.outcome().winners == (0,)
    g = quiet_game([["KS[5C]", "QS[]", "JS(x)"], ["KH[]", "QH[5D]", "JH(x)"]], rounds=1)
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(1, "defend")
    assert g.outcome().winners == (0, 1) and "share" in g.outcome().summary


def test_ruling_18_defeat_resets_quiet_rounds():
    g = quiet_game([["KS[TC]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], rounds=3)
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(1, "defend")
    assert g.quiet_rounds == 1
    g.courts[0][0]["guards"] = ["TC"]
    g, _ = g.apply(0, "attack K 1 2:K 1")
    assert g.quiet_rounds == 0 and state(g, 1, "K") == "defeated"
    for _ in range(5):
        g, _ = g.apply(g.current, "defend")
    assert not g.is_over() and g.quiet_rounds == 2
    g, _ = g.apply(g.current, "defend")
    assert g.is_over()


def test_ruling_18_rounds_zero_turns_the_limit_off():
    g = quiet_game([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], rounds=0)
    for _ in range(100):
        g, _ = g.apply(g.current, "defend")
    assert not g.is_over() and g.quiet_rounds == 50


def test_ruling_18_resign():
    g = W()
    g, ev = g.apply(1, "resign")
    assert g.outcome().winners == (0,) and "Ben resigns" in texts(ev)
    g = position([["KS[8C]", "QS[]", "JS[]"], ["KH[3D]", "QH[]", "JH[]"], ["KD[]", "QD[]", "JD[]"]])
    g, _ = g.apply(0, "resign")
    assert g.eliminated[0] and g.current == 1 and not g.is_over()
    assert g.discard_pile == ["8C"] and all(p["state"] == "defeated" for p in g.courts[0])


# ----- §3.2 / §3.3 / §3.5 ------------------------------------------------------------------
SHUFFLED = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "2S", "3S", "4S"]  # none is in position W


def test_ruling_19_shuffle_recycle_hides_the_new_order():
    g = W(current=0, draw=[], discard=SHUFFLED, options=["Shuffle Recycle"])
    g, ev = g.apply(0, "defend")
    pile = list(g.draw_pile)
    assert sorted(pile + [g.pending]) == sorted(SHUFFLED) and g.recycled == 1 and not g.draw_order_public()
    # Only the count is public: nobody knows where the new pile's cards lie, and no view lists them.
    for seat in (None, 0, 1):
        assert not set(pile) & g.known(seat) and g.pending in g.known(seat)
        v = g.view(seat)
        assert v.draw_pile is None and not v.draw_order_public and v.draw_size == len(pile) == 11
    # The turnover names no card; the draw names the one drawn, and says it shows it.
    assert "shuffled and turned over (12 cards)" in ev[0].text and ev[0].reveals == ()
    assert ev[1].reveals == (g.pending,)
    # Any other order of the new pile is the same game to every seat: its view, what it is offered
    # (with labels), its refusals and the built-in player's choice.
    other = g.copy()
    other.draw_pile = pile[::-1]
    for seat in (None, 0, 1):
        assert other.view(seat) == g.view(seat)
    assert other.legal_moves(0) == g.legal_moves(0)
    assert [other.describe(0, m) for m in other.legal_moves(0)] == [g.describe(0, m) for m in g.legal_moves(0)]
    assert auto_move(other, 0, random.Random(1)) == auto_move(g, 0, random.Random(1))
    # The next draw from it is news to everyone: the table never previews it (a preview shows only
    # what the seat knows already), whereas an unshuffled turnover's next card is public.
    g, _ = g.apply(0, "discard")
    assert _preview(g, 1, "defend") is None
    drawn, _ = g.apply(1, "defend")
    assert drawn.known(1) - g.known(1) == {pile[0]}  # the card drawn (here discarded: no stack takes it)
    plain = W(current=0, draw=[], discard=SHUFFLED)
    plain, _ = plain.apply(0, "defend")
    plain, _ = plain.apply(0, "discard")
    assert plain.draw_order_public() and set(plain.draw_pile) <= plain.known(1)
    assert _preview(plain, 1, "defend") is not None


def _preview(game: CourtWarsGame, seat: int, move: str):
    """What a seat's panel at a table would show after ``move`` without playing it (None: not shown)."""
    from bot.tables.reader import Reader, TableFacts
    from tests.test_reader_asked import make_table

    table = make_table([], "court_wars", len(game.players), list(game.options))
    return Reader(TableFacts.of(table), game, seat).after(move, acting=False)


async def _finish(service, channel: int, people, loser: int) -> None:
    """End the table's game with ``loser`` out: they resign on their turn or leave the table
    (a forfeit); with 3–4 players every other seat but the seat after them goes the same way."""
    table = await service.get(channel)
    n = len(table.seats)
    for seat in [loser, *[s for s in range(n) if s not in (loser, (loser + 1) % n)]]:
        game = load_game(await service.get(channel))
        if game.current == seat:
            await service.move(channel, people[seat], "resign")
        else:
            await service.leave(channel, people[seat])
    assert (await service.get(channel)).status == "finished"


async def test_ruling_20_series_and_rematch(service, people):
    # Two players: the loser of the last game starts the rematch, game after game.
    await service.new_table(81, 1, people[0], "court_wars")
    await service.join(81, people[1])
    await service.start(81, people[0])
    for loser in (0, 1, 1, 0):
        await _finish(service, 81, people, loser)
        change = await service.rematch(81, people[1])
        game = load_game(change.table)
        assert [s.user_id for s in change.table.seats] == [p.user_id for p in people[:2]]  # the same seats
        assert game.first == game.current == game.build_left[0] == loser and game.view(None).first == loser
        assert "picks first" in game.recent(None)[0] and people[loser].name in game.recent(None)[0]
    # Three and four players: the start moves one seat clockwise each game, whoever won.
    for n, channel in ((3, 82), (4, 83)):
        await service.new_table(channel, 1, people[0], "court_wars")
        for p in people[1:n]:
            await service.join(channel, p)
        await service.start(channel, people[0])
        first = load_game(await service.get(channel)).first
        for game_no in range(1, n + 2):
            await _finish(service, channel, people, loser=game_no % n)
            game = load_game((await service.rematch(channel, people[0])).table)
            assert game.first == game.current == (first + game_no) % n
    # An abandoned game still counts as the last game of the series.
    first = load_game(await service.get(83)).first
    await service.abandon(83, people[0])
    assert load_game((await service.rematch(83, people[2])).table).first == (first + 1) % 4


def test_guard_placement_strictly_lower():
    g = position([["KS[8C,4D]", "QS[]", "JS[7C]"], ["KH[]", "QH[]", "JH[]"]], pending="4S", phase="guard")
    assert_illegal(g, 0, "place K", "strictly lower", P("4D"))
    g2, ev = g.apply(0, "place J")
    assert guards(g2, 0, "J") == ["7C", "4S"] and "Attack 11, Defence 21" in texts(ev)


def test_loop_guard_second_turnover_ends_the_turn():
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=[], discard=["AS", "AH"])
    g, ev = g.apply(0, "defend")
    assert "loop guard" in texts(ev)
    assert g.current == 1 and g.phase == "turn" and sorted(g.discard_pile) == ["AH", "AS"]
    assert texts(ev).count("is turned over") == 1 and g.turnovers_this_turn == 0


def test_victory_mid_ace_sequence_makes_no_further_draw():
    g = position([["KS[8C,4D]", "QS[]", "JS[]"], ["KH(x)", "QH[]", "JH(x)"]], draw=["AH", "5D", "6D"])
    g, _ = g.apply(0, "defend")
    g, ev = g.apply(0, "attack K 2 2:Q 1")
    assert g.outcome().winners == (0,) and g.draw_pile == ["5D", "6D"]
    assert "Ben is eliminated" in texts(ev)


def test_elimination_mid_ace_sequence_continues_the_draw():
    seats = [["KS[8C,4D]", "QS[]", "JS[]"], ["KH(x)", "QH[]", "JH(x)"], ["KD[]", "QD[]", "JD[]"]]
    g = position(seats, draw=["AH", "5D", "6D"])
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(0, "attack K 2 2:Q 1")
    assert g.eliminated == [False, True, False] and not g.is_over()
    assert g.pending == "5D" and g.current == 0 and g.phase == "guard"
    g, _ = g.apply(0, "place K")
    assert g.current == 2  # the eliminated seat is skipped


# ----- the worked examples -------------------------------------------------------------
def test_position_w_stats():
    v = W().view(None)
    ana, ben = v.seats
    assert [(p.attack, p.defence) for p in ana.positions] == [(12, 22), (0, 10), (7, 17)]
    assert [(p.attack, p.defence) for p in ben.positions] == [(9, 19), (12, 22), (9, 19)]
    assert v.current == 1


def test_example_01_defeat_qs():
    g, ev = W().apply(1, "attack Q 2 1:Q 1")
    assert state(g, 0, "Q") == "defeated" and guards(g, 1, "Q") == []
    assert g.discard_pile == ["7D", "5C"] and not g.eliminated[0]
    assert P("Ben spends 7D 5C (12) from QH and defeats Ana's QS") in texts(ev)


def test_example_03_remove_the_4():
    g, _ = W().apply(1, "attack Q 1 1:K 1")
    assert guards(g, 0, "K") == ["8C"] and guards(g, 1, "Q") == ["7D"]
    v = g.view(None)
    assert (v.seats[0].positions[0].attack, v.seats[0].positions[0].defence) == (8, 18)


def test_example_05_strip_ks():
    g, _ = W().apply(1, "attack Q 2 1:K 2")
    assert guards(g, 0, "K") == [] and guards(g, 1, "Q") == []
    assert g.discard_pile == ["7D", "5C", "8C", "4D"]


def test_example_07_overkill():
    g = W()
    assert "attack K 1 1:J 1" in g.legal_moves(1)
    assert "attack K 1 1:J 2" not in g.legal_moves(1)
    assert_illegal(g, 1, "attack K 1 1:J 2", "power 9", "cost 17")


@pytest.mark.parametrize("card,spots,same", [
    ("3S", ["K", "Q", "J"], ["K", "Q", "J"]),
    ("4S", ["Q", "J"], ["K", "Q", "J"]),
    ("9H", ["Q"], ["Q"]),
])
def test_example_09_guard_legality(card, spots, same):
    seats = [["KS[8C,4D]", "QS[]", "JS[7C]"], ["KH[]", "QH[]", "JH[]"]]
    g = position(seats, pending=card, phase="guard")
    assert [m.split()[1] for m in g.legal_moves(0) if m.startswith("place")] == spots
    g = position(seats, pending=card, phase="guard", options=["Same-Value"])
    assert [m.split()[1] for m in g.legal_moves(0) if m.startswith("place")] == same


def test_example_09_guard_with_defeated_queen_is_discarded():
    g = position([["KS[8C,4D]", "QS(x)", "JS[7C]"], ["KH[]", "QH[]", "JH[]"]], draw=["9H"])
    g, _ = g.apply(0, "defend")
    assert g.discard_pile == ["9H"] and g.current == 1


def test_example_11_drawing_a_court():
    g = W(current=0, draw=["JD"])
    g, _ = g.apply(0, "defend")
    assert g.discard_pile == ["JD"] and g.current == 1


def test_example_13_defeating_a_joker():
    g = position([["KS[8C,4D]", "QS(x)+JK[6H]", "JS[7C]"], ["KH[9D,7S]", "QH[]", "JH[]"]], current=1)
    g, _ = g.apply(1, "attack K 2 1:Q 2")
    assert g.discard_pile == ["9D", "7S", "6H", "JK"]
    assert state(g, 0, "Q") == "defeated" and not g.eliminated[0]


def test_example_15_ace_turn():
    g = position([["KS[8C,4D]", "QS[]", "JS[7C]"], ["KH[9D]", "QH[]", "JH[4C,3D,2C]"]], draw=["AH", "5D"])
    g, _ = g.apply(0, "defend")
    assert g.discard_pile == ["AH"] and g.phase == "ace"
    g, _ = g.apply(0, "attack K 2 2:Q 1")
    assert state(g, 1, "Q") == "defeated" and g.pending == "5D"
    assert g.legal_moves(0) == ["place K", "place Q", "place J", "discard", "resign"]
    g, _ = g.apply(0, "place K")
    assert g.current == 1 and guards(g, 0, "K") == ["5D"]


def test_example_17_ace_chain():
    g = W(current=0, draw=["AD", "AC", "2H"])
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(0, "skip")
    assert g.discard_pile == ["AD", "AC"] and g.phase == "ace"
    g, _ = g.apply(0, "attack J 1 2:J 1")
    assert g.pending == "2H"
    g, _ = g.apply(0, "discard")
    assert g.current == 1


def test_example_19_recycling():
    g = W(current=0, draw=[], discard=["5H", "QD", "9S"])
    g, _ = g.apply(0, "defend")
    assert g.pending == "5H"


# ----- variants ------------------------------------------------------------------------
def test_variant_no_jokers():
    g = CourtWarsGame.new(NAMES[:3], ["No Jokers"], seed=4)
    assert not any(c.startswith("JK") for c in g.draw_pile) and len(g.draw_pile) == 43


def test_variant_same_value():
    g = position([["KS[8C,8D]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], pending="8H", phase="guard",
                 options=["same_value"])
    g, _ = g.apply(0, "place K")
    assert guards(g, 0, "K") == ["8C", "8D", "8H"]
    g = position([["KS[8C]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], pending="8H", phase="guard")
    assert_illegal(g, 0, "place K", "strictly lower")


def test_variant_shuffle_recycle():
    discard = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "2C", "3C", "4C"]
    g = W(current=0, draw=[], discard=discard, options=["Shuffle Recycle"])
    g, ev = g.apply(0, "defend")
    assert "shuffled and turned over" in texts(ev)
    assert sorted(g.draw_pile + [g.pending]) == sorted(discard)
    assert [g.pending] + g.draw_pile != discard  # shuffled (fixed seed)
    v = g.view(None)
    assert v.draw_pile is None and not v.draw_order_public and v.draw_size == 11


def test_variant_single_ace():
    g = W(current=0, draw=["AD", "AC", "2H"], options=["Single Ace"])
    g, _ = g.apply(0, "defend")
    assert g.phase == "ace"
    g, ev = g.apply(0, "skip")
    assert g.discard_pile == ["AD", "AC"] and g.current == 1 and "Single Ace" in texts(ev)
    g = W(current=0, draw=["AD", "AC"])
    g, _ = g.apply(0, "defend")
    g, _ = g.apply(0, "skip")
    assert g.phase == "ace" and g.current == 0  # without the variant the ace chains


# ----- forfeits ---------------------------------------------------------------------------
def three():
    return position([["KS[8C,4D]", "QS[]", "JS[7C]"], ["KH[9D]", "QS(x)+JK[5C]".replace("QS", "QH"), "JH[]"],
                     ["KD[6S]", "QD[]", "JD[]"]], draw=["AH", "2D", "3D", "QC"] * 3)


def test_forfeit_by_a_non_current_player():
    g, ev = three().forfeit(1)
    assert g.eliminated == [False, True, False] and not g.is_over()
    assert g.discard_pile == ["9D", "5C", "JK"] and all(p["state"] == "defeated" for p in g.courts[1])
    assert g.current == 0 and "Ben forfeits" in texts(ev)
    g, _ = g.apply(0, "defend")  # AH
    g, _ = g.apply(0, "skip")
    g, _ = g.apply(0, "discard")
    assert g.current == 2
    assert not any(m.split()[3].startswith("2:") for m in g.legal_moves(2) if m.startswith("attack"))


def test_forfeit_by_the_current_player_mid_ace_sequence():
    g, _ = three().apply(0, "defend")
    assert g.phase == "ace"
    g, _ = g.forfeit(0)
    assert g.current == 1 and g.phase == "turn" and g.eliminated[0] and not g.is_over()


def test_forfeit_by_the_current_player_with_a_pending_guard():
    g = three()
    g.draw_pile = ["2D"]
    g, _ = g.apply(0, "defend")
    g, _ = g.forfeit(0)
    assert g.pending is None and "2D" in g.discard_pile and g.current == 1


def test_forfeit_leaves_one_player_who_wins():
    g, _ = W().forfeit(0)
    assert g.outcome().winners == (1,)
    with pytest.raises(IllegalMove):
        g.forfeit(1)


def test_forfeit_during_the_build():
    g = CourtWarsGame.new(NAMES[:3], ["first=0"], seed=9)
    g, _ = g.forfeit(1)
    g, order = build_discarding(g)
    assert order == [0, 2] * 3
    g = CourtWarsGame.new(NAMES[:3], ["first=0"], seed=9)
    g, _ = g.forfeit(0)
    assert g.current == 1 and g.build_left == [1, 2]


# ----- illegal moves ------------------------------------------------------------------------
def test_illegal_moves_leave_the_state_unchanged():
    g = W()
    assert_illegal(g, 0, "defend", "Ben's turn")
    assert_illegal(g, 7, "defend", "not in the game")  # nobody sits there (core.Game.apply says so)
    assert_illegal(g, 1, "fly away", "not possible now")
    assert_illegal(g, 1, "defend now", "no arguments")
    assert_illegal(g, 1, "place K", "not possible now")
    assert_illegal(g, 1, "skip", "not possible now")
    g2, _ = W(current=0, draw=["5H"]).apply(0, "defend")
    assert_illegal(g2, 0, "place", "place K")
    assert_illegal(g2, 0, "place Z", "not a position")
    assert_illegal(g2, 0, "defend", "not possible now")
    over, _ = W().apply(1, "resign")
    assert_illegal(over, 0, "defend", "over")


# ----- views, describe, the built-in player ------------------------------------------------
def test_view_fields_and_json():
    g = W()
    v = g.view(None)
    assert isinstance(v, CourtWarsView)
    for key in ["game", "players", "deciding", "over", "result", "seats", "discard", "discard_size", "draw_size",
                "current", "stage", "build_round", "pending", "quiet_rounds", "rounds_limit", "recent"]:
        assert hasattr(v, key)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.current = 0  # type: ignore[misc]
    assert dataclasses.replace(g.view(0), seat=None) == v  # nothing is hidden from a seat
    assert CourtWarsGame.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


def test_describe_moves():
    g = W()
    assert g.describe(1, "attack Q 2 1:Q 1") == "Spend 7♦ 5♣ (12) from Q♥ → defeat Ana's Q♠ (cost 10)"
    assert g.describe(1, "attack Q 1 1:K 1") == "Spend 5♣ (5) from Q♥ → remove 4♦ from Ana's K♠ (cost 4)"
    assert g.describe(1, "defend") == "Defend: draw a card"
    g2 = position([["KS[8C]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], pending="4S", phase="guard")
    assert g2.describe(0, "place K") == "Place 4♠ on K♠ → Attack 12, Defence 22"
    assert g2.describe(0, "discard") == "Discard 4♠"


def test_auto_move_prefers_elimination_and_snug_guards():
    g = position([["KS[TC,9C]", "QS[]", "JS[]"], ["KH[]", "QH(x)", "JH(x)"], ["KD[]", "QD[]", "JD[]"]])
    assert str(auto_move(g, 0, random.Random(1))) in ("attack K 1 2:K 1", "attack K 2 2:K 1")
    assert str(auto_move(g, 0, random.Random(1))).endswith("2:K 1")
    g = position([["KS[9C]", "QS[5C]", "JS[]"], ["KH[]", "QH[]", "JH[]"]], pending="4H", phase="guard")
    assert str(auto_move(g, 0, random.Random(1))) == "place Q"
    g = position([["KS[]", "QS(x)", "JS[]"], ["KH[]", "QH[]", "JH[]"]], pending="JK", phase="joker")
    assert str(auto_move(g, 0, random.Random(1))) == "joker Q"
    g = position([["KS[]", "QS[]", "JS[]"], ["KH[]", "QH[]", "JH[]"]])
    assert str(auto_move(g, 0, random.Random(1))) == "defend"
