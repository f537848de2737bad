"""The turnstile: at most ``size`` interactions worked on at once; a press waits at most
``patience`` seconds; views made only of Deckhand's buttons are not kept by discord.py."""

from __future__ import annotations

import asyncio
import gc
import weakref
import time

import discord
import pytest

from bot.app import answered_by_dynamic_items
from bot.ui.turnstile import Turnstile, aside


async def test_at_most_size_at_once_and_all_get_through():
    gate = Turnstile(size=2, patience=5.0)
    inside = most = done = 0

    async def press() -> None:
        nonlocal inside, most, done
        async with gate():
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1
        done += 1

    await asyncio.gather(*(press() for _ in range(7)))
    assert (most, done, inside) == (2, 7, 0)


async def test_places_by_store_and_a_resize_before_any_press():
    from bot.ui.turnstile import SIZE, size_for

    assert size_for("sqlite") == 2 * SIZE and size_for("postgres") == SIZE and size_for("") == SIZE
    gate = Turnstile(size=2, patience=5.0)
    gate.resize(3)
    inside = most = 0

    async def press() -> None:
        nonlocal inside, most
        async with gate():
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1

    await asyncio.gather(*(press() for _ in range(7)))
    assert (most, gate.free, gate.size) == (3, 3, 3)


async def test_a_press_waits_no_longer_than_its_patience():
    gate = Turnstile(size=1, patience=0.05)
    hold = asyncio.Event()

    async def stuck() -> None:
        async with gate():
            await hold.wait()

    first = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    async with gate():  # the slot is held: in anyway after its patience
        waited = loop.time() - start
    assert 0.04 <= waited < 1.0
    hold.set()
    await first
    async with gate():  # the slot came back (the one that went in without one gave none back)
        pass


async def test_a_press_waiting_on_discord_gives_its_place_to_the_next_and_takes_one_first_after():
    gate = Turnstile(size=1, patience=5.0)
    answered = asyncio.Event()
    order: list[str] = []

    async def press(name: str) -> None:
        async with gate():
            order.append(f"{name} works")
            async with aside():  # its request to Discord: it waits, working no more
                await answered.wait()
            order.append(f"{name} answered")
            await asyncio.sleep(0.01)  # works on, holding the place
            order.append(f"{name} done")

    async def worker(name: str) -> None:
        async with gate():
            order.append(f"{name} works")
            await asyncio.sleep(0.02)
            order.append(f"{name} done")

    first = asyncio.create_task(press("first"))
    await asyncio.sleep(0)
    second = asyncio.create_task(press("second"))
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["first works", "second works"]  # in at once, not after the first's answer
    third = asyncio.create_task(worker("third"))  # the place is free: in, and holds it
    await asyncio.sleep(0)
    fourth = asyncio.create_task(worker("fourth"))  # waits for the place
    for _ in range(5):
        await asyncio.sleep(0)
    answered.set()
    await asyncio.gather(first, second, third, fourth)
    # The two answered took the place back, one at a time, before the fourth started.
    assert order[2:] == ["third works", "third done", "first answered", "first done", "second answered",
                         "second done", "fourth works", "fourth done"], order
    assert gate.free == 1 and not gate._back and not gate._new
    async with aside():  # outside any press: nothing to give back
        pass
    assert gate.free == 1


async def test_a_task_a_press_started_takes_no_place_for_it_once_the_press_is_over():
    """A task started in a press (a late move's deferral) holds the press's pass in its context:
    its request's answer, coming after the press ended, must not take a place that no one gives back."""
    gate = Turnstile(size=1, patience=5.0)
    answered = asyncio.Event()
    spawned: list[asyncio.Task[None]] = []

    async def deferral() -> None:
        async with aside():
            await answered.wait()

    async def press() -> None:
        async with gate():
            spawned.append(asyncio.create_task(deferral()))
            await asyncio.sleep(0)  # the deferral's request goes out

    await press()
    answered.set()
    await spawned[0]
    assert gate.free == 1
    async with gate():  # the place is there to take
        pass


async def test_a_cancelled_press_gives_back_the_place_it_was_handed():
    gate = Turnstile(size=1, patience=5.0)
    async with gate():
        waiting = asyncio.create_task(_enter(gate))
        await asyncio.sleep(0)
    waiting.cancel()  # handed the place on the way out, cancelled before it ran
    try:
        await waiting
    except asyncio.CancelledError:
        pass
    assert gate.free == 1


async def _enter(gate: Turnstile) -> None:
    async with gate():
        await asyncio.sleep(1)


def test_only_plain_views_of_deckhand_components_are_left_to_the_dynamic_items():
    ours = discord.ui.View(timeout=None)
    ours.add_item(discord.ui.Button(label="Join", custom_id="dh2:abc:1:jn:"))
    ours.add_item(discord.ui.Button(label="Rules", url="https://example.com"))
    assert answered_by_dynamic_items(ours)
    other = discord.ui.View(timeout=None)
    other.add_item(discord.ui.Button(label="Other", custom_id="someone-else"))
    assert not answered_by_dynamic_items(other)

    class WithCallbacks(discord.ui.View):
        pass

    mine = WithCallbacks(timeout=None)
    mine.add_item(discord.ui.Button(label="Join", custom_id="dh2:abc:1:jn:"))
    assert not answered_by_dynamic_items(mine)


class _Seen:
    """The generations the collector collects while it is watched."""

    def __init__(self) -> None:
        self.generations: list[int] = []

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.generations.append(info["generation"])


@pytest.fixture
def settled():
    """The collector as bot.app.settle_memory leaves it (restored afterwards, nothing left set
    aside), watched."""
    from bot.app import GC_THRESHOLD
    from bot.ui import turnstile

    before, seen = gc.get_threshold(), _Seen()
    gc.collect()
    gc.set_threshold(*GC_THRESHOLD)
    turnstile._since = turnstile._aside = 0
    gc.callbacks.append(seen)
    try:
        yield seen
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*before)
        gc.unfreeze()
        turnstile._since = turnstile._aside = 0


class _Node:
    """An object that can be made to die in a cycle (only the collector finds it then)."""

    me: object = None


def _in_a_cycle() -> tuple[list[_Node], weakref.ref]:
    """A node in a cycle of its own, kept alive by the list until that is emptied."""
    node = _Node()
    node.me = node
    return [node], weakref.ref(node)


def _set_aside(obj: object) -> bool:
    """Whether ``obj`` is out of the collector's generations (frozen), though tracked."""
    return gc.is_tracked(obj) and all(o is not obj for o in gc.get_objects())


async def test_a_collection_is_made_as_an_interaction_leaves(settled):
    seen = settled
    from bot.ui.turnstile import YOUNG

    gate = Turnstile(size=2, patience=5.0)
    kept = []
    async with gate():
        kept.extend([i] for i in range(YOUNG + 200))  # tracked objects that stay alive
        assert seen.generations == []  # none made inside the press: its own threshold is far off
    assert seen.generations == [0]  # the young generation only
    assert gc.get_count()[0] < YOUNG
    async with gate():  # nothing new: nothing to collect
        pass
    assert seen.generations == [0]


async def test_what_survives_a_collection_made_here_is_set_aside(settled):
    """What lives on (the tables' states and views, until their next move) is walked once, by the
    young collection, and then set aside: no middle or full collection walks it again."""
    seen = settled
    from bot.ui.turnstile import YOUNG, between_presses

    kept = [[i] for i in range(YOUNG + 200)]
    frozen = gc.get_freeze_count()
    assert not _set_aside(kept[0])
    assert between_presses() == 0
    assert seen.generations == [0]
    assert _set_aside(kept) and _set_aside(kept[-1])
    assert gc.get_freeze_count() >= frozen + len(kept)
    assert gc.get_threshold()[2] >= 1000  # the collector's own full collections seldom
    assert gc.get_count()[0] < 100  # the set-aside objects are not counted as the young generation's
    count = gc.get_freeze_count()
    kept.clear()  # what was set aside is still freed by its count
    assert gc.get_freeze_count() <= count - YOUNG


async def test_what_died_in_a_cycle_once_set_aside_is_collected_by_the_tidy_up(settled):
    from bot.ui import turnstile
    from bot.ui.turnstile import YOUNG, between_presses, tidy_up

    holder, dead = _in_a_cycle()
    kept = [[i] for i in range(YOUNG + 200)]
    assert between_presses() == 0  # set aside before it died: young collections no longer see it
    assert _set_aside(holder[0])
    holder.clear()  # dies in its cycle
    kept.extend([i] for i in range(YOUNG + 200))
    assert between_presses() == 0 and gc.collect(1) == 0
    assert dead() is not None
    assert turnstile._aside == 2
    assert tidy_up() >= 1
    assert dead() is None
    assert turnstile._aside == 0
    assert _set_aside(kept)  # what lives on is set aside again


async def test_the_tidy_up_waits_for_a_quiet_moment(settled, monkeypatch):
    """Once ``TIDY_AFTER`` set-asides were made, the tidy-up is made ``quiet`` seconds after the
    last interaction left; an interaction coming meanwhile puts it off, and a sweep at work (its
    own thresholds) leaves it to the next interaction to leave."""
    from bot.ui import turnstile
    from bot.ui.turnstile import YOUNG

    monkeypatch.setattr(turnstile, "TIDY_AFTER", 2)
    gate = Turnstile(size=2, patience=5.0, quiet=0.05)
    holder, dead = _in_a_cycle()
    kept = []
    for _ in range(2):
        async with gate():
            kept.extend([i] for i in range(YOUNG + 200))
        holder.clear()  # set aside, then dead in its cycle
        assert dead() is not None
    assert gate._tidy is not None and turnstile.tidy_due()
    async with gate():  # comes before the quiet moment: put off
        assert gate._tidy is None
        await asyncio.sleep(0.1)
        assert dead() is not None
    planned = gate._tidy
    assert planned is not None
    gc.set_threshold(1500, 1, 1000)  # a sweep's (bot.tables.clock.loop_first)
    await asyncio.sleep(0.1)
    assert dead() is not None and gate._tidy is None
    gc.set_threshold(*settled_threshold())
    async with gate():
        pass
    assert gate._tidy is not None
    await asyncio.sleep(0.1)
    assert dead() is None and not turnstile.tidy_due()
    assert gate._tidy is None


async def test_a_closed_turnstile_plans_no_tidy_up(settled, monkeypatch):
    from bot.ui import turnstile
    from bot.ui.turnstile import YOUNG

    monkeypatch.setattr(turnstile, "TIDY_AFTER", 1)
    gate = Turnstile(size=2, patience=5.0, quiet=0.05)
    kept = []
    async with gate():
        kept.extend([i] for i in range(YOUNG + 200))
    assert gate._tidy is not None
    gate.close()
    assert gate._tidy is None
    async with gate():
        kept.extend([i] for i in range(YOUNG + 200))
    assert gate._tidy is None and turnstile.tidy_due()


def settled_threshold() -> tuple[int, int, int]:
    from bot.app import GC_THRESHOLD

    return GC_THRESHOLD


async def test_the_tidy_up_is_made_anyway_if_the_bot_is_never_quiet(settled, monkeypatch):
    from bot.ui import turnstile
    from bot.ui.turnstile import YOUNG, between_presses

    monkeypatch.setattr(turnstile, "TIDY_ANYWAY", 3)
    holder, dead = _in_a_cycle()
    kept = []
    made = []
    for _ in range(3):
        kept.extend([i] for i in range(YOUNG + 200))
        made.append(between_presses())
        holder.clear()  # set aside, then dead in its cycle
        assert (dead() is None) == (len(made) == 3)
    assert made == [0, 0, 2]
    assert dead() is None and turnstile._aside == 0


async def test_a_young_collection_every_few_interactions_whatever_the_count_says(settled):
    """The count is new objects minus freed ones of any generation: old ones freed in numbers
    hide a growing young generation from it. A young collection is made every ``EVERY``
    interactions all the same."""
    seen = settled
    from bot.ui import turnstile
    from bot.ui.turnstile import EVERY, YOUNG, between_presses

    old = [[i] for i in range(YOUNG * EVERY * 2)]
    gc.collect()  # now old: freeing them lowers the count
    turnstile._since = 0
    made, kept, before = [], [], len(seen.generations)
    for _ in range(EVERY * 2):
        kept.extend([i] for i in range(YOUNG // 2))  # new objects that stay alive
        del old[: YOUNG // 2]  # as many old ones freed: the count stays low
        assert gc.get_count()[0] < YOUNG
        made.append(between_presses())
    assert made[EVERY - 1] == 0 and made[2 * EVERY - 1] is not None
    assert made.count(None) == 2 * EVERY - 2
    assert seen.generations[before:] == [g for g in made if g is not None]


async def test_no_collection_is_made_here_before_the_bot_has_settled():
    from bot.ui.turnstile import YOUNG, between_presses

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        kept = [[i] for i in range(YOUNG)]
        assert between_presses() is None
        assert kept
    finally:
        gc.set_threshold(*before)


async def test_presses_whose_patience_ran_out_together_go_in_a_few_a_turn():
    """A burst's presses come in together and their patience runs out together: they go in
    ``size`` a turn of the event loop, first come first in, not all in one turn."""
    from tests.test_loop import Turns

    gate = Turnstile(size=2, patience=0.05)
    hold = asyncio.Event()

    async def stuck() -> None:
        async with gate():
            await hold.wait()

    holders = [asyncio.create_task(stuck()) for _ in range(2)]
    await asyncio.sleep(0)
    turns = Turns()
    went_in: list[tuple[int, int]] = []

    async def press(i: int) -> None:
        async with gate():
            went_in.append((i, turns.n))

    pressing = [asyncio.create_task(press(i)) for i in range(7)]
    await asyncio.sleep(0)  # all seven wait for a slot
    time.sleep(0.1)  # the loop is busy while their patience runs out: it ran out for all in one turn
    await asyncio.gather(*pressing)
    turns.on = False
    hold.set()
    await asyncio.gather(*holders)
    assert [i for i, _ in went_in] == list(range(7))
    per_turn = [sum(1 for _, t in went_in if t == turn) for turn in sorted({t for _, t in went_in})]
    assert per_turn == [2, 2, 2, 1]
