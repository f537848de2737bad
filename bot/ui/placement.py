"""Where a table's one public message lives, and how it is shown after every change.

The table message is edited in place by every action, whether it came through a button, a
private picker, a text box or a slash command. A new copy is posted only when there is none, it
cannot be edited, or it has scrolled far up the channel; the old copy then loses its buttons
and links to the new one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.words import say
from bot.i18n import words
from bot.i18n.lang import language_of
from bot.render import pictures
from bot.render.panel import clip
from bot.tables.reader import Reader
from bot.ui import payloads
from bot.ui.payloads import NO_PINGS

if TYPE_CHECKING:
    from bot.tables.desk import Desk

log = logging.getLogger("cogs.tables")

MOVE_DOWN_AFTER = 10  # other people's messages below the table message before it moves down the channel
MOVED = say("The table moved down the channel: {link}")


def moved(reader: Reader, live: int) -> str:
    """What an older copy of the table message says, in the table's language: where the table is now."""
    return reader.words.t(MOVED, link=payloads.jump_url(reader.table, live))


def draw(reader: Reader) -> Any:
    """The drawing of a public reader's table picture (a coroutine), its words in the table's language."""
    return pictures.table_picture(reader.game, reader.view, reader.lang)


async def render(reader: Reader, ratings: Any = None) -> payloads.TableMessage:
    """The public table message of a public reader; its picture is drawn off the event loop. A lobby
    shows each seated player's rating (``ratings``: the desk's read-only ratings)."""
    picture = await draw(reader) if reader.started and reader.table.status != "lobby" else None
    lines: list[str] = []
    if reader.table.status == "lobby" and ratings is not None:
        from bot.ui.ratings import lobby_lines

        lines = await lobby_lines(ratings, reader.table)
    return payloads.table_message(reader, picture, ratings=lines)


TOKEN_LIFE = 14 * 60.0  # seconds an interaction's webhook is used for (Discord's tokens live 15 minutes)


@dataclass
class Handle:
    """Where the bot is not in the channel (a user install's DM or group DM, a server without the
    bot): the table message is edited through the webhook of an interaction that made or answered
    it, while that interaction's token lives."""

    interaction: discord.Interaction
    message_id: int
    original: bool  # the table message is the interaction's own response (else one of its follow-ups)
    until: float  # time.monotonic() after which the token is not used

    @classmethod
    def of(cls, interaction: discord.Interaction, message_id: int, original: bool) -> Handle:
        return cls(interaction, message_id, original, time.monotonic() + TOKEN_LIFE)

    def usable_for(self, message_id: int) -> bool:
        return self.message_id == message_id and time.monotonic() < self.until

    async def edit(self, **kw: Any) -> None:
        if self.original:
            await self.interaction.edit_original_response(**kw)
        else:
            await self.interaction.followup.edit_message(self.message_id, **kw)


def bot_absent(interaction: discord.Interaction) -> bool:
    """The bot may not use the channel itself: a DM or group DM between users (the app installed to
    a user), or a server that installed the app only for a user."""
    if interaction.context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


class Placement:
    """The channel's table message: its id (as stored), what was posted below it, one edit at a time."""

    def __init__(self, bot: discord.Client, desk: "Desk"):
        self.bot, self.desk = bot, desk
        self.live: dict[int, int] = {}  # channel -> its table message (as last read from the store)
        self.below: dict[int, int] = {}  # channel -> other people's messages posted below it since
        self.showing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.absent: set[int] = set()  # channels the bot is not in: edited through interactions' webhooks only
        self.handles: dict[int, Handle] = {}  # such a channel -> the newest webhook that may edit its table message
        self.shows: dict[int, tuple[str, int]] = {}  # channel -> (table, revision) its message was last made to show
        self.unsaved: dict[int, tuple[str, int]] = {}  # those not yet written to the store (:meth:`save_marks`)
        self.followers: list[Callable[[Reader], None]] = []  # told each new state once the table shows it (watchers)
        # bench: paced, with pictures: click → answer p99 — an answer waits at most this for its new picture
        self.picture_wait: float | None = getattr(bot, "picture_wait", None)  # None: it always waits
        self.pictured: dict[int, int] = {}  # channel -> its table message, when that carries a picture
        self.drawing: dict[int, asyncio.Task[None]] = {}  # channel -> the picture being drawn to follow its answer
        self.later: dict[int, Reader] = {}  # channel -> the newest state whose picture is to follow

    def shown(self, reader: Reader, msg: payloads.TableMessage | None = None, posted: bool = False) -> None:
        """The channel's table message now shows this reader's table (as ``msg``, ``posted`` anew):
        remembered here, and in the store by the next :meth:`save_marks` (a batch, off the press's road)."""
        t = reader.table
        if msg is not None:
            if msg.files or (msg.kept and not posted):
                self.pictured[t.channel_id] = self.live.get(t.channel_id, 0)
            else:
                self.pictured.pop(t.channel_id, None)
        mark = (t.key, t.revision)
        old = self.shows.get(t.channel_id)
        if old is None or old[0] != mark[0] or old[1] < mark[1]:
            self.shows[t.channel_id] = self.unsaved[t.channel_id] = mark
            for follow in self.followers:  # after the table message: its edit is never behind theirs
                follow(reader)

    def is_current(self, reader: Reader) -> bool:
        """Whether this process last made the table message show this reader's table."""
        return self.shows.get(reader.table.channel_id) == (reader.table.key, reader.table.revision)

    async def save_marks(self) -> None:
        """Write what the table messages show to the store, in one batch (a crash loses at most the
        marks since the last batch: those tables are edited once more when the bot starts again)."""
        if not self.unsaved:
            return
        marks, self.unsaved = self.unsaved, {}
        try:
            await self.desk.mark_shown([(ch, key, rev) for ch, (key, rev) in marks.items()])
        except Exception:
            for ch, mark in marks.items():
                self.unsaved.setdefault(ch, mark)
            raise

    async def catch_up(self, pace: float = 0.05) -> int:
        """Edit each table message the store says is behind its table (a crash between a move's commit
        and the message's edit), one at a time, ``pace`` seconds apart; how many were edited."""
        edited = 0
        for ch in await self.desk.behind():
            try:
                reader = await self.desk.public(ch)
            except Exception as e:  # noqa: BLE001 — a damaged table says so when it is next used
                log.info("could not read table %s to catch its message up: %s", ch, e)
                continue
            if reader is not None and await self.show_table(reader, post=False) is not None:
                edited += 1
            await asyncio.sleep(pace)
        return edited

    def saw_message(self, message: discord.Message) -> None:
        """Count what people post below a table message (content is not read)."""
        ch = message.channel.id
        live = self.live.get(ch)
        me = self.bot.user
        if live is None or message.id <= live or (me is not None and message.author.id == me.id):
            return
        self.below[ch] = self.below.get(ch, 0) + 1

    def scrolled_away(self, channel_id: int) -> bool:
        return self.below.get(channel_id, 0) >= MOVE_DOWN_AFTER

    async def live_id(self, reader: Reader) -> int | None:
        """The channel's table message, keeping the count of what was posted below it; read from the
        reader when it carries it, else from the store."""
        ch = reader.table.channel_id
        mid = reader.table.message_id if reader.table.message_id is not None else await self.desk.message_id(ch)
        if mid is None:
            self.live.pop(ch, None)
        elif self.live.get(ch) != mid:
            self.live[ch] = mid
            self.below[ch] = 0
        return mid

    async def remember(self, channel_id: int, message_id: int) -> None:
        await self.desk.set_message_id(channel_id, message_id)
        self.live[channel_id] = message_id
        self.below[channel_id] = 0

    def learn(self, interaction: discord.Interaction) -> None:
        """What an interaction tells of its channel: whether the bot is in it, and (where it is not) a
        webhook that may edit the table message it was pressed on."""
        ch = interaction.channel_id
        if ch is None or not bot_absent(interaction):
            return
        self.absent.add(ch)
        clicked = interaction.message
        if clicked is not None and not clicked.flags.ephemeral and clicked.id == self.live.get(ch):
            self.handles[ch] = Handle.of(interaction, clicked.id, True)  # a press's own response is its message

    async def post(self, interaction: discord.Interaction, reader: Reader, msg: payloads.TableMessage) -> int:
        """A new public table message, through the interaction (so it works wherever the app may answer),
        remembered as the channel's table message showing ``reader``'s table."""
        original = not interaction.response.is_done()
        if original:
            sent = await interaction.response.send_message(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
            mid = sent.message_id if sent.message_id is not None else (await interaction.original_response()).id
        else:
            mid = (await interaction.followup.send(**msg.send_kwargs(), allowed_mentions=NO_PINGS, wait=True)).id
        if interaction.channel_id in self.absent:
            self.handles[interaction.channel_id] = Handle.of(interaction, mid, original)
        await self.remember(reader.table.channel_id, mid)
        self.shown(reader, msg, posted=True)
        return mid

    async def edit(self, channel_id: int, message_id: int, **kw: Any) -> bool:
        """Edit one of the bot's own messages through the channel (where the bot is not in the channel:
        through an interaction's webhook while its token lives); False if Discord will not let it."""
        if channel_id in self.absent:
            handle = self.handles.get(channel_id)
            if handle is None or not handle.usable_for(message_id):
                return False
            try:
                await handle.edit(**kw)
            except discord.HTTPException as e:
                log.info("could not edit table message %s in %s through its webhook: %s", message_id, channel_id, e)
                self.handles.pop(channel_id, None)
                return False
            return True
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(**kw)
        except discord.HTTPException as e:
            log.info("could not edit table message %s in %s: %s", message_id, channel_id, e)
            if isinstance(e, discord.Forbidden) and e.code == 50001:  # Missing Access: the bot is not there
                self.absent.add(channel_id)
            return False
        return True

    async def table(self, reader: Reader, live: int | None) -> payloads.TableMessage:
        """The table message of a change shown in place: with its new picture when that is drawn within
        ``picture_wait`` seconds; else with the picture the message carries (where it carries one), the
        new one following in an edit. One drawing follows a table at a time, then its newest state's."""
        ch = reader.table.channel_id
        if self.picture_wait is None or not reader.started or reader.table.status == "lobby":
            return await render(reader, self.desk.ratings)
        if ch not in self.drawing:
            drawing = asyncio.ensure_future(draw(reader))
            if (await asyncio.wait({drawing}, timeout=self.picture_wait))[0]:
                return payloads.table_message(reader, drawing.result())
            self.drawing[ch] = asyncio.create_task(self._picture_later(reader, drawing), name="deckhand: a picture")
        else:
            self.later[ch] = reader
        kept = live is not None and self.pictured.get(ch) == live
        return payloads.table_message(reader, payloads.KEPT if kept else None)

    async def _picture_later(self, reader: Reader, drawing: "asyncio.Future[bytes | None]") -> None:
        """The pictures that follow a table's answers: each edited in while its state is the one shown."""
        ch = reader.table.channel_id
        try:
            while True:
                png = await drawing
                async with self.showing[ch]:
                    live = self.live.get(ch)
                    if png is not None and live is not None and self.is_current(reader):
                        msg = payloads.table_message(reader, png)
                        if await self.edit(ch, live, **msg.edit_kwargs()):
                            self.pictured[ch] = live
                nxt = self.later.pop(ch, None)
                if nxt is None:
                    return
                reader, drawing = nxt, asyncio.ensure_future(draw(nxt))
        except Exception:  # noqa: BLE001 — the table's text stands; its next change draws again
            log.exception("could not add the picture to the table message in %s", ch)
        finally:
            self.drawing.pop(ch, None)

    def stop(self) -> None:
        for task in list(self.drawing.values()):
            task.cancel()

    async def show_made(self, reader: Reader, message: payloads.TableMessage | None = None) -> None:
        """The table message edited in place, as :meth:`show_table` with ``post=False`` does, from a
        message made beforehand unless another action landed since. A table with no table message
        is not posted."""
        ch = reader.table.channel_id
        async with self.showing[ch]:
            latest = self.desk.latest(ch, reader)
            live = await self.live_id(reader)
            if message is None or latest is not reader:
                message = await self.table(latest, live)
            if live is not None and await self.edit(ch, live, **message.edit_kwargs()):
                self.shown(latest, message)

    async def show_table(self, reader: Reader, *, post: bool = True) -> int | None:
        """Show the table without an interaction (a new thread, a timer): edit its table message in
        place, else (``post``) post one in the channel; the message's id, or None."""
        ch = reader.table.channel_id
        async with self.showing[ch]:
            live = await self.live_id(reader)
            msg = await self.table(reader, live)
            if live is not None and await self.edit(ch, live, **msg.edit_kwargs()):
                self.shown(reader, msg)
                return live
            if not post:
                return None
            try:
                sent = await self.bot.get_partial_messageable(ch).send(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
            except discord.HTTPException as e:  # e.g. a user-installed app cannot post here
                log.info("could not post the table to %s: %s", ch, e)
                return None
            await self.remember(ch, sent.id)
            self.shown(reader, msg, posted=True)
            return sent.id

    async def show(self, interaction: discord.Interaction, reader: Reader, answer: str, move_down: bool, *,
                   answered: "asyncio.Future[None] | None" = None) -> int | None:
        """Show the table after an action: the clicked table message answers a click on it; else
        the live one is edited and the actor is answered privately (``answer``). ``answered``: the
        interaction's answer, being made meanwhile (a private panel's next step; once it is done, so
        is the interaction's response): a plain edit of the live table message goes out at once,
        and everything else, whatever goes through the interaction above all, waits for that
        answer, as if it had been made first. When the edit is all there is to do, this returns
        without waiting: the caller waits for the answer, outside the channel's showing lock."""
        ch = reader.table.channel_id
        reader = self.desk.latest(ch, reader)  # another action landed meanwhile: show where the table is now
        live = await self.live_id(reader)
        clicked = interaction.message
        public_click = clicked is not None and not clicked.flags.ephemeral
        msg = await self.table(reader, live)
        self.learn(interaction)
        if answered is not None:
            edited = None
            if not public_click and live is not None and not (move_down or self.scrolled_away(ch)):
                edited = await self.edit(ch, live, **msg.edit_kwargs())  # the table first
                if edited:
                    self.shown(reader, msg)
            if edited and not answer:
                return live
            await answered
            if edited is not None:  # the rest of the plain edit's road below
                return await self._answer_after_edit(interaction, reader, msg, live, edited, answer)
        answered_here = False
        if (public_click and clicked is not None and live is not None and clicked.id != live
                and not interaction.response.is_done()):
            # A click on another public copy (a notice posted with the table): the newer one is the table.
            if clicked.id < live:
                await interaction.response.edit_message(content=moved(reader, live), view=None)
            else:
                older, live = live, clicked.id
                await self.remember(ch, live)
                await self.edit(ch, older, content=moved(reader, live), view=None)
        if live is not None and (move_down or self.scrolled_away(ch)):
            old, live = live, await self.post(interaction, reader, msg)
            await self.edit(ch, old, content=moved(reader, live), view=None)
        elif (public_click and clicked is not None and not interaction.response.is_done()
              and live in (None, clicked.id)):
            await interaction.response.edit_message(**msg.edit_kwargs())
            answered_here = True  # the table itself answers a click on it
            if live is None:
                live = clicked.id
                await self.remember(ch, live)
            self.shown(reader, msg)
        else:
            edited = live is not None and await self.edit(ch, live, **msg.edit_kwargs())
            if edited:
                self.shown(reader, msg)
            return await self._answer_after_edit(interaction, reader, msg, live, edited, answer)
        if answer and not answered_here:
            await interaction.followup.send(clip(words(language_of(interaction.locale)).say(answer), 1900), ephemeral=True,
                                            allowed_mentions=NO_PINGS)
        return live

    async def _answer_after_edit(self, interaction: discord.Interaction, reader: Reader, msg: payloads.TableMessage,
                                 live: int | None, edited: bool, answer: str) -> int | None:
        """The plain edit's road once the table message was edited in place (``edited``) or could not
        be: the actor answered privately with a link to it, else the table posted anew; ``answer`` as a
        private follow-up when that did not already say it."""
        said = False
        if edited and live is not None:
            said = await self.acknowledge(interaction, answer, payloads.jump_url(reader.table, live))
        else:
            live = await self.post(interaction, reader, msg)
        if answer and not said:
            await interaction.followup.send(clip(words(language_of(interaction.locale)).say(answer), 1900), ephemeral=True,
                                            allowed_mentions=NO_PINGS)
        return live

    async def acknowledge(self, interaction: discord.Interaction, answer: str, link: str) -> bool:
        """Answer an action that did not come from the table message: privately, with a link to it."""
        if interaction.response.is_done():
            return False
        w = words(language_of(interaction.locale))  # a private answer: the reader's own language
        text = clip(f"{w.say(answer) if answer else w.t('Done.')}\n" + w.t("The table: {link}", link=link), 2000)
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:  # a private panel updates in place
            await interaction.response.edit_message(content=text, embed=None, view=None, attachments=[])
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        return True
