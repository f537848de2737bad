"""Warriors of the Celestial Emperor on the v2 contract: notation, choices, decisions, the
journal forgetting cards, knowledge under a re-deal, the spec and the v1 state upgrade."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.engine import registry
from bot.engine.celestial_emperor import (
    GAME as G, LENIENT, SEAT_ORDER, SPEC, STRICT, CelestialOptions, Commit, Describe, Skip, Target, auto_move, parse,
)
from bot.engine.core import IllegalMove, walk_choices
from bot.records import replay
from tests.games.celestial_emperor.test_playouts import choose_random
from tests.games.celestial_emperor.test_rules import LINE, commit_both, seat, started, step

FIXTURE = Path(__file__).parent / "fixtures" / "v1_midgame.json"


def trick_phase(suits="DS"):
    """The Dragon (9D) beat the Tiger (3S); both cards exchanged, no trick card chosen yet."""
    g = commit_both(started(suits), "D", "S", "9D", "3S", "Strike.")
    g = step(g, "D", f"strike {LINE}")
    return step(g, "S", f"withdraw {LINE}")


def names(texts, card_pretty: str) -> bool:
    return any(card_pretty in t for t in texts)


# ----- notation ---------------------------------------------------------------------------------
def test_notation_round_trips_for_every_offered_action():
    rng = random.Random(1)
    g = G.new(["a", "b", "c"], [LENIENT], seed=11)
    seen = set()
    while not g.is_over():
        for s in g.to_act():
            for tokens in walk_choices(g, s):
                text = " ".join(tokens)
                assert str(g.parse(s, text)) == text
                seen.add(tokens[0])
        s = min(g.to_act())
        g, _ = g.apply(s, auto_move(g, s, rng))
    assert {"target", "commit", "trick", "skip"} <= seen


def test_notation_accepts_what_v1_records_hold():
    assert parse("commit 10d") == Commit("TD") and str(parse("COMMIT 7♦")) == "commit 7D"
    assert parse("target White Tiger") == Target("S") and str(Target("S")) == "target tiger"
    assert parse("describe   The  blade sings. ") == Describe("The  blade sings.")
    assert str(Describe("")) == "describe" and parse("skip") == Skip()
    for bad, why in [("commit", "one card"), ("commit 7Z", "not a card"), ("target nobody", "by clan"),
                     ("dance", "Unknown move")]:
        with pytest.raises(IllegalMove, match=why):
            parse(bad)


# ----- choices and decisions -----------------------------------------------------------------------
def test_choices_text_steps_and_no_dead_ends():
    g = step(started("DS"), "D", "target tiger")
    d = seat(g, "D")
    first = g.choices(d, ())
    assert [o.token for o in first.options] == ["describe"] and first.options[0].label == "Describe your attack"
    c = g.choices(d, ("describe",))
    assert c.kind == "text" and c.required and c.max_len == 1000
    assert not g.choices(d, ("describe", "")).complete and g.choices(d, ("describe", "A feint.")).complete
    assert not g.choices(d, ("describe", "x" * 1001)).complete
    lenient = step(started("DS", [LENIENT]), "D", "target tiger")
    assert lenient.choices(d, ("describe", "")).complete
    assert [o.token for o in lenient.choices(d, ()).options] == ["skip", "describe"]
    assert g.choices(seat(g, "S"), ()).empty  # not the Tiger's turn


def test_decisions_are_named_private_where_secret_with_skip_defaults():
    g = started("DS", [LENIENT])
    d, s = seat(g, "D"), seat(g, "S")
    assert g.decisions()[0].name == "turn" and g.decisions()[0].public
    g = step(g, "D", "target tiger")
    (dec,) = g.decisions()
    assert (dec.name, dec.public, dec.default) == ("tell", True, "skip")
    g = step(g, "D", "skip")
    assert g.decision_of(d).name == "commit" and not g.decision_of(d).public
    g = step(g, "D", "commit 9D")
    assert g.decision_of(s).name == "commit" and not g.decision_of(s).public
    g = step(g, "S", "commit 3S")
    assert g.decision_of(d).name == "tell" and g.decision_of(d).default is None  # a strike is required
    g = step(step(g, "D", f"strike {LINE}"), "S", f"withdraw {LINE}")
    assert [(x.seat, x.name, x.public) for x in g.decisions()] == [(d, "trick", False), (s, "trick", False)]
    assert not SPEC.export_seed


def test_simultaneous_trick_one_answer_changes_nothing_the_other_is_offered():
    g = trick_phase()
    s = seat(g, "S")
    before = {p: g.choices(s, p) for p in [(), ("trick",)]}
    opened = g.opened_at(s)
    g2 = step(g, "D", "trick 2D")
    assert g2.to_act() == {s}
    assert {p: g2.choices(s, p) for p in before} == before
    assert g2.opened_at(s) == opened and g2.decision_of(s).name == "trick"


def test_simultaneous_epilogue_one_line_changes_nothing_the_others_are_offered():
    from tests.games.celestial_emperor.test_rules import endgame_position

    g = step(endgame_position(), "D", "keep 6D")
    h, s = seat(g, "H"), seat(g, "S")
    before = (g.choices(s, ()), g.choices(s, ("return",)), g.opened_at(s))
    g = step(g, "H", "skip")
    assert (g.choices(s, ()), g.choices(s, ("return",)), g.opened_at(s)) == before
    assert h not in g.to_act()


# ----- the journal forgets -------------------------------------------------------------------------
def test_visibility_the_journal_forgets_duel_cards_once_they_may_lie_in_a_trick():
    g = trick_phase()
    d, s = seat(g, "D"), seat(g, "S")
    for who in (None, d, s):
        assert names(g.recent(who), "9♦") and names(g.recent(who), "3♠")  # revealed, then exchanged
    assert "You committed 9♦ face-down." in g.recent(d)
    g = step(g, "S", "trick 2S")  # 9♦ may be in the trick now: lost to the public and the Dragon
    assert not names(g.recent(None), "9♦") and not names(g.recent(d), "9♦")
    assert "You committed a card face-down." in g.recent(d)
    assert names(g.recent(s), "9♦") and names(g.recent(s), "3♠")  # the Tiger still knows both
    assert any(t.startswith("Reveal:") and "wins (9 against 3)" in t for t in g.recent(None))
    g = step(g, "D", "trick 4D")  # now 3♠ may be in the trick too: lost to the Tiger
    assert not names(g.recent(s), "3♠") and "You committed a card face-down." in g.recent(s)
    assert names(g.recent(s), "2♠")  # the card the Tiger put in (its own line)
    for who in (None, d, s):
        lost = set(g.all_cards()) - g.known(who)
        assert not any(c in t or c[0] + "♠♥♦♣"["SHDC".index(c[1])] in t
                       for t in g.recent(who) for c in lost if c[0] != "T")


def test_ruling_05_tie_cards_stay_named_in_the_journal():
    g = step(step(step(started("DS"), "D", "target tiger"), "D", "describe x"), "D", "commit 7D")
    g = step(step(g, "S", "commit 7S"), "S", "skip")
    assert names(g.recent(None), "7♦") and names(g.recent(None), "7♠")


def test_forfeit_calls_off_the_duel_and_the_journal_forgets_its_revealed_cards():
    g = commit_both(started("DHS"), "D", "S", "9D", "2S")
    assert names(g.recent(None), "9♦")
    g, events = g.forfeit(seat(g, "D"))
    assert any(e.public == "The duel is called off." for e in events)
    assert not names(g.recent(None), "9♦") and not names(g.recent(None), "2♠")
    assert names(g.recent(seat(g, "S")), "2♠")  # back in the Tiger's own hand
    assert "9D" in g.out


# ----- knowledge under a re-deal -------------------------------------------------------------------
def redeal(g, secret: set[str], rng: random.Random):
    """A state the same as ``g`` for anyone who cannot see ``secret``: those cards shuffled."""
    cards = sorted(secret)
    shuffled = cards[:]
    rng.shuffle(shuffled)
    m = dict(zip(cards, shuffled, strict=True))

    def f(c):
        return m.get(c, c) if c else c

    new = g.copy()
    new.hands = [[f(c) for c in h] for h in new.hands]
    new.tricks = [[f(c) for c in t] for t in new.tricks]
    new.put_in = [[f(c) for c in t] for t in new.put_in]
    new.committed = [f(c) for c in new.committed]
    new.finals = [f(c) for c in new.finals]
    new.out = [f(c) for c in new.out]
    if new.duel:
        new.duel["atk_card"], new.duel["def_card"] = f(new.duel["atk_card"]), f(new.duel["def_card"])
        new.duel["trick_cards"] = {k: f(c) for k, c in new.duel["trick_cards"].items()}
    return new


def offered(g, s):
    return [(p, g.choices(s, p)) for p in [(), *((o.token,) for o in g.choices(s, ()).options)]]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_redealing_unseen_cards_changes_nothing_a_seat_sees_is_offered_or_chooses(n):
    rng = random.Random(n)
    for seed in range(3):
        g = G.new([f"P{i}" for i in range(n)], [STRICT] if seed % 2 else [], seed=seed)
        while not g.is_over():
            for s in g.to_act():
                other = redeal(g, set(g.all_cards()) - g.known(s), rng)
                assert other.view(s) == g.view(s)
                assert offered(other, s) == offered(g, s)
                assert str(auto_move(other, s, random.Random(seed))) == str(auto_move(g, s, random.Random(seed)))
                if g.decision_of(s).public:  # the same from the public view
                    public = redeal(g, set(g.all_cards()) - g.known(None), rng)
                    assert offered(public, s) == offered(g, s)
            s = rng.choice(sorted(g.to_act()))
            g, _ = g.apply(s, choose_random(g, s, rng))


# ----- spec and options ------------------------------------------------------------------------
def test_spec_and_typed_options():
    assert registry.spec("celestial_emperor") is SPEC
    assert (SPEC.state, SPEC.options, SPEC.player, SPEC.command) == (G, CelestialOptions, auto_move,
                                                                     "celestial-emperor")
    assert not SPEC.export_seed and SPEC.story and not SPEC.solo_concede
    assert SPEC.rematch_first(2, 0, None) is None  # no series rule: clans decide who starts
    assert {a.verb for a in SPEC.actions} >= {"target", "commit", "trick", "keep", "skip", "setting", "return"}
    opts = CelestialOptions.parse(["strict", "seat_order_clans", "Lenient-Descriptions"])
    assert (opts.strict, opts.lenient, opts.seat_order) == (True, True, True)
    assert opts.dump() == [STRICT, LENIENT, SEAT_ORDER]
    assert all(i.help for i in CelestialOptions.infos()) and CelestialOptions.title == G.title
    with pytest.raises(IllegalMove, match="no variant"):
        CelestialOptions.parse(["Hard Mode"])
    sections = dict(SPEC.rules_sections())
    assert {"Overview", "Rulings", "Variants"} <= set(sections)
    assert "14." in sections["Rulings"]


# ----- the v1 state ------------------------------------------------------------------------------
def test_upgrade_of_a_v1_state_plays_on_like_a_replay_of_its_record():
    data = json.loads(FIXTURE.read_text())
    record, v1 = data["record"], data["state"]
    assert v1["format"] == 1 and "journal" not in v1["state"]
    upgraded = G.from_json(v1)
    replayed = replay(record)
    assert isinstance(replayed, G)
    a, b = upgraded.to_json(), replayed.to_json()
    assert a["format"] == b["format"] == 2
    # The v1 story's narrator lines are English text; a replay writes phrases: the same words.
    assert {k: v for k, v in a["state"].items() if k not in ("journal", "story")} == \
        {k: v for k, v in b["state"].items() if k not in ("journal", "story")}
    assert [(e.seat, e.kind, str(e.text)) for e in upgraded.view(None).story] == \
        [(e.seat, e.kind, str(e.text)) for e in replayed.view(None).story]
    rng = random.Random(9)
    while not upgraded.is_over():
        s = min(upgraded.to_act())
        tokens: tuple[str, ...] = ()
        while True:  # through choices only
            c = upgraded.choices(s, tokens)
            if c.kind == "text":
                tokens += ("A line of the upgraded tale.",)
            elif c.complete and not c.options:
                break
            elif c.complete and rng.random() < 0.5:
                break
            else:
                tokens += (rng.choice(c.options).token,)
        move = " ".join(tokens)
        upgraded, _ = upgraded.apply(s, move)
        replayed, _ = replayed.apply(s, move)
    a, b = upgraded.to_json()["state"], replayed.to_json()["state"]
    assert {k: v for k, v in a.items() if k != "story"} == {k: v for k, v in b.items() if k != "story"}
    assert [(e.seat, e.kind, str(e.text)) for e in upgraded.view(None).story] == \
        [(e.seat, e.kind, str(e.text)) for e in replayed.view(None).story]


def test_upgrade_refuses_unknown_formats():
    data = json.loads(FIXTURE.read_text())["state"]
    with pytest.raises(ValueError, match="format"):
        G.from_json({**data, "format": 7})
