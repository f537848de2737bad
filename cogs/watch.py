"""``/game watch``: a message, in another channel or a DM, that follows a table (issue 31).

The Discord part of watching; who watches what, and the pace, are ``bot.tables.watching``'s. A
watcher message is made in ``bot.ui.payloads.watch_message`` from the table's public reader only,
and edited after the table message (the placement tells this cog each new state once the table
shows it), in background tasks, at most once a second per message with the latest state. A message
the bot may edit in its channel is edited there (``PartialMessage.edit``); one only an interaction's
webhook may edit (an ephemeral one, a channel the bot is not in) through that webhook while its
token lives. Discord refusing a watcher message (403, 404) drops that watcher quietly.

A table in a DM is not listed for anyone: its players press **Invite a watcher** on it for a code,
which a friend gives ``/game watch`` wherever they use the app.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine.words import say
from bot.i18n import language_of, words
from bot.render import pictures
from bot.render.panel import clip
from bot.tables import TableError
from bot.tables.reader import Reader
from bot.tables.replays import replays_of
from bot.tables.watching import Pacer, Watch
from bot.ui import payloads
from bot.ui.components import Kind
from bot.ui.payloads import NO_PINGS
from bot.ui.placement import TOKEN_LIFE, bot_absent
from bot.ui.play import refuse

if TYPE_CHECKING:
    from bot.app import DeckhandBot
    from cogs.tables import Tables

log = logging.getLogger(__name__)

NOT_FOUND = say("That is not a table in play on this server, nor a watch code. Pick a table from the list, or paste "
                "the code a player gave you.")
PICK_HERE = say("Paste the watch code a player gave you (tables of a server are listed in that server).")
NONE_HERE = say("No table is in play on this server right now.")
MARKS_SECONDS = 1.0  # what watcher messages show is written to the store this often, in one batch
GONE = (discord.Forbidden, discord.NotFound)  # Discord will never let this message be edited


class WatchCog(commands.Cog, name="Watch"):
    """Watcher messages: posted by ``/game watch``, edited as their table moves, closed by their watcher."""

    def __init__(self, bot: "DeckhandBot"):
        self.bot = bot
        self.desk = bot.desk
        self.watching = bot.desk.watching
        self.pacer = Pacer(self.send)
        self.unsaved: dict[int, int] = {}  # watcher id -> the revision its message shows, not yet stored

    @property
    def tables(self) -> "Tables":
        return self.bot.get_cog("Tables")  # type: ignore[return-value]

    async def cog_load(self) -> None:
        await self.watching.load()
        self.place = self.tables.place
        self.place.followers.append(self.table_moved)
        self.marks_loop.start()
        self.catching_up = self.bot.loop.create_task(self.catch_up(), name="deckhand: catch the watchers up")

    async def cog_unload(self) -> None:
        self.catching_up.cancel()
        self.marks_loop.cancel()
        self.pacer.cancel()
        if self.table_moved in self.place.followers:
            self.place.followers.remove(self.table_moved)
        try:
            await self.save_marks()
        except Exception:  # noqa: BLE001 — those messages are edited once more at the next start
            log.exception("could not save what the watcher messages show")

    # ----- following -----------------------------------------------------------------------------
    def table_moved(self, reader: Reader) -> None:
        """The table message now shows ``reader``'s table: each watcher message follows, paced."""
        watchers = self.watching.of(reader.table.key)
        if not watchers:
            return
        if reader.table.status != "playing":  # the end: the codes go, each watcher is shown the final table
            self.bot.loop.create_task(self.watching.end(reader.table.key), name="deckhand: end a table's watching")
        for w in watchers:
            self.pacer.push(w, reader)

    async def catch_up(self) -> None:
        """At start: each watcher message behind its table is edited (paced like any other edit)."""
        for key in self.watching.tables():
            watchers = self.watching.of(key)
            try:
                reader = await self.desk.public(watchers[0].table_channel)
            except TableError as e:
                log.info("could not read table %s to catch its watchers up: %s", key, e)
                continue
            if reader is None or reader.table.key != key:  # its game ended while the bot was away
                for w in watchers:
                    lang = w.lang or (reader.lang if reader is not None else "en")
                    await self.edit(w, content=words(lang).t("The game you watched has ended."), view=None)
                await self.watching.drop(watchers)
                continue
            for w in watchers:
                if w.shows < reader.table.revision or reader.table.status != "playing":
                    self.pacer.push(w, reader)

    async def message(self, reader: Reader, final: bool, film: Any = None) -> payloads.TableMessage:
        """A watcher message of ``reader``'s table (public, in the watcher's language), its picture drawn
        off the loop (cached)."""
        picture = await pictures.table_picture(reader.game, reader.view, reader.lang) if reader.started else None
        mid = reader.table.message_id or await self.desk.message_id(reader.table.channel_id)
        link = payloads.jump_url(reader.table, mid) if mid is not None else ""
        return payloads.watch_message(reader, picture, link, len(self.watching.of(reader.table.key)), final=final,
                                      film=film)

    async def final_message(self, reader: Reader) -> payloads.TableMessage:
        """The last edit of a watcher message: the final table, and the whole game as the public saw it
        (the end message's animation, drawn once for both when they share a language)."""
        return await self.message(reader, final=True, film=await replays_of(self.desk).ending_film(reader))

    async def send(self, watch: Watch, reader: Reader) -> None:
        """One edit of one watcher message: the table as ``reader`` shows it, in the watcher's language;
        the end closes it."""
        reader = reader.in_language(watch.lang or reader.lang)
        final = reader.table.status != "playing"
        msg = await (self.final_message(reader) if final else self.message(reader, final=False))
        edited = await self.edit(watch, **msg.edit_kwargs())
        if edited is None or final:
            self.pacer.forget(watch.id)
            await self.watching.drop([watch])
        elif edited:
            self.watching.shown(watch, reader.table.revision)
            self.unsaved[watch.id] = max(self.unsaved.get(watch.id, 0), reader.table.revision)

    async def edit(self, watch: Watch, **kw: Any) -> bool | None:
        """Edit a watcher message through discord.py's documented road: True if edited, False if not
        this time, None if it never can be again (its watcher is dropped)."""
        try:
            if watch.token is not None:
                if watch.until is not None and time.time() >= watch.until:
                    log.info("watcher message %s: its interaction's token has expired", watch.message_id)
                    return None
                hook = discord.Webhook.partial(self.bot.application_id or 0, watch.token, client=self.bot)
                await hook.edit_message(watch.message_id, allowed_mentions=NO_PINGS, **kw)
            else:
                channel = self.bot.get_partial_messageable(watch.channel_id)
                await channel.get_partial_message(watch.message_id).edit(allowed_mentions=NO_PINGS, **kw)
        except GONE as e:
            log.info("watcher message %s in %s is gone or refused (%s): no longer followed", watch.message_id,
                     watch.channel_id, e.status)
            return None
        except discord.HTTPException as e:
            log.info("could not edit watcher message %s in %s: %s", watch.message_id, watch.channel_id, e)
            return False
        return True

    async def refresh(self, key: str) -> None:
        """Every watcher message of table ``key`` shown again (its count of watchers changed)."""
        watchers = self.watching.of(key)
        if not watchers:
            return
        reader = await self.desk.public(watchers[0].table_channel)
        if reader is not None and reader.table.key == key:
            for w in watchers:
                self.pacer.push(w, reader)

    async def save_marks(self) -> None:
        if self.unsaved:
            marks, self.unsaved = self.unsaved, {}
            await self.watching.mark(list(marks.items()))

    @tasks.loop(seconds=MARKS_SECONDS)
    async def marks_loop(self) -> None:
        try:
            await self.save_marks()
        except Exception:  # e.g. the database is away for a moment: edited again at the next start
            log.exception("could not save what the watcher messages show")

    # ----- /game watch -----------------------------------------------------------------------------
    async def find(self, interaction: discord.Interaction, table: str) -> Reader:
        """The public reader of the table picked (this server's, by its channel) or named by a code."""
        text = table.strip()
        channel: int | None = None
        if text.isdigit() and interaction.guild_id is not None:
            reader = await self.desk.public(int(text))
            if reader is not None and reader.table.guild_id == interaction.guild_id:
                channel = int(text)
        if channel is None and (found := await self.watching.invited(text)) is not None:
            key, channel = found
            reader = await self.desk.public(channel)
            if reader is None or reader.table.key != key:
                raise TableError(say("That code was for a game that is over."))
        if channel is None:
            raise TableError(NOT_FOUND)
        reader = await self.desk.require_public(channel)
        if reader.table.status != "playing":
            raise TableError(say("That table has no game in progress; watch it once its game begins."))
        return reader

    async def start(self, interaction: discord.Interaction, table: str, private: bool) -> None:
        try:
            reader = await self.find(interaction, table)
        except TableError as e:
            return await refuse(interaction, str(e))
        if reader.table.channel_id == interaction.channel_id and not private:
            return await refuse(interaction, say("That table is in this channel already. Watch it from another channel, "
                                             "or privately with `private:True`."))
        lang = language_of(interaction.locale)  # the watcher message speaks its watcher's language
        reader = reader.in_language(lang)
        t = reader.table
        count = len(self.watching.of(t.key)) + 1
        mid = t.message_id or await self.desk.message_id(t.channel_id)
        link = payloads.jump_url(t, mid) if mid is not None else ""
        picture = await pictures.table_picture(reader.game, reader.view, lang)
        msg = payloads.watch_message(reader, picture, link, count)
        in_my_dm = interaction.context.dm_channel and not interaction.context.private_channel
        if private and not in_my_dm:
            try:  # in our DM the message can follow the whole game (an ephemeral one: while its token lives)
                dm = await interaction.user.create_dm()
                posted = await dm.send(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                posted = None
            if posted is not None:
                await self.watching.add(reader, interaction.user.id, dm.id, posted.id, lang=lang)
                await interaction.response.send_message(
                    words(lang).t("Watching in our DMs: {link}", link=posted.jump_url),
                    ephemeral=True)
                return await self.refresh(t.key)
            msg = payloads.watch_message(reader, picture, link, count)  # its files were read by the attempt
        sent = await interaction.response.send_message(**msg.send_kwargs(), ephemeral=private and not in_my_dm,
                                                       allowed_mentions=NO_PINGS)
        message_id = sent.message_id if sent.message_id is not None else (await interaction.original_response()).id
        through_webhook = (private and not in_my_dm) or bot_absent(interaction)
        await self.watching.add(reader, interaction.user.id, interaction.channel_id or 0, message_id,
                                token=interaction.token if through_webhook else None,
                                until=time.time() + TOKEN_LIFE if through_webhook else None, lang=lang)
        await self.refresh(t.key)  # the others' count of watchers

    async def choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """This server's tables in play, named as people know them: game, players, channel."""
        w = words(language_of(interaction.locale))  # the one typing
        if interaction.guild_id is None:
            return payloads.nothing_entry(w.say(PICK_HERE))
        try:
            live = await self.watching.live(interaction.guild_id)
        except Exception:  # noqa: BLE001 — an autocomplete never fails loudly
            log.exception("could not list the tables to watch")
            return []
        guild = interaction.guild
        needle = current.strip().lower()
        out = []
        for t in live:
            place = guild.get_channel_or_thread(t.channel_id) if guild is not None else None
            where = f"#{place.name}" if place is not None else w.t("a channel here")
            players = ", ".join(" ".join(p.split()) for p in t.players)
            label = clip(f"{t.title} — {players} — {where}", 100)
            if not needle or needle in label.lower():
                out.append(app_commands.Choice(name=label, value=str(t.channel_id)))
        if not out:
            return payloads.nothing_entry(w.say(NONE_HERE if not live else NOT_FOUND))
        return out[:25]

    # ----- buttons ---------------------------------------------------------------------------------
    async def press(self, interaction: discord.Interaction, kind: Kind, key: str) -> None:
        if kind is Kind.INVITE:
            return await self.invite(interaction, key)
        clicked = interaction.message
        watch = next((w for w in self.watching.of(key) if clicked is not None and w.message_id == clicked.id), None)
        if watch is None:
            return await refuse(interaction, say("This message no longer follows a table."))
        if watch.user_id != interaction.user.id:
            return await refuse(interaction, say("Only the one who started watching here can stop it. `/game watch` "
                                             "gives you a message of your own."))
        self.pacer.forget(watch.id)
        await self.watching.drop([watch])
        lang = watch.lang  # the watcher message speaks its watcher's language (an older one, its table's)
        if not lang:
            try:
                table = await self.desk.public(watch.table_channel)
            except TableError:
                table = None
            lang = table.lang if table is not None and table.table.key == key else language_of(interaction.locale)
        await interaction.response.edit_message(content=words(lang).t("You stopped watching this table."), view=None)
        await self.refresh(key)

    async def invite(self, interaction: discord.Interaction, key: str) -> None:
        try:
            reader = await self.desk.require_public(interaction.channel_id)
            if reader.table.key != key:
                raise TableError(say("That game is over; there is nothing to watch."))
            code = await self.watching.invite(reader, interaction.user.id)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(words(language_of(interaction.locale)).t(
            "Give this to a friend: they run {command} wherever they use Deckhand (a server, or their DMs with me) and "
            "see this table as anyone would: never your hand. The code works until this game ends.",
            command=f"`/game watch table:{code}`"), ephemeral=True, allowed_mentions=NO_PINGS)


class _Commands:
    """``/game watch``, added to the table cog's ``/game`` group (its ``self`` is that cog)."""

    bot: Any

    @app_commands.command(name="watch", description="Follow a table from anywhere: one message that moves with it.")
    @app_commands.describe(table="A table in play on this server (start typing), or a watch code a player gave you",
                           private="Only you see it (in our DMs)")
    async def watch(self, interaction: discord.Interaction, table: app_commands.Range[str, 1, 100],
                    private: bool = False) -> None:
        await self.bot.get_cog("Watch").start(interaction, table, private)

    @watch.autocomplete("table")
    async def watch_tables(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.bot.get_cog("Watch").choices(interaction, current)


def attach(group: app_commands.Group) -> None:
    """Add ``/game watch`` to the ``/game`` group (before its cog is made)."""
    group.add_command(_Commands.watch, override=True)  # type: ignore[arg-type]


async def setup(bot: "DeckhandBot") -> None:
    await bot.add_cog(WatchCog(bot))
