"""Whatever changes, every reader's facts are those of the stored row."""

from __future__ import annotations

import random


from bot.engine.registry import spec
from bot.tables.base import _working_copy
from bot.tables.desk import Desk
from bot.tables.games import load_game
from bot.tables.reader import TableFacts, reader_of

KRPD = "knight_rogue_princess_dragon"
CH = 556


async def stored_facts(service) -> TableFacts:
    """The facts of the row as stored."""
    return TableFacts.of(await service.store.get(CH))


async def test_every_readers_facts_are_the_stored_rows(service, people):
    desk = Desk(service)
    await desk.new_table(CH, 1, people[0], KRPD, [])
    for p in people[1:4]:
        await desk.join(CH, p)
    update = await desk.start(CH, people[0])
    rng = random.Random(3)
    for step in range(40):
        assert update.table == await stored_facts(service)
        public = await desk.public(CH)
        assert public is not None and public.table == update.table
        if public.table.status != "playing":
            break
        row = service.cached(CH)
        seat = min(load_game(row).to_act())
        mine = await desk.reader(CH, people[seat].user_id)
        assert mine.table == update.table
        hand = await desk.hand(CH, people[seat].user_id)
        assert hand.table == update.table
        if step == 5:  # changed in place without a new revision: the readers see it at once
            await desk.set_message_id(CH, 4242)
            assert (await desk.public(CH)).table.message_id == 4242
            assert (await desk.hand(CH, people[seat].user_id)).table.message_id == 4242
            assert (await stored_facts(service)).message_id == 4242
        move = str(spec(KRPD).player(load_game(row), seat, rng))
        update = await desk.move(CH, people[seat], move)
        assert update.table.revision == public.table.revision + 1
        assert update.table.moves > public.table.moves


def test_a_working_copy_makes_its_own_facts(service, people):
    from bot.store import Seat, TableRow

    row = TableRow(CH, 1, KRPD, "lobby", 100, [Seat(100, "Ana")], [], 7, table_id="t1")
    copy = _working_copy(row)
    copy.seats.append(Seat(101, "Ben"))
    assert [s.name for s in reader_of(copy, None, None).table.seats] == ["Ana", "Ben"]
    row.status = "abandoned"  # in place: a new status is new facts
    assert reader_of(row, None, None).table.status == "abandoned"
    assert TableFacts.of(row, damaged="broken").damaged == "broken"
    assert reader_of(row, None, None).table.damaged is None
