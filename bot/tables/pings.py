"""Each player's turn pings, per server: every turn (the default), only once the turn has waited
some hours, or never (the table still shows whose turn it is).

A ping held back is kept in the store (:class:`~bot.store.base.PingWait`) with the turn it is for
(the table's ``turn_since``) and sent by the sweep when it is due, only if that same turn still
waits for the player: a turn played meanwhile needs no ping.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.words import say
from bot.store import TableRow
from bot.store.base import PingPref, PingWait
from bot.tables.base import acting_users, table_key
from bot.tables.errors import TableError

EVERY, AFTER, NEVER = "every", "after", "never"
MAX_HOURS = 168  # a week
DM = 0  # the "server" of direct messages


def chosen(guild_id: int | None, user_id: int, mode: str, hours: int | None) -> PingPref:
    """A preference as typed, checked; TableError (a short reason, nothing kept) when it is not one."""
    if mode not in (EVERY, AFTER, NEVER):
        raise TableError(say("Choose every turn, after some hours, or never."))
    if mode == AFTER:
        if hours is None or not 1 <= hours <= MAX_HOURS:
            raise TableError(say("Say after how many hours of waiting: 1 to {most}.", most=MAX_HOURS))
    elif hours is not None:
        raise TableError(say("Hours go only with “after some hours of waiting”."))
    return PingPref(guild_id or DM, user_id, mode, hours or 0)


def described(pref: PingPref) -> str:
    """"every turn", "only once your turn has waited 6 h", "never" (a phrase: said in its reader's language)."""
    if pref.mode == AFTER:
        return say("only once your turn has waited {hours} h", hours=pref.hours)
    return say("never (the table still shows whose turn it is)") if pref.mode == NEVER else say("every turn")


class Pings:
    """The preferences (all read once, at start-up, and kept here: a press reads nothing more than
    its table; a server's players are answered by one process) and the pings held back."""

    def __init__(self, service: Any):
        self._service = service  # its store and clock, as they are when asked
        self._known: dict[tuple[int, int], PingPref] | None = None

    async def load(self) -> None:
        """Every preference kept, read from the store (the bot's start-up; else the first ping)."""
        self._known = {(p.guild_id, p.user_id): p for p in await self._store.all_ping_prefs()}

    @property
    def _store(self) -> Any:
        return self._service.store

    def _clock(self) -> float:
        return self._service.clock()

    async def prefs(self, guild_id: int | None, users: Sequence[int]) -> dict[int, PingPref]:
        if self._known is None:
            await self.load()
        guild = guild_id or DM
        known = self._known or {}
        return {u: known.get((guild, u)) or PingPref(guild, u, EVERY) for u in users}

    async def set(self, pref: PingPref) -> None:
        await self._store.set_ping_pref(pref, self._clock())
        if self._known is None:
            await self.load()
        else:
            self._known[(pref.guild_id, pref.user_id)] = pref

    async def now(self, table: TableRow, users: Sequence[int]) -> list[int]:
        """Of the players a change pings, those to ping now; the others' pings held back (for their
        hours) or dropped (never)."""
        if not users:
            return []
        prefs = await self.prefs(table.guild_id, users)
        held = [PingWait(table.channel_id, u, table.guild_id, table_key(table), table.turn_since,
                         table.turn_since + prefs[u].hours * 3600.0)
                for u in users if prefs[u].mode == AFTER and table.turn_since is not None]
        if held:
            await self._store.put_ping_waits(held)
        return [u for u in users if prefs[u].mode == EVERY]

    async def due(self, rows: Callable[[int], Any], shards: Any = None) -> list[tuple[TableRow, list[int]]]:
        """The held pings due now whose turn still waits: (the table's row, the users), a channel once.
        ``rows``: reads a channel's row."""
        out: dict[int, tuple[TableRow, list[int]]] = {}
        for wait in await self._store.due_ping_waits(self._clock(), shards=shards):
            row = out[wait.channel_id][0] if wait.channel_id in out else await rows(wait.channel_id)
            if (row is None or row.status != "playing" or table_key(row) != wait.table_id
                    or row.turn_since != wait.turn_since or wait.user_id not in acting_users(row)):
                continue  # played meanwhile, or a new game
            out.setdefault(wait.channel_id, (row, []))[1].append(wait.user_id)
        return list(out.values())
