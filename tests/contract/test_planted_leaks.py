"""Leaks planted on purpose: each must fail the contract's playout checks, with the check that is
meant to catch it. A check that stops seeing its leak fails here (see planted_leaks.md)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot import records
from bot.engine.cards import pretty
from bot.engine.core import HIDDEN, Hidden
from bot.engine.registry import spec
from bot.render import renderer
from tests.contract.harness import Playout


def playout_fails(game_id: str, players: int, seeds: range, match: str) -> str:
    """The failure of the first of these seeded playouts of ``game_id`` that fails (one must),
    which must be the one ``match`` describes."""
    s = spec(game_id)
    for seed in seeds:
        try:
            Playout(s, players, seed=seed, options=s.quick_options).run()
        except AssertionError as e:
            assert re.search(match, str(e)), f"seed {seed} failed otherwise: {e}"
            return str(e)
    pytest.fail(f"no playout of {game_id} caught the plant")


def test_a_second_step_picker_label_showing_the_top_of_the_draw_pile(monkeypatch):
    """Court Wars: after "attack", each stack's label also names the hidden top of the draw pile."""
    game = spec("court_wars").state
    label = game._label

    def planted(self, seat, tokens):
        text = label(self, seat, tokens)
        if len(tokens) == 2 and tokens[0] == "attack" and self.draw_pile:
            text += f" (next: {pretty(self.draw_pile[0])})"
        return text

    monkeypatch.setattr(game, "_label", planted)
    # read as a card name, or (a joker's name is no card code) seen by the re-deal
    playout_fails("court_wars", 2, range(3), r"the choices of \d after \('attack',\) names|"
                                             r"choices after \('attack',\) changed when cards the seat cannot see")


def test_the_rank_of_one_face_down_card_in_the_public_view(monkeypatch):
    """Cardchess2: the public view's first face-down card carries its rank (a value, not a name:
    only the re-deal sees it)."""
    game = spec("cardchess2").state
    view = game.view

    def planted(self, seat):
        v = view(self, seat)
        down = [i for i, b in enumerate(v.board) if b.card is HIDDEN]
        if seat is not None or not down:
            return v
        i = down[0]
        rank = Hidden(self.board[v.board[i].cell][1][0])
        board = v.board[:i] + (dataclasses.replace(v.board[i], card=rank),) + v.board[i + 1:]
        return dataclasses.replace(v, board=board)

    monkeypatch.setattr(game, "view", planted)
    playout_fails("cardchess2", 2, range(3), "the view changed when unseen cards moved")


@pytest.mark.parametrize("game_id", ["celestial_emperor", "knight_rogue_princess_dragon", "maginot_line"])
def test_a_text_render_naming_a_hidden_card(monkeypatch, game_id):
    """The text render names a card (K♠) that is, at some step, hidden from its reader."""
    module = renderer(game_id)
    text = module.text
    monkeypatch.setattr(module, "text", lambda view: text(view) + "\nWatch out for " + pretty("KS"))
    s = spec(game_id)
    playout_fails(game_id, s.min_players, range(5), r"the text render or panel of .* names \['KS'\]")


def test_a_story_line_naming_a_hidden_card_once_the_story_has_grown(monkeypatch):
    """Celestial Emperor: once the story has several lines, the public view's story gains a last
    line naming a card in the first seat's hand. The story's earlier lines are the same as at
    the step before (left out of the check as already checked): the new line must be read."""
    from bot.engine.celestial_emperor.view import StoryEntry

    game = spec("celestial_emperor").state
    view = game.view

    def planted(self, seat):
        v = view(self, seat)
        if seat is not None or len(v.story) < 6 or not self.hands[0]:
            return v
        return dataclasses.replace(v, story=v.story + (StoryEntry(None, "aside", f"{pretty(self.hands[0][0])}?"),))

    monkeypatch.setattr(game, "view", planted)
    playout_fails("celestial_emperor", 2, range(3), r"the view of None names")


def test_a_card_kept_in_view_after_the_public_lost_it(monkeypatch):
    """Celestial Emperor: a revealed duel card stays named in the public view (a duel line left
    as it was) after the public may no longer know it (its receiver put a card into the trick):
    the view is the same as at the step before, when the card was known, but knowledge shrank,
    so it is read again."""
    game = spec("celestial_emperor").state
    view = game.view
    seen: dict[int, str] = {}

    def planted(self, seat):
        v = view(self, seat)
        d = self.duel
        if seat is None and d and d["revealed"] and not d["tied"]:
            seen[self.seed] = d["atk_card"]
        card = seen.get(self.seed)
        if seat is not None or card is None:
            return v
        return dataclasses.replace(v, result=f"Last duel: {pretty(card)}")

    monkeypatch.setattr(game, "view", planted)
    playout_fails("celestial_emperor", 2, range(3), r"the view of None names")


def test_a_replay_that_skips_a_move_is_caught(monkeypatch):
    """Not a leak, the replay check: a record's replay (bot.records.replay) that skips its third
    move differs from the game played there, and the playout says at which action."""
    apply = records.apply_logged
    calls: list[str] = []

    def planted(game, seat, move):
        calls.append(move)
        return game if len(calls) == 3 else apply(game, seat, move)

    monkeypatch.setattr(records, "apply_logged", planted)
    playout_fails("court_wars", 2, range(1), r"replay differs at action 3")


def test_planted_helpers_leave_honest_games_alone():
    """The same playouts pass without the plants (the failures above are the plants')."""
    for game_id, players in (("court_wars", 2), ("cardchess2", 2), ("knight_rogue_princess_dragon", 4)):
        s = spec(game_id)
        assert Playout(s, players, seed=0, options=s.quick_options).run().is_over()
