"""Play: moves, the freshness of buttons and pickers, drafts, forfeits, skip and remove."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.words import Typed, say
from bot.engine.core import Event, Game, IllegalMove
from bot.engine.registry import spec
from bot.records import FORFEIT
from bot.store import TableRow
from bot.tables.base import KEEP_EVENTS, MAX_MOVE_TEXT, MAX_SKIP_STEPS, Actor, Change, acting_users, table_key
from bot.tables.errors import StaleError, TableError
from bot.tables import since
from bot.tables.games import load_game


def rulebook_clock(game: Game) -> tuple[float | None, int | None]:
    """The rulebook's own clock on the open decisions (the shortest): its seconds and the mark it
    runs from (``Decision.clock_from``); (None, None) when no decision is timed."""
    timed = [d for d in game.decisions() if d.clock_seconds is not None]
    if not timed:
        return None, None
    d = min(timed, key=lambda d: d.clock_seconds or 0)
    return float(d.clock_seconds or 0), d.clock_from


class Turn:
    """Moves and what follows them (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def move(self, channel_id: int, actor: Actor, move: str, revision: int | None = None, *,
                   table: str | None = None, opened: int | None = None, interaction: int | None = None) -> Change:
        """Play ``move`` for the actor. ``table``/``opened`` (from a button) must still name this
        table and the point at which the actor's decision opened; ``revision`` the table's."""
        if len(move) > MAX_MOVE_TEXT:
            raise TableError(say("That move is too long ({count} characters); nothing was changed.", count=len(move)))

        def fn(t: TableRow) -> Change:
            game, seat = self._player(t, actor.user_id)
            self._check_fresh(t, game, seat, table, opened)
            return self._apply(t, game, seat, move)

        return await self._update(channel_id, fn, revision=revision, interaction=interaction)

    async def moves(self, channel_id: int, actor: Actor, moves: list[str], *, table: str | None = None,
                    opened: int | None = None, interaction: int | None = None) -> Change:
        """Play several moves of the actor's in one press (a sequence the picker offered: taps, a
        phase's passing steps, a story line and its pass). Each is applied and logged one by one,
        exactly as if played alone; all are saved together, or none when one is refused. The
        sequence stops early only when the game ends."""
        if not moves or any(len(m) > MAX_MOVE_TEXT for m in moves):
            raise TableError(say("That move is too long; nothing was changed."))

        def fn(t: TableRow) -> Change:
            game, seat = self._player(t, actor.user_id)
            self._check_fresh(t, game, seat, table, opened)
            before = acting_users(t, game)
            merged: Change | None = None
            for move in moves:
                if merged is not None:
                    game = load_game(t)
                    if seat not in game.to_act():
                        raise TableError(say("{waiting} Nothing was changed.", waiting=game.waiting_for()))
                change = self._apply(t, game, seat, move)
                if merged is None:
                    merged = change
                else:
                    merged.table, merged.events = change.table, merged.events + change.events
                    for s, lines in change.private.items():
                        merged.private.setdefault(s, []).extend(lines)
                    merged.pings = sorted(set(merged.pings) | set(change.pings))
                    merged.finished, merged.secret = change.finished, merged.secret or change.secret
                if change.finished:
                    break
            assert merged is not None
            if not merged.finished:  # pings only for a change of who acts over the whole press
                now = acting_users(t, load_game(t))
                merged.pings = [u for u in merged.pings if u in now and u not in before]
            return merged

        return await self._update(channel_id, fn, interaction=interaction)

    @staticmethod
    def _check_fresh(t: TableRow, game: Game, seat: int, table: str | None, opened: int | None) -> None:
        if table is not None and table != table_key(t):
            raise StaleError()
        if seat not in game.to_act():
            current = {game.opened_at(s) for s in game.to_act()}
            if opened is not None and opened not in current:
                raise StaleError()  # a button of a decision that has closed
            raise TableError(game.waiting_for())
        if opened is not None and opened != game.opened_at(seat):
            raise StaleError()

    async def to_move(self, channel_id: int, user_id: int, table: str, opened: int) -> tuple[TableRow, Game, int]:
        """For offering moves (pickers, text boxes): the table, game and seat, if this user's
        decision is still the one the picker was made for; otherwise the refusal a move would get."""
        cached = self.cached(channel_id)
        if cached is not None:  # the row this process saved last: no store read (the move's save checks it)
            try:
                game, seat = self._player(cached, user_id)
                self._check_fresh(cached, game, seat, table, opened)
                return cached, game, seat
            except TableError:
                pass  # refused on the cached row: decide on the stored one (the cache may be behind)
        row = await self.require(channel_id)
        game, seat = self._player(row, user_id)
        self._check_fresh(row, game, seat, table, opened)
        return row, game, seat

    async def save_drafts(self, drafts: Any, tid: str, seat: int, opened: int) -> None:
        """Store the partial actions a picker names by id (see ``bot.ui.payloads.Drafts``)."""
        for key, tokens in getattr(drafts, "pending", {}).items():
            await self.store.put_draft(tid, seat, opened, list(tokens), draft_id=key)
        if hasattr(drafts, "pending"):
            drafts.pending.clear()

    async def get_draft(self, key: str, channel_id: int | None = None, user_id: int | None = None,
                        tid: str | None = None, opened: int | None = None) -> tuple[str, ...]:
        """A stored draft; given who asks, only the draft of that table, seat and decision."""
        draft = await self.store.get_draft(key)
        if draft is None:
            raise TableError(say("That picker has expired. Press **My hand** to choose again."))
        if channel_id is not None and user_id is not None:
            row = self._rows.get(channel_id) or await self.store.get(channel_id)
            seat = row.seat_of(user_id) if row is not None else None
            if (row is None or draft.table_id != table_key(row) or (tid is not None and draft.table_id != tid)
                    or draft.seat != seat or (opened is not None and draft.decision_rev != opened)):
                raise StaleError()
        return tuple(str(t) for t in draft.tokens)

    async def first_delivery(self, interaction_id: int) -> bool:
        """False when this interaction was already handled (Discord delivered it twice)."""
        return not await self.store.seen_interaction(interaction_id)

    @staticmethod
    def _player(t: TableRow, user_id: int) -> tuple[Game, int]:
        if t.status == "lobby":
            raise TableError(say("The game has not started yet."))
        if t.status != "playing":
            raise TableError(say("This game is over. Start a new one with `/game new`."))
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError(say("You are not playing at this table."))
        game = load_game(t)
        if seat in game.forfeited:
            raise TableError(say("You have left this game."))
        return game, seat

    def _apply(self, t: TableRow, game: Game, seat: int, move: str, *, forfeit: bool = False) -> Change:
        """Apply a player's move (never a forfeit: that is ``forfeit=True``, not text anyone sends)."""
        before = acting_users(t, game)
        decision = game.decision_of(seat)
        try:
            if forfeit:
                new, events = game.forfeit(seat)
            else:
                new, events = game.apply(seat, move)
        except IllegalMove as e:
            raise TableError(e.reason) from None  # the engine's phrase, said in the reader's language
        if t.state_ply is None:  # the state held every move so far: it is the snapshot of them
            t.state_ply = len(t.moves)
            t.snapshot_unsaved = True  # (it may not be stored yet: a start and moves in one change)
        t.live = new  # the state stays the snapshot; the store writes a new one when it is due
        t.moves.append([seat, FORFEIT if forfeit else move.strip(), round(self.clock(), 3)])
        if len(t.seats) > 1:  # each other seat's "since your last move"
            t.series = since.noted(t.series, len(t.seats), seat, events)
        change = self._after(t, new, before, events, rulebook_clock(game)[1])
        change.secret = not forfeit and decision is not None and not decision.public and _hidden(game, seat, move)
        return change

    def _after(self, t: TableRow, new: Game, before: set[int], events: list[Event],
               clock_mark: int | None = None) -> Change:
        """What the move did to the table: its events, the end, or the turn and the clock going on
        (``clock_mark``: where the rulebook's clock ran from before the move, see ``rulebook_clock``)."""
        change = Change(t)
        for e in events:  # the public text, and each seat's own text
            if e.public:
                change.events.append(e.public)
            for s, text in e.private.items():
                change.private.setdefault(s, []).append(text)
        t.events = (t.events + change.events)[-KEEP_EVENTS:]
        if new.is_over():
            t.status = "finished"
            t.turn_since = None
            change.finished = True
            outcome = new.outcome()
            if outcome is not None and outcome.summary:
                change.events.append(outcome.summary)
                t.events = (t.events + [outcome.summary])[-KEEP_EVENTS:]
            t.series = self._series_after(t, new)
            return change
        after = acting_users(t, new)
        clock, mark = rulebook_clock(new)
        if clock is not None and mark is not None:  # the clock runs from the engine's mark (the race's last play)
            restart = clock != t.game_clock or mark != clock_mark
        else:  # the turn, or a clock that starts again at every answer
            restart = after != before or clock != t.game_clock or clock is not None
        if restart:
            t.turn_since = self.clock()
            t.timed_out = False
        t.game_clock = clock
        if len(t.seats) > 1:
            change.pings = sorted(after - before)
        return change

    def _series_after(self, t: TableRow, game: Game) -> dict[str, Any]:
        outcome = game.outcome()
        series = dict(t.series)
        series["games"] = series.get("games", 0) + 1
        series["first"] = getattr(game.opts, "first", None)
        series["winners"] = list(outcome.winners) if outcome else []
        return series

    def _forfeit(self, t: TableRow, seat: int, why: str) -> Change:
        game = load_game(t)
        change = self._apply(t, game, seat, "", forfeit=True)
        change.events.insert(0, why)
        return change

    async def skip(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """After a timeout: the late player's whole turn is played for them — each decision's
        timeout default where the rulebook has one, else the built-in player's choice."""

        def fn(t: TableRow) -> Change:
            game = self._check_timeout_power(t, actor)
            late = min(game.to_act())
            player = spec(t.game).player
            rng = random.Random(f"skip:{t.seed}:{len(t.moves)}")
            change: Change | None = None
            texts: list[str] = []
            private: dict[int, list[str]] = {}
            for _ in range(MAX_SKIP_STEPS):
                decision = game.decision_of(late)
                if decision is None or game.is_over():
                    break
                move = decision.default if decision.default is not None else str(player(game, late, rng))
                change = self._apply(t, game, late, move)
                texts += change.events
                for s, lines in change.private.items():
                    private.setdefault(s, []).extend(lines)
                game = load_game(t)
                if change.finished or late not in game.to_act() or len(t.seats) == 1:
                    break
            assert change is not None
            change.events = [say("{name} skipped {player}'s turn (the bot played for them).", name=Typed(actor.name),
                                 player=Typed(t.seats[late].name)), *texts]
            change.private = private
            return change

        return await self._update(channel_id, fn, revision=revision)

    async def remove(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """After a timeout: the late player is removed (a forfeit)."""

        def fn(t: TableRow) -> Change:
            game = self._check_timeout_power(t, actor)
            seat = min(game.to_act())
            return self._forfeit(t, seat, say("{name} removed {player} (out of time).", name=Typed(actor.name),
                                              player=Typed(t.seats[seat].name)))

        return await self._update(channel_id, fn, revision=revision)

    def _check_timeout_power(self, t: TableRow, actor: Actor) -> Game:
        if t.status != "playing":
            raise TableError(say("There is no game in progress here."))
        if not t.timed_out:
            raise TableError(say("Nobody has run out of time."))
        game = load_game(t)
        late = {t.seats[s].user_id for s in game.to_act()}
        seat = t.seat_of(actor.user_id)
        is_other_player = seat is not None and actor.user_id not in late and seat not in game.forfeited
        if not (is_other_player or actor.user_id == t.host_id or actor.can_manage):
            raise TableError(say("Only the other players or the host can do that."))
        return game


def _hidden(game: Game, seat: int, move: str) -> bool:
    """The move stays hidden from the other players: the engine hides it from them in a record
    (``Game.redact``: a card committed face down, a home row's order), not merely a move chosen
    privately from a hand whose result everyone sees."""
    move = move.strip()
    try:
        return game.redact(seat, move) != move
    except Exception:  # an engine that cannot read the move shows it as it is
        return False
