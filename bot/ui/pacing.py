"""Bots that pace like people where speed matters: in a race against a person (a decision on the
rulebook's clock, KRPD's Open Race) a bot answers after its seeded, human-like delay, on a timer of
the channel. And bots that think (Strong seats, off the event loop in the tables service): each
move they make is shown as any other. A mixin of the table cog."""

from __future__ import annotations
import asyncio
import logging
from typing import Any
import discord
from discord.ext import commands
from bot.tables.reader import Reader, Update
from bot.tables.replays import replays_of
from bot.ui import payloads
from bot.ui.payloads import NO_PINGS

log = logging.getLogger("cogs.tables")


class BotPace:
    """Racing bots' timers (a mixin of the table cog)."""

    bot: Any
    desk: Any
    place: Any

    # ----- bots that pace like people in a race ---------------------------------------------
    def pace_bots(self, reader: Reader) -> None:
        """When bots race a person (a decision on the rulebook's clock), answer for them after their
        human-like delay, on a timer of this channel (a newer change restarts it)."""
        t = reader.table
        if t.status != "playing" or not any(d.clock_seconds is not None and t.seats[d.seat].is_bot
                                            for d in reader.decisions):
            return
        timers: dict[int, asyncio.Task] = self.__dict__.setdefault("bot_timers", {})
        old = timers.get(t.channel_id)
        if old is not None and not old.done():
            old.cancel()
        timers[t.channel_id] = asyncio.create_task(self._bots_when_due(t.channel_id),
                                                   name=f"deckhand: racing bots in {t.channel_id}")

    async def _bots_when_due(self, channel_id: int) -> None:
        try:
            for _ in range(64):  # a race is short; each round of this loop is one bot's answer
                wait = await self.desk.bot_wait(channel_id)
                if wait is None:
                    return
                await asyncio.sleep(wait + 0.01)
                update = await self.desk.play_due_bots(channel_id)
                if update is None:
                    continue
                live = await self.place.show_table(update.public)  # (it takes the channel's showing lock)
                await self.announce(update, live)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot's late answer never breaks the table: the race's own clock ends it
            log.exception("racing bots failed in channel %s", channel_id)

    @commands.Cog.listener("on_ready")
    async def resume_thinking(self) -> None:
        """Once connected: the tables whose bot was thinking when the last process stopped think again."""
        if self.__dict__.get("resumed"):
            return
        self.__dict__["resumed"] = True
        try:
            woken = await self.desk.resume_thinking()
        except Exception:  # noqa: BLE001 — the sweep wakes them too
            log.exception("could not resume the thinking bots")
            return
        if woken:
            log.info("%d tables whose bot was thinking think again", woken)

    async def bot_moved(self, update: Update) -> None:
        """A thinking bot seat moved (no interaction asked for it): the table message shows it, then
        the turn ping and the end. A table of bots only (a tournament's) has no message to show."""
        if not update.public.table.people:
            return
        shown = self.desk.latest(update.public.table.channel_id, update.public)  # a press landed meanwhile: now
        live = await self.place.show_table(shown)  # (it takes the channel's showing lock)
        await self.announce(update, live)

    async def announce(self, update: Update, live: int | None) -> None:
        """The public notices of a change no interaction asked for: the turn ping and the end."""
        reader = update.public
        channel = self.bot.get_partial_messageable(reader.table.channel_id)
        link = payloads.jump_url(reader.table, live) if live is not None else ""
        try:
            if update.pings and reader.table.status == "playing":
                await channel.send(**payloads.ping(reader, update.pings, link))
            if update.finished:
                from bot.ui.ratings import change_lines

                rated = change_lines(update.extra.get("ratings", ()), reader.lang)
                film = await replays_of(self.desk).ending_film(reader)
                await channel.send(**payloads.ending(reader, link, rated, film), allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not post to %s: %s", reader.table.channel_id, e)

