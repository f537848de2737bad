"""The state's own copy, its kept answers and the views' fast constructors give exactly what the slow ways give."""

from __future__ import annotations

import dataclasses
import json
import marshal
import random

from bot.engine.core import _field_names
from bot.engine.maginot_line import GAME, auto_move

from .helpers import act, begin, finished, hand, resource, take, unit


def _containers(x, out):
    if isinstance(x, (list, dict)):
        out.append(x)
        for v in (x.values() if isinstance(x, dict) else x):
            _containers(v, out)
    return out


def test_copy_is_exact_and_shares_nothing_mutable():
    for n, opts, seed in ((2, ["rounds=0"], 3), (4, ["Teams", "rounds=0"], 4)):
        rng = random.Random(seed)
        g = GAME.new([f"P{i}" for i in range(n)], opts, seed=seed)
        battles = 0
        for _ in range(300):
            if g.is_over():
                break
            fields = {name: getattr(g, name) for name in _field_names(type(g))}
            state = g._state()
            assert state == marshal.loads(marshal.dumps(fields))
            assert list(state) == list(fields)
            for b, c in zip(state["boards"], fields["boards"], strict=True):
                assert list(b) == list(c)  # the same key order: the same stored JSON
            mine = {id(x) for x in _containers(fields, [])}
            assert not any(id(x) in mine for x in _containers(state, []))
            battles += g.battle is not None
            d = rng.choice(g.decisions())
            g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
        assert battles


def test_views_made_fast_are_the_objects_their_classes_make():
    rng = random.Random(9)
    g = GAME.new([f"P{i}" for i in range(4)], ["Teams", "rounds=0"], seed=9)
    seen = 0
    for _ in range(200):
        if g.is_over():
            break
        for seat in (None, 0, 1, 2, 3):
            for b in g.view(seat).boards:
                parts = [b, *b.base, *b.resources, *b.building, *b.units]
                for x in parts:
                    again = dataclasses.replace(x)  # made by the class's own __init__
                    assert again == x and repr(again) == repr(x) and hash(again) == hash(x)
                    assert list(vars(again)) == list(vars(x))
                    seen += 1
        d = rng.choice(g.decisions())
        g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
    assert seen > 1000


def test_kept_answers_are_the_answers_worked_out_afresh():
    """A finished state keeps what it was asked; a copy (which keeps nothing) answers the same."""
    rng = random.Random(12)
    g = GAME.new([f"P{i}" for i in range(4)], ["Teams", "rounds=0"], seed=12)
    for _ in range(150):
        if g.is_over():
            break
        for _ in range(2):  # asked twice: the second answers are the kept ones
            fresh = g.copy()
            assert "_held" not in fresh.__dict__
            assert g.decisions() == fresh.decisions()
            for seat in (None, 0, 1, 2, 3):
                assert g.view(seat) == fresh.view(seat) and g.known(seat) == fresh.known(seat)
            d = g.decisions()[0]
            root = g.choices(d.seat)
            assert root == fresh.choices(d.seat)
            for tok in root.tokens():
                assert g.choices(d.seat, (tok,)) == fresh.choices(d.seat, (tok,))
        d = rng.choice(g.decisions())
        g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
        assert g.__dict__.get("_held") is not None


def _whole_moves(g, seat, limit=60):
    """Whole token moves of ``seat`` (the choices walked to depth 4)."""
    todo, out = [()], []
    while todo and len(out) < limit:
        p = todo.pop(0)
        c = g.choices(seat, p)
        if c.complete and p:
            out.append(" ".join(p))
        if c.kind == "token" and len(p) < 4:
            todo += [p + (o.token,) for o in c.options]
    return out


def test_a_move_copies_only_what_it_changes_and_the_states_before_it_never_change():
    """A move that changes its mover's board alone shares the other boards with the state before
    it: what it makes is what a whole copy makes, and no state before it ever changes (every
    state along the game, and every move tried from each, checked against its stored JSON)."""
    import json

    from bot.engine.core import Game

    def stored(x):
        return json.dumps(x.to_json(), sort_keys=True)

    for n, opts, seed in ((2, ["rounds=0"], 5), (4, ["Teams", "rounds=0"], 6)):
        rng = random.Random(seed)
        g = GAME.new([f"P{i}" for i in range(n)], opts, seed=seed)
        kept: list[tuple[object, str]] = []
        shared = 0
        for _ in range(220):
            if g.is_over():
                break
            before = stored(g)
            kept.append((g, before))
            d = rng.choice(g.decisions())
            for move in _whole_moves(g, d.seat):
                try:
                    whole, events = Game.apply(g, d.seat, move)  # the core's: every field copied
                except Exception as e:  # noqa: BLE001
                    try:
                        g.apply(d.seat, move)
                    except type(e):
                        continue
                    raise AssertionError(f"{move} is legal only on a shared copy") from e
                new, mine = g.apply(d.seat, move)
                assert stored(new) == stored(whole) and mine == events
                shared += sum(a is b for a, b in zip(new.boards, g.boards, strict=True))
                nxt = rng.choice(new.decisions()) if new.decisions() else None
                if nxt is not None:  # a move more from the shared copy leaves both states as they were
                    for m in _whole_moves(new, nxt.seat, 8):
                        try:
                            new.apply(nxt.seat, m)
                        except Exception:  # noqa: BLE001
                            pass
                try:  # a seat leaving the state after a move: a whole copy of its own
                    new.forfeit(d.seat)
                except Exception:  # noqa: BLE001
                    pass
                assert stored(new) == stored(whole)
            assert stored(g) == before
            g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
        assert all(stored(x) == js for x, js in kept)
        assert shared > 100


def test_a_state_after_a_move_is_viewed_as_its_copy_is():
    """Every recipient's view of a state a move made is the view a copy of it (which keeps
    nothing, and shares no board) makes."""
    rng = random.Random(21)
    g = GAME.new([f"P{i}" for i in range(4)], ["Teams", "rounds=0"], seed=21)
    g = GAME.from_json(g.to_json())
    for _ in range(250):
        if g.is_over():
            break
        views = {seat: g.view(seat) for seat in (None, 0, 1, 2, 3)}
        d = rng.choice(g.decisions())
        new, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
        fresh = new.copy()
        for seat in (None, 0, 1, 2, 3):
            v = new.view(seat)
            assert v == fresh.view(seat) and repr(v) == repr(fresh.view(seat))
            for i, (a, b) in enumerate(zip(new.boards, g.boards, strict=True)):
                if a is b:  # a board the move left alone: viewed as before
                    assert v.boards[i] == views[seat].boards[i]
        g = new


def test_rewriting_the_log_of_a_state_leaves_the_state_before_it_as_it_was():
    """A move shares the log's entries with the state before it; rewriting one (``redact_log``)
    rewrites the state's own copy."""
    import json

    from bot.engine.words import decode

    rng = random.Random(8)
    g = GAME.new(["P0", "P1"], ["rounds=0"], seed=8)
    for _ in range(40):
        d = rng.choice(g.decisions())
        g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
    before = json.dumps(g.to_json())
    d = g.decisions()[0]
    new, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
    words = [w for e in g.journal if e[0] for w in str(decode(e[0], True)).split() if len(w) > 3]
    assert words
    new.redact_log([words[0]], "(rewritten)")
    assert any(e[0] == "(rewritten)" for e in new.journal)
    assert json.dumps(g.to_json()) == before


def _complete_moves(g, seat, per_verb=6):
    """Complete moves found walking ``choices`` breadth first (ranges: their two ends), at most
    ``per_verb`` of each first token."""
    todo, out, verbs = [()], [], {}
    while todo:
        p = todo.pop(0)
        if p and verbs.get(p[0], 0) >= per_verb:
            continue
        c = g.choices(seat, p)
        if c.complete and p:
            out.append(" ".join(p))
            verbs[p[0]] = verbs.get(p[0], 0) + 1
        if c.kind == "token" and len(p) < 5:
            todo += [p + (o.token,) for o in c.options]
        elif c.kind == "range" and c.hi >= c.lo:
            todo += [p + (str(c.lo),), p + (str(c.hi),)]
    return out


def _check_every_move(g, seat) -> int:
    """Every complete move of ``seat`` leaves ``g`` as it was and makes what a whole copy makes."""
    before = json.dumps(g.to_json())
    moves = _complete_moves(g, seat)
    for move in moves:
        new, events = g.apply(seat, move)
        whole = g.copy()
        whole_events = whole._apply(seat, g.parse(seat, move))
        whole.move_count += 1
        whole._reopen(g.decisions(), seat)
        assert new.to_json() == whole.to_json(), move
        assert [e.to_json() for e in events] == [e.to_json() for e in whole_events], move
        assert json.dumps(g.to_json()) == before, move
    return len(moves)


def test_a_move_shares_only_what_it_leaves_alone():
    """``apply`` copies of the mover's board only the records the move may change: every legal
    move (the previews the pickers apply) leaves the state it came from exactly as it was, and
    makes the state a move applied to a whole copy makes."""
    applied = 0
    for n, opts, seed in ((2, ["rounds=0"], 5), (4, ["Teams", "rounds=0"], 6), (3, ["V1", "V3", "rounds=0"], 7)):
        rng = random.Random(seed)
        g = GAME.new([f"P{i}" for i in range(n)], opts, seed=seed)
        for _ in range(250):
            if g.is_over():
                break
            d = rng.choice(g.decisions())
            applied += _check_every_move(g, d.seat)
            g, _ = g.apply(d.seat, auto_move(g, d.seat, rng))
    assert applied > 1000


def test_the_rarer_moves_share_only_what_they_leave_alone():
    """Reviving, rushing, healing a unit and an Ace, queens on a unit and a resource, moving and
    assembling, from positions made for them (a playout seldom offers them all)."""
    g = begin()
    g.boards[0]["fallen"].append(g.boards[0]["base"].pop(0)["ace"])
    g.boards[0]["base"][0]["wounds"] = 3
    unit(g, 0, "5H", "6S", "7C", wounds=2)
    resource(g, 0, "4D")
    hand(g, 0, "JK", "KD", "KH", "QS", "QD", "8H")
    g.boards[0]["building"].append({"card": take(g, "9C@0"), "markers": 2})
    g.pool = 3
    assert _check_every_move(g, 0) >= 10
    g, _ = act(g, 0, "done")
    g, _ = act(g, 0, "done")
    g = g.copy()  # a position being built again
    finished(g, 0, "2H", "3S", "4C")
    assert _check_every_move(g, 0) >= 3
