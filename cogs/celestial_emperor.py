"""Warriors of the Celestial Emperor: ``/celestial-emperor <verb>``.

Card choices answer only the player (ephemeral), so a committed card never shows in
the channel; the table shows "card committed" until both duel cards are in.
"""

from __future__ import annotations

from cogs.game_cog import game_cog

VERBS = {
    "target": "Attacker: choose whom to attack",
    "commit": "Commit a card face-down for the duel (only you see it)",
    "trick": "Choose the card you put into the trick (only you see it)",
    "keep": "Endgame: choose the card to keep as your final card",
    "skip": "Skip an optional line",
}
TEXT_VERBS = {
    "setting": "Narrate where the fight takes place",
    "describe": "Describe your attack",
    "nullify": "Defender, on a tie: how the attack came to nothing",
    "strike": "Winner (attacker): describe your strike",
    "parry": "Winner (defender): describe your parry",
    "withdraw": "Loser: describe moving away or changing the scene",
    "victory": "The winner's victory description",
    "return": "Your line about returning to fight again",
}


async def setup(bot) -> None:
    await bot.add_cog(game_cog(bot, "celestial_emperor", "celestial-emperor", VERBS, TEXT_VERBS))
