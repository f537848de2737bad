"""Gridcannon's slash commands: ``/gridcannon draw``, ``/gridcannon place choice:…`` and so on."""

from __future__ import annotations

from cogs.game_cog import game_cog

VERBS = {
    "draw": "Draw the top card of the deck",
    "place": "Place the pending number card on a cell",
    "royal": "Place a royal in a slot",
    "armour": "Put the unplaceable card under a royal as armour",
    "extract": "Ace ploy: send a cell's whole stack to the bottom of the deck",
    "reassign": "Joker ploy: move a top card onto another cell",
    "replace": "Setup: replace one grid card (once)",
    "keep": "Setup: keep the grid as dealt",
    "continue": "Cycle the pending card and search for a royal",
    "reset": "Classic: play the drawn ace or joker on a cell",
    "hardreset": "Classic: shame the card and reset a stack",
    "recycle": "Classic: turn a stack into the new deck",
    "concede": "Give up this game",
}


async def setup(bot) -> None:
    await bot.add_cog(game_cog(bot, "gridcannon", "gridcannon", VERBS, {}))
