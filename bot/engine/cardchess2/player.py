"""The built-in player: chooses from its own view and ``choices`` only."""

from __future__ import annotations

import random

from bot.engine.core import Action, Game


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    tokens: list[str] = []
    while True:
        c = game.choices(seat, tuple(tokens))
        if c.complete and (not c.options or rng.random() < 0.3):
            return game.parse(seat, " ".join(tokens))
        if c.kind == "set":
            return game.parse(seat, " ".join(tokens))
        tokens.append(rng.choice(c.options).token)
