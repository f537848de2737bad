"""The table's public message id, on both back ends: recorded apart from ``save``, kept by saves,
forgotten when the table is replaced by a new one."""

from __future__ import annotations

from tests.store.helpers import row


async def test_table_message_is_kept_by_saves_and_dropped_by_a_new_table(store):
    t = row()
    await store.save(t, None)
    assert await store.message_id(1) is None
    await store.set_message_id(1, 1234567890123456789)  # a Discord snowflake needs 64 bits
    assert await store.message_id(1) == 1234567890123456789
    got = await store.get(1)
    got.events.append("something happened")
    await store.save(got, got.revision)  # a move does not forget the message
    assert await store.message_id(1) == 1234567890123456789
    await store.save(row(), None)  # a new table in the channel starts without one
    assert await store.message_id(1) is None
    assert await store.message_id(2) is None  # no table at all
    await store.set_message_id(2, 5)  # nothing to record it on: no error, nothing kept
    assert await store.message_id(2) is None


async def test_a_table_message_behind_its_table_is_found_until_marked_shown(store):
    for ch, guild in ((1, None), (2, 123 << 22), (3, (124 << 22) | 1)):
        await store.save(row(ch, guild_id=guild), None)
        await store.set_message_id(ch, 1000 + ch)
    await store.save(row(4), None)  # no table message: never behind
    tables = {ch: await store.get(ch) for ch in (1, 2, 3)}
    assert sorted(await store.behind()) == [1, 2, 3], "a message not yet marked shown may be behind"
    await store.mark_shown([(ch, t.table_id, t.revision) for ch, t in tables.items()])
    assert await store.behind() == []
    for t in tables.values():
        t.events.append("a move")
        t.revision += 1
        await store.save(t, t.revision - 1)
    assert sorted(await store.behind()) == [1, 2, 3]
    assert sorted(await store.behind((2, [0]))) == [1, 3], "shard 0 of 2: the DM and guild 124"
    t1, t2 = await store.get(1), await store.get(2)
    await store.mark_shown([(1, t1.table_id, t1.revision), (2, t2.table_id, t2.revision - 1),
                            (3, "another table", 99)])
    assert sorted(await store.behind()) == [2, 3], "an older mark, or another table's, is not this one's"
    await store.mark_shown([(2, t2.table_id, t2.revision), (2, t2.table_id, t2.revision - 1)])
    assert await store.behind() == [3], "a later mark stays"
