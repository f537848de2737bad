"""A tournament's driver for the kill -9 test (run as a program): with the database at ``argv[1]``,
create (once) a Swiss tournament of 9 (3 people, 6 bots) and run it — the clock's steps, the
people's games played out — printing a line at every piece of work, until it is finished.
Killed at any point and started again, it carries on from what the store holds."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import sys
import time

from bot.engine.registry import spec
from bot.store import Store
from bot.tables import Actor
from bot.tables.games import load_game
from bot.tables.service import TableService
from bot.tables.tournaments import FINISHED, Announce, OpenBoard, PostStandings, Tournaments

GUILD = 1 << 22
ORGANISER = Actor(7, "Org", can_manage=True)
PEOPLE = [Actor(100 + i, n) for i, n in enumerate(["Ana", "Ben", "Cat"])]


def say(text: str) -> None:
    print(text, flush=True)


async def main(path: str) -> None:
    store = await Store.open(path)
    service = TableService(store)
    tours = Tournaments(service)
    found = await tours.in_channel(55)
    if found is None:
        view = await tours.create(GUILD, 55, ORGANISER, "cardchess2", "swiss", round_seconds=24 * 3600, bots=6)
        for p in PEOPLE:
            await tours.join(view.id, p)
        await tours.start(view.id, ORGANISER)
        found = await tours.view(view.id)
        say(f"started {view.id}")
    tid = found.id
    ids = itertools.count(10_000_000 + (os.getpid() % 10_000) * 1000 + int(time.time() * 1000) % 1000)
    for _ in range(400):
        if (await tours.view(tid)).status == FINISHED:
            say("finished")
            break
        work = await tours.step(tid)
        for w in work:
            if isinstance(w, OpenBoard):
                await tours.open_board(w.tournament, w.round, w.board, next(ids))
            elif isinstance(w, Announce):
                await tours.announced(w.tournament, w.round, w.board)
            elif isinstance(w, PostStandings):
                await tours.posted_standings(w.tournament, w.round)
            say(f"work {type(w).__name__}")
        t = await tours.load(tid)
        for b in t.current:
            if b.bye or b.done or b.channel is None or b.channel < 0:
                continue
            table = await service.get(b.channel)
            if table is None or table.status != "playing":
                continue
            game = load_game(table)
            seat = min(game.to_act())
            move = str(spec(table.game).player(game, seat, random.Random(len(table.moves))))
            await service.move(b.channel, Actor(table.seats[seat].user_id, table.seats[seat].name), move)
            say(f"move {b.channel}")
        if not work and all(b.bye or b.done for b in t.current):
            await asyncio.sleep(0)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
