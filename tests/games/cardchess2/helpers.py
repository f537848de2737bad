"""Helpers for the Cardchess2 tests: positions from a few words, a random walk through
``choices``, the contract checks (invariants, round trip, no leak, re-deal)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence

from bot.engine import cards
from bot.engine.cardchess2 import GAME, auto_move
from bot.engine.cardchess2.rules import Cardchess2
from bot.engine.core import Game, subsets

PLAYERS = ["Sam", "Nia"]  # seat 0 and seat 1


def position(south: str = "", north: str = "", *, to_act: str = "S", options: Sequence[str] = (),
             hands: tuple[Sequence[str], Sequence[str]] = ((), ()), out: Sequence[str] = (), turns: int = 5,
             seed: int = 1) -> Cardchess2:
    """A game in mid-play: seat 0 is South. ``south``/``north`` list ``CARD CELL`` pairs like
    ``"TH d2 QD* d1"`` (``*``: face down). Every other card is in the deck (or ``out``)."""
    g = GAME.new(PLAYERS, list(options), seed=seed)
    assert isinstance(g, Cardchess2)
    g.south = 0
    g.board = {}
    placed: list[str] = []
    for seat, spec in ((0, south), (1, north)):
        toks = spec.split()
        for code, cell in zip(toks[::2], toks[1::2], strict=True):
            up = not code.endswith("*")
            code = code.rstrip("*")
            g.board[cell] = [seat, code, up]
            placed.append(code)
    g.hands = [list(hands[0]), list(hands[1])]
    placed += g.hands[0] + g.hands[1] + list(out)
    g.out = list(out)
    g.out_shown = []
    if g.opts.own_decks:
        g.decks = [[c for c in g.all_cards() if c not in placed and c.endswith(f"@{s}")] for s in (0, 1)]
    else:
        g.decks = [[c for c in cards.deck(0) if c not in placed]]
    g.ordered = [True, True]
    g.phase = "turn"
    g.current = 0 if to_act == "S" else 1
    g.turns = turns
    g.passes = 0
    g.history = [g._digest()]
    g.journal = []
    g.__dict__.pop("_memo", None)
    return g


def choose_random(game: Game, seat: int, rng: random.Random, trail: list | None = None) -> str:
    """A uniformly random walk through ``choices`` (stopping is one more option when complete)."""
    tokens: list[str] = []
    while True:
        c = game.choices(seat, tuple(tokens))
        if trail is not None:
            trail.append((tuple(tokens), c))
        opts: list[str | None] = list(c.tokens())
        if c.kind == "set":
            opts = [",".join(s) for s in subsets(c.tokens(), c.lo, c.hi)]
        if c.complete:
            opts.append(None)
        assert opts, f"dead end after {tokens}"
        t = rng.choice(opts)
        if t is None:
            return " ".join(tokens)
        tokens.append(t)


def invariant(g: Cardchess2) -> None:
    """Every card in exactly one place; windows and phases agree."""
    seen = [v[1] for v in g.board.values()] + g.out + [c for h in g.hands for c in h]
    seen += [c for d in g.decks for c in d]
    full = g.all_cards()
    assert Counter(seen) == Counter(full), (Counter(seen) - Counter(full), Counter(full) - Counter(seen))
    assert set(g.out_shown) <= set(g.out)
    assert (g.attack is not None) == (g.phase in ("enforce", "reinforce"))
    assert all(v[0] in (0, 1) for v in g.board.values())
    if g.phase == "over":
        assert g.outcome() is not None and not g.decisions()
    else:
        assert g.decisions()


def blob(obj) -> str:
    """Everything a view holds, as text (its repr names every field, recursively)."""
    return repr(obj)


_CODE = re.compile(r"(?<![A-Za-z0-9@])([2-9TJQKA][SHDC])(?![A-Za-z0-9])")
_PRETTY = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
_SUIT = {v: k for k, v in cards.SUIT_SYMBOL.items()}


def named(text: str) -> set[str]:
    """Every card (base code) that ``text`` names, as a code (``7H``) or pretty (``7♥``)."""
    out = {m.group(1) for m in _CODE.finditer(text)}
    out |= {("T" if m.group(1) == "10" else m.group(1)) + _SUIT[m.group(2)] for m in _PRETTY.finditer(text)}
    return out


def leaks(text: str, g: Cardchess2, seat: int | None, also_known: frozenset[str] = frozenset()) -> list[str]:
    """The cards ``text`` names that ``seat`` may not place (own-deck twins count as known)."""
    names = named(text)
    if not names:
        return []
    known = g.known(seat) | also_known
    if g.opts.own_decks:
        known = frozenset(cards.base_code(c) for c in known)
    return sorted(names - known)


def redeal(g: Cardchess2, seat: int, rng: random.Random) -> Cardchess2:
    """A state that ``seat``'s view cannot tell apart: every card it cannot see, shuffled."""
    new = g.copy()
    assert isinstance(new, Cardchess2)
    known = g.known(seat)
    slots: list[tuple[str, object]] = []
    for cell, v in new.board.items():
        if v[1] not in known:
            slots.append(("board", cell))
    for s in (0, 1):
        for i, c in enumerate(new.hands[s]):
            if c not in known:
                slots.append(("hand", (s, i)))
    for d, deck in enumerate(new.decks):
        for i in range(len(deck)):
            slots.append(("deck", (d, i)))
    for i, c in enumerate(new.out):
        if c not in known:
            slots.append(("out", i))

    def get(slot):
        kind, ref = slot
        if kind == "board":
            return new.board[ref][1]
        if kind == "hand":
            return new.hands[ref[0]][ref[1]]
        if kind == "deck":
            return new.decks[ref[0]][ref[1]]
        return new.out[ref]

    def put(slot, code):
        kind, ref = slot
        if kind == "board":
            new.board[ref][1] = code
        elif kind == "hand":
            new.hands[ref[0]][ref[1]] = code
        elif kind == "deck":
            new.decks[ref[0]][ref[1]] = code
        else:
            new.out[ref] = code

    codes = [get(s) for s in slots]
    rng.shuffle(codes)
    mapping = {}
    for s, c in zip(slots, codes, strict=True):
        mapping[get(s)] = c
        put(s, c)
    for s in (0, 1):
        if s != seat:
            new.dealt[s] = [mapping.get(c, c) for c in new.dealt[s]]
    if new.attack is not None:
        assert new.attack["card"] in known
    new.__dict__.pop("_memo", None)
    return new


def view_text(view) -> str:
    """Every card a view names, read through its typed fields (fast), plus its texts."""
    parts = [b.card for b in view.board if isinstance(b.card, str)] + list(view.hand)
    if view.attack is not None:
        a = view.attack
        parts += [a.target_card] + [x.card for x in a.strikers] + [e.card for e in a.enforcers]
    parts += list(view.recent) + [view.result] + [d.prompt + " " + str(d.default) for d in view.deciding]
    return "\n".join(parts)


def check_step(g: Cardchess2, new: Cardchess2, seat: int, action: str, events, full: bool = True) -> None:
    """The contract after one applied action (``full``: views checked through their whole repr,
    else through their typed fields)."""
    invariant(new)
    data = json.loads(json.dumps(new.to_json()))
    again = GAME.from_json(data)
    assert again.to_json() == new.to_json()
    shown = {c for e in events for c in e.reveals}  # cards everyone saw during this action, as it happened
    for r in (None, 0, 1):
        view = new.view(r)
        text = blob(view) if full else view_text(view)
        found = leaks(text, new, r)
        assert not found, f"{found} leak to {r} in the view: {text[:2000]}"
        text = "\n".join(t for e in events if (t := e.for_(r)))
        found = leaks(text, new, r, g.known(r) | frozenset(shown))
        assert not found, f"{found} leak to {r} in the events: {text[:2000]}"


def play(seed: int, options: Sequence[str] = (), chooser=None, checks: bool = True, redeal_every: int = 20,
         max_moves: int = 5000) -> tuple[Cardchess2, list[tuple[int, str]]]:
    """A seeded playout through ``choices`` with the contract checked at every step."""
    rng = random.Random(seed)
    g = GAME.new(PLAYERS, list(options), seed=seed)
    record: list[tuple[int, str]] = []
    if checks:
        invariant(g)
    step = 0
    while not g.is_over():
        assert len(record) < max_moves
        seat = rng.choice(sorted(g.to_act()))
        trail: list = []
        if chooser is None:
            move = choose_random(g, seat, rng, trail if checks else None)
        else:
            move = str(chooser(g, seat, rng))
        deep = checks and step % redeal_every == 0
        before = g.to_json() if deep else None
        new, events = g.apply(seat, move)
        if checks:
            if deep:
                assert g.to_json() == before, "apply mutated its input"
            check_step(g, new, seat, move, events, full=deep)
            offered = "\n".join(f"{o.label} {o.token} {o.data!r} {c.prompt} {c.progress}"
                                 for _prefix, c in trail for o in c.options)
            assert not leaks(offered, g, seat), offered
            if deep:
                other = redeal(g, seat, random.Random(seed * 31 + step))
                assert other.view(seat) == g.view(seat)
                for prefix, c in trail:
                    assert other.choices(seat, prefix) == c, prefix
                assert str(auto_move(other, seat, random.Random(step))) == str(auto_move(g, seat, random.Random(step)))
        record.append((seat, move))
        g = new
        step += 1
    if checks:
        replay = GAME.new(PLAYERS, list(options), seed=seed)
        for seat, move in record:
            replay, _ = replay.apply(seat, move)
        assert replay.to_json() == g.to_json()
    return g, record
