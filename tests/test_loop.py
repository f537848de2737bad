"""bot.loop.Paced: waiters let through a few a turn of the event loop, first come first through."""

from __future__ import annotations

import asyncio

from bot.loop import Paced


class Turns:
    """Counts the turns of the running event loop (a callback that schedules itself again)."""

    def __init__(self) -> None:
        self.n, self.on = 0, True
        asyncio.get_running_loop().call_soon(self._tick)

    def _tick(self) -> None:
        if self.on:
            self.n += 1
            asyncio.get_running_loop().call_soon(self._tick)


async def _through_all(paced: Paced, n: int) -> list[tuple[int, int]]:
    """``n`` tasks through ``paced`` together: (task, turn) in the order they got through."""
    turns = Turns()
    through: list[tuple[int, int]] = []

    async def waiter(i: int) -> None:
        await paced.through()
        through.append((i, turns.n))

    await asyncio.gather(*(waiter(i) for i in range(n)))
    turns.on = False
    return through


def _per_turn(through: list[tuple[int, int]]) -> list[int]:
    return [sum(1 for _, t in through if t == turn) for turn in sorted({t for _, t in through})]


async def test_waiters_go_through_a_few_a_turn_first_come_first_through():
    through = await _through_all(Paced(3), 10)
    assert [i for i, _ in through] == list(range(10))
    assert _per_turn(through) == [3, 3, 3, 1]


async def test_a_waiter_given_up_on_takes_no_place():
    paced = Paced(1)
    loop = asyncio.get_running_loop()
    gone, stays = loop.create_future(), loop.create_future()
    paced.release(gone, "gone")
    paced.release(stays, "stays")
    gone.cancel()
    await asyncio.sleep(0)  # one turn of the loop: one waiter let through, the one still waiting
    assert stays.done() and stays.result() == "stays"


def test_the_same_pace_serves_one_loop_after_another():
    """As the bot's modules keep one for the process: a loop closed, the next one is served."""
    paced = Paced(2)
    first = asyncio.run(_through_all(paced, 5))
    second = asyncio.run(_through_all(paced, 5))
    assert _per_turn(first) == _per_turn(second) == [2, 2, 1]
