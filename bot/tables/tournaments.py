"""Tournaments: sign-up, rounds of tables, results, standings — the service side.

A tournament lives in one store row (``bot.store.tournaments``); nothing in memory matters, so
a restart (or a kill) at any point loses nothing, and every write is checked against the
revision it was computed from. Its tables are ordinary tables, each in its own channel (a
thread the Discord layer opens), tagged ``series["tournament"] = [id, round, board]``: they use
the turn limit, Skip and Remove as any table does, and rate their people when they end.

The **clock** (:meth:`Tournaments.step`, run by the Discord layer's loop for the tournaments
whose alarm is due — on a shard cluster, each process for its own shards' servers) does
everything that happens by itself, one idempotent step at a time, and hands back the
:class:`Work` only Discord can do (open a thread, post and ping, post standings); each piece
of work is acknowledged when done, so a step cut short is done again, never lost:

1. a sign-up whose start time came starts;
2. tables of built-in players only are played at once in a channel of their own (no thread);
3. a round past its end has its unfinished tables settled by the organiser's rule (a win for
   the player ahead by the rulebook's own ranking where the game has one — Court Wars, The
   Maginot Line — else a draw; or a draw) and closed;
4. a round whose tables all ended closes; its standings are posted; the next round is paired
   and opened, or the tournament ends.

A table's end reaches the tournament through :func:`table_ended` (called by the table service
when any game ends).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.engine.words import say
from bot.engine.core import IllegalMove
from bot.engine.registry import spec
from bot.i18n import LANGUAGES
from bot.ratings import NEW, finishing_places
from bot.store import StaleRevision, StoreError, TableRow
from bot.store.tournaments import TournamentStore
from bot.engine.levels import DEFAULT_LEVEL
from bot.tables.base import BOT_NAME, MIN_TURN_LIMIT, Actor, ServiceBase
from bot.tables.bots import parse_level
from bot.tables.errors import TableError
from bot.tables.games import load_game
from bot.tables.pairing import ELIMINATION, FORMATS, SWISS, TABLES, Entrant, elimination_rounds, swiss_rounds
from bot.tables.tournament import (  # noqa: F401 — the record, its work and its view are imported from here too
    AHEAD, CANCELLED, DRAW, FINISHED, MAX_ENTRANTS, RUNNING, SIGNUP, TRIES, Announce, BoardFacts, OpenBoard,
    PostStandings, Settled, Tournament, TournamentView, Work, bot_channel, tag,
)
from bot.tables.tournament_clock import RoundClock

log = logging.getLogger("bot.tables")


class Tournaments(RoundClock):
    """Tournaments over a table service (its tables, its store, its clock)."""

    def __init__(self, service: ServiceBase):
        self.service = service
        self.store = TournamentStore(service.store)

    @property
    def now(self) -> float:
        return self.service.clock()

    # ----- the one write path: load → change → save at the revision ------------------------
    async def load(self, tid: int) -> Tournament:
        row = await self.store.get(tid)
        if row is None:
            raise TableError(say("There is no such tournament."))
        return Tournament.of(row)

    async def _mutate(self, tid: int, fn: Callable[[Tournament], Any]) -> tuple[Tournament, Any]:
        for _ in range(TRIES):
            t = await self.load(tid)
            before = t.revision
            out = fn(t)
            t.alarm = t.next_alarm(self.now)
            row = t.row()
            try:
                await self.store.save(row, before)
            except StaleRevision:
                continue
            t.revision = row.revision
            return t, out
        raise TableError(say("The tournament is busy; try again in a moment."))

    # ----- sign-up -----------------------------------------------------------------------------
    async def create(self, guild_id: int | None, channel_id: int, actor: Actor, game: str, fmt: str, *,
                     rounds: int | None = None, round_seconds: int = 24 * 3600, bots: int = 0, fill: bool = False,
                     settle: str = AHEAD, seats: int | None = None, starts_in: float | None = None,
                     options: list[str] | None = None, turn_limit: int | None = None,
                     bot_level: str = DEFAULT_LEVEL, lang: str = "en") -> TournamentView:
        """``lang``: the server's language (``bot.i18n.language_of``); the tournament's public messages speak it."""
        if guild_id is None:
            raise TableError(say("Tournaments are for servers."))
        try:
            cls = spec(game)
        except KeyError as e:
            raise TableError(str(e.args[0])) from None
        if fmt not in FORMATS:
            raise TableError(say("The format is one of {formats}.", formats=', '.join(FORMATS)))
        if cls.max_players < 2:
            raise TableError(say("{title} is a game for one; a tournament needs opponents.", title=cls.title))
        if fmt in (SWISS, ELIMINATION):
            if cls.min_players > 2:
                raise TableError(say("{title} is for {least} or more: use the format `tables`.", title=cls.title,
                                     least=cls.min_players))
            size = 2
        else:
            size = seats or max(cls.min_players, min(4, cls.max_players))
            if not (max(3, cls.min_players) <= size <= cls.max_players):
                raise TableError(say("{title} tables seat {least} to {most} in the format `tables` (two-player tables: "
                                     "`swiss` or `elimination`).", title=cls.title, least=max(3, cls.min_players),
                                     most=cls.max_players))
        if settle not in (AHEAD, DRAW):
            raise TableError(say("A table left unfinished is settled as `ahead` or `draw`."))
        bot_level = parse_level(bot_level)
        if not 0 <= bots <= MAX_ENTRANTS:
            raise TableError(say("At most {most} built-in players.", most=MAX_ENTRANTS))
        if round_seconds < 10 * 60:
            raise TableError(say("A round lasts at least 10 minutes."))
        try:
            opts = cls.options.parse(options or []).dump()
        except IllegalMove as e:
            raise TableError(e.reason) from None
        limit = turn_limit or max(MIN_TURN_LIMIT, round_seconds // 6)
        now = self.now
        t = Tournament(0, guild_id, channel_id, SIGNUP, 1, actor.user_id, actor.name, game, fmt, size, rounds or 0,
                       round_seconds, limit, bots, fill, settle, opts,
                       None if starts_in is None else now + starts_in, bot_level=bot_level,
                       lang=lang if lang in LANGUAGES else "en")
        t.entrants = [Entrant(-k, f"{BOT_NAME} {k}") for k in range(1, bots + 1)]
        t.alarm = t.next_alarm(now)
        row = await self.store.create(guild_id, channel_id, SIGNUP, t.data(), t.alarm)
        t.id = row.id
        return TournamentView.of(t)

    async def view(self, tid: int) -> TournamentView:
        return TournamentView.of(await self.load(tid))

    async def in_channel(self, channel_id: int) -> TournamentView | None:
        """The channel's newest tournament."""
        rows = await self.store.in_channel(channel_id)
        return TournamentView.of(Tournament.of(rows[0])) if rows else None

    async def set_message(self, tid: int, message_id: int) -> None:
        def fn(t: Tournament) -> None:
            t.message_id = message_id

        await self._mutate(tid, fn)

    async def join(self, tid: int, actor: Actor) -> TournamentView:
        def fn(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise TableError(say("Sign-up has closed: the tournament has started or ended."))
            if t.entrant(actor.user_id) is not None:
                raise TableError(say("You have signed up already."))
            if len(t.entrants) >= MAX_ENTRANTS:
                raise TableError(say("The tournament is full ({most} players).", most=MAX_ENTRANTS))
            t.entrants.append(Entrant(actor.user_id, actor.name))

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def leave(self, tid: int, actor: Actor) -> TournamentView:
        """Before the start: take the name off the list. After: drop out (see :meth:`drop`)."""
        t = await self.load(tid)
        if t.status == RUNNING:
            return await self.drop(tid, actor)

        def fn(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise TableError(say("The tournament is over."))
            e = t.entrant(actor.user_id)
            if e is None:
                raise TableError(say("You have not signed up."))
            t.entrants.remove(e)

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def drop(self, tid: int, actor: Actor) -> TournamentView:
        """Drop out of a running tournament: no more pairings; an unfinished table is a forfeit."""
        def fn(t: Tournament) -> int | None:
            if t.status != RUNNING:
                raise TableError(say("Only a running tournament can be dropped out of."))
            e = t.entrant(actor.user_id)
            if e is None:
                raise TableError(say("You are not playing in this tournament."))
            if e.dropped:
                raise TableError(say("You have dropped out already."))
            e.dropped = True
            found = t.board_of(actor.user_id)
            return found[1].channel if found and not found[1].done and found[1].channel else None

        t, channel = await self._mutate(tid, fn)
        if channel is not None:
            try:
                await self.service.leave(channel, actor)  # type: ignore[attr-defined]
            except TableError:
                pass  # the table ended meanwhile
        return TournamentView.of(await self.load(tid))

    async def cancel(self, tid: int, actor: Actor) -> TournamentView:
        def fn(t: Tournament) -> None:
            if actor.user_id != t.organiser_id and not actor.can_manage:
                raise TableError(say("Only the organiser can cancel the tournament."))
            if t.status != SIGNUP:
                raise TableError(say("Only a tournament still signing up can be cancelled."))
            t.status = CANCELLED

        return TournamentView.of((await self._mutate(tid, fn))[0])

    async def start(self, tid: int, actor: Actor | None) -> TournamentView:
        """The organiser's Start (``actor`` None: the start time came)."""
        t = await self.load(tid)
        ratings = {}
        if t.guild_id is not None:
            try:
                found = await self.service.store.ratings(t.guild_id, t.game, [e.user_id for e in t.people])
                ratings = {u: r.ordinal for u, r in found.items()}
            except StoreError as e:
                log.warning("no ratings for the seeding of tournament %s: %s", tid, e)

        def fn(t: Tournament) -> None:
            if actor is not None and actor.user_id != t.organiser_id:
                raise TableError(say("Only the organiser can start the tournament."))
            if t.status != SIGNUP:
                raise TableError(say("The tournament has started already.") if t.status == RUNNING
                                 else say("The tournament is closed."))
            cls = spec(t.game)
            if len(t.entrants) < 2 or not t.people:
                raise TableError(say("A tournament needs at least two players, one of them a person."))
            if t.format == TABLES and len(t.entrants) < cls.min_players and not t.fill:
                raise TableError(say("{title} needs at least {least} players a table.", title=cls.title,
                                     least=cls.min_players))
            for e in t.entrants:
                e.rating = ratings.get(e.user_id, NEW.ordinal)
            n = len(t.entrants)
            if not t.rounds_planned:
                t.rounds_planned = {SWISS: swiss_rounds(n), ELIMINATION: elimination_rounds(n)}.get(t.format, 3)
            t.status = RUNNING
            self._open_round(t)

        return TournamentView.of((await self._mutate(tid, fn))[0])


async def table_ended(service: ServiceBase, table: TableRow) -> None:
    """A tournament table's game ended (finished, abandoned or settled): its board gets the
    result (finishing places; an abandoned table: a draw) unless it has one already."""
    ref = table.series.get("tournament")
    if not ref:
        return
    tid, r, i = (int(x) for x in ref)
    n = len(table.seats)
    places, how = [0] * n, "abandoned"
    if table.status == "finished" and table.state is not None:
        game = load_game(table)
        outcome = game.outcome()
        if outcome is not None:
            try:
                view = game.view(None)
            except Exception:
                view = None
            places, how = finishing_places(table.game, outcome, n, list(game.forfeited), view), ""

    def fn(t: Tournament) -> None:
        if r >= len(t.rounds) or i >= len(t.rounds[r]):
            return
        b = t.rounds[r][i]
        if b.done or b.channel != table.channel_id:
            return
        b.places, b.how = places, how

    try:
        await Tournaments(service)._mutate(tid, fn)
    except (TableError, StoreError) as e:  # the game is saved; the clock's deadline settles the board
        log.error("could not record table %s in tournament %s: %s", table.table_id, tid, e)
