"""Tables: everything about a game in a channel that is not the rules.

Lobby (host, seats, join/leave/start), whose turn and since when, turn limits, forfeits,
abandon, rematch, the move log and records. Every action takes the channel's lock, loads the
row, computes the change, saves it in one transaction (checked against the revision it was
computed from) and returns a :class:`Change` for the terminal, or, through the desk
(``bot.tables.desk``), an :class:`~bot.tables.reader.Update` for the Discord layer: readers, never
games. The service is ``bot.tables.service``; a row's game is rebuilt only in ``bot.tables.games``.
"""

from bot.tables.base import (
    BOT_NAME, DEFAULT_TURN_LIMIT, KEEP_EVENTS, MAX_BOT_STEPS, MAX_MOVE_TEXT, MIN_TURN_LIMIT, Actor, Change,
    acting_users, is_bot, table_key,
)
from bot.tables.clock import CLOCK, SWEEP_PAGE, TIME_UP, WARNING, Notice, about, format_duration
from bot.tables.daily import DAILY_GAME, daily_day, daily_seed
from bot.tables.errors import STALE, StaleError, TableError
from bot.tables.stats import wilson_lower_bound

__all__ = [
    "BOT_NAME", "CLOCK", "DAILY_GAME", "DEFAULT_TURN_LIMIT", "KEEP_EVENTS", "MAX_BOT_STEPS", "MAX_MOVE_TEXT",
    "MIN_TURN_LIMIT", "STALE", "SWEEP_PAGE", "TIME_UP", "WARNING", "Actor", "Change", "Notice", "StaleError",
    "TableError", "about", "acting_users", "daily_day", "daily_seed", "format_duration", "is_bot", "table_key",
    "wilson_lower_bound",
]
