"""A test per ruling of the rulebook (§3, 1–36), per variant (V1–V5), and the turn's edges."""

from __future__ import annotations

import pytest

from bot.engine.core import HIDDEN, IllegalMove

from .helpers import act, begin, check_cards, fight, finished, hand, public, resource, unit


def test_ruling_01_component_worth_its_number():
    g = begin()
    u = unit(g, 0, "6H", "5S", "6C")
    v = g.view(None).boards[0].units[0]
    assert u == "6H@0" and (v.life, v.armor, v.attack) == (6, 5, 6)


def test_ruling_02_slow_means_heavy_any_guardian_engages_it():
    g = begin()
    h = unit(g, 0, "8H", "9S", "TC")
    gl = unit(g, 1, "2H", "2S", "2C", zone="guardian")
    gm = unit(g, 1, "5H", "5S", "5C", zone="guardian")
    gh = unit(g, 1, "8H", "8S", "8C", zone="guardian")
    g, _ = fight(g, f"attack @1 {h} #1@1")
    assert g.choices(1, ("engage",)).tokens() == [gl, gm, gh]
    g.apply(1, f"engage {gl} {h} {gm} {h} {gh} {h}")


def test_ruling_03_guardian_engages_own_class_or_slower():
    g = begin()
    light = unit(g, 0, "2H", "3S", "4C")
    gm = unit(g, 1, "5H", "5S", "5C", zone="guardian")
    gl = unit(g, 1, "3H", "3S", "3C", zone="guardian")
    g, _ = fight(g, f"attack @1 {light} #1@1")
    assert g.choices(1, ("engage",)).tokens() == [gl]
    with pytest.raises(IllegalMove, match="own class or a slower one"):
        g.apply(1, f"engage {gm} {light}")


def test_ruling_04_only_patrols_attack_only_guardians_engage():
    g = begin()
    guard = unit(g, 0, "5H", "5S", "5C", zone="guardian")
    pat = unit(g, 0, "6H", "6S", "6C")
    unit(g, 1, "7H", "7S", "7C", zone="patrol")
    g.phase = "battle"
    with pytest.raises(IllegalMove, match="Patrol"):
        g.apply(0, f"attack @1 {guard} #1@1")
    assert g.choices(0, ("attack", "@1")).tokens() == [pat]
    g, ev = act(g, 0, f"attack @1 {pat} #1@1")
    assert "no unit that may engage" in public(ev) and g.battle is None
    assert g.boards[1]["base"][0]["wounds"] == 6


def test_variant_v1_mobile_defence():
    g = begin(options=["Mobile defence"])
    light = unit(g, 0, "2H", "3S", "4C")
    gh = unit(g, 1, "8H", "8S", "8C", zone="guardian")  # ignores the speed table
    pl = unit(g, 1, "3H", "3S", "3C", zone="patrol")  # untapped patrol may engage
    pm = unit(g, 1, "5H", "5S", "5C", zone="patrol")  # but follows the table
    g, _ = fight(g, f"attack @1 {light} #1@1")
    assert g.choices(1, ("engage",)).tokens() == [gh, pl]
    g.apply(1, f"engage {gh} {light} {pl} {light}")
    with pytest.raises(IllegalMove):
        g.apply(1, f"engage {pm} {light}")


def test_ruling_33_v1_patrols_obey_the_speed_table():
    """Under V1 an untapped Patrol unit that engages obeys the speed table like any engagement
    (its own class or a slower attacker); only Guardians ignore it. A patrol the table forbids is
    refused for the speed table, not as if patrols could not engage."""
    g = begin(options=["Mobile defence"])
    medium = unit(g, 0, "5H", "5S", "5C")
    light = unit(g, 0, "2H", "3S", "4C")
    ph = unit(g, 1, "8H", "8S", "8C", zone="patrol")  # Heavy patrol: too slow for either attacker
    pm = unit(g, 1, "6H", "6S", "6C", zone="patrol")  # Medium patrol: the Medium attacker only
    pl = unit(g, 1, "3H", "3S", "3C", zone="patrol")  # Light patrol: both
    gh = unit(g, 1, "9H", "9S", "9C", zone="guardian")  # Heavy guardian: ignores the table
    unit(g, 1, "7H", "7S", "7C", zone="patrol", tapped=True)  # tapped: never
    g, _ = fight(g, f"attack @1 {medium} #1@1 {light} #2@1")
    assert g.choices(1, ("engage",)).tokens() == [pm, pl, gh]
    assert g.choices(1, ("engage", pm)).tokens() == [medium]
    assert g.choices(1, ("engage", pl)).tokens() == [medium, light]
    assert g.choices(1, ("engage", gh)).tokens() == [medium, light]
    for patrol, attacker in ((ph, medium), (ph, light), (pm, light)):
        with pytest.raises(IllegalMove, match="a patrol engages its own class or a slower one") as e:
            g.apply(1, f"engage {patrol} {attacker}")
        assert e.value.rule == "33"
    with pytest.raises(IllegalMove, match="untapped guardians and patrols only"):
        g.apply(1, f"engage 7H@1 {medium}")
    h, ev = act(g, 1, f"engage {pm} {medium} {gh} {light}")
    assert "engages: [6♥ 6♠ 6♣] on [5♥ 5♠ 5♣], [9♥ 9♠ 9♣] on [2♥ 3♠ 4♣]" in public(ev)


def test_ruling_05_declaring_taps_engaging_does_not():
    g = begin()
    a = unit(g, 0, "5H", "5S", "5C")
    gd = unit(g, 1, "6H", "7S", "5C", zone="guardian")
    g, _ = fight(g, f"attack @1 {a} #1@1")
    assert g.boards[0]["units"][0]["tapped"]
    g, _ = act(g, 1, f"engage {gd} {a}")
    assert not g.unit(1, gd)["tapped"]
    assert "attack" not in g.choices(0).tokens()  # the tapped unit cannot attack again
    with pytest.raises(IllegalMove, match="untapped Patrol"):
        g.apply(0, f"attack @1 {a} #1@1")


def test_ruling_05_tapped_guardian_cannot_engage():
    g = begin()
    a = unit(g, 0, "5H", "5S", "5C")
    unit(g, 1, "6H", "7S", "5C", zone="guardian", tapped=True)
    g, ev = fight(g, f"attack @1 {a} #1@1")
    assert "no unit that may engage" in public(ev)


def test_ruling_06_several_battles_each_unit_once_empty_base_untargetable():
    g = begin(3)
    a = unit(g, 0, "5H", "5S", "5C")
    b = unit(g, 0, "6H", "6S", "6C")
    g, _ = fight(g, f"attack @1 {a} #1@1")
    g, _ = act(g, 0, f"attack @2 {b} #2@2")
    assert g.boards[1]["base"][0]["wounds"] == 5 and g.boards[2]["base"][1]["wounds"] == 6
    h = begin(3)
    unit(h, 0, "5H", "5S", "5C")
    h.boards[2]["fallen"] = [x["ace"] for x in h.boards[2]["base"]]
    h.boards[2]["base"] = []
    h.phase = "battle"
    assert h.choices(0, ("attack",)).tokens() == ["@1"]
    with pytest.raises(IllegalMove, match="at least one Ace"):
        h.apply(0, "attack @2 5H@0 #1@2")


def test_ruling_07_armor_once_per_battle_wounds_stay():
    g = begin()
    a = unit(g, 0, "5H", "5S", "7C")
    gd = unit(g, 1, "7H", "4S", "5C", zone="guardian")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    assert g.unit(1, gd)["wounds"] == 3  # 7 − 4 once
    assert g.unit(0, a)["wounds"] == 0  # 5 − 5
    g = g.copy()
    g.current = 0
    g.unit(0, a)["tapped"] = False
    g, _ = act(g, 0, f"attack @1 {a} #1@1")
    g, _ = act(g, 1, f"engage {gd} {a}")
    assert g.unit(1, gd)["wounds"] == 6  # armor applies again; 3 + 3 = 6 < 7


def test_ruling_08_destroyed_at_wounds_equal_life():
    g = begin()
    a = unit(g, 0, "5H", "5S", "7C")
    gd = unit(g, 1, "3H", "4S", "4C", zone="guardian")
    g, ev = fight(g, f"attack @1 {a} #1@1")
    g, ev = act(g, 1, f"engage {gd} {a}")
    assert g.unit(1, gd) is None and "(3 of 3): destroyed" in public(ev)


def test_ruling_09_position_named_suits_hidden_no_carry_over():
    g = begin(aces={1: "ASAHACAD"})
    a = unit(g, 0, "8H", "8S", "TC")
    v = g.view(0).boards[1]
    assert v.base[0].card == "AS@1" and v.base[1].card is HIDDEN
    g.boards[1]["base"][2]["wounds"] = 12
    g, ev = fight(g, f"attack @1 {a} #3@1")
    assert [x["ace"] for x in g.boards[1]["base"]] == ["AS@1", "AH@1", "AD@1"]
    assert g.boards[1]["fallen"] == ["AC@1"]
    assert all(x["wounds"] == 0 for x in g.boards[1]["base"])  # the 6 surplus goes nowhere


def test_variant_v2_top_only_surplus_passes_on():
    g = begin(options=["Top only"], aces={1: "ASAHACAD"})
    a = unit(g, 0, "8H", "8S", "TC")
    b = unit(g, 0, "9H", "9S", "9C")
    g.boards[1]["base"][0]["wounds"] = 12
    g.phase = "battle"
    assert g.choices(0, ("attack", "@1", a)).tokens() == ["#1@1"]
    with pytest.raises(IllegalMove, match="Top only"):
        g.apply(0, f"attack @1 {a} #2@1")
    g, _ = act(g, 0, f"attack @1 {a} #1@1 {b} #1@1")
    assert g.boards[1]["fallen"] == ["AS@1"]
    assert g.boards[1]["base"][0]["ace"] == "AH@1" and g.boards[1]["base"][0]["wounds"] == 19 - 4


def _top_only(wounds: list[int], d_cards=(), aces="ASAHACAD"):
    """Top only: Ana's 10, 9 and 7 Attack (26 in all) on Ben's Ace #1, its base wounded as given."""
    g = begin(options=["Top only"], aces={1: aces})
    a = unit(g, 0, "8H", "8S", "TC")
    b = unit(g, 0, "9H", "9S", "9C")
    c = unit(g, 0, "7H", "7S", "7C")
    g.boards[1]["fallen"] = [x["ace"] for x in g.boards[1]["base"][len(wounds):]]
    g.boards[1]["base"] = g.boards[1]["base"][:len(wounds)]
    for rec, w in zip(g.boards[1]["base"], wounds, strict=True):
        rec["wounds"] = w
    hand(g, 1, *d_cards)
    g.phase = "battle"
    g, ev = act(g, 0, f"attack @1 {a} #1@1 {b} #1@1 {c} #1@1")
    return g, ev


def test_ruling_34_v2_surplus_meets_each_aces_own_armor_and_templife():
    """Under V2 the damage meets Ace #1 first (its Armor, TempLife and K♠ apply); what is left once
    Ace #1 is destroyed passes to Ace #2 with that Ace's own Armor and TempLife (none of Ace #1's
    bonuses), and so on down the base until it is spent or no Ace remains. K♠ on Ace #1 stops the
    whole attack."""
    g, _ = _top_only([12, 10, 0, 0], ("JH", "JS"))
    g, ev = act(g, 1, "commit JH@1 #1@1 JS@1 #1@1")
    said = public(ev)
    # Ace #1: 26 − 3 Armor, 3 absorbed → 20 wounds, 16 beyond its 4 life left; Ace #2 meets 16 with
    # its own Armor and TempLife (0): 10 + 16 = 26, 10 beyond; Ace #3 takes the last 10
    assert "Ace #1 (A♠) takes 26 − armor 3, 3 absorbed → 20 wounds (32 of 16): destroyed" in said
    assert "Ace #2 takes 16 − armor 0 → 16 wounds (26 of 16): destroyed" in said
    assert "Ace #3 takes 10 − armor 0 → 10 wounds (10 of 16)" in said
    assert g.boards[1]["fallen"] == ["AS@1", "AH@1"] and [(x["ace"], x["wounds"]) for x in g.boards[1]["base"]] == [
        ("AC@1", 10), ("AD@1", 0)]
    spent, _ = _top_only([14, 0])  # 26 − 2 = 24 pass on; Ace #2 takes them all and falls: no Ace remains
    assert spent.boards[1]["base"] == [] and spent.boards[1]["fallen"][-2:] == ["AS@1", "AH@1"]
    g, _ = _top_only([12, 10, 0, 0], ("KS",))
    g, ev = act(g, 1, "commit KS@1 #1@1")  # K♠ on Ace #1: nothing passes on
    assert [x["wounds"] for x in g.boards[1]["base"]] == [12, 10, 0, 0] and "loses" not in public(ev)


def test_ruling_10_attacker_splits_in_whole_numbers():
    g = begin()
    a = unit(g, 0, "6H", "5S", "7C")
    g1 = unit(g, 1, "4H", "3S", "4C", zone="guardian")
    g2 = unit(g, 1, "3H", "2S", "3C", zone="guardian")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {g1} {a} {g2} {a}")
    with pytest.raises(IllegalMove, match="add up to its Attack, 7"):
        g.apply(0, "commit split 3 3")
    g, _ = act(g, 0, "commit split 7 0")
    assert g.unit(1, g1) is None and g.unit(1, g2)["wounds"] == 0


def test_ruling_11_only_the_player_without_initiative_seizes_once():
    g = begin()
    resource(g, 1, "9D")
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 0, "KD", "2C")
    hand(g, 1, "KD", "3C")
    g, ev = fight(g, f"attack @1 {a} #1@1")
    assert [(d.seat, d.name) for d in g.decisions()] == [(0, "commit")]
    assert g.choices(0).tokens() == ["commit", "seize"]
    g, ev = act(g, 0, "seize")
    assert g.battle["holder"] == 0 and "KD@0" in g.boards[0]["discard"]
    assert [(d.seat, d.name) for d in g.decisions()] == [(1, "commit")]
    assert g.choices(1).tokens() == ["commit"]  # no KD for initiative again
    with pytest.raises(IllegalMove, match="already seized"):
        g.apply(1, "seize")


def test_ruling_12_lower_initiative_commits_first_and_is_revealed():
    g = begin()
    resource(g, 0, "9D")
    resource(g, 1, "2D", tapped=True)
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 0, "JC")
    hand(g, 1, "JK")
    g, ev = fight(g, f"attack @1 {a} #1@1")
    assert "Initiative: Ana 9, Ben 2; Ana holds it." in public(ev)
    assert g.decisions()[0].seat == 1
    g, ev = act(g, 1, "commit")
    assert "Ben's first commit: nothing." in public(ev) and g.decisions()[0].seat == 0
    g, ev = act(g, 0, f"commit JC@0 {a}")
    assert "second commit: J♣" in public(ev) and g.boards[1]["base"][0]["wounds"] == 8


def test_ruling_12_tie_goes_to_the_attacker():
    g = begin()
    resource(g, 0, "5D")
    resource(g, 1, "5D")
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 1, "2C")
    g, ev = fight(g, f"attack @1 {a} #1@1")
    assert g.battle["holder"] == 0 and g.decisions()[0].seat == 1


def test_ruling_13_jacks_last_one_battle_jh_is_temporary_life():
    g = begin()
    a = unit(g, 0, "5H", "5S", "5C")
    b = unit(g, 0, "6H", "6S", "6C")
    gd = unit(g, 1, "7H", "2S", "7C", zone="guardian")
    hand(g, 1, "JH", "JS")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    g, _ = act(g, 1, f"commit JH@1 {gd} JS@1 {gd}")
    assert g.unit(1, gd)["wounds"] == 0  # 5 − (2+3) = 0
    g, _ = act(g, 0, f"attack @1 {b} #1@1")
    g, _ = act(g, 1, f"engage {gd} {b}")
    assert g.unit(1, gd)["wounds"] == 4  # no bonus carries: 6 − 2
    # JH absorbs wounds, so nothing dies when it wears off
    h = begin()
    a = unit(h, 0, "5H", "5S", "7C")
    gd = unit(h, 1, "3H", "2S", "4C", zone="guardian")
    hand(h, 1, "JH")
    h, _ = fight(h, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    h, _ = act(h, 1, f"commit JH@1 {gd}")
    assert h.unit(1, gd)["wounds"] == 2  # net 5, 3 absorbed


def test_ruling_13_jd_adds_three_markers_to_one_tap():
    g = begin()
    resource(g, 0, "5D")
    hand(g, 0, "JD")
    g, _ = act(g, 0, "tap 5D JD")
    assert g.pool == 4 and "JD@0" in g.boards[0]["discard"]


def test_variant_v3_jd_for_initiative():
    g = begin(options=["Diamond initiative"])
    resource(g, 1, "4D")
    resource(g, 0, "2D")
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 0, "JD", "2C")
    hand(g, 1, "3C")
    g, _ = fight(g, f"attack @1 {a} #1@1")
    assert g.choices(0).tokens() == ["commit", "boost"]
    g, ev = act(g, 0, "boost")
    assert g.battle["init"] == [5, 4] and g.battle["holder"] == 0 and g.decisions()[0].seat == 1
    h = begin()
    resource(h, 1, "4D")
    hand(h, 0, "JD")
    b = unit(h, 0, "5H", "5S", "5C")
    h, _ = fight(h, f"attack @1 {b} #1@1")
    with pytest.raises(IllegalMove, match="Diamond initiative"):
        h.apply(0, "boost")


def test_ruling_14_diamond_number_only_initiative_tap_when_played():
    g = begin()
    hand(g, 0, "9D")
    g, _ = act(g, 0, "resource 9D")
    g, _ = act(g, 0, "tap 9D")
    assert g.pool == 1
    assert g.view(None).boards[0].initiative == 9


def test_ruling_15_queens_own_phases_one_each_class_unchanged():
    g = begin()
    u = unit(g, 0, "4H", "4S", "4C")
    hand(g, 0, "QC", "QS")
    g, _ = act(g, 0, f"queen QC {u}")
    v = g.view(None).boards[0].units[0]
    assert v.attack == 6 and v.cls == 1
    assert "queen" not in g.choices(0).tokens()  # the only unit already has a queen
    with pytest.raises(IllegalMove, match="without a queen"):
        g.apply(0, f"queen QS {u}")
    g = g.copy()
    g.phase = "battle"
    with pytest.raises(IllegalMove, match="construction or consolidation"):
        g.apply(0, f"queen QS {u}")


def test_ruling_16_kings():
    # KS: no wounds; KC: Armor 0 over every bonus; KH heals before damage
    g = begin(aces={0: "ASACADAH"})
    a = unit(g, 0, "5H", "5S", "7C", wounds=4)
    gd = unit(g, 1, "5H", "7S", "6C", zone="guardian")
    hand(g, 0, "KS", "KC", "KH")
    hand(g, 1, "JS")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    g, _ = act(g, 1, f"commit JS@1 {gd}")
    g, ev = act(g, 0, f"commit KC@0 {gd} KH@0 {a} tap {a}")
    assert g.unit(1, gd) is None  # 7 ≥ 5 with Armor 0
    assert g.unit(0, a)["wounds"] == 0  # healed first, then 6 − (5+2) = 0
    h = begin()
    a = unit(h, 0, "5H", "5S", "5C")
    gd = unit(h, 1, "5H", "2S", "6C", zone="guardian")
    hand(h, 1, "KS")
    h, _ = fight(h, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    h, ev = act(h, 1, f"commit KS@1 {gd}")
    assert h.unit(1, gd)["wounds"] == 0 and "K♠: no wounds" in public(ev)


def test_ruling_16_kd_rushes_a_card():
    g = begin()
    hand(g, 0, "KD", "9H")
    g, ev = act(g, 0, "rush 9H")
    assert g.boards[0]["finished"] == ["9H@0"] and "KD@0" in g.boards[0]["discard"]


def test_ruling_17_base_tap_by_suit():
    for ace, field, word in (("AC", "attack", "+2 Attack"), ("AH", "temp", "+2 temporary life")):
        g = begin(aces={0: ace + "".join(x for x in ("AS", "AD", "AH", "AC") if x != ace)})
        a = unit(g, 0, "5H", "5S", "5C")
        gd = unit(g, 1, "7H", "3S", "7C", zone="guardian")
        hand(g, 0, "2C")
        g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
        g, ev = act(g, 0, f"commit tap {a}")
        assert word in public(ev) and g.boards[0]["base_tapped"]
        if field == "attack":
            assert g.unit(1, gd)["wounds"] == 4
        else:
            assert g.unit(0, a)["wounds"] == 0  # 7 − 5 = 2, absorbed
    g = begin(aces={0: "ADACASAH"})
    g, _ = act(g, 0, "tapbase")
    assert g.pool == 2
    with pytest.raises(IllegalMove, match="untapped"):
        g.apply(0, "tapbase")


def test_ruling_18_start_needs_a_marker_surplus_lost():
    g = begin()
    hand(g, 0, "5H", "3S")
    with pytest.raises(IllegalMove, match="at least 1 marker"):
        g.apply(0, "start 5H 0")
    assert "start" not in g.choices(0).tokens()
    resource(g, 0, "5D", queen="QD")
    resource(g, 0, "6D")
    g, _ = act(g, 0, "tap 5D")
    g, _ = act(g, 0, "tap 6D")
    g, ev = act(g, 0, "start 3S 4")
    assert g.boards[0]["finished"] == ["3S@0"] and g.pool == 0
    g, ev = act(g, 0, "done")
    assert g.phase == "battle"


def test_ruling_19_joker_revives_to_the_bottom_not_in_a_commit():
    g = begin()
    g.boards[0]["fallen"].append(g.boards[0]["base"].pop(0)["ace"])
    g.boards[0]["base"][0]["shown"] = True
    hand(g, 0, "JK")
    g, ev = act(g, 0, "revive AD@0")
    assert [x["ace"] for x in g.boards[0]["base"]][-1] == "AD@0" and g.boards[0]["base"][-1]["wounds"] == 0
    assert g.view(1).boards[0].base[-1].card == "AD@0"  # its suit was public
    with pytest.raises(IllegalMove):
        g.apply(0, "commit JK@0 5H@0")


def test_ruling_19_revive_into_an_empty_base_makes_ace_one():
    g = begin()
    g.boards[0]["fallen"] = [x["ace"] for x in g.boards[0]["base"]]
    g.boards[0]["base"] = []
    hand(g, 0, "JK2")
    g, _ = act(g, 0, "revive AS@0")
    assert g.view(1).boards[0].base[0].card == "AS@0"


def test_ruling_20_elimination_only_at_own_end_turn():
    g = begin(3)
    a = unit(g, 0, "8H", "8S", "TC")
    g.boards[1]["fallen"] = [x["ace"] for x in g.boards[1]["base"][1:]]
    g.boards[1]["base"] = g.boards[1]["base"][:1]
    g.boards[1]["base"][0]["wounds"] = 10
    g, _ = fight(g, f"attack @1 {a} #1@1")
    assert g.boards[1]["base"] == [] and not g.boards[1]["out"]
    g, _ = act(g, 0, "done")
    g, _ = act(g, 0, "end")
    assert g.current == 1 and not g.boards[1]["out"]  # keeps playing until its own END_TURN
    g, _ = act(g, 1, "done")
    g, _ = act(g, 1, "done")
    g, ev = act(g, 1, "end")
    assert g.boards[1]["out"] and "eliminated" in public(ev) and g.current == 2
    check_cards(g)


def test_ruling_20_winner_may_have_an_empty_base():
    g = begin()
    a = unit(g, 0, "8H", "8S", "TC")
    g.boards[0]["fallen"] = [x["ace"] for x in g.boards[0]["base"]]
    g.boards[0]["base"] = []
    g.boards[1]["fallen"] = [x["ace"] for x in g.boards[1]["base"][1:]]
    g.boards[1]["base"] = g.boards[1]["base"][:1]
    g.boards[1]["base"][0]["wounds"] = 10
    g, _ = fight(g, f"attack @1 {a} #1@1")
    assert g.boards[1]["base"] == [] and not g.is_over()
    g, _ = act(g, 0, "done")
    g, ev = act(g, 0, "end")  # Ana is eliminated at her END_TURN; Ben remains
    assert g.outcome().winners == (1,) and g.boards[1]["base"] == []


def test_ruling_30_v5_teams_sit_apart_with_4_or_6_players():
    for n in (2, 3, 5):
        with pytest.raises(IllegalMove, match="4 or 6"):
            begin(n, options=["Teams"])
    g = begin(4, options=["Teams"])
    g.order = [2, 0, 3, 1]  # seats 1..4 clockwise: Cat, Ana, Dee, Ben
    assert {s: g.view(None).boards[s].team for s in range(4)} == {2: 0, 3: 0, 0: 1, 1: 1}
    unit(g, 0, "5H", "5S", "5C")
    g.phase = "battle"
    assert g.choices(0, ("attack",)).tokens() == ["@2", "@3"]  # Ben (seat 4) is Ana's (seat 2) teammate
    with pytest.raises(IllegalMove, match="teammate"):
        g.apply(0, "attack @1 5H@0 #1@1")
    for s in (2, 3):
        g.boards[s]["fallen"] = [x["ace"] for x in g.boards[s]["base"]]
        g.boards[s]["base"] = []
        g.boards[s]["out"] = True
    g.phase = "consolidation"
    g, ev = act(g, 0, "end")
    assert g.outcome().winners == (0, 1)
    h = begin(6, options=["Teams"])
    h.order = [5, 4, 3, 2, 1, 0]  # seats 1..6: Fay Eve Dee Cat Ben Ana
    team = {s: h.view(None).boards[s].team for s in range(6)}
    assert team[5] == team[2] and team[4] == team[1] and team[3] == team[0]  # 1&4, 2&5, 3&6
    assert len(set(team.values())) == 3
    # a real deal: the seating message names the pairs, each pair two apart or three apart
    from bot.engine.maginot_line import GAME

    k = GAME.new(NAMES6, ["Teams"], seed=3)
    for s in range(6):
        k, ev = k.apply(s, "aces random")
    said = public(ev)
    assert "Teams: " in said
    for s in range(6):
        mate = [t for t in range(6) if t != s and k.view(None).boards[t].team == k.view(None).boards[s].team]
        assert len(mate) == 1 and abs(k.order.index(s) - k.order.index(mate[0])) == 3


NAMES6 = ["Ana", "Ben", "Cat", "Dee", "Eve", "Fay"]


def _teams_round(aces: dict[int, int], wounds: dict[int, int], out: tuple[int, ...]):
    """Teams with a round limit of 1: seats 0 and 2 (Ana, Cat) against 1 and 3 (Ben, Dee), each seat
    keeping ``aces`` Aces with ``wounds`` on its Ace #1, the seats in ``out`` eliminated; the round
    is played out (nobody attacks). The game and the last events."""
    from bot.engine.maginot_line.turn import eliminate

    g = begin(4, options=["Teams", "rounds=1"], phase="consolidation")
    for s, n in aces.items():
        base = g.boards[s]["base"]
        g.boards[s]["fallen"] += [x["ace"] for x in base[n:]]
        g.boards[s]["base"] = base[:n]
        if n:
            g.boards[s]["base"][0]["wounds"] = wounds.get(s, 0)
    for s in out:
        eliminate(g, s, [])
    g, ev = act(g, 0, "end")
    while not g.is_over():
        seat = g.current
        for m in ("done", "done", "end"):
            g, ev = act(g, seat, m)
    return g, ev


def test_ruling_35_v5_a_team_wins_whole_and_the_safeguard_ranks_teams():
    """When only one team's members remain the whole team wins, a member already eliminated
    included; under V5 the round-limit safeguard ranks the teams by their members' Aces added
    together, then their Ace life added together."""
    # Ben alone has the most Aces (4), but Ana's 3 and Cat's 2 make 5 against Ben's 4 and Dee's 0
    g, ev = _teams_round({0: 3, 1: 4, 2: 2}, {}, out=(3,))
    assert g.outcome().winners == (0, 2) and "round limit (5 Aces, 80 Ace life as a team)" in public(ev)
    # the Aces tie (4 against 4): Ace life decides, and Dee, already out, wins with Ben
    g, ev = _teams_round({0: 2, 1: 4, 2: 2}, {0: 1}, out=(3,))
    assert g.outcome().winners == (1, 3) and "4 Aces, 64 Ace life" in public(ev)
    g, _ = _teams_round({0: 2, 1: 4, 2: 2}, {}, out=(3,))  # a whole tie: both teams share the win
    assert g.outcome().winners == (0, 1, 2, 3)
    # only Ana's team is left, Cat already out: Ana and Cat win
    h = begin(4, options=["Teams"], phase="consolidation")
    from bot.engine.maginot_line.turn import eliminate

    for s in (2, 1, 3):
        eliminate(h, s, [])
    h, ev = act(h, 0, "end")
    assert h.outcome().winners == (0, 2) and "Ana and Cat win" in public(ev)
    solo = begin(3, options=["rounds=1"], phase="consolidation")  # without teams: players, as before
    solo.boards[1]["base"][0]["wounds"] = 3
    solo, _ = act(solo, 0, "end")
    for seat in (1, 2):
        for m in ("done", "done", "end"):
            solo, _ = act(solo, seat, m)
    assert solo.outcome().winners == (0, 2)


def test_ruling_21_every_player_for_themselves():
    g = begin(3)
    unit(g, 0, "5H", "5S", "5C")
    g.phase = "battle"
    assert g.choices(0, ("attack",)).tokens() == ["@1", "@2"]


def test_ruling_22_no_hand_limit():
    g = begin(phase="consolidation")
    hand(g, 0, *"2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    g, _ = act(g, 0, "end")
    assert len(g.boards[0]["hand"]) == 9


def test_variant_v4_hand_limit():
    g = begin(options=["Hand limit"], phase="consolidation")
    hand(g, 0, *"2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    c = g.choices(0, ("end",))
    assert c.complete and str(c.progress) == "Discarded 0 of 2"
    with pytest.raises(IllegalMove, match="exactly 2"):
        g.apply(0, "end 2C")
    g2, ev = act(g, 0, "end 2C 3C")
    assert sorted(g2.boards[0]["discard"]) == ["2C@0", "3C@0"] and len(g2.boards[0]["hand"]) == 7
    g3, _ = act(g, 0, "end")  # left to chance (the turn limit's default)
    assert len(g3.boards[0]["hand"]) == 7 and len(g3.boards[0]["discard"]) == 2


def test_ruling_23_untap_is_automatic_and_draws_two():
    g = begin(phase="consolidation")
    unit(g, 1, "5H", "5S", "5C", tapped=True)
    resource(g, 1, "3D", tapped=True)
    g.boards[1]["base_tapped"] = True
    g, ev = act(g, 0, "end")
    b = g.boards[1]
    assert not b["base_tapped"] and not b["units"][0]["tapped"] and not b["resources"][0]["tapped"]
    assert len(b["hand"]) == 2 and g.phase == "construction" and g.current == 1


def test_ruling_23_tapped_units_may_move_new_units_may_not():
    g = begin(phase="consolidation")
    u = unit(g, 0, "5H", "5S", "5C", tapped=True)
    g, _ = act(g, 0, f"move {u}")
    assert g.unit(0, u)["zone"] == "guardian" and g.unit(0, u)["tapped"]
    finished(g, 0, "2H", "2S", "2C")
    g, _ = act(g, 0, "assemble 2H 2S 2C")
    assert "move" not in g.choices(0).tokens()


def test_ruling_23_defender_without_guardians_still_commits():
    g = begin()
    a = unit(g, 0, "5H", "5S", "7C")
    hand(g, 1, "JS")
    g, _ = fight(g, f"attack @1 {a} #1@1")
    assert [(d.seat, d.name) for d in g.decisions()] == [(1, "commit")]
    assert g.choices(1, ("commit", "JS@1")).tokens() == ["#1@1"]
    g, _ = act(g, 1, "commit JS@1 #1@1")
    assert g.boards[1]["base"][0]["wounds"] == 4


def test_ruling_24_round_limit_safeguard():
    g = begin(options=["rounds=1"], phase="consolidation")
    g.boards[1]["base"][0]["wounds"] = 3
    g, _ = act(g, 0, "end")
    assert not g.is_over()
    for m in ("done", "done", "end"):
        g, ev = act(g, 1, m)
    assert g.outcome().winners == (0,) and "round limit" in public(ev)
    h = begin(options=["rounds=1"], phase="consolidation")
    h, _ = act(h, 0, "end")
    for m in ("done", "done", "end"):
        h, _ = act(h, 1, m)
    assert h.outcome().winners == (0, 1)  # tied players share the win


def test_ruling_25_defaults_when_no_answer_comes():
    from bot.engine.maginot_line import GAME

    g = GAME.new(["Ana", "Ben"], seed=5)
    assert [(d.name, d.default, d.public) for d in g.decisions()] == [("order-aces", "aces random", False)] * 2
    g, _ = g.apply(0, "aces random")
    assert sorted(x["ace"] for x in g.boards[0]["base"]) == ["AC@0", "AD@0", "AH@0", "AS@0"]
    h = begin()
    a = unit(h, 0, "6H", "5S", "7C")
    g1 = unit(h, 1, "4H", "3S", "4C", zone="guardian")
    g2 = unit(h, 1, "3H", "2S", "3C", zone="guardian")
    hand(h, 1, "2C")
    h, _ = fight(h, f"attack @1 {a} #1@1")
    assert h.decisions()[0].default == "engage"
    h, _ = act(h, 1, f"engage {g2} {a} {g1} {a}")
    assert h.decisions()[0].default == "commit"  # the defender: no cards, no tap
    h, _ = act(h, 1, h.decisions()[0].default)
    assert h.decisions()[0].default == "commit split 4 3"  # 7 split evenly, the extra 1 to the first listed


def test_ruling_26_targets_of_each_side():
    g = begin()
    a = unit(g, 0, "5H", "5S", "5C")
    gd = unit(g, 1, "5H", "6S", "5C", zone="guardian")
    unit(g, 1, "2H", "2S", "2C", zone="guardian")
    hand(g, 0, "JS", "KC")
    hand(g, 1, "JS", "KC")
    g, _ = fight(g, f"attack @1 {a} #2@1")
    g, _ = act(g, 1, "engage")
    assert g.choices(1, ("commit", "JS@1")).tokens() == ["#2@1"]  # D: own units in battle or targeted Aces
    assert g.choices(1, ("commit", "KC@1")).tokens() == [a]
    g, _ = act(g, 1, "commit")
    assert g.choices(0, ("commit", "JS@0")).tokens() == [a]  # P: only own units in battle
    assert g.choices(0, ("commit", "KC@0")).tokens() == ["#2@1"]
    with pytest.raises(IllegalMove, match="cannot go on"):
        g.apply(0, "commit JS@0 #2@1")
    assert gd


def test_ruling_27_leaving_mid_battle():
    g = begin(3)
    a = unit(g, 0, "5H", "5S", "7C")
    gd = unit(g, 1, "5H", "5S", "5C", zone="guardian")
    hand(g, 0, "JC")
    hand(g, 1, "KC")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    g, _ = act(g, 1, f"commit KC@1 {a}")
    g, ev = g.forfeit(1)
    assert g.boards[1]["out"] and g.battle is None and "no outcome" in public(ev)
    assert g.unit(0, a)["tapped"] and g.unit(0, a)["wounds"] == 0
    assert [(d.seat, d.name) for d in g.decisions()] == [(0, "turn")]
    check_cards(g)
    # the active player leaves: the next player takes a turn
    h = begin(3)
    h, ev = h.forfeit(0)
    assert h.current == 1 and h.phase == "construction" and h.boards[0]["out"]
    h, ev = h.forfeit(2)
    assert h.outcome().winners == (1,)


def test_wrong_player_and_wrong_window():
    g = begin()
    with pytest.raises(IllegalMove, match="Ana's turn"):
        g.apply(1, "done")
    with pytest.raises(IllegalMove, match="not being attacked"):
        g.apply(0, "engage")
    with pytest.raises(IllegalMove, match="consolidation"):
        g.apply(0, "move 5H")
    with pytest.raises(IllegalMove, match="not a card"):
        g.apply(0, "resource ZZ")
    assert g.choices(1) .empty and g.choices(0, ("bogus",)).empty


def test_private_things_stay_private():
    g = begin(aces={0: "ASAHACAD"})
    hand(g, 0, "7H")
    resource(g, 0, "5D")
    g, _ = act(g, 0, "tap 5D")
    g, ev = act(g, 0, "start 7H 1")
    assert "7♥" in ev[-1].for_(0) and "7♥" not in ev[-1].for_(None)
    v1 = g.view(1).boards[0]
    assert v1.building[0].card is HIDDEN and v1.hand == () and v1.base[1].card is HIDDEN
    assert g.view(0).boards[0].building[0].card == "7H@0"


def _v3(p_init: str, d_init: str, p_hand=("JD",), d_hand=("JD",)):
    g = begin(options=["Diamond initiative"])
    resource(g, 0, p_init)
    resource(g, 1, d_init)
    a = unit(g, 0, "5H", "5S", "5C")
    hand(g, 0, *p_hand)
    hand(g, 1, *d_hand)
    g, _ = fight(g, f"attack @1 {a} #1@1")
    return g


def test_ruling_28_v3_jd_after_the_compare_before_seize_each_once():
    g = _v3("2D", "4D", p_hand=("JD", "KD"), d_hand=("JD", "KD"))
    assert g.battle["holder"] == 1 and g.choices(0).tokens() == ["commit", "seize", "boost"]
    g, ev = act(g, 0, "boost")  # 5 v 4: Ana now holds it
    assert g.battle["init"] == [5, 4] and g.battle["holder"] == 0
    assert "Ana 5, Ben 4; Ana holds it" in public(ev)
    assert [(d.seat, d.name) for d in g.decisions()] == [(1, "commit")]
    assert g.choices(1).tokens() == ["commit", "seize", "boost"]  # Ben may answer the same way
    g, _ = act(g, 1, "boost")  # 5 v 7: Ben holds it again
    assert g.battle["init"] == [5, 7] and g.battle["holder"] == 1
    assert g.choices(0).tokens() == ["commit", "seize"]  # Ana used hers: only K♦ is left to her
    with pytest.raises(IllegalMove, match="already used"):
        g.apply(0, "boost")
    g, _ = act(g, 0, "seize")
    assert g.battle["holder"] == 0 and g.choices(1).tokens() == ["commit"]  # no J♦ answer after a seize
    assert g.view(None).battle.boosted == (0, 1)
    # a tie after the answer still goes to P
    h = _v3("4D", "4D", p_hand=("JD", "2C"), d_hand=("JD", "3C"))
    assert h.battle["holder"] == 0 and h.decisions()[0].seat == 1
    h, _ = act(h, 1, "boost")  # 4 v 7: Ben
    h, _ = act(h, 0, "boost")  # 7 v 7: a tie, Ana
    assert h.battle["init"] == [7, 7] and h.battle["holder"] == 0 and h.decisions()[0].seat == 1
    # a J♦ seize first closes the J♦ window
    k = _v3("2D", "4D", p_hand=("KD", "2C"))
    k, _ = act(k, 0, "seize")
    assert k.choices(1).tokens() == ["commit"]
    with pytest.raises(IllegalMove, match="already seized"):
        k.apply(1, "boost")


def test_ruling_36_v3_each_player_boosts_once_per_battle_whichever_jd():
    """Each player may boost Initiative with a J♦ at most once per battle, whichever J♦ it is:
    holding a J♦ again (here put back by hand: a deck has one) does not open a second boost in the
    same battle; the next battle starts afresh."""
    g = begin(options=["Diamond initiative"])
    resource(g, 0, "2D")
    resource(g, 1, "4D")
    a = unit(g, 0, "5H", "5S", "5C")
    b = unit(g, 0, "6H", "6S", "6C")
    hand(g, 0, "JD", "2C")
    hand(g, 1, "JD", "3C")
    g, _ = fight(g, f"attack @1 {a} #1@1")
    g, _ = act(g, 0, "boost")  # 5 v 4: Ana
    g, _ = act(g, 1, "boost")  # 5 v 7: Ben, and Ana is without initiative again
    g = g.copy()
    g.boards[0]["discard"].remove("JD@0")
    g.boards[0]["hand"].append("JD@0")  # a J♦ in hand once more
    assert g.choices(0).tokens() == ["commit"]
    with pytest.raises(IllegalMove, match="already used J♦ for Initiative in this battle"):
        g.apply(0, "boost")
    g, _ = act(g, 0, "commit")
    g, _ = act(g, 1, "commit")
    assert g.battle is None and "JD@0" in g.boards[0]["hand"]
    g, _ = act(g, 0, f"attack @1 {b} #1@1")  # a new battle: Ana may boost again
    assert g.battle["boosted"] == [] and g.choices(0).tokens() == ["commit", "boost"]
    g, _ = act(g, 0, "boost")
    assert g.battle["init"] == [5, 4] and g.battle["boosted"] == [0]


def test_ruling_29_v4_silent_player_discards_at_random_in_public():
    g = begin(options=["Hand limit"], phase="consolidation", seed=11)
    hand(g, 0, *"2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    d = g.decisions()[0]
    assert d.default == "end"  # what the table plays when the turn limit passes
    g1, ev1 = act(g, 0, d.default)
    g2, ev2 = act(g, 0, d.default)
    out = sorted(g1.boards[0]["discard"])
    assert len(out) == 2 and out == sorted(g2.boards[0]["discard"])  # the table's seeded generator
    said = public(ev1)
    assert "discards down to 7" in said and all(c.split("@")[0].replace("T", "10")[:-1] in said for c in out)
    assert set(out) <= set(g1.view(1).boards[0].discard)  # public: Ben sees them
    other = begin(options=["Hand limit"], phase="consolidation", seed=12)
    hand(other, 0, *"2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    draws = {tuple(sorted(act(begin_s, 0, "end")[0].boards[0]["discard"]))
             for begin_s in [_hand_limit(s) for s in range(8)]}
    assert len(draws) > 1  # chance, not a fixed choice


def _hand_limit(seed: int):
    g = begin(options=["Hand limit"], phase="consolidation", seed=seed)
    hand(g, 0, *"2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    return g


def test_ruling_31_battle_cards_of_a_battle_without_outcome_are_discarded():
    g = begin(3)
    resource(g, 1, "9D")
    a = unit(g, 0, "5H", "5S", "7C")
    gd = unit(g, 1, "5H", "5S", "5C", zone="guardian")
    hand(g, 0, "JC", "KC")
    hand(g, 1, "JS")
    g, _ = fight(g, f"attack @1 {a} #1@1", f"engage {gd} {a}")
    assert g.decisions()[0].seat == 0  # Ana, without initiative, commits first
    g, _ = act(g, 0, f"commit JC@0 {a} KC@0 {gd}")
    assert g.battle["played"] == ["JC@0", "KC@0"]
    g, ev = g.forfeit(1)  # Ben leaves: no outcome
    assert g.battle is None and "no outcome" in public(ev)
    assert {"JC@0", "KC@0"} <= set(g.boards[0]["discard"]) and "JC@0" not in g.boards[0]["hand"]
    assert g.unit(0, a)["wounds"] == 0 and g.unit(0, a)["tapped"]
    check_cards(g)
    # the attacker leaves: the defender's battle cards go to the defender's discard pile
    h = begin(3)
    resource(h, 0, "9D")
    a = unit(h, 0, "5H", "5S", "7C")
    hand(h, 0, "JC")
    hand(h, 1, "JS")
    h, _ = fight(h, f"attack @1 {a} #1@1")
    h, _ = act(h, 1, "commit JS@1 #1@1")
    h, ev = h.forfeit(0)
    assert "JS@1" in h.boards[1]["discard"] and h.boards[1]["base"][0]["wounds"] == 0
    check_cards(h)


def test_ruling_32_battle_values_are_public_once_commits_are_revealed():
    from bot.render import maginot_line as render

    g = begin(3, aces={0: "ACASADAH"})
    resource(g, 1, "9D")
    a = unit(g, 0, "6H", "5S", "7C")
    b = unit(g, 0, "2H", "3S", "4C")
    gd = unit(g, 1, "5H", "7S", "5C", zone="guardian", queen="QS")
    hand(g, 0, "JC", "KC", "2C")
    hand(g, 1, "JS", "JH")
    g, _ = fight(g, f"attack @1 {a} #2@1 {b} #1@1", f"engage {gd} {a}")
    before = {x.id: x for x in g.view(None).battle.values}
    assert (before[gd].armor, before[a].attack, before["#1@1"].armor) == (9, 7, 0)
    g, _ = act(g, 0, f"commit JC@0 {a} KC@0 {gd} tap {b}")  # base tap A♣: +2 Attack
    seen = [g.view(s).battle.values for s in (None, 0, 1, 2)]
    assert all(x == seen[0] for x in seen)  # every player and the public see the same values
    vals = {x.id: x for x in seen[0]}
    assert set(vals) == {a, b, gd, "#1@1", "#2@1"}  # units in the battle and targeted Aces
    assert (vals[a].attack, vals[b].attack, vals[gd].armor) == (10, 6, 0)
    text = render.text(g.view(2))
    assert "Armor 0" in text and "Attack 10" in text
    g, _ = act(g, 1, f"commit JS@1 {gd} JH@1 #1@1")
    # as B5 used them: the guardian's Armor stayed 0 under K♣ (10 ≥ 7 life: destroyed), the Ace
    # took 6 − 3 absorbed = 3 wounds
    assert g.unit(1, gd) is None and g.boards[1]["base"][0]["wounds"] == 3
