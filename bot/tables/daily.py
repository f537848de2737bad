"""The daily challenge: the same Gridcannon deal for everyone each UTC day, one attempt each, and its board."""

from __future__ import annotations

import hashlib
import logging
import time

from bot.engine.words import say
from bot.engine.registry import spec, with_article
from bot.store import Seat, StoreError, TableRow, new_table_id
from bot.store.base import DailyEntry
from bot.tables.base import DEFAULT_TURN_LIMIT, Actor, Change
from bot.tables.errors import TableError
from bot.tables.games import load_game

log = logging.getLogger("bot.tables")
DAILY_GAME = "gridcannon"  # the daily challenge: everyone gets the same deal of this game each UTC day


class Daily:
    """The daily challenge (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def start_daily(self, channel_id: int, actor: Actor, day: str | None = None) -> Change:
        """Deal ``day``'s challenge (default: today, UTC) at the user's own (DM) table: the same deck
        for everyone that day; one attempt per player per day, taken when the deal is made."""
        day = day or daily_day(self.clock())
        cls = spec(DAILY_GAME)
        async with self._locks[channel_id]:
            old = await self.store.get(channel_id)
            if old is not None and old.status in ("lobby", "playing"):
                raise TableError(say("There is a {title} table open in our DMs already: finish it, or `/game abandon` it "
                                     "there, then ask for the daily challenge again.",
                                     title=with_article("a", spec(old.game).title)[2:]))
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=None, game=DAILY_GAME, status="lobby", host_id=actor.user_id,
                seats=[Seat(actor.user_id, actor.name)], options=cls.options.parse([]).dump(), seed=daily_seed(day),
                revision=1, turn_limit=old.turn_limit if old else DEFAULT_TURN_LIMIT,
                series={"daily": day, **({"lang": actor.lang} if actor.lang != "en" else {})},  # a DM: its player's
                created_at=now, updated_at=now, table_id=new_table_id(),
            )
            if not await self.store.daily_claim(day, actor.user_id, actor.name, table.table_id, now):
                raise TableError(say("You have played the daily challenge of {day} already (one attempt a day). A new deal "
                                     "comes at midnight UTC; `/game daily leaderboard:True` shows the day's board.", day=day))
            change = Change(table, events=[say("{name} takes on the daily challenge of {day}.", name=actor.name,
                                               day=day)])
            try:
                self._start(table, change)
                await self.store.save(table, None)
            except BaseException:
                await self.store.daily_release(day, actor.user_id, table.table_id)
                raise
            return change

    async def _after_finish(self, table: TableRow) -> None:
        """A daily challenge's game ended (won, lost or abandoned): its attempt gets the result."""
        day = table.series.get("daily")
        if not day or table.state is None:
            return
        game = load_game(table)
        outcome = game.outcome()
        won = outcome is not None and bool(outcome.winners)
        details = dict(outcome.details or {}) if outcome is not None else {}
        kills = details.get("kills")
        try:
            await self.store.daily_finish(table.table_id, self.clock(), won,
                                          outcome.score if won and outcome else None,
                                          int(kills) if isinstance(kills, int) else None)
        except StoreError as e:  # the move itself is saved; only the day's board misses this result
            log.error("could not record the daily result of table %s: %s", table.table_id, e)

    async def daily_board(self, day: str | None = None) -> list[DailyEntry]:
        """The day's finished attempts, best first: wins before losses, then the higher score, then
        more royals killed, then the quicker time."""
        day = day or daily_day(self.clock())
        done = [e for e in await self.store.daily_entries(day) if e.finished_at is not None]
        return sorted(done, key=lambda e: (not e.won, -(e.score if e.score is not None else -1),
                                           -(e.kills or 0), e.seconds or 0.0, e.user_id))

    async def daily_attempt(self, user_id: int, day: str | None = None) -> DailyEntry | None:
        day = day or daily_day(self.clock())
        return next((e for e in await self.store.daily_entries(day) if e.user_id == user_id), None)


def daily_day(now: float) -> str:
    """The UTC date of ``now`` (unix seconds), e.g. ``"2026-11-23"``: the daily challenge's name."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def daily_seed(day: str) -> int:
    """The day's deal: the same 63-bit seed for everyone, from the date alone."""
    return int.from_bytes(hashlib.blake2s(f"deckhand-daily:{day}".encode(), digest_size=8).digest(), "big") >> 1


