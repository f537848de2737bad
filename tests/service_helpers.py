"""Helpers for the tests that drive the table service directly: a table's turns, and the
tournament clock's work done the way the Discord layer does it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from bot.engine.core import Game
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
