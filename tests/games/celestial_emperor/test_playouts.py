"""Warriors of the Celestial Emperor: many seeded playouts, invariants, no leaks, determinism.

Playouts are driven only through ``choices`` (every offered token must lead to a legal action).
The leak test runs at every step in one pass per recipient (all card names found in the text,
intersected with the cards outside ``known``; same patterns as tests.playout.card_patterns),
over the view with its recent log, the renders, the events and every offered label, plus
random forfeits. Re-dealing the cards a seat cannot see changes nothing it is offered.
"""

from __future__ import annotations

from bot.engine.words import decode

import dataclasses
import json
import random
import re

import pytest

from bot.engine.celestial_emperor import GAME as G, LENIENT, SEAT_ORDER, STRICT, CelestialEmperorGame, auto_move
from bot.render.celestial_emperor import alt_text, hand_text, panel, text
from tests.conftest import LONG_TESTS, seeds
from tests.games.copies import assert_copy_is_the_cores

RENDERERS = [text, lambda v: panel(v).as_text(), lambda v: panel(v, with_picture=False).as_text(), hand_text,
             alt_text]
# Same matches as tests.playout.card_patterns, found in one pass: a pattern that starts with a
# character set lets the regex engine skip ahead; the boundaries are checked by hand.
CODE = re.compile(r"[2-9TJQKA][SHDC]")
SUIT_SYMBOLS = re.compile(r"[♠♥♦♣]")
SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
ALNUM = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
DIGITS = set("0123456789")


def named_cards(blob: str) -> set[str]:
    found = set()
    for m in CODE.finditer(blob):
        i, j = m.span()
        if (i == 0 or blob[i - 1] not in ALNUM) and (j == len(blob) or blob[j] not in ALNUM):
            found.add(m.group())
    for m in SUIT_SYMBOLS.finditer(blob):
        i = m.start()
        if i >= 2 and blob[i - 2:i] == "10" and (i == 2 or blob[i - 3] not in DIGITS):
            found.add("T" + SYMBOL[m.group()])
        if i >= 1 and blob[i - 1] in "23456789JQKA" and (i == 1 or blob[i - 2] not in DIGITS):
            found.add(blob[i - 1] + SYMBOL[m.group()])
    return found


_ENTRY_CACHE: dict[str, set[str]] = {}  # keyed by the entry's raw text (stricter than JSON)


def story_cards(story: list[dict]) -> set[str]:
    """Card names in story entries (memoised: entries never change once told)."""
    found: set[str] = set()
    for e in story:
        key = f"{e.seat}\n{e.kind}\n{e.text}"
        if key not in _ENTRY_CACHE:
            _ENTRY_CACHE[key] = named_cards(key)
        found |= _ENTRY_CACHE[key]
    return found


def hidden(game: CelestialEmperorGame, seat) -> set[str]:
    return set(game.all_cards()) - game.known(seat)


def view_text(view) -> str:
    """The view without its story (checked apart, memoised), as text."""
    return repr(dataclasses.replace(view, story=()))


def offered_text(game: CelestialEmperorGame, seat: int) -> str:
    """Every label and datum ``seat`` is offered now, two steps deep, and its prompts."""
    out = []
    first = game.choices(seat, ())
    out.append(first.prompt)
    for o in first.options:
        out += [o.label, str(o.data)]
        nxt = game.choices(seat, (o.token,))
        out.append(nxt.prompt)
        out += [f"{p.token} {p.label} {p.data}" for p in nxt.options]
    return "\n".join(out)


def fast_no_leak(game: CelestialEmperorGame, events=(), seat_renders: bool = True) -> None:
    """No view (its recent log included), render, event text or offered choice names a card the
    recipient may not know (``known``). Renders see only the view, so they cannot show a card
    the view lacks: the public renders are checked at every step, the seats' renders when
    ``seat_renders``."""
    for seat in [None, *range(len(game.players))]:
        secret = hidden(game, seat)
        view = game.view(seat)
        texts = [view_text(view)]
        if seat is None or seat_renders:
            texts += [r(view) for r in RENDERERS]
        if seat is not None:
            texts.append(offered_text(game, seat))
        texts += [t for t in (e.for_(seat) for e in events) if t]
        leaked = (named_cards("\n".join(texts)) | story_cards(view.story)) & secret
        assert not leaked, f"{leaked} hidden from seat {seat} but shown"


def invariant(g: CelestialEmperorGame) -> None:
    n = len(g.players)
    cards = [c for h in g.hands for c in h] + [c for t in g.tricks for c in t] + g.tie_pile + g.out
    cards += [c for c in g.committed if c] + [c for c in g.finals if c]
    assert len(cards) == len(set(cards)) == 13 * n
    assert set(cards) == set(g.all_cards())
    assert len(g.tie_pile) % 2 == 0
    for s in range(n):
        if s in g.forfeited:
            if g.scoring is None:  # before the scoring a leaver's cards are all out
                assert not g.hands[s] and not g.tricks[s] and g.finals[s] is None
            continue
        wins2 = len(g.tricks[s]) - g.T[s]  # duels won (a duel in progress may add one card)
        assert 0 <= wins2 <= g.T[s] + 1
        assert g.finals[s] is None or not g.hands[s]
        assert len(g.hands[s]) + (g.finals[s] is not None) + (g.committed[s] is not None) >= 1 or \
            s in g.forfeited
    # Sound secrecy, checked independently of known's own reasoning.
    d = g.duel
    for seat in [None, *range(n)]:
        secret = hidden(g, seat)
        mine = set(g.put_in[seat]) if seat is not None else set()
        for w in range(n):
            assert set(g.tricks[w]) - mine <= secret
            if w == seat:
                continue
            if g.committed[w] and not (d and d["revealed"]):
                assert g.committed[w] in secret
            if g.finals[w] and not g.finals_revealed:
                assert g.finals[w] in secret
            received = set()
            if d and d["exchanged"] and w not in d["trick_done"]:
                received = {d["atk_card"] if w == d["def"] else d["def_card"]}
            assert set(g.hands[w]) - received - mine <= secret
        assert set(g.out) - mine - set(g.hands[seat] if seat is not None else []) <= secret


def choose_random(game: CelestialEmperorGame, seat: int, rng: random.Random) -> str:
    """A random complete action, built token by token from ``choices`` alone."""
    tokens: tuple[str, ...] = ()
    while True:
        c = game.choices(seat, tokens)
        if c.kind == "text":
            words = "" if not c.required and rng.random() < 0.3 else f"A line from seat {seat}."
            tokens += (words,)
            continue
        assert c.complete or c.options, f"dead end after {tokens}"
        if c.complete and (not c.options or rng.random() < 0.5):
            return " ".join(tokens).strip()
        tokens += (rng.choice(c.options).token,)


def fast_playout(players, seed, options=(), chooser=choose_random, forfeits=0.0, leaks_every: int = 1):
    """One game: the invariant (with its own secrecy check), JSON and ``apply`` leaving its input
    alone at every step, replay at the end; the leak reading (:func:`fast_no_leak`) every
    ``leaks_every`` steps and after every forfeit (the contract suite reads every view, event
    and label of 200 games through ``choices``, a third of them with the built-in player)."""
    rng = random.Random(seed)
    game = G.new(players, options, seed=seed)
    invariant(game)
    log: list[tuple[str, int, str]] = []
    before = json.dumps(game.to_json(), sort_keys=True)
    while not game.is_over():
        assert len(log) < 2000
        if forfeits and rng.random() < forfeits:
            s = rng.choice([s for s in range(len(players)) if s not in game.forfeited])
            new, events = game.forfeit(s)
            log.append(("forfeit", s, ""))
        else:
            seat = rng.choice(sorted(game.to_act()))
            move = str(chooser(game, seat, rng))
            new, events = game.apply(seat, move)
            log.append(("move", seat, move))
        assert json.dumps(game.to_json(), sort_keys=True) == before, "apply mutated its input"
        state = new.to_json()
        before = json.dumps(state, sort_keys=True)
        assert json.dumps(G.from_json(json.loads(before)).to_json(), sort_keys=True) == before
        invariant(new)
        if len(log) % leaks_every == 0 or log[-1][0] == "forfeit":
            fast_no_leak(new, events, seat_renders=len(log) % (4 * leaks_every) == 0)
        game = new
    replay = G.new(players, options, seed=seed)
    for kind, s, move in log:
        replay, _ = replay.forfeit(s) if kind == "forfeit" else replay.apply(s, move)
    assert replay.to_json() == game.to_json()
    return game, log


OPTION_SETS = [(), (STRICT,), (LENIENT,), (SEAT_ORDER, STRICT), (LENIENT, SEAT_ORDER)]


@pytest.mark.parametrize("n,games", [(2, 12), (3, 9), (4, 6)])
def test_random_playouts(n, games):
    steps = 0
    for seed in seeds(games):
        g, log = fast_playout([f"P{i}" for i in range(n)], seed * 10 + n, OPTION_SETS[seed % 5],
                              leaks_every=1 if seed < 2 else 4)
        out = g.outcome()
        assert out is not None and len(out.winners) == 1
        assert out.details["scoring"]["winner"] == out.winners[0]
        steps += len(log)
    assert steps > (800 if LONG_TESTS else 250)  # enough steps to reach every phase (the contract suite plays more)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_auto_move_playouts(n):
    # Every option set once at every table size in the long run (a third of them otherwise, a different
    # third at each size), every seat the built-in player's (the contract suite plays 200 more through
    # choices, a third of them with a built-in seat).
    for seed in seeds(len(OPTION_SETS), first=n - 2):
        g, _ = fast_playout([f"P{i}" for i in range(n)], 1000 + seed, OPTION_SETS[seed % 5], chooser=auto_move,
                            leaks_every=1 if seed == n - 2 else 4)
        assert g.outcome() is not None


def test_playouts_with_forfeits():
    ended_by_forfeit = 0
    for seed in seeds(10):
        n = 2 + seed % 3
        g, _ = fast_playout([f"P{i}" for i in range(n)], 5000 + seed, OPTION_SETS[seed % 5], forfeits=0.02)
        out = g.outcome()
        assert out is not None and len(out.winners) == 1 and out.winners[0] not in g.forfeited or \
            g.scoring is not None
        ended_by_forfeit += out.details["reason"] == "forfeit"
    assert ended_by_forfeit > 0


def test_determinism_same_seed_same_game():
    a = fast_playout(["a", "b", "c"], 77)
    b = fast_playout(["a", "b", "c"], 77)
    assert a[1] == b[1] and a[0].to_json() == b[0].to_json()
    c = fast_playout(["a", "b", "c"], 78)
    assert c[1] != a[1]


def test_auto_move_is_deterministic_and_legal():
    g = G.new(["a", "b", "c"], seed=9)
    for _ in range(200):
        if g.is_over():
            break
        s = sorted(g.to_act())[0]
        m1, m2 = auto_move(g, s, random.Random(4)), auto_move(g, s, random.Random(4))
        assert m1 == m2
        tokens = str(m1).split(" ", 1)
        assert g.choices(s, tuple(tokens)).complete  # an action the seat is offered
        g, _ = g.apply(s, m1)
    assert g.is_over()


def test_fast_leak_checker_agrees_with_the_shared_patterns():
    from tests.playout import card_patterns

    samples = ["a 7H b", "x10♦y", "A♠", "110♣", "KA♥", "7H7H", "JK", "9C, TD.", "(QS)", "3S2"]
    for blob in samples:
        shared = {c for c in (r + s for r in "A23456789TJQK" for s in "SHDC")
                  if any(p.search(blob) for p in card_patterns(c))}
        assert named_cards(blob) == shared, blob


@pytest.mark.parametrize("players, options", [(2, []), (3, [LENIENT]), (4, [STRICT])])
def test_copy_is_the_cores_deep_copy_but_the_told_story(players, options):
    # copy() is hand-written for speed: at every step of a game it must equal the core's marshal
    # copy (_state) and share no list or dict with the original (a later move changes only the
    # copy), but the story's entries, which are never changed once told (the story only grows).
    from tests.contract.harness import random_action

    game = G.new([f"P{i + 1}" for i in range(players)], options, seed=41)
    rng = random.Random(41)
    while not game.is_over():
        twin = assert_copy_is_the_cores(game, same_core=False, shared=("story",))
        assert twin.story is not game.story and all(a is b for a, b in zip(twin.story, game.story, strict=True))
        seat = min(game.to_act())
        game, _ = game.apply(seat, random_action(game, seat, rng))
    assert game.story and game.duel_number > 1


def test_the_typed_story_follows_the_story():
    # The typed entries are carried from state to state; a story changed in place (a test's
    # position) is read afresh.
    game = G.new(["A", "B"], seed=5)
    rng = random.Random(5)
    from tests.contract.harness import random_action

    for _ in range(30):
        seat = min(game.to_act())
        game, _ = game.apply(seat, random_action(game, seat, rng))
        assert [(e.seat, e.kind, e.text) for e in game.view(None).story] == \
            [(e["seat"], e["kind"], decode(e["text"], True)) for e in game.story]  # a narrator's line: a phrase
    fresh = game.copy()
    fresh.story[-1] = {"seat": None, "kind": "setting", "text": "Elsewhere."}
    assert fresh.view(0).story[-1].text == "Elsewhere."
    fresh.story.clear()
    assert fresh.view(0).story == ()


def test_views_made_fast_are_the_objects_their_class_makes():
    # The view is made without the frozen class's __init__ (for speed): it must be the object the
    # class makes, field for field, in the same order.
    from tests.contract.harness import random_action

    game = G.new(["A", "B", "C"], seed=7)
    rng = random.Random(7)
    seen = 0
    while not game.is_over():
        for seat in (None, 0, 1, 2):
            v = game.view(seat)
            again = dataclasses.replace(v)  # made by the class's own __init__
            assert type(again) is type(v) and again == v and repr(again) == repr(v) and hash(again) == hash(v)
            assert list(vars(again)) == list(vars(v))
            seen += 1
        seat = min(game.to_act())
        game, _ = game.apply(seat, random_action(game, seat, rng))
    assert seen > 100
