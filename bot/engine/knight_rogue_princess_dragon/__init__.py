"""The Knight, the Rogue, the Princess and the Dragon (Game Poem 24): a cooperative story for 4."""

from __future__ import annotations

from bot.engine.knight_rogue_princess_dragon.actions import (
    ACTIONS,
    Close,
    Flip,
    Give,
    Line,
    Pass,
    Play,
    Tell,
    Twist,
    Use,
    Wrapup,
)
from bot.engine.knight_rogue_princess_dragon.player import auto_move
from bot.engine.knight_rogue_princess_dragon.roles import (
    ALL_CARDS,
    BEATS,
    BEATS_LINE,
    FREE_CHOICE,
    LAST_WORD,
    LOOSE_PASSING,
    NEWEST_ON_TOP,
    OPEN_RACE,
    RACE_SECONDS,
    ROLE_NAME,
    ROLES,
    SUITS,
    TITLE,
    beats,
    beats_phrase,
    character,
    no_dead_end,
    role,
)
from bot.engine.knight_rogue_princess_dragon.rules import GAME, IllegalMove, KnightRoguePrincessDragonGame, KrpdOptions
from bot.engine.knight_rogue_princess_dragon.view import KrpdView, StoryEntry, TimedDecision
from bot.engine.registry import GameSpec

SPEC = GameSpec(
    state=GAME, options=KrpdOptions, player=auto_move, actions=ACTIONS, command="knight-rogue-princess-dragon",
    export_seed=True,  # no secret choices: everything but the own piles' order is public
    story=True,
)

__all__ = [
    "ACTIONS", "ALL_CARDS", "BEATS", "BEATS_LINE", "FREE_CHOICE", "GAME", "LAST_WORD", "LOOSE_PASSING",
    "NEWEST_ON_TOP", "OPEN_RACE", "RACE_SECONDS", "ROLES", "ROLE_NAME", "SPEC", "SUITS", "TITLE", "Close", "Flip",
    "Give", "IllegalMove", "KnightRoguePrincessDragonGame", "KrpdOptions", "KrpdView", "Line", "Pass", "Play", "StoryEntry",
    "Tell", "TimedDecision", "Twist", "Use", "Wrapup", "auto_move", "beats", "beats_phrase", "character",
    "no_dead_end", "role",
]
