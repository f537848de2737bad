"""Turn limits at the table service, on a real SQLite file with a hand-moved clock: a warning
when a quarter of the turn is left (once per turn), time up (once), a limit shorter than the
sweep's period, Skip playing the late player's whole turn, and a sweep that never saves a table
which moved on after it was read as due.

Court Wars with three players: a turn opens with two decisions (draw, then place a guard)."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import spec
from bot.i18n import words
from bot.tables import CLOCK, TIME_UP, WARNING, TableError
from bot.tables.games import load_game
from tests.service_helpers import open_race
from tests.test_i18n_messages import english_left

CW = "court_wars"
CH = 777


async def three(service, people, limit=600):
    await service.new_table(CH, 1, people[0], CW, seed=5)
    for p in people[1:3]:
        await service.join(CH, p)
    await service.set_turn_limit(CH, people[0], limit)
    return await service.start(CH, people[0])


async def to_act(service):
    table = await service.get(CH)
    return table, min(load_game(table).to_act())


async def test_a_warning_once_a_turn_then_time_up_once(service, clock, people):
    await three(service, people, limit=600)
    table, late = await to_act(service)
    clock.advance(449)
    assert await service.check_timeouts() == []
    clock.advance(1)  # 450 s of 600: a quarter of the turn is left
    [change] = await service.check_timeouts()
    notice = change.notice
    assert notice.kind == WARNING and notice.users == (people[late].user_id,)
    assert notice.message() == f"<@{people[late].user_id}> — a quarter of your turn is left at Court Wars " \
                               "(about 2 min 30 s to go)."
    late_id = people[late].user_id  # the notice in a German table's words, its time too
    assert notice.message(words("de")) == f"<@{late_id}> — bei Court Wars bleibt dir noch ein Viertel deiner Zugzeit " \
                                          "(noch etwa 2 Min. 30 Sek.)."
    assert change.events == [] and not change.table.timed_out
    assert await service.check_timeouts() == [], "a warning is sent once"
    clock.advance(149)
    assert await service.check_timeouts() == []
    clock.advance(1)
    [change] = await service.check_timeouts()
    assert change.notice.kind == TIME_UP and change.notice.users == (people[late].user_id,)
    assert "time is up at Court Wars" in change.notice.text and "**Skip**" in change.notice.text
    assert change.table.timed_out and "Time is up for" in change.events[0]
    for lang in ("es", "de"):  # the time up, said in a Spanish or German table's words
        said = change.notice.message(words(lang)) + "\n" + words(lang).say(change.events[0])
        assert english_left(said, lang) == [] and people[late].name in said, said
    clock.advance(3600)
    assert await service.check_timeouts() == [], "time up is told once, and no warning follows it"


async def test_a_turn_of_several_steps_is_warned_once_and_the_next_turn_again(service, clock, people):
    await three(service, people, limit=600)
    _, first = await to_act(service)
    clock.advance(460)
    [change] = await service.check_timeouts()
    assert change.notice.kind == WARNING
    await service.move(CH, people[first], "draw")  # the same turn goes on (place a guard next)
    table, still = await to_act(service)
    assert still == first and table.turn_since == change.table.turn_since
    clock.advance(60)
    assert await service.check_timeouts() == [], "still the same turn: warned already"
    game = load_game(table)
    guard = str(spec(CW).player(game, first, random.Random(1)))
    await service.move(CH, people[first], guard)  # the turn passes
    _, nxt = await to_act(service)
    assert nxt != first
    clock.advance(449)
    assert await service.check_timeouts() == []
    clock.advance(1)
    [change] = await service.check_timeouts()
    assert change.notice.kind == WARNING and change.notice.users == (people[nxt].user_id,)


async def test_a_limit_shorter_than_the_sweep_period_still_works(service, store, clock, people):
    """A sweep that comes after the whole turn ran out says time up, once, and no warning;
    a 2-second limit (shorter than the sweep's 5 s) is warned and timed out in its own turn."""
    await three(service, people, limit=60)
    _, late = await to_act(service)
    clock.advance(65)  # the sweep last ran before the warning was due: both are past now
    [change] = await service.check_timeouts()
    assert change.notice.kind == TIME_UP and change.notice.users == (people[late].user_id,)
    assert await service.check_timeouts() == []

    table = await store.get(CH)  # a limit below what /game turnlimit allows, set in the store
    table.turn_limit, table.timed_out, table.turn_since = 2, False, clock()
    table.revision += 1
    await store.save(table, table.revision - 1)
    clock.advance(1.5)
    [change] = await service.check_timeouts()
    assert change.notice.kind == WARNING
    clock.advance(0.5)
    [change] = await service.check_timeouts()
    assert change.notice.kind == TIME_UP


async def test_skip_plays_the_whole_turn_and_the_time_up_goes_away(service, clock, people):
    await three(service, people, limit=60)
    table, late = await to_act(service)
    assert load_game(table).decision_of(late).name == "pick"  # a turn of two decisions
    with pytest.raises(TableError, match="Nobody has run out of time"):
        await service.skip(CH, people[(late + 1) % 3])
    clock.advance(61)
    await service.check_timeouts()
    moves_before = len((await service.get(CH)).moves)
    change = await service.skip(CH, people[(late + 1) % 3])
    played = change.table.moves[moves_before:]
    assert len(played) == 2 and all(m[0] == late for m in played), played
    assert played[0][1] == "draw" and played[1][1].startswith("place")
    after = await service.get(CH)
    game = load_game(after)
    assert late not in game.to_act()
    assert not after.timed_out and after.turn_since == clock()
    assert after.alarm == clock() + 45, "the next player's turn has its own warning"
    with pytest.raises(TableError, match="Nobody has run out of time"):
        await service.remove(CH, people[(late + 2) % 3])


async def test_the_sweep_leaves_a_table_that_moved_on_after_it_was_read(service, store, clock, people):
    """The player moves between the sweep's read and its write: nothing is saved or told."""
    await three(service, people, limit=600)
    _, late = await to_act(service)
    clock.advance(451)
    read = store.due

    async def due_then_move(*args, **kw):
        page = await read(*args, **kw)
        if page:
            await service.move(CH, people[late], "draw")
        return page

    store.due = due_then_move
    revision = (await service.get(CH)).revision
    # Same turn (draw does not pass it), so the warning is still due: it is sent.
    [change] = await service.check_timeouts()
    # The move's revision only: the warning is saved at it (the table's buttons stay valid)…
    assert change.table.revision == revision + 1 and change.quiet and change.notice.quiet
    stored = await service.get(CH)  # …and both the move and the warning's mark are in the store
    assert stored.revision == revision + 1 and stored.warned_for == stored.turn_since and len(stored.moves) > 0
    table = await service.get(CH)
    guard = str(spec(CW).player(load_game(table), late, random.Random(2)))
    store.due = read
    clock.advance(10)

    async def due_then_pass(*args, **kw):
        page = await read(*args, **kw)
        if page:
            await service.move(CH, people[late], guard)
        return page

    clock.advance(150)  # the deadline is due…
    store.due = due_then_pass
    revision = (await service.get(CH)).revision
    assert await service.check_timeouts() == [], "…but the turn passed before the sweep wrote"
    assert (await service.get(CH)).revision == revision + 1  # only the move was saved


async def test_a_rulebook_clock_that_runs_out_tells_whose_turn_it_is(service, clock, people):
    """KRPD's Open Race: the 60 s clock runs out, every racer passes, and the short message
    mentions whoever acts next (a clock's notice, not a time-up)."""
    await open_race(service, CH, people)
    clock.advance(61)
    [change] = await service.check_timeouts()
    assert change.notice.kind == CLOCK and "the clock ran out at" in change.notice.text
    assert "(60 s with no play)" in change.notice.text and "(60 s with no play)" in change.events[0]
    assert "(60 s sin jugar)" in change.notice.message(words("es")) and \
        words("de").say(change.events[0]) == "Die Uhr ist abgelaufen (60 s ohne Zug)."
    after = change.table
    if after.status == "playing":
        acting = {after.seats[s].user_id for s in load_game(after).to_act()}
        assert set(change.notice.users) <= acting


async def test_a_turn_limit_of_zero_switches_it_off(service, clock, people):
    """`/game turnlimit minutes:0`: no warning, no time up, however long a turn takes; a limit
    under a minute (but not 0) is still refused."""
    with pytest.raises(TableError, match="at least 1 minute"):
        await three(service, people, limit=30)
    change = await service.set_turn_limit(CH, people[0], 0)
    assert "off" in change.events[-1]
    await service.start(CH, people[0])
    table, _ = await to_act(service)
    assert table.turn_limit == 0 and table.deadline is None and table.warn_at is None
    clock.advance(30 * 24 * 3600)
    assert await service.check_timeouts() == []
    assert not (await service.get(CH)).timed_out


async def test_a_table_busy_with_another_action_is_swept_after_it(service, clock, people):
    """The sweep saves a page's warnings together, but never waits for a table's lock while it holds
    others: a table busy with another action is swept on its own once that action is done."""
    import asyncio

    await three(service, people, limit=600)
    clock.advance(451)
    lock = service._locks[CH]
    await lock.acquire()  # another action on the table
    sweep = asyncio.create_task(service.check_timeouts())
    await asyncio.sleep(0.05)
    assert not sweep.done(), "the busy table waits for its action"
    lock.release()
    [change] = await sweep
    assert change.notice.kind == WARNING
    assert await service.check_timeouts() == []


async def test_a_warning_keeps_the_revision_so_the_buttons_stay_valid(service, clock, people):
    """A warning changes nothing players see on the table: it is saved at the same revision, a
    press carrying that revision is still accepted, and the turn is never warned twice."""
    await three(service, people, limit=600)
    table, late = await to_act(service)
    clock.advance(450)
    [change] = await service.check_timeouts()
    assert change.notice.kind == WARNING and change.quiet and change.notice.quiet
    assert change.table.revision == table.revision
    stored = await service.get(CH)
    assert (stored.revision, stored.warned_for, stored.warn_at) == (table.revision, table.turn_since, None)
    moved = await service.move(CH, people[late], "draw", table.revision)  # the button's revision
    assert moved.table.revision == table.revision + 1 and moved.table.warned_for == table.turn_since
    assert await service.check_timeouts() == [], "the mark survived the move"
    clock.advance(150)
    [change] = await service.check_timeouts()
    assert change.notice.kind == TIME_UP and not change.quiet and not change.notice.quiet
    assert change.table.revision == table.revision + 2, "time up shows on the table: a new revision"
