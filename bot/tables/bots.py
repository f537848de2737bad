"""Bot seats: the built-in player seated by the host, playing its turns inside the change that handed them over."""

from __future__ import annotations

import logging
import random

from bot.engine.core import IllegalMove
from bot.engine.registry import spec
from bot.store import Seat, TableRow
from bot.tables.base import MAX_BOT_STEPS, BOT_NAME, Actor, Change, acting_users, is_bot
from bot.tables.errors import TableError
from bot.tables.games import load_game

log = logging.getLogger("bot.tables")


class Bots:
    """Bot seats (a mixin of :class:`~bot.tables.service.TableService`)."""

    async def add_bot(self, channel_id: int, actor: Actor, revision: int | None = None) -> Change:
        """Seat a built-in player (the host's choice, in the lobby of a game for several)."""

        def fn(t: TableRow) -> Change:
            cls = spec(t.game)
            if t.status != "lobby":
                raise TableError("Bots can only be seated in the lobby, before the game starts.")
            if actor.user_id != t.host_id:
                raise TableError("Only the host can add a bot.")
            if cls.max_players < 2:
                raise TableError(f"{cls.title} is a game for one: there is no seat for a bot.")
            if len(t.seats) >= cls.max_players:
                raise TableError(f"The table is full ({cls.max_players} players).")
            taken = {-s.user_id for s in t.seats if is_bot(s.user_id)}
            n = next(i for i in range(1, cls.max_players + 2) if i not in taken)
            name = f"{BOT_NAME} {n}"
            t.seats.append(Seat(-n, name))
            return Change(t, events=[f"{actor.name} seated {name} (the built-in player)."])

        return await self._update(channel_id, fn, revision=revision)

    def _play_bots(self, change: Change) -> None:
        """While a bot seat must act, play it with the game's built-in player, in the same
        update as the change that handed it the turn (bounded by ``MAX_BOT_STEPS``)."""
        t = change.table
        if not any(is_bot(s.user_id) for s in t.seats):
            return
        for s in [s for s in change.private if is_bot(t.seats[s].user_id)]:
            del change.private[s]  # what only a bot may read goes nowhere
        if t.status != "playing":
            return
        game = load_game(t)
        player = spec(t.game).player
        people = [s.user_id for s in t.seats if not is_bot(s.user_id)]
        pings = set(change.pings)
        acting = acting_users(t, game)
        played = False
        for _ in range(MAX_BOT_STEPS):
            if game.is_over():
                break
            bots = sorted(s for s in game.to_act() if is_bot(t.seats[s].user_id) and s not in game.forfeited)
            if not bots:
                break
            seat = bots[0]
            rng = random.Random(f"bot:{t.seed}:{len(t.moves)}")
            try:
                step = self._apply(t, game, seat, str(player(game, seat, rng)))
            except (TableError, IllegalMove) as e:  # a built-in player's slip never undoes a person's move
                log.error("the built-in player of %s failed at table %s: %s", t.game, t.channel_id, e)
                break
            played = True
            change.events += step.events
            for s, lines in step.private.items():
                if not is_bot(t.seats[s].user_id):
                    change.private.setdefault(s, []).extend(lines)
            change.finished = change.finished or step.finished
            game = load_game(t)
            now = acting_users(t, game)
            pings |= now - acting
            acting = now
        # Ping the people whose turn it now is (never a bot; nobody at a table with one person).
        if played or len(people) < 2:
            change.pings = sorted(u for u in pings if u in acting and not is_bot(u)) if len(people) > 1 else []

