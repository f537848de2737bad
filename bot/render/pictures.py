"""Pictures, off the event loop: the one road from a view to PNG bytes for the Discord layer.

``await table_picture(game_id, view)`` draws the public table; ``await seat_picture(game_id,
view)`` a seat's private picture (None when the game has none for that view). Callers never
draw in the event-loop thread:

- **Cached by view.** A picture depends on its view only, so pictures are kept in an LRU bounded in bytes
  keyed by (game, kind, a digest of the view's ``repr``): views are frozen dataclasses of
  strings, numbers and tuples, so equal views give equal keys and an unchanged table is never
  drawn twice. Two callers asking for the same picture at once share one drawing.
- **Drawn in a process pool.** Drawing and encoding hold the GIL for most of their time, so
  they run in a :class:`~concurrent.futures.ProcessPoolExecutor` (by default one worker per core
  but one, the event loop's, and at least one; ``DECKHAND_PICTURE_WORKERS`` sets the number,
  ``0`` draws in threads). The pool starts at the first picture (or at :func:`start`). Several
  workers are forked from a clean ``forkserver`` process (they share its pages); a single one is
  spawned, as the forkserver would be one more process of about 30 MB for nothing to share. Each
  is warmed (render modules imported, the font read, card faces drawn) before it takes work.
  If the pool cannot start or breaks, pictures are drawn in threads
  (the pool is restarted a few times at most). :func:`shutdown` stops it; the app calls it
  when it closes.
- Workers import the program's main module, as with any ``multiprocessing`` start method but
  fork: a script that uses the pool keeps its own work under ``if __name__ == "__main__":``
  and what it imports at its top is in every worker too (a package's ``__main__``, as
  ``python -m bot``'s, is not imported).
- **Callers woken a few a turn.** Callers whose picture is ready are woken ``WAKE_PER_TURN`` a
  turn of the event loop, in the order their pictures came back (``_woken``), not all in the
  turn the drawing came back in: dozens of presses wait for one shared drawing in a burst, and each
  goes on to build and send its message (about a millisecond of the loop's thread).
- A picture that fails to draw is logged and comes back as ``None`` (the table's text still
  tells everything); it is not cached.
"""

from __future__ import annotations

import asyncio
import weakref
import concurrent.futures as cf
import hashlib
import logging
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Iterable
from typing import Any

from bot.loop import Paced
from bot.workers import Workers, cores, count_from
from bot.render import renderer

log = logging.getLogger(__name__)

CACHE_BYTES = 16 << 20  # pictures kept, in bytes (a PNG is about 50 KB)
WAKE_PER_TURN = 2  # callers woken a turn of the event loop once their pictures are ready (see _woken)

Key = tuple[str, str, bytes]


# ----- drawing (in a worker, or in a thread) ---------------------------------------------------
def draw_table(game_id: str, view: Any) -> bytes | None:
    """The public picture, drawn here and now (a worker calls this); ``view`` may be a
    :class:`InLanguage` (a view and the language its words are drawn in)."""
    if isinstance(view, InLanguage):
        return renderer(game_id).said("picture", view.view, view.lang)
    return renderer(game_id).picture(view)


@dataclass(frozen=True)
class InLanguage:
    """A view to draw with its words in ``lang`` (its repr, and so its cache key, names the language)."""

    view: Any
    lang: str


def draw_seat(game_id: str, view: Any) -> bytes | None:
    """A seat's own picture, when its game draws one for private views."""
    fn = getattr(renderer(game_id), "seat_picture", None)
    if isinstance(view, InLanguage):  # a seat's picture with its words in the seat reader's language
        if fn is None:
            return None
        if not renderer(game_id).speaks:
            return fn(view.view)
        from bot.render import drawing as dr

        with dr.speaking(view.lang):
            return fn(view.view, view.lang)
    return fn(view) if fn is not None else None


def draw_animation(game_id: str, frames: Any) -> Any:
    """A whole game's animation (:func:`bot.render.animation.draw`), drawn here and now."""
    from bot.render import animation

    return animation.draw(game_id, frames)


DRAW = {"table": draw_table, "seat": draw_seat, "animation": draw_animation}


def _draw(kind: str, game_id: str, view: Any) -> bytes | None:
    return DRAW[kind](game_id, view)


def warm() -> None:
    """Make a fresh process ready to draw: every renderer imported, the font read, the usual
    card faces and backs drawn (the pool's initializer)."""
    from bot.engine import GAME_IDS
    from bot.render import drawing

    for game_id in GAME_IDS:
        module = renderer(game_id)
        extra = getattr(module, "warm", None)
        if extra is not None:
            extra()
    drawing.warm()


# ----- the cache ---------------------------------------------------------------------------
def key(kind: str, game_id: str, view: Any) -> Key:
    """The cache key of a picture: equal views (by value) give equal keys."""
    text = repr(view).encode("utf-8", "surrogatepass")
    return game_id, kind, hashlib.blake2b(text, digest_size=16).digest()


_lock = threading.Lock()
# bench: click→answer p99 with pictures — equal views are drawn once, whoever shows them
_cache: OrderedDict[Key, bytes | None] = OrderedDict()
_cache_bytes = 0  # the PNGs' lengths plus about 200 bytes an entry
_inflight: dict[Key, cf.Future] = {}
_stats = {"hits": 0, "draws": 0, "thread_draws": 0, "failures": 0}


def _weight(png: bytes | None) -> int:
    return 200 + (len(png) if png else 0)


def _remember(k: Key, fut: cf.Future) -> None:
    global _cache_bytes
    with _lock:
        _inflight.pop(k, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        if k in _cache:
            _cache_bytes -= _weight(_cache.pop(k))
        _cache[k] = fut.result()
        _cache_bytes += _weight(_cache[k])
        while _cache_bytes > CACHE_BYTES and len(_cache) > 1:
            _cache_bytes -= _weight(_cache.popitem(last=False)[1])


def cache_clear() -> None:
    global _cache_bytes
    with _lock:
        _cache.clear()
        _cache_bytes = 0


def stats() -> dict[str, int]:
    """Counters since start: cache hits, pictures drawn (and how many in threads), failures."""
    with _lock:
        return {**_stats, "cached": len(_cache), "cached_bytes": _cache_bytes}


# ----- the pool ----------------------------------------------------------------------------
_workers_setting: int | None = None


def workers() -> int:
    """How many worker processes the pool has (0: pictures are drawn in threads)."""
    if _workers_setting is not None:
        return _workers_setting
    # the event loop keeps a core; a picture process on each of the others
    return count_from("DECKHAND_PICTURE_WORKERS", lambda: max(1, cores() - 1), "pictures")


def configure(*, workers: int | None = None) -> None:
    """Set the number of worker processes (None: the environment, else one per core but one) and stop
    the running pool so the next picture starts one with the new number."""
    global _workers_setting
    shutdown()
    _workers_setting = workers


def _context(n: int) -> Any:
    """How the ``n`` workers start: never forked from the bot itself (it runs threads: the store's
    writer…); several from a forkserver that holds what drawing needs, one spawned on its own."""
    methods = multiprocessing.get_all_start_methods()
    if n > 1 and "forkserver" in methods:
        from bot.engine import GAME_IDS

        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", "bot.render.pictures",
                                    "bot.render.drawing", *(f"bot.render.{g}" for g in GAME_IDS)])
        return ctx
    return multiprocessing.get_context("spawn")


# drawing holds the GIL mostly: threads (as many as cores) keep pictures coming, not fast
_workers = Workers("pictures", count=workers, context=_context, initializer=warm,
                   threads=lambda n: os.cpu_count() or 1, thread_name="picture")


def start() -> cf.Executor:
    """The executor pictures are drawn with, started if needed (a pool, or threads)."""
    return _workers.executor()


def _ready(samples: tuple[tuple[str, str, Any], ...] = ()) -> int:
    """A worker's warm-up task: draw the sample pictures once (filling this process's caches of
    text and card faces at every game's sizes), then say who answered."""
    for kind, game_id, view in samples:
        try:
            _draw(kind, game_id, view)
        except Exception:  # a warm-up is only an optimisation: the real drawing reports failures
            log.debug("pictures: warm-up of %s failed", game_id, exc_info=True)
    time.sleep(0.05)  # long enough that each idle worker takes one of these tasks
    return os.getpid()


async def prepare(samples: Iterable[tuple[str, str, Any]] = ()) -> int:
    """Start the picture processes now and wait until each is warm: every process draws the
    ``samples`` (``(kind, game_id, view)``, e.g. each game's opening) once, so the first table's
    picture pays neither for starting a process nor for its first drawing of a game. Returns how
    many processes answered."""
    pool = start()
    n = max(1, workers())
    todo = tuple(samples)
    loop = asyncio.get_running_loop()
    pids = await asyncio.gather(*(loop.run_in_executor(pool, _ready, todo) for _ in range(2 * n)),
                                return_exceptions=True)
    return len({p for p in pids if isinstance(p, int)})


def shutdown(wait: bool = True) -> None:
    """Stop the pool and the threads (the app's close calls this; a later picture starts them again)."""
    with _lock:
        _inflight.clear()
    _workers.shutdown(wait)


def healthy() -> bool:
    """No break of the pool so far and no threads drawing instead."""
    return _workers.healthy()


def _submit(kind: str, game_id: str, view: Any) -> cf.Future:
    """Start drawing on the pool; a pool that cannot take work is dropped for threads. The
    future's executor is remembered (``_drawn_by``) so a break is blamed on the right pool."""
    ex = start()
    try:
        fut = ex.submit(_draw, kind, game_id, view)
    except (BrokenProcessPool, RuntimeError, OSError) as e:
        if isinstance(ex, cf.ThreadPoolExecutor):
            raise
        log.warning("pictures: the pool refused work (%s)", e)
        _workers.broke(ex)
        ex = _workers.threads()
        fut = ex.submit(_draw, kind, game_id, view)
    _drawn_by[fut] = ex
    return fut


_drawn_by: "weakref.WeakKeyDictionary[cf.Future, cf.Executor]" = weakref.WeakKeyDictionary()


# ----- waking the callers ------------------------------------------------------------------
# bench: event loop blocked — callers woken at once would all build and send their messages in one turn
_woken = Paced(WAKE_PER_TURN)
"""Callers whose pictures are ready, woken ``WAKE_PER_TURN`` a turn of the event loop, first come
first woken: a drawing shared by many callers (a burst of tables showing the same position)
finishes in one instant, and so do drawings that come back from the pool together."""


async def _wait(fut: cf.Future) -> Any:
    """What ``fut`` (a drawing) returns, once its turn to be woken comes (``_woken``); a
    caller given up on (cancelled) does not cancel the drawing others may wait for."""
    loop = asyncio.get_running_loop()
    waiter = loop.create_future()

    def finished(f: cf.Future) -> None:  # in the thread that finished the drawing
        try:
            loop.call_soon_threadsafe(_woken.release, waiter, f)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass

    fut.add_done_callback(finished)
    done = await waiter
    if done.cancelled():  # as asyncio.wrap_future: a drawing cancelled (the pool shut down) cancels its callers
        raise asyncio.CancelledError
    return done.result()


async def _picture(kind: str, game_id: str, view: Any) -> bytes | None:
    k = key(kind, game_id, view)
    with _lock:
        if k in _cache:
            _cache.move_to_end(k)
            _stats["hits"] += 1
            return _cache[k]
        fut = _inflight.get(k)
        if fut is None:
            _stats["draws"] += 1
    if fut is None:
        fut = _submit(kind, game_id, view)
        with _lock:
            _inflight[k] = fut
        fut.add_done_callback(lambda f: _remember(k, f))
    try:
        return await _wait(fut)
    except BrokenProcessPool:
        _workers.broke(_drawn_by.get(fut))
        return await _in_thread(k, kind, game_id, view)
    except Exception:
        with _lock:
            _stats["failures"] += 1
        log.exception("pictures: %s picture of %s failed", kind, game_id)
        return None


async def _in_thread(k: Key, kind: str, game_id: str, view: Any) -> bytes | None:
    with _lock:
        _stats["thread_draws"] += 1
    fut = _workers.threads().submit(_draw, kind, game_id, view)
    fut.add_done_callback(lambda f: _remember(k, f))
    try:
        return await _wait(fut)
    except Exception:
        with _lock:
            _stats["failures"] += 1
        log.exception("pictures: %s picture of %s failed", kind, game_id)
        return None


async def table_picture(game_id: str, view: Any, lang: str = "en") -> bytes | None:
    """The public table's picture (PNG bytes), drawn off the event loop, or cached; its words in ``lang``."""
    return await _picture("table", game_id, view if lang == "en" or not renderer(game_id).speaks
                          else InLanguage(view, lang))


async def seat_picture(game_id: str, view: Any, lang: str = "en") -> bytes | None:
    """A seat's own picture (PNG bytes) when its view shows cards of its own, else None; its words in ``lang``."""
    return await _picture("seat", game_id, view if lang == "en" or not renderer(game_id).speaks
                          else InLanguage(view, lang))


async def animation(game_id: str, frames: Any) -> Any:
    """A whole game's animation (an :class:`bot.render.animation.Animation`, or None) from its
    frames (views and captions), drawn in a picture process: about a second of drawing, never
    in the event loop's thread. Not cached here (its caller keeps it)."""
    fut = _submit("animation", game_id, tuple(frames))
    try:
        return await _wait(fut)
    except BrokenProcessPool:
        _workers.broke(_drawn_by.get(fut))
        fut = _workers.threads().submit(_draw, "animation", game_id, tuple(frames))
        try:
            return await _wait(fut)
        except Exception:
            log.exception("pictures: the animation of %s failed", game_id)
            return None
    except Exception:
        with _lock:
            _stats["failures"] += 1
        log.exception("pictures: the animation of %s failed", game_id)
        return None
