"""Bot seats' levels in the store, on both back ends: kept with the seats (no new column), a
seat stored before levels reads with none (it plays Normal), and a table whose bot thinks is
due for the sweep at once (a restart resumes it)."""

from __future__ import annotations

from bot.store import Seat
from bot.store.base import BOT_THINKING
from bot.store.rows import seat_form, seat_of_form
from bot.tables.bots import bot_level
from tests.store.helpers import playing, row


def test_a_seat_without_a_level_keeps_the_old_stored_form():
    assert seat_form(Seat(7, "Ana")) == [7, "Ana"]
    assert seat_form(Seat(-1, "Deckhand bot 1", "strong")) == [-1, "Deckhand bot 1", "strong"]
    old = seat_of_form([-1, "Deckhand bot 1"])
    assert old == Seat(-1, "Deckhand bot 1", None) and bot_level(old) == "normal"
    assert bot_level(Seat(-2, "Deckhand bot 2", "grandmaster")) == "normal", "a level unknown here plays Normal"


async def test_levels_round_trip_and_old_seats_read_as_normal(store):
    seats = [Seat(7, "Ana"), Seat(-1, "Deckhand bot 1", "strong"), Seat(-2, "Deckhand bot 2", "easy"),
             Seat(-3, "Deckhand bot 3")]  # the last as a row written before levels stores it
    await store.save(row(seats=seats, game="court_wars", guild_id=5), None)
    got = await store.get(1)
    assert got.seats == seats
    assert [bot_level(s) for s in got.seats[1:]] == ["strong", "easy", "normal"]
    got.status = "playing"
    await store.save(got, 1)
    live = await store.live_tables(5)
    assert [t.players for t in live] == [("Ana", "Deckhand bot 1", "Deckhand bot 2", "Deckhand bot 3")], \
        "a table with levelled bots is still offered to watch"


async def test_a_thinking_bot_makes_its_table_due_at_once(store):
    await store.save(playing(1, since=1000.0, limit=0), None)  # no turn limit: never due
    await store.save(playing(2, since=1000.0, limit=0, series={BOT_THINKING: 1500.0}), None)
    due = await store.due(2000.0)
    assert [t.channel_id for t in due] == [2]
    assert await store.due(1400.0) == []
    t = await store.get(2)
    t.series = {}
    await store.save(t, 1)  # the bot moved: the mark is gone, and so is the alarm
    assert await store.due(2000.0) == []
