"""Lobby and table life: open, join, leave, start, cancel, abandon, the turn limit, rematch."""

from __future__ import annotations

import secrets
from typing import Any

from bot.engine.words import Many, Typed, say
from bot.engine.core import IllegalMove
from bot.engine.registry import spec, with_article
from bot.i18n import LANGUAGES
from bot.store import Seat, TableRow
from bot.tables.base import DEFAULT_TURN_LIMIT, MIN_TURN_LIMIT, Actor, Change, acting_users, is_bot
from bot.tables.clock import format_duration
from bot.tables.errors import TableError
from bot.tables import since
from bot.tables.games import load_game


class Lobby:
    """Tables before and around a game (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def new_table(self, channel_id: int, guild_id: int | None, actor: Actor, game_id: str,
                        options: list[str] | None = None, seed: int | None = None) -> Change:
        try:
            cls = spec(game_id)
        except KeyError as e:
            raise TableError(str(e.args[0])) from None
        try:
            opts = cls.options.parse(options or []).dump()
        except IllegalMove as e:
            raise TableError(e.reason) from None
        async with self._locks[channel_id]:
            old = await self.store.get(channel_id)
            if old is not None and old.status in ("lobby", "playing"):
                title = with_article("a", spec(old.game).title)[2:]  # "a Maginot Line lobby"
                raise TableError(say("This channel already has a {title} lobby. Finish it, or have the host use "
                                     "`/game abandon` first.", title=title) if old.status == "lobby" else
                                 say("This channel already has a {title} game. Finish it, or have the host use "
                                     "`/game abandon` first.", title=title))
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=guild_id, game=game_id, status="lobby", host_id=actor.user_id,
                seats=[Seat(actor.user_id, actor.name)], options=opts,
                seed=secrets.randbits(63) if seed is None else seed, revision=1,
                turn_limit=old.turn_limit if old else DEFAULT_TURN_LIMIT, created_at=now, updated_at=now,
                series={"lang": actor.table_lang} if actor.table_lang != "en" else {},  # the table's language
            )
            # "Ana opened a Maginot Line table." (the title's own article dropped); a name as typed
            change = Change(table, events=[say("{name} opened a {title} table.", name=Typed(actor.name),
                                               title=with_article("a", cls.title)[2:])])
            if cls.max_players == 1:
                self._start(table, change)
            await self.store.save(table, None)
            self._remember(table)
            return change

    async def join(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError(say("This table is not taking players: the game has started or ended."))
            if t.seat_of(actor.user_id) is not None:
                raise TableError(say("You are already seated at this table."))
            if len(t.seats) >= cls.max_players:
                raise TableError(say("The table is full ({most} players).", most=cls.max_players))
            t.seats.append(Seat(actor.user_id, actor.name))
            return Change(t, events=[say("{name} joined.", name=Typed(actor.name))])

        return await self._update(channel_id, fn)

    async def leave(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            seat = t.seat_of(actor.user_id)
            if seat is None:
                raise TableError(say("You are not seated at this table."))
            if t.status == "lobby":
                t.seats.pop(seat)
                change = Change(t, events=[say("{name} left.", name=Typed(actor.name))])
                people = [s for s in t.seats if not is_bot(s.user_id)]
                if not people:
                    t.status = "abandoned"
                    change.events.append(say("The lobby is empty and closes."))
                elif t.host_id == actor.user_id:
                    t.host_id = people[0].user_id
                    change.events.append(say("{name} is now the host.", name=Typed(people[0].name)))
                return change
            if t.status == "playing":
                return self._forfeit(t, seat, say("{name} left the game.", name=Typed(actor.name)))
            raise TableError(say("This game is over."))

        return await self._update(channel_id, fn)

    async def start(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError(say("This table has already started.") if t.status == "playing"
                                 else say("This table is closed."))
            if actor.user_id != t.host_id:
                raise TableError(say("Only the host can start the game."))
            if len(t.seats) < cls.min_players:
                raise TableError(say("{title} needs at least {least} players; {count} seated.", title=cls.title,
                                     least=cls.min_players, count=len(t.seats)))
            change = Change(t)
            self._start(t, change)
            return change

        return await self._update(channel_id, fn)

    def _start(self, t: TableRow, change: Change) -> None:
        cls = spec(t.game)
        try:
            game = cls.state.new([s.name for s in t.seats], t.options, seed=t.seed)
        except IllegalMove as e:
            raise TableError(e.reason) from None
        t.state = game.to_json()
        t.state_ply = None  # the state holds every move (none yet)
        t.live = game
        t.status = "playing"
        t.moves = []
        t.turn_since = self.clock()
        t.timed_out = False
        change.events.append(say("{title} begins: {players}.", title=cls.title, players=Many([Typed(s.name) for s in t.seats])))
        if len(t.seats) > 1:
            change.pings = sorted(acting_users(t, game))

    async def cancel(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            if t.status != "lobby":
                raise TableError(say("Only a lobby can be cancelled; use `/game abandon` for a game."))
            if actor.user_id != t.host_id and not actor.can_manage:
                raise TableError(say("Only the host can cancel this lobby."))
            t.status = "abandoned"
            return Change(t, events=[say("{name} cancelled the table.", name=Typed(actor.name))])

        return await self._update(channel_id, fn)

    async def abandon(self, channel_id: int, actor: Actor) -> Change:
        def fn(t: TableRow) -> Change:
            if t.status not in ("lobby", "playing"):
                raise TableError(say("There is no game in progress here."))
            if actor.user_id != t.host_id and not actor.can_manage:
                raise TableError(say("Only the host (or someone with Manage Messages here) can abandon this table."))
            was_playing = t.status == "playing"
            t.status = "abandoned"
            change = Change(t, events=[say("{name} abandoned the table.", name=Typed(actor.name))])
            change.finished = was_playing
            return change

        return await self._update(channel_id, fn)

    async def set_turn_limit(self, channel_id: int, actor: Actor, seconds: int) -> Change:
        def fn(t: TableRow) -> Change:
            if actor.user_id != t.host_id:
                raise TableError(say("Only the host can set the turn limit."))
            if 0 < seconds < MIN_TURN_LIMIT:
                raise TableError(say("The turn limit is at least 1 minute (0 switches it off)."))
            t.turn_limit = max(0, int(seconds))
            t.timed_out = False
            if not t.turn_limit:
                return Change(t, events=[say("The turn limit is off: nobody is timed out here.")])
            return Change(t, events=[say("Turn limit set to {limit}.", limit=format_duration(seconds))])

        return await self._update(channel_id, fn)


    async def set_language(self, channel_id: int, actor: Actor, lang: str) -> Change:
        """The table's language (the public table, pings, the end message): the host's to set."""
        if lang != "en" and lang not in LANGUAGES:
            raise TableError(say("Deckhand speaks en, {languages}; not {lang}.", languages=", ".join(LANGUAGES),
                                 lang=repr(lang[:20])))

        def fn(t: TableRow) -> Change:
            if actor.user_id != t.host_id:
                raise TableError(say("Only the host can set the table's language."))
            series = dict(t.series or {})
            if lang == "en":
                series.pop("lang", None)
            else:
                series["lang"] = lang
            t.series = series
            return Change(t)

        return await self._update(channel_id, fn)

    async def rematch(self, channel_id: int, actor: Actor) -> Change:
        """A new game with the same seats; the first player as the rulebook says for a series."""
        async with self._locks[channel_id]:
            old = await self.require(channel_id)
            if old.status not in ("finished", "abandoned") or old.state is None:
                raise TableError(say("A rematch needs a finished game here."))
            if old.seat_of(actor.user_id) is None:
                raise TableError(say("Only the players of the last game can start a rematch."))
            cls = spec(old.game)
            options = [o for o in old.options if not o.startswith("first=")]
            first = self._series_first(old, cls)
            if first is not None:
                options.append(f"first={first}")
            now = self.clock()
            table = TableRow(
                channel_id=channel_id, guild_id=old.guild_id, game=old.game, status="lobby", host_id=old.host_id,
                seats=list(old.seats), options=options, seed=secrets.randbits(63), revision=old.revision + 1,
                turn_limit=old.turn_limit, series=since.dropped(old.series), created_at=now, updated_at=now,
            )
            change = Change(table, events=[say("{name} called a rematch.", name=Typed(actor.name))])
            self._start(table, change)
            self._play_bots(change)
            await self.store.save(table, None)
            self._remember(table)
            return change

    @staticmethod
    def _series_first(old: TableRow, cls: Any) -> int | None:
        """Who starts a rematch: the game's own series rule (its spec), else chosen at random."""
        if old.state is None or not any(i.key == "first" for i in cls.options.infos()):
            return None
        game = load_game(old)
        last_first = game.opts.first
        if last_first < 0:
            last_first = int(getattr(game.view(None), "first", 0))
        return cls.rematch_first(len(old.seats), last_first, game.outcome())

