"""Work done off the event loop: a pool of processes, or threads where processes cannot start or
keep breaking. The pictures (:mod:`bot.render.pictures`) and the Strong bot's thinking
(:mod:`bot.tables.thinking`) each keep one :class:`Workers`."""

from __future__ import annotations

import concurrent.futures as cf
import logging
import os
import threading
from collections.abc import Callable
from multiprocessing.context import BaseContext

log = logging.getLogger("bot.workers")

MAX_RESTARTS = 3  # pool restarts after a break before the work is done in threads for good


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def count_from(env: str, default: Callable[[], int], what: str) -> int:
    """A number of workers from the environment variable ``env`` (0 or more), else ``default()``."""
    text = os.environ.get(env, "").strip()
    if text:
        try:
            return max(0, int(text))
        except ValueError:
            log.warning("%s: %s=%r is not a number; the default", what, env, text)
    return default()


class Workers:
    """A process pool started on first use with ``count()`` processes (0: threads), started by
    ``context(n)`` and warmed by ``initializer``; threads (``threads(n)`` of them) where it cannot
    start, or after :data:`MAX_RESTARTS` breaks."""

    def __init__(self, what: str, *, count: Callable[[], int], context: Callable[[int], BaseContext],
                 initializer: Callable[[], None], threads: Callable[[int], int], thread_name: str) -> None:
        self.what, self.count, self.context, self.initializer = what, count, context, initializer
        self.thread_count, self.thread_name = threads, thread_name
        self.pool: cf.ProcessPoolExecutor | None = None
        self.thread_pool: cf.ThreadPoolExecutor | None = None
        self.restarts = 0
        self.lock = threading.Lock()

    def executor(self) -> cf.Executor:
        """The pool, started if needed; else the threads."""
        with self.lock:
            if self.pool is not None:
                return self.pool
            n = self.count()
            if n > 0 and self.restarts <= MAX_RESTARTS:
                try:
                    self.pool = cf.ProcessPoolExecutor(max_workers=n, mp_context=self.context(n),
                                                       initializer=self.initializer)
                    return self.pool
                except (OSError, ValueError, NotImplementedError, RuntimeError) as e:  # no processes here
                    log.warning("%s: no process pool (%s); working in threads", self.what, e)
        return self.threads()

    def threads(self) -> cf.ThreadPoolExecutor:
        """The threads (started if needed): where the pool cannot be used, and for a task the pool lost."""
        with self.lock:
            if self.thread_pool is None:
                self.thread_pool = cf.ThreadPoolExecutor(max_workers=self.thread_count(self.count()),
                                                         thread_name_prefix=self.thread_name)
            return self.thread_pool

    def broke(self, pool: cf.Executor | None) -> None:
        """``pool`` broke (or refused work): the next task starts a new one, up to :data:`MAX_RESTARTS`."""
        with self.lock:
            if pool is None or self.pool is not pool:
                return
            self.pool = None
            self.restarts += 1
        log.warning("%s: the process pool broke (restart %d of %d)", self.what, self.restarts, MAX_RESTARTS)
        pool.shutdown(wait=False, cancel_futures=True)

    def healthy(self) -> bool:
        """No break so far and no threads working instead."""
        return self.restarts == 0 and self.thread_pool is None

    def shutdown(self, wait: bool = True) -> None:
        """Stop the pool and the threads (the next task starts them again)."""
        with self.lock:
            pool, threads = self.pool, self.thread_pool
            self.pool = self.thread_pool = None
            self.restarts = 0
        for ex in (pool, threads):
            if ex is not None:
                ex.shutdown(wait=wait, cancel_futures=True)
