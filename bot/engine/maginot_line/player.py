"""Built-in player (placeholder)."""
from __future__ import annotations

import random

from bot.engine.core import Action, Game


def random_walk(game: Game, seat: int, rng: random.Random) -> Action:
    prefix: tuple[str, ...] = ()
    while True:
        c = game.choices(seat, prefix)
        nxt: list[str] = []
        if c.kind == "token":
            nxt = c.tokens()
        elif c.kind == "range":
            nxt = [str(rng.randint(c.lo, c.hi))] if c.hi >= c.lo else []
        if c.complete and (not nxt or rng.random() < 1 / (len(nxt) + 1)):
            return game.parse(seat, " ".join(prefix))
        assert nxt, f"dead end at {prefix}"
        prefix += (rng.choice(nxt),)


auto_move = random_walk
