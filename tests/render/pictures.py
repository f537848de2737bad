"""Fixed positions for the picture tests and the re-deal used by the no-leak check."""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

# game id -> (players, moves played by the built-in player from seed SEED, seat whose view is pictured)
POSITIONS: dict[str, tuple[tuple[str, ...], int, int]] = {
    "gridcannon": (("Ana",), 65, 0),
    "court_wars": (("Ana", "Bo", "Cy"), 40, 0),
    "celestial_emperor": (("Ana", "Bo", "Cy", "Di"), 28, 0),
    "knight_rogue_princess_dragon": (("Ana", "Bo", "Cy", "Di"), 20, 2),
    "cardchess2": (("Ana", "Bo"), 12, 0),
    "maginot_line": (("Ana", "Bo"), 346, 0),
}
SEED = 7
CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|JK2?)(?:@\d+)?$")


def spec(game_id: str) -> Any:
    return importlib.import_module(f"bot.engine.{game_id}").SPEC


def positions(game_id: str, moves: int | None = None, seed: int = SEED) -> list[Any]:
    """Every state from the deal to ``moves`` moves of the built-in player (fixed seed)."""
    players, n, _ = POSITIONS[game_id]
    return self_play(game_id, players, seed, n if moves is None else moves)


def self_play(game_id: str, players: Any, seed: int, moves: int) -> list[Any]:
    """Every state of a game of ``players`` from the deal to ``moves`` moves of the built-in player
    (the game's end first, if it comes), the deal and the player's choices seeded ``seed``."""
    sp = spec(game_id)
    g = sp.state.new(list(players), (), seed=seed)
    rng = random.Random(seed)
    out = [g]
    for _ in range(moves):
        if g.is_over():
            break
        seat = min(g.to_act())
        g, _ = g.apply(seat, sp.player(g, seat, rng))
        out.append(g)
    return out


def _strings(node: Any, found: set[str]) -> None:
    if isinstance(node, str):
        if CARD.match(node):
            found.add(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            _strings(k, found)
            _strings(v, found)
    elif isinstance(node, (list, tuple)):
        for v in node:
            _strings(v, found)


def _swap(node: Any, mapping: dict[str, str]) -> Any:
    if isinstance(node, str):
        return mapping.get(node, node)
    if isinstance(node, dict):
        return {mapping.get(k, k): _swap(v, mapping) for k, v in node.items()}
    if isinstance(node, list):
        return [_swap(v, mapping) for v in node]
    if isinstance(node, tuple):
        return tuple(_swap(v, mapping) for v in node)
    return node


def redeal(game: Any, seat: int | None, seed: int) -> tuple[Any, int]:
    """The same game with the cards ``seat`` may not know permuted among their places (a
    re-deal of the unseen cards), rebuilt with ``from_json``; and how many cards moved."""
    data = game.to_json()
    universe: set[str] = set()
    _strings(data["state"], universe)
    known = game.known(seat)
    unseen = sorted(c for c in universe if c not in known and c.partition("@")[0] not in known)
    shuffled = unseen[:]
    random.Random(seed).shuffle(shuffled)
    mapping = dict(zip(unseen, shuffled, strict=True))
    moved = sum(1 for a, b in mapping.items() if a != b)
    rebuilt = type(game).from_json({**data, "state": _swap(data["state"], mapping)})
    return rebuilt, moved
