"""Watching a table from elsewhere (``/game watch``): who watches which table, and the pace of
their messages.

A watcher is one message, in another channel or a DM, that follows one table as the public sees
it (its readers are public readers: never a seat's, whatever the game). :class:`Watching` is the
store-facing part: watchers remembered (a restart loses none), the codes a player of a table in a
DM gives friends, the tables in play a server's member may pick. :class:`Pacer` sends each
watcher message's edits after the table message's, in background tasks, at most one a
:data:`WATCH_PACE` seconds per message: moves that land meanwhile are shown at once by the next
edit (the latest state), never queued one by one. Nothing here knows Discord: the Discord layer
(``cogs.watch``) hands the pacer the function that makes and sends one edit.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.words import say
from bot.engine.registry import spec
from bot.store.base import WatcherRow as Watch  # one watcher message, as the store keeps it
from bot.tables.errors import TableError
from bot.tables.reader import Reader

log = logging.getLogger("bot.tables")

WATCH_PACE = 1.0  # seconds between two edits of one watcher message (Discord: about 5 edits in 5 s a channel)
LANES = 4  # watcher edits in flight at once (discord.py waits out each route's rate limit itself)
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/i/l: a code is read aloud or retyped
CODE_LENGTH = 8


@dataclass(frozen=True)
class Watchable:
    """A table in play as a server's member picks it to watch: where, which game, who plays."""

    channel_id: int
    key: str
    title: str
    players: tuple[str, ...]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A typed code as stored: lower case, without spaces or dashes ("K3M9-X2PQ" → "k3m9x2pq")."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


class Watching:
    """Watchers and watch codes over the store; an index of the watchers by table kept in memory (loaded
    at start, kept by this process's changes), so a move of a table nobody watches costs nothing."""

    def __init__(self, store: Any):
        self._store = store
        self._by_table: dict[str, dict[int, Watch]] = {}

    async def load(self) -> int:
        """Read every watcher from the store (at start); how many."""
        self._by_table.clear()
        rows = await self._store.watchers()
        for row in rows:
            w = row
            self._by_table.setdefault(w.table_id, {})[w.id] = w
        return len(rows)

    def of(self, key: str) -> list[Watch]:
        """The watchers of table ``key``, oldest first (from memory)."""
        return list(self._by_table.get(key, {}).values())

    def tables(self) -> list[str]:
        return list(self._by_table)

    async def live(self, guild_id: int) -> list[Watchable]:
        """The tables in play on this server, most recently moved first."""
        return [Watchable(t.channel_id, t.table_id, spec(t.game).title, t.players)
                for t in await self._store.live_tables(guild_id, 100)]

    async def add(self, reader: Reader, user_id: int, channel_id: int, message_id: int, *, token: str | None = None,
                  until: float | None = None, lang: str = "") -> Watch:
        """Remember a message that now shows ``reader``'s table (a public reader's), read in ``lang`` (its
        watcher's language)."""
        if not reader.is_public:
            raise ValueError("a watcher follows the public table only")
        t = reader.table
        row = await self._store.add_watcher(t.key, t.channel_id, user_id, channel_id, message_id, token, until,
                                            t.revision, lang)
        w = row
        self._by_table.setdefault(w.table_id, {})[w.id] = w
        return w

    def shown(self, watch: Watch, revision: int) -> Watch:
        """The watcher as it is once its message shows ``revision`` (kept in memory; :meth:`mark` stores it)."""
        held = self._by_table.get(watch.table_id, {})
        if watch.id in held and held[watch.id].shows < revision:
            held[watch.id] = watch = replace(watch, shows=revision)
        return watch

    async def mark(self, shown: Sequence[tuple[int, int]]) -> None:
        await self._store.mark_watchers_shown(shown)

    async def drop(self, watches: Collection[Watch]) -> None:
        """Forget these watchers (closed, refused by Discord, or shown the end)."""
        for w in watches:
            held = self._by_table.get(w.table_id, {})
            held.pop(w.id, None)
            if not held:
                self._by_table.pop(w.table_id, None)
        await self._store.drop_watchers([w.id for w in watches])

    async def end(self, key: str) -> None:
        """The game of ``key`` is over: its watchers and watch codes leave the store (the watchers stay in
        memory until each is shown the end)."""
        await self._store.end_watching(key)

    async def invite(self, reader: Reader, user_id: int) -> str:
        """A new code that lets whoever has it watch this table in a DM; only its players may make one."""
        t = reader.table
        if t.status != "playing":
            raise TableError(say("There is no game in progress here to watch."))
        if t.seat_of(user_id) is None:
            raise TableError(say("Only a player at this table can invite watchers."))
        code = new_code()
        await self._store.put_watch_invite(code, t.key, t.channel_id, user_id)
        return code

    async def invited(self, code: str) -> tuple[str, int] | None:
        """(table key, its channel) a code lets one watch, or None."""
        return await self._store.watch_invite(normal_code(code)) if normal_code(code) else None


class Pacer:
    """Each watcher message edited in a background task, at most once every ``pace`` seconds, with the
    latest state pushed for it (several moves within ``pace`` make one edit). ``send(watch, reader)``
    makes and sends one edit; its failures are its own (logged here, never raised)."""

    def __init__(self, send: Callable[[Watch, Reader], Awaitable[None]], pace: float | None = None,
                 lanes: int = LANES, clock: Callable[[], float] = time.monotonic):
        self.send, self.clock = send, clock
        self.pace = WATCH_PACE if pace is None else pace
        self.pending: dict[int, tuple[Watch, Reader]] = {}
        self.last: dict[int, float] = {}  # watcher id -> when its last edit was answered
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.lanes = asyncio.Semaphore(lanes)

    def push(self, watch: Watch, reader: Reader) -> None:
        """Show ``reader`` (a public reader) in this watcher's message, as soon as its pace allows."""
        held = self.pending.get(watch.id)
        if held is not None and held[1].table.key == reader.table.key and held[1].table.revision > reader.table.revision:
            return  # a newer state is waiting already
        self.pending[watch.id] = (watch, reader)
        if watch.id not in self.tasks:
            self.tasks[watch.id] = asyncio.get_running_loop().create_task(self._run(watch.id),
                                                                          name=f"deckhand: watcher {watch.id}")

    def forget(self, watch_id: int) -> None:
        self.pending.pop(watch_id, None)
        self.last.pop(watch_id, None)

    async def _run(self, watch_id: int) -> None:
        try:
            while watch_id in self.pending:
                wait = self.last.get(watch_id, -math.inf) + self.pace - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                found = self.pending.pop(watch_id, None)
                if found is None:  # forgotten meanwhile (stopped)
                    break
                async with self.lanes:
                    try:
                        await self.send(*found)
                    except Exception:  # noqa: BLE001 — one watcher's trouble never stops the others
                        log.exception("could not edit watcher message %s", found[0].message_id)
                    self.last[watch_id] = self.clock()
        finally:
            self.tasks.pop(watch_id, None)

    async def drained(self) -> None:
        """Wait until every edit pushed so far was sent (tests, shutting down)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks.values()), return_exceptions=True)

    def cancel(self) -> None:
        for task in self.tasks.values():
            task.cancel()
