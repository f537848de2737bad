"""Rules, rulings, examples and variants of The Knight, the Rogue, the Princess and the Dragon."""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import pairwise

import pytest

from bot.engine.core import IllegalMove, walk_choices
from bot.engine.knight_rogue_princess_dragon import (
    ALL_CARDS,
    BEATS_LINE,
    GAME,
    KnightRoguePrincessDragonGame,
    auto_move,
    beats,
    no_dead_end,
)
from bot.render.knight_rogue_princess_dragon import panel, picture, text
from bot.tables.games import load_game
from tests.service_helpers import open_race

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
P1, P2, P3, P4 = 0, 1, 2, 3

# Example 1's own piles, top first (P1 QS KS..., P2 AH..., P3 KD..., P4 JC...).
EXAMPLE_1_DECK = ["QS", "KS", "JS", "AS", "AH", "KH", "QH", "JH", "KD", "QD", "JD", "AD", "JC", "KC", "QC", "AC"]


def new(deck=None, opener=0, options=(), seed=1) -> KnightRoguePrincessDragonGame:
    opts = [*options, f"opener={opener}"] if opener is not None else list(options)
    return GAME.new(PLAYERS, opts, seed=seed, deck=deck)


def do(game, seat, move):
    return game.apply(seat, move)


def legal(game, seat):
    """The seat's complete actions, walked through ``choices`` (story lines excluded)."""
    return [" ".join(t) for t in walk_choices(game, seat)]


def text_verbs(game, seat):
    """The story lines the seat is asked for now (verbs whose next step is free text)."""
    return [o.token for o in game.choices(seat, ()).options if game.choices(seat, (o.token,)).kind == "text"]


def label(game, seat, move):
    """The plain-words label ``choices`` gives the last token of ``move``."""
    tokens = move.split()
    return next(o.label for o in game.choices(seat, tokens[:-1]).options if o.token == tokens[-1])


def play_all(game, moves):
    events = []
    for seat, move in moves:
        game, ev = game.apply(seat, move)
        events += [e.text for e in ev]
    return game, events


def assert_illegal(game, seat, move, match=None):
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalMove, match=match) as info:
        game.apply(seat, move)
    assert str(info.value)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    return str(info.value)


def example_1():
    g = new(EXAMPLE_1_DECK)
    return play_all(g, [(P1, "flip"), (P2, "flip"), (P3, "flip")])


def telling_state(rem, teller=P1, card=None, options=()):
    """A Phase 2 position: ``teller`` has just told with ``card`` and must pass; ``rem`` per seat."""
    g = new(EXAMPLE_1_DECK, options=options)
    card = card or "KS"
    g.step, g.actor, g.starter, g.card = "pass", teller, teller, card
    for s, suit in enumerate("SHDC"):
        mine = [r + suit for r in "KQJA" if r + suit != card]
        g.own[s] = mine[: rem[s]]
        g.showing[s] = []
        g.used[s] = [c for c in ["KQJA"[i] + suit for i in range(4)] if c not in g.own[s]]
    g.transcript = [{"seat": teller, "kind": "opening", "card": card, "text": "Once upon a time."}]
    return g


def ending_state(story, by, received, options=(), step="wrapup", actor=None):
    """A Phase 3 position built directly: story pile (bottom first), who laid it, received piles."""
    g = new(EXAMPLE_1_DECK, options=options)
    g.own = [[], [], [], []]
    g.showing = [[], [], [], []]
    g.used = [[c for c in ALL_CARDS if c[1] == s] for s in "SHDC"]
    g.received = [list(r) for r in received]
    g.story_pile = list(story)
    g.story_by = list(by)
    g.step = step
    g.actor = by[-1] if actor is None else actor
    g.last_teller = by[0]
    g.transcript = [{"seat": by[0], "kind": "tell", "card": story[0], "text": "Long ago."}]
    return g


# ----- rules: components, phase 1, phase 2, phase 3 ---------------------------------------------

def test_rule_exactly_four_players_and_suits_by_seat():
    with pytest.raises(IllegalMove, match="exactly 4"):
        GAME.new(PLAYERS[:3], seed=1)
    g = new(EXAMPLE_1_DECK)
    assert [sorted(p) for p in g.own] == [sorted(r + s for r in "KQJA") for s in "SHDC"]
    assert g.own[P1] == ["QS", "KS", "JS", "AS"]


def test_rule_deck_order_maps_to_own_piles_by_suit():
    mixed = ["AC", "QS", "AH", "KS", "KH", "KD", "JC", "QD", "JS", "AS", "QH", "JH", "KC", "JD", "AD", "QC", "2S"]
    g = new(mixed)
    assert g.own == [["QS", "KS", "JS", "AS"], ["AH", "KH", "QH", "JH"],
                     ["KD", "QD", "JD", "AD"], ["AC", "JC", "KC", "QC"]]
    with pytest.raises(IllegalMove, match="lacks"):
        new(EXAMPLE_1_DECK[:-1])


def test_rule_random_setup_shuffles_each_own_pile():
    piles = {tuple(map(tuple, GAME.new(PLAYERS, seed=s).own)) for s in range(20)}
    assert len(piles) > 10
    g = GAME.new(PLAYERS, seed=5)
    assert sorted(c for p in g.own for c in p) == sorted(ALL_CARDS)


def test_rule_phase1_flip_is_a_move_of_the_current_flipper():
    g = new(EXAMPLE_1_DECK)
    assert g.to_act() == {P1} and legal(g, P1) == ["flip"]
    g, ev = do(g, P1, "flip")
    assert [e.text for e in ev] == ["Ann flips Q♠."]
    assert g.to_act() == {P2} and g.showing[P1] == ["QS"]


def test_rule_phase1_ends_within_four_passes_of_the_table():
    for seed in range(200):
        g = GAME.new(PLAYERS, seed=seed)
        flips = 0
        while g.step == "flip":
            g, _ = do(g, g.actor, "flip")
            flips += 1
        assert flips <= 13  # at most 3 non-Knights each, then a Knight
        assert all(g.showing[s] or s == g.starter for s in range(4))


def test_rule_phase2_results_sixteen_tellings_starter_receives_three():
    for seed in range(100):
        g = GAME.new(PLAYERS, seed=seed)
        rng = random.Random(seed)
        while g.step != "wrapup":
            seat = next(iter(g.to_act()))
            g, _ = do(g, seat, auto_move(g, seat, rng))
        tellers = [e["seat"] for e in g.transcript]
        assert len(tellers) == 16 and all(tellers.count(s) == 4 for s in range(4))
        assert all(a != b for a, b in pairwise(tellers))
        assert [len(g.received[s]) for s in range(4)] == [3 if s == g.starter else 4 for s in range(4)]
        assert g.story_pile == [g.transcript[-1]["card"]] and g.story_by == [tellers[-1]]


def test_rule_no_dead_end_test_matches_exhaustive_search():
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def can_finish(rem, first):
        # Can all remaining tellings be ordered starting with ``first``, no teller twice in a row?
        if rem[first] < 1:
            return False
        left = list(rem)
        left[first] -= 1
        if sum(left) == 0:
            return True
        return any(can_finish(tuple(left), y) for y in range(4) if y != first)

    import itertools

    for rem in itertools.product(range(5), repeat=4):
        for x in range(4):
            for y in range(4):
                if y != x:
                    expect = can_finish(rem, y) if sum(rem) else False
                    assert no_dead_end(list(rem), x, y) == expect, (rem, x, y)


def test_rule_opening_starter_tells_with_their_knight():
    g, _ = example_1()
    assert g.to_act() == {P3} and g.step == "tell" and g.card == "KD"
    assert legal(g, P3) == [] and text_verbs(g, P3) == ["tell"]
    assert "Knight" in g.choices(P3, ("tell",)).prompt
    g, ev = do(g, P3, "tell Once upon a time, there was a proud Knight.")
    assert g.transcript == [{"seat": P3, "kind": "opening", "card": "KD",
                             "text": "Once upon a time, there was a proud Knight."}]
    assert g.used[P3] == ["KD"] and g.step == "pass"


def test_rule_last_teller_lays_the_story_pile_and_wraps_up():
    g = telling_state([0, 0, 0, 0], teller=P2, card="AH")
    g.step = "tell"
    g, ev = do(g, P2, "tell The Dragon takes the gold.")
    assert g.step == "wrapup" and g.story_pile == ["AH"] and g.last_teller == P2 and g.card is None
    assert any("last teller" in e.text for e in ev)
    g, _ = do(g, P2, "wrapup The Dragon sleeps on its hoard.")
    assert g.transcript[-1]["kind"] == "wrapup"


def test_rule_play_requires_twist_text_then_priority_moves_on():
    g = ending_state(["AH"], [P2], [[], [], ["KH"], []], step="priority", actor=P3)
    g, ev = do(g, P3, "play")
    assert "Knight slays Dragon" in ev[0].text
    assert g.step == "twist" and g.to_act() == {P3}
    assert_illegal(g, P3, "twist   ", match="text is required")
    g, _ = do(g, P3, "twist The Knight rides in.")
    assert g.step == "close" and g.actor == P3  # everybody else had nothing: 4 automatic passes


# ----- rulings 1-14 ---------------------------------------------------------------------------

def test_ruling_01_keep_flipping_round_the_table():
    deck = ["QS", "JS", "AS", "KS", "QH", "JH", "AH", "KH", "QD", "JD", "AD", "KD", "QC", "JC", "KC", "AC"]
    g = new(deck)
    for _ in range(11):
        g, _ = do(g, g.actor, "flip")
    assert g.step == "flip" and g.actor == P4
    g, _ = do(g, P4, "flip")
    assert g.starter == P4
    assert g.showing[P1] == ["QS", "JS", "AS"] and g.showing[P4] == ["QC", "JC"]
    assert g.card == "KC"


def test_ruling_02_host_chooses_opener_or_random():
    assert new(opener=2).to_act() == {P3}
    openers = {GAME.new(PLAYERS, seed=s).opener for s in range(40)}
    assert openers == {0, 1, 2, 3}
    assert GAME.new(PLAYERS, seed=7).opener == GAME.new(PLAYERS, seed=7).opener
    with pytest.raises(IllegalMove):
        new(opener=4)


def test_ruling_03_teller_chooses_among_showing_cards_and_flips_only_when_empty():
    deck = ["QS", "JS", "AS", "KS", "QH", "JH", "AH", "KH", "QD", "JD", "AD", "KD", "QC", "JC", "KC", "AC"]
    g = new(deck)
    for _ in range(12):
        g, _ = do(g, g.actor, "flip")
    g, _ = play_all(g, [(P4, "tell A Knight."), (P4, "pass 1")])
    assert g.step == "use" and g.to_act() == {P1}
    assert g.own[P1] == ["KS"]  # no flip: P1 already had cards showing
    assert sorted(legal(g, P1)) == ["use AS", "use JS", "use QS"]
    assert_illegal(g, P1, "use KS", match="not in your showing area")
    g, _ = do(g, P1, "use js")
    assert g.card == "JS" and g.showing[P1] == ["QS", "AS"] and g.step == "tell"


def test_ruling_03_recipient_with_empty_showing_area_flips_on_receiving():
    g, _ = example_1()
    g, _ = play_all(g, [(P3, "tell A Knight."), (P3, "pass 1"), (P1, "tell A Princess."), (P1, "pass 4"),
                        (P4, "tell A Rogue.")])
    g, ev = do(g, P4, "pass 1")
    assert [e.text for e in ev] == ["Dan passes J♣ to Ann.", "Ann flips K♠."]
    assert g.card == "KS" and g.step == "tell"  # one showing card: chosen without a `use`


def test_ruling_04_received_card_goes_to_the_bottom():
    g, _ = example_1()
    g, _ = play_all(g, [(P3, "tell K."), (P3, "pass 1"), (P1, "tell Q."), (P1, "pass 3"),
                        (P3, "tell Q."), (P3, "pass 1")])
    assert g.received[P1] == ["KD", "QD"]


def test_ruling_04_variant_newest_on_top():
    g = new(EXAMPLE_1_DECK, options=["Newest on Top"])
    g, _ = play_all(g, [(P1, "flip"), (P2, "flip"), (P3, "flip"), (P3, "tell K."), (P3, "pass 1"),
                        (P1, "tell Q."), (P1, "pass 3"), (P3, "tell Q."), (P3, "pass 1")])
    assert g.received[P1] == ["QD", "KD"]


def test_ruling_05_no_dead_end_recipients():
    # X (P1) has told with their last card; P2 has 3, P3 1, P4 1: only P2 is legal.
    g = telling_state([0, 3, 1, 1], teller=P1, card="AS")
    assert legal(g, P1) == ["pass 2"]
    msg = assert_illegal(g, P1, "pass 3", match="dead end")
    assert "Ben" in msg
    assert_illegal(g, P1, "pass 4", match="dead end")
    g, _ = do(g, P1, "pass 2")
    assert g.to_act() == {P2}


def test_ruling_05_variant_loose_passing():
    g = telling_state([0, 3, 1, 1], teller=P1, card="AS", options=["Loose Passing"])
    assert legal(g, P1) == ["pass 2", "pass 3", "pass 4"]
    # Passing to P3 jams: eventually someone with cards has nobody to pass to and keeps the card.
    g, _ = do(g, P1, "pass 3")
    g, _ = do(g, P3, "tell One more.")
    assert legal(g, P3) == ["pass 2", "pass 4"]


def test_ruling_05_variant_loose_passing_teller_keeps_card_and_tells_again():
    g = telling_state([0, 2, 0, 0], teller=P2, card="AH", options=["Loose Passing"])
    g.step = "tell"
    g.own[P2], g.showing[P2] = ["KH"], ["QH"]
    g, ev = do(g, P2, "tell The Dragon roars.")
    assert any("nobody to pass A♥" in e.text for e in ev)
    assert g.received[P2] == ["AH"] and g.to_act() == {P2} and g.card == "QH" and g.step == "tell"
    g, ev = do(g, P2, "tell The Princess sighs.")
    assert g.received[P2] == ["AH", "QH"] and any("Ben flips K♥" in e.text for e in ev)


def test_ruling_06_passing_back_is_allowed():
    g, _ = example_1()
    g, _ = play_all(g, [(P3, "tell K."), (P3, "pass 1"), (P1, "tell Q.")])
    assert "pass 3" in legal(g, P1)
    g, _ = do(g, P1, "pass 3")
    assert g.received[P3] == ["QS"]


def test_ruling_07_repeated_roles_are_allowed():
    # P2 opens; P3 turns up the Knight; P1's catch-up flip is their own Knight.
    g = new(EXAMPLE_1_DECK[4:8] + ["KS", "QS", "JS", "AS"] + EXAMPLE_1_DECK[8:], opener=1)
    g, ev = play_all(g, [(P2, "flip"), (P3, "flip")])
    assert g.starter == P3 and g.showing[P1] == ["KS"]
    g, _ = play_all(g, [(P3, "tell A Knight."), (P3, "pass 1")])
    assert g.card == "KS"
    g, _ = do(g, P1, "tell A second Knight, his rival.")
    assert [e["card"] for e in g.transcript] == ["KD", "KS"]


def test_ruling_08_priority_round_in_seat_order_everyone_takes_part():
    # L = P2; P2 (L) and P3 (who just played) may also play again.
    g = ending_state(["QH"], [P2], [["JD"], ["AS"], ["KD", "JS"], ["QC"]])
    g, ev = do(g, P2, "wrapup The Princess marries.")
    # P3 goes first: KD does not beat QH -> automatic pass; P4 QC neither; P1 JD neither; P2 AS does.
    assert [e.text for e in ev][-3:] == ["Cat cannot play and passes.", "Dan cannot play and passes.",
                                         "Ann cannot play and passes."]
    assert g.to_act() == {P2} and g.passes == 3 and legal(g, P2) == ["play", "pass"]
    assert_illegal(g, P3, "pass", match="turn")


def test_ruling_08_variant_open_race():
    g = ending_state(["AH"], [P2], [["JH"], [], ["KH"], ["KS"]], options=["Open Race"])
    g, ev = do(g, P2, "wrapup The Dragon wins.")
    assert g.step == "race" and g.to_act() == {P3, P4}
    assert "Ann cannot play and passes." in [e.text for e in ev]
    g, ev = do(g, P4, "play")  # the first legal play received is accepted
    assert g.story_pile == ["AH", "KS"] and g.to_act() == {P4}
    assert_illegal(g, P3, "play", match="turn")
    g, ev = do(g, P4, "twist The Knight of Spades.")
    # After a play, passes reset; P1's JH now beats KS.
    assert g.to_act() == {P1}
    g, _ = do(g, P1, "pass")
    assert g.step == "close" and g.actor == P4


def test_ruling_09_only_the_top_received_card():
    g = ending_state(["AH"], [P2], [[], [], ["QD", "KH"], []], step="priority", actor=P3)
    assert g.playable(P3) == []
    g = ending_state(["QH"], [P2], [[], [], ["QD", "KH"], []], step="priority", actor=P3)
    assert legal(g, P3) == ["pass"]


def test_ruling_09_variant_free_choice():
    g = ending_state(["AH"], [P2], [[], [], ["QD", "KH", "KC"], []], options=["Free Choice"])
    g, _ = do(g, P2, "wrapup Done.")
    assert g.to_act() == {P3} and legal(g, P3) == ["play KH", "play KC", "pass"]
    assert_illegal(g, P3, "play QD", match="does not beat")
    assert_illegal(g, P3, "play", match="Say which")
    g, _ = do(g, P3, "play kc")
    assert g.received[P3] == ["QD", "KH"] and g.story_pile == ["AH", "KC"]


def test_ruling_10_strict_beating():
    pairs = {(a[0], b[0]) for a in ALL_CARDS for b in ALL_CARDS if beats(a, b)}
    assert pairs == {("K", "A"), ("A", "Q"), ("Q", "J"), ("J", "K")}
    assert not beats("KS", "KH") and not beats("KS", "QS") and not beats("QS", "KS")
    assert not beats("AS", "JS") and not beats("JS", "AS")
    g = ending_state(["JH"], [P2], [[], [], ["JC"], []], step="priority", actor=P3)
    assert_illegal(g, P3, "play", match="does not beat")


def test_ruling_11_four_passes_in_a_row_automatic_ones_count():
    g = ending_state(["AH"], [P2], [["KS"], ["KD"], ["KH"], ["KC"]])
    g, _ = do(g, P2, "wrapup W.")
    for seat in (P3, P4, P1):
        g, _ = do(g, seat, "pass")
        assert g.step == "priority"
    g, ev = do(g, P2, "pass")
    assert g.step == "close" and g.passes == 4
    g = ending_state(["AH"], [P2], [[], [], [], []])
    g, ev = do(g, P2, "wrapup W.")
    assert sum("cannot play" in e.text for e in ev) == 4 and g.step == "close"


def test_ruling_12_closing_narrator_is_l_if_nobody_played():
    g = ending_state(["AH"], [P2], [["KS"], [], [], []])
    g, _ = play_all(g, [(P2, "wrapup W."), (P1, "pass")])
    assert g.step == "close" and g.to_act() == {P2}
    assert_illegal(g, P2, "close one\ntwo\nthree", match="one or two")
    g, ev = do(g, P2, "close And so it ends.\nThe moral: sleep lightly.")
    assert g.is_over() and g.transcript[-1]["kind"] == "close"


def test_ruling_13_no_winner():
    g = ending_state(["AH"], [P2], [[], [], [], []])
    g, _ = play_all(g, [(P2, "wrapup W."), (P2, "close The end.")])
    out = g.outcome()
    assert out.winners == () and out.score is None
    assert out.summary == "The story ends with the Dragon (A♥) on top, laid by Ben."
    assert out.details["story_pile"] == ["AH"] and out.details["story"][-1]["text"] == "The end."


def test_ruling_13_variant_last_word():
    g = ending_state(["AH"], [P2], [[], [], ["KH"], []], options=["Last Word"])
    g, _ = play_all(g, [(P2, "wrapup W."), (P3, "play"), (P3, "twist T."), (P3, "close The end.")])
    out = g.outcome()
    assert out.winners == (P3,) and out.score == 1 and "Cat" in out.summary


def test_ruling_14_received_cards_are_never_used_for_telling():
    g, _ = example_1()
    g, _ = play_all(g, [(P3, "tell K."), (P3, "pass 1"), (P1, "tell Q."), (P1, "pass 3"),
                        (P3, "tell Q."), (P3, "pass 1")])
    # P1 holds KD and QD received; their showing area is empty, so they flipped KS.
    assert g.card == "KS" and g.received[P1] == ["KD", "QD"]
    g2 = telling_state([0, 1, 2, 1], teller=P1, card="AS")
    g2, _ = do(g2, P1, "pass 3")
    g2.showing[P3] = ["JD", "AD"]
    g2.own[P3] = []
    g2.card = None
    g2.step = "use"
    assert_illegal(g2, P3, "use AS", match="not in your showing area")


def test_ruling_15_the_open_race_clock_is_a_table_setting():
    # A table setting: 60 seconds by default, 15 to 600, refused like any other out-of-range setting.
    info = next(i for i in GAME.Options.infos() if i.key == "race_seconds")
    assert (info.name, info.default, info.lo, info.hi, info.is_variant) == ("race_seconds", 60, 15, 600, False)
    assert GAME.check_options(["Open Race", "race_seconds=90"]) == ["Open Race", "race_seconds=90"]
    for bad in ("race_seconds=14", "race_seconds=601", "race_seconds=soon"):
        with pytest.raises(IllegalMove, match="race_seconds"):
            GAME.check_options(["Open Race", bad])
    # The racers' clock is the table's, the table shows it, and it runs from the last accepted play:
    # a pass does not start it again, a play (once its twist is told) does.
    g = ending_state(["AH"], [P2], [["JH"], [], ["KH"], ["KS"]], options=["Open Race", "race_seconds=90"])
    g, _ = do(g, P2, "wrapup The Dragon wins.")
    ds = g.decisions()
    assert {d.seat for d in ds} == {P3, P4} and {(d.clock_seconds, d.default) for d in ds} == {(90, "pass")}
    assert g.view(None).race_seconds == 90 and "90 seconds with no play" in text(g.view(None))
    opened = {d.clock_from for d in ds}
    g, _ = do(g, P3, "pass")
    assert {d.clock_from for d in g.decisions()} == opened
    g, _ = play_all(g, [(P4, "play"), (P4, "twist The Knight of Spades.")])
    (d,) = g.decisions()
    assert d.seat == P1 and d.clock_seconds == 90 and d.clock_from not in opened
    # Without a setting, the rulebook's 60 seconds.
    g = ending_state(["AH"], [P2], [["JH"], [], ["KH"], ["KS"]], options=["Open Race"])
    g, _ = do(g, P2, "wrapup The Dragon wins.")
    assert {d.clock_seconds for d in g.decisions()} == {60} and g.view(None).race_seconds == 60


async def test_ruling_15_the_open_race_clock_starts_again_only_at_a_play(service, clock, people):
    table = await open_race(service, 91, people, options=("race_seconds=90",), racers=2)
    start = table.turn_since
    assert table.game_clock == 90 and table.deadline == start + 90
    game = load_game(table)
    racers = sorted(game.to_act())
    clock.advance(40)
    await service.move(91, people[racers[0]], "pass")  # a pass is no play: the clock runs on
    table = await service.get(91)
    assert table.turn_since == start and table.deadline == start + 90 and racers[0] not in load_game(table).to_act()
    clock.advance(49)  # 89 s with no play
    assert await service.check_timeouts() == []
    clock.advance(2)  # 91 s: the race clock ran out, the ending comes
    (change,) = await service.check_timeouts()
    assert "clock ran out (90 s with no play)" in change.events[0]
    assert not any(d.name == "race" for d in load_game(await service.get(91)).decisions())


# ----- worked examples -------------------------------------------------------------------------

def test_example_01_starter_found_on_first_pass():
    g, ev = example_1()
    assert g.starter == P3
    assert ev == ["Ann flips Q♠.", "Ben flips A♥.", "Cat flips K♦.",
                  "Cat turns up their Knight and starts the story.", "Dan flips J♣ (catch-up flip)."]
    assert g.showing == [["QS"], ["AH"], [], ["JC"]] and g.used[P3] == ["KD"]


def test_example_03_opening_handoff():
    g, _ = example_1()
    g, _ = do(g, P3, "tell Once upon a time.")
    assert_illegal(g, P3, "pass 3", match="yourself")
    g, ev = do(g, P3, "pass 1")
    assert g.received[P1] == ["KD"] and g.own[P1] == ["KS", "JS", "AS"]  # no flip
    assert g.card == "QS"
    g, _ = play_all(g, [(P1, "tell A princess."), (P1, "pass 4")])
    assert g.to_act() == {P4} and g.card == "JC"


def test_example_05_recipient_with_all_cards_used_is_illegal():
    g = telling_state([2, 0, 2, 1], teller=P1, card="KS")
    assert "pass 2" not in legal(g, P1)
    assert_illegal(g, P1, "pass 2", match="used all four")


def test_example_07_two_legal_recipients():
    g = telling_state([2, 2, 1, 0], teller=P1, card="KS")
    assert legal(g, P1) == ["pass 2", "pass 3"]
    assert_illegal(g, P1, "pass 4", match="used all four")


def test_example_09_order_of_the_received_pile():
    g = telling_state([2, 2, 2, 2], teller=P1, card="AS")
    g, _ = do(g, P1, "pass 2")
    g.received[P2] += ["KD", "QC"]
    assert g.received[P2][0] == "AS"
    e = ending_state(["QH"], [P3], [[], ["AS", "KD", "QC"], [], []], step="priority", actor=P2)
    e, _ = do(e, P2, "play")
    assert e.received[P2] == ["KD", "QC"] and e.received[P2][0] == "KD"


def test_example_11_a_full_ending():
    g = ending_state(["AH"], [P2], [["JH", "AD"], ["KD"], ["KH", "JC"], ["QS"]])
    g, ev = do(g, P2, "wrapup The Dragon eats the gold.")
    assert g.to_act() == {P3}
    g, ev = play_all(g, [(P3, "play"), (P3, "twist The Knight slays it.")])
    assert "Cat plays K♥ on A♥: Knight slays Dragon." in ev
    assert "Dan cannot play and passes." in ev and g.to_act() == {P1}
    g, ev = play_all(g, [(P1, "play"), (P1, "twist The Rogue tricks him.")])
    assert "Ann plays J♥ on K♥: Rogue deceives Knight." in ev
    assert ev[-2:] == ["Ben cannot play and passes.", "Cat cannot play and passes."]
    assert g.to_act() == {P4} and g.passes == 2 and legal(g, P4) == ["play", "pass"]
    g, ev = do(g, P4, "pass")
    assert [e.text for e in ev][1] == "Ann cannot play and passes."
    assert g.step == "close" and g.to_act() == {P1} and g.passes == 4
    assert g.story_pile == ["AH", "KH", "JH"]
    g, _ = do(g, P1, "close And the Rogue lived happily ever after.")
    assert g.outcome().details["story_pile"] == ["AH", "KH", "JH"]


def test_example_13_same_player_plays_again():
    g = ending_state(["AD"], [P3], [["KH", "JC"], [], [], []], step="priority", actor=P1)
    g, ev = play_all(g, [(P1, "play"), (P1, "twist The Knight rides.")])
    assert ev[-3:] == ["Ben cannot play and passes.", "Cat cannot play and passes.",
                       "Dan cannot play and passes."]
    assert g.to_act() == {P1} and g.passes == 3 and legal(g, P1) == ["play", "pass"]
    g, ev = do(g, P1, "play")
    assert "Rogue deceives Knight" in ev[0].text


# ----- illegal moves, forfeit, view, render --------------------------------------------------

def test_illegal_moves_leave_state_unchanged():
    g, _ = example_1()
    assert_illegal(g, P1, "tell Hello.", match="Cat")  # wrong player
    assert_illegal(g, P3, "tell", match="text is required")
    assert_illegal(g, P3, "pass 1", match="tell")
    assert_illegal(g, P3, "dance")
    g, _ = do(g, P3, "tell Once.")
    assert_illegal(g, P3, "pass 9", match="not a player")
    assert_illegal(g, P3, "pass", match="pass")
    assert_illegal(g, P3, "flip")
    g0 = new(EXAMPLE_1_DECK)
    assert_illegal(g0, P1, "flip now")
    assert_illegal(g0, P2, "flip", match="Ann")
    e = ending_state(["AH"], [P2], [[], [], ["QH"], []], step="priority", actor=P3)
    assert_illegal(e, P3, "play", match="does not beat")
    assert_illegal(e, P3, "play KH", match="Only the top card")
    assert_illegal(e, P3, "play ZZ", match="not a card")


def test_text_too_long_is_illegal():
    g, _ = example_1()
    assert_illegal(g, P3, "tell " + "x" * 1001, match="at most 1000")


def test_forfeit_ends_the_story_with_no_winner():
    g, _ = example_1()
    g, ev = g.forfeit(P2)
    assert g.is_over() and g.to_act() == frozenset()
    out = g.outcome()
    assert out.winners == () and out.summary == "The story ended early because Ben left."
    assert any("ended early because Ben left" in e.text for e in ev)
    with pytest.raises(IllegalMove):
        g.apply(P3, "tell Hi.")


def test_view_is_public_and_hides_own_pile_order():
    g, _ = example_1()
    v = g.view(None)
    for key in ("game", "players", "to_act", "over", "result", "phase", "own_count", "showing", "used",
                "received", "rem", "story_pile", "transcript", "passes", "actor", "starter"):
        assert hasattr(v, key)
    assert v.own_count == (3, 3, 3, 3) and v.rem == (4, 4, 3, 4)
    assert v.teller == P3 and v.flipper is None and v.priority is None
    hidden = set(ALL_CARDS) - g.known(None)
    assert hidden == {c for p in g.own for c in p} == set(ALL_CARDS) - g.known(P1)
    blob = repr(v) + text(v) + panel(v, with_picture=False).as_text()
    for c in hidden:
        assert c not in blob
    assert not hasattr(v, "seed") and not hasattr(v, "own")
    assert g.view(P1) == dataclasses.replace(v, seat=P1)


def test_render_panel_and_text():
    g, _ = example_1()
    g, _ = do(g, P3, "tell Once upon a time, a Knight.")
    beside = panel(g.view(None))  # beside the picture: what is asked, not the cards the picture shows
    assert beside.description == "Cat hands K♦ to another player." and not beside.fields
    p = panel(g.view(None), with_picture=False)
    assert p.title == "The Knight, the Rogue, the Princess and the Dragon"
    # The telling is among the recent moves the table message shows above the panel: not repeated here.
    assert "Once upon a time, a Knight." not in p.description
    assert p.description == "Cat hands K♦ to another player."
    assert any(BEATS_LINE == v for _, v, _ in p.fields)
    assert any("♦ Diamonds" in n for n, _, _ in p.fields)
    assert "Story pile" in p.as_text()
    t = text(g.view(None))
    assert "The story so far" in t and "K♦" in t
    assert picture(g.view(None))[:8] == b"\x89PNG\r\n\x1a\n"  # pictures: tests/render


def test_describe_and_prompts():
    g, _ = example_1()
    assert text_verbs(g, P1) == []
    g, _ = do(g, P3, "tell Once.")
    assert label(g, P3, "pass 1") == "Pass K♦ to Ann (P1)"
    e = ending_state(["AH"], [P2], [[], [], ["KH"], []], step="priority", actor=P3)
    assert label(e, P3, "play") == "Play K♥ on A♥ — Knight slays Dragon"
    e, _ = do(e, P3, "play")
    assert all(len(e.choices(P3, (v,)).prompt) <= 45 for v in text_verbs(e, P3))


def test_summary_and_credit():
    assert GAME.summary.rstrip().endswith("(2010)*")
    assert GAME.credit.startswith("The Knight, the Rogue, the Princess and the Dragon — Game Poem 24")
    assert {i.name for i in GAME.Options.infos() if i.is_variant} == {"Newest on Top", "Loose Passing", "Open Race",
                                               "Free Choice", "Last Word"}
    assert GAME.min_players == GAME.max_players == 4
