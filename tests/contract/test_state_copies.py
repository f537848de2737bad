"""An old state never changes after later moves, in every game and every variant.

Several engines copy a state by hand for ``apply`` and share what a move does not change between
the old state and the new one (copy-on-write). A part shared by mistake, then changed in place by
a later move, changes a state that tables, replays and previews still hold. Seeded random playouts,
driven only through ``choices`` (the contract harness's walk), check at every step that the state
``apply`` was given is the same after it, and at the end that every state of the game is still
what it was when it was made: its JSON form, a structural dump of each field (a tuple where a list
was, a list shared inside a field: what the JSON cannot show) and the answers it kept once finished.

``DECKHAND_PLAYOUTS=N``: N playouts per game, spread over its cases (later ones add random other
variants); by default one per case (two where the game has quick settings). The figures (playouts,
steps…) are printed at the end of the run with the contract suite's.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engine.core import Game, IllegalMove
from bot.engine.maginot_line import rules as maginot_rules
from bot.engine.options import OptionInfo
from bot.engine.registry import GAME_IDS, spec
from tests.contract.harness import COUNTS, as_stored, random_action
from tests.contract.test_contract import player_counts, random_variants

PLAYOUTS = int(os.environ.get("DECKHAND_PLAYOUTS", "0"))
MAX_STEPS = 1000  # a playout stopped here is checked as one that ended (a setting may switch the game's end off)
SIBLING_RATE = 0.1  # steps where a second action is also applied to the same state (then dropped)


# ----- what a state is, dumped --------------------------------------------------------------
def pickled(value: Any) -> bytes:
    """A structural dump: pickle writes the object graph exactly (a list and a tuple differ, so do
    dict orders and int and text keys; an object's own attributes, in ``__dict__`` or slots), and an
    object met again as a reference to its first place, so a list shared inside a field shows."""
    return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


@dataclass(frozen=True)
class Snapshot:
    """A state as it was: its JSON form, each field's structural dump and each answer it had kept
    once finished (``_held``)."""

    json: str
    fields: dict[str, bytes]
    kept: dict[Any, bytes]

    @classmethod
    def of(cls, game: Game) -> "Snapshot":
        fields = {f.name: pickled(getattr(game, f.name)) for f in dataclasses.fields(game)}
        kept = {k: pickled(v) for k, v in (game.__dict__.get("_held") or {}).items()}
        return cls(json.dumps(as_stored(game)), fields, kept)  # to_json()'s JSON, less its deep copy

    def changes(self, game: Game) -> list[str]:
        """What of ``game`` is not as it was (empty: nothing). A finished state keeps what it is asked,
        so a kept answer may be added later, never changed."""
        now = Snapshot.of(game)
        out = [f"field {name!r}" for name in self.fields if now.fields.get(name) != self.fields[name]]
        out += [f"kept answer {key!r}" for key in self.kept if now.kept.get(key) != self.kept[key]]
        if now.json != self.json:
            out.append("its JSON form")
        return out


def assert_unchanged(game: Game, snap: Snapshot, where: str) -> None:
    changed = snap.changes(game)
    assert not changed, f"{where}: an old state changed: {', '.join(changed)}"


# ----- playouts -----------------------------------------------------------------------------
def playout(game_id: str, options: tuple[str, ...], players: int, seed: int) -> int:
    """One seeded random game: the state ``apply`` is given is the same after it (and after a
    sibling move applied to it too), and every state of the game is the same at its end. The
    number of actions played."""
    s = spec(game_id)
    rng = random.Random(seed)
    game = s.state.new([f"P{i + 1}" for i in range(players)], options, seed=seed)
    history: list[tuple[Game, Snapshot]] = []
    where = f"{game_id} {list(options)} with {players} players, seed {seed}"
    step = 0
    while not game.is_over() and step < MAX_STEPS:
        step += 1
        seat = rng.choice(sorted(game.to_act()))
        action = random_action(game, seat, rng)
        before = Snapshot.of(game)
        new, _ = game.apply(seat, action)
        assert_unchanged(game, before, f"{where}, step {step} ({action!r} by seat {seat})")
        if rng.random() < SIBLING_RATE:  # another move from the same state, as a preview plays one
            other = random_action(game, seat, rng)
            game.apply(seat, other)
            assert_unchanged(game, before, f"{where}, step {step}, sibling {other!r} by seat {seat}")
            COUNTS[(game_id, "state copies: siblings")] += 1
        history.append((game, before))
        game = new
    history.append((game, Snapshot.of(game)))
    for i, (old, snap) in enumerate(history):  # later moves changed nothing of any earlier state
        assert_unchanged(old, snap, f"{where}, the state before step {i + 1}, at the end (step {step})")
    COUNTS[(game_id, "state copies: playouts")] += 1
    COUNTS[(game_id, "state copies: steps")] += step
    if not game.is_over():
        COUNTS[(game_id, "state copies: stopped at the cap")] += 1
    return step


def setting_values(info: OptionInfo) -> list[int]:
    """A setting's values worth a playout besides its default: the lowest (often 0, off), the one
    above it (the tightest limit) and, for a small range (a seat, a count), the highest (the top of
    a wide one is a limit random play never reaches: it plays as off does)."""
    return sorted({info.lo, info.lo + 1, *([info.hi] if info.hi - info.lo <= 20 else [])} - {info.default})


def allowed(game_id: str, options: tuple[str, ...]) -> list[int]:
    """The player counts these options may be played with."""
    out = []
    for n in player_counts(game_id):
        try:
            spec(game_id).options.parse(options).check_players(n)
            out.append(n)
        except IllegalMove:
            pass
    return out


def cases(game_id: str) -> list[tuple[str, ...]]:
    """The rulebook's defaults, each named variant alone, each setting value worth covering
    (those the options refuse with every player count dropped)."""
    out: list[tuple[str, ...]] = [()]
    for info in spec(game_id).options.infos():
        values = [info.name] if info.is_variant else [f"{info.name}={v}" for v in setting_values(info)]
        out += [(v,) for v in values if allowed(game_id, (v,))]
    return out


CASES = [(g, case) for g in GAME_IDS for case in cases(g)]


@pytest.mark.parametrize("game_id, case", CASES, ids=[f"{g}-{'+'.join(c) or 'defaults'}" for g, c in CASES])
def test_no_later_move_changes_an_earlier_state(game_id: str, case: tuple[str, ...]) -> None:
    """For every game and case (its defaults, each variant, each setting value worth covering):
    ``apply`` leaves the state it is given as it was, and no later move changes any earlier state."""
    s = spec(game_id)
    index = CASES.index((game_id, case))
    # N per game, spread over its cases; by default one, and one with the game's quick settings (if
    # it has any: without them, random play may stop at the cap before the game's end).
    runs = max(2 if s.quick_options else 1, -(-PLAYOUTS // len(cases(game_id))))
    counts = allowed(game_id, case)
    for i in range(runs):
        seed = 1_000_000 * index + i
        n = counts[(index + i) % len(counts)]
        # Every other playout adds the quick settings; after the first, other variants join in.
        mine = (*(s.quick_options if i % 2 else ()), *case)  # the case's own setting wins over a quick one
        extra = random_variants(s, n, random.Random(seed)) if i else ()
        playout(game_id, (*mine, *extra) if n in allowed(game_id, (*mine, *extra)) else mine, n, seed)


# ----- the check can fail -------------------------------------------------------------------
def test_a_copy_sharing_the_draw_pile_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gridcannon's copy made to share its draw pile, which each draw pops: the first step that
    draws reports the old state's pile changed."""
    state = spec("gridcannon").state
    copy = state.copy

    def sharing(self: Game) -> Game:
        new = copy(self)
        new.__dict__["pile"] = self.__dict__["pile"]
        return new

    monkeypatch.setattr(state, "copy", sharing)
    with pytest.raises(AssertionError, match=r"gridcannon .* seed 1, step \d+ .*an old state changed: field 'pile'"):
        playout("gridcannon", (), 1, seed=1)


def test_a_maginot_move_sharing_the_units_it_moves_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Maginot Line's copy-on-write told that a unit's move changes none of the mover's records:
    the copy shares the units list with the old state, and the first move reports the old board."""
    monkeypatch.setitem(maginot_rules.CHANGES, maginot_rules.Move, frozenset())
    with pytest.raises(AssertionError, match=r"maginot_line .* seed 3, step \d+ \('move .* changed: field 'boards'"):
        playout("maginot_line", ("rounds=0",), 2, seed=3)


def test_changes_the_json_cannot_show_are_caught() -> None:
    """An old state's log entry turned from a list into a tuple in place, then two of its empty
    guard lists made one: the same JSON each time, a different state."""
    game = spec("court_wars").state.new(["P1", "P2"], seed=3)
    snap = Snapshot.of(game)
    assert snap.changes(game) == []
    game.journal[0] = tuple(game.journal[0])
    assert json.dumps(game.to_json()) == snap.json and snap.changes(game) == ["field 'journal'"]
    game.journal[0] = list(game.journal[0])
    assert snap.changes(game) == []
    court = game.courts[0]
    assert court[0]["guards"] == court[1]["guards"] == []
    court[1]["guards"] = court[0]["guards"]  # a later append to one would show in both
    assert json.dumps(game.to_json()) == snap.json and snap.changes(game) == ["field 'courts'"]
