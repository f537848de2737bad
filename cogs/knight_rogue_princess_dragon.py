"""The Knight, the Rogue, the Princess and the Dragon: ``/knight-rogue-princess-dragon <verb>``."""

from __future__ import annotations

from cogs.game_cog import game_cog

VERBS = {
    "flip": "Turn the top card of your own pile face-up",
    "use": "Choose which showing card you tell with",
    "pass": "Hand your card to a player (telling), or pass priority (the ending)",
    "play": "Play the top of your received pile onto the story pile",
}
TEXT_VERBS = {
    "tell": "Tell your part of the story with your card",
    "wrapup": "Last teller: how that character gets what they want",
    "twist": "Your twist: how your character reverses the outcome",
    "close": "The closing lines of the story",
}


async def setup(bot) -> None:
    await bot.add_cog(game_cog(bot, "knight_rogue_princess_dragon", "knight-rogue-princess-dragon", VERBS, TEXT_VERBS))
