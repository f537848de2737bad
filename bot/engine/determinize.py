"""Determinization: a state a seat cannot tell apart from the real one.

The cards the seat may not know (``universe - game.known(seat)``) are permuted among their places;
everything the seat sees stays put. The contract suite re-deals with it to prove that no choice,
label, refusal or built-in pick depends on a hidden card; the Strong player searches over such
states (a deal consistent with what it knows), so it plays from its own seat's knowledge only.
"""

from __future__ import annotations

import random
import re
from typing import Any

from bot.engine.core import Game

# A card code as states write it: 7H, TD, JK, JK2, 8H@1.
CARD_CODE = re.compile(r"[2-9TJQKA][SHDC](?:@\d)?|JK\d?(?:@\d)?")


def card_universe(game: Game) -> frozenset[str]:
    """Every card code that appears anywhere in the state (the game's cards), its log aside."""
    found: set[str] = set()
    match = CARD_CODE.fullmatch

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if match(x):
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


def redeal(game: Game, seat: int | None, rng: random.Random, universe: frozenset[str],
           known: frozenset[str] | None = None, data: dict[str, Any] | None = None,
           seed: int | None = None) -> Game:
    """A state the seat cannot tell apart from ``game``: the cards it may not know, permuted
    among their places. Only card codes move; everything the seat sees stays put. ``known``
    and ``data`` (``game.known(seat)`` and ``game.to_json()``, not changed here), when at hand.
    ``seed``: the re-dealt state's generator seed too (a search must not learn what the real
    seed would shuffle next); None keeps it (the state is ``game`` itself when nothing moves)."""
    unknown = sorted(universe - (game.known(seat) if known is None else known))
    if len(unknown) < 2 and seed is None:
        return game
    shuffled = unknown[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(unknown, shuffled, strict=True))

    get = mapping.get

    def sub(x: Any) -> Any:  # states are JSON-like: lists, dicts, strings and numbers
        if type(x) is dict:
            return {k: get(v, v) if (t := type(v)) is str else sub(v) if t is dict or t is list else v
                    for k, v in x.items()}
        if type(x) is list:
            return [get(v, v) if (t := type(v)) is str else sub(v) if t is dict or t is list else v for v in x]
        return get(x, x) if type(x) is str else x

    data = game.to_json() if data is None else data
    state = data["state"]  # sub() builds new lists and dicts: ``data`` is left as it was
    new = {k: (v if k == "journal" else sub(v)) for k, v in state.items()}
    if seed is not None:
        new["seed"] = seed
    return type(game).from_json({**data, "state": new})
