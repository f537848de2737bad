"""Watchers and watch invites, on both back ends: remembered, listed per table, marked with what
they show (a later mark stays), forgotten one by one or all at a game's end; the tables in play
of a server listed for the watch picker."""

from __future__ import annotations

from bot.store import Seat
from tests.store.helpers import playing, row

SNOWFLAKE = 1234567890123456789  # Discord's ids need 64 bits


async def test_watchers_are_kept_per_table_until_dropped_or_the_game_ends(store):
    a = await store.add_watcher("t1", 10, 7, SNOWFLAKE, SNOWFLAKE + 1)
    b = await store.add_watcher("t1", 10, 8, 20, 21, token="tok", until=1e9, shows=3)
    c = await store.add_watcher("t2", 11, 7, 30, 31)
    assert a.id != b.id != c.id
    assert [w.id for w in await store.watchers("t1")] == [a.id, b.id]
    assert [w.id for w in await store.watchers()] == [a.id, b.id, c.id]
    got = (await store.watchers("t1"))[1]
    assert got == b and (got.token, got.until, got.shows) == ("tok", 1e9, 3)
    assert (await store.watchers("t1"))[0].channel_id == SNOWFLAKE
    await store.mark_watchers_shown([(a.id, 5), (b.id, 2)])
    shows = {w.id: w.shows for w in await store.watchers("t1")}
    assert shows == {a.id: 5, b.id: 3}, "a later mark stays"
    assert await store.drop_watchers([a.id, 999]) == 1
    assert await store.drop_watchers([]) == 0
    assert [w.id for w in await store.watchers("t1")] == [b.id]
    await store.put_watch_invite("code1", "t1", 10, 7)
    await store.put_watch_invite("code2", "t2", 11, 7)
    assert await store.watch_invite("code1") == ("t1", 10)
    assert await store.watch_invite("nope") is None
    await store.end_watching("t1")
    assert await store.watchers("t1") == [] and await store.watch_invite("code1") is None
    assert [w.id for w in await store.watchers("t2")] == [c.id] and await store.watch_invite("code2") == ("t2", 11)


async def test_watchers_survive_reopening_the_store(backend):
    s = await backend.open()
    w = await s.add_watcher("t1", 10, 7, 20, 21)
    await s.close()
    s = await backend.open()
    try:
        assert await s.watchers("t1") == [w]
    finally:
        await s.close()


async def test_live_tables_of_a_server_are_its_tables_in_play(store):
    guild = 555 << 22
    await store.save(playing(1, guild_id=guild, game="court_wars", seats=[Seat(7, "Ana"), Seat(8, "Ben")]), None)
    await store.save(row(2, guild_id=guild), None)  # a lobby: not in play
    await store.save(playing(3, guild_id=guild + 1), None)  # another server
    await store.save(playing(4), None)  # a DM
    found = await store.live_tables(guild)
    assert [(t.channel_id, t.game, t.players) for t in found] == [(1, "court_wars", ("Ana", "Ben"))]
    assert found[0].table_id == (await store.get(1)).table_id


async def test_watchers_from_before_their_language_was_kept_read_their_tables_and_new_ones_keep_it(backend):
    """The store as it was before a watcher's language was kept (the column not there, the schema one
    version back), with a watcher in it: opened, it migrates, the old watcher reads "" (its table's
    language) and a new one keeps its own."""
    s = await backend.open()
    if backend.name == "sqlite":
        read, write = "PRAGMA user_version", "PRAGMA user_version = {}"
    else:
        read, write = "SELECT version FROM deckhand_schema", "UPDATE deckhand_schema SET version = {}"
    ((latest,),) = await s.execute(read)
    await s.execute("ALTER TABLE watchers DROP COLUMN lang")
    await s.execute(write.format(latest - 1))
    await s.execute("INSERT INTO watchers (table_id, table_channel, user_id, channel_id, message_id, shows, created_at) "
                    "VALUES ('t1', 10, 7, 20, 21, 4, 1.0)")
    await s.close()
    s = await backend.open()
    try:
        (old,) = await s.watchers("t1")
        assert (old.user_id, old.message_id, old.shows, old.lang) == (7, 21, 4, "")
        new = await s.add_watcher("t1", 10, 8, 30, 31, lang="de")
        assert [(w.id, w.lang) for w in await s.watchers("t1")] == [(old.id, ""), (new.id, "de")]
    finally:
        await s.close()
