"""A press is one round trip to the store when its table is cached: the interaction id, the move
(and the log's append) are written together, and what is shown is made from the saved result."""

from __future__ import annotations

import itertools
from contextlib import asynccontextmanager

from bot.store import Store
from bot.tables import Actor
from bot.tables.desk import Desk
from bot.tables.games import GAMES
from bot.tables.service import TableService


class Counting:
    """The store, counting every call a press makes of it."""

    def __init__(self, store):
        self._store, self.calls = store, []

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        async def counted(*args, **kwargs):
            self.calls.append(name)
            return await attr(*args, **kwargs)

        return counted


@asynccontextmanager
async def court_wars_started(tmp_path):
    """A Court Wars table of Ana and Ben started in channel 10, on a SQLite file whose calls are
    counted: (the store, the counting store, the service, the desk, Ana, Ben)."""
    store = await Store.open(tmp_path / "t.sqlite3")
    try:
        counting = Counting(store)
        service = TableService(counting)
        desk = Desk(service)
        await desk.pings.load()  # as the bot does at start-up
        ana, ben = Actor(1, "Ana"), Actor(2, "Ben")
        await desk.new_table(10, 1, ana, "court_wars", [])
        await desk.join(10, ben)
        await desk.start(10, ana)
        yield store, counting, service, desk, ana, ben
    finally:
        GAMES.clear()
        await store.close()


async def test_a_press_on_a_cached_table_is_one_write(tmp_path):
    async with court_wars_started(tmp_path) as (store, counting, service, desk, ana, ben):
        ids = itertools.count(1000)
        for _ in range(6):
            reader = await desk.public(10)
            seat = min(reader.acting_seats)
            who = (ana, ben)[seat]
            mine = await desk.reader(10, who.user_id)
            move = mine.choices(()).options[0].token
            tokens = [move]
            while not mine.choices(tokens).complete or mine.choices(tokens).options:
                c = mine.choices(tokens)
                if not c.options:
                    break
                tokens.append(c.options[0].token)
            counting.calls.clear()
            update = await desk.move(10, who, " ".join(tokens), interaction=next(ids))
            assert counting.calls == ["save"], counting.calls  # one write: the press, the move, the log
            assert update.public.table.revision == reader.table.revision + 1
        # Delivered twice: the second press writes nothing and says so.
        counting.calls.clear()
        again = next(ids)
        reader = await desk.public(10)
        seat = min(reader.acting_seats)
        who = (ana, ben)[seat]
        mine = await desk.reader(10, who.user_id)
        tokens = [mine.choices(()).options[0].token]
        while mine.choices(tokens).options:
            tokens.append(mine.choices(tokens).options[0].token)
        await desk.move(10, who, " ".join(tokens), interaction=again)
        from bot.tables.errors import AlreadyHandled

        before = (await desk.public(10)).table.revision
        try:
            await desk.move(10, who, " ".join(tokens), interaction=again)
        except AlreadyHandled:
            pass
        else:
            raise AssertionError("a press delivered twice was played twice")
        assert (await desk.public(10)).table.revision == before


async def test_my_hand_reads_nothing_the_service_holds_and_the_store_decides_otherwise(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    try:
        counting = Counting(store)
        desk = Desk(TableService(counting))
        ana, ben = Actor(1, "Ana"), Actor(2, "Ben")
        await desk.new_table(10, 1, ana, "court_wars", [])
        await desk.join(10, ben)
        await desk.start(10, ana)
        counting.calls.clear()
        mine = await desk.hand(10, ben.user_id)
        assert counting.calls == []  # the row this process saved last, in play with Ben seated
        stored = await store.get(10)
        assert (mine.seat, mine.table.status, mine.table.revision) == (1, "playing", stored.revision)
        assert mine.view == (await desk.reader(10, ben.user_id)).view

        # Another process (the same database) deals a table of its own here: this process's row
        # (a lobby) would refuse, so the stored row decides.
        other = Desk(TableService(store))
        await desk.new_table(11, 1, ana, "court_wars", [])
        await other.join(11, ben)
        await other.start(11, ana)
        counting.calls.clear()
        mine = await desk.hand(11, ben.user_id)
        assert counting.calls == ["get"]
        assert (mine.seat, mine.table.status) == (1, "playing")
    finally:
        GAMES.clear()
        await store.close()


async def test_a_read_while_a_change_is_in_flight_borrows_the_log(tmp_path):
    import asyncio
    import threading

    async with court_wars_started(tmp_path) as (store, _, service, desk, ana, ben):
        async def a_move() -> tuple[Actor, str]:
            seat = min((await desk.public(10)).acting_seats)
            mine = await desk.reader(10, (ana, ben)[seat].user_id)
            tokens = [mine.choices(()).options[0].token]
            while mine.choices(tokens).options:
                tokens.append(mine.choices(tokens).options[0].token)
            return (ana, ben)[seat], " ".join(tokens)

        for _ in range(3):  # a few moves in the log
            await desk.move(10, *await a_move())
        before = await store.get(10)
        assert len(before.moves) > 0
        reads: list[str] = []
        await store._reader.run(lambda c: c.set_trace_callback(reads.append))
        on_thread, go = threading.Event(), threading.Event()

        def hold(conn) -> None:  # the writer is busy: the next change's save waits for it
            on_thread.set()
            go.wait(10)

        held = asyncio.ensure_future(store._write("hold the writer", hold))
        await asyncio.to_thread(on_thread.wait, 10)
        moving = asyncio.ensure_future(desk.move(10, *await a_move()))
        for _ in range(20):
            await asyncio.sleep(0)
        assert service.cached(10) is None and not moving.done()  # the change is in flight
        reads.clear()
        during = await service.get(10)
        assert not any("FROM moves" in s for s in reads), reads  # the log borrowed, not read
        assert (during.revision, during.moves) == (before.revision, before.moves)
        go.set()
        await held
        await moving
        after = await service.get(10)
        assert (after.revision, len(after.moves)) == (before.revision + 1, len(before.moves) + 1)
        assert len(during.moves) == len(before.moves)  # the borrowed log was not changed by the move


async def test_my_hand_while_a_change_is_in_flight_reads_nothing(tmp_path):
    """My hand (and a press's words) while a move of the same table is being saved: the row that
    change took out (the store's until it is saved), not a read of the store."""
    import asyncio
    import threading

    async with court_wars_started(tmp_path) as (store, counting, service, desk, ana, ben):
        seat = min((await desk.public(10)).acting_seats)
        mover = (ana, ben)[seat]
        mine = await desk.reader(10, mover.user_id)
        tokens = [mine.choices(()).options[0].token]
        while mine.choices(tokens).options:
            tokens.append(mine.choices(tokens).options[0].token)
        before = await store.get(10)
        on_thread, go = threading.Event(), threading.Event()

        def hold(conn) -> None:  # the writer is busy: the move's save waits for it
            on_thread.set()
            go.wait(10)

        held = asyncio.ensure_future(store._write("hold the writer", hold))
        await asyncio.to_thread(on_thread.wait, 10)
        moving = asyncio.ensure_future(desk.move(10, mover, " ".join(tokens)))
        for _ in range(20):
            await asyncio.sleep(0)
        assert service.cached(10) is None and not moving.done()  # the change is in flight
        counting.calls.clear()
        during = await desk.hand(10, ben.user_id)
        words = await desk.reader(10, ana.user_id, cached=True)
        assert counting.calls == []  # no read of the store
        assert (during.seat, during.table.revision) == (1, before.revision)
        assert (words.seat, words.table.revision) == (0, before.revision)
        go.set()
        await held
        await moving
        counting.calls.clear()
        after = await desk.hand(10, ben.user_id)
        assert counting.calls == []
        assert after.table.revision == before.revision + 1
        assert service.last_saved(10) is service.cached(10)
