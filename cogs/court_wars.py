"""Court Wars' slash commands: ``/court-wars attack choice:…`` and the rest."""

from __future__ import annotations

from cogs.game_cog import game_cog

VERBS = {
    "draw": "Opening build: draw for your pick",
    "defend": "Defend: draw a card",
    "attack": "Attack: your stack, guards spent, the target and how far to cut",
    "skip": "Ace sequence: skip the attack and draw again",
    "place": "Place the drawn guard on one of your stacks",
    "joker": "Put the drawn joker on one of your defeated positions",
    "discard": "Discard the drawn card",
    "resign": "Resign: you are eliminated at once",
}


async def setup(bot) -> None:
    await bot.add_cog(game_cog(bot, "court_wars", "court-wars", VERBS, {}))
