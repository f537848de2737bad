"""Notation written once (issue 17): each action kind declares its words (``notation``) and the
shared :class:`~bot.engine.core.Notation` writes and parses them.

What must hold: ``str → parse → str`` is the identity for every action seeded playouts of the
six games reach (so records replay), the strings old records hold are still written byte for
byte, sets are written in canonical order, and no kind writes or parses its notation by hand.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.core import Action, IllegalMove, Many, Notation, Word
from bot.engine.registry import GAME_IDS, spec
from tests.contract.harness import random_action

PLAYOUTS = 30
MAX_STEPS = 60


def round_trips(game, seat: int, written: str) -> None:
    action = game.parse(seat, written)
    text = str(action)
    again = game.parse(seat, text)
    assert again == action, f"{written!r} → {text!r} parses as {again!r}, not {action!r}"
    assert str(again) == text, f"{text!r} is written {str(again)!r} the second time"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_action_of_seeded_playouts_round_trips(game_id: str) -> None:
    s = spec(game_id)
    reached = 0
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        players = [f"P{i + 1}" for i in range(rng.randint(s.min_players, min(s.max_players, 4)))]
        game = s.state.new(players, s.quick_options, seed=seed)
        for _ in range(MAX_STEPS):
            if game.is_over():
                break
            seat = rng.choice(sorted(game.to_act()))
            if seed % 3 == 0:  # the built-in player makes typed actions: they write and read back
                made = s.player(game, seat, random.Random(rng.random()))
                written = str(made)
                if isinstance(made, Action):
                    assert game.parse(seat, written) == made, f"{written!r} does not read back as {made!r}"
            else:
                written = random_action(game, seat, rng)
            round_trips(game, seat, written)
            reached += 1
            game, _ = game.apply(seat, written)
    assert reached >= PLAYOUTS


# Strings the old hand-written writers made (records hold them): still written byte for byte.
OLD = {
    "gridcannon": ["draw", "place r1c2", "royal KH T1", "royal T1", "armour KC", "extract r2c2", "reassign r1c1 r2c2",
                   "replace r2c2", "keep", "continue", "concede", "reset r1c1", "hardreset r3c3", "recycle r1c1"],
    "court_wars": ["draw", "defend", "skip", "discard", "resign", "place K", "joker Q", "attack K 2 2:Q 1"],
    "celestial_emperor": ["target tiger", "target dragon", "commit 7D", "trick TS", "keep QH", "skip",
                          "setting A dark  night\nby the river", "return", "victory They fled."],
    "knight_rogue_princess_dragon": ["flip", "use QS", "pass 3", "pass", "play", "play TS", "tell Once upon a time",
                                     "close The end."],
    "cardchess2": ["order", "order 7H TS 2C 9D KS 3H 5C", "move b2 b3", "add 8H d2", "attack d6 d2 c1 >c2",
                   "enforce", "enforce c3,e4", "reinforce", "reinforce d1 >d2", "pass"],
    "maginot_line": ["aces random", "aces AS@0 AH@0 AD@0 AC@0", "resource 5D@0", "tap 5D@0", "tap 5D@0 JD@0",
                     "tapbase", "start 7H@0 3", "fund 7H@0 2", "rush 7H@0", "queen QC@0 5H@0", "heal #2@0",
                     "revive AH@0", "done", "attack @1 5H@0 #1@1 8H@0 #2@1", "engage", "engage 4H@1 5H@0",
                     "seize", "boost", "commit JC@0 5H@0 tap 5H@0 split 2 5", "commit", "move 5H@0",
                     "assemble 5H@0 7S@0 6C@0", "end", "end 3C@0 7H@0"],
}
# Accepted spellings, written canonically (sets in their order, the writer's own seat, aliases).
CANONICAL = {
    "gridcannon": [("PLACE centre", "place r2c2"), ("royal kh t1", "royal KH T1"), ("armour 10c", "armour TC")],
    "court_wars": [("place KS", "place K"), ("attack kh 1 2:qs 1", "attack K 1 2:Q 1")],
    "celestial_emperor": [("target white tiger", "target tiger"), ("commit 7♦", "commit 7D"),
                          ("skip the text", "skip"), ("describe   a feint  ", "describe a feint")],
    "knight_rogue_princess_dragon": [("use 10 h", "use TH")],
    "cardchess2": [("enforce e4 c3", "enforce c3,e4"), ("enforce none", "enforce"),
                   ("attack d6 d2 c1>c2", "attack d6 d2 c1 >c2"), ("attack d6 d2 c1 → c2", "attack d6 d2 c1 >c2"),
                   ("reinforce -", "reinforce"),
                   ("add 8♥ d2", "add 8H d2")],
    "maginot_line": [("aces as ah ad ac", "aces AS@0 AH@0 AD@0 AC@0"), ("end 7h 3c", "end 3C@0 7H@0"),
                     ("commit 3C 5H JC 5H", "commit 3C@0 5H@0 JC@0 5H@0"), ("tap 5d jd", "tap 5D@0 JD@0")],
}


def _game(game_id: str):
    s = spec(game_id)
    return s.state.new([f"P{i + 1}" for i in range(s.max_players)], s.quick_options, seed=1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_old_strings_are_written_byte_for_byte(game_id: str) -> None:
    game = _game(game_id)
    seat = 0
    if game_id == "knight_rogue_princess_dragon":  # its parse reads only the kinds of the step: use the notation
        from bot.engine.knight_rogue_princess_dragon.actions import NOTATION
        for text in OLD[game_id]:
            assert str(NOTATION.parse(text, game)) == text
        return
    for text in OLD[game_id]:
        assert str(game.parse(seat, text)) == text
    for written, canonical in CANONICAL[game_id]:
        assert str(game.parse(seat, written)) == canonical


def test_krpd_accepted_spellings() -> None:
    from bot.engine.knight_rogue_princess_dragon.actions import NOTATION
    game = _game("knight_rogue_princess_dragon")
    for written, canonical in CANONICAL["knight_rogue_princess_dragon"]:
        assert str(NOTATION.parse(written, game)) == canonical


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_kind_declares_its_notation_once(game_id: str) -> None:
    for kind in spec(game_id).actions:
        assert kind.grammar is not None and kind.grammar.kind is kind, f"{kind.__name__} has no declared notation"
        assert "__str__" not in vars(kind), f"{kind.__name__} writes its notation by hand"


# ----- the shared writer and parser, on a kind of its own -------------------------------------------
class Put(Action, verb="put", notation="[{card}] {cells} [on {where}]", usage="Write {word} and some cells."):
    cells: tuple[int, ...] = ()
    card: str | None = None
    where: str | None = None


class Rest(Action, verb="rest"): ...


CELL = Word(lambda t, _: int(t[1:]) if t[:1] == "c" and t[1:].isdigit() else _refuse(t), lambda i: f"c{i}")


def _refuse(t: str) -> int:
    raise IllegalMove(f"{t!r} is not a cell.", "parse")


TOY = Notation((Put, Rest), {
    "card": Word(lambda t, _: t.upper() if t.isalpha() else _refuse(t)),
    "cells": Many(CELL, lo=1, sep=",", order=lambda i: i, once="Name each cell once."),
    "where": Word(lambda t, _: t.lower()),
}, unknown=lambda word, words, ctx: IllegalMove(f"No move {word!r}.", "parse"))


def test_the_shared_notation_writes_and_reads_fields() -> None:
    assert str(Put((3, 1))) == "put c3,c1"  # written as constructed: parse makes the canonical order
    assert TOY.parse("put c3 c1") == Put((1, 3)) and str(TOY.parse("PUT c3 c1")) == "put c1,c3"
    assert TOY.parse("put kh c2 on Top") == Put((2,), "KH", "top")
    assert str(Put((2,), "KH", "top")) == "put KH c2 on top" and str(Put((2,), where="top")) == "put c2 on top"
    assert TOY.parse("rest") == Rest() and str(Rest()) == "rest"


@pytest.mark.parametrize("text,reason", [
    ("", "Empty move."), ("fly", "No move 'fly'."), ("put", "Write put and some cells."),
    ("put c1 on", "Write put and some cells."), ("rest now", "Write it as: rest."),
    ("put c1 c1", "Name each cell once."), ("put c1 x9", "'x9' is not a cell."),
])
def test_the_shared_notation_refuses_clearly(text: str, reason: str) -> None:
    with pytest.raises(IllegalMove) as err:
        TOY.parse(text)
    assert err.value.reason == reason and err.value.rule == "parse"


def test_a_notation_must_name_every_field() -> None:
    class Broken(Action, verb="broken", notation="{a}"):
        a: int = 0
        b: int = 0

    with pytest.raises(ValueError, match="Broken"):
        Notation((Broken,), {"a": Word(lambda t, _: int(t))})


def test_a_kind_declares_only_words_an_action_has() -> None:
    with pytest.raises(TypeError, match="verbb"):
        class Typo(Action, verbb="typo"): ...
    assert Rest.verb == "rest" and Put.usage == "Write {word} and some cells."
