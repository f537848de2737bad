"""The turnstile: at most ``size`` interactions worked on at once; a press waits at most
``patience`` seconds; views made only of Deckhand's buttons are not kept by discord.py."""

from __future__ import annotations

import asyncio

import discord

from bot.app import answered_by_dynamic_items
from bot.ui.turnstile import Turnstile


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
