"""Playing through Discord: components, moves, private panels, text boxes and what follows them.

A mixin of the table cog (``cogs.tables.Tables``). It holds readers only: every look and every
action goes through the desk (``bot.tables.desk``), every payload is made in ``bot.ui.payloads``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.engine.words import say
from bot.i18n import words
from bot.i18n.lang import language_of
from bot.render import pictures
from bot.render.panel import clip
from bot.tables import Actor, TableError
from bot.tables.desk import DamagedError
from bot.tables.errors import AlreadyHandled, StaleError
from bot.tables.lessons import is_lesson_key
from bot.tables.reader import Reader, Update
from bot.tables.replays import replays_of
from bot.ui import payloads
from bot.ui.components import TABLE_ACTIONS, Kind, modal_id, modal_moves, modal_text, parse_modal_id
from bot.ui.payloads import NO_PINGS
from bot.ui.placement import Placement, moved, render

if TYPE_CHECKING:
    from bot.tables.desk import Desk

log = logging.getLogger("cogs.tables")

MOVE_KINDS = frozenset({Kind.STEP, Kind.SELECT, Kind.BATCH, Kind.PAGE, Kind.CONFIRM, Kind.SURE_MOVE})
# Presses that change nothing: a private panel or a private copy of the table opened, the story's
# file sent, a text box opened, "Keep playing". A second delivery is let go in this process
# (bot.ui.components.Delivered); after a restart one of these would be answered again, which changes
# nothing either. The table's actions (join, leave, start, concede, move down…) are remembered in
# the store, and moves with the move.
READ_KINDS = frozenset({Kind.HAND, Kind.SHOW, Kind.STORY_FILE, Kind.TEXT, Kind.KEEP, Kind.INVITE, Kind.STOP_WATCHING})
DEFER_AFTER = 2.0  # seconds; Discord allows 3 for the first answer
# What Discord's failing to take an answer raises through discord.py: an HTTP error after its retries, a
# connection closed or lost, no answer in time.
ANSWER_FAILED = (discord.HTTPException, aiohttp.ClientError, ConnectionError, asyncio.TimeoutError)
STALE_LINK = say("That table has moved on since this was posted; here is the current table.")
STALE_LINK_ONLY = say("That table has moved on since this was posted; the table is here now: {link}")
STALE_BOX = "That table has moved on since this box was opened."
STALE_HERE = say("That table had moved on since this was shown; it shows the current state now. Nothing was changed.")
ANSWERS = {Kind.JOIN: say("You sat down at the table."), Kind.LEAVE: say("You left the table."),
           Kind.START: say("The game is on."), Kind.CANCEL: say("The table is cancelled."), Kind.CONCEDE: say("You conceded."),
           Kind.SKIP: say("The late player's turn was played."), Kind.REMOVE: say("The late player was removed."),
           Kind.REMATCH: say("A rematch is on."), Kind.NEW_GAME: say("A new game is on."),
           Kind.ADD_BOT: say("A bot took a seat.")}


def actor_of(interaction: discord.Interaction, owner_ids: Any = None) -> Actor:
    """Who acts; the bot's owners (DECKHAND_OWNER_IDS) may manage any table. The display name is
    kept on one line (it is escaped wherever it is shown)."""
    user = interaction.user
    perms = interaction.permissions
    can_manage = interaction.guild_id is not None and bool(perms and perms.manage_messages)
    shown = " ".join(str(user.display_name).split())[:80] or str(user.id)
    lang = language_of(interaction.locale)
    table_lang = language_of(interaction.guild_locale) if interaction.guild_id is not None else lang
    return Actor(user.id, shown, can_manage or user.id in (owner_ids or ()), lang, table_lang)


async def follow_up(interaction: discord.Interaction, content: str, *, ephemeral: bool = False,
                    allowed_mentions: discord.AllowedMentions = NO_PINGS, files: list[discord.File] = (),
                    view: discord.ui.View | None = None) -> None:
    """A follow-up message to an interaction already answered (privately when ``ephemeral``)."""
    kw: dict[str, Any] = {"files": list(files)} if files else {}
    if view is not None:
        kw["view"] = view
    await interaction.followup.send(content, ephemeral=ephemeral, allowed_mentions=allowed_mentions, **kw)


async def answer(interaction: discord.Interaction, content: str | None = None, **kw: Any) -> None:
    """A private answer: the interaction's first answer, or a follow-up once it has one."""
    kw.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kw)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kw)


def said(interaction: discord.Interaction, text: str, /, **kw: Any) -> str:
    """A message of the catalogue in the interaction's reader's own language (a private answer)."""
    return words(language_of(interaction.locale)).t(text, **kw) if text else ""


async def edit_in_place(interaction: discord.Interaction, **kw: Any) -> None:
    """Edit the pressed message: as the interaction's answer, or as its deferred answer once it has one."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kw)
    else:
        await interaction.response.edit_message(**kw)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Every refusal: ephemeral, plain and short enough for Discord; an engine's phrase in the reader's language."""
    await answer(interaction, clip(words(language_of(interaction.locale)).say(message), 1900))


class Play:
    """Components and moves (a mixin of the table cog)."""

    bot: Any
    desk: "Desk"
    place: Placement

    # ----- showing the table after an action ----------------------------------------------
    async def publish(self, interaction: discord.Interaction, update: Update | Reader, *, answer: str = "",
                      answered: "asyncio.Future[None] | None" = None) -> None:
        """Show the table after an action, wherever the action came from, then the notices.
        ``answered``: the interaction's answer, being made meanwhile (a private panel's next step);
        the table message is edited at once, anything said through the interaction waits for it."""
        reader = update.public if isinstance(update, Update) else update
        async with self.place.showing[reader.table.channel_id]:  # two actions at once: the later state shows last
            live = await self.place.show(interaction, reader, answer, move_down=False, answered=answered)
        if answered is not None:
            await answered
        if isinstance(update, Update):
            await self.notify(interaction, update, live)
        self.pace_bots(reader)

    async def notify(self, interaction: discord.Interaction, update: Update, live: int | None) -> None:
        """The mover's private lines (privately); then the only new public messages: a short turn
        ping linking to the table, and one message when the game ends."""
        reader = update.public
        link = payloads.jump_url(reader.table, live) if live is not None else ""
        if update.lines:
            await follow_up(interaction, payloads.private_lines(update.lines), ephemeral=True)
        if update.pings and reader.table.status == "playing":
            await follow_up(interaction, **payloads.ping(reader, update.pings, link))
        if update.finished:
            from bot.ui.ratings import change_lines

            rated = change_lines(update.extra.get("ratings", ()), reader.lang)
            film = await replays_of(self.desk).ending_film(reader)
            await follow_up(interaction, **payloads.ending(reader, link, rated, film))

    # ----- components ------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, kind: Kind, tid: str, rev: int, arg: str,
                           values: list[str]) -> None:
        # A second delivery to this process is let go before this (the component's interaction_check);
        # after a restart, a move is remembered with the move (one write) and a table action here.
        if kind not in READ_KINDS and kind not in MOVE_KINDS and not await self.desk.first_delivery(interaction.id):
            return
        try:
            await self._component(interaction, kind, tid, rev, arg, values)
        except AlreadyHandled:
            return
        except StaleError:
            await self.refuse_stale(interaction)
        except TableError as e:
            await refuse(interaction, str(e))
        except ANSWER_FAILED as e:  # the action (if any) stands: the table is shown through the channel
            await self.answer_failed(interaction, tid, e)

    async def answer_failed(self, interaction: discord.Interaction, tid: str, error: BaseException) -> None:
        """Discord would not take an answer (a 429 or 5xx on every try, a connection closed): one line
        in the log; the table message caught up through the channel; the player told in a follow-up
        while the interaction's token still allows it."""
        log.warning("could not answer %s at table %s in channel %s: %s", interaction.id, tid, interaction.channel_id,
                    error.__class__.__name__ + (f" ({error})" if str(error) else ""))
        ch = interaction.channel_id
        try:
            reader = await self.desk.public(ch) if ch is not None else None
            if reader is not None:
                live = await self.place.show_table(reader, post=False)
                if live is not None and interaction.response.is_done():
                    await follow_up(interaction, said(interaction, "Done. The table: {link}",
                                                      link=payloads.jump_url(reader.table, live)), ephemeral=True)
        except (TableError, *ANSWER_FAILED) as e:
            log.warning("could not catch the table up in channel %s either: %s", ch, e.__class__.__name__)

    async def _component(self, interaction: discord.Interaction, kind: Kind, tid: str, rev: int, arg: str,
                         values: list[str]) -> None:
        if is_lesson_key(tid):  # a lesson's message (bot.ui.lessons): its buttons and its pickers
            from bot.ui import lessons

            return await lessons.press(self, interaction, kind, tid, rev, arg, values)  # type: ignore[arg-type]
        if kind in TABLE_ACTIONS:
            return await self.table_action(interaction, kind, tid, rev, arg=arg)
        if kind is Kind.SURE:
            if arg not in (Kind.CONCEDE, Kind.LEAVE, Kind.CANCEL, Kind.ABANDON):
                return await refuse(interaction, say("That button is not one of mine."))
            target = Kind(arg)
            if target is Kind.ABANDON:
                return await self.abandon_table(interaction, tid, rev, confirmed=True)
            return await self.table_action(interaction, target, tid, rev, confirmed=True)
        if kind is Kind.KEEP:
            return await self.keep_playing(interaction)
        if kind in (Kind.INVITE, Kind.STOP_WATCHING):  # watching from elsewhere (cogs.watch)
            return await self.bot.get_cog("Watch").press(interaction, kind, tid)
        if kind is Kind.MOVE_DOWN:
            return await self.move_down(interaction, tid)
        if kind is Kind.ABANDON:
            return await self.abandon_table(interaction, tid, rev)
        if kind is Kind.SHOW:
            msg = await render(await self.desk.require_public(interaction.channel_id))
            return await interaction.response.send_message(**msg.send_kwargs(), ephemeral=True)
        if kind is Kind.HAND:
            return await self.show_hand(interaction)
        if kind is Kind.STORY_FILE:
            file = payloads.story_file(await self.desk.require_public(interaction.channel_id))
            if file is None:
                return await refuse(interaction, say("No story here."))
            return await interaction.response.send_message(file=file, ephemeral=True)
        page = 0
        if kind is Kind.PAGE:
            number, _, arg = arg.partition(":")
            page = int(number) if number.isdigit() else 0
        if kind is Kind.BATCH:  # whole moves chosen in a select: played in the order offered
            moves = payloads.batch_moves(values)
            if not moves:
                return await refuse(interaction, say("Choose at least one move."))
            return await self.play(interaction, moves[0], via="button", table=tid, opened=rev, more=moves[1:])
        tokens = await self.tokens(interaction, arg, tid, rev)
        if kind is Kind.CONFIRM and payloads.THEN in tokens:  # a sequence of moves in one press
            moves = [m.strip() for m in " ".join(tokens).split(payloads.THEN) if m.strip()]
            return await self.play(interaction, moves[0], via="button", table=tid, opened=rev, more=moves[1:])
        if kind is Kind.SELECT:
            tokens += (",".join(values),)  # a set's values, comma-separated
        if kind in (Kind.CONFIRM, Kind.SURE_MOVE):
            return await self.play(interaction, " ".join(tokens), via="button", table=tid, opened=rev,
                                   confirmed=kind is Kind.SURE_MOVE)
        if kind is Kind.TEXT:
            return await self.open_modal(interaction, tid, rev, tokens)
        return await self.step(interaction, tid, rev, tokens, page)

    async def tokens(self, interaction: discord.Interaction, arg: str, tid: str, rev: int) -> tuple[str, ...]:
        if arg.startswith("~"):
            return await self.desk.get_draft(arg[1:], interaction.channel_id, interaction.user.id, tid, rev)
        return payloads.decode_tokens(arg)

    async def refuse_stale(self, interaction: discord.Interaction) -> None:
        """A stale component: say so and change nothing. A table message behind its table (a crash
        between a move's commit and its edit) is first brought up to date: a press on it edits it in
        place; else the current table is shown privately, the table message edited through the channel."""
        try:
            reader = await self.desk.public(interaction.channel_id)
        except DamagedError as e:
            return await refuse(interaction, str(e))
        if reader is None:
            return await refuse(interaction, say("That table is gone. Start one with `/game new`."))
        clicked = interaction.message
        live = await self.place.live_id(reader)
        self.place.learn(interaction)
        if (clicked is not None and not clicked.flags.ephemeral and live is not None and clicked.id != live
                and _of_table(clicked, reader.table.key) and not interaction.response.is_done()):
            # an older copy of the table (posted again further down): it points to the table and loses its buttons
            await interaction.response.edit_message(content=moved(reader, live), view=None)
            return await follow_up(interaction, said(interaction, STALE_LINK_ONLY, link=payloads.jump_url(reader.table, live)),
                                   ephemeral=True)
        if not self.place.is_current(reader):
            if (clicked is not None and not clicked.flags.ephemeral and clicked.id == live
                    and not interaction.response.is_done()):
                async with self.place.showing[reader.table.channel_id]:
                    reader = self.desk.latest(reader.table.channel_id, reader)
                    msg = await render(reader, self.desk.ratings)
                    await interaction.response.edit_message(**msg.edit_kwargs())
                    self.place.shown(reader, msg)
                return await follow_up(interaction, said(interaction, STALE_HERE), ephemeral=True)
            await self.place.show_table(reader, post=False)
        kw = (await render(reader)).send_kwargs()
        kw["content"] = said(interaction, STALE_LINK)
        await answer(interaction, **kw)

    # ----- lobby and table buttons --------------------------------------------------------
    async def table_action(self, interaction: discord.Interaction, kind: Kind, tid: str | None, rev: int | None,
                           *, confirmed: bool = False, arg: str = "") -> None:
        """Lobby and table buttons (and their slash commands): join, leave, start, cancel, concede,
        skip, remove, rematch, new game. A button names its table and revision and is refused
        when either has moved on. Leaving a game being played and conceding ask first."""
        actor = actor_of(interaction, self.bot.owner_ids)
        ch = interaction.channel_id
        assert ch is not None
        reader: Reader | None = None
        try:
            if tid is not None:
                reader = await self.desk.require_public(ch)
                if reader.table.key != tid or (rev is not None and reader.table.revision != rev):
                    return await self.refuse_stale(interaction)
            if kind in (Kind.CONCEDE, Kind.LEAVE) and not confirmed:
                reader = reader or await self.desk.public(ch)
                if reader is not None and reader.table.status == "playing" and \
                        reader.table.seat_of(actor.user_id) is not None:
                    return await self.ask_sure(
                        interaction, say("Are you sure? **Concede**: that is a forfeit, and it cannot be undone.")
                        if kind is Kind.CONCEDE else
                        say("Are you sure? **Leave the game**: that is a forfeit, and it cannot be undone."),
                        payloads.confirm_view(reader.table.key, reader.table.revision, payloads.SURE, kind.value))
            update = await self._table_update(interaction, kind, actor, ch, rev, arg)
        except StaleError:
            return await self.refuse_stale(interaction)
        except TableError as e:
            return await refuse(interaction, str(e))
        if update is None:
            return await refuse(interaction, say("The damaged table was set aside; this channel can start a new game."))
        await self.publish(interaction, update, answer=ANSWERS.get(kind, ""))

    async def _table_update(self, interaction: discord.Interaction, kind: Kind, actor: Actor, ch: int,
                            rev: int | None, arg: str = "") -> Update | None:
        desk = self.desk
        if kind is Kind.ADD_BOT:  # its argument: the level (an older message's button: none, Normal)
            return await desk.add_bot(ch, actor, revision=rev, level=arg or None)
        fns = {Kind.JOIN: desk.join, Kind.LEAVE: desk.leave, Kind.START: desk.start, Kind.CANCEL: desk.cancel,
               Kind.CONCEDE: desk.leave, Kind.SKIP: desk.skip, Kind.REMOVE: desk.remove, Kind.REMATCH: desk.rematch}
        if kind in fns:
            keep_rev = rev is not None and kind not in (Kind.LEAVE, Kind.CONCEDE, Kind.CANCEL)
            return await fns[kind](ch, actor, revision=rev if keep_rev else None)
        return await desk.new_like_last(ch, interaction.guild_id, actor)  # Kind.NEW_GAME

    # ----- the private panel ----------------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction, note: str = "") -> None:
        """The seat's private panel (its view, its picture, its first choices); a private panel
        that asked for it is updated in place."""
        try:
            reader = await self.desk.hand(interaction.channel_id, interaction.user.id)
        except TableError as e:
            return await refuse(interaction, str(e))
        if reader.seat is None:
            return await refuse(interaction, say("You are not playing at this table; the public table is all there is "
                                             "to see."))
        if reader.table.status != "playing":
            return await refuse(interaction, say("There is no game in progress at this table."))
        await self.send_panel(interaction, reader, note)

    async def send_panel(self, interaction: discord.Interaction, reader: Reader, note: str = "") -> None:
        drafts = payloads.Drafts()
        reader = reader.in_language(language_of(interaction.locale))  # a private answer: the reader's own language
        png = await pictures.seat_picture(reader.game, reader.view, reader.lang)
        head, embed, view, files = payloads.seat_message(reader, drafts, png, note)
        if await self.desk.lesson_offer(reader, interaction.user.id):  # the first turn of a first game: once
            from bot.ui import lessons

            head, view = lessons.with_offer(head, view, reader, interaction.user.id)
        await self.desk.save_drafts(drafts, reader)
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral and not interaction.response.is_done():
            return await interaction.response.edit_message(content=head, embed=embed, view=view, attachments=files)
        kw: dict[str, Any] = {"files": files} if files else {}
        await answer(interaction, head, embed=embed, view=view, **kw)

    async def step(self, interaction: discord.Interaction, tid: str, rev: int, tokens: tuple[str, ...],
                   page: int = 0) -> None:
        """A step of building an action: play it when it is whole and nothing may follow,
        else show the next choices privately (in place when already private)."""
        reader = await self.desk.to_move(interaction.channel_id, interaction.user.id, tid, rev)
        reader = reader.in_language(language_of(interaction.locale))  # a private answer: the reader's own language
        tokens = payloads.forced_steps(reader, tokens) if tokens else tokens  # steps that leave no choice: taken
        c = reader.choices(tokens)
        if tokens and c.complete and not c.options and c.kind == "token":
            return await self.play(interaction, " ".join(tokens), via="button", table=tid, opened=rev)
        drafts = payloads.Drafts()
        text, view = payloads.picker(reader, payloads.Step(tokens, page), drafts)
        await self.desk.save_drafts(drafts, reader)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=text, embed=None, view=view, attachments=[])
        else:
            await answer(interaction, text, view=view)

    # ----- text boxes -----------------------------------------------------------------------
    async def open_modal(self, interaction: discord.Interaction, tid: str, rev: int, tokens: tuple[str, ...]) -> None:
        reader = await self.desk.to_move(interaction.channel_id, interaction.user.id, tid, rev)
        c = reader.choices(tokens)
        if c.kind != "text":
            raise TableError(say("The game is not asking you for that line now."))
        drafts = payloads.Drafts()
        arg = drafts.arg(tid, rev, payloads.MODAL, tokens)
        await self.desk.save_drafts(drafts, reader)
        modal = payloads.text_box(reader, tokens, modal_id(tid, rev, arg, reader.seat or 0))
        await interaction.response.send_modal(modal)
        modal.stop()  # submits are answered by ``on_modal``, before or after a restart, never by the box object

    async def on_modal(self, interaction: discord.Interaction) -> bool:
        """A text box was submitted (even one opened before a restart): play its line, or refuse
        and give the player their text back. False when it is not one of ours."""
        data: Any = interaction.data or {}
        found = parse_modal_id(str(data.get("custom_id", "")))
        if found is None:
            return False
        tid, rev, arg = found
        text = " ".join(modal_text(interaction).split())
        if is_lesson_key(tid):
            from bot.ui import lessons

            await lessons.modal(self, interaction, tid, rev, arg, text)  # type: ignore[arg-type]
            return True
        try:
            tokens = await self.tokens(interaction, arg, tid, rev)
        except TableError as e:
            await refuse(interaction, _with_text_back(STALE_BOX if isinstance(e, StaleError) else str(e), text))
            return True
        move = " ".join((*tokens, text)).strip()
        more, lines = modal_moves(interaction)
        await self.play(interaction, move, via="modal", table=tid, opened=rev, typed="\n\n".join([text, *lines]),
                        more=more)
        return True

    # ----- moves ---------------------------------------------------------------------------
    async def play(self, interaction: discord.Interaction, move: str, *, via: str, table: str | None = None,
                   opened: int | None = None, confirmed: bool = False, typed: str = "",
                   more: list[str] | None = None) -> None:
        """Apply a move (and the ``more`` moves after it, in the same press, each applied and
        logged alone) and show the result: the table message is edited in place; the mover's
        private panel (or private answer) says what was done. Giving the game up asks first."""
        try:
            if not confirmed and payloads.is_forfeit(move.split()) and await self.ask_forfeit(interaction, move, table,
                                                                                             opened):
                return
            actor = actor_of(interaction, self.bot.owner_ids)
            clicked = interaction.message
            on_panel = clicked is not None and clicked.flags.ephemeral
            labels = await self._labels(interaction, move, more or []) if via != "button" or on_panel else []
            if more:
                work = self.desk.moves(interaction.channel_id, actor, [move, *more], table=table, opened=opened,
                                       interaction=interaction.id)
            else:
                work = self.desk.move(interaction.channel_id, actor, move, table=table, opened=opened,
                                      interaction=interaction.id)
            update = await self._in_time(interaction, work)
        except AlreadyHandled:  # Discord delivered this press twice: it was played once
            return
        except StaleError:
            if typed:
                return await refuse(interaction, _with_text_back(STALE_BOX, typed))
            return await self.refuse_stale(interaction)
        except TableError as e:
            return await refuse(interaction, _with_text_back(str(e), typed))
        if via == "button" and not on_panel:  # a move on the table message: the table itself answers
            return await self.publish(interaction, update)
        lines, update.lines = update.lines, []
        lang = language_of(interaction.locale)  # what the mover reads: their own language
        done = clip("\n".join([payloads.did(labels, update.secret, lang),
                               *(payloads.line(p, lang) for p in lines)]), 1900)
        if on_panel:  # the table message is edited first, the panel's next step made and sent meanwhile
            panel = asyncio.ensure_future(self.carry_on(interaction, update, done))
            try:
                return await self.publish(interaction, update, answered=panel)
            finally:
                await panel
        if interaction.response.is_done():
            await follow_up(interaction, done, ephemeral=True)
            return await self.publish(interaction, update)
        await self.publish(interaction, update, answer=done)

    async def _labels(self, interaction: discord.Interaction, move: str, more: list[str]) -> list[str]:
        """The plain-words labels of a move's tokens, read before it is played (for the sentence
        that says what it did); of a sequence, one label a move."""
        tokens = move.split()
        try:
            reader = await self.desk.reader(interaction.channel_id, interaction.user.id, cached=True)
        except TableError:
            return tokens
        if not reader.acting:
            return tokens
        reader = reader.in_language(language_of(interaction.locale))
        if not more:  # a line of text is one label: its step's words and the line as written
            said = payloads.said_label(reader, move)
            return [said] if said is not None else reader.so_far(tokens)
        out: list[str] = []
        now: Reader | None = reader
        for m in [move, *more]:  # past a move that cannot be read ahead, the moves as written
            out.append(m if now is None else payloads.said_label(now, m) or payloads.move_label(now, tuple(m.split())))
            now = now.after(m) if now is not None else None
        return out

    async def carry_on(self, interaction: discord.Interaction, update: Update, done: str) -> None:
        """The private panel after its action: while the same seat still has a decision, the next
        step in place (its picture redrawn), under a sentence of what happened; when the turn is
        over, that sentence and nothing stale to press."""
        mine = update.mine.in_language(language_of(interaction.locale)) if update.mine is not None else None
        kw: dict[str, Any]
        if mine is not None and mine.acting and mine.table.status == "playing":
            drafts = payloads.Drafts()
            png = await pictures.seat_picture(mine.game, mine.view, mine.lang)
            head, embed, view, files = payloads.seat_message(mine, drafts, png, done)
            await self.desk.save_drafts(drafts, mine)
            kw = {"content": head, "embed": embed, "view": view, "attachments": files}
        else:
            after = (mine or update.public).waiting_for if update.public.table.status == "playing" else ""
            text = clip(f"{done}\n{payloads.line(after)}" if after else done, 1900)
            kw = {"content": text, "embed": None, "view": None, "attachments": []}
        await edit_in_place(interaction, **kw)  # deferred (a slow move): the deferred answer is the panel itself

    async def _in_time(self, interaction: discord.Interaction, work: Awaitable[Update]) -> Update:
        """Wait for the work; if it takes longer than Discord's 3 s allows, defer first so the
        player is told what happened instead of "This interaction failed".

        The work is awaited here, not as a task of its own waited for with a timeout: a timer
        starts the deferral when the work is late, and what follows waits for that deferral (as
        it waited for it before the work). A move on time costs a timer, not a task, an
        ``asyncio.wait`` and the loop's turns between them."""
        deferring: list[asyncio.Future[None]] = []

        def late() -> None:
            if not interaction.response.is_done():
                deferring.append(asyncio.ensure_future(
                    interaction.response.defer(ephemeral=True, thinking=interaction.message is None)))

        timer = asyncio.get_running_loop().call_later(DEFER_AFTER, late)
        try:
            return await work
        finally:
            timer.cancel()
            if deferring:
                await deferring[0]


def _of_table(message: discord.Message, key: str) -> bool:
    """Whether a message carries buttons of this table (an older copy of its table message)."""
    return any(f":{key}:" in (getattr(c, "custom_id", None) or "") for row in message.components
               for c in getattr(row, "children", [row]))


def _with_text_back(reason: str, text: str) -> str:
    """A refusal of a text box, with the player's own words given back to copy."""
    if not text:
        return reason
    return clip(f"{reason}\nYour text, to copy:\n```\n{text.replace('`', 'ˋ')[:1700]}\n```", 1900)
