"""The picture road (bot.render.pictures): views pickle, pictures are cached by view, drawn in
worker processes, and still drawn (in threads) when the pool cannot be used."""

from __future__ import annotations

import asyncio
import importlib
import os
import pickle
import signal

import pytest

from bot.render import pictures

from .pictures import POSITIONS, positions
from tests.test_loop import Turns


@pytest.fixture
def road():
    pictures.configure(workers=2)
    pictures.cache_clear()
    yield pictures
    pictures.configure(workers=None)
    pictures.cache_clear()


def _render(game_id: str):
    return importlib.import_module(f"bot.render.{game_id}")


@pytest.mark.parametrize("game_id", list(POSITIONS))
def test_every_view_pickles_and_keys_by_value(game_id: str) -> None:
    """Views cross to the workers by pickle; the cache key is the same for equal views (a game
    saved and loaded again) and differs from one position to the next."""
    seat = POSITIONS[game_id][2]
    keys = set()
    states = positions(game_id)
    for game in states[:: max(1, len(states) // 12)]:
        for s in (None, seat):
            view = game.view(s)
            assert pickle.loads(pickle.dumps(view)) == view
            again = type(game).from_json(game.to_json()).view(s)
            assert pictures.key("table", game_id, again) == pictures.key("table", game_id, view)
            keys.add(pictures.key("table", game_id, view))
    assert len(keys) >= 12, f"{game_id}: different positions share a cache key"


def test_the_default_leaves_the_event_loop_a_core(monkeypatch) -> None:
    """One picture process per core but one (the event loop's), at least one: on a 2-core machine,
    one process; the setting still wins."""
    pictures.configure(workers=None)
    monkeypatch.delenv("DECKHAND_PICTURE_WORKERS", raising=False)
    for cores, expected in ((1, 1), (2, 1), (4, 3)):
        monkeypatch.setattr(pictures, "cores", lambda cores=cores: cores)
        assert pictures.workers() == expected
    monkeypatch.setenv("DECKHAND_PICTURE_WORKERS", "2")
    assert pictures.workers() == 2


async def test_a_single_worker_is_spawned_and_draws() -> None:
    """A single picture process is spawned on its own (no forkserver beside it) and draws the
    same picture as this process."""
    pictures.configure(workers=1)
    pictures.cache_clear()
    try:
        assert pictures._context(1).get_start_method() == "spawn"
        assert pictures.start().submit(os.getpid).result(timeout=60) != os.getpid()
        view = positions("court_wars")[-1].view(None)
        before = pictures.stats()
        assert await pictures.table_picture("court_wars", view) == _render("court_wars").picture(view)
        after = pictures.stats()
        assert (after["draws"], after["thread_draws"]) == (before["draws"] + 1, before["thread_draws"])
    finally:
        pictures.configure(workers=None)
        pictures.cache_clear()


async def test_a_picture_is_drawn_in_a_worker_process_and_then_cached(road) -> None:
    assert road.start().submit(os.getpid).result(timeout=60) != os.getpid()
    game = positions("court_wars")[-1]
    view = game.view(None)
    before = road.stats()
    data = await road.table_picture("court_wars", view)
    assert data == _render("court_wars").picture(view)
    mid = road.stats()
    assert mid["draws"] == before["draws"] + 1
    # The same table loaded again: the same picture, from the cache.
    again = type(game).from_json(game.to_json()).view(None)
    assert await road.table_picture("court_wars", again) == data
    after = road.stats()
    assert after["draws"] == mid["draws"] and after["hits"] == mid["hits"] + 1


async def test_callers_asking_at_once_share_one_drawing(road) -> None:
    view = positions("gridcannon")[-1].view(None)
    before = road.stats()["draws"]
    got = await asyncio.gather(*(road.table_picture("gridcannon", view) for _ in range(6)))
    assert len(set(got)) == 1 and got[0]
    assert road.stats()["draws"] == before + 1


async def test_seat_pictures_only_where_a_seat_has_cards_of_its_own(road) -> None:
    for game_id, (_, _, seat) in POSITIONS.items():
        game = positions(game_id)[-1]
        own = await road.seat_picture(game_id, game.view(seat))
        public = await road.seat_picture(game_id, game.view(None))
        assert public is None, f"{game_id}: a seat picture of the public view"
        if game_id in ("celestial_emperor", "cardchess2", "maginot_line"):
            assert own and own[:4] == b"\x89PNG", f"{game_id}: no seat picture"
        else:
            assert own is None, f"{game_id}: its views hold no private cards"


async def test_without_worker_processes_pictures_are_drawn_in_threads(road) -> None:
    road.configure(workers=0)
    view = positions("cardchess2")[-1].view(None)
    assert isinstance(road.start(), pictures.cf.ThreadPoolExecutor)
    assert await road.table_picture("cardchess2", view) == _render("cardchess2").picture(view)


async def test_a_broken_pool_falls_back_to_threads(road) -> None:
    states = positions("celestial_emperor")
    await road.table_picture("celestial_emperor", states[0].view(None))
    pool = road.start()
    assert isinstance(pool, pictures.cf.ProcessPoolExecutor)
    for pid in list(pool._processes):  # a worker dies (killed, out of memory…)
        os.kill(pid, signal.SIGKILL)
    view = states[-1].view(None)
    data = await road.table_picture("celestial_emperor", view)
    assert data == _render("celestial_emperor").picture(view)
    # and the next picture has a working executor again (a new pool)
    assert await road.table_picture("celestial_emperor", states[-2].view(None))


async def test_a_picture_that_fails_is_none_and_not_cached(road, caplog) -> None:
    view = positions("court_wars")[-1].view(None)
    assert await road.table_picture("gridcannon", view) is None  # a view of another game: the drawing fails
    assert road.stats()["failures"] >= 1
    assert "picture of gridcannon failed" in caplog.text


def test_shutdown_stops_the_workers(road) -> None:
    pool = road.start()
    assert pool.submit(os.getpid).result(timeout=60)
    procs = list(pool._processes.values())
    road.shutdown()
    assert procs and not any(p.is_alive() for p in procs)


async def test_a_caller_given_up_on_does_not_cancel_the_drawing_others_wait_for(road) -> None:
    states = positions("knight_rogue_princess_dragon")
    view = states[-1].view(None)
    # the workers busy with other pictures, so this one waits in the queue (where it could be cancelled)
    busy = [asyncio.create_task(road.table_picture("knight_rogue_princess_dragon", g.view(None)))
            for g in states[-13:-1]]
    await asyncio.sleep(0)
    first = asyncio.create_task(road.table_picture("knight_rogue_princess_dragon", view))
    second = asyncio.create_task(road.table_picture("knight_rogue_princess_dragon", view))
    await asyncio.sleep(0)  # both asked: one drawing
    first.cancel()
    assert await second == _render("knight_rogue_princess_dragon").picture(view)
    assert first.cancelled()
    assert await road.table_picture("knight_rogue_princess_dragon", view)  # cached by now
    assert all(await asyncio.gather(*busy))


async def test_prepare_starts_and_warms_every_process(road) -> None:
    """At start-up each picture process draws every game's sample once (so a table's first picture
    does not pay for it) and answers; nothing is cached in the bot's own process by the warm-up."""
    from bot.engine.registry import sample_views

    samples = sample_views(moves=10)
    assert {g for _, g, _ in samples} == set(POSITIONS) and {k for k, _, _ in samples} == {"table", "seat"}
    assert await road.prepare(samples) == 2
    assert road.stats()["cached"] == 0


async def test_callers_of_one_drawing_are_woken_a_few_a_turn_in_order() -> None:
    """Many callers waiting for one drawing are not all woken in the turn of the loop it comes
    back in (each goes on to build and send a message): a few a turn, first come first woken,
    and every one gets the picture."""
    drawing: pictures.cf.Future = pictures.cf.Future()
    turns = Turns()
    woken: list[tuple[int, int, bytes]] = []

    async def caller(i: int) -> None:
        png = await pictures._wait(drawing)
        woken.append((i, turns.n, png))

    tasks = [asyncio.create_task(caller(i)) for i in range(9)]
    await asyncio.sleep(0)
    await asyncio.get_running_loop().run_in_executor(None, drawing.set_result, b"png")  # as a pool's thread does
    await asyncio.gather(*tasks)
    turns.on = False
    assert [i for i, _, _ in woken] == list(range(9))
    assert {png for _, _, png in woken} == {b"png"}
    per_turn = {t: sum(1 for _, u, _ in woken if u == t) for _, t, _ in woken}
    # The pool's thread hands the callers over one by one: on a busy machine the loop may take a
    # turn between two of them, so a turn lets through at most a few, never all at once.
    assert max(per_turn.values()) <= pictures.WAKE_PER_TURN < 9
    assert len(per_turn) >= -(-9 // pictures.WAKE_PER_TURN)


async def test_a_caller_given_up_on_neither_cancels_the_drawing_nor_takes_a_turn() -> None:
    drawing: pictures.cf.Future = pictures.cf.Future()
    gone = asyncio.create_task(pictures._wait(drawing))
    stays = asyncio.create_task(pictures._wait(drawing))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    assert not drawing.cancelled()
    drawing.set_result(b"png")
    assert await stays == b"png"
    assert gone.cancelled()


async def test_a_drawing_cancelled_cancels_its_callers_and_a_failure_reaches_them() -> None:
    """As ``asyncio.wrap_future`` did: a drawing cancelled (the pool shut down with work queued)
    cancels whoever waits for it; a drawing that raised raises in its callers."""
    cancelled: pictures.cf.Future = pictures.cf.Future()
    waiting = asyncio.create_task(pictures._wait(cancelled))
    await asyncio.sleep(0)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    failed: pictures.cf.Future = pictures.cf.Future()
    failed.set_exception(ValueError("no such card"))
    with pytest.raises(ValueError, match="no such card"):
        await pictures._wait(failed)
