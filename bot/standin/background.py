"""A stand-in served by an event loop of its own, in a thread of this process: for a driver (a
bench) whose bot runs in another process, so that neither the driver's work nor the bot's is
done in the stand-in's loop. Every call into the stand-in goes through that loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import threading
from typing import Any, Awaitable, Callable, TypeVar

from bot.standin.server import DiscordStandIn

T = TypeVar("T")


class StandInThread:
    """``with StandInThread(latency=0.05) as t:`` a started stand-in in its own thread; ``t.call(
    lambda s: s.click(None, mid, label="Join", user=u))`` runs that in the stand-in's loop and
    returns its result (``t.submit`` returns a ``concurrent.futures.Future`` instead; wrap it with
    ``asyncio.wrap_future`` in an asyncio driver). The stand-in's URLs: ``t.standin.base_url``,
    ``t.standin.gateway_url``; ``bot=None`` in its driver calls: the bot is not in its loop."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="discord stand-in", daemon=True)
        self.standin: DiscordStandIn

    def start(self) -> StandInThread:
        self._thread.start()

        async def make() -> DiscordStandIn:
            standin = DiscordStandIn(**self._kwargs)
            await standin.start()
            return standin

        self.standin = asyncio.run_coroutine_threadsafe(make(), self.loop).result()
        return self

    def submit(self, work: Callable[[DiscordStandIn], Awaitable[T] | T]) -> concurrent.futures.Future[T]:
        """Run ``work(standin)`` in the stand-in's loop (awaited there if it returns an awaitable)."""

        async def there() -> T:
            out = work(self.standin)
            return await out if inspect.isawaitable(out) else out  # type: ignore[return-value]

        return asyncio.run_coroutine_threadsafe(there(), self.loop)

    def call(self, work: Callable[[DiscordStandIn], Awaitable[T] | T], timeout: float | None = None) -> T:
        """``submit`` and wait for its result (from a thread that is not running the bot's loop)."""
        return self.submit(work).result(timeout)

    def stop(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self.standin.stop(), self.loop).result()
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join()
        self.loop.close()

    def __enter__(self) -> StandInThread:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
