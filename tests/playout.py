"""Shared random-playout harness: every game's tests run it (TESTING.md, points 2 and 3)."""

from __future__ import annotations

import json
import random
import re
from typing import Callable, Iterable, Sequence

from bot.engine.base import Game
from bot.engine.cards import pretty

Renderer = Callable[[dict], str]


def card_patterns(card: str) -> list[re.Pattern[str]]:
    """Ways a card could be written in a view or a render."""
    pats = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])")]
    if not card.startswith("JK"):
        pats.append(re.compile(rf"(?<![0-9]){re.escape(pretty(card))}"))
    return pats


def assert_no_leak(game: Game, renderers: Sequence[Renderer] = (), events: Iterable = ()) -> None:
    """No seat's view, renders or visible events name a card hidden from that seat."""
    seats: list[int | None] = [None, *range(len(game.players))]
    events = list(events)
    for seat in seats:
        hidden = game.hidden_cards(seat)
        if not hidden:
            continue
        view = game.view(seat)
        texts = [json.dumps(view, ensure_ascii=False)]
        texts += [r(view) for r in renderers]
        texts += [e.text for e in events if e.visible_to(seat)]
        blob = "\n".join(texts)
        for card in hidden:
            for pat in card_patterns(card):
                m = pat.search(blob)
                assert m is None, f"{card} is hidden from seat {seat} but shows: …{blob[max(0, m.start()-60):m.end()+60]}…"


def choose_random(game: Game, seat: int, rng: random.Random) -> str:
    moves = list(game.legal_moves(seat))
    for p in game.prompts(seat):
        moves.append(f"{p.verb} A line from seat {seat}.")
        if p.skip:
            moves.append(p.skip)
    assert moves, f"seat {seat} must act but has no move"
    return rng.choice(moves)


def playout(
    cls: type[Game],
    players: Sequence[str],
    seed: int,
    options: Sequence[str] = (),
    chooser: Callable[[Game, int, random.Random], str] = choose_random,
    invariant: Callable[[Game], None] | None = None,
    renderers: Sequence[Renderer] = (),
    max_moves: int = 10_000,
    check_every_step: bool = True,
) -> tuple[Game, list[tuple[int, str]]]:
    """Play one game with ``chooser``, checking the contract at every step.

    Checks: ``apply`` never mutates its input; JSON round-trips exactly; the invariant
    holds; nothing hidden leaks; at the end, replaying the moves from the seed gives
    the same final state.
    """
    rng = random.Random(seed)
    game = cls.new(players, options, seed=seed)
    moves: list[tuple[int, str]] = []
    if invariant:
        invariant(game)
    while not game.is_over():
        assert len(moves) < max_moves, f"no end after {max_moves} moves (seed {seed})"
        actors = sorted(game.to_act())
        assert actors, "nobody to act in an unfinished game"
        seat = rng.choice(actors)
        move = chooser(game, seat, rng)
        before = json.dumps(game.to_json(), sort_keys=True) if check_every_step else ""
        new, events = game.apply(seat, move)
        if check_every_step:
            assert json.dumps(game.to_json(), sort_keys=True) == before, "apply mutated its input"
            data = json.loads(json.dumps(new.to_json()))
            assert cls.from_json(data).to_json() == new.to_json(), "JSON round-trip differs"
            if invariant:
                invariant(new)
            assert_no_leak(new, renderers, events)
        game = new
        moves.append((seat, move))
    assert game.outcome() is not None
    replayed = cls.new(players, options, seed=seed)
    for seat, move in moves:
        replayed, _ = replayed.apply(seat, move)
    assert replayed.to_json() == game.to_json(), "replay differs from the game"
    return game, moves
