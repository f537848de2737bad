"""The bot process the bench drives: ``python -m bot.benchkit.botside [--floor] [--no-pictures]``.

Deckhand as ``python -m bot run`` builds it (settings from the environment: the stand-in's
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, the bench's database), or, with ``--floor``,
the floor: the smallest discord.py bot that does what a press does (one ``DynamicItem`` button
that edits its message). Beside the bot, in its event loop, a 1 ms ticker measures the longest
stretch the loop went without a turn.

Standard input takes one command a line, answered with one line of JSON on standard output:
``mark`` (CPU seconds of the process and its picture processes so far, how long the loop was
held since the last mark or since the bot was ready: :class:`LoopWatch`), ``ready``, ``stop`` (the bot closes; the
process ends; so does closing standard input). The bench starts it; nobody else needs to."""

from __future__ import annotations

import argparse
import asyncio
import collections.abc
import gc
import json
import logging
import multiprocessing
import os
import re
import sys
import threading
import time
from typing import Any

import discord
from discord import app_commands

TICK = 0.001


class Timed(collections.abc.Coroutine):
    """A task's coroutine, each step of it (one ``send`` or ``throw``: the task holding the loop
    until its next ``await`` that waits) timed in the loop thread's CPU for :class:`LoopWatch`."""

    __slots__ = ("coro", "watch")

    def __init__(self, coro: Any, watch: LoopWatch) -> None:
        self.coro, self.watch = coro, watch

    def send(self, value: Any) -> Any:
        start = time.thread_time()
        try:
            return self.coro.send(value)
        finally:
            self.watch.held(time.thread_time() - start, self.coro)

    def throw(self, *exc: Any) -> Any:
        start = time.thread_time()
        try:
            return self.coro.throw(*exc)
        finally:
            self.watch.held(time.thread_time() - start, self.coro)

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> Any:
        return self.coro.__await__()


class LoopWatch:
    """How long the loop was held, since the last take. The figure: the longest one piece of work
    held it without a turn for anything else, in the loop thread's CPU — a step of a task (every
    task the process makes runs through :class:`Timed`, a task factory) or a garbage collection.
    Beside it, the longest gap between turns a 1 ms ticker got, in wall time and in CPU: with many
    presses ready at once that gap is their queue, every one of them served in one turn of the loop
    (the floor's own burst shows it), not one of them holding it."""

    def __init__(self) -> None:
        self.worst = self.worst_cpu = self.step = self.gc = self.gc_cpu_max = 0.0
        self.gc_cpu = 0.0  # the loop thread's CPU seconds in collections, all told
        self.gc_info: dict[str, Any] = {}
        self.step_by = ""  # the coroutine of the longest step
        self._gc_start = self._gc_thread = 0.0
        gc.callbacks.append(self._collected)

    def held(self, seconds: float, coro: Any) -> None:
        if seconds > self.step:
            self.step, self.step_by = seconds, getattr(coro, "__qualname__", type(coro).__name__)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.set_task_factory(lambda loop, coro, **kw: asyncio.Task(Timed(coro, self), loop=loop, **kw))

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start, self._gc_thread = time.perf_counter(), time.thread_time()
        else:
            took, cpu = time.perf_counter() - self._gc_start, time.thread_time() - self._gc_thread
            self.gc_cpu += cpu
            self.gc_cpu_max = max(self.gc_cpu_max, cpu)
            if took > self.gc:
                self.gc, self.gc_info = took, dict(info)

    async def run(self, client: discord.Client) -> None:
        await client.wait_until_ready()  # from then on: start-up's loading is not a stall
        self.take()
        last, last_cpu = time.perf_counter(), time.thread_time()
        while True:
            await asyncio.sleep(TICK)
            now, cpu = time.perf_counter(), time.thread_time()
            self.worst = max(self.worst, now - last - TICK)
            self.worst_cpu = max(self.worst_cpu, cpu - last_cpu)
            last, last_cpu = now, cpu

    def take(self) -> dict[str, float]:
        """The figures since the last take, in ms; then they start again."""
        out = {"held_ms": max(self.step, self.gc_cpu_max) * 1000, "step_ms": self.step * 1000,
               "gc_cpu_ms": self.gc_cpu_max * 1000, "stall_ms": self.worst * 1000, "stall_cpu_ms": self.worst_cpu * 1000,
               "gc_ms": self.gc * 1000, "step_by": self.step_by}
        self.worst = self.worst_cpu = self.step = self.gc = self.gc_cpu_max = 0.0
        return out


def children_cpu() -> float:
    """CPU seconds of this process's live child processes (the picture processes), from /proc."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for child in multiprocessing.active_children():
        try:
            with open(f"/proc/{child.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            continue
    return total


# ----- the floor ------------------------------------------------------------------------------
class Count(discord.ui.DynamicItem[discord.ui.Button], template=r"floor:(?P<n>\d+)"):
    """A button that counts its presses in its custom_id and edits its message."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"floor:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
                             ) -> Count:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Count(self.n + 1))
        await interaction.response.edit_message(content=f"Pressed {self.n + 1} times", view=view)


class Floor(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none(), max_messages=None)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="floor", description="A message with one button")
        async def floor(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Count(0))
            await interaction.response.send_message("Pressed 0 times", view=view)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Count)
        await self.tree.sync()


# ----- running ----------------------------------------------------------------------------------
def build(floor: bool, pictures: bool) -> tuple[discord.Client, str]:
    from bot.config import Settings

    settings = Settings.from_env(load_dotenv=False)
    if floor:
        from bot.app import point_at

        point_at(settings.api_base, settings.gateway_url)
        return Floor(), settings.require_token()
    if not pictures:  # tables and panels without their pictures
        from bot.render import pictures as drawing

        async def none(game_id: str, view: Any, lang: str = "en") -> None:
            return None

        drawing.table_picture = none  # type: ignore[assignment]
        drawing.seat_picture = none  # type: ignore[assignment]
    from bot.app import build as build_bot

    return build_bot(settings), settings.require_token()


async def serve(floor: bool, pictures: bool) -> None:
    client, token = build(floor, pictures)
    watch = LoopWatch()
    loop = asyncio.get_running_loop()
    watch.install(loop)
    ticker = loop.create_task(watch.run(client), name="bench: loop watch")
    stopped = asyncio.Event()

    def answer(command: str) -> None:  # in the loop
        if command == "mark":
            out = {"cpu": time.process_time() + children_cpu(), **watch.take(), "gc": watch.gc_info,
                   "gc_cpu": watch.gc_cpu, "ready": client.is_ready()}
        elif command == "ready":
            out = {"ready": client.is_ready()}
        elif command == "stop":
            stopped.set()
            out = {"stopping": True}
        else:
            out = {"error": f"unknown command {command!r}"}
        print(json.dumps(out), flush=True)

    def read_commands() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(answer, line.strip())
        loop.call_soon_threadsafe(stopped.set)

    threading.Thread(target=read_commands, name="bench: commands", daemon=True).start()
    async with client:
        running = loop.create_task(client.start(token), name="bench: the bot")
        await asyncio.wait([running, loop.create_task(stopped.wait())], return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            running.result()  # a failure to start is raised here
    ticker.cancel()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bot.benchkit.botside", description=__doc__.split("\n\n")[0])
    p.add_argument("--floor", action="store_true", help="the floor bot instead of Deckhand")
    p.add_argument("--no-pictures", action="store_true", help="tables and panels without their pictures")
    p.add_argument("--profile", metavar="FILE", help="profile the bot's process (cProfile) into FILE")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.loop import fast_event_loop

    fast_event_loop()
    if args.profile:
        import cProfile

        profile = cProfile.Profile(time.thread_time)  # the CPU of the loop's thread, not waiting for a core
        profile.runcall(asyncio.run, serve(args.floor, not args.no_pictures))
        profile.dump_stats(args.profile)
    else:
        asyncio.run(serve(args.floor, not args.no_pictures))


if __name__ == "__main__":
    main()
