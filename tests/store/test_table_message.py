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
