"""The tournament clock's work done the way the Discord layer does it, for the tests."""

from __future__ import annotations

from bot.tables.tournaments import Announce, OpenBoard, PostStandings, Settled, Tournaments


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
