"""Court Wars on the v2 contract: choices without dead ends, typed actions and notation, decisions,
declared knowledge (no leak, re-dealing unseen cards changes nothing), options, the spec and the
series rule, and the v1 → v2 state upgrade."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from bot.engine import cards
from bot.engine.core import HIDDEN, Choices, IllegalMove, Outcome, walk_choices
from bot.engine.court_wars import (
    ACTIONS, GAME, SPEC, Attack, CourtWarsGame, CourtWarsOptions, CourtWarsView, Place, auto_move, parse,
)
from bot.records import make_record, replay
from tests.games.court_wars.test_rules import W, position

FIXTURES = Path(__file__).parent / "fixtures"
PLAYERS = ["Ana", "Ben", "Cat", "Dee"]
CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|JK2?)(?![A-Za-z0-9])")
OPTION_SETS = [(), ("No Jokers", "first=1"), ("Same-Value", "Single Ace"), ("Shuffle Recycle", "rounds=6")]


def choose_by_choices(game: CourtWarsGame, seat: int, rng: random.Random, resign_rate: float = 0.01) -> str:
    """Build an action token by token through ``choices``; every step must offer a way on.
    Resigning is offered on every turn, so it is taken only now and then."""
    prefix: tuple[str, ...] = ()
    while True:
        c = game.choices(seat, prefix)
        assert c.kind == "token"
        assert c.options or c.complete, f"dead end after {prefix}"
        if c.complete and (not c.options or rng.random() < 0.5):
            return " ".join(prefix)
        tokens = c.tokens()
        if not prefix and len(tokens) > 1 and rng.random() >= resign_rate:
            tokens = [t for t in tokens if t != "resign"]
        prefix += (rng.choice(tokens),)


def view_cards(view: CourtWarsView) -> set[str]:
    out = set(view.discard) | set(view.draw_pile or ())
    if view.pending:
        out.add(view.pending)
    for s in view.seats:
        for p in s.positions:
            out.add(p.court)
            out.update(p.guards)
            if p.joker:
                out.add(p.joker)
    return out


SYMBOL_SUIT = {v: k for k, v in cards.SUIT_SYMBOL.items()}
MENTION = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([SHDC♠♥♦♣])(?![A-Za-z0-9])")


def named_cards(text: str) -> set[str]:
    """Every card a text names, as a code (``7♦`` and ``7D`` alike); jokers look alike and are left out."""
    return {("T" if r == "10" else r) + SYMBOL_SUIT.get(s, s) for r, s in MENTION.findall(text)}


def names_unknown(text: str, unknown: set[str]) -> bool:
    return bool(named_cards(text) & unknown)


def every_card(game: CourtWarsGame) -> set[str]:
    return set(cards.deck(0 if game.opts.no_jokers else 2))


def seen(game: CourtWarsGame, seat: int | None) -> frozenset[str]:
    """Every card ``seat`` has seen so far: what it knows now and, once the discard pile was turned
    over, the draw pile (made of cards seen on the discard pile, though under Shuffle Recycle no
    longer known where)."""
    return game.known(seat) | (frozenset(game.draw_pile) if game.recycled else frozenset())


def check_knowledge(game: CourtWarsGame, events, renderers=()) -> None:
    """For every recipient: the view places only known cards; offered labels and renders (of the
    view less its log) name none it may not know; an event none but what it shows as it happens;
    the recent log, which tells history, none it never saw."""
    for seat in [None, *range(len(game.players))]:
        known = game.known(seat)
        unknown = every_card(game) - known
        view = game.view(seat)
        assert view_cards(view) <= known
        bare = dataclasses.replace(view, recent=())
        texts = [r(bare) for r in renderers]
        if seat in game.to_act():
            texts += [game.describe(seat, m) for m in game.legal_moves(seat)]
        assert not any(names_unknown(t, unknown) for t in texts), (seat, texts)
        for e in events:
            assert not names_unknown(e.for_(seat) or "", unknown - set(e.reveals)), (seat, e)
        never = every_card(game) - seen(game, seat)
        assert not any(names_unknown(t, never) for t in view.recent), (seat, view.recent)


# ----- choices and actions ------------------------------------------------------------------
@pytest.mark.parametrize("block", range(3))
def test_playouts_through_choices_accept_every_offered_action_and_leak_nothing(block):
    for seed in range(block, 24, 3):  # 24 games in three tests (two workers stay busy)
        n = 2 + seed % 3
        g = GAME.new(PLAYERS[:n], OPTION_SETS[seed % len(OPTION_SETS)], seed=seed)
        rng = random.Random(seed)
        check_knowledge(g, [])
        moves = []
        while not g.is_over():
            assert len(moves) < 5000
            seat = min(g.to_act())
            move = choose_by_choices(g, seat, rng)
            g, events = g.apply(seat, move)
            moves.append([seat, move])
            check_knowledge(g, events)
        assert g.outcome() is not None
        assert replay(make_record(g, moves)).to_json() == g.to_json()


def test_named_cards_reads_codes_and_suit_symbols():
    assert named_cards("Ben spends 7♦ 10♣ from Q♥; 4D") == {"7D", "TC", "QH", "4D"}
    assert names_unknown("Ana draws 9♠.", {"9S"}) and not names_unknown("Ana draws 9♠.", {"9H"})


def test_choices_labels_are_plain_words_with_suit_symbols():
    g = W()
    for move in g.legal_moves(1):
        label = g.describe(1, move)
        assert label != move and not CODE.search(label), label
    c = g.choices(1, ("attack",))
    assert c.prompt and [o.token for o in c.options] == ["K", "Q", "J"]
    assert c.options[1].label == "From Q♥ [7♦ 5♣] (Attack 12)"
    last = g.choices(1, ("attack", "Q", "2", "1:Q"))
    assert [o.token for o in last.options] == ["1"] and last.options[0].data == 1
    assert g.choices(1, ("attack", "Q", "9")).empty  # not a legal prefix
    assert g.choices(0, ()).empty  # not this seat's turn


def test_choices_complete_only_for_whole_actions():
    g = W()
    assert not g.choices(1, ()).complete and g.choices(1, ("defend",)).complete
    assert g.choices(1, ("defend",)).options == ()
    full = ("attack", "Q", "2", "1:Q", "1")
    assert g.choices(1, full).complete and not g.choices(1, full[:-1]).complete


def test_notation_round_trips_and_old_spellings_parse():
    g = W()
    for action in g.legal_actions(1):
        assert parse(1, str(action), g.suits) == action
        assert g.parse(1, str(action)) == action
    assert str(g.parse(1, "  ATTACK  q 2 1:qs 1 ")) == "attack Q 2 1:Q 1"
    assert g.parse(0, "place KS") == Place("K")
    assert g.parse(1, "attack QH 2 1:Q 1") == Attack("Q", 2, 0, "Q", 1)
    assert {a.verb for a in ACTIONS} == {"draw", "defend", "attack", "skip", "place", "joker", "discard", "resign"}
    assert all(a.help for a in ACTIONS)
    with pytest.raises(IllegalMove, match="not possible now"):
        g.parse(1, "fly away")


def test_apply_dispatches_typed_actions():
    g, _ = W().apply(1, Attack("Q", 2, 0, "Q", 1))
    assert g.courts[0][1]["state"] == "defeated"


# ----- decisions ----------------------------------------------------------------------------
def test_decisions_name_the_stage_and_are_public():
    g = CourtWarsGame.new(PLAYERS[:2], ["first=0"], deck=["9H", "AS", "8C"])
    (d,) = g.decisions()
    assert (d.seat, d.name, d.public, d.default) == (0, "pick", True, None) and d.prompt
    g, _ = g.apply(0, "draw")
    assert g.decisions()[0].name == "guard" and "9♥" in g.decisions()[0].prompt
    assert W().decisions()[0].name == "turn"
    ace, _ = W(current=0, draw=["AH", "5D"]).apply(0, "defend")
    assert ace.decisions()[0].name == "ace"
    joker, _ = position([["KS[]", "QS(x)", "JS[]"], ["KH[]", "QH[]", "JH[]"]], draw=["JK"]).apply(0, "defend")
    assert joker.decisions()[0].name == "joker"
    over, _ = W().apply(1, "resign")
    assert over.decisions() == () and over.to_act() == frozenset()
    assert all(d.public for d in CourtWarsGame.new(["a", "b"], seed=1).decisions())


# ----- knowledge --------------------------------------------------------------------------------
def test_known_is_everything_but_the_first_shuffle():
    g = CourtWarsGame.new(PLAYERS[:3], seed=3)
    assert g.known(None) == frozenset(c for s in g.courts for p in s for c in [p["court"]])
    assert g.view(None).draw_size == len(g.draw_pile) and g.view(None).draw_pile is None
    turned, _ = W(current=0, draw=[], discard=["5H", "QD", "9S"]).apply(0, "defend")
    assert {"QD", "9S", "5H"} <= turned.known(None) and turned.known(0) == turned.known(None)
    assert HIDDEN not in view_cards(turned.view(None))


def test_redealing_unseen_cards_changes_nothing_a_seat_is_offered_or_told():
    rng = random.Random(5)
    for seed in range(12):
        g = GAME.new(PLAYERS[: 2 + seed % 3], OPTION_SETS[seed % len(OPTION_SETS)], seed=seed)
        for _ in range(60):
            if g.is_over():
                break
            seat = min(g.to_act())
            other = g.copy()
            if not g.draw_order_public():  # the first shuffle, or a Shuffle Recycle (ruling 19)
                rng.shuffle(other.draw_pile)  # a deal consistent with every seat's view
            for s in range(len(g.players)):
                assert other.view(s) == g.view(s)
                assert other.legal_moves(s) == g.legal_moves(s)
                assert [other.describe(s, m) for m in other.legal_moves(s)] == \
                       [g.describe(s, m) for m in g.legal_moves(s)]
            for bad in ("attack K 9 2:Q 1", "place Q", "skip"):
                errors = []
                for state in (g, other):
                    try:
                        state.apply(seat, bad)
                        errors.append(None)
                    except IllegalMove as e:
                        errors.append(str(e))
                if errors[0] is not None:
                    assert errors[0] == errors[1]
            assert auto_move(other, seat, random.Random(seed)) == auto_move(g, seat, random.Random(seed))
            g, _ = g.apply(seat, auto_move(g, seat, random.Random(seed)))


# ----- options, spec, series rule ---------------------------------------------------------------
def test_options_every_variant_and_setting_with_help():
    infos = {i.name: i for i in CourtWarsOptions.infos()}
    assert set(infos) == {"No Jokers", "Same-Value", "Shuffle Recycle", "Single Ace", "rounds", "first"}
    assert all(i.help for i in infos.values())
    assert (infos["rounds"].default, infos["rounds"].lo, infos["rounds"].hi) == (20, 0, 1000)
    assert (infos["first"].default, infos["first"].lo, infos["first"].hi) == (-1, -1, 3)
    opts = CourtWarsOptions.parse(["no jokers", "same_value", "Shuffle-Recycle", "SINGLE ACE", "rounds=5", "first=1"])
    assert opts == CourtWarsOptions(True, True, True, True, 5, 1)
    assert opts.dump() == ["No Jokers", "Same-Value", "Shuffle Recycle", "Single Ace", "rounds=5", "first=1"]
    assert CourtWarsGame.check_options(["Single Ace", "rounds=5"]) == ["Single Ace", "rounds=5"]
    with pytest.raises(IllegalMove, match="first"):
        CourtWarsOptions.parse(["first=2"]).check_players(2)
    with pytest.raises(IllegalMove, match="no variant"):
        CourtWarsOptions.parse(["Double Ace"])
    assert CourtWarsGame.new(PLAYERS[:2], ["first=1"], seed=1).opts.first == 1


def test_spec():
    assert SPEC.id == "court_wars" and SPEC.command == "court-wars" and SPEC.state is CourtWarsGame
    assert SPEC.options is CourtWarsOptions and SPEC.player is auto_move and SPEC.actions == ACTIONS
    assert (SPEC.min_players, SPEC.max_players) == (2, 4)
    assert SPEC.export_seed and not SPEC.solo_concede and not SPEC.story
    assert "Court Wars" in SPEC.summary and "Kroc Camen" in SPEC.credit
    heads = [h for h, _ in SPEC.rules_sections()]
    for needed in ("Overview", "Components", "Setup", "The turn", "Ending", "Rulings", "Variants and settings",
                   "Credits"):
        assert needed in heads, heads
    rulings = dict(SPEC.rules_sections())["Rulings"]
    assert all(f"{k}." in rulings for k in range(1, 21))


def test_series_rule_rematch_first():
    first = SPEC.rematch_first
    assert first(2, 0, Outcome((0,))) == 1 and first(2, 0, Outcome((1,))) == 0  # the loser starts
    assert first(2, 1, Outcome((0, 1))) == 0 and first(2, 0, None) == 1  # a shared or unfinished game alternates
    assert [first(3, f, Outcome((0,))) for f in range(3)] == [1, 2, 0]
    assert [first(4, f, None) for f in range(4)] == [1, 2, 3, 0]


# ----- state format -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["v1_midgame", "v1_midgame_ace"])
def test_upgrade_v1_state_loads_plays_on_and_matches_the_replay(name):
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    assert data["state"]["format"] == 1 and "log" in data["state"]["state"]
    upgraded = CourtWarsGame.from_json(data["state"])
    replayed = replay(data["record"])
    # The v1 log was English text; a replay writes phrases: the same words, and every other field the same.
    mine, theirs = upgraded.to_json()["state"], replayed.to_json()["state"]
    assert {k: v for k, v in mine.items() if k != "journal"} == {k: v for k, v in theirs.items() if k != "journal"}
    assert upgraded.recent(None) == replayed.recent(None)
    assert upgraded.to_json()["format"] == 2 and upgraded.recent(None)
    assert not any(CODE.search(line) for line in upgraded.recent(None))
    a, b, played = upgraded, replayed, 0
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not a.is_over():
        seat = min(a.to_act())
        a, _ = a.apply(seat, choose_by_choices(a, seat, rng_a, resign_rate=0))
        b, _ = b.apply(seat, choose_by_choices(b, seat, rng_b, resign_rate=0))
        played += 1
    assert a.to_json() == b.to_json() and a.outcome() is not None and played > 10


def test_upgrade_refuses_an_unknown_format():
    data = W().to_json()
    with pytest.raises(ValueError, match="format"):
        CourtWarsGame.from_json({**data, "format": 7})
    assert dataclasses.asdict(CourtWarsGame.from_json(data)) == dataclasses.asdict(W())


def test_choices_kind_is_token_everywhere():
    g = W()
    for tokens in walk_choices(g, 1):
        for k in range(len(tokens)):
            c = g.choices(1, tokens[:k])
            assert isinstance(c, Choices) and c.kind == "token"
