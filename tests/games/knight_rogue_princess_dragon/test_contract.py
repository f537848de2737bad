"""The v2 contract for The Knight, the Rogue, the Princess and the Dragon: stored v1 states,
typed options and actions, decisions (the Open Race clock), the knowledge oracle, the spec."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.engine import core
from bot.engine.core import IllegalMove, walk_choices
from bot.engine.knight_rogue_princess_dragon import (
    ACTIONS,
    ALL_CARDS,
    GAME,
    RACE_SECONDS,
    SPEC,
    Flip,
    Give,
    KrpdOptions,
    KrpdView,
    Pass,
    Play,
    Tell,
    TimedDecision,
    Use,
)
from bot.engine.registry import spec
from bot.records import replay
from bot.render import knight_rogue_princess_dragon as render
from tests.games.knight_rogue_princess_dragon.test_rules import EXAMPLE_1_DECK, P1, P2, P3, P4, ending_state, new

FIXTURES = Path(__file__).parent / "fixtures"


def through_choices(g, rng):
    """Play ``g`` to the end, each action built from ``choices``; the moves in notation."""
    moves = []
    while not g.is_over():
        seat = rng.choice(sorted(g.to_act()))
        root = g.choices(seat, ())
        verb = root.options[0].token
        if g.choices(seat, (verb,)).kind == "text":
            move = f"{verb} Line {len(moves)}."
        else:
            move = " ".join(rng.choice(list(walk_choices(g, seat))))
        g, _ = g.apply(seat, move)
        moves.append([seat, move])
    return g, moves


# ----- stored v1 states ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["v1_midgame.json", "v1_race.json"])
def test_v1_state_upgrades_and_plays_on_like_a_replay(name):
    data = json.loads((FIXTURES / name).read_text())
    record, v1 = data["record"], data["state"]
    assert v1["format"] == 1 and "phase" in v1["state"]
    upgraded = GAME.from_json(v1)
    assert upgraded.to_json()["format"] == 2 and "phase" not in upgraded.to_json()["state"]
    replayed = replay(record)
    assert upgraded.options == replayed.options and upgraded.step == replayed.step
    strip = {"journal"}  # v1 kept no log in the state
    assert ({k: v for k, v in upgraded.to_json()["state"].items() if k not in strip}
            == {k: v for k, v in replayed.to_json()["state"].items() if k not in strip})
    end, more = through_choices(upgraded, random.Random(7))
    assert end.is_over()
    again = replay({**record, "moves": record["moves"] + more})
    assert json.dumps(end.to_json(), sort_keys=True) == json.dumps(again.to_json(), sort_keys=True)


def test_upgrade_refuses_an_unknown_format():
    data = json.loads((FIXTURES / "v1_midgame.json").read_text())["state"]
    with pytest.raises(ValueError, match="format"):
        GAME.from_json({**data, "format": 99})


# ----- options -------------------------------------------------------------------------------

def test_options_stored_strings_parse_with_the_same_names():
    o = KrpdOptions.parse(["Newest on Top", "loose-passing", "OPEN RACE", "free_choice", "Last Word", "opener=2"])
    assert (o.newest_on_top, o.loose_passing, o.open_race, o.free_choice, o.last_word, o.opener) == (
        True, True, True, True, True, 2)
    assert o.dump() == ["Newest on Top", "Loose Passing", "Open Race", "Free Choice", "Last Word", "opener=2"]
    assert KrpdOptions.parse([]).opener == -1
    assert all(i.help for i in KrpdOptions.infos())
    for bad in (["opener=4"], ["Jokers Wild"], ["opener=x"]):
        with pytest.raises(IllegalMove):
            KrpdOptions.parse(bad)
    with pytest.raises(core.IllegalMove):  # the one refusal class every layer catches
        GAME.check_options(["opener=9"])


# ----- actions and notation -----------------------------------------------------------------

def test_notation_is_todays_and_parses_back():
    g, _ = GAME.new(["Ann", "Ben", "Cat", "Dan"], ["opener=0"], seed=1, deck=EXAMPLE_1_DECK), None
    assert g.parse(P1, "  FLIP ") == Flip() and str(Flip()) == "flip"
    assert str(Use("QS")) == "use QS" and str(Give(2)) == "pass 3" and str(Pass()) == "pass"
    assert str(Play()) == "play" and str(Play("KC")) == "play KC"
    assert str(Tell("Once upon a time.")) == "tell Once upon a time."
    assert {a.verb for a in ACTIONS} == {"flip", "use", "pass", "play", "tell", "wrapup", "twist", "close"}
    assert all(a.help for a in ACTIONS)
    g, _ = g.apply(P1, "flip")
    g, _ = g.apply(P2, "flip")
    g, _ = g.apply(P3, "flip")
    assert g.parse(P3, "tell  Two  spaces\nand a line. ") == Tell("Two  spaces\nand a line.")
    g, _ = g.apply(P3, "tell Once.")
    assert g.parse(P3, "pass Ann") == g.parse(P3, "pass 1") == Give(P1)


def test_choices_offer_text_for_story_lines():
    g = new(EXAMPLE_1_DECK)
    for seat in (P1, P2, P3):
        g, _ = g.apply(seat, "flip")
    root = g.choices(P3, ())
    assert root.tokens() == ["tell"] and not root.complete
    c = g.choices(P3, ("tell",))
    assert (c.kind, c.max_len, c.required) == ("text", 1000, True) and "K♦" in c.prompt
    assert g.choices(P3, ("tell", "Once", "upon")).complete
    assert g.choices(P1, ()).empty  # not P1's turn
    g, _ = g.apply(P3, "tell Once.")
    opts = g.choices(P3, ("pass",)).options
    assert [(o.token, o.data) for o in opts] == [("1", P1), ("2", P2), ("4", P4)]
    assert all("♦" in o.label and "KD" not in o.label for o in opts)


# ----- decisions: the Open Race clock (ruling 8) --------------------------------------------

def test_ruling_08_open_race_clock_passes_when_sixty_seconds_run_out():
    g = ending_state(["AH"], [P2], [["JH"], [], ["KH"], ["KS"]], options=["Open Race"])
    g, _ = g.apply(P2, "wrapup The Dragon wins.")
    ds = g.decisions()
    assert [d.seat for d in ds] == [P3, P4]
    assert all(isinstance(d, TimedDecision) and d.name == "race" and d.public for d in ds)
    assert all(d.default == "pass" and d.deadline_seconds == 60 == RACE_SECONDS for d in ds)
    assert g.view(None).race_seconds == 60
    # The clock runs out for one racer: the table plays its default; the other's decision stays open.
    g, _ = g.apply(P3, ds[0].default)
    assert g.decisions() == (ds[1],)
    # A play before the clock runs out ends the race; after the twist a new one opens for everyone
    # who may play (P1's JH now beats KS), with a fresh clock.
    g, _ = g.apply(P4, "play")
    assert [d.name for d in g.decisions()] == ["twist"]
    g, _ = g.apply(P4, "twist The Knight of Spades.")
    assert g.to_act() == {P1} and g.decisions()[0].deadline_seconds == 60
    # 60 seconds with no play: every open decision's default. The ending stands (the rulebook's result).
    for d in g.decisions():
        g, _ = g.apply(d.seat, d.default)
    assert g.step == "close" and g.to_act() == {P4} and g.story_pile == ["AH", "KS"]
    assert any("The ending stands with K♠ on top" in line for line in g.recent(None))


def test_ruling_08_clock_defaults_end_the_race_from_its_opening():
    g = ending_state(["AH"], [P2], [["KC"], ["KD"], ["KH"], ["KS"]], options=["Open Race"])
    g, _ = g.apply(P2, "wrapup W.")
    assert g.to_act() == {P1, P2, P3, P4}
    for d in g.decisions():
        g, _ = g.apply(d.seat, d.default)
    assert g.step == "close" and g.to_act() == {P2} and g.story_pile == ["AH"]


def test_other_decisions_have_no_rulebook_timeout():
    g = ending_state(["AH"], [P2], [["KS"], ["KD"], ["KH"], ["KC"]])
    assert g.decisions()[0].name == "wrapup" and g.decisions()[0].default is None
    g, _ = g.apply(P2, "wrapup W.")
    d = g.decisions()[0]
    assert (d.seat, d.name, d.default, d.public) == (P3, "priority", None, True)
    assert not isinstance(d, TimedDecision) and g.view(None).race_seconds is None
    assert all(d.public for d in GAME.new(["a", "b", "c", "d"], seed=1).decisions())


# ----- knowledge and views -------------------------------------------------------------------

def test_known_is_everything_but_the_face_down_piles():
    g = new(EXAMPLE_1_DECK)
    assert g.known(None) == frozenset() == g.known(P1)
    g, _ = g.apply(P1, "flip")
    assert g.known(None) == {"QS"} == g.known(P4)
    v = g.view(P1)
    assert isinstance(v, KrpdView) and v.own_count == (3, 4, 4, 4) and v.showing[P1] == ("QS",)
    assert v.recent == ("Ann flips Q♠.",)


def test_known_grows_to_every_card_by_the_ending():
    g, _ = through_choices(GAME.new(["a", "b", "c", "d"], seed=3), random.Random(3))
    assert g.known(None) == frozenset(ALL_CARDS)


# ----- spec and renderer ---------------------------------------------------------------------

def test_spec():
    assert spec("knight_rogue_princess_dragon") is SPEC
    assert SPEC.state is GAME and SPEC.options is KrpdOptions and SPEC.actions == ACTIONS
    assert SPEC.command == "knight-rogue-princess-dragon" and SPEC.story and SPEC.export_seed
    assert not SPEC.solo_concede and SPEC.rematch_first(4, 0, None) is None
    assert SPEC.summary == GAME.summary and "Game Poem 24" in SPEC.credit
    heads = [h for h, _ in SPEC.rules_sections()]
    for want in ("Overview", "Components", "Setup", "The turn", "Ending", "Rulings", "Variants and settings",
                 "Credits"):
        assert want in heads


def test_story_renderer_from_the_view():
    g, _ = through_choices(GAME.new(["a", "b", "c", "d"], ["Last Word"], seed=5), random.Random(5))
    cast, entries = render.story(g.view(None))
    assert cast == ["♠ Spades", "♥ Hearts", "♦ Diamonds", "♣ Clubs"]
    assert len(entries) == len(g.transcript) and entries[0]["kind"] == "opening"
    assert entries == g.transcript
    assert "has the last word" in render.status(g.view(None))
