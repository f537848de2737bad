"""A per-game random-playout harness (with the game's own invariant and renderers); the
contract suite (tests/contract/) runs the same checks over every registered game."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable, Iterable, Sequence

from bot.engine.cards import pretty
from bot.engine.core import Game

Renderer = Callable[[object], str]


def renderers(module: Any) -> tuple[Renderer, ...]:
    """What a game's render ``module`` shows a reader, as text: the text render, the panel with
    and without its picture, and the picture's alt text."""
    return (module.text, lambda v: module.panel(v).as_text(),
            lambda v: module.panel(v, with_picture=False).as_text(), module.alt_text)


def card_patterns(card: str) -> list[re.Pattern[str]]:
    """Ways a card could be written in a view or a render."""
    pats = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])")]
    if not card.startswith("JK"):
        pats.append(re.compile(rf"(?<![0-9]){re.escape(pretty(card))}"))
    return pats


_NAMED_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC]|JK2?)(?![A-Za-z0-9])")
_NAMED_FACE = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
_SIMPLE = re.compile(r"[2-9TJQKA][SHDC]|JK2?")
_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def named(blob: str) -> set[str]:
    """The card codes ``blob`` names, written as codes or as faces (one pass each). A face
    (``10♦``) stands for its code (``TD``); :func:`card_patterns` finds exactly these."""
    found = set(_NAMED_CODE.findall(blob))
    found.update(("T" if r == "10" else r) + _LETTER[s] for r, s in _NAMED_FACE.findall(blob))
    return found


def assert_no_leak(game: Game, renderers: Sequence[Renderer] = (), events: Iterable = (),
                   ever: dict[int | None, set[str]] | None = None) -> None:
    """No seat's view (less its log) or renders of it name a card outside ``known`` for that seat;
    no event names one but those it shows as it happens (``reveals``); nor does the log. ``ever``
    (for a game whose log tells history, as a discard later shuffled away): the cards each seat has
    known so far, kept by the caller from step to step, which its log may name; without it the log
    names only what the seat knows now (a game that forgets redacts its log)."""
    import dataclasses

    from tests.contract.harness import view_strings

    seats: list[int | None] = [None, *range(len(game.players))]
    events = list(events)
    everything = {c for s in seats for c in game.known(s)} | set(_cards_in(game.to_json()["state"]))
    for seat in seats:
        known = set(game.known(seat))
        seen = ever.setdefault(seat, set()) if ever is not None else set()
        seen |= known
        for e in events:
            seen |= set(e.reveals)
        hidden = everything - known
        if not hidden:
            continue
        view = game.view(seat)
        bare = dataclasses.replace(view, recent=())
        texts = sorted(view_strings(bare)) + [r(bare) for r in renderers]
        _none_named("\n".join(texts), hidden, f"seat {seat}'s view")
        for e in events:
            text = e.for_(seat)
            if text:
                _none_named(text, hidden - set(e.reveals), f"an event for seat {seat}")
        _none_named("\n".join(view.recent), everything - seen, f"seat {seat}'s log")


def _none_named(blob: str, hidden: set[str], what: str) -> None:
    found = named(blob)
    for card in hidden:
        if _SIMPLE.fullmatch(card) and card not in found:
            continue  # named neither as a code nor as a face
        for pat in card_patterns(card):
            m = pat.search(blob)
            assert m is None, f"{card} is hidden from {what} but shows: …{blob[max(0, m.start()-60):m.end()+60]}…"


def _cards_in(x: object) -> list[str]:
    if isinstance(x, str):
        return [x] if _CODE.fullmatch(x) else []
    if isinstance(x, dict):
        return [c for k, v in x.items() if k != "journal" for c in _cards_in(v)]
    if isinstance(x, list):
        return [c for v in x for c in _cards_in(v)]
    return []


_CODE = re.compile(r"[2-9TJQKA][SHDC]|JK2?")


def choose_random(game: Game, seat: int, rng: random.Random) -> str:
    """A random complete action, walked through ``choices`` (story lines get a short line)."""
    from tests.contract.harness import random_action

    return random_action(game, seat, rng)


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
    history_log: bool = False,
) -> tuple[Game, list[tuple[int, str]]]:
    """Play one game with ``chooser``, checking the contract at every step.

    Checks: ``apply`` never mutates its input; JSON round-trips exactly; the invariant
    holds; nothing hidden leaks (``history_log``: the log may name a card the seat once knew);
    at the end, replaying the moves from the seed gives the same final state.
    """
    rng = random.Random(seed)
    game = cls.new(players, options, seed=seed)
    moves: list[tuple[int, str]] = []
    ever: dict[int | None, set[str]] | None = {} if history_log else None  # what each seat has known so far
    if check_every_step:
        assert_no_leak(game, renderers, (), ever)
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
            assert_no_leak(new, renderers, events, ever)
        game = new
        moves.append((seat, move))
    assert game.outcome() is not None
    replayed = cls.new(players, options, seed=seed)
    for seat, move in moves:
        replayed, _ = replayed.apply(seat, move)
    assert replayed.to_json() == game.to_json(), "replay differs from the game"
    return game, moves
