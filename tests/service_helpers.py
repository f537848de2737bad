"""Helpers for the tests that drive the table service directly: a table's turns, and the
tournament clock's work done the way the Discord layer does it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from bot.engine.core import Game
from bot.engine.registry import spec
from bot.tables.games import load_game
from bot.tables.tournaments import Announce, OpenBoard, PostStandings, Settled, Tournaments


async def turns(service: Any, channel: int, limit: int) -> AsyncIterator[tuple[Any, Game, int]]:
    """Turn after turn while the table plays: its row, its game and the seat to act. A table still
    playing after ``limit`` turns fails the test."""
    for _ in range(limit):
        table = await service.get(channel)
        if table.status != "playing":
            return
        game = load_game(table)
        yield table, game, min(game.to_act())
    raise AssertionError("the table did not end")


async def open_race(service: Any, channel: int, people: list, *, bots: int = 0, attempts: int = 10,
                    each: Callable[[Game], None] | None = None, options: tuple[str, ...] = (),
                    racers: int = 1) -> Any:
    """A KRPD table (Open Race, and ``options``) whose story has reached the race, the rulebook's
    clock running, with at least ``racers`` players in it: its row. Deals seeded 0, 1, … (at most
    ``attempts``): ``people[0]`` hosts, the rest of the first four seats are ``people`` (or ``bots``
    built-in players), and the seat to act plays as the built-in player would (``each`` sees the
    game first); a deal that ends before such a race is abandoned."""
    game_id = "knight_rogue_princess_dragon"
    for attempt in range(attempts):
        await service.new_table(channel, 1, people[0], game_id, ["Open Race", *options], seed=attempt)
        for p in people[1:4 - bots]:
            await service.join(channel, p)
        for _ in range(bots):
            await service.add_bot(channel, people[0])
        await service.start(channel, people[0])
        rng = random.Random(attempt)
        while (table := await service.get(channel)).status == "playing" and (
                table.game_clock is None or len(load_game(table).to_act()) < racers):
            game = load_game(table)
            if each is not None:
                each(game)
            seat = min(game.to_act())
            await service.move(channel, people[seat], str(spec(game_id).player(game, seat, rng)))
        if table.status == "playing":  # (a deal whose game ended first is left finished)
            return table
    raise AssertionError("the race never opened")


class Threads:
    """Stands in for the Discord layer: a new channel id per thread."""

    def __init__(self, first_channel: int = 900_000) -> None:
        self.next = first_channel
        self.posted: list[PostStandings] = []
        self.announced: list[Announce] = []
        self.settled: list[Settled] = []

    async def run(self, tours: Tournaments, tid: int) -> None:
        """The clock's steps until nothing is left to do now."""
        for _ in range(20):
            work = await tours.step(tid)
            if not work:
                return
            for w in work:
                if isinstance(w, OpenBoard):
                    self.next += 1
                    await tours.open_board(w.tournament, w.round, w.board, self.next)
                elif isinstance(w, Announce):
                    self.announced.append(w)
                    await tours.announced(w.tournament, w.round, w.board)
                elif isinstance(w, PostStandings):
                    self.posted.append(w)
                    await tours.posted_standings(w.tournament, w.round)
                else:
                    self.settled.append(w)
        raise AssertionError("the clock kept finding work")
