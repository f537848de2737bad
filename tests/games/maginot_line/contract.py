"""Contract checks for The Maginot Line playouts: card places, JSON, replay, knowledge, re-dealing."""

from __future__ import annotations

import dataclasses
import json
import random
import re

from bot.engine.cards import pretty
from bot.engine.core import Hidden
from bot.engine.maginot_line import GAME, MaginotLine, auto_move
from bot.engine.maginot_line.model import face, is_component, value

CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK2?)@\d\b")
PRETTY = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
SYM = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def strings(obj) -> list[str]:
    """Every string inside a view (dataclasses, tuples)."""
    out: list[str] = []
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, Hidden) or x is None or isinstance(x, (int, bool)):
            continue
        elif dataclasses.is_dataclass(x):
            stack += [getattr(x, f.name) for f in dataclasses.fields(x)]
        elif isinstance(x, (tuple, list)):
            stack += list(x)
        elif isinstance(x, dict):
            stack += list(x.values())
    return out


def faces_named(text: str) -> set[str]:
    return {("T" if r == "10" else r) + SYM[s] for r, s in PRETTY.findall(text)}


def check_cards(g: MaginotLine) -> None:
    cards = g.all_cards()
    assert len(cards) == 54 * len(g.players), "a card is missing or doubled"
    assert len(set(cards)) == len(cards), "a card is in two places"


def check_view_known(g: MaginotLine, views: dict | None = None) -> None:
    """No view places a card outside known(recipient), by exact code (the repr holds every string)."""
    for seat in [None, *range(len(g.players))]:
        known = g.known(seat)
        v = views[seat] if views else g.view(seat)
        for code in set(CODE.findall(repr(v))):
            assert code in known, f"{code} in the view of {seat} but not known to it"


def check_texts(texts_by_seat: dict, known_by_seat: dict) -> None:
    """Each card face a recipient reads is the face of a card it may know (own decks share faces)."""
    for seat, texts in texts_by_seat.items():
        faces = {face(c) for c in known_by_seat[seat]}
        for t in texts:
            for f in faces_named(t):
                assert f in faces, f"{pretty(f)} named to {seat} in {t!r} but no such card is known to it"
            for code in CODE.findall(t):
                assert code in known_by_seat[seat], f"{code} named to {seat}"


def redeal(g: MaginotLine, seat: int, rng: random.Random) -> MaginotLine:
    """A state consistent with ``seat``'s view: every card it cannot see is dealt again."""
    r = g.copy()
    for q, b in enumerate(r.boards):
        if q == seat:
            rng.shuffle(b["deck"])
            continue
        pool = b["hand"] + b["deck"] + [c["card"] for c in b["building"]]
        rng.shuffle(pool)
        for c in b["building"]:
            pick = next((x for x in pool if is_component(x) and value(x) > c["markers"]), c["card"])
            pool.remove(pick) if pick in pool else None
            c["card"] = pick
        n = len(b["hand"])
        b["hand"], b["deck"] = pool[:n], pool[n:]
        hidden = [i for i, a in enumerate(b["base"]) if not a["shown"]]
        aces = [b["base"][i]["ace"] for i in hidden]
        rng.shuffle(aces)
        for i, a in zip(hidden, aces, strict=True):
            b["base"][i]["ace"] = a
    check_cards(r)
    return r


def check_redeal(g: MaginotLine, seat: int, path: tuple[str, ...], rng: random.Random) -> None:
    r = redeal(g, seat, rng)
    assert r.view(seat) == g.view(seat)
    for i in range(len(path) + 1):
        assert r.choices(seat, path[:i]) == g.choices(seat, path[:i]), f"choices differ after {path[:i]}"
    s = rng.randrange(1 << 30)
    assert str(auto_move(r, seat, random.Random(s))) == str(auto_move(g, seat, random.Random(s)))


def walk(g: MaginotLine, seat: int, rng: random.Random) -> tuple[str, ...]:
    """A uniformly random complete action through ``choices``."""
    prefix: tuple[str, ...] = ()
    while True:
        c = g.choices(seat, prefix)
        nxt = c.tokens() if c.kind == "token" else (
            [str(rng.randint(c.lo, c.hi))] if c.kind == "range" and c.hi >= c.lo else [])
        if c.complete and (not nxt or rng.random() < 1 / (len(nxt) + 1)):
            return prefix
        assert nxt, f"dead end after {prefix!r}"
        prefix += (rng.choice(nxt),)


def playout(n: int, seed: int, options=(), bots=(), forfeit_at: int | None = None, redeal_every: int = 1,
            max_moves: int = 20000, views_every: int = 1) -> tuple[MaginotLine, list]:
    """A seeded game: card places, JSON and ``apply`` leaving its input alone at every step; every
    recipient's view and texts every ``views_every`` steps and after a forfeit (the contract suite
    reads them at every step of 200 games); a re-deal every ``redeal_every`` steps; the replay."""
    rng = random.Random(seed)
    g = GAME.new([f"P{i}" for i in range(n)], list(options), seed=seed)
    record: list = []
    check_cards(g)
    while not g.is_over():
        assert len(record) < max_moves, "no end"
        if forfeit_at is not None and len(record) == forfeit_at:
            who = rng.choice([s for s, b in enumerate(g.boards) if not b["out"]])
            before = {s: g.known(s) for s in [None, *range(n)]}
            g, events = g.forfeit(who)
            record.append(("forfeit", who))
            _after(g, events, before, views=True)
            continue
        d = rng.choice(g.decisions())
        seat = d.seat
        if seat in bots:
            action = auto_move(g, seat, rng)
            path = tuple(str(action).split())
        else:
            path = walk(g, seat, rng)
            action = g.parse(seat, " ".join(path))
        assert str(g.parse(seat, str(action))) == str(action), "notation does not round-trip"
        if redeal_every and len(record) % redeal_every == 0:
            check_redeal(g, seat, path if seat not in bots else (), rng)
        before = {s: g.known(s) for s in [None, *range(n)]}
        frozen = json.dumps(g.to_json(), sort_keys=True)
        new, events = g.apply(seat, action)
        assert json.dumps(g.to_json(), sort_keys=True) == frozen, "apply mutated its input"
        _after(new, events, before, views=len(record) % views_every == 0)
        g = new
        record.append((seat, str(action)))
    replay = GAME.new([f"P{i}" for i in range(n)], list(options), seed=seed)
    for seat, move in record:
        replay, _ = replay.forfeit(move) if seat == "forfeit" else replay.apply(seat, move)
    assert replay.to_json() == g.to_json(), "replay differs"
    return g, record


def _after(g: MaginotLine, events, before: dict, views: bool = True) -> None:
    check_cards(g)
    data = json.loads(json.dumps(g.to_json()))
    assert GAME.from_json(data).to_json() == g.to_json(), "JSON round trip differs"
    if not views:
        return
    seats = [None, *range(len(g.players))]
    views = {s: g.view(s) for s in seats}
    check_view_known(g, views)
    known = {s: before[s] | g.known(s) for s in seats}
    texts = {s: [e.for_(s) for e in events if e.for_(s)] + list(views[s].recent[-4:]) for s in seats}
    check_texts(texts, known)
