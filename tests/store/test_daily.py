"""The daily challenge's attempts on both back ends: one per (day, user), released only while
open, finished once, read back per day."""

from __future__ import annotations

from bot.store.base import DailyEntry

DAY = "2026-11-23"


async def test_one_attempt_per_user_per_day(store):
    assert await store.daily_claim(DAY, 7, "Ana", "t-ana", 100.0)
    assert not await store.daily_claim(DAY, 7, "Ana", "t-ana-2", 200.0), "a second attempt the same day is refused"
    assert await store.daily_claim(DAY, 8, "Ben", "t-ben", 150.0)
    assert await store.daily_claim("2026-11-24", 7, "Ana", "t-ana-next", 90_000.0), "the next day is a new attempt"
    got = sorted(await store.daily_entries(DAY), key=lambda e: e.user_id)
    assert got == [DailyEntry(DAY, 7, "Ana", "t-ana", 100.0), DailyEntry(DAY, 8, "Ben", "t-ben", 150.0)]
    assert got[0].seconds is None


async def test_finish_once_by_table(store):
    await store.daily_claim(DAY, 7, "Ana", "t-ana", 100.0)
    await store.daily_claim(DAY, 8, "Ben", "t-ben", 150.0)
    assert await store.daily_finish("t-ana", 400.0, True, 9, 12)
    assert not await store.daily_finish("t-ana", 500.0, False, None, 3), "a result is recorded once"
    assert not await store.daily_finish("t-nobody", 500.0, False, None, 3)
    assert await store.daily_finish("t-ben", 250.0, False, None, 5)
    got = {e.user_id: e for e in await store.daily_entries(DAY)}
    assert (got[7].won, got[7].score, got[7].kills, got[7].seconds) == (True, 9, 12, 300.0)
    assert (got[8].won, got[8].score, got[8].kills, got[8].seconds) == (False, None, 5, 100.0)


async def test_release_gives_back_only_an_open_attempt_of_that_table(store):
    await store.daily_claim(DAY, 7, "Ana", "t-ana", 100.0)
    await store.daily_release(DAY, 7, "t-other")
    assert len(await store.daily_entries(DAY)) == 1, "another table's release leaves the attempt"
    await store.daily_release(DAY, 7, "t-ana")
    assert await store.daily_entries(DAY) == []
    assert await store.daily_claim(DAY, 7, "Ana", "t-ana-2", 120.0)
    await store.daily_finish("t-ana-2", 200.0, False, None, 0)
    await store.daily_release(DAY, 7, "t-ana-2")
    assert len(await store.daily_entries(DAY)) == 1, "a finished attempt stays"


async def test_attempts_survive_reopening(backend):
    s = await backend.open()
    await s.daily_claim(DAY, 2**40, "Big id", "t-big", 1.5)
    await s.close()
    s = await backend.open()
    try:
        assert [e.user_id for e in await s.daily_entries(DAY)] == [2**40]
    finally:
        await s.close()
