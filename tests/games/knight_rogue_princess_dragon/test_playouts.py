"""Random and built-in playouts of The Knight, the Rogue, the Princess and the Dragon."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from bot.engine.cards import pretty
from bot.engine.core import walk_choices
from bot.engine.knight_rogue_princess_dragon import ALL_CARDS, GAME, auto_move
from bot.render import knight_rogue_princess_dragon as render
from bot.render.knight_rogue_princess_dragon import alt_text, panel, text
from tests.conftest import seeds
from tests.playout import choose_random, playout, renderers

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
RENDERERS = renderers(render)
OPTION_SETS = [
    (),
    ("Newest on Top",),
    ("Loose Passing",),
    ("Open Race",),
    ("Free Choice",),
    ("Last Word",),
    ("Open Race", "Free Choice", "Newest on Top"),
    ("Loose Passing", "Last Word", "opener=2"),
]


def invariant(g) -> None:
    zones = [c for p in g.own for c in p] + [c for p in g.showing for c in p]
    zones += [c for p in g.received for c in p] + list(g.story_pile)
    if g.card is not None:
        zones.append(g.card)
    counts = Counter(zones)
    if g.ended_early is None:
        assert sorted(counts) == sorted(ALL_CARDS) and set(counts.values()) == {1}, counts
    for s, suit in enumerate("SHDC"):
        assert all(c[1] == suit for c in g.own[s] + g.showing[s] + g.used[s])
        assert len(g.own[s]) + len(g.showing[s]) + len(g.used[s]) == 4
        assert set(g.used[s]).isdisjoint(g.own[s] + g.showing[s])
    assert len(g.story_by) == len(g.story_pile)
    assert 0 <= g.passes <= 4
    tellings = [e for e in g.transcript if e["kind"] in ("opening", "tell")]
    assert len(tellings) == sum(len(u) for u in g.used) - (1 if g.step == "tell" else 0)


def auto_text(g, seat, rng):
    """The built-in player's action in notation (the shared harness records text)."""
    return str(auto_move(g, seat, rng))


def checking(chooser):
    """A chooser that also checks the invariant, for the games played without per-step checks."""

    def choose(g, seat, rng):
        invariant(g)
        return chooser(g, seat, rng)

    return choose


def check_finished(g, options) -> None:
    tellers = [e["seat"] for e in g.transcript if e["kind"] in ("opening", "tell")]
    assert len(tellers) == 16 and Counter(tellers) == Counter({0: 4, 1: 4, 2: 4, 3: 4})
    assert g.transcript[-1]["kind"] == "close" and g.transcript[-1]["seat"] == g.story_by[-1]
    if "Loose Passing" not in options:
        # No dead end: the story never jams, nobody tells twice in a row, S receives 3, others 4.
        assert all(a != b for a, b in pairwise(tellers))
        in_play = len(g.story_pile) - 1
        held = sum(len(r) for r in g.received) + in_play
        assert held == 15
    out = g.outcome()
    assert out is not None and out.details["story_pile"] == g.story_pile
    if "Last Word" in options:
        assert out.winners == (g.story_by[-1],) and out.score == 1
    else:
        assert out.winners == ()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_playouts(options):
    # 120 games in all in the long run (200 more below, through choices); the full per-step checks on the
    # first few.
    for seed in seeds(15):
        g, moves = playout(GAME, PLAYERS, seed, options, chooser=checking(choose_random), invariant=invariant,
                           renderers=RENDERERS, check_every_step=seed < 3)
        check_finished(g, options)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_auto_playouts(options):
    for seed in seeds(7):
        g, moves = playout(GAME, PLAYERS, 1000 + seed, options, chooser=checking(auto_text),
                           invariant=invariant, renderers=RENDERERS, check_every_step=seed < 2)
        check_finished(g, options)
        assert all(len(m) < 60 for _, m in moves)


def test_no_dead_end_guarantee_received_counts():
    import random

    for seed in seeds(100):
        g = GAME.new(PLAYERS, seed=seed)
        rng = random.Random(seed)
        while g.step != "wrapup":
            seat = rng.choice(sorted(g.to_act()))
            moves = [" ".join(t) for t in walk_choices(g, seat)]
            moves = moves or [f"{o.token} Line." for o in g.choices(seat, ()).options]
            assert moves
            g, _ = g.apply(seat, rng.choice(moves))
        assert [len(r) for r in g.received] == [3 if s == g.starter else 4 for s in range(4)]


def test_determinism():
    a, ma = playout(GAME, PLAYERS, 4242, ("Open Race",))
    b, mb = playout(GAME, PLAYERS, 4242, ("Open Race",))
    assert ma == mb and a.to_json() == b.to_json()


# ----- driven only through choices, with the knowledge oracle at every step --------------------

def assert_no_leak(g, events) -> None:
    """Nothing a recipient reads (view, renders, events, labels, prompts) names a card outside
    ``known(recipient)``."""
    for seat in (None, 0, 1, 2, 3):
        hidden = set(ALL_CARDS) - g.known(seat)
        v = g.view(seat)
        texts = [repr(v), text(v), panel(v).as_text(), panel(v, with_picture=False).as_text(), alt_text(v)]
        texts += [e.for_(seat) or "" for e in events]
        if seat is not None and seat in g.to_act():
            root = g.choices(seat, ())
            texts += [o.label + repr(o.data) for o in root.options]
            for o in root.options:
                c = g.choices(seat, (o.token,))
                texts += [c.prompt] + [x.label + repr(x.data) for x in c.options]
        blob = "\n".join(texts)
        if hidden:  # one search for all hidden cards (the same patterns as tests.playout.card_patterns)
            codes = "|".join(sorted(hidden))
            shown = "|".join(re.escape(pretty(c)) for c in sorted(hidden))
            m = re.search(rf"(?<![A-Za-z0-9])(?:{codes})(?![A-Za-z0-9])|(?<![0-9])(?:{shown})", blob)
            assert m is None, f"{m.group(0)} is hidden from {seat} but shown"


def choose_through_choices(g, seat, rng) -> str:
    """A random action built token by token from ``choices``; every option offered must lead on."""
    prefix: list[str] = []
    while True:
        c = g.choices(seat, tuple(prefix))
        if c.kind == "text":
            assert c.max_len and c.prompt and c.required
            line = f"Line {rng.randrange(1000)} by seat {seat}."
            assert g.choices(seat, (*prefix, *line.split())).complete
            return " ".join([*prefix, line])
        options = c.tokens()
        assert options or c.complete, f"dead end after {prefix}"
        if c.complete and (not options or rng.random() < 0.5):
            return " ".join(prefix)
        prefix.append(rng.choice(options))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_playouts_through_choices_no_dead_end_no_leak(options):
    import json
    import random

    for seed in seeds(25):  # 200 games in all in the long run
        rng = random.Random(seed)
        g = GAME.new(PLAYERS, options, seed=seed)
        moves = []
        while not g.is_over():
            seat = rng.choice(sorted(g.to_act()))
            if seed < 8:
                for tokens in walk_choices(g, seat):  # every complete action offered is accepted
                    g.apply(seat, " ".join(tokens))
            move = choose_through_choices(g, seat, rng)
            assert str(g.parse(seat, move)) == move  # the notation round-trips
            g, events = g.apply(seat, move)
            moves.append((seat, move))
            invariant(g)
            if seed < 3:
                assert_no_leak(g, events)
                assert GAME.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()
        check_finished(g, options)
        replayed = GAME.new(PLAYERS, options, seed=seed)
        for seat, move in moves:
            replayed, _ = replayed.apply(seat, move)
        assert replayed.to_json() == g.to_json()


def test_built_in_player_ignores_the_face_down_order():
    """Re-dealing the cards nobody can see (own piles' order) changes neither the choices nor the
    built-in player's action."""
    import random

    for seed in range(20):
        rng = random.Random(seed)
        g = GAME.new(PLAYERS, ("Free Choice",) if seed % 2 else (), seed=seed)
        while not g.is_over():
            seat = min(g.to_act())
            other = g.copy()
            for pile in other.own:
                random.Random(seed).shuffle(pile)
            assert other.view(seat) == g.view(seat)
            assert other.choices(seat, ()) == g.choices(seat, ())
            state = rng.getstate()
            a = auto_move(g, seat, rng)
            rng2 = random.Random()
            rng2.setstate(state)
            assert auto_move(other, seat, rng2) == a
            g, _ = g.apply(seat, a)
