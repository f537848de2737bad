"""Gridcannon: every rule, ruling (§10), example (§12) and variant of the rulebook."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from bot.engine import cards
from bot.engine.cards import pretty_text as pt
from bot.engine.core import IllegalMove
from bot.engine.gridcannon import (
    CELLS,
    CLASSIC,
    EXHAUSTED,
    LINE,
    LOSS,
    PENDING_NUMBER,
    PENDING_PLOY,
    PENDING_ROYAL,
    PLOYS_FIRST,
    READY,
    REVISED_OLD,
    SETUP_REPLACE,
    SETUP_ROYALS,
    SLOTS,
    TRIGGERS,
    WIN,
    GridcannonGame,
    auto_move,
    value,
)
from bot.tables import TableError

G = GridcannonGame
GRID_A = "5H 9C 2D / 7S 3H TD / 4C 8D 6S"


# ----- builders ---------------------------------------------------------------------------
def parse_grid(text: str) -> list[list[str]]:
    """``"5H 9C 2D / 7S 9H,TD 8S / - 8D 6S"``: rows by ``/``, stacks bottom→top by ``,``, ``-`` empty."""
    out = []
    for row in text.split("/"):
        for tok in row.split():
            out.append([] if tok == "-" else tok.split(","))
    assert len(out) == 9
    return out


def full_deck(options=()) -> list[str]:
    return cards.deck(0 if "No Jokers" in options else 2)


def stacked(top: list[str], options=()) -> list[str]:
    """A whole deck with ``top`` first, the rest in the fixed order."""
    rest = [c for c in full_deck(options) if c not in top]
    return list(top) + rest


def build(grid: str = GRID_A, slots: dict | None = None, stash=(), pile=None, pending=None,
          phase=READY, options=(), set_aside=(), cycle=(), top=()) -> G:
    """A position built directly. ``slots``: {"T1": "KH"} living, {"T1": "KH+3H"} armoured,
    {"T1": "x:JD"} dead. Stash entries ending in ``*`` are spent. The pile gets ``top`` first, then
    every card not used elsewhere (unless ``pile`` is given)."""
    g = G(players=["p"], options=G.check_options(options), seed=1)
    g.grid = parse_grid(grid)
    g.slots = [{"royal": None, "armour": [], "dead": False} for _ in SLOTS]
    for slot, spec in (slots or {}).items():
        dead = spec.startswith("x:")
        spec = spec[2:] if dead else spec
        royal, *armour = spec.split("+")
        g.slots[SLOTS.index(slot)] = {"royal": royal, "armour": armour, "dead": dead}
    g.stash = [{"card": c.rstrip("*"), "spent": c.endswith("*")} for c in stash]
    g.pending = pending
    g.phase = phase
    g.set_aside = list(set_aside)
    g.cycle = list(cycle)
    g.replaced = True
    used = [c for st in g.grid for c in st] + [s["royal"] for s in g.slots if s["royal"]]
    used += [c for s in g.slots for c in s["armour"]] + [p["card"] for p in g.stash]
    used += list(set_aside) + list(cycle) + ([pending] if pending else [])
    if pile is None:
        pile = list(top) + [c for c in full_deck(options) if c not in used and c not in top]
    g.pile = list(pile)
    return g


def snapshot(g: G) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def check_zones(g: G) -> None:
    zone = list(g.pile) + [c for st in g.grid for c in st] + list(g.set_aside) + list(g.cycle) + list(g.shame)
    zone += [s["royal"] for s in g.slots if s["royal"]] + [c for s in g.slots for c in s["armour"]]
    zone += [p["card"] for p in g.stash] + ([g.pending] if g.pending else [])
    assert sorted(zone) == sorted(full_deck(g.options))


def play(g: G, *moves: str) -> tuple[G, list[str]]:
    texts: list[str] = []
    for m in moves:
        g, ev = g.apply(0, m)
        texts += [e.text for e in ev]
    return g, texts


def slot(g: G, name: str) -> dict:
    return g.slots[SLOTS.index(name)]


# ----- §12 examples --------------------------------------------------------------------------
EX1_TOP = "5H KH 9C AS 2D 7S JK 3H TD QD 4C 8D 6S".split()


def test_example_01_setup_deal():
    g = G.new(["p"], deck=stacked(EX1_TOP))
    assert g.grid == parse_grid(GRID_A)
    assert g.set_aside == ["KH", "QD"]
    assert g.stash == [{"card": "AS", "spent": False}, {"card": "JK", "spent": False}]
    assert len(g.pile) == 54 - 13
    assert g.phase == SETUP_ROYALS
    assert g.legal_slots("QD") == ["R2"]
    assert g.legal_slots("KH") == ["T1", "L1"]
    assert sorted(g.legal_moves(0)) == sorted(["royal KH T1", "royal KH L1", "royal QD R2"])
    g, texts = play(g, "royal KH L1")
    # QD is now the only legal (royal, slot) pair: placed automatically (§2.3).
    assert slot(g, "L1")["royal"] == "KH" and slot(g, "R2")["royal"] == "QD"
    assert any(pt("QD placed at R2") in t for t in texts)
    assert g.phase == SETUP_REPLACE
    check_zones(g)


def test_example_03_full_slot_fallback():
    g = build(slots={"R2": "x:JD", "T1": "KH"}, top=["QD"])
    g, _ = play(g, "draw")
    assert g.phase == PENDING_ROYAL and g.pending == "QD"
    assert g.legal_moves(0) == ["royal B2"]
    g, texts = play(g, "royal B2")
    assert slot(g, "B2")["royal"] == "QD" and g.phase == READY


def test_example_05_placement_legality():
    g = build(slots={"T1": "KH"}, top=["6C"])
    g, _ = play(g, "draw")
    assert g.phase == PENDING_NUMBER
    places = sorted(m.split()[1] for m in g.legal_moves(0) if m.startswith("place"))
    assert places == ["r1c1", "r1c3", "r2c2", "r3c1", "r3c3"]
    for bad in ("r1c2", "r2c1", "r2c3", "r3c2"):
        with pytest.raises(IllegalMove, match="higher"):
            g.apply(0, f"place {bad}")
    with pytest.raises(IllegalMove, match="can be placed"):
        g.apply(0, "armour KH")
    g, texts = play(g, "place r3c1")
    assert pt("5H and 7S (does not count) fire at KH at T1 (13): 5, survives.") in texts
    assert not slot(g, "T1")["dead"]


def test_example_07_queen_colour():
    g = build(slots={"T2": "QD"}, pending="9H", phase=PENDING_NUMBER)
    g, texts = play(g, "place r3c2")
    assert any(pt("QD at T2 (12): 3, survives") in t for t in texts)
    assert not slot(g, "T2")["dead"]


EX9_GRID = "2H 3S 9D / 4S 5C 4D / 8C 9C 6S"


def test_example_09_double_attack():
    g = build(EX9_GRID, slots={"T3": "JH", "L3": "KC+3H"}, pending="7D", phase=PENDING_NUMBER)
    assert g.health(SLOTS.index("L3")) == 16
    g, texts = play(g, "place r3c3")
    assert slot(g, "T3")["dead"] and slot(g, "L3")["dead"]
    assert any(pt("9D and 4D fire at JH at T3 (11): 13, killed") in t for t in texts)
    assert any(pt("8C and 9C fire at KC at L3 (16): 17, killed") in t for t in texts)
    g = build(EX9_GRID, slots={"T3": "JH", "L3": "QD"}, pending="7D", phase=PENDING_NUMBER)
    g, _ = play(g, "place r3c3")
    assert slot(g, "T3")["dead"] and not slot(g, "L3")["dead"]


EX11_GRID = "5H 9C 4D / 7S 9H,TD 8S / 4C 8D 6S"


def test_example_11_extraction():
    g = build(EX11_GRID, slots={"L2": "JH", "T2": "KC"}, stash=["AS"], pending="3C", phase=PENDING_NUMBER)
    assert not [m for m in g.legal_moves(0) if m.startswith("place")]
    assert "armour KC" in g.legal_moves(0) and "extract r2c2" in g.legal_moves(0)
    a, texts = play(g, "extract r2c2")
    assert a.pile[-2:] == ["9H", "TD"] and a.grid[4] == []
    assert a.spent_count() == 1 and a.phase == PENDING_NUMBER
    a, texts = play(a, "place r2c2")
    assert not any("fire" in t for t in texts)
    assert a.phase == READY
    b, texts = play(g, "armour KC")
    assert slot(b, "T2")["armour"] == ["3C"] and b.health(SLOTS.index("T2")) == 16
    assert b.phase == READY and pt("3C armours KC (health 16).") in texts


def test_example_13_armour_tiers():
    g = build(slots={"T1": "QH", "T2": "JD", "T3": "KS", "B1": "JS"})

    def target(card):
        return [g.slots[i]["royal"] for i in g.armour_targets(card)]

    assert target("4H") == ["QH"]
    assert target("4C") == ["JS"]
    assert target("2S") == ["JS"]
    assert target("3D") == ["JD"]
    g2 = build(slots={"T1": "JS", "T2": "JC"})
    assert sorted(g2.slots[i]["royal"] for i in g2.armour_targets("4D")) == ["JC", "JS"]
    # Applied: 4H with no placement goes on QH (16).
    g3 = build("TH TC TD / TS 9H 9C / 9D 9S 8H", slots={"T1": "QH", "T2": "JD", "T3": "KS", "B1": "JS"},
               pending="4H", phase=PENDING_NUMBER)
    g3, _ = play(g3, "armour QH")
    assert g3.health(SLOTS.index("T1")) == 16
    # Tie: the player chooses.
    g4 = build("TH TC TD / TS 9H 9C / 9D 9S 8H", slots={"T1": "JS", "T2": "JC"}, pending="4D",
               phase=PENDING_NUMBER)
    assert sorted(m for m in g4.legal_moves(0) if m.startswith("armour")) == ["armour JC", "armour JS"]


def ten_dead(except_=("QS", "KD")) -> dict:
    royals = [r + s for r in "JQK" for s in "SHDC" if r + s not in except_]
    return {SLOTS[i]: "x:" + r for i, r in enumerate(royals)}


def test_example_15_search():
    g = build(slots=ten_dead(), top="5H AC 7D QS 9D".split())
    assert not g.living()
    g, texts = play(g, "draw")
    assert g.cycle == ["5H", "AC", "7D"] and g.pending == "QS" and g.phase == PENDING_ROYAL
    assert g.pile[0] == "9D"
    legal = [m for m in g.legal_moves(0) if m.startswith("royal")]
    g, _ = play(g, legal[0])
    assert g.pile[0] == "9D" and g.pile[-3:] == ["5H", "AC", "7D"] and g.cycle == []
    assert g.phase == READY
    # Keep Ploys: the ace goes to the stash.
    k = build(slots=ten_dead(), top="5H AC 7D QS 9D".split(), options=["Keep Ploys"])
    k, _ = play(k, "draw")
    assert k.cycle == ["5H", "7D"] and {"card": "AC", "spent": False} in k.stash
    k, _ = play(k, [m for m in k.legal_moves(0) if m.startswith("royal")][0])
    assert k.pile[-2:] == ["5H", "7D"]


def eleven_dead(living_slot="T1", living="JS") -> dict:
    royals = [r + s for r in "JQK" for s in "SHDC" if r + s != living]
    slots = [s for s in SLOTS if s != living_slot]
    out = {s: "x:" + r for s, r in zip(slots, royals, strict=True)}
    out[living_slot] = living
    return out


def test_example_17_score():
    # JS at T1 dies to r1c1 + r2c1 = 5 + 7 = 12 when a card lands on r3c1.
    g = build(slots=eleven_dead(), stash=["AS*", "JK*", "AH"], pending="4S", phase=PENDING_NUMBER)
    g, texts = play(g, "place r3c1")
    assert g.phase == WIN
    out = g.outcome()
    assert out.winners == (0,) and out.score == 4
    assert out.summary == "Won — score 4 (1 unspent ploy in the stash)"
    assert out.details["kills"] == 12 and out.details["ploys_spent"] == 2


# ----- §10 rulings ---------------------------------------------------------------------------
def test_ruling_01_centre_never_eligible():
    # KH: hearts are 5H (r1c1) and the centre 3H; the centre is ignored.
    g = build()
    assert g.legal_slots("KH") == ["T1", "L1"]
    # The only spade is in the centre: tier 2 (black) picks 9C (r1c2).
    g = build("5H 9C 2D / 7H 3S TD / 4D 8D 6H")
    assert g.legal_slots("KS") == ["T2"]


def test_ruling_02_full_slots_fall_through():
    g = build(slots={"R2": "x:JD"})
    assert g.legal_slots("QD") == ["B2"]
    # Living royals block a slot as well.
    g = build(slots={"R2": "KC", "B2": "JC"})
    assert g.legal_slots("QD") == ["T3", "R1"]  # TD and 8D are cut off: 2D on the corner r1c3


def test_ruling_03_ties_and_corners():
    g = build()
    assert g.legal_slots("KH") == ["T1", "L1"]  # corner: both its slots
    g = build(slots={"T1": "x:JH"})
    assert g.legal_slots("KH") == ["L1"]  # only the free one
    # Tier-3 tie: no club or black card... a grid of red cards only, two equal tops.
    g = build("9H 2H 3H / 4H 5D 6D / 9D 7D 8D")
    assert g.legal_slots("JS") == ["T1", "B1", "L1", "L3"]


def test_ruling_04_empty_cells_value_zero():
    g = build("5H 9C 2D / 7S 3H TD / 4C 8D -", slots={"L3": "JC"}, pending="2C", phase=PENDING_NUMBER)
    assert "place r3c3" in g.legal_moves(0)
    # An empty attacker adds 0: L3's attackers are r3c1 (4C) and r3c2 (8D).
    g2 = build("5H 9C 2D / 7S 3H TD / 4C - 6S", slots={"L3": "JC"})
    assert g2.attack(SLOTS.index("L3")) == 4
    # Royal placement ignores empty cells while others have cards...
    g3 = build("- - - / - 3H - / - - 2C")
    assert g3.legal_slots("KH") == ["B3", "R3"]
    # ...and with every eligible cell empty, every free slot is legal.
    g4 = build("- - - / - 3H - / - - -")
    assert g4.legal_slots("KH") == SLOTS


def test_ruling_05_line_table():
    assert LINE["T1"] == (0, 3, 6) and LINE["B2"] == (7, 4, 1)
    assert LINE["L3"] == (6, 7, 8) and LINE["R1"] == (2, 1, 0)
    assert TRIGGERS[4] == []
    assert sorted(TRIGGERS[0]) == ["B1", "R1"] and TRIGGERS[1] == ["B2"]
    # A landing on the centre fires nothing, even with every slot holding a living jack.
    g = build("TH TC TD / TS 2H 9C / 9D 9S 8H", slots={"T2": "JS", "B2": "JC", "L2": "JH", "R2": "JD"},
              pending="5C", phase=PENDING_NUMBER)
    g, texts = play(g, "place r2c2")
    assert not any("fire" in t for t in texts)


def test_ruling_06_two_royals_at_once():
    # A corner landing (r3c3) attacks along its row (L3) and its column (T3), each on its own.
    g = build(EX9_GRID, slots={"T3": "JH", "L3": "KC"}, pending="7D", phase=PENDING_NUMBER)
    assert sorted(TRIGGERS[8]) == ["L3", "T3"]
    assert sorted(g.slots[i]["royal"] for i in g.kills_at(8)) == ["JH", "KC"]
    g, texts = play(g, "place r3c3")
    assert slot(g, "T3")["dead"] and slot(g, "L3")["dead"]
    assert sum("fire at" in t for t in texts) == 2


def test_ruling_07_each_attacker_must_match_queen_colour():
    g = build("5H 2D 2S / 7S 3H TD / 4C 8D 6S", slots={"T2": "QD"})
    assert g.attack(SLOTS.index("T2")) == 5  # 2D + 3H, both red
    g = build("5H TD 2S / 7S 3H 9C / 4C 8D 6S", slots={"T2": "QD"})
    assert g.attack(SLOTS.index("T2")) == 13
    g = build("5H 9C 2S / 7S TD 4D / 4C 8D 6S", slots={"T2": "QD"})
    assert g.attack(SLOTS.index("T2")) == 10  # 9C does not count, TD does


def test_ruling_08_dead_royals_block_for_good():
    g = build(EX9_GRID, slots={"T3": "x:JH", "L3": "KC"}, pending="7D", phase=PENDING_NUMBER)
    assert "T3" not in g.legal_slots("QD")
    assert [g.slots[i]["royal"] for i in g.armour_targets("4H")] == ["KC"]  # the dead JH is no target
    g, texts = play(g, "place r3c3")
    assert slot(g, "T3") == {"royal": "JH", "armour": [], "dead": True}
    assert not any(pt("JH") in t for t in texts)


def test_ruling_09_armour_by_base_rank_and_lowest_health_variant():
    living = {"T1": "JS+5S", "T2": "QS"}
    g = build(slots=living)
    assert [g.slots[i]["royal"] for i in g.armour_targets("2S")] == ["JS"]  # J < Q whatever the health
    g = build(slots=living, options=["Lowest Health"])
    assert [g.slots[i]["royal"] for i in g.armour_targets("2S")] == ["QS"]  # 12 < 16


FULL_HIGH = "TH TC TD / TS 9H 9C / 9D 9S 8H"


def test_ruling_10_ploys_never_compulsory_and_ploys_first():
    g = build(FULL_HIGH, slots={"T1": "KC"}, stash=["AS", "JK"], pending="3C", phase=PENDING_NUMBER)
    moves = g.legal_moves(0)
    assert "armour KC" in moves and "extract r1c1" in moves
    g2, _ = play(g, "armour KC")
    assert g2.spent_count() == 0
    pf = build(FULL_HIGH, slots={"T1": "KC"}, stash=["AS"], pending="3C", phase=PENDING_NUMBER,
               options=["Ploys First"])
    assert not [m for m in pf.legal_moves(0) if m.startswith("armour")]
    with pytest.raises(IllegalMove, match="Ploys First"):
        pf.apply(0, "armour KC")
    pf2 = build(FULL_HIGH, slots={"T1": "KC"}, stash=["AS*"], pending="3C", phase=PENDING_NUMBER,
                options=["Ploys First"])
    assert pf2.legal_moves(0) == ["armour KC"]


def armour_case(royal: str, armour: list[str], card: str, options=()) -> G:
    spec = "+".join([royal, *armour])
    g = build(FULL_HIGH, slots={"T1": spec}, pending=card, phase=PENDING_NUMBER, options=options)
    g, _ = play(g, f"armour {royal}")
    return g


def test_ruling_11_natural_loss_thresholds():
    assert armour_case("JC", ["5C"], "4C").phase == READY  # 20
    lost = armour_case("JC", ["5C"], "5S")  # 21 (5S: no spade royal, black JC)
    assert lost.phase == LOSS and lost.outcome().summary == "Lost: J♣ reached health 21 (natural loss)"
    assert armour_case("QC", ["5C"], "3C").phase == READY  # 20
    assert armour_case("QC", ["5C"], "4C").phase == LOSS  # 21
    assert armour_case("KC", ["4C"], "2C").phase == READY  # 19
    k = armour_case("KC", ["4C"], "3C")  # 20
    assert k.phase == LOSS and k.outcome().summary == "Lost: K♣ reached health 20 (natural loss)"
    assert k.outcome().score is None and k.outcome().winners == ()
    # Source Thresholds: J/Q 20+, K 19+.
    assert armour_case("JC", ["5C"], "4C", ["Source Thresholds"]).phase == LOSS
    assert armour_case("KC", ["4C"], "2C", ["Source Thresholds"]).phase == LOSS
    assert armour_case("KC", ["3C"], "2C", ["Source Thresholds"]).phase == READY


def test_ruling_12_ploys_in_every_play_state_not_in_setup():
    g = build(slots={"T1": "KH"}, stash=["AS", "JK"])
    assert "extract r1c1" in g.legal_moves(0)  # READY
    pr = build(slots={"T1": "KH"}, stash=["AS"], pending="QD", phase=PENDING_ROYAL)
    assert "extract r2c3" in pr.legal_moves(0)
    # Extracting TD (r2c3) steers QD: the next diamond is 8D (B2).
    assert pr.legal_slots("QD") == ["R2"]
    pr, _ = play(pr, "extract r2c3")
    assert pr.legal_slots("QD") == ["B2"]
    ex = build(slots={"T1": "KH"}, stash=["AS"], pile=[], phase=EXHAUSTED)
    assert "extract r1c1" in ex.legal_moves(0)
    s = G.new(["p"], deck=stacked(EX1_TOP))
    assert s.phase == SETUP_ROYALS and not [m for m in s.legal_moves(0) if m.startswith(("extract", "reassign"))]
    with pytest.raises(IllegalMove):
        s.apply(0, "extract r1c1")


def test_ruling_13_reassignment_uses_grid_after_move():
    g = build("9H 2D 3D / 2S,9S 3H 4D / 4C 8D 6S", slots={"T1": "JS"}, stash=["JK"])
    assert g.attack(SLOTS.index("T1")) == 18
    g2, texts = play(g, "reassign r2c1 r3c1")
    assert slot(g2, "T1")["dead"]  # 9H + uncovered 2S = 11
    assert any(pt("9H and 2S fire at JS at T1 (11): 11, killed") in t for t in texts)
    g = build("9H 2D 3D / 9S 3H 4D / 4C 8D 6S", slots={"T1": "JS"}, stash=["JK"])
    g3, texts = play(g, "reassign r2c1 r3c1")
    assert not slot(g3, "T1")["dead"]  # 9H + empty r2c1 = 9


def test_ruling_14_extraction_keeps_order_and_fires_nothing():
    g = build("5H 9C 2D / 7S 3H TD / 4C 8D 2S,6S", slots={"T3": "JD"}, stash=["AS"])
    g, texts = play(g, "extract r3c3")
    assert g.pile[-2:] == ["2S", "6S"] and g.grid[8] == []
    assert not any("fire" in t for t in texts) and not slot(g, "T3")["dead"]


def test_ruling_15_search_ploys_go_to_cycle_pile():
    # An ace and a joker met in a search go on the face-up cycle pile, not to the stash...
    g = build(slots=ten_dead(), top="AC JK 5C QS 9D".split())
    g, _ = play(g, "draw")
    assert g.cycle == ["AC", "JK", "5C"] and g.stash == [] and g.pending == "QS"
    # ...and come back under the deck with the rest, to be drawn (and kept) later.
    g, _ = play(g, g.legal_moves(0)[0])
    assert g.pile[-3:] == ["AC", "JK", "5C"] and g.cycle == []
    check_zones(g)


def test_ruling_16_return_order_and_setup_swap_at_very_bottom():
    g = G.new(["p"], deck=stacked("2S 3S 4S 5S 6S 7S 8S 9S TS".split()))
    assert g.phase == SETUP_REPLACE
    g, _ = play(g, "replace r2c2")
    assert g.pile[-1] == "6S" and g.grid[4] == [g.grid[4][0]] and g.grid[4][0] != "6S"
    # The cycle pile returns in draw order: the first card cycled is drawn first.
    s = build(slots=ten_dead(), top="5C 7D 2C QS 9D".split())
    s, _ = play(s, "draw")
    s, _ = play(s, s.legal_moves(0)[0])
    assert s.pile[0] == "9D" and s.pile[-3:] == ["5C", "7D", "2C"]


def test_ruling_17_player_orders_setup_royals_and_draw_order_variant():
    g = G.new(["p"], deck=stacked(EX1_TOP))
    g, _ = play(g, "royal QD R2")  # QD first, the player's choice
    assert g.set_aside == ["KH"]
    d = G.new(["p"], ["Draw Order"], deck=stacked(EX1_TOP))
    assert sorted(d.legal_moves(0)) == ["royal KH L1", "royal KH T1"]
    with pytest.raises(IllegalMove, match="Draw Order"):
        d.apply(0, "royal QD R2")


def test_ruling_18_replacement_after_royals_and_deal_handling():
    top = "5H KH 9C 2D 7S 3H TD 4C 8D 6S".split() + ["QC", "AD", "7C"]
    g = G.new(["p"], deck=stacked(top))
    assert g.phase == SETUP_ROYALS  # KH: T1 or L1; the replacement waits
    with pytest.raises(IllegalMove):
        g.apply(0, "keep")
    g, _ = play(g, "royal KH T1")
    assert g.phase == SETUP_REPLACE and set(g.legal_moves(0)) == {f"replace {c}" for c in CELLS} | {"keep"}
    g, texts = play(g, "replace r3c1")  # 4C to the bottom; QC set aside, AD stashed, 7C fills r3c1
    assert g.grid[6] == ["7C"] and g.pile[-1] == "4C"
    assert {"card": "AD", "spent": False} in g.stash
    # QC: clubs 9C (r1c2, T2) and 7C (r3c1): highest 9C -> T2 forced, placed automatically.
    assert slot(g, "T2")["royal"] == "QC" and g.phase == READY
    check_zones(g)


def test_ruling_19_score_counts_undrawn_ploys_and_stash_only_variant():
    # 6 − spent: the ploys never drawn count as unspent.
    v = build(slots=eleven_dead(), stash=["AS*", "JK*", "AH"], pending="4S", phase=PENDING_NUMBER)
    v, _ = play(v, "place r3c1")
    assert v.outcome().score == 4 and v.outcome().details["unspent_in_stash"] == 1
    g = build(slots=eleven_dead(), stash=["AS*", "JK*", "AH"], pending="4S", phase=PENDING_NUMBER,
              options=["Stash Only"])
    g, _ = play(g, "place r3c1")
    assert g.outcome().score == 1


def test_ruling_20_win_after_pile_empty_counts():
    g = build("9H 2D 3D / 2S,9S 3H 4D / 4C 8D 6S", slots=eleven_dead(), stash=["JK"], pile=[], phase=EXHAUSTED)
    g, _ = play(g, "reassign r2c1 r3c1")
    assert g.phase == WIN and g.outcome().score == 5


def test_ruling_21_exhausted_ploys_or_concede_else_loss():
    g = build(slots={"T1": "KH"}, stash=["AS"], top=["2C"], pile=["2C"])
    g, _ = play(g, "draw", "place r1c3")
    assert g.phase == EXHAUSTED
    assert "concede" in g.legal_moves(0) and "draw" not in g.legal_moves(0)
    c, _ = play(g, "concede")
    assert c.phase == LOSS and c.outcome().summary == "Lost: conceded"
    e, _ = play(g, "extract r3c3")
    assert e.phase == READY and e.pile == ["6S"]
    n = build(slots={"T1": "KH"}, stash=["AS*"], pile=["2C"])
    n, _ = play(n, "draw", "place r1c3")
    assert n.phase == LOSS and "ran out" in n.outcome().summary


def test_ruling_22_attacks_are_automatic():
    g = build(slots={"T1": "JS"}, pending="4S", phase=PENDING_NUMBER)
    assert all(m.split()[0] in ("place",) for m in g.legal_moves(0))
    g, _ = play(g, "place r3c1")
    assert slot(g, "T1")["dead"]


COMBINED = re.escape("Classic (Old Version) and Revised Old Version cannot be combined")


async def test_ruling_23_classic_with_revised_old_version(service, people):
    # The pair is refused, with its reason, however the variants are written and wherever they are given.
    for pair in ([CLASSIC, REVISED_OLD], ["old", "revised"], ["Revised Old Version", "classic"]):
        with pytest.raises(IllegalMove, match=COMBINED) as err:
            G.check_options(pair)
        assert err.value.rule == "options" and "no stashed ploys" in str(err.value) and len(str(err.value)) < 150
        with pytest.raises(IllegalMove, match=COMBINED):
            G.new(["p"], pair, seed=1)
    with pytest.raises(TableError, match=COMBINED):
        await service.new_table(71, None, people[0], "gridcannon", [CLASSIC, REVISED_OLD])
    # The one-off setup replacement belongs to Version 2 and the Revised Old Version, never Classic.
    for options, replaces in (([], True), ([REVISED_OLD], True), ([CLASSIC], False)):
        for seed in range(4):
            g = G.new(["p"], options, seed=seed)
            while g.phase == SETUP_ROYALS:
                assert not any(m.startswith("replace") for m in g.legal_moves(0))
                g, _ = play(g, g.legal_moves(0)[0])
            assert (g.phase == SETUP_REPLACE) == replaces, (options, seed)
            if replaces:
                assert "keep" in g.legal_moves(0) and "replace r2c2" in g.legal_moves(0)
            else:
                assert g.phase == READY
                with pytest.raises(IllegalMove):
                    g.apply(0, "replace r1c1")


def test_ruling_24_unspent_ploy_under_ploys_first():
    # What may be played now: only the stash counts. Every ploy still in the draw pile is unspent,
    # yet with none in the stash a card that fits nowhere may be armour.
    g = build(FULL_HIGH, slots={"T1": "KC"}, pending="3C", phase=PENDING_NUMBER, options=[PLOYS_FIRST])
    assert g.stash == [] and sum(c[0] == "A" or c.startswith("JK") for c in g.pile) == 6
    assert g.legal_moves(0) == ["armour KC"]
    # An unspent ploy in the stash must be spent first, and the player is told it is the stash that counts.
    s = build(FULL_HIGH, slots={"T1": "KC"}, stash=["AS*", "JK"], pending="3C", phase=PENDING_NUMBER,
              options=[PLOYS_FIRST])
    assert not any(m.startswith("armour") for m in s.legal_moves(0))
    assert "stash" in s.view(0).prompt
    with pytest.raises(IllegalMove, match="Ploys First") as err:
        s.apply(0, "armour KC")
    assert "in your stash" in str(err.value)
    # The score: every ace and joker not yet used counts as unspent, drawn or not (one spent: 5).
    w = build(slots=eleven_dead(), stash=["AS*", "JK"], pending="4S", phase=PENDING_NUMBER, options=[PLOYS_FIRST])
    w, _ = play(w, "place r3c1")
    assert w.phase == WIN and w.outcome().score == 5 and w.outcome().details["unspent_in_stash"] == 1


# ----- state machine ---------------------------------------------------------------------------
def test_state_ready_draws():
    g = build(slots={"T1": "KH"}, top=["7C", "QS", "AD"])
    assert g.legal_moves(0) == ["draw"]
    g, texts = play(g, "draw")
    assert g.phase == PENDING_NUMBER and texts == [pt("Drew 7C.")]
    g, _ = play(g, "place r3c3")
    g, _ = play(g, "draw")
    assert g.phase == PENDING_ROYAL and g.pending == "QS"
    g, _ = play(g, g.legal_moves(0)[0], "draw")
    assert g.phase == READY and g.stash == [{"card": "AD", "spent": False}]


def test_state_win_with_card_pending():
    g = build("9H 2D 3D / 2S,9S 3H 4D / 4C 8D 6S", slots=eleven_dead(), stash=["JK"], pending="2C",
              phase=PENDING_NUMBER)
    g, _ = play(g, "reassign r2c1 r3c1")
    assert g.phase == WIN and g.pending == "2C" and g.is_over()
    with pytest.raises(IllegalMove, match="over"):
        g.apply(0, "place r1c1")


def test_state_continue_edge_case():
    # JS living at T1, T2 empty, QH still in the pile, the other 10 royals dead.
    dead = [r + s for r in "JQK" for s in "SHDC" if r + s not in ("JS", "QH")]
    slots = {s: "x:" + r for s, r in zip([x for x in SLOTS if x not in ("T1", "T2")], dead, strict=True)}
    slots["T1"] = "JS"
    grid = "6H 5D 4S / 7S 3H 9D / 4C 8D 9S,TD"
    g = build(grid, slots=slots, stash=["JK"], pending="2C", phase=PENDING_NUMBER, top=["3D", "AH", "QH"])
    assert "armour JS" in g.legal_moves(0) and "continue" not in g.legal_moves(0)
    with pytest.raises(IllegalMove, match="continue only"):
        g.apply(0, "continue")
    g, _ = play(g, "reassign r3c3 r3c1")  # TD onto r3c1: 6H + 7S = 13 kills JS
    assert slot(g, "T1")["dead"] and not g.living() and g.phase == PENDING_NUMBER
    assert g.legal_moves(0) == ["continue"]
    g, _ = play(g, "continue")
    assert g.cycle == ["2C", "3D", "AH"] and g.pending == "QH" and g.phase == PENDING_ROYAL
    g, _ = play(g, "royal T2")
    assert g.pile[-3:] == ["2C", "3D", "AH"] and g.phase == READY
    check_zones(g)


def test_state_exhausted_then_extraction_refills():
    g = build("5H 9C 2D / 7S 3H TD / 4C 8D 2S,6S", slots={"T1": "KH"}, stash=["AS"], pile=[], phase=EXHAUSTED)
    assert g.legal_moves(0)[0] == "concede"
    g, _ = play(g, "extract r3c3")
    assert g.phase == READY and g.pile == ["2S", "6S"] and g.legal_moves(0) == ["draw"]
    g, _ = play(g, "draw")
    assert g.pending == "2S" and g.phase == PENDING_NUMBER


# ----- illegal moves ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seat,move,message", [
    (1, "draw", "not in the game"),
    (0, "fly away", "Unknown move"),
    (0, "place r1c1", "cannot place a card now"),
    (0, "royal T1", "cannot place a royal now"),
    (0, "draw now", "Write it as"),
])
def test_illegal_moves_in_ready_leave_state_unchanged(seat, move, message):
    g = build(slots={"T1": "KH"})
    before = snapshot(g)
    with pytest.raises(IllegalMove, match=message):
        g.apply(seat, move)
    assert snapshot(g) == before


@pytest.mark.parametrize("move,message", [
    ("place r9c9", "not a cell"),
    ("place r1c2", "higher"),
    ("armour KH", "can be placed"),
    ("extract r1c1", "no unspent ace"),
    ("reassign r1c1 r1c2", "no unspent joker"),
    ("continue", "continue only"),
    ("place", "Write it as"),
])
def test_illegal_moves_pending_number_leave_state_unchanged(move, message):
    g = build(slots={"T1": "KH"}, pending="6C", phase=PENDING_NUMBER)
    before = snapshot(g)
    with pytest.raises(IllegalMove, match=message):
        g.apply(0, move)
    assert snapshot(g) == before


def test_illegal_royal_slot_and_ploy_targets():
    g = build(slots={"T1": "KH"}, stash=["AS", "JK"], pending="QD", phase=PENDING_ROYAL)
    before = snapshot(g)
    for move, msg in (("royal T2", "may go to R2"), ("royal X9", "not a royal slot"),
                      ("reassign r1c1 r1c1", "different cell"), ("reassign r1c3 r1c1", "higher")):
        with pytest.raises(IllegalMove, match=msg):
            g.apply(0, move)
    e = build("- 9C 2D / 7S 3H TD / 4C 8D 6S", stash=["AS"], slots={"T1": "KH"})
    with pytest.raises(IllegalMove, match="empty"):
        e.apply(0, "extract r1c1")
    assert snapshot(g) == before


def test_legal_moves_are_exactly_accepted_and_case_insensitive():
    g = build(slots={"T1": "KH"}, stash=["AS", "JK"], pending="6C", phase=PENDING_NUMBER)
    for m in g.legal_moves(0):
        g.apply(0, m)
    g2, _ = play(g, "PLACE R3C1")
    assert g2.grid[6][-1] == "6C"
    s = G.new(["p"], deck=stacked(EX1_TOP))
    s2, _ = play(s, "royal kh l1")
    assert slot(s2, "L1")["royal"] == "KH"


def test_token_fanout_at_most_25():
    g = build(slots={"T1": "KH"}, stash=["AS", "AD", "JK", "JK2"], pending="TC", phase=PENDING_NUMBER)
    moves = g.legal_moves(0)
    prefixes: dict[str, set[str]] = {}
    for m in moves:
        t = m.split()
        for i in range(len(t)):
            prefixes.setdefault(" ".join(t[:i]), set()).add(t[i])
    assert max(len(v) for v in prefixes.values()) <= 25


# ----- variants ---------------------------------------------------------------------------------------
def test_variant_memory_aid_lists_known_bottom_cards():
    g = build(slots={"T1": "KH"}, stash=["AS"], options=["Memory Aid"])
    g, texts = play(g, "extract r2c3")
    v = g.view(0)
    assert v.memory == ("TD",) and "TD" in g.known(0)
    assert any(pt("TD") in t for t in texts)
    n = build(slots={"T1": "KH"}, stash=["AS"])
    n, texts = play(n, "extract r2c3")
    assert n.view(0).memory is None and "TD" not in n.known(0)
    assert not any(pt("TD") in t for t in texts) and "TD" not in json.dumps(dataclasses.asdict(n.view(0)))


def test_variant_lowest_health():
    # Armour by current health: KS (13) beats JS armoured to 16 among the spades.
    living = {"T1": "JS+5S", "T2": "KS"}
    assert [build(slots=living).slots[i]["royal"] for i in build(slots=living).armour_targets("2S")] == ["JS"]
    g = build(FULL_HIGH, slots=living, pending="2S", phase=PENDING_NUMBER, options=["Lowest Health"])
    assert [m for m in g.legal_moves(0) if m.startswith("armour")] == ["armour KS"]
    g, _ = play(g, "armour KS")
    assert g.health(SLOTS.index("T2")) == 15


def test_variant_ploys_first():
    g = build(FULL_HIGH, slots={"T1": "KC"}, stash=["JK"], pending="3C", phase=PENDING_NUMBER,
              options=["Ploys First"])
    assert "armour KC" not in g.legal_moves(0) and any(m.startswith("reassign") for m in g.legal_moves(0))
    assert "Ploys First" in g.view(0).prompt
    with pytest.raises(IllegalMove, match="Ploys First"):
        g.apply(0, "armour KC")


def test_variant_source_thresholds():
    assert armour_case("QC", ["5C"], "3C", ["Source Thresholds"]).phase == LOSS  # 20
    assert armour_case("QC", ["4C"], "3C", ["Source Thresholds"]).phase == READY  # 19


def test_variant_exact():
    grid = "TH 9H TD / TS 8S 9C / 9D 9S 8H"
    # TC is locked in a dead royal's armour, so KC's best attack is 9C + 8C = 17 < 19.
    g = build(grid, slots={"T1": "KC+4C", "B3": "x:QS+TC"}, pending="2C", phase=PENDING_NUMBER, options=["Exact"])
    g, _ = play(g, "armour KC")
    assert g.phase == LOSS
    d = build(grid, slots={"T1": "KC+4C", "B3": "x:QS+TC"}, pending="2C", phase=PENDING_NUMBER)
    d, _ = play(d, "armour KC")
    assert d.phase == READY  # default threshold: 19 < 20
    e = build(grid, slots={"T1": "KC+4C"}, pending="2C", phase=PENDING_NUMBER, options=["Exact"])
    e, _ = play(e, "armour KC")
    assert e.phase == READY  # TC + 9C = 19 still reaches 19


def test_variant_keep_ploys():
    k = build(slots=ten_dead(), top="JK 5C AD QS 9D".split(), options=["Keep Ploys"])
    k, texts = play(k, "draw")
    assert k.cycle == ["5C"] and [p["card"] for p in k.stash] == ["JK", "AD"]
    assert any(t.startswith("Kept in the stash") for t in texts)
    check_zones(k)


def test_variant_draw_order():
    d = G.new(["p"], ["Draw Order"], deck=stacked(EX1_TOP))
    assert d.set_aside == ["KH", "QD"] and {m.split()[1] for m in d.legal_moves(0)} == {"KH"}
    d, texts = play(d, "royal KH T1")
    # QD, now first and forced, is placed at once.
    assert slot(d, "R2")["royal"] == "QD" and d.phase == SETUP_REPLACE


def test_variant_stash_only():
    g = build(slots=eleven_dead(), stash=["AS", "JK", "AH*"], pending="4S", phase=PENDING_NUMBER,
              options=["Stash Only"])
    assert g.view(0).max_score == 3
    g, _ = play(g, "place r3c1")
    assert g.outcome().score == 2 and g.outcome().winners == (0,)


def test_variant_revised_old_version_needs_an_ace():
    g = build(slots={"T1": "KH"}, stash=["JK"], pile=["2C"], options=["Revised Old Version"])
    g, _ = play(g, "draw", "place r1c3")
    assert g.phase == LOSS and "unspent ace" in g.outcome().summary
    v = build(slots={"T1": "KH"}, stash=["JK"], pile=["2C"])
    v, _ = play(v, "draw", "place r1c3")
    assert v.phase == EXHAUSTED


def test_variant_no_jokers():
    g = G.new(["p"], ["No Jokers"], seed=3)
    check_zones(g)
    assert len(full_deck(g.options)) == 52
    assert not any(c.startswith("JK") for c in full_deck(g.options))
    assert g.view(0).max_score == 4


def test_variant_classic_setup_and_values():
    top = "5H KH 9C AS 2D 7S JK 3H TD QD".split()
    g = G.new(["p"], ["Classic (Old Version)"], deck=stacked(top))
    assert g.options == ["Classic (Old Version)"]
    assert g.grid[4] == [] and g.grid[0] == ["5H"] and g.grid[2] == ["AS"] and g.grid[6] == ["JK"]
    assert [value(st[0]) for st in (g.grid[2], g.grid[6])] == [1, 0]
    assert g.set_aside == ["KH"] and g.stash == []
    assert g.phase == SETUP_ROYALS  # KH: T1 or L1
    g, _ = play(g, "royal KH T1")
    assert g.phase == READY  # no replacement in Classic
    check_zones(g)


def test_variant_classic_drawn_ploy_resets_and_fires():
    # JS at T1: r1c1 5H + r2c1 7S = 12; an ace played on r3c1 resets 4C and fires.
    g = build(slots={"T1": "JS"}, top=["AD"], options=["Classic"])
    g, _ = play(g, "draw")
    assert g.phase == PENDING_PLOY and g.legal_moves(0) == [f"reset {c}" for c in CELLS]
    g, texts = play(g, "reset r3c1")
    assert g.grid[6] == ["AD"] and g.pile[-1] == "4C" and slot(g, "T1")["dead"]
    check_zones(g)


def test_variant_classic_hard_reset_or_armour():
    g = build(FULL_HIGH, slots={"T1": "KC"}, pending="3C", phase=PENDING_NUMBER, options=["Classic"])
    moves = g.legal_moves(0)
    assert "armour KC" in moves and "hardreset r1c1" in moves
    h, _ = play(g, "hardreset r2c2")
    assert h.shame == ["3C"] and h.grid[4] == [] and h.pile[-1] == "9H" and h.phase == READY
    a, _ = play(g, "armour KC")
    assert a.health(SLOTS.index("T1")) == 16


def test_variant_classic_empty_deck_recycles_and_score_is_shame():
    g = build("5H 9C 2D / 7S 3H TD / 4C,8C 8D 6S", slots={"T1": "KH"}, pile=[], phase=EXHAUSTED,
              options=["Classic"])
    assert "recycle r3c1" in g.legal_moves(0) and "concede" not in g.legal_moves(0)
    g, _ = play(g, "recycle r3c1")
    assert g.shame == ["8C"] and g.pile == ["4C"] and g.phase == READY
    e = build("- - - / - - - / - - 8C", slots={"T1": "KH"}, pile=[], phase=EXHAUSTED, options=["Classic"])
    e, _ = play(e, "recycle r3c3")
    assert e.phase == LOSS and "empty" in e.outcome().summary
    w = build(slots=eleven_dead(), pending="4S", phase=PENDING_NUMBER, options=["Classic"])
    w.shame = ["2H", "3C"]
    w.pile = [c for c in w.pile if c not in w.shame]
    w, _ = play(w, "place r3c1")
    assert w.outcome().score == 2 and "shame pile 2" in w.outcome().summary


def test_options_aliases_and_conflicts():
    assert G.check_options(["classic"]) == ["Classic (Old Version)"]
    assert G.check_options(["Classic (Old Version)"]) == ["Classic (Old Version)"]
    assert G.check_options(["memory_aid", "no-jokers"]) == ["Memory Aid", "No Jokers"]
    with pytest.raises(IllegalMove):
        G.check_options(["Classic", "Revised Old Version"])
    with pytest.raises(IllegalMove):
        G.new(["a", "b"])
    with pytest.raises(IllegalMove, match="exactly"):
        G.new(["p"], deck=["5H"] * 54)


def test_class_attributes():
    assert G.min_players == G.max_players == 1
    assert G.credit == "Based on Gridcannon by Tom Francis" and G.summary.endswith(G.credit)
    names = {i.name for i in G.Options.infos() if i.is_variant}
    assert names == {"Memory Aid", "Lowest Health", "Ploys First", "Source Thresholds", "Exact", "Keep Ploys",
                     "Draw Order", "Stash Only", "Classic (Old Version)", "Revised Old Version", "No Jokers"}


def test_forfeit_is_a_loss():
    g = build(slots={"T1": "KH"})
    g, _ = g.forfeit(0)
    assert g.phase == LOSS and g.outcome().winners == () and g.outcome().score is None


def test_view_hides_the_pile_and_seed():
    g = G.new(["p"], seed=12345)
    v = g.view(0)
    assert dataclasses.replace(v, seat=None) == g.view(None)
    blob = json.dumps(dataclasses.asdict(v), ensure_ascii=False)
    assert "12345" not in blob and "rng" not in blob and "pile" not in blob
    for c in set(g.full_deck()) - g.known(0):
        assert c not in blob.split('"')
    assert v.deck == len(g.pile)
    assert {f.name for f in dataclasses.fields(v)} >= {"game", "players", "deciding", "over", "result", "grid",
                                                       "slots", "stash", "set_aside", "cycle", "pending", "deck",
                                                       "stage", "kills"}


def test_describe_labels():
    g = build(slots={"T1": "JS"}, pending="4S", phase=PENDING_NUMBER)
    assert g.describe(0, "place r3c1") == "Place 4♠ on r3c1 — kills J♠"
    assert g.describe(0, "place r1c3") == "Place 4♠ on r1c3"


def test_auto_move_takes_the_kill():
    g = build(slots={"T1": "JS"}, pending="4S", phase=PENDING_NUMBER)
    import random

    assert str(auto_move(g, 0, random.Random(1))) == "place r3c1"
