"""The pickers' look-ahead asks less of the engine than its plain definition, never something
else: a batch's candidates whose option test is made on demand are ``one_pick(keeps=True)``'s
exactly, and what a seat's panel offers in one press, kept with the reader's game, is what a
reader of the same game asking everything anew offers."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import spec
from bot.tables.reader import FORFEIT_TOKENS, Reader, TableFacts
from bot.tables import offers
from bot.ui import pickers
from tests.test_reader_asked import make_table

GAMES = [("maginot_line", 2, []), ("maginot_line", 4, ["Teams"]), ("court_wars", 2, []),
         ("celestial_emperor", 2, [])]


def readers(game_id: str, seats: int, options: list[str], seed: int, moves: int):
    """A fresh reader of each acting seat at each move of a seeded game of built-in players."""
    game = spec(game_id).state.new([f"p{i}" for i in range(seats)], options, seed=seed)
    rng = random.Random(seed)
    log: list[list] = []
    for _ in range(moves):
        if game.outcome() is not None:
            return
        seat = min(game.to_act())
        yield Reader(TableFacts.of(make_table(log, game_id, seats, options)), game, seat), game
        move = str(spec(game_id).player(game, seat, rng))
        game = game.apply(seat, move)[0]
        log.append([seat, move, 0])


def first_options(reader):
    """The seat's first-step options a panel offers (forfeits left out), or None when it asks for text."""
    root = reader.choices(())
    return [o for o in root.options if o.token not in FORFEIT_TOKENS] if root.kind == "token" else None


def first_steps(game_id: str, seats: int, options: list[str], seed: int, moves: int):
    """(reader, game, first-step options) of each acting seat whose first step is a choice of tokens."""
    for reader, game in readers(game_id, seats, options, seed, moves):
        opts = first_options(reader)
        if opts is not None:
            yield reader, game, opts


@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_a_batchs_candidates_are_one_picks_with_their_tests_made_late(game_id, seats, options):
    checked = 0
    for reader, _, opts in first_steps(game_id, seats, options, 3, 150):
        short = offers._short_moves(reader, opts)
        eager = [m for m, _ in short] + [t for t, _ in offers.one_pick(reader, opts, [m for m, _ in short], keeps=True)]
        lazy = offers._candidates(reader, opts)
        assert [m for m, _, k in lazy if k is None or k.ok(reader)] == eager
        assert [lg for _, lg, k in lazy if k is None] == [lg for _, lg in short]
        checked += any(k is not None for _, _, k in lazy)
    if game_id == "maginot_line":
        assert checked > 5  # options of several steps (start building, fund) were among them


def shown(items) -> list:
    """What ``in_one_press`` offers: its components' dicts (each with its row)."""
    return [component.to_component_dict() for component, _ in items], [row for _, row in items]


@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_what_one_press_offers_is_kept_exactly(game_id, seats, options):
    offered = 0
    for reader, game, opts in first_steps(game_id, seats, options, 5, 150):
        first = shown(pickers.in_one_press(reader, opts, pickers.Drafts()))
        again = shown(pickers.in_one_press(reader, opts, pickers.Drafts()))  # kept with the reader's game
        fresh = Reader(reader.table, game, reader.seat)  # a reader of the same game asking everything anew
        assert first == again == shown(pickers.in_one_press(fresh, opts, pickers.Drafts()))
        offered += any(c.get("placeholder", "").startswith("Several at once") for c in first[0])
    if game_id == "maginot_line":
        assert offered > 5


@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_a_trial_is_the_preview_before_asking_what_it_shows(game_id, seats, options):
    """``Reader.trial`` applies a move as ``after`` does and asks everything of the same game but
    whether it shows the seat anything new; ``after`` then asks that of the very same game."""
    tried = 0
    for reader, game, opts in first_steps(game_id, seats, options, 11, 100):
        for move, _, _ in offers._candidates(reader, opts)[:6]:
            text = " ".join(move)
            trial = reader.trial(text)
            fresh = Reader(reader.table, game, reader.seat)
            after = fresh.after(text)
            if trial is None:
                assert after is None
                continue
            tried += 1
            if after is not None:  # a preview that shows nothing new: the same as a fresh reader's
                assert (trial.decision, trial.choices(())) == (after.decision, after.choices(()))
            checked = reader.after(text)
            assert (checked is None) == (after is None)
            if checked is not None:  # the same applied game: what the trial asked is the preview's
                assert checked.choices(()) is trial.choices(())
                assert reader.trial(text).choices(()) is checked.choices(())
    assert tried > 10
