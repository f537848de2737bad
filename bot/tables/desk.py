"""The table service as the Discord layer meets it: readers and updates, never games or rows.

:class:`Desk` wraps :class:`~bot.tables.service.TableService`: every action returns an
:class:`~bot.tables.reader.Update` (the public reader, the actor's reader and private lines,
pings, the end), every look a :class:`~bot.tables.reader.Reader`. A table whose row or moves
cannot be rebuilt is *damaged*: every look and action is refused with one line saying so, and
``abandon`` (host, owners or Manage Messages) sets it aside so the channel can play again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from bot.engine.hints import hint_sentence
from bot.engine.levels import DEFAULT_LEVEL
from bot.engine.registry import spec
from bot.records import redacted
from bot.store import AlreadySeen, DamagedTable, StoreError, TableRow
from bot.store.base import DailyEntry
from bot.tables.base import Actor, Change, table_key
from bot.tables.bots import next_bot_at
from bot.tables.daily import daily_day
from bot.tables.errors import AlreadyHandled, StaleError, TableError
from bot.tables.games import load_game
from bot.tables.lessons import Lessons
from bot.tables.pings import Pings
from bot.tables.reader import Reader, Update, reader_of, update_of
from bot.tables.service import TableService
from bot.tables.watching import Watching

log = logging.getLogger("bot.tables")

NO_TABLE = "There is no table in this channel. Start one with `/game new`."


class DamagedError(TableError):
    """The channel's table cannot be rebuilt (a damaged row or move log): nothing was changed."""

    def __init__(self, reason: str = ""):
        why = f" ({reason.rstrip('.')})" if reason else ""
        super().__init__(f"This table is damaged and cannot be played{why}. The host, or someone with Manage "
                         "Messages, can clear it with `/game abandon`; nothing else was changed.")
        self.reason = reason


REPLAY = "its game cannot be rebuilt from its moves"


def _unreplayable(e: BaseException) -> DamagedError:
    """A game that cannot be rebuilt: the player is told so in plain words (never the engine's
    refusal, which reads like a bad move of theirs and may name cards); the cause is logged."""
    log.warning("a damaged table: %s: %s", type(e).__name__, _one_line(e))
    return DamagedError(REPLAY)


def _game(table: TableRow) -> Any:
    """The table's game, or None before it is dealt; DamagedError when it cannot be rebuilt."""
    if table.state is None:
        return None
    try:
        return load_game(table)
    except Exception as e:  # any failure to rebuild a game is a damaged table, never a bad move
        raise _unreplayable(e) from e


def _one_line(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text if len(text) <= 120 else text[:119] + "…"


class RatingsReader:
    """The stored ratings as the Discord layer may read them."""

    def __init__(self, store: Any):
        self._store = store

    async def ratings(self, guild_id: int, game: str, users: list[int]) -> Any:
        return await self._store.ratings(guild_id, game, users)

    async def player_ratings(self, guild_id: int, user_id: int, game: str | None = None) -> Any:
        return await self._store.player_ratings(guild_id, user_id, game)

    async def rating_place(self, guild_id: int, game: str, user_id: int, min_games: int) -> Any:
        return await self._store.rating_place(guild_id, game, user_id, min_games)

    async def leaderboard(self, guild_id: int, game: str, min_games: int, limit: int) -> Any:
        return await self._store.leaderboard(guild_id, game, min_games, limit)


class Desk:
    """Readers and updates over one table service (the Discord layer's only way to the tables)."""

    def __init__(self, service: TableService):
        self._service = service
        self.watching = Watching(service.store)  # who watches which table from elsewhere (/game watch)
        self.pings = Pings(service)  # each player's turn pings (bot.tables.pings)
        self.lessons = Lessons(service.store)  # each player's private lessons (bot.tables.lessons)
        # Told each move a thinking (Strong) bot seat made off the loop, as the public may read it.
        self.on_bot_move: Callable[[Update], Awaitable[None]] | None = None
        service.on_bot_move = self._bot_moved

    @property
    def clock(self) -> Any:
        return self._service.clock

    # ----- looking --------------------------------------------------------------------
    async def _row(self, channel_id: int) -> TableRow | None:
        try:
            return await self._service.get(channel_id)
        except DamagedTable as e:
            raise DamagedError(e.reason) from None

    async def public(self, channel_id: int) -> Reader | None:
        """The public reader of the channel's table (None: no table)."""
        row = await self._row(channel_id)
        return reader_of(row, _game(row), None) if row is not None else None

    async def require_public(self, channel_id: int) -> Reader:
        found = await self.public(channel_id)
        if found is None:
            raise TableError(NO_TABLE)
        return found

    async def reader(self, channel_id: int, user_id: int, *, cached: bool = False) -> Reader:
        """The user's own reader (their seat's), else the public one; TableError if no table.
        ``cached``: from the row this process last saved when it has one (no store read; for words
        about a press, never for deciding anything)."""
        row = (self._service.last_saved(channel_id) if cached else None) or await self._row(channel_id)
        if row is None:
            raise TableError(NO_TABLE)
        return reader_of(row, _game(row), row.seat_of(user_id))

    async def hand(self, channel_id: int, user_id: int) -> Reader:
        """The seat's reader for its private panel (**My hand**): from the row this process saved
        last when its game is in play with this user seated — no store read, as for a picker's
        step (the panel's moves are checked against the stored revision when played); else from
        the stored row, which decides (the cached row may be behind, or gone). While a change of the
        table is in flight, the row it took out (the store's until it is saved), not a read."""
        row = self._service.last_saved(channel_id)
        if row is not None and row.status == "playing" and row.damaged is None and \
                (seat := row.seat_of(user_id)) is not None:
            try:
                return reader_of(row, _game(row), seat)
            except DamagedError:
                pass  # decided on the stored row
        return await self.reader(channel_id, user_id)

    def latest(self, channel_id: int, than: Reader) -> Reader:
        """The newest public reader this process holds of the same table (no store read): the
        table message shows the table as it is now when another action landed meanwhile."""
        row = self._service.cached(channel_id)
        if row is None or table_key(row) != than.table.key or row.revision <= than.table.revision:
            return than
        try:
            return reader_of(row, _game(row), None)
        except DamagedError:
            return than

    async def to_move(self, channel_id: int, user_id: int, tid: str, opened: int) -> Reader:
        """For offering moves (pickers, text boxes): the seat's reader if this user's decision is
        still the one the picker was made for; otherwise the refusal a move would get."""
        try:
            row, _, seat = await self._service.to_move(channel_id, user_id, tid, opened)
        except DamagedTable as e:
            raise DamagedError(e.reason) from None
        except TableError:
            await self._check_damaged(channel_id)
            raise
        except Exception as e:
            raise _unreplayable(e) from e
        return reader_of(row, _game(row), seat)

    # ----- acting ----------------------------------------------------------------------
    async def _do(self, actor_id: int | None, work: Any, channel_id: int | None = None) -> Update:
        try:
            change: Change = await work
        except (TableError, StaleError):
            if channel_id is not None:  # refused: a damaged table says so rather than the refusal
                await self._check_damaged(channel_id)
            raise
        except DamagedTable as e:
            raise DamagedError(e.reason) from None
        except AlreadySeen:
            raise AlreadyHandled() from None
        except StoreError:
            raise
        except Exception as e:  # a game that cannot be rebuilt is a damaged table, not a bad move
            raise _unreplayable(e) from e
        row = change.table
        update = update_of(change, _game(row), actor_id)
        if update.pings:  # each as its player chose: now, once the turn has waited, or never
            update.pings = await self.pings.now(row, update.pings)
        return update

    async def due_pings(self) -> list[tuple[Reader, list[int]]]:
        """The turn pings held back whose time has come, each turn still waiting: (public reader, users)."""
        out = []
        for row, users in await self.pings.due(self._row, self._service.sweep_shards):
            try:
                out.append((reader_of(row, _game(row), None), users))
            except DamagedError:
                continue
        return out

    async def _check_damaged(self, channel_id: int) -> None:
        """DamagedError when the channel's table in play cannot be rebuilt; else nothing."""
        row = await self._row(channel_id)
        if row is not None and row.status in ("lobby", "playing"):
            _game(row)

    async def new_table(self, channel_id: int, guild_id: int | None, actor: Actor, game_id: str,
                        options: list[str] | None = None) -> Update:
        row = await self._row(channel_id)
        if row is not None and row.status in ("lobby", "playing"):
            _game(row)  # a damaged table in the way says so (the host can set it aside)
        return await self._do(actor.user_id, self._service.new_table(channel_id, guild_id, actor, game_id, options), channel_id)

    async def new_like_last(self, channel_id: int, guild_id: int | None, actor: Actor) -> Update:
        """A new solo game of the same game and options as the channel's table (its **New game**)."""
        row = await self._row(channel_id)
        if row is None:
            raise TableError(NO_TABLE)
        return await self.new_table(channel_id, guild_id, actor, row.game, list(row.options))

    async def join(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.join(channel_id, actor), channel_id)

    async def leave(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.leave(channel_id, actor), channel_id)

    async def start(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.start(channel_id, actor), channel_id)

    async def cancel(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.cancel(channel_id, actor), channel_id)

    async def add_bot(self, channel_id: int, actor: Actor, revision: int | None = None,
                      level: str | None = None) -> Update:
        work = self._service.add_bot(channel_id, actor, revision=revision, level=level or DEFAULT_LEVEL)
        return await self._do(actor.user_id, work, channel_id)

    async def skip(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.skip(channel_id, actor, revision=revision), channel_id)

    async def remove(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.remove(channel_id, actor, revision=revision), channel_id)

    async def rematch(self, channel_id: int, actor: Actor, revision: int | None = None) -> Update:
        return await self._do(actor.user_id, self._service.rematch(channel_id, actor), channel_id)

    async def set_language(self, channel_id: int, actor: Actor, lang: str) -> Update:
        return await self._do(actor.user_id, self._service.set_language(channel_id, actor, lang), channel_id)

    async def set_turn_limit(self, channel_id: int, actor: Actor, seconds: int) -> Update:
        return await self._do(actor.user_id, self._service.set_turn_limit(channel_id, actor, seconds), channel_id)

    async def move(self, channel_id: int, actor: Actor, move: str, *, table: str | None = None,
                   opened: int | None = None, interaction: int | None = None) -> Update:
        """Play a move; ``interaction`` (the press's id) is remembered in the same write as the move,
        and a press delivered twice raises AlreadyHandled, having written nothing."""
        work = self._service.move(channel_id, actor, move, table=table, opened=opened, interaction=interaction)
        try:
            return await self._do(actor.user_id, work, channel_id)
        except TableError:  # refused before anything was written: a second delivery of a press is not refused
            if interaction is not None and not await self._service.first_delivery(interaction):
                raise AlreadyHandled() from None
            raise

    async def moves(self, channel_id: int, actor: Actor, moves: list[str], *, table: str | None = None,
                    opened: int | None = None, interaction: int | None = None) -> Update:
        """Play a sequence of moves in one press (each applied and logged alone; saved together)."""
        if len(moves) == 1:
            return await self.move(channel_id, actor, moves[0], table=table, opened=opened, interaction=interaction)
        work = self._service.moves(channel_id, actor, moves, table=table, opened=opened, interaction=interaction)
        try:
            return await self._do(actor.user_id, work, channel_id)
        except TableError:
            if interaction is not None and not await self._service.first_delivery(interaction):
                raise AlreadyHandled() from None
            raise

    async def abandon(self, channel_id: int, actor: Actor) -> Update | None:
        """Abandon the channel's table; a damaged one is set aside (its raw row kept for an
        operator) so the channel can play again — then None is returned (nothing to show)."""
        try:
            row = await self._service.get(channel_id)
            damaged = None
            if row is not None and row.state is not None and row.status in ("lobby", "playing"):
                try:
                    load_game(row)
                except Exception as e:
                    damaged = _one_line(e)
        except DamagedTable as e:
            row, damaged = None, e.reason
        if damaged is None:
            return await self._do(actor.user_id, self._service.abandon(channel_id, actor), channel_id)
        if not actor.can_manage and (row is None or row.host_id != actor.user_id):
            raise TableError("This table is damaged. Only the host (or someone with Manage Messages here) can clear "
                             "it with `/game abandon`.")
        await self._service.set_aside(channel_id, damaged)
        return None

    # ----- bots that pace like people in a race ----------------------------------------
    async def bot_wait(self, channel_id: int) -> float | None:
        """Seconds until a bot racing a person answers (None: no bot waits in a race)."""
        try:
            row = self._service.cached(channel_id) or await self._row(channel_id)
            game = _game(row) if row is not None and row.status == "playing" else None
        except DamagedError:
            return None
        due = next_bot_at(row, game) if game is not None else None
        return None if due is None else max(0.0, due - self.clock())

    async def play_due_bots(self, channel_id: int) -> Update | None:
        """Play the racing bots whose time has come (None when none is due any more)."""
        try:
            return await self._do(None, self._service.play_due_bots(channel_id))
        except TableError:
            return None

    # ----- bots that think (Strong seats, bot.tables.thinking) ---------------------------
    async def _bot_moved(self, change: Change) -> None:
        if self.on_bot_move is None:
            return
        update = update_of(change, _game(change.table), None)
        if update.pings:
            update.pings = await self.pings.now(change.table, update.pings)
        await self.on_bot_move(update)

    async def resume_thinking(self) -> int:
        """At start-up: the tables whose bot was thinking when the last process stopped think again."""
        return await self._service.resume_thinking()

    async def stop_thinking(self) -> None:
        """Stop this process's thinking bots (their tables stay marked for the next start)."""
        await self._service.stop_thinking()

    # ----- pickers, drafts, deliveries --------------------------------------------------
    async def save_drafts(self, drafts: Any, reader: Reader) -> None:
        """Store the partial actions a picker names by id, for this reader's seat and decision."""
        if reader.seat is None:
            return
        await self._service.save_drafts(drafts, reader.table.key, reader.seat, reader.opened)

    async def get_draft(self, key: str, channel_id: int, user_id: int, tid: str, opened: int) -> tuple[str, ...]:
        """A stored draft, only for the table, seat and decision it was made for."""
        return await self._service.get_draft(key, channel_id, user_id, tid, opened)

    async def first_delivery(self, interaction_id: int) -> bool:
        return await self._service.first_delivery(interaction_id)

    # ----- the table message ----------------------------------------------------------
    async def message_id(self, channel_id: int) -> int | None:
        return await self._service.message_id(channel_id)

    async def set_message_id(self, channel_id: int, message_id: int | None) -> None:
        await self._service.set_message_id(channel_id, message_id)

    async def mark_shown(self, shown: Sequence[tuple[int, str, int]]) -> None:
        """(channel, table key, revision): the table messages now show these revisions."""
        await self._service.mark_shown(shown)

    async def behind(self) -> list[int]:
        """The channels whose table message is behind its table (a crash between a commit and an edit)."""
        return await self._service.behind()

    # ----- records, hints, stats, the daily challenge, the sweep ----------------------
    async def export(self, channel_id: int) -> tuple[dict[str, Any], bool]:
        """The last finished game's record here, and whether its secrets were redacted."""
        row = await self._row(channel_id)
        if row is not None and row.status == "playing":
            raise TableError("The record holds the shuffle, so it is available once the game ends.")
        if row is not None and row.series.get("daily") == daily_day(self.clock()):
            raise TableError("Today's daily deal stays secret until the day ends (UTC); its record can be exported "
                             "tomorrow.")
        record = await self._service.last_record(channel_id)
        if not record:
            raise TableError("No finished game here to export.")
        if not spec(record["game"]).export_seed:
            return redacted(record), True
        return record, False

    async def hint(self, channel_id: int, user_id: int) -> str:
        """What the built-in player would do for this user's seat now, and why."""
        row = await self._row(channel_id)
        if row is None or row.status != "playing":
            raise TableError("There is no game in progress here, so there is nothing to hint at.")
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("Hints are for the players at this table, and you are not playing here.")
        if row.series.get("daily"):
            raise TableError("The daily challenge is played without hints: it is you against the deck.")
        game = _game(row)
        if seat in game.forfeited:
            raise TableError("You have left this game.")
        if seat not in game.to_act():
            raise TableError("A hint is for the player to act, and it is not your move. " + game.waiting_for())
        return await asyncio.to_thread(hint_sentence, game, seat)

    async def lesson_offer(self, reader: Reader, user_id: int) -> bool:
        """Whether this seat's private panel offers the game's lesson now: on the first turn of the
        player's first game of it (once a player and game)."""
        if reader.seat is None or not reader.acting:
            return False
        channel = reader.table.channel_id
        row = self._service.last_saved(channel) or await self._row(channel)
        moved = row is None or any(int(entry[0]) == reader.seat for entry in row.moves)
        return await self.lessons.offer_once(reader, user_id, moved)

    async def stats(self, guild_id: int | None, game: str | None = None, user_id: int | None = None) -> list[dict[str, Any]]:
        return await self._service.stats(guild_id, game, user_id)

    async def start_daily(self, channel_id: int, actor: Actor) -> Update:
        return await self._do(actor.user_id, self._service.start_daily(channel_id, actor), channel_id)

    async def daily_board(self) -> list[DailyEntry]:
        return await self._service.daily_board()

    async def daily_attempt(self, user_id: int) -> DailyEntry | None:
        return await self._service.daily_attempt(user_id)

    async def give_back_daily(self, channel_id: int, actor: Actor, day: str, table_key_: str) -> None:
        """The deal was never seen (its DM could not be posted): the attempt is given back and the
        table closed."""
        await self._service.store.daily_release(day, actor.user_id, table_key_)
        await self._service.abandon(channel_id, actor)

    @property
    def ratings(self) -> "RatingsReader":
        """The ratings, read-only (``/game rating``, the lobby's lines)."""
        return RatingsReader(self._service.store)

    def today(self) -> str:
        return daily_day(self.clock())

    async def check_timeouts(self) -> list[Update]:
        """The sweep's changes, each as the public may see it, with its notice."""
        return [update async for page in self.sweep() for update in page]

    async def sweep(self) -> AsyncIterator[list[Update]]:
        """:meth:`check_timeouts` a page of due tables at a time (told before the next is read)."""
        async for changes in self._service.sweep_pages():
            out = []
            for i, change in enumerate(changes):
                if i % 16 == 0:  # a thousand due tables: let presses in between their readers (a few at a time)
                    await asyncio.sleep(0)
                try:
                    out.append(update_of(change, _game(change.table), None))
                except DamagedError as e:
                    log.warning("table in channel %s: %s", change.table.channel_id, e)
            yield out
