"""How many interactions the bot works on at once.

A burst of presses (hundreds of tables at once) otherwise has every handler in flight together:
whenever their answers from Discord or the store arrive in one turn of the event loop, all of
them build their messages in that one turn, and the loop (the gateway's heartbeat, every other
press) waits tens of milliseconds. Through the turnstile at most ``size`` are worked on at once;
the rest wait their turn, parked. A press never waits more than ``patience`` seconds (a slow
store must not make the others miss Discord's three seconds): then it goes in anyway, with the
others whose patience ran out ``size`` a turn of the loop (a burst's presses come in together,
and their patience runs out together: the real-press bench with pictures, whose presses hold their
places while their pictures are drawn, had a hundred go in in one turn of the loop).

A press holds its place only while it works: it gives it back while a request of its waits on
Discord (:func:`aside`) and takes one again when the answer is in, before any press that has not
started yet. Waiting on Discord (tens of milliseconds a request, not the loopback's fraction of
one) is no work of the loop's; had the presses held their places through it, eight places would
have let through a few dozen presses a second, and a burst would have waited out its patience and
gone in all at once.

The garbage collector's collections run as an interaction leaves (:func:`between_presses`), once
its answers are sent, instead of wherever a press happens to allocate its 2,000th object — often
between the click and the table's edit.
"""

from __future__ import annotations

import asyncio
import gc
from collections import deque
from contextvars import ContextVar
from types import TracebackType

from bot.loop import Paced

SIZE = 8  # the real-press bench: the loop's longest turn in a 200-table burst fell from ~45 to ~8 ms of CPU
# Places by store: a SQLite save waits for the writer thread's next group (bot.store.sqlite_group),
# and with more presses at work the loop has work meanwhile and the groups are fuller. The real-press
# burst, three pairs: SQLite 998-1,163 interactions/s with 8 places, 1,148-1,238 with 16 (the loop
# busy 85-87 % and 90-91 % of the time, its longest turn 9-12 and 10-11 ms); PostgreSQL, whose work
# is the loop's own (98 % busy), no better with 16 (897-1,025 against 1,028/s).
SIZES = {"sqlite": 16}


def size_for(backend: str) -> int:
    """How many interactions may be worked on at once with a store of this kind."""
    return SIZES.get(backend, SIZE)
PATIENCE = 0.5  # seconds; a move defers its answer after 2 s more (bot.ui.play.DEFER_AFTER): within Discord's 3


YOUNG = 2000  # new objects (net) that make a collection due, as the collector's own first threshold was
EVERY = 8  # interactions that make a collection due however few new objects the count says there are
ALONE = 5_000  # the collector's own first threshold once the bot has settled: reached by work done
#                outside interactions (start-up, the sweep, a burst's payloads parsed before their turn),
#                seldom inside one. At 20,000, a burst's first interaction to leave met a young
#                collection of everything parsed meanwhile: the loop blocked 21-25 ms (11-14 ms at 5,000)
TIDY_AFTER = 1000  # set-asides (about 8,000 interactions) after which what was set aside is collected
QUIET = 1.0  # seconds without an interaction at work before that collection is made
TIDY_ANYWAY = 8 * TIDY_AFTER  # set-asides after which it is made as an interaction leaves, quiet or not


_since = 0  # interactions left since the last collection made here
_aside = 0  # set-asides since the last collection of everything (tidy_up)


def between_presses() -> int | None:
    """Run the collection that is due, if one is, as an interaction leaves the turnstile; the
    oldest generation collected (None: none was due, or the collector is not in this mode).

    The collector counts new objects minus freed ones and collects the youngest generation when
    that count passes its threshold: inside whichever press allocates that object, between its
    click and its answer. Once the bot has settled (``bot.app.settle_memory``) that threshold is
    ``ALONE``, and the collections are made here instead, at the end of an interaction, every
    ``YOUNG`` new objects or every ``EVERY`` interactions, whichever comes first (the count is new
    objects minus freed ones of any generation: in a burst old ones die in numbers, states, views
    and cache entries replaced, and hide a growing young generation from it).

    Each collection made here takes the young generation only, and what survives it is set aside
    (``gc.freeze()``, which moves it out of the collector's way in constant time): no collection
    made while the bot plays walks an object twice, and none walks the tables' states and views
    that live on until their next move. A press makes no garbage the collector must find (its
    objects are freed by their counts: ``tests/test_discord_press_cycles.py``); what is set aside
    is freed by its count as well when it dies, unless it dies in a cycle: that waits for
    :func:`tidy_up`, made once the bot is quiet (:class:`Turnstile`) after ``TIDY_AFTER``
    set-asides, or here after ``TIDY_ANYWAY`` of them if it never is.

    Measured on the real-press burst (SQLite, 200 tables, 9,000 interactions, idle machine):
    collected young then middle, with a full collection every 1,000 middle ones, no collection
    found any garbage (young, middle: 0 objects; the full one: 325, all the bench's own cancelled
    timers); the full one took 27 ms of CPU with the loop blocked, the middle ones up to 8.6 ms.
    Young ones set aside: the collector's CPU in the timed windows 288 -> 213 ms (12 rounds), the
    loop's longest block 9-11 -> 6.5-7.5 ms of CPU (with Discord answering 50 ms late, 11-13 ->
    7 ms), no full collection; the same 325 objects, and nothing else, were left for the tidy-up."""
    global _since, _aside
    first, _, _ = gc.get_threshold()
    if first < ALONE or not gc.isenabled():
        return None
    _since += 1
    if gc.get_count()[0] < YOUNG and _since < EVERY:
        return None
    _since = 0
    gc.collect(0)
    gc.freeze()
    _aside += 1
    if _aside >= TIDY_ANYWAY:
        tidy_up()
        return 2
    return 0


def tidy_up() -> int:
    """Collect everything, what was set aside too, and set all that lives on aside again (the
    start-up's objects with it, as ``bot.app.settle_memory`` did); the number of objects found
    unreachable. A walk of every object alive: about 50-65 ms of CPU with a burst's 200 tables
    cached, 118-122 ms with the memory bench's 1,000 hot tables (222,554 objects alive)."""
    global _aside
    gc.unfreeze()
    try:
        return gc.collect()
    finally:
        gc.freeze()
        _aside = 0


def tidy_due() -> bool:
    """Whether enough was set aside for :func:`tidy_up` to be worth a quiet moment's walk."""
    return _aside >= TIDY_AFTER


class Turnstile:
    """``async with turnstile():`` around handling one interaction: at most ``size`` at work at
    once; one coming back from Discord (:meth:`_Pass.step_in`) goes before one not started."""

    def __init__(self, size: int = SIZE, patience: float = PATIENCE, quiet: float = QUIET):
        self.size, self.patience, self.quiet = size, patience, quiet
        self.free = size
        self.inside = 0  # interactions at work, waiting on Discord or not
        self._tidy: asyncio.TimerHandle | None = None  # the tidy-up planned for a quiet moment
        self.closed = False
        self._back: deque[asyncio.Future[bool]] = deque()  # presses whose answer from Discord is in
        self._new: deque[asyncio.Future[bool]] = deque()  # presses not started yet
        self._late = Paced(size)  # presses whose patience ran out, let in ``size`` a turn of the loop

    def __call__(self) -> "_Pass":
        return _Pass(self)

    def resize(self, size: int) -> None:
        """Another number of places (the bot's, once it knows its store)."""
        self.free += size - self.size
        self.size = self._late.per_turn = size

    async def _take(self, back: bool = False) -> bool:
        """Take a place (True), or, after ``patience`` seconds without one, go on without (False)."""
        if self.free and not self._back and (back or not self._new):
            self.free -= 1
            return True
        queue = self._back if back else self._new
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        queue.append(waiter)
        timer = loop.call_later(self.patience, self._give_up, queue, waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.result():
                self._leave()  # handed a place as it was cancelled: the next takes it
            raise
        finally:
            timer.cancel()

    def _give_up(self, queue: deque[asyncio.Future[bool]], waiter: asyncio.Future[bool]) -> None:
        """Patience ran out: no place will be handed to ``waiter``; it goes on without one in its
        turn among the others whose patience ran out."""
        if not waiter.done():
            queue.remove(waiter)
            self._late.release(waiter, False)

    def close(self) -> None:
        """Plan no tidy-up (the bot is closing; interactions still at work finish)."""
        self.closed = True
        self._unplan()

    def _came(self) -> None:
        self.inside += 1
        self._unplan()

    def _unplan(self) -> None:
        """The tidy-up planned for a quiet moment, if one is, put off."""
        if self._tidy is not None:
            self._tidy.cancel()
            self._tidy = None

    def _went(self) -> None:
        """An interaction is over: its collection made if one is due; once none is at work and
        enough was set aside, the tidy-up planned for ``quiet`` seconds later."""
        self.inside -= 1
        between_presses()
        if not self.inside and self._tidy is None and not self.closed and tidy_due():
            self._tidy = asyncio.get_running_loop().call_later(self.quiet, self._quiet)

    def _quiet(self) -> None:
        """``quiet`` seconds without an interaction: everything collected, unless a sweep works
        meanwhile (it sets the collector's thresholds of its own: ``bot.tables.clock.loop_first``);
        then the next interaction to leave plans it again."""
        self._tidy = None
        if not self.inside and gc.get_threshold()[0] >= ALONE:
            tidy_up()

    def _leave(self) -> None:
        """A place given back: to the first press coming back from Discord, else the first waiting to start."""
        for queue in (self._back, self._new):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(True)
                    return
        self.free += 1


class _Pass:
    __slots__ = ("gate", "held", "over", "_token")

    def __init__(self, gate: Turnstile):
        self.gate, self.held, self.over = gate, False, False

    async def __aenter__(self) -> None:
        self.held = await self.gate._take()
        self.gate._came()
        self._token = _current.set(self)

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        _current.reset(self._token)
        self.over = True  # a task it started (which holds this pass in its context) takes no place for it
        self.step_out()
        self.gate._went()

    def step_out(self) -> bool:
        """Give the place back (True if one was held)."""
        if not self.held:
            return False
        self.held = False
        self.gate._leave()
        return True

    async def step_in(self) -> None:
        """Take a place again, before any press not started yet (not once the press is over)."""
        if not self.held and not self.over:
            held = await self.gate._take(back=True)
            if self.over and held:  # it ended meanwhile
                self.gate._leave()
            else:
                self.held = held


_current: ContextVar[_Pass | None] = ContextVar("deckhand_turnstile_pass", default=None)


class aside:  # noqa: N801 - used as a statement: ``async with aside():``
    """``async with aside():`` around waiting on Discord: the interaction being worked on in this
    context gives its place back meanwhile, and takes one again when the answer is in (or the
    request failed), before the presses that have not started. Around every request the client
    sends (``bot.ui.wire``)."""

    __slots__ = ("_pass",)

    async def __aenter__(self) -> None:
        held = _current.get()
        self._pass = held if held is not None and held.step_out() else None

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._pass is not None and not isinstance(exc, asyncio.CancelledError):
            await self._pass.step_in()
