"""Gridcannon on the v2 contract: spec, typed options and actions, choices without dead ends,
decisions, per-recipient journal, views and declared knowledge, re-dealing unseen cards, and
stored v1 states upgraded."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from bot.engine import core, registry
from bot.engine.cards import names_any
from bot.engine.gridcannon import (
    ACTIONS,
    CLASSIC,
    EXHAUSTED,
    READY,
    SETUP_ROYALS,
    SPEC,
    GridcannonGame,
    GridcannonOptions,
    GridcannonView,
    auto_move,
)
from bot.records import replay
from bot.render.gridcannon import panel, text
from tests.games.gridcannon.test_rules import EX1_TOP, build, play, stacked

G = GridcannonGame
FIXTURES = Path(__file__).parent / "fixtures"
CODE = re.compile(r"(?<![A-Za-z0-9])(?:JK2?|[2-9TJQKA][SHDC])(?![A-Za-z0-9])")
VARIANTS = [i.name for i in GridcannonOptions.infos()]


# ----- spec and options ----------------------------------------------------------------------
def test_spec_is_registered_with_the_table_policies():
    spec = registry.spec("gridcannon")
    assert spec is SPEC and spec.state is G and spec.options is GridcannonOptions and G.Options is GridcannonOptions
    assert spec.command == "gridcannon" and spec.solo_concede and spec.export_seed and not spec.story
    assert spec.player is auto_move and spec.rematch_first(1, 0, None) is None
    assert {a.verb for a in spec.actions} == {"draw", "place", "royal", "armour", "extract", "reassign", "replace",
                                              "keep", "continue", "concede", "reset", "hardreset", "recycle"}
    assert all(a.help for a in ACTIONS)
    assert spec.summary.endswith(spec.credit) and (spec.min_players, spec.max_players) == (1, 1)
    heads = [h for h, _ in spec.rules_sections()]
    assert heads[1:] == ["Overview", "Components", "Setup", "The turn", "Ending", "Rulings", "Variants and settings",
                         "Credits"]
    rulings = dict(spec.rules_sections())["Rulings"]
    assert all(f"\n{n}. " in "\n" + rulings for n in range(1, 25))
    assert G.state_version == 2


def test_options_typed_same_names_with_help():
    infos = GridcannonOptions.infos()
    assert [i.name for i in infos] == ["Memory Aid", "Lowest Health", "Ploys First", "Source Thresholds", "Exact",
                                       "Keep Ploys", "Draw Order", "Stash Only", "Classic (Old Version)",
                                       "Revised Old Version", "No Jokers"]
    assert all(i.is_variant and len(i.help) > 10 for i in infos) and not [i for i in infos if not i.is_variant]
    opts = GridcannonOptions.parse(["no-jokers", "old version", "Memory Aid"])
    assert opts.no_jokers and opts.classic and opts.memory_aid and not opts.exact
    assert opts.dump() == ["Memory Aid", "Classic (Old Version)", "No Jokers"]
    assert GridcannonOptions.parse(["revised"]).dump() == ["Revised Old Version"]
    for bad in (["Classic", "Revised Old Version"], ["Upside Down"], ["first=1"]):
        with pytest.raises(core.IllegalMove, match="Classic|no variant|no setting"):
            GridcannonOptions.parse(bad)


def test_refusals_name_their_rule_and_change_nothing():
    g = G.new(["p"], seed=3)
    before = json.dumps(g.to_json())
    for attempt, rule in ((lambda: g.apply(0, "fly"), "parse"), (lambda: g.apply(0, "draw"), "now"),
                          (lambda: g.apply(1, "draw"), "seat"), (lambda: G.new(["a", "b"]), "players"),
                          (lambda: G.check_options([CLASSIC, "Revised Old Version"]), "options")):
        with pytest.raises(core.IllegalMove) as err:
            attempt()
        assert err.value.rule == rule and str(err.value) == err.value.reason
    assert json.dumps(g.to_json()) == before


# ----- actions and notation --------------------------------------------------------------------
@pytest.mark.parametrize("written,canonical", [
    ("draw", "draw"), ("place r1c2", "place r1c2"), ("PLACE centre", "place r2c2"),
    ("royal KH T1", "royal KH T1"), ("royal kh l1", "royal KH L1"), ("royal 10♦ b2", "royal TD B2"),
    ("royal T1", "royal T1"), ("armour KC", "armour KC"), ("extract r2c2", "extract r2c2"),
    ("reassign r1c1 r2c2", "reassign r1c1 r2c2"), ("replace r2c2", "replace r2c2"), ("keep", "keep"),
    ("continue", "continue"), ("concede", "concede"), ("reset r1c1", "reset r1c1"),
    ("hardreset r3c3", "hardreset r3c3"), ("recycle r2c1", "recycle r2c1"),
])
def test_notation_parses_to_typed_actions_and_back(written, canonical):
    g = G.new(["p"], seed=1)
    action = g.parse(0, written)
    assert type(action) in ACTIONS and str(action) == canonical
    assert g.parse(0, canonical) == action
    assert dataclasses.is_dataclass(action) and action.__dataclass_params__.frozen


@pytest.mark.parametrize("written,reason", [
    ("fly", "Unknown move 'fly'. Place a set-aside royal"), ("place r9c9", "not a cell"),
    ("royal ZZ T9", "not a card"), ("royal KH X9", "not a royal slot"), ("draw draw draw", "Write it as: draw."),
    ("royal", "Write it as: royal K♥ T1"), ("reassign r1c1", "Write it as: reassign"), ("", "Empty move"),
])
def test_bad_notation_is_refused_in_plain_words(written, reason):
    g = G.new(["p"], deck=stacked(EX1_TOP))
    before = json.dumps(g.to_json())
    with pytest.raises(core.IllegalMove, match=re.escape(reason)):
        g.apply(0, written)
    assert json.dumps(g.to_json()) == before


# ----- choices, decisions and labels ---------------------------------------------------------------
def test_choices_offer_the_next_tokens_with_labels_and_data():
    g = build(slots={"T1": "JS"}, stash=["AS", "JK"], pending="4S", phase="PENDING_NUMBER")
    root = g.choices(0)
    assert root.tokens() == ["place", "extract", "reassign"] and not root.complete
    assert root.prompt == "Place 4♠ or use a ploy."
    place = g.choices(0, ("place",))
    assert "r3c1" in place.tokens() and not place.complete
    opt = next(o for o in place.options if o.token == "r3c1")
    assert opt.label == "Place 4♠ on r3c1 — kills J♠" and opt.data == "r3c1"
    done = g.choices(0, ("place", "r3c1"))
    assert done.complete and not done.options
    src = g.choices(0, ("reassign", "r2c3"))
    assert {o.token for o in src.options} == {"r1c1", "r1c2", "r1c3", "r2c1", "r2c2", "r3c1", "r3c2", "r3c3"}
    assert g.choices(0, ("fly",)).empty and g.choices(0, ("place", "r1c2")).empty
    assert g.choices(1).empty


def test_decisions_name_the_step_publicly():
    g = G.new(["p"], deck=stacked(EX1_TOP))
    (d,) = g.decisions()
    assert (d.seat, d.name, d.public, d.default) == (0, "setup-royal", True, None)
    assert d.prompt == "Place a set-aside royal (setup): K♥, Q♦."
    assert build(slots={"T1": "KH"}).decisions()[0].name == "turn"
    assert build(slots={"T1": "KH"}, stash=["AS"], pile=[], phase=EXHAUSTED).decisions()[0].name == "out-of-cards"
    over, _ = build(slots={"T1": "KH"}).forfeit(0)
    assert over.decisions() == () and over.to_act() == frozenset()


def _walk_to_action(g: G, rng: random.Random) -> tuple[str, ...]:
    """Pick random offered tokens until an action is complete: every step must offer something."""
    prefix: tuple[str, ...] = ()
    while True:
        c = g.choices(0, prefix)
        if c.complete and (not c.options or rng.random() < 0.5):
            return prefix
        assert c.options, f"dead end after {prefix}"
        prefix += (rng.choice(c.tokens()),)


def _no_codes(label: str) -> bool:
    return CODE.search(label) is None


def _hidden(g: G) -> set[str]:
    return set(g.full_deck()) - g.known(0)


PRETTY = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♠♥♦♣])")
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _named(text: str) -> set[str]:
    """Every card ``text`` names, as a code (``7H``) or pretty (``7♥``)."""
    out = set(CODE.findall(text))
    out |= {("T" if r == "10" else r) + SUIT[s] for r, s in PRETTY.findall(text)}
    return out


def _check_no_leak(g: G, events: list[core.Event]) -> None:
    hidden = _hidden(g)
    assert set(g.hidden_pile()) == hidden and g.known(None) == g.known(0)
    v = g.view(None)
    assert isinstance(v, GridcannonView) and dataclasses.replace(g.view(0), seat=None) == v
    shown = [repr(v), text(v), panel(v).as_text()] + [e.for_(s) or "" for e in events for s in (0, None)]
    leaked = _named("\n".join(shown)) & hidden
    assert not leaked, f"{leaked} face down in the pile but shown"


@pytest.mark.parametrize("options", [[], ["Memory Aid"], ["Classic (Old Version)"], ["Keep Ploys", "No Jokers"],
                                     ["Memory Aid", "Classic (Old Version)"], ["Draw Order", "Ploys First"]])
def test_playouts_through_choices_no_dead_ends_no_leaks(options):
    for seed in range(3):
        rng = random.Random(seed)
        g = G.new(["p"], options, seed=seed)
        moves: list[str] = []
        _check_no_leak(g, [])
        while not g.is_over():
            assert len(moves) < 3000
            if len(moves) % 7 == 0:
                legal = list(g.legal_actions(0))
                assert [str(a) for a in legal] == g.legal_moves(0) == [" ".join(t) for t in core.walk_choices(g, 0)]
                for a in legal:
                    g.apply(0, a)  # every complete action offered is accepted
                    assert _no_codes(g.describe(0, str(a))), g.describe(0, str(a))
            (d,) = g.decisions()
            assert d.public and _no_codes(d.prompt)
            tokens = _walk_to_action(g, rng)
            action = g.parse(0, " ".join(tokens))
            assert str(action) == " ".join(tokens)
            g, events = g.apply(0, action)
            assert all(e.public is not None and _no_codes(e.public) for e in events)
            assert G.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()
            _check_no_leak(g, events)
            moves.append(str(action))
        assert g.view(0).latest and g.outcome() is not None
        again = G.new(["p"], options, seed=seed)
        for m in moves:
            again, _ = again.apply(0, m)
        assert again.to_json() == g.to_json()


def _redealt(g: G, rng: random.Random) -> G:
    """The same position with the cards the player cannot see shuffled among themselves."""
    other = g.copy()
    n = len(g.hidden_pile())
    hidden = other.pile[:n]
    rng.shuffle(hidden)
    if hidden == other.pile[:n]:
        hidden = hidden[1:] + hidden[:1]
    other.pile[:n] = hidden
    return other


PROBES = ["draw", "place r2c2", "place r1c1", "royal T1", "extract r1c1", "reassign r1c1 r2c2", "armour KC",
          "continue", "concede", "keep", "fly"]


def _offered(g: G) -> tuple:
    labels = tuple((m, g.describe(0, m)) for m in g.legal_moves(0))
    refusals = []
    for m in PROBES:
        try:
            g.apply(0, m)
            refusals.append(None)
        except core.IllegalMove as e:
            refusals.append(str(e))
    return labels, tuple(refusals), g.choices(0).prompt


@pytest.mark.parametrize("options", [[], ["Memory Aid"], ["Classic (Old Version)", "Memory Aid"]])
def test_redealing_unseen_cards_changes_nothing_offered_or_chosen(options):
    for seed in range(3):
        g = G.new(["p"], options, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            if g.move_count % 5 == 0 and len(set(g.hidden_pile())) > 1:
                other = _redealt(g, random.Random(g.move_count))
                assert other.pile != g.pile
                assert other.view(0) == g.view(0) and other.known(0) == g.known(0)
                assert _offered(other) == _offered(g)
                k = g.move_count
                assert str(auto_move(other, 0, random.Random(k))) == str(auto_move(g, 0, random.Random(k)))
            g, _ = g.apply(0, auto_move(g, 0, rng))


# ----- the journal: events per recipient, knowledge lost ------------------------------------------
def test_journal_forgets_cards_sent_back_under_the_deck():
    g = build(slots={"T1": "KH"}, stash=["AS"], top=["2C"])
    g, texts = play(g, "draw", "place r1c3")
    assert "Drew 2♣." in g.recent(0) and "2♣ placed on r1c3." in g.recent(0)
    g, texts = play(g, "extract r1c3")
    assert texts == ["A♠ extracts r1c3: 2 cards to the bottom of the draw pile."]
    assert "Drew a card." in g.recent(0) and "A card placed on r1c3." in g.recent(0)
    assert not any(names_any(t, {"2C", "2D"}) for t in g.recent(None))
    assert g.view(0).latest == ("A♠ extracts r1c3: 2 cards to the bottom of the draw pile.",)
    m = build(slots={"T1": "KH"}, stash=["AS"], top=["2C"], options=["Memory Aid"])
    m, texts = play(m, "draw", "place r1c3", "extract r1c3")
    assert texts[-1] == "A♠ extracts r1c3: 2♦ 2♣ to the bottom of the draw pile."
    assert "Drew 2♣." in m.recent(0) and m.view(0).memory == ("2D", "2C")


def test_journal_of_the_setup_replacement_and_a_forfeit():
    g = G.new(["p"], deck=stacked("2S 3S 4S 5S 6S 7S 8S 9S TS".split()))
    g, texts = play(g, "replace r2c2")
    assert texts[0] == "The card from r2c2 goes to the bottom of the draw pile."
    m = G.new(["p"], ["Memory Aid"], deck=stacked("2S 3S 4S 5S 6S 7S 8S 9S TS".split()))
    m, texts = play(m, "replace r2c2")
    assert texts[0] == "6♠ from r2c2 goes to the bottom of the draw pile."
    f, events = g.forfeit(0)
    assert [e.public for e in events] == ["p forfeits.", "The game is lost (conceded)."]
    assert f.view(None).latest == ("p forfeits.", "The game is lost (conceded).")
    assert f.view(None).result == "Lost: conceded" and not f.view(None).won


def test_view_is_typed_and_the_same_for_player_and_watchers():
    g = build(slots={"T1": "KH+2H", "T2": "x:JD"}, stash=["AS*", "JK"], pending="9C", phase="PENDING_NUMBER",
              options=["Memory Aid"])
    v = g.view(0)
    assert isinstance(v, core.View) and dataclasses.replace(v, seat=None) == g.view(None)
    t1, t2 = v.slots[0], v.slots[1]
    assert (t1.state, t1.royal, t1.armour, t1.health) == ("living", "KH", ("2H",), 15)
    assert (t2.state, t2.royal, t2.attack) == ("dead", "JD", None)
    assert [(p.card, p.spent) for p in v.stash] == [("AS", True), ("JK", False)]
    assert v.pending == "9C" and v.stage == "place card" and v.deck == len(g.pile) and v.memory == ()
    assert v.grid[4].cell == "r2c2" and v.grid[4].top == "3H" and v.deciding == g.decisions()


# ----- stored v1 states ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["v1_midgame", "v1_midgame_classic"])
def test_v1_state_upgrades_and_plays_on_like_a_replay(name):
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    record, v1 = data["record"], data["state"]
    assert v1["format"] == 1 and "known" in v1["state"] and "last" in v1["state"]
    up = G.from_json(json.loads(json.dumps(v1)))
    assert up.known_bottom == v1["state"]["known"] and up.options == G.check_options(record["options"])
    replayed = replay(record)
    mine, theirs = up.to_json()["state"], replayed.to_json()["state"]
    assert {k: v for k, v in mine.items() if k != "journal"} == {k: v for k, v in theirs.items() if k != "journal"}
    assert up.view(0).latest == replayed.view(0).latest and up.view(0).latest
    assert all(_no_codes(t) for t in up.recent(0))
    rng_a, rng_b = random.Random(5), random.Random(5)
    a, b = up, replayed
    while not a.is_over():
        a, _ = a.apply(0, " ".join(_walk_to_action(a, rng_a)))
        b, _ = b.apply(0, " ".join(_walk_to_action(b, rng_b)))
    assert b.is_over() and a.to_json() == b.to_json() and a.to_json()["format"] == 2


def test_unknown_state_formats_are_refused():
    state = G.new(["p"], seed=1).to_json()
    with pytest.raises(ValueError, match="format"):
        G.from_json({**state, "format": 7})
    assert G.from_json(state).to_json() == state
    assert state["state"]["phase"] in (SETUP_ROYALS, READY, "SETUP_REPLACE")
