"""Lessons (bot.engine.lessons): each one's script still plays on its deal, teaches each rule once
within the press limit, adapts to a move of the learner's own; the Maginot Line's meets a battle."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove, walk_choices
from bot.engine.lessons import MAX_PRESSES, Walk, lesson, lesson_games
from bot.engine.registry import spec

GAMES = lesson_games()


def play_script(game_id: str) -> list[Walk]:
    """Every state of the lesson played as offered; fails on a step the game no longer takes."""
    les = lesson(game_id)
    walks = [Walk.start(les, "Ana")]
    while not walks[-1].finished:
        w = walks[-1]
        offer = w.offer
        assert offer is not None and offer.step is not None, \
            f"{game_id}: scripted step {w.at + 1} ({les.steps[w.at].moves}) is no longer legal here"
        assert offer.index == w.at, f"{game_id}: step {w.at + 1} was skipped"
        walks.append(w.play(offer.moves))
    return walks


def test_maginot_has_a_lesson() -> None:
    assert "maginot_line" in GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_the_script_plays_to_its_end_teaching_each_rule_once(game_id: str) -> None:
    les = lesson(game_id)
    sections = {h for h, _ in spec(game_id).rules_sections()}
    rules = [s.rule for s in les.steps if s.rule]  # a step without a rule is practice
    assert len(rules) == len(set(rules)), "each rule is taught once"
    assert all(s.section in sections for s in les.steps), [s.section for s in les.steps if s.section not in sections]
    assert all(1 <= len(s.say.split(". ")) <= 3 and s.say for s in les.steps)
    walks = play_script(game_id)
    last = walks[-1]
    assert len(last.presses) == len(les.steps) <= MAX_PRESSES
    assert last.taught == tuple(rules)
    assert last.offer is None and not any(w.own_move for w in walks)
    assert "The lesson is over" in " ".join(last.lines())
    assert Walk.replay(les, last.presses, "Ana").game.to_json() == last.game.to_json()  # the same presses, the same lesson


def test_the_maginot_lesson_meets_a_battle_by_the_learners_fourth_turn() -> None:
    walks = play_script("maginot_line")
    seat = lesson("maginot_line").seat
    turns = 0
    seen: list[str] = []
    for w in walks[1:]:
        for e in w.events:
            text = e.for_(seat) or ""
            if text.startswith(f"{w.game.players[seat]}'s turn"):
                turns += 1
            if e.kind in ("engage", "commit", "outcome"):
                seen.append(e.kind)
            if e.kind == "engage" and "engages:" in text:  # an engagement, not "has no unit that may engage"
                seen.append("engaged")
            if "engaged" in seen and e.kind == "outcome":
                assert turns < 4, f"the battle came after the learner's {turns}th turn started"
                assert seen.count("commit") >= 2
                return
    raise AssertionError(f"no battle with an engagement: {seen}")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_move_of_ones_own_is_told_and_the_lesson_goes_on(game_id: str) -> None:
    les = lesson(game_id)
    w = Walk.start(les, "Ana")
    while True:  # the first step of the script where another move may be played
        written = (" ".join(t) for t in walk_choices(w.game, les.seat, limit=500))
        other = next((m for m in written if (m,) != w.offer.moves[:1]), None)
        if other is not None:
            break
        w = w.play(w.offer.moves)
    after = w.play([other])
    assert after.own_move
    text = " ".join(after.lines())
    assert "move of your own" in text and "What happened" in text
    while not after.finished:  # the lesson always ends, within the press limit
        after = after.play(after.offer.moves)
    assert len(after.presses) <= MAX_PRESSES


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_move_changes_nothing(game_id: str) -> None:
    w = Walk.start(lesson(game_id), "Ana")
    before = w.game.to_json()
    with pytest.raises(IllegalMove):
        w.play(["no-such-move at all"])
    assert w.game.to_json() == before and w.presses == ()


def test_a_step_never_offers_a_move_after_a_draw_in_the_same_press() -> None:
    """A press of "draw, then place" would name the card before it is drawn: such a step never fits."""
    from dataclasses import replace

    from bot.engine.lessons import Step

    base = lesson("gridcannon")
    les = replace(base, steps=(base.steps[0], Step(("draw", "place r1c2"), "x", "Draw and place.", "The turn")))
    w = Walk.start(les, "Ana").play(["keep"])
    assert w.offer is not None and w.offer.step is None, "the built-in player's hint instead"
    assert w.offer.moves == ("draw",)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_lesson_names_no_card_the_learner_may_not_know(game_id: str) -> None:
    """At every step, the lesson's words (what happened, the step, the offer) name only cards the
    learner may know there, knew before the last press, or that its events showed as they happened
    (what happened is told as the learner read it then, as "since your last move" is)."""
    from tests.contract.harness import Knowledge, assert_none_leak, card_universe, e_revealed, faces

    seat = lesson(game_id).seat
    before: frozenset[str] = frozenset()
    for w in play_script(game_id):
        universe = card_universe(w.game)
        shown = frozenset().union(*(e_revealed(e) for e in w.events)) if w.events else frozenset()
        now = w.game.known(seat)
        k = Knowledge(now | before | shown, universe, faces(universe))
        before = now
        offer = w.offer
        assert_none_leak([*w.lines(), offer.label if offer else ""], k, f"{game_id} after {len(w.presses)} presses")
