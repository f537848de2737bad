"""A row's reader facts are made once a row object and revision, and carried to the same row read
again from the store; whatever changes, every reader's facts are those of the stored row."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine.registry import spec
from bot.tables.base import FACTS, _working_copy
from bot.tables.desk import Desk
from bot.tables.games import load_game
from bot.tables.reader import TableFacts, reader_of

KRPD = "knight_rogue_princess_dragon"
CH = 556


async def stored_facts(service) -> TableFacts:
    """The facts of the row as stored, made afresh (no row of this process lends them)."""
    row = await service.store.get(CH)
    assert FACTS not in row.__dict__
    return TableFacts.of(row)


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
        assert mine.table is update.table  # the same stored row: its facts carried, not made again
        hand = await desk.hand(CH, people[seat].user_id)
        assert hand.table is update.table
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
    first = reader_of(row, None, None).table
    assert reader_of(row, None, None).table is first
    copy = _working_copy(row)
    assert FACTS not in copy.__dict__
    copy.seats.append(Seat(101, "Ben"))
    assert [s.name for s in reader_of(copy, None, None).table.seats] == ["Ana", "Ben"]
    row.status = "abandoned"  # in place: a new status is new facts
    assert reader_of(row, None, None).table.status == "abandoned"
    assert TableFacts.of(row, damaged="broken").damaged == "broken"
    assert reader_of(row, None, None).table.damaged is None


def test_facts_hold_every_field_as_made_by_their_class(service, people):
    from bot.store import Seat, TableRow

    row = TableRow(CH, 1, KRPD, "playing", 100, [Seat(100, "Ana"), Seat(-1, "Bot")], ["Open Race"], 7,
                   state={}, table_id="t2", series={"daily": "2026-11-26"})
    row.message_id = 9
    facts = TableFacts.of(row)
    made = TableFacts(**{f.name: getattr(facts, f.name) for f in dataclasses.fields(TableFacts)})
    assert set(vars(facts)) == {f.name for f in dataclasses.fields(TableFacts)}
    assert facts == made and hash(facts) == hash(made) and repr(facts) == repr(made)
    assert facts.seats == (made.seats[0], made.seats[1]) and facts.seats[1].is_bot and facts.daily == "2026-11-26"
    assert [set(vars(s)) for s in facts.seats] == [{"user_id", "name"}] * 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        facts.revision = 3
