"""Warriors of the Celestial Emperor: every rule, ruling, example and variant of the rulebook."""

from __future__ import annotations

from bot.engine.words import decode

import dataclasses
import json
import random

import pytest

from bot.engine.celestial_emperor import (
    GAME as G,
    CLAN_WORD,
    CYCLE,
    LENIENT,
    SEAT_ORDER,
    SPEC,
    STRICT,
    CelestialEmperorGame,
    auto_move,
    score,
    value,
)
from bot.engine.core import HIDDEN, IllegalMove
from bot.render.celestial_emperor import hand_text, panel, picture, text

LINE = "A line of the tale."


# ----- helpers -------------------------------------------------------------------------
def new(suits: str = "DSC", options=(), names=None) -> CelestialEmperorGame:
    """A game whose seat i holds the clan of suits[i] (the stacked deck fixes the clans)."""
    names = names or [f"P{i}" for i in range(len(suits))]
    g = G.new(names, options, seed=7, deck=["A" + s for s in suits])
    assert isinstance(g, CelestialEmperorGame)
    return g


def moves(g, s) -> list[str]:
    """Every complete token action of seat ``s`` (story lines aside), through ``choices``."""
    return [str(a) for a in g.legal_actions(s)]


def lines(g, s) -> list[tuple[str, bool]]:
    """The story lines seat ``s`` may tell now: (verb, required)."""
    out = []
    for o in g.choices(s, ()).options:
        c = g.choices(s, (o.token,))
        if c.kind == "text":
            out.append((o.token, c.required))
    return out


def verbs(g, s) -> list[str]:
    return [v for v, _ in lines(g, s)]


def hidden(g, who) -> set[str]:
    """The cards ``who`` may not know the place of now."""
    return set(g.all_cards()) - g.known(who)


def dump(view) -> str:
    return json.dumps(dataclasses.asdict(view), sort_keys=True, default=str, ensure_ascii=False)


def said(events, who) -> list[str]:
    """What ``who`` (None: the public) reads of ``events``."""
    return [t for t in (e.for_(who) for e in events) if t]


def public(events) -> list[str]:
    return [e.public for e in events if e.public is not None]


def seat(g: CelestialEmperorGame, who) -> int:
    return who if isinstance(who, int) else g.clans.index(who)


def step(g, who, move):
    new_g, _ = g.apply(seat(g, who), move)
    return new_g


def step_ev(g, who, move):
    return g.apply(seat(g, who), move)


def started(suits="DSC", options=()) -> CelestialEmperorGame:
    g = new(suits, options)
    return step(g, g.narrator, "setting A bamboo forest in the rain.")


def lowest(g, who) -> str:
    return min(g.hands[seat(g, who)], key=value)


def commit_both(g, atk, dfn, a_card, d_card, text="x"):
    """R1–R2: ``atk`` targets ``dfn`` (suit letters), describes the attack (``text``), both commit."""
    g = step(g, atk, f"target {CLAN_WORD[dfn]}")
    g = step(g, atk, f"describe {text}")
    g = step(g, atk, f"commit {a_card}")
    return step(g, dfn, f"commit {d_card}")


def duel(g, atk, dfn, a_card, d_card, atk_trick=None, def_trick=None):
    """Play one whole duel (R1–R6) between clans ``atk`` and ``dfn`` (suit letters)."""
    g = commit_both(g, atk, dfn, a_card, d_card, "A swift blow.")
    if value(a_card) == value(d_card):
        return step(g, dfn, "skip")
    w, lo = (atk, dfn) if value(a_card) > value(d_card) else (dfn, atk)
    g = step(g, w, f"{'strike' if w == atk else 'parry'} {LINE}")
    g = step(g, lo, f"withdraw {LINE}")
    g = step(g, atk, f"trick {atk_trick or lowest(g, atk)}")
    g = step(g, dfn, f"trick {def_trick or lowest(g, dfn)}")
    return g


def sizes(g) -> str:
    return " ".join(f"{s}{len(g.hands[g.clans.index(s)])}" for s in "DHSC" if s in g.clans)


def attacker(g):
    return g.clans[g.duel["atk"]] if g.duel else None


def frozen(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def all_zones(g) -> list[str]:
    cards = [c for h in g.hands for c in h] + [c for t in g.tricks for c in t] + g.tie_pile + g.out
    cards += [c for c in g.committed if c] + [c for c in g.finals if c]
    return cards


def check_cards(g):
    cards = all_zones(g)
    assert len(cards) == len(set(cards)) == 13 * len(g.players)


def position(suits, hands, T=None, finals=None, pointer=None, options=()):
    """A mid-game position: ``hands`` maps suit letter → cards; the rest go to the tie pile."""
    g = started(suits, options)
    held = {c for cs in hands.values() for c in cs} | set((finals or {}).values())
    g.tie_pile = [c for c in g.all_cards() if c not in held]
    for i, s in enumerate(g.clans):
        g.hands[i] = list(hands.get(s, []))
    for s, c in (finals or {}).items():
        g.finals[seat(g, s)] = c
    for s, t in (T or {}).items():
        g.T[seat(g, s)] = t
    if pointer:
        g.duel = None
        g.duel_number = 0
        g._start_turn(seat(g, pointer))
    check_cards(g)
    return g


# ----- §1 setup and visibility ----------------------------------------------------------
def test_rule_1_each_player_holds_the_13_cards_of_a_different_clan():
    for n in (2, 3, 4):
        for s in range(20):
            g = G.new([f"P{i}" for i in range(n)], seed=s)
            assert len(set(g.clans)) == n
            for i, suit in enumerate(g.clans):
                assert sorted(g.hands[i]) == sorted(r + suit for r in "A23456789TJQK")
            check_cards(g)


def test_rule_1_random_clans_come_from_the_seed():
    seen = {tuple(G.new(["a", "b"], seed=s).clans) for s in range(40)}
    assert len(seen) > 4
    assert G.new(["a", "b", "c"], seed=5).clans == G.new(["a", "b", "c"], seed=5).clans


def test_variant_seat_order_clans():
    g = G.new(["a", "b", "c", "d"], [SEAT_ORDER], seed=3)
    assert g.clans == ["D", "H", "S", "C"]
    g = G.new(["a", "b"], ["seat_order_clans"], seed=3)
    assert g.clans == ["D", "H"]


def test_ruling_15_seat_order_clans():
    # Off by default: clans are dealt at random (not always in seat order).
    assert not G.Options.parse([]).seat_order
    assert any(G.new(list("abcd"), seed=s).clans != ["D", "H", "S", "C"] for s in range(10))
    # On: the clans in cycle order to the seats in seat order, the first seat the Dragon.
    for n in (2, 3, 4):
        g = G.new(list("abcd")[:n], [SEAT_ORDER], seed=11)
        assert g.clans == ["D", "H", "S", "C"][:n] and g.clans == sorted(g.clans, key=CYCLE.index)
    # The first seat gets the first clan present, from the Dragon: clans fixed another way (a stacked
    # deck, Tortoise then Phoenix) still go to the seats in cycle order.
    assert new("CH").clans == ["C", "H"]
    assert new("CH", [SEAT_ORDER]).clans == ["H", "C"]
    # The rules for players say so.
    rulings = dict(SPEC.rules_sections())["Rulings"]
    assert "15. **Seat-order clans.**" in rulings and "off" in rulings.split("15. ")[1]


def test_rule_1_unused_suits_and_jokers_are_not_in_play():
    g = new("HS")
    assert set(c[1] for c in g.all_cards()) == {"H", "S"}
    assert all(not c.startswith("JK") for c in g.all_cards())


def test_rule_2_setting_narrator_posts_first_and_setting_is_required():
    g = new("DHS")
    assert g.to_act() == {seat(g, "S")} and g.phase == "setting"
    assert verbs(g, seat(g, "S")) == ["setting"]
    with pytest.raises(IllegalMove, match="required"):
        step(g, "S", "setting   ")
    g2, ev = step_ev(g, "S", "setting The Jade Palace roof.")
    assert g2.story[0] == {"seat": seat(g, "S"), "kind": "setting", "text": "The Jade Palace roof."}
    assert any("Jade Palace" in t for t in public(ev))
    assert g2.phase == "declare" and attacker(g2) == "D"


def test_rule_3_first_attacker_is_first_clan_in_cycle_order():
    assert attacker(started("CSD")) == "D"
    assert attacker(started("CS")) == "S"
    assert attacker(started("SHC")) == "H"


def test_rule_2_state_hands_checked_only_at_clean_up():
    # A player starting a duel with 2 cards gets one back and chooses freely which goes to the trick.
    g = position("DS", {"D": ["2D", "9D"], "S": ["3S", "4S", "5S"]}, pointer="D")
    g = step(g, "D", "target tiger")
    g = step(g, "D", "describe Strike.")
    g = step(g, "D", "commit 9D")
    assert g.hands[seat(g, "D")] == ["2D"] and g.finals[seat(g, "D")] is None
    g = step(g, "S", "commit 3S")
    g = step(g, "D", f"strike {LINE}")
    g = step(g, "S", f"withdraw {LINE}")
    assert sorted(moves(g, seat(g, "D"))) == ["trick 2D", "trick 3S"]
    g = step(g, "D", "trick 3S")
    g = step(g, "S", "trick 4S")
    assert g.finals[seat(g, "D")] == "2D" and g.hands[seat(g, "D")] == []


def test_visibility_hands_are_private_hand_sizes_public():
    g = started("DS")
    pub = g.view(None)
    assert pub.hand is None
    assert [p.hand_size for p in pub.seats] == [13, 13]
    assert list(g.view(0).hand) == sorted(g.hands[0], key=value)
    assert hidden(g, 0) == set(g.hands[1])
    assert hidden(g, None) == set(g.all_cards())


def test_visibility_trick_contents_known_to_nobody_but_the_card_one_put_in():
    g = started("DS")
    g = duel(g, "D", "S", "9D", "3S", atk_trick="2D", def_trick="4S")
    d, s = seat(g, "D"), seat(g, "S")
    assert sorted(g.tricks[d]) == ["2D", "4S"]
    assert "4S" in hidden(g, None) and "2D" in hidden(g, None)
    assert "4S" in hidden(g, d) and "2D" not in hidden(g, d)
    assert "2D" in hidden(g, s) and "4S" not in hidden(g, s)
    assert list(g.view(d).put_in_tricks) == ["2D"]
    assert "2D" not in dump(g.view(None)) and "4S" not in dump(g.view(d))
    assert g.view(None).seats[d].tricks == 1


def test_visibility_revealed_cards_public_until_the_receiver_chooses_a_trick_card():
    g = started("DS")
    d, s = seat(g, "D"), seat(g, "S")
    g = commit_both(g, "D", "S", "9D", "3S", "Strike.")
    pub = g.view(None).duel
    assert pub.attacker_card == "9D" and pub.defender_card == "3S"
    g = step(g, "D", f"strike {LINE}")
    g, ev = step_ev(g, "S", f"withdraw {LINE}")
    assert any("9♦ goes to" in t for t in public(ev))  # the exchange is public
    assert "9D" in g.hands[s] and "3S" in g.hands[d]
    assert not ({"9D", "3S"} & hidden(g, None))
    g = step(g, "S", "trick 2S")  # the Tiger chose: 9D may be in the trick now
    assert "9D" in hidden(g, None) and "9D" in hidden(g, d)
    assert "3S" not in hidden(g, None)
    assert g.view(None).duel.attacker_card is HIDDEN
    assert g.view(s).duel.attacker_card == "9D"  # still in the Tiger's own hand


# ----- §3 the duel ------------------------------------------------------------------
def test_rule_R1_order_target_then_description_then_commit():
    g = started("DS")
    d = seat(g, "D")
    assert moves(g, d) == ["target tiger"] and lines(g, d) == []
    with pytest.raises(IllegalMove):
        step(g, "D", "commit 5D")
    with pytest.raises(IllegalMove):
        step(g, "D", "describe Too early.")
    g = step(g, "D", "target tiger")
    assert moves(g, d) == [] and verbs(g, d) == ["describe"]
    with pytest.raises(IllegalMove):
        step(g, "D", "commit 5D")
    with pytest.raises(IllegalMove):
        step(g, "D", "target tiger")
    g = step(g, "D", "describe The dragon coils.")
    assert moves(g, d) == [f"commit {r}D" for r in "A23456789TJQK"]
    assert g.story[-1] == {"seat": d, "kind": "attack", "text": "The dragon coils."}


def test_rule_R1_attack_description_must_be_non_empty():
    g = step(started("DS"), "D", "target tiger")
    before = frozen(g)
    with pytest.raises(IllegalMove, match="required"):
        step(g, "D", "describe")
    with pytest.raises(IllegalMove):
        step(g, "D", "skip")
    assert frozen(g) == before


def test_variant_lenient_descriptions_makes_the_attack_text_optional():
    g = step(started("DS", [LENIENT]), "D", "target tiger")
    ((verb, required),) = lines(g, seat(g, "D"))
    assert verb == "describe" and not required and g.decision_of(seat(g, "D")).default == "skip"
    assert "skip" in moves(g, seat(g, "D"))
    g2 = step(g, "D", "skip")
    assert g2.duel["described"] and moves(g2, seat(g, "D"))[0].startswith("commit")
    g3 = step(g, "D", "describe")
    assert g3.duel["described"] and g3.story[-1]["kind"] == "duel"


def test_rule_R2_to_R6_winner_loser_texts_exchange_and_trick():
    g = started("DS")
    d, s = seat(g, "D"), seat(g, "S")
    g = step(g, "D", "target tiger")
    g = step(g, "D", "describe Strike.")
    g = step(g, "D", "commit 5D")
    assert g.to_act() == {s} and g.phase == "defend"
    g = step(g, "S", "commit 8S")
    assert g.to_act() == {s} and verbs(g, s) == ["parry"]
    assert lines(g, s)[0][1]
    g = step(g, "S", f"parry {LINE}")
    assert g.to_act() == {d} and verbs(g, d) == ["withdraw"]
    with pytest.raises(IllegalMove):
        step(g, "D", "withdraw ")
    g = step(g, "D", f"withdraw {LINE}")
    assert g.phase == "trick" and g.to_act() == {d, s}  # simultaneous
    assert "8S" in g.hands[d] and "5D" in g.hands[s]
    g = step(g, "S", "trick 5D")
    assert g.to_act() == {d}
    g = step(g, "D", "trick 8S")
    assert g.T == [0, 1] and sorted(g.tricks[s]) == ["5D", "8S"]
    assert sizes(g) == "D12 S12" and attacker(g) == "S"
    kinds = [e["kind"] for e in g.story]
    assert kinds[-5:] == ["attack", "result", "parry", "withdraw", "trick"]


def test_attacker_wins_writes_a_strike():
    g = started("DS")
    g = commit_both(g, "D", "S", "KD", "8S", "Strike.")
    assert verbs(g, seat(g, "D")) == ["strike"]


# ----- rulings ------------------------------------------------------------------------
def test_ruling_01_less_or_equal_applies_everywhere():
    sc = score([(0, "D", "5D", 5), (1, "H", "9H", 2)])
    assert sc["rows"][0]["qualifies"] and sc["winner"] == 0 and sc["rule"] == "v ≤ T"
    # The only qualifier has v = T: it wins (the literal middle clause would leave no winner).
    sc = score([(0, "D", "3D", 3), (1, "H", "AH", 0)])
    assert sc["winner"] == 0 and sc["method"] == "highest qualifying card"


def test_ruling_01_variant_strict_uses_less_than_to_qualify_and_for_the_fallback():
    sc = score([(0, "D", "5D", 5), (1, "H", "9H", 2)], strict=True)
    assert not any(r["qualifies"] for r in sc["rows"]) and sc["winner"] == 0
    assert sc["method"].startswith("lowest") and sc["rule"] == "v < T"
    sc = score([(0, "D", "4D", 5), (1, "H", "2H", 9)], strict=True)
    assert sc["winner"] == 0


def test_ruling_02_card_values_and_aces_tie():
    assert [value(r + "S") for r in "A23456789TJQK"] == list(range(1, 14))
    g = started("DS")
    g = duel(g, "D", "S", "AD", "AS")
    assert g.tie_pile == ["AD", "AS"] and g.T == [0, 0]


def test_ruling_03_tie_break_priority_tortoise_tiger_phoenix_dragon():
    rows = [(0, "D", "5D", 6), (1, "H", "5H", 6), (2, "S", "5S", 6), (3, "C", "5C", 6)]
    assert score(rows)["winner"] == 3
    assert score(rows[:3])["winner"] == 2
    assert score(rows[:2])["winner"] == 1
    assert score(rows)["tie_breaks"] == ["tricks", "priority"]


def test_ruling_04_missing_clans_skipped_narrator_and_first_attacker():
    expect = {"DH": ("H", "D"), "DS": ("S", "D"), "DC": ("C", "D"), "HS": ("S", "H"),
              "HC": ("C", "H"), "SC": ("C", "S"), "DHS": ("S", "D"), "HSC": ("C", "H")}
    for suits, (narr, first) in expect.items():
        g = new(suits)
        assert g.clans[g.narrator] == narr
        g = step(g, g.narrator, "setting Here.")
        assert attacker(g) == first
    g = started("HSC")
    g = duel(g, "H", "S", "5H", "5S")
    g = duel(g, "S", "C", "6S", "6C")
    g = duel(g, "C", "H", "7C", "7H")
    assert attacker(g) == "H"  # C → H: the missing Dragon is skipped


def test_ruling_05_tie_cards_go_face_up_out_no_exchange_no_trick_turn_passes():
    g = started("DS")
    g = step(g, "D", "target tiger")
    g = step(g, "D", "describe Strike.")
    g = step(g, "D", "commit 7D")
    g, ev = step_ev(g, "S", "commit 7S")
    assert g.tie_pile == ["7D", "7S"] and g.phase == "tie_text"
    ((verb, required),) = lines(g, seat(g, "S"))
    assert verb == "nullify" and not required and g.decision_of(seat(g, "S")).default == "skip"
    assert moves(g, seat(g, "S")) == ["skip"]
    assert "7D" not in g.hands[seat(g, "S")] and "7S" not in g.hands[seat(g, "D")]
    g2 = step(g, "S", "nullify The blades meet and shatter.")
    assert g2.story[-1]["kind"] == "nullify" and g2.T == [0, 0] and attacker(g2) == "S"
    g3 = step(g, "S", "skip")
    assert g3.story[-1]["kind"] == "tie" and attacker(g3) == "S"
    assert "7D" in g3.view(None).tie_pile and not (hidden(g3, None) & {"7D", "7S"})


def test_ruling_06_attacking_is_mandatory():
    g = started("DHS")
    d = seat(g, "D")
    assert moves(g, d) == ["target phoenix", "target tiger"]
    for move in ("pass", "skip", "target dragon"):
        with pytest.raises(IllegalMove):
            step(g, "D", move)


def test_ruling_07_turn_passes_to_the_next_clan_after_the_attacker_whatever_the_result():
    g = started("DHSC")
    g = duel(g, "D", "C", "2D", "KC")  # the defender wins
    assert attacker(g) == "H"
    g = duel(g, "H", "D", "KH", "2D" if "2D" in g.hands[0] else lowest(g, "D"))
    assert attacker(g) == "S"
    g = duel(g, "S", "C", "5S", "5C")  # a tie
    assert attacker(g) == "C"
    g = duel(g, "C", "H", "9C", "3H")
    assert attacker(g) == "D"


def test_ruling_08_one_card_players_locked_at_clean_up_and_out_of_the_fight():
    g = position("DHS", {"D": ["2D", "9D"], "H": ["3H", "4H", "5H"], "S": ["6S", "7S", "8S"]},
                 pointer="D")
    g = duel(g, "D", "H", "9D", "3H", atk_trick="2D")
    d = seat(g, "D")
    assert g.finals[d] == "3H" and g.hands[d] == [] and g.T[d] == 1  # the final card is not a trick
    assert g.view(d).final == "3H" and "3H" in hidden(g, None)
    assert g.view(None).seats[d].locked and "3H" not in dump(g.view(None))
    # It cannot attack (skipped) and cannot be attacked.
    assert attacker(g) == "H"
    h = seat(g, "H")
    assert moves(g, h) == ["target tiger"]
    with pytest.raises(IllegalMove, match="out of the fight"):
        step(g, "H", "target dragon")
    # Once locked it can never change: the Dragon has no move for the rest of the battle.
    g = duel(g, "H", "S", "5H", "8S")
    assert g.finals[d] == "3H" and d not in g.to_act()


def test_ruling_09_trick_count_is_duels_won_plus_endgame_discards():
    # The source's example: 4 wins, 3 cards left, 2 discarded: T = 6.
    g = position("DHS", {"D": ["5D", "6D", "7D"], "H": ["2H", "3H"], "S": ["4S", "8S"]},
                 T={"D": 4}, pointer="D")
    g = commit_both(g, "D", "H", "7D", "2H")
    g = step(g, "D", f"strike {LINE}")
    g = step(g, "H", f"withdraw {LINE}")
    g = step(g, "D", "trick 5D")
    g = step(g, "H", "trick 3H")
    d = seat(g, "D")
    assert g.T[d] == 5 and g.hands[d] == ["6D", "2H"]
    g = position("DHS", {"D": ["5D", "6D", "7D"]}, T={"D": 4},
                 finals={"H": "2H", "S": "4S"}, pointer="D")
    assert g.phase == "keep" and g.to_act() == {seat(g, "D")}
    g = step(g, "D", "keep 6D")
    assert g.T[seat(g, "D")] == 6


def test_ruling_10_any_card_in_hand_may_go_into_the_trick_privately():
    g = started("DS")
    g = commit_both(g, "D", "S", "9D", "3S")
    g = step(g, "D", f"strike {LINE}")
    g = step(g, "S", f"withdraw {LINE}")
    assert "trick 3S" in moves(g, seat(g, "D"))  # the card just received
    assert "trick 9D" in moves(g, seat(g, "S"))
    assert "trick KD" not in moves(g, seat(g, "S"))
    g2, ev = step_ev(g, "S", "trick 9D")
    shown = public(ev)
    assert shown and not any("9♦" in t or "9D" in t for t in shown)
    assert any("9♦" in t for t in said(ev, seat(g, "S")))
    assert g2.redact(seat(g, "S"), "trick 9D") == "trick (hidden)"


def test_ruling_11_battle_ends_when_fewer_than_two_are_active_two_players_after_12_duels():
    g = started("HS")
    rng = random.Random(3)
    duels = 0
    while g.phase != "epilogue":
        if g.phase == "declare" and g.duel["def"] is None:
            duels += 1
            assert duels <= 12
        s = sorted(g.to_act())[0]
        g = step(g, s, auto_move(g, s, rng))
        assert g.phase != "keep"
    assert duels == 12 and all(h == [] for h in g.hands) and all(g.finals)


def test_ruling_11_three_players_the_one_left_with_cards_discards_down():
    g = position("DHS", {"D": ["2D", "KD"], "H": ["3H", "4H"], "S": ["5S", "6S", "7S", "8S"]},
                 pointer="D")
    g = duel(g, "D", "H", "KD", "3H", atk_trick="2D", def_trick="4H")
    assert g.phase == "keep" and g.to_act() == {seat(g, "S")}
    assert moves(g, seat(g, "S")) == ["keep 5S", "keep 6S", "keep 7S", "keep 8S"]
    g, ev = step_ev(g, "S", "keep 7S")
    s = seat(g, "S")
    assert g.T[s] == 3 and sorted(g.tricks[s]) == ["5S", "6S", "8S"] and g.finals[s] == "7S"
    assert g.phase == "epilogue" and g.scoring is not None
    assert g.redact(s, "keep 7S") == "keep (hidden)"


def test_ruling_12_hidden_commitment_defender_sees_nothing_of_the_attackers_card():
    base = step(step(started("DHS"), "D", "target tiger"), "D", "describe The dragon dives.")
    s = seat(base, "S")
    views, offered, prompts, publics = set(), set(), set(), set()
    for card in base.hands[seat(base, "D")]:
        g, ev = step_ev(base, "D", f"commit {card}")
        views.add(dump(g.view(s)))
        publics.add(dump(g.view(None)))
        offered.add(tuple(moves(g, s)))
        prompts.add(tuple(lines(g, s)))
        assert said(ev, s) == ["The Dragon (P0) has committed a card."]
        assert card in hidden(g, s) and card in hidden(g, None)
        assert g.view(seat(g, "D")).committed == card
        assert g.redact(seat(g, "D"), f"commit {card}") == "commit (hidden)"
    assert len(views) == len(offered) == len(prompts) == len(publics) == 1
    pub = g.view(None)
    assert pub.duel.committed == (seat(base, "D"),) and pub.duel.attacker_card is HIDDEN


def test_ruling_12_both_cards_revealed_together():
    g = step(step(started("DS"), "D", "target tiger"), "D", "describe x")
    g = step(g, "D", "commit 6D")
    g, ev = step_ev(g, "S", "commit TS")
    reveal = [t for t in public(ev) if "Reveal" in t]
    assert reveal and "6♦" in reveal[0] and "10♠" in reveal[0]


def test_ruling_13_the_same_opponent_may_be_attacked_again_and_again():
    g = started("DHS")
    g = duel(g, "D", "S", "5D", "6S")
    g = duel(g, "H", "S", "5H", "7S")
    assert "target tiger" in moves(g, seat(g, "S")) or attacker(g) == "S"
    g = duel(g, "S", "H", "8S", "2H")
    g = duel(g, "D", "S", "9D", "3S")
    assert g.T[seat(g, "S")] == 3


def test_ruling_14_fallback_ties_broken_by_highest_T_then_priority():
    sc = score([(0, "D", "2D", 1), (1, "H", "2H", 0), (2, "S", "9S", 3)])
    assert sc["winner"] == 0 and sc["tie_breaks"] == ["tricks"] and sc["method"].startswith("lowest")
    sc = score([(0, "D", "2D", 1), (1, "H", "2H", 1), (2, "S", "9S", 3)])
    assert sc["winner"] == 1 and sc["tie_breaks"] == ["tricks", "priority"]


# ----- examples -----------------------------------------------------------------------
def test_example_01_three_player_setup():
    g = new("DSC")
    assert g.clans[g.narrator] == "C"
    assert [g.clans[s] for s in g.cycle_seats()] == ["D", "S", "C"]
    assert sizes(g) == "D13 S13 C13"


def test_example_03_tie():
    g = started("DSC")
    g = duel(g, "D", "S", "7D", "7S")
    assert g.tie_pile == ["7D", "7S"]
    assert sizes(g) == "D12 S12 C13" and g.T == [0, 0, 0]
    assert attacker(g) == "S"


def test_example_05_the_defender_wins():
    g = duel(started("DSC"), "D", "S", "7D", "7S")
    g = duel(g, "S", "C", "9S", "2C")
    assert sizes(g) == "D12 S11 C12" and attacker(g) == "C"
    g = commit_both(g, "C", "D", "5C", "KD", "The tortoise lunges.")
    assert g.duel["winner"] == seat(g, "D")
    g = step(g, "D", f"parry {LINE}")
    g = step(g, "C", f"withdraw {LINE}")
    assert "5C" in g.hands[seat(g, "D")] and "KD" in g.hands[seat(g, "C")]
    g = step(g, "C", "trick 3C")
    g = step(g, "D", "trick AD")
    assert g.T[seat(g, "D")] == 1
    assert sizes(g) == "D11 S11 C11" and attacker(g) == "D"
    check_cards(g)


def test_example_07_face_cards():
    g = started("DH")
    g = commit_both(g, "D", "H", "KD", "QH")
    assert g.duel["winner"] == seat(g, "D") and g.duel["loser"] == seat(g, "H")


def test_example_09_skipping():
    g = position("DHSC", {"D": ["2D", "3D", "4D"], "S": ["4S", "5S", "6S"], "C": ["6C", "7C", "8C"]},
                 finals={"H": "8H"}, pointer="D")
    assert attacker(g) == "D"
    g = duel(g, "D", "C", "3D", "7C")
    assert attacker(g) == "S"


def test_example_11_highest_qualifying_card():
    sc = score([(0, "D", "5D", 6), (1, "H", "9H", 4), (2, "S", "3S", 3), (3, "C", "AC", 0)])
    assert [r["qualifies"] for r in sc["rows"]] == [True, False, True, False]
    assert sc["winner"] == 0 and sc["tie_breaks"] == []


def test_example_13_tie_broken_by_priority():
    sc = score([(0, "H", "5H", 6), (1, "S", "5S", 6), (2, "D", "9D", 2), (3, "C", "JC", 4)])
    assert [r["qualifies"] for r in sc["rows"]] == [True, True, False, False]
    assert sc["winner"] == 1 and sc["tie_breaks"] == ["tricks", "priority"]


def test_example_15_where_the_strict_variant_differs():
    rows = [(0, "D", "4D", 4), (1, "H", "3H", 1)]
    assert score(rows)["winner"] == 0
    assert score(rows, strict=True)["winner"] == 1


def test_example_17_a_full_two_player_game():
    for s in range(6):
        g = new("HS")
        g = step(g, g.narrator, "setting A frozen lake.")
        rng = random.Random(s)
        order = []
        while g.phase not in ("epilogue", "over"):
            if g.phase == "declare" and g.duel["def"] is None:
                order.append(attacker(g))
            who = sorted(g.to_act())[0]
            g = step(g, who, auto_move(g, who, rng))
        assert order == ["H", "S"] * 6
        assert all(len(h) == 0 for h in g.hands) and all(g.finals)
        ties = len(g.tie_pile) // 2
        assert sum(g.T) == 12 - ties


# ----- the endgame, scoring and epilogue ----------------------------------------------
def endgame_position(options=()):
    return position("DHS", {"D": ["5D", "6D", "7D", "8D"]}, T={"D": 3, "H": 2, "S": 4},
                    finals={"H": "2H", "S": "4S"}, pointer="D", options=options)


def test_scoring_step_by_step_and_epilogue():
    g = endgame_position()
    g, ev = step_ev(g, "D", "keep 6D")
    d, h, s = seat(g, "D"), seat(g, "H"), seat(g, "S")
    sc = g.scoring
    assert [(r["clan"], r["v"], r["T"], r["qualifies"]) for r in sc["rows"]] == [
        ("Dragon", 6, 6, True), ("Phoenix", 2, 2, True), ("White Tiger", 4, 4, True)]
    assert sc["winner"] == d and sc["method"] == "highest qualifying card"
    assert len(sc["steps"]) == 5 and "Dragon" in decode(sc["steps"][-1])  # each step a phrase's JSON
    assert any("6♦" in t for t in public(ev))
    pub = g.view(None)
    assert {f.card for f in pub.finals} == {"6D", "2H", "4S"}
    assert pub.scoring.winner == d and not pub.over
    assert g.to_act() == {d, h, s}
    assert verbs(g, d) == ["victory"] and verbs(g, h) == ["return"]
    assert all(not required and g.decision_of(x).default == "skip" for x in (d, h, s) for _, required in lines(g, x))
    g = step(g, "D", "victory The dragon soars.")
    g = step(g, "H", "skip")
    assert g.outcome() is None
    g = step(g, "S", "return The tiger will hunt again.")
    out = g.outcome()
    assert out.winners == (d,) and "wins" in out.summary
    assert out.details["scoring"]["winner"] == d
    story = out.details["story"]
    assert story[-2] == {"seat": d, "kind": "victory", "text": "The dragon soars."}
    assert story[-1]["kind"] == "return" and story[0]["kind"] == "setting"
    assert g.view(None).over and g.to_act() == frozenset()
    with pytest.raises(IllegalMove, match="over"):
        step(g, "D", "skip")


def test_variant_strict_in_play():
    g = endgame_position([STRICT])
    g = step(g, "D", "keep 6D")
    assert not any(r["qualifies"] for r in g.scoring["rows"]) and g.scoring["rule"] == "v < T"
    assert g.scoring["winner"] == seat(g, "H")  # the lowest card


# ----- forfeits -------------------------------------------------------------------------
def test_forfeit_two_players_the_other_wins():
    g = started("DS")
    g2, ev = g.forfeit(seat(g, "S"))
    out = g2.outcome()
    assert out.winners == (seat(g, "D"),) and "left" in out.summary
    assert g2.hands[seat(g, "S")] == [] and len(g2.out) == 13
    check_cards(g2)


def test_forfeit_of_the_narrator_passes_the_setting_on():
    g = new("DHS")
    g, _ = g.forfeit(seat(g, "S"))
    assert g.clans[g.narrator] == "H" and g.to_act() == {seat(g, "H")}


def test_forfeit_of_the_defender_after_commit_returns_the_attackers_card_and_attacker_goes_again():
    g = started("DHS")
    g = step(g, "D", "target tiger")
    g = step(g, "D", "describe x")
    g = step(g, "D", "commit 9D")
    g, ev = g.forfeit(seat(g, "S"))
    d = seat(g, "D")
    assert "9D" in g.hands[d] and len(g.hands[d]) == 13 and g.committed[d] is None
    assert attacker(g) == "D" and moves(g, d) == ["target phoenix"]
    check_cards(g)


def test_forfeit_of_the_attacker_returns_the_defenders_card_turn_passes():
    g = started("DHS")
    g = commit_both(g, "D", "S", "9D", "2S")
    g = step(g, "D", f"strike {LINE}")
    g, _ = g.forfeit(seat(g, "D"))
    assert len(g.hands[seat(g, "S")]) == 13 and attacker(g) == "H"
    assert moves(g, seat(g, "H")) == ["target tiger"]  # the Dragon is never targeted again
    check_cards(g)


def test_forfeit_during_the_trick_keeps_the_received_card_and_undoes_the_trick():
    g = started("DHS")
    g = commit_both(g, "D", "S", "9D", "2S")
    g = step(g, "D", f"strike {LINE}")
    g = step(g, "S", f"withdraw {LINE}")
    g = step(g, "S", "trick 9D")
    g, _ = g.forfeit(seat(g, "D"))
    s = seat(g, "S")
    assert "9D" in g.hands[s] and len(g.hands[s]) == 13 and g.T[s] == 0
    assert g.put_in[s] == [] and attacker(g) == "H"
    check_cards(g)


def test_forfeit_mid_endgame_and_epilogue():
    g = endgame_position()
    g, _ = g.forfeit(seat(g, "D"))  # the keeper leaves: the others are scored
    assert g.phase == "epilogue" and [r["clan"] for r in g.scoring["rows"]] == ["Phoenix", "White Tiger"]
    check_cards(g)
    g = step(endgame_position(), "D", "keep 6D")
    g, _ = g.forfeit(seat(g, "D"))  # the scoring stands; only the line is skipped
    assert g.scoring["winner"] == seat(g, "D") and g.finals[seat(g, "D")] == "6D"
    g = step(g, "H", "skip")
    g = step(g, "S", "skip")
    assert g.outcome().winners == (seat(g, "D"),)


def test_forfeit_leaving_one_active_player_ends_the_battle():
    g = position("DHS", {"D": ["2D", "3D"], "H": ["4H", "5H"], "S": []}, finals={"S": "6S"},
                 pointer="D")
    g, _ = g.forfeit(seat(g, "H"))
    assert g.phase == "keep" and g.to_act() == {seat(g, "D")}


# ----- illegal moves --------------------------------------------------------------------
def test_illegal_moves_leave_the_state_unchanged():
    g = step(started("DHS"), "D", "target tiger")
    before = frozen(g)
    cases = [
        (seat(g, "H"), "describe Not my turn."),       # out of turn
        (seat(g, "D"), "describe"),                    # empty required text
        (seat(g, "D"), "describe " + "x" * 1001),      # too long
        (seat(g, "D"), "dance wildly"),                # garbage
        (seat(g, "D"), "commit 7H"),                   # not described yet
        (9, "describe x"),                             # not seated
    ]
    for who, move in cases:
        with pytest.raises(IllegalMove):
            g.apply(who, move)
        assert frozen(g) == before
    g = step(g, "D", "describe " + "x" * 1000)
    before = frozen(g)
    for who, move in [(seat(g, "D"), "commit 7H"), (seat(g, "D"), "commit 7Z"), (seat(g, "D"), "commit"),
                      (seat(g, "S"), "commit 7S"), (seat(g, "D"), "trick 7D"), (seat(g, "D"), "keep 7D")]:
        with pytest.raises(IllegalMove):
            g.apply(who, move)
        assert frozen(g) == before
    with pytest.raises(IllegalMove, match="do not hold 7♥"):
        g.apply(seat(g, "D"), "commit 7H")


def test_illegal_targets():
    g = started("DHS")
    for move, msg in [("target dragon", "yourself"), ("target tortoise", "no Tortoise"),
                      ("target nobody", "Name the target")]:
        with pytest.raises(IllegalMove, match=msg):
            step(g, "D", move)


def test_card_input_forms_are_accepted():
    g = step(step(started("DS"), "D", "target white tiger"), "D", "describe x")
    assert step(g, "D", "commit 10d").committed[seat(g, "D")] == "TD"
    assert step(g, "D", "commit 7♦").committed[seat(g, "D")] == "7D"


# ----- contract details ---------------------------------------------------------------
def test_legal_moves_are_exactly_what_apply_accepts():
    rng = random.Random(2)
    g = started("DHSC")
    for _ in range(120):
        if g.is_over():
            break
        for s in range(4):
            for m in moves(g, s):
                g.apply(s, m)  # must not raise
            assert len({m.split()[1] for m in moves(g, s) if len(m.split()) > 1}) <= 25
        s = sorted(g.to_act())[0]
        g = step(g, s, auto_move(g, s, rng))


def label(g, s, move: str) -> str:
    """The label ``choices`` gives the last token of ``move``, and its typed data."""
    *prefix, last = move.split()
    option = next(o for o in g.choices(s, tuple(prefix)).options if o.token == last)
    return option.label


def test_describe_labels():
    g = started("DS")
    assert label(g, 0, "target tiger") == "Attack the White Tiger (P1)"
    assert g.choices(0, ("target",)).options[0].data == 1  # the target's seat
    g = step(step(g, "D", "target tiger"), "D", "describe x")
    assert label(g, 0, "commit TD") == "Commit 10♦ face-down"
    g = step(step(step(step(g, "D", "commit 9D"), "S", "commit 3S"), "D", f"strike {LINE}"), "S", f"withdraw {LINE}")
    assert label(g, 0, "trick 2D") == "Put 2♦ into the trick"
    g = endgame_position()
    assert label(g, 0, "keep 5D") == "Keep 5♦ as the final card"
    assert g.choices(0, ("keep",)).options[0].data == "5D"


def test_to_json_matches_dataclasses_asdict_and_round_trips():
    g = endgame_position()
    g = step(g, "D", "keep 6D")
    assert g.to_json()["state"] == dataclasses.asdict(g)
    assert G.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()
    c = g.copy()
    c.story.append({"seat": 0, "kind": "x", "text": "y"})
    c.hands[0].append("ZZ")
    assert g.to_json()["state"] == dataclasses.asdict(g)


def test_class_attributes():
    assert G.game_id == "celestial_emperor"
    assert (G.min_players, G.max_players) == (2, 4)
    assert {i.name for i in G.Options.infos() if i.is_variant} == {STRICT, LENIENT, SEAT_ORDER}
    assert G.summary.rstrip().endswith(f"*{G.credit}*") and "Game Poem 35" in G.credit


# ----- renders ------------------------------------------------------------------------
def test_renders_show_the_duel_and_respect_limits():
    g = step(step(started("DS"), "D", "target tiger"), "D", "describe The dragon dives.")
    g = step(g, "D", "commit 9D")
    assert not panel(g.view(None)).fields  # beside the picture: who must act, not what the picture shows
    pub = panel(g.view(None), with_picture=False)
    body = pub.as_text()
    assert pub.title == "Warriors of the Celestial Emperor"
    assert "card committed" in body and "9♦" not in body and "9D" not in body
    assert "committed 9♦" in hand_text(g.view(seat(g, "D")))
    assert "Your move" in hand_text(g.view(seat(g, "S")))
    assert len(pub.description) <= 4096 and len(pub.fields) <= 25
    assert all(len(v) <= 1024 for _, v, _ in pub.fields)
    assert "Your hand" in text(g.view(seat(g, "S")))
    assert picture(g.view(None))[:8] == b"\x89PNG\r\n\x1a\n"  # pictures: tests/render


def test_renders_show_scoring_at_the_end():
    g = step(endgame_position(), "D", "keep 6D")
    body = panel(g.view(None), with_picture=False).as_text()
    assert "Scoring" in body and "6♦" in body and "Winner" in body
    assert "Scoring" in text(g.view(None))
