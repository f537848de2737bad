"""The contract harness: random playouts driven only through ``choices``, with every step checked.

Used by ``test_contract.py`` against every registered game. A game joins these checks the day
it is registered: nothing here knows a rule.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import Card
from bot.engine.core import Choices, Game, IllegalMove
from bot.engine.registry import GameSpec
from bot.records import make_record, replay

# Card names as a recipient could read them: codes (7H, TD, JK, 8H@1) and pretty (7♥, 10♦).
_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC](?:@\d)?|JK\d?(?:@\d)?)(?![A-Za-z0-9])")
_PRETTY = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

COUNTS: Counter = Counter()
QUITTING = {"resign", "concede", "forfeit", "leave"}  # figures for the report (playouts, steps, leak checks)


def faces(cards: frozenset[str]) -> set[str]:
    """``8H@1`` → ``8H``: what a pretty name can tell apart."""
    return {c.partition("@")[0] for c in cards}


_ANY = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC](?:@\d)?|JK\d?(?:@\d)?)(?![A-Za-z0-9])"
                  r"|(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


@functools.lru_cache(maxsize=8192)
def named_cards(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(codes, faces) named in ``text`` (one pass; views repeat, so results are cached)."""
    codes, pretty = set(), set()
    for code, rank, suit in _ANY.findall(text):
        if code:
            codes.add(code)
        else:
            pretty.add(("T" if rank == "10" else rank) + _SUIT[suit])
    return frozenset(codes), frozenset(pretty)


def view_text(x: Any, out: list[str] | None = None) -> str:
    """Every string a typed view carries (card codes included), joined: what a recipient could
    be shown. Faster than repr() and blind to field names."""
    top = out is None
    out = [] if out is None else out
    if isinstance(x, str):
        out.append(x)
    elif isinstance(x, Card):
        out.append(x.code)
    elif isinstance(x, (tuple, list, set, frozenset)):
        for v in x:
            view_text(v, out)
    elif isinstance(x, dict):
        for k, v in x.items():
            view_text(k, out)
            view_text(v, out)
    elif hasattr(x, "__dataclass_fields__"):
        for name in x.__dataclass_fields__:
            view_text(getattr(x, name), out)
    return " | ".join(out) if top else ""


class Knowledge:
    """What one recipient may know now, ready for fast checks."""

    def __init__(self, known: frozenset[str], all_cards: frozenset[str], all_faces: frozenset[str]):
        self.known, self.all_cards, self.all_faces = known, all_cards, all_faces
        self.known_faces = faces(known)

    def with_(self, extra: frozenset[str]) -> "Knowledge":
        return Knowledge(self.known | extra, self.all_cards, self.all_faces) if extra else self


def assert_no_leak(text: str, k: Knowledge, what: str) -> None:
    codes, pretty = named_cards(text)
    leaked = (codes & k.all_cards) - k.known  # only strings that really are cards of this game
    assert not leaked, f"{what} names {sorted(leaked)} which it may not know"
    leaked_faces = (pretty & k.all_faces) - k.known_faces
    assert not leaked_faces, f"{what} names {sorted(leaked_faces)} which it may not know"


def card_universe(game: Game) -> frozenset[str]:
    """Every card code that appears anywhere in the state (the game's cards)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if _CODE.fullmatch(x):
                found.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    state = game.to_json()["state"]
    walk({k: v for k, v in state.items() if k != "journal"})
    return frozenset(found)


def redeal(game: Game, seat: int | None, rng: random.Random, universe: frozenset[str]) -> Game:
    """A state the seat cannot tell apart from ``game``: the cards it may not know, permuted
    among their places. Only card codes move; everything the seat sees stays put."""
    unknown = sorted(universe - game.known(seat))
    if len(unknown) < 2:
        return game
    shuffled = unknown[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(unknown, shuffled, strict=True))

    def sub(x: Any) -> Any:
        if isinstance(x, str):
            return mapping.get(x, x)
        if isinstance(x, dict):
            return {k: sub(v) for k, v in x.items()}
        if isinstance(x, list):
            return [sub(v) for v in x]
        return x

    data = game.to_json()
    state = data["state"]
    data = {**data, "state": {k: (v if k == "journal" else sub(v)) for k, v in state.items()}}
    return type(game).from_json(json.loads(json.dumps(data)))


def candidates(c: Choices, rng: random.Random) -> list[str]:
    if c.kind == "token":
        return c.tokens()
    if c.kind == "range":
        return [str(rng.randint(c.lo, c.hi))] if c.hi >= c.lo else []
    if c.kind == "set":
        toks = c.tokens()
        hi = min(c.hi, len(toks))
        if hi < c.lo:
            return []
        k = rng.randint(c.lo, hi)
        return [",".join(sorted(rng.sample(toks, k), key=toks.index))]
    if c.kind == "text":
        words = ["the", "knight", "rode", "north", "and", "sang", "a", "song"]
        n = rng.randint(1 if c.required else 0, 6)
        text = " ".join(rng.choice(words) for _ in range(n))
        return [text[: c.max_len or 200] or "quiet"]
    return []


def random_action(game: Game, seat: int, rng: random.Random) -> str:
    """Walk ``choices`` to a complete action, a random option each step. A dead end fails."""
    tokens: tuple[str, ...] = ()
    for _ in range(200):
        c = game.choices(seat, tokens)
        nxt = candidates(c, rng)
        if c.complete and tokens and (not nxt or rng.random() < 0.25):
            return " ".join(tokens)
        assert nxt, f"dead end in choices after {tokens!r}: {c}"
        # Giving up (resign, concede, a "danger" option) is offered but rarely taken, so random
        # games last long enough to reach every part of the rules.
        quitting = {o.token for o in c.options if o.style == "danger" or o.token in QUITTING}
        keep = [t for t in nxt if t not in quitting]
        if keep and (len(keep) < len(nxt)) and rng.random() > 0.01:
            nxt = keep
        tokens += (rng.choice(nxt),)
    raise AssertionError(f"choices never completed: {tokens!r}")


@dataclass
class Playout:
    spec: GameSpec
    players: int
    seed: int
    check_redeal: bool = True
    max_steps: int = 20000
    options: tuple[str, ...] = ()
    bot_seat: int | None = None  # a seat played by the built-in player (its actions checked too)
    moves: list[list[Any]] = field(default_factory=list)
    ever: dict[Any, set[str]] = field(default_factory=dict)  # cards each recipient has known

    def names(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.players)]

    def run(self) -> Game:
        rng = random.Random(self.seed)
        spec = self.spec
        game = spec.state.new(self.names(), self.options, seed=self.seed)
        assert game.to_json() == spec.state.new(self.names(), self.options, seed=self.seed).to_json(), \
            "not deterministic"
        universe = card_universe(game)
        states = [game.to_json()]
        self.check_step(game, [], universe, rng)
        steps = 0
        while not game.is_over():
            steps += 1
            assert steps <= self.max_steps, f"no end after {self.max_steps} actions"
            deciding = game.decisions()
            assert deciding, "a game that is not over has someone to act"
            seat = rng.choice(sorted({d.seat for d in deciding}))
            if rng.random() < 0.05:
                self.check_refusals(game, seat, rng)
            if seat == self.bot_seat:
                action = str(spec.player(game, seat, random.Random(rng.random())))
            else:
                action = random_action(game, seat, rng)
            try:
                new, events = game.apply(seat, action)
            except IllegalMove as e:
                raise AssertionError(f"choices offered {action!r} but apply refused it: {e}") from None
            parsed = game.parse(seat, action)
            assert str(parsed) == " ".join(action.split()) or parsed == game.parse(seat, str(parsed)), \
                f"notation does not round-trip: {action!r} -> {str(parsed)!r}"
            self.moves.append([seat, action])
            game = new
            data = game.to_json()
            text = json.dumps(data, sort_keys=True)
            again = type(game).from_json(json.loads(text))
            assert json.dumps(again.to_json(), sort_keys=True) == text, "JSON round trip changed the state"
            states.append(data)
            self.check_step(game, events, universe, rng)
        COUNTS["playouts"] += 1
        # Replay reproduces every state.
        record = make_record(game, self.moves)
        replayed = spec.state.new(self.names(), self.options, seed=self.seed)
        assert replayed.to_json() == states[0]
        for i, (seat, move) in enumerate(self.moves, start=1):
            replayed, _ = replayed.apply(seat, move)
            assert replayed.to_json() == states[i], f"replay differs at action {i}"
        assert replay(record).to_json() == game.to_json()
        return game

    def check_step(self, game: Game, events: list[Any], universe: frozenset[str], rng: random.Random) -> None:
        COUNTS["steps"] += 1
        all_faces = frozenset(faces(universe))
        for r in [None, *range(self.players)]:
            known = game.known(r)
            k = Knowledge(known, universe, all_faces)
            view = game.view(r)
            # Where cards are now: the view, less its log of what happened.
            assert_no_leak(view_text(dataclasses.replace(view, recent=())), k, f"the view of {r}")
            ever = self.ever.setdefault(r, set())
            ever.update(known)
            for e in events:
                text = e.for_(r)
                if text:
                    # An event is read as it happens: what was revealed then counts as known then.
                    assert_no_leak(text, k.with_(e_revealed(e)), f"an event for {r}")
                    ever.update(e_revealed(e))
            # The log tells history: it may name a card the recipient once knew (a discard later
            # shuffled away), never one it never knew. Games whose history becomes secret (a card
            # chosen into a hidden trick) redact their log themselves, and test it.
            assert_no_leak(" ".join(view.recent), Knowledge(frozenset(ever), universe, all_faces),
                           f"the log of {r}")
            if r is not None and r in game.to_act():
                c = game.choices(r, ())
                labels = " ".join(f"{o.token} {o.label}" for o in c.options) + " " + c.prompt
                assert_no_leak(labels, k, f"the choices of {r}")
            COUNTS["leak checks"] += 1
        if self.check_redeal:
            for d in game.decisions():
                self.check_redeal_of(game, d.seat, universe, rng)

    def check_redeal_of(self, game: Game, seat: int, universe: frozenset[str], rng: random.Random) -> None:
        other = redeal(game, seat, random.Random(rng.random()), universe)
        if other is game:
            return
        assert repr(other.view(seat)) == repr(game.view(seat)), "the seat's view changed when unseen cards moved"
        a, b = game.choices(seat, ()), other.choices(seat, ())
        assert a == b, "choices changed when cards the seat cannot see were re-dealt"
        pick = random.Random(7)
        mine = str(self.spec.player(game, seat, random.Random(11)))
        theirs = str(self.spec.player(other, seat, random.Random(11)))
        assert mine == theirs, f"the built-in player peeked: {mine!r} vs {theirs!r}"
        del pick
        COUNTS["re-deals"] += 1

    def check_refusals(self, game: Game, seat: int, rng: random.Random) -> None:
        before = json.dumps(game.to_json(), sort_keys=True)
        action = random_action(game, seat, random.Random(rng.random()))
        idle = [s for s in range(self.players) if s not in game.to_act()]
        bad_inputs = [(seat, "✗ not a move ✗"), (seat, "x" * 5000), (seat, "!forfeit"), (seat, "")]
        if idle:
            bad_inputs.append((idle[0], action))
        bad_inputs.append((self.players + 3, action))
        for who, text in bad_inputs:
            try:
                game.apply(who, text)
            except IllegalMove as e:
                assert str(e) and len(str(e)) < 500, "a refusal is one short sentence"
            else:
                raise AssertionError(f"{text[:40]!r} by seat {who} was accepted")
        assert json.dumps(game.to_json(), sort_keys=True) == before, "a refusal changed the state"
        COUNTS["refusal checks"] += 1


def e_revealed(event: Any) -> frozenset[str]:
    """Cards an event reveals as it happens (its typed payload may list them)."""
    data = getattr(event, "data", None)
    if isinstance(data, dict):
        data = data.get("revealed")
    if isinstance(data, str):
        data = [data]
    if isinstance(data, (list, tuple, set, frozenset)):
        return frozenset(c for c in data if isinstance(c, str) and _CODE.fullmatch(c))
    return frozenset()
