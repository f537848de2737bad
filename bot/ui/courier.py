"""The turn-limit sweep's requests, sent from a thread of their own.

A sweep that finds a thousand due tables makes two thousand requests (each table's message
edited, then its notice posted). Through the bot's own HTTP client each costs the event loop
about 0.2 ms of CPU (discord.py's routes, rate limits and aiohttp): 400 ms of a loop that also
answers every press. The courier is a second ``discord.http.HTTPClient`` (the same token,
wherever ``discord.http.Route.BASE`` points; its own rate limits and 429s, as discord.py
handles them) on an event loop in a thread of its own; the loop only hands a table's requests
over and learns their results. Its JSON requests (a table's edit, a notice) go out on kept-alive
connections of a :class:`~bot.ui.wire.Wire` of its own (:func:`lean_road`), as a press's do: the
bench's sweep of 1,000 time-ups, the thread's CPU fell from about 380 to 200 ms (less of the
interpreter's lock taken from the loop); anything else (a picture's upload) through discord.py.

The hand-overs are gathered: what the loop hands over in one of its turns crosses to the thread
at once, and answers ready together come back at once (each crossing wakes the other loop); the
thread sends ``LANES`` deliveries at once. In a bare test, a round trip per delivery cost the
loop about 10 µs (uvloop; 20 with asyncio's own loop) against under 1 µs (8) gathered; in the
bench's sweep the two measured alike (loop time about 190 ms for 1,000 time-ups at load 6, three
runs each): what the loop still spends there is the service's work, and its thread's competing
with the sender's for the interpreter's lock.

Started with the table cog (or on first use), stopped by :meth:`Courier.close` (the cog's
unload, the bot's close); :meth:`Courier.start` may start it again after. A bot with no token
(terminal mode, tests without a bot) is not served: ``usable`` is False, and the bot's own
client sends as before.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.ui.wire import Wire

log = logging.getLogger(__name__)

# One request: the HTTPClient method (``edit_message``, ``send_message``), its positional
# arguments, and its body (made beforehand; closed once sent, or not sent).
Request = tuple[str, tuple[Any, ...], discord.http.MultipartParameters]
Results = list[discord.HTTPException | None]
LANES = 8  # deliveries the thread sends at once (each its requests in order)


class Courier:
    """A sender thread with its own event loop and HTTP client, for requests whose answer is not read."""

    def __init__(self, source: discord.http.HTTPClient, *, tune: Callable[[Any], None] | None = None,
                 lanes: int = LANES):
        self.source = source  # the bot's client: its token and proxy settings
        self.tune = tune  # applied to the thread's client once made (e.g. the bot's bucket clean-up)
        self.lanes = lanes
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._http: discord.http.HTTPClient | None = None
        self._wire: Wire | None = None  # the thread's lean road for its JSON requests (bot.ui.wire)
        self._started: asyncio.Future[None] | None = None  # on the caller's loop: the start, once begun
        self._ready = False  # started and logged in (until closed)
        self._closed = False  # closed, and not started again since (a send then is refused)
        self._spent = 0.0  # CPU seconds of the threads already stopped
        # the caller's side: deliveries handed over in this turn of its loop, those not answered yet
        self._outbox: list[tuple[Sequence[Request], asyncio.Future[Results]]] = []
        self._waiting: set[asyncio.Future[Results]] = set()
        # the thread's side: deliveries to send, and how many lanes send them
        self._queue: deque[tuple[Sequence[Request], asyncio.Future[Results]]] = deque()
        self._busy = 0
        self._lanes: set[asyncio.Task[None]] = set()  # held: a task only weakly referenced may be collected
        # answers on their way back (appended by the thread, taken by the caller's loop)
        self._answers: deque[tuple[asyncio.Future[Results], Results | None, BaseException | None]] = deque()
        self._answering = False

    @property
    def usable(self) -> bool:
        """Whether requests can go through the courier: the bot has logged in with a token."""
        return self.source.token is not None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def cpu_seconds(self) -> float:
        """The CPU time of the sender thread (every thread it ran so far, this one included)."""
        thread = self._thread
        clock = getattr(time, "pthread_getcpuclockid", None)
        if thread is None or thread.ident is None or not thread.is_alive() or clock is None:
            return self._spent
        try:
            return self._spent + time.clock_gettime(clock(thread.ident))
        except (OSError, ProcessLookupError):  # it stopped meanwhile
            return self._spent

    # ----- the caller's side ------------------------------------------------------------
    async def send(self, requests: Sequence[Request]) -> Results:
        """Send the requests one after the other from the sender thread; for each, None or the
        ``HTTPException`` with which Discord refused it (the next is still sent). Any other failure
        (the connection, say) stops the rest, which are not sent, and is raised here."""
        if not self._ready:
            if self._closed:  # closed with the bot: a sweep still going does not start another thread
                raise RuntimeError("the sweep sender is closed")
            await self._start()
        here = asyncio.get_running_loop()
        answer: asyncio.Future[Results] = here.create_future()
        if not self._outbox:  # the first of this turn: they all cross once the turn's callbacks ran
            here.call_soon(self._hand_over, here)
        self._outbox.append((requests, answer))
        self._waiting.add(answer)
        try:
            return await answer
        finally:
            self._waiting.discard(answer)

    def _hand_over(self, here: asyncio.AbstractEventLoop) -> None:
        batch, self._outbox = self._outbox, []
        loop = self._loop
        if loop is None or loop.is_closed() or not self.running:
            self._ready = False  # the next send starts it anew
            for requests, answer in batch:
                _close(requests)
                if not answer.done():
                    answer.set_exception(RuntimeError("the sweep sender is closed"))
            return
        loop.call_soon_threadsafe(self._take, batch, here)

    def _answer(self) -> None:
        self._answering = False  # first: an answer added from now on asks for another turn
        while self._answers:
            answer, results, error = self._answers.popleft()
            if answer.done():  # its caller gave up (cancelled)
                continue
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(results or [])

    # ----- the thread's side ------------------------------------------------------------
    def _take(self, batch: list[tuple[Sequence[Request], asyncio.Future[Results]]],
              caller: asyncio.AbstractEventLoop) -> None:
        self._queue.extend(batch)
        while self._busy < self.lanes and self._busy < len(self._queue):
            self._busy += 1
            lane = asyncio.get_running_loop().create_task(self._lane(caller))
            self._lanes.add(lane)
            lane.add_done_callback(self._lanes.discard)

    async def _lane(self, caller: asyncio.AbstractEventLoop) -> None:
        try:
            while self._queue:
                requests, answer = self._queue.popleft()
                results: Results | None = None
                error: BaseException | None = None
                try:
                    results = await self._send(requests)
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001 — the caller's to handle
                    error = e
                self._answers.append((answer, results, error))
                if not self._answering:
                    self._answering = True
                    caller.call_soon_threadsafe(self._answer)
        finally:
            self._busy -= 1

    async def _send(self, requests: Sequence[Request]) -> Results:
        http = self._http
        assert http is not None
        results: Results = []
        try:
            for method, args, body in requests:
                with body as params:
                    try:
                        await getattr(http, method)(*args, params=params)
                    except discord.HTTPException as e:
                        results.append(e)
                    else:
                        results.append(None)
        finally:
            _close(requests[len(results) + 1:])  # not sent
        return results

    # ----- starting and stopping ----------------------------------------------------------
    async def start(self) -> None:
        """Start the sender thread and log its client in now (one ``GET /users/@me``), not in the
        middle of the first sweep that has something to send."""
        self._closed = False
        await self._start()

    async def _start(self) -> None:
        if self._started is not None and self._started.done() and not self.running:  # it stopped: anew
            self._started = None
            await self._stop()
        if self._started is None:
            self._started = asyncio.ensure_future(self._begin())
        elif self._started.done() and not self._started.cancelled() and self._started.exception() is None:
            return
        try:
            await asyncio.shield(self._started)
        except BaseException:
            if self._started is not None and self._started.done():  # it failed: the next use tries again
                self._started = None
            raise

    async def _begin(self) -> None:
        token = self.source.token
        if token is None:
            raise RuntimeError("the courier needs the bot's token: log in first")
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=self._run, args=(loop,), name="deckhand: sweep sender", daemon=True)
        self._loop, self._thread = loop, thread
        thread.start()
        try:
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._login(token), loop))
        except BaseException:
            await self._stop()
            raise
        self._ready = True

    async def _login(self, token: str) -> None:
        src = self.source
        http = discord.http.HTTPClient(asyncio.get_running_loop(), proxy=src.proxy, proxy_auth=src.proxy_auth,
                                       unsync_clock=not src.use_clock, http_trace=src.http_trace,
                                       max_ratelimit_timeout=src.max_ratelimit_timeout)
        if self.tune is not None:
            self.tune(http)
        self._http = http
        self._wire = lean_road(http)
        await http.static_login(token)

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_forever()
        finally:
            self._spent += time.thread_time()

    async def close(self) -> None:
        """Stop the sender thread (requests not sent yet are dropped, their callers cancelled); a
        later :meth:`start` starts a new one."""
        self._closed = True
        started, self._started = self._started, None
        if started is not None and not started.done():  # still starting: it stops what it started
            started.cancel()
            await asyncio.gather(started, return_exceptions=True)
        await self._stop()

    async def _stop(self) -> None:
        self._ready = False
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if thread.is_alive():
            try:
                await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._wind_down(), loop))
            except Exception:  # noqa: BLE001 — the thread stops all the same
                log.exception("the sweep sender did not close cleanly")
            loop.call_soon_threadsafe(loop.stop)
            await asyncio.to_thread(thread.join)
        loop.close()
        self._loop = self._thread = self._http = self._wire = None
        for requests, _ in self._queue:
            _close(requests)
        self._queue.clear()
        self._busy = 0
        self._lanes.clear()
        self._answers.clear()
        self._answering = False
        for answer in list(self._waiting):  # handed over, never to be answered
            answer.cancel()

    async def _wind_down(self) -> None:
        me = asyncio.current_task()
        pending = [t for t in asyncio.all_tasks() if t is not me]
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if self._wire is not None:
            await self._wire.close()
        if self._http is not None:
            await self._http.close()


NOTICE_ROUTE = "POST /channels/{channel_id}/messages"  # a notice (``HTTPClient.send_message``), sent once


def lean_road(http: discord.http.HTTPClient) -> Wire:
    """The sender thread's client sends its JSON requests (a table's edit, a notice) on kept-alive
    connections of a :class:`~bot.ui.wire.Wire` of its own, as the bot's client sends a press's: the
    same request, discord.py's own rate-limit buckets and 429 handling; anything else (a picture's
    upload, a refusal discord.py retries) through discord.py. The edit is taken by the wire itself
    (``bot.ui.wire.take_hot_requests``); the notice here, never sent twice (not ``replayable``)."""
    wire = Wire(http)
    hot = http.request

    async def request(route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        if (files or form or route.key != NOTICE_ROUTE or "json" not in kwargs
                or not kwargs.keys() <= {"json", "reason"} or not wire.usable):
            return await hot(route, files=files, form=form, **kwargs)
        return await wire.bot(route, kwargs["json"], lambda: hot(route, **kwargs), reason=kwargs.get("reason"))

    http.request = request  # type: ignore[method-assign]
    return wire


def _close(requests: Sequence[Request]) -> None:
    """Close the files of requests that are not sent."""
    for _, _, body in requests:
        body.__exit__(None, None, None)
