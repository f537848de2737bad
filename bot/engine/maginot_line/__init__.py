"""The Maginot Line ("Complicated Free Card Game", Hysong and Wright): 2–6 players, own decks,
construction, battles with hidden commits. Rules for players: ``rules.md`` beside this file."""

from __future__ import annotations

from bot.engine.registry import GameSpec

from .actions import ACTIONS
from .model import MaginotOptions
from .player import auto_move
from .rules import GAME, MaginotLine

SPEC = GameSpec(
    state=MaginotLine, options=MaginotOptions, player=auto_move, actions=ACTIONS, command="maginot-line",
    export_seed=False,
    quick_options=("rounds=6",),
)

__all__ = ["SPEC", "GAME", "MaginotLine", "auto_move"]
