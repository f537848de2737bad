"""Turn ping preferences and held-back pings, on both back ends: kept per server and user, the
default (every turn) keeps no row; held pings are taken out once due, earliest first, one a
channel and user (a newer one replaces the older), by shard."""

from __future__ import annotations

from bot.store.base import PingPref, PingWait


async def prefs_of(store, guild_id, user_ids):
    return {p.user_id: p for p in await store.all_ping_prefs() if p.guild_id == guild_id and p.user_id in user_ids}


async def test_ping_prefs_are_kept_per_server_and_user(store):
    assert await store.all_ping_prefs() == []
    await store.set_ping_pref(PingPref(7, 1, "after", 6), 100.0)
    await store.set_ping_pref(PingPref(7, 2, "never"), 100.0)
    await store.set_ping_pref(PingPref(8, 1, "never"), 100.0)
    assert await prefs_of(store, 7, [1, 2, 3]) == {1: PingPref(7, 1, "after", 6), 2: PingPref(7, 2, "never")}
    assert await prefs_of(store, 8, [1]) == {1: PingPref(8, 1, "never")}
    await store.set_ping_pref(PingPref(7, 1, "never"), 101.0)  # changed
    await store.set_ping_pref(PingPref(7, 2, "every"), 101.0)  # back to the default: no row
    assert await prefs_of(store, 7, [1, 2]) == {1: PingPref(7, 1, "never")}
    assert await prefs_of(store, 7, []) == {}
    big = 1234567890123456789  # snowflakes need 64 bits
    await store.set_ping_pref(PingPref(big, big, "after", 168), 1.0)
    assert await prefs_of(store, big, [big]) == {big: PingPref(big, big, "after", 168)}


async def test_held_pings_are_taken_once_when_due(store):
    waits = [PingWait(1, 10, None, "t1", 50.0, 200.0), PingWait(2, 10, 123 << 22, "t2", 60.0, 150.0),
             PingWait(3, 11, (124 << 22) | 1, "t3", 70.0, 400.0)]
    await store.put_ping_waits(waits)
    await store.put_ping_waits([])
    assert await store.due_ping_waits(100.0) == []
    assert await store.due_ping_waits(250.0) == [waits[1], waits[0]], "earliest first"
    assert await store.due_ping_waits(250.0) == [], "taken out once"
    newer = PingWait(3, 11, (124 << 22) | 1, "t4", 90.0, 300.0)
    await store.put_ping_waits([newer])  # the same channel and user: replaces the older
    assert await store.due_ping_waits(1000.0, shards=(2, [1])) == [], "guild 124 is shard 0 of 2"
    assert await store.due_ping_waits(1000.0, shards=(2, [0])) == [newer]
    await store.put_ping_waits(waits)
    assert await store.due_ping_waits(1000.0, limit=1) == [waits[1]]
    assert len(await store.due_ping_waits(1000.0)) == 2
