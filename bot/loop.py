"""The event loop Deckhand runs on: uvloop where it is installed (Linux and macOS, where it is a
dependency), else asyncio's own. Measured by the real-press bench: the loop's turns, sockets and
callbacks are a good part of a press's CPU in the bot's one loop thread; uvloop does them in C.

:class:`Paced` lets many waiters through a few a turn of the loop instead of all in one."""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from typing import Any


def fast_event_loop() -> bool:
    """Make uvloop the loop of every later ``asyncio.run`` (and discord.py's ``Client.run``);
    False (asyncio's own loop stays) where it is not installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


class Paced:
    """Waiters let through ``per_turn`` a turn of the running event loop, first come first through.

    Work that many tasks wait on and that ends at one instant (a drawing they share, a timeout
    they all set at once) would otherwise wake every one of them in one turn of the loop, each
    going on with its own work there; let through a few a turn, the loop (the gateway's
    heartbeat, every other press) gets its turns between them. A waiter given up on (cancelled)
    is passed over without taking a place. Each loop has its own line (tests run one loop after
    another)."""

    __slots__ = ("per_turn", "_lines")

    def __init__(self, per_turn: int):
        self.per_turn = per_turn
        self._lines: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, deque[tuple[asyncio.Future, Any]]] = (
            weakref.WeakKeyDictionary())

    def release(self, waiter: asyncio.Future, value: Any = None) -> None:
        """Give ``waiter`` (a future of the running loop) its result ``value`` in its turn."""
        loop = asyncio.get_running_loop()
        line = self._lines.get(loop)
        if line is None:
            line = self._lines[loop] = deque()
        line.append((waiter, value))
        if len(line) == 1:  # a turn is scheduled while, and only while, the line is not empty
            loop.call_soon(self._turn, line)

    async def through(self) -> None:
        """Wait for this caller's turn."""
        waiter = asyncio.get_running_loop().create_future()
        self.release(waiter)
        await waiter

    def _turn(self, line: deque[tuple[asyncio.Future, Any]]) -> None:
        let = 0
        while line and let < self.per_turn:
            waiter, value = line.popleft()
            if not waiter.done():
                waiter.set_result(value)
                let += 1
        if line:
            asyncio.get_running_loop().call_soon(self._turn, line)
