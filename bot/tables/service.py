"""The table service: everything about a game in a channel that is not the rules.

One instance per bot (or terminal), over one store. Its parts, one module each: ``lobby``
(open, join, leave, start, cancel, abandon, rematch), ``turn`` (moves, skip, remove),
``bots`` (bot seats), ``thinking`` (Strong seats' moves, off the loop), ``clock`` (turn limits
and the sweep), ``daily`` (the daily challenge), ``stats``; the write path they share is in
``base``; what a reader may see is ``reader``.
"""

from __future__ import annotations

from bot.tables.base import ServiceBase
from bot.tables.bots import Bots
from bot.tables.clock import Clock
from bot.tables.daily import Daily
from bot.tables.lobby import Lobby
from bot.tables.stats import Stats
from bot.tables.thinking import Thinking
from bot.tables.turn import Turn


class TableService(Lobby, Turn, Bots, Thinking, Clock, Daily, Stats, ServiceBase):
    """The table operations. Every change: the channel's lock → load → check → apply → save."""
