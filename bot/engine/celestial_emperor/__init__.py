"""Warriors of the Celestial Emperor (Game Poem 35): the engine package.

``rules`` is the state machine, ``actions`` the typed actions and their parser, ``view`` the
typed views, ``player`` the built-in player; ``rules.md`` the rules as players read them.
"""

from __future__ import annotations

from bot.engine.registry import GameSpec

from .actions import (
    ACTIONS, CLAN, CLAN_WORD, CYCLE, MAX_TEXT, WORD_CLAN, Commit, Describe, IllegalMove, Keep, Line, Nullify, Parry, Return,
    Setting, Skip, Strike, Target, Trick, Victory, Withdraw, parse,
)
from .player import PLACEHOLDER, auto_move
from .rules import (
    GAME, LENIENT, NARRATORS, PRIORITY, SEAT_ORDER, STRICT, CelestialEmperorGame, CelestialOptions, score,
    sort_cards, value,
)
from .view import CelestialView, DuelInfo, FinalCard, PlayerInfo, ScoreRow, Scoring, StoryEntry

SPEC = GameSpec(
    state=GAME, options=CelestialOptions, player=auto_move, actions=ACTIONS, command="celestial-emperor",
    export_seed=False,  # trick cards stay secret for ever
    story=True,
)

__all__ = [
    "ACTIONS", "CLAN", "CLAN_WORD", "CYCLE", "GAME", "LENIENT", "MAX_TEXT", "NARRATORS", "PLACEHOLDER", "PRIORITY",
    "SEAT_ORDER", "SPEC", "STRICT", "WORD_CLAN", "CelestialEmperorGame", "CelestialOptions", "CelestialView",
    "Commit", "Describe", "DuelInfo", "FinalCard", "IllegalMove", "Keep", "Line", "Nullify", "Parry", "PlayerInfo", "Return",
    "ScoreRow", "Scoring", "Setting", "Skip", "StoryEntry", "Strike", "Target", "Trick", "Victory", "Withdraw",
    "auto_move", "parse", "score", "sort_cards", "value",
]
