"""The round clock of the tournaments: :meth:`RoundClock.step` (everything that happens by
itself, one idempotent step at a time — see :mod:`bot.tables.tournaments`), the settling of a
round past its end, and the Discord layer's acknowledgements of the work a step hands back.
"""

from __future__ import annotations

import logging
import secrets

from bot.engine.words import Many, say
from bot.engine.core import Outcome
from bot.engine.registry import spec
from bot.ratings import _rest_key
from bot.store import Seat, StoreError, TableRow
from bot.tables.base import Change
from bot.tables.errors import TableError
from bot.tables.games import load_game
from bot.tables.pairing import ELIMINATION, SWISS, Board, elimination_round, swiss_round, tables_round
from bot.tables.tournament import (
    AHEAD, CANCELLED, FINISHED, RUNNING, SIGNUP, Announce, OpenBoard, PostStandings, Settled, Tournament, Work,
    bot_channel, tag,
)

log = logging.getLogger("bot.tables")


class RoundClock:
    """The clock's half of :class:`bot.tables.tournaments.Tournaments` (which supplies ``service``,
    ``store``, ``now``, ``load``, ``_mutate`` and ``start``)."""

    def _open_round(self, t: Tournament) -> None:
        cls = spec(t.game)
        if t.format == SWISS:
            boards = swiss_round(t.entrants, t.rounds)
        elif t.format == ELIMINATION:
            boards = elimination_round(t.entrants, t.rounds)
        else:
            boards = tables_round(t.entrants, t.rounds, t.size, cls.min_players, cls.max_players, t.fill)
        t.rounds.append(boards)
        t.round_ends = self.now + t.round_seconds

    # ----- the clock -------------------------------------------------------------------------
    async def due(self, shards: tuple[int, tuple[int, ...]] | None = None) -> list[int]:
        return [r.id for r in await self.store.due(self.now, shards=shards)]

    async def step(self, tid: int) -> list[Work]:
        """One pass of the clock over one tournament: what changed is saved; what Discord must do
        is returned (do it, then acknowledge each piece)."""
        t = await self.load(tid)
        now = self.now
        if t.status == SIGNUP:
            if t.starts_at is not None and t.starts_at <= now:
                try:
                    await self.start(tid, None)
                except TableError as e:  # too few players at the start time: the sign-up closes
                    log.info("tournament %s could not start: %s", tid, e)

                    def close(t: Tournament) -> None:
                        if t.status == SIGNUP:
                            t.status = CANCELLED

                    await self._mutate(tid, close)
                t = await self.load(tid)
            else:
                return []
        work: list[Work] = []
        if t.status == RUNNING and t.round_ends is not None and t.round_ends <= now:
            work += await self._settle_round(t)
            t = await self.load(tid)
        if t.status == RUNNING and t.current and all(b.done for b in t.current):
            t = await self._close_round(tid)
        # standings not posted yet
        closed = len(t.rounds) if t.status == FINISHED else len(t.rounds) - 1
        if t.status == RUNNING and t.current and all(b.done for b in t.current):
            closed = len(t.rounds)
        for r in range(t.posted, closed):
            work.append(PostStandings(t.id, r + 1, t.status == FINISHED and r + 1 == len(t.rounds)))
        if t.status == RUNNING:
            r = len(t.rounds) - 1
            for i, b in enumerate(t.current):
                if b.bye or b.done:
                    continue
                people = [u for u in b.players if u > 0]
                if b.channel is None:
                    if people:
                        work.append(OpenBoard(t.id, r, i, say("{title} · round {round} · table {table}", title=t.title,
                                                              round=r + 1, table=i + 1), t.lang))
                    else:
                        await self.open_board(t.id, r, i, bot_channel(t, r, i))
                elif not b.announced and people:
                    names = Many([t.name_of(u) for u in b.players], " v ")
                    work.append(Announce(t.id, r, i, b.channel, tuple(people), say(
                        "round {round} of the {title} tournament: {names}. Your table is here; the round ends {ends}.",
                        round=r + 1, title=t.title, names=names, ends=f"<t:{int(t.round_ends or now)}:R>"), t.lang))
        # the alarm says whether anything is left to do
        await self._mutate(tid, lambda t: None)
        return work

    async def _close_round(self, tid: int) -> Tournament:
        def fn(t: Tournament) -> None:
            if t.status != RUNNING or not t.current or not all(b.done for b in t.current):
                return
            active = [e for e in t.entrants if not e.dropped]
            if t.format == ELIMINATION:
                if len(t.current) == 1:  # the final (or a walk-over): one player is left
                    t.status = FINISHED
                    return
            elif len(t.rounds) >= t.rounds_planned or len(active) < 2:
                t.status = FINISHED
                return
            self._open_round(t)

        t, _ = await self._mutate(tid, fn)
        return t

    async def _settle_round(self, t: Tournament) -> list[Work]:
        """The round is over: every table still playing is settled by the organiser's rule."""
        work: list[Work] = []
        r = len(t.rounds) - 1
        for i, b in enumerate(t.current):
            if b.bye or (b.done and b.how != "settled"):
                continue
            row = await self._table(b.channel) if b.channel is not None else None
            if b.done:  # settled before a restart cut the step short: its table may still be playing
                places, fresh = list(b.places or []), True
            else:
                places = [0] * len(b.players)
                if row is not None and row.status == "playing" and t.settle == AHEAD:
                    places = self._ahead(row)

                def fn(t: Tournament, i: int = i, places: list[int] = places) -> bool:
                    board = t.rounds[r][i]
                    if board.done:
                        return False
                    board.places, board.how = places, "settled"
                    return True

                _, fresh = await self._mutate(t.id, fn)
            if fresh and row is not None and row.status == "playing" and row.series.get("tournament") == tag(t, r, i):
                best = min(places)
                winners = [row.seats[s].name for s, p in enumerate(places) if p == best]
                how = (say("a win for {name} (ahead)", name=winners[0]) if len(winners) == 1 and len(places) > 1
                       else say("a draw"))
                text = say("The round's time is up: this table is settled as {how}.", how=how)
                try:
                    await self.service._update(b.channel, lambda tb, text=text: self._close_table(tb, text))
                except TableError:
                    pass
                if b.channel > 0:  # a table of built-in players has no channel in Discord to tell
                    work.append(Settled(b.channel, text, t.lang))
        return work

    @staticmethod
    def _close_table(tb: TableRow, text: str) -> Change:
        if tb.status != "playing":
            raise TableError(say("This game is over."))
        tb.status = "abandoned"
        tb.turn_since = None
        tb.events = (tb.events + [text])[-40:]
        change = Change(tb, events=[text])
        change.finished = True
        return change

    def _ahead(self, row: TableRow) -> list[int]:
        """The places of an unfinished table by the rulebook's own ranking (else all shared)."""
        try:
            game = load_game(row)
            n = len(row.seats)
            key = _rest_key(row.game, Outcome(()), n, game.view(None))
            gone = list(game.forfeited)
            keys = {s: key(s) for s in range(n) if s not in gone}
            order = sorted(set(keys.values()), reverse=True)
            places = [0] * n
            for s in range(n):
                places[s] = order.index(keys[s]) if s in keys else len(order) + gone[::-1].index(s)
            return places
        except Exception:  # no ranking to be had: a draw
            log.exception("no ranking for the unfinished table %s", row.table_id)
            return [0] * len(row.seats)

    async def _table(self, channel_id: int) -> TableRow | None:
        try:
            return await self.service.store.get(channel_id)
        except StoreError:
            return None

    # ----- the Discord layer's acknowledgements ------------------------------------------------
    async def open_board(self, tid: int, r: int, i: int, channel_id: int) -> bool:
        """Open the table of board ``i`` of round ``r`` (0-based) in ``channel_id``: the channel is
        recorded first, then the table dealt (bots play at once). False if it was opened already."""
        def claim(t: Tournament) -> tuple[Tournament, Board] | None:
            b = t.rounds[r][i]
            if b.channel is not None and b.channel != channel_id:
                return None
            b.channel = channel_id
            return t, b

        t, got = await self._mutate(tid, claim)
        if got is None:
            return False
        board = t.rounds[r][i]
        svc = self.service
        async with svc._locks[channel_id]:
            old = await svc.store.get(channel_id)
            if old is not None and old.series.get("tournament") == tag(t, r, i):
                return True  # dealt before a restart
            if old is not None and old.status in ("lobby", "playing"):
                raise TableError(say("That channel has a table already."))
            now = self.now
            seats = [Seat(u, t.seat_name(board, u), t.bot_level if u < 0 else None) for u in board.players]
            row = TableRow(channel_id=channel_id, guild_id=t.guild_id, game=t.game, status="lobby",
                           host_id=t.organiser_id, seats=seats,
                           options=list(t.options), seed=secrets.randbits(63), revision=1, turn_limit=t.turn_limit,
                           series={"tournament": tag(t, r, i), **({"lang": t.lang} if t.lang != "en" else {})},
                           created_at=now, updated_at=now)  # the table speaks the tournament's language
            await svc.store.save(row, None)
            svc._remember(row)

        def deal(tb: TableRow) -> Change:
            change = Change(tb)
            svc._start(tb, change)  # type: ignore[attr-defined]
            return change

        change = await svc._update(channel_id, deal)

        def opened(t: Tournament) -> None:
            t.rounds[r][i].table = change.table.table_id

        await self._mutate(tid, opened)
        return True

    async def announced(self, tid: int, r: int, i: int) -> None:
        def fn(t: Tournament) -> None:
            t.rounds[r][i].announced = True

        await self._mutate(tid, fn)

    async def posted_standings(self, tid: int, r: int) -> None:
        def fn(t: Tournament) -> None:
            t.posted = max(t.posted, r)

        await self._mutate(tid, fn)
