"""The rulebook's worked examples (§5), P = Ana (seat 0) attacks, D = Ben (seat 1) defends."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove

from .helpers import act, begin, fight, finished, hand, public, resource, unit


def test_m1_assembly():
    g = begin(phase="consolidation")
    finished(g, 0, "5H", "7S", "6C", "8H", "2C", "2H", "4S", "3C", "4H", "TC")
    g2, _ = act(g, 0, "assemble 5H 7S 6C")
    u = g2.view(0).boards[0].units[0]
    assert (u.life, u.armor, u.attack, u.cls) == (5, 7, 6, 2)
    with pytest.raises(IllegalMove, match="one class"):
        act(g, 0, "assemble 8H 7S 2C")
    g3, _ = act(g, 0, "assemble 2H 4S 3C")
    assert g3.view(0).boards[0].units[0].cls == 1
    with pytest.raises(IllegalMove, match="one class"):
        act(g, 0, "assemble 4H 4S TC")
    # choices never offer an illegal set
    assert "8H@0" not in g.choices(0, ("assemble",)).tokens()


def test_m3_production():
    # 3D+QD gives 3 (not 5): a diamond's number counts only for Initiative
    g = begin()
    resource(g, 0, "3D", queen="QD")
    g, ev = act(g, 0, "tap 3D")
    assert g.pool == 3 and "+3" in public(ev)
    # TD+QD also gives 3
    t = begin()
    resource(t, 0, "TD", queen="QD")
    t, _ = act(t, 0, "tap TD")
    assert t.pool == 3
    # 2D with JD gives 4
    j = begin()
    resource(j, 0, "2D")
    hand(j, 0, "JD")
    j, _ = act(j, 0, "tap 2D JD")
    assert j.pool == 4
    # TAP_BASE with Ace #1 = AD gives 2
    b = begin(aces={0: "ADACASAH"})
    b, _ = act(b, 0, "tapbase")
    assert b.pool == 2
    # 3D+QD, 2D with JD and the base (Ace #1 = AD) in one phase: a pool of 9
    g = begin(aces={0: "ADACASAH"})
    resource(g, 0, "3D", queen="QD")
    resource(g, 0, "2D")
    hand(g, 0, "JD")
    for move in ("tap 3D", "tap 2D JD", "tapbase"):
        g, _ = act(g, 0, move)
    assert g.pool == 9
    # one deck has one QD: 3D+QD and TD+QD cannot both be in play
    with pytest.raises(AssertionError, match="not free"):
        resource(g, 0, "TD", queen="QD")


def test_m5_engagement():
    g = begin()
    light = unit(g, 0, "2H", "3S", "4C")
    med = unit(g, 0, "5H", "6S", "7C")
    heavy = unit(g, 0, "8H", "9S", "TC")
    gl = unit(g, 1, "2H", "2S", "2C", zone="guardian")
    gm = unit(g, 1, "5H", "5S", "5C", zone="guardian")
    gh = unit(g, 1, "8H", "8S", "8C", zone="guardian")
    unit(g, 1, "3H", "3S", "3C", zone="patrol")
    unit(g, 1, "4H", "4S", "4C", zone="guardian", tapped=True)
    g, _ = fight(g, f"attack @1 {light} #1@1 {med} #1@1 {heavy} #1@1")
    for ok in (f"engage {gl} {light}", f"engage {gl} {heavy}", f"engage {gm} {med}", f"engage {gm} {heavy}",
               f"engage {gh} {heavy}", f"engage {gl} {med} {gm} {med}"):
        g.apply(1, ok)
    for bad in (f"engage {gm} {light}", f"engage {gh} {med}", f"engage 3H@1 {heavy}", f"engage 4H@1 {heavy}"):
        with pytest.raises(IllegalMove):
            g.apply(1, bad)
    assert set(g.choices(1, ("engage",)).tokens()) == {gl, gm, gh}


def test_m7_split_damage():
    g = begin()
    a1 = unit(g, 0, "6H", "5S", "7C")
    g1 = unit(g, 1, "4H", "3S", "3C", zone="guardian")
    g2 = unit(g, 1, "3H", "2S", "4C", zone="guardian")
    g, _ = fight(g, f"attack @1 {a1} #1@1", f"engage {g1} {a1} {g2} {a1}")
    assert [(d.seat, d.name) for d in g.decisions()] == [(0, "commit")]
    c = g.choices(0, ("commit", "split"))
    assert c.kind == "range" and (c.lo, c.hi) == (0, 7) and str(c.progress) == "Σ 0 of 7"
    last = g.choices(0, ("commit", "split", "2"))
    assert (last.lo, last.hi) == (5, 5)
    g, ev = act(g, 0, "commit split 2 5")  # 2 to G1, 5 to G2 (the defender's listing order)
    v = g.view(None)
    assert "3H@1" in v.boards[1].discard  # G2: 5 − 2 = 3 ≥ 3 → destroyed
    assert [u.id for u in v.boards[1].units] == [g1] and v.boards[1].units[0].wounds == 0  # G1: 0 wounds
    a = v.boards[0].units[0]
    assert a.wounds == 2 and a.life == 6  # A1 takes 3 + 4 = 7 − 5 armor = 2 wounds < 6: survives
    assert v.boards[1].base[0].wounds == 0  # A1 does not damage the base
    assert "destroyed" in public(ev)


def _m9(g_attack: str):
    g = begin()
    a = unit(g, 0, "5H", "7S", "6C")
    big = unit(g, 1, "7H", "7S", "7C", zone="guardian")
    small = unit(g, 1, *(("5H", "5S", "5C") if g_attack == "12" else ("4H", "4S", "4C")), zone="guardian")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {big} {a} {small} {a}")
    g, _ = act(g, 0, "commit split 3 3")
    return g.view(None).boards[0]


def test_m9_the_at_least_rule():
    assert _m9("12").units == ()  # 12 − 7 = 5 = Life: destroyed
    left = _m9("11").units
    assert len(left) == 1 and left[0].wounds == 4  # 11 − 7 = 4 wounds: survives


def _m11(d_card: str | None):
    g = begin()
    resource(g, 0, "4D")
    resource(g, 1, "9D")
    a2 = unit(g, 0, "5H", "5S", "6C")
    g3 = unit(g, 1, "5H", "7S", "5C", zone="guardian")
    hand(g, 0, "KC")
    if d_card:
        hand(g, 1, d_card)
    g, ev = fight(g, f"attack @1 {a2} #1@1", f"engage {g3} {a2}")
    assert "Initiative: Ana 4, Ben 9; Ben holds it." in public(ev)
    assert g.decisions()[0].seat == 0  # P, without initiative, commits first
    return g, a2, g3


def test_m11_kc_against_js_jh():
    g, a2, g3 = _m11(None)
    g0, _ = act(g, 0, "commit")
    assert g0.view(None).boards[1].units[0].wounds == 0  # without cards: G3 takes 0
    g1, ev = act(g, 0, f"commit KC {g3}")
    assert g1.view(None).boards[1].units == ()  # Armor 0: 6 ≥ 5, destroyed
    g, a2, g3 = _m11("JS")
    g, ev = act(g, 0, f"commit KC {g3}")
    assert "first commit: K♣" in public(ev)  # revealed before D answers
    g, _ = act(g, 1, f"commit JS {g3}")
    assert g.view(None).boards[1].units == ()  # KC keeps its Armor at 0
    g, a2, g3 = _m11("JH")
    g, _ = act(g, 0, f"commit KC {g3}")
    g, ev = act(g, 1, f"commit JH {g3}")
    v = g.view(None)
    assert v.boards[1].units[0].wounds == 3  # net 6, 3 absorbed
    assert v.boards[0].units[0].wounds == 0  # A2 takes 5 − 5 = 0


def test_m13_base_tap():
    g = begin(3, aces={1: "ASACADAH"})
    att = unit(g, 0, "5H", "6S", "7C")
    gd = unit(g, 1, "6H", "5S", "7C", zone="guardian")
    g, _ = fight(g, f"attack @1 {att} #1@1", f"engage {gd} {att}")
    assert "tap" in g.choices(1, ("commit",)).tokens()
    g_no, _ = act(g, 1, "commit")
    assert g_no.view(None).boards[1].units[0].wounds == 2  # without the tap
    g, ev = act(g, 1, f"commit tap {gd}")
    assert "+2 Armor" in public(ev)
    assert g.view(None).boards[1].units[0].wounds == 0 and g.boards[1]["base_tapped"]
    # another opponent's turn in the same round: no second tap
    g = g.copy()
    g.current, g.phase = 2, "battle"
    c2 = unit(g, 2, "5H", "6S", "7C")
    hand(g, 1, "2C")
    g, _ = act(g, 2, f"attack @1 {c2} #1@1")
    g, _ = act(g, 1, f"engage {gd} {c2}")
    assert [(d.seat, d.name) for d in g.decisions()] == [(1, "commit")]
    assert "tap" not in g.choices(1, ("commit",)).tokens()
    # A♦ as Ace #1 never taps in a battle
    h = begin(aces={1: "ADACASAH"})
    a = unit(h, 0, "5H", "6S", "7C")
    gg = unit(h, 1, "6H", "5S", "7C", zone="guardian")
    hand(h, 1, "2C")
    h, _ = fight(h, f"attack @1 {a} #1@1", f"engage {gg} {a}")
    assert "tap" not in h.choices(1, ("commit",)).tokens()
    with pytest.raises(IllegalMove, match="A♣, A♠ or A♥"):
        act(h, 1, f"commit tap {gg}")


def test_m15_unit_cap():
    g = begin(phase="consolidation")
    for cs in (("3H", "2S", "3C"), ("4H", "4S", "2C"), ("5H", "5S", "6C"), ("8H", "8S", "8C")):
        unit(g, 0, *cs)
    finished(g, 0, "2H", "3S", "4C", "6H", "6S", "5C")
    g, _ = act(g, 0, "assemble 2H 3S 4C")
    assert len(g.boards[0]["units"]) == 5
    new = g.view(0).boards[0].units[-1]
    assert new.zone == "patrol" and not new.tapped and new.wounds == 0
    with pytest.raises(IllegalMove, match="4 units or fewer"):
        act(g, 0, "assemble 6H 6S 5C")
    assert "assemble" not in g.choices(0).tokens()
    with pytest.raises(IllegalMove, match="first assembly"):
        act(g, 0, "move 2H")
