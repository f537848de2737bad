"""The event loop Deckhand runs on: uvloop where it is installed (Linux and macOS, where it is a
dependency), else asyncio's own. Measured by the real-press bench: the loop's turns, sockets and
callbacks are a good part of a press's CPU in the bot's one loop thread; uvloop does them in C."""

from __future__ import annotations

import asyncio


def fast_event_loop() -> bool:
    """Make uvloop the loop of every later ``asyncio.run`` (and discord.py's ``Client.run``);
    False (asyncio's own loop stays) where it is not installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True
