"""The table again, privately, and giving up: ``/game status`` (and moving the table down), abandoning
a table (asked first), and every "Are you sure?" (Confirm / Keep playing). A mixin of the table cog."""

from __future__ import annotations
import logging
from typing import Any
import discord
from bot.engine.words import say
from bot.i18n import words
from bot.i18n.lang import language_of
from bot.tables import TableError
from bot.tables.desk import DamagedError
from bot.tables.reader import Reader
from bot.ui import payloads
from bot.ui.components import Kind, Sent
from bot.ui.payloads import NO_PINGS
from bot.ui.placement import render
from bot.ui.play import actor_of, answer, refuse

log = logging.getLogger("cogs.tables")


class Confirmations:
    """Status, abandon and confirmations (a mixin of the table cog)."""

    bot: Any
    desk: Any
    place: Any

    # ----- the table, again; abandoning it -------------------------------------------------
    async def show_status(self, interaction: discord.Interaction) -> None:
        """/game status: a private copy of the table; when the table message has scrolled away, a
        button to move it down the channel (for someone seated or managing the table)."""
        try:
            reader = await self.desk.require_public(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        live = await self.place.live_id(reader)
        msg = await render(reader)
        may = self._may_move_down(interaction, reader)
        if live is None:
            text = "The table is not in this channel any more." + (" Press the button to post it." if may else "")
        elif self.place.scrolled_away(reader.table.channel_id):
            text = f"The table has scrolled up: {payloads.jump_url(reader.table, live)}" + (
                " Press the button to move it down the channel." if may else "")
        else:
            text, may = f"The table, near the bottom of the channel: {payloads.jump_url(reader.table, live)}", False
        kw = {**msg.send_kwargs(), "content": text, "view": payloads.move_down_view(reader) if may else Sent()}
        await interaction.response.send_message(**kw, ephemeral=True, allowed_mentions=NO_PINGS)

    def _may_move_down(self, interaction: discord.Interaction, reader: Reader) -> bool:
        actor = actor_of(interaction, self.bot.owner_ids)
        t = reader.table
        return actor.can_manage or actor.user_id == t.host_id or t.seat_of(actor.user_id) is not None

    async def move_down(self, interaction: discord.Interaction, tid: str) -> None:
        """Move the table down the channel: only when it has scrolled away (or is gone), only for
        someone seated or managing the table; however many press it, one new table message."""
        reader = await self.desk.require_public(interaction.channel_id)
        if reader.table.key != tid:
            return await self.refuse_stale(interaction)
        if not self._may_move_down(interaction, reader):
            return await refuse(interaction, say("Only the players at this table (or the host, or someone with Manage "
                                             "Messages) can move it down the channel."))
        ch = reader.table.channel_id
        async with self.place.showing[ch]:  # ten presses at once: one moves it, the others are told where it is
            reader = await self.desk.require_public(ch)
            live = await self.place.live_id(reader)
            if live is not None and not self.place.scrolled_away(ch):
                link = payloads.jump_url(reader.table, live)
                return await interaction.response.edit_message(
                    content=f"The table is near the bottom of the channel already: {link}", view=None)
            await interaction.response.edit_message(content="The table moved down the channel.", view=None)
            live = await self.place.show(interaction, reader, "", live is not None)
        log.info("table %s moved down in %s to %s", tid, ch, live)

    async def abandon_table(self, interaction: discord.Interaction, tid: str | None = None, rev: int | None = None,
                            *, confirmed: bool = False) -> None:
        """/game abandon: a game in progress with several people asks first (Confirm / Keep
        playing, revision-checked); a lobby, a solo game or a damaged table goes at once."""
        actor = actor_of(interaction, self.bot.owner_ids)
        ch = interaction.channel_id
        assert ch is not None
        try:
            reader = await self.desk.public(ch)
        except DamagedError:
            reader = None
        except TableError as e:
            return await refuse(interaction, str(e))
        if reader is not None:
            t = reader.table
            if tid is not None and (t.key != tid or (rev is not None and t.revision != rev)):
                return await self.refuse_stale(interaction)
            if not confirmed and t.status == "playing" and len(t.people) > 1:
                if not actor.can_manage and actor.user_id != t.host_id:
                    return await refuse(interaction, say("Only the host (or someone with Manage Messages here) can "
                                                     "abandon this table."))
                return await self.ask_sure(
                    interaction, say("Are you sure? **Abandon** this {title} game: it ends for everyone, with no "
                                     "winner, and cannot be undone.", title=t.title),
                    payloads.confirm_view(t.key, t.revision, payloads.SURE, Kind.ABANDON.value))
        try:
            update = await self.desk.abandon(ch, actor)
        except TableError as e:
            return await refuse(interaction, str(e))
        if update is None:
            return await refuse(interaction, say("The damaged table was set aside; this channel can start a new game."))
        await self.publish(interaction, update, answer=say("You abandoned the table."))

    # ----- "Are you sure?" -------------------------------------------------------------------
    async def ask_sure(self, interaction: discord.Interaction, question: str, view: discord.ui.View) -> None:
        """An ephemeral question with Confirm / Keep playing; a private panel turns into it in place."""
        question = words(language_of(interaction.locale)).say(question)  # the reader's own language
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(content=question, embed=None, view=view, attachments=[])
        else:
            await answer(interaction, question, view=view)

    async def ask_forfeit(self, interaction: discord.Interaction, move: str, tid: str | None,
                          opened: int | None) -> bool:
        """Ask before a game's concede/resign; False when the mover cannot make it anyway (then the
        move goes on, to be refused in plain words)."""
        reader = await self.desk.reader(interaction.channel_id, interaction.user.id)
        if reader.seat is None or reader.table.status != "playing":
            return False
        tokens = tuple(move.split())
        if not reader.acting and not reader.has_left:
            raise TableError(say("It is not your turn, so the game's own resign is not open to you now. To give the "
                             "game up at any time, use `/game leave` (it is a forfeit, and asks you first)."))
        if not reader.acting or not reader.choices(tokens).complete:
            return False
        tid = tid or reader.table.key
        opened = reader.opened if opened is None else opened
        drafts = payloads.Drafts()
        arg = drafts.arg(tid, opened, payloads.SURE_MOVE, tokens)
        await self.desk.save_drafts(drafts, reader)
        await self.ask_sure(interaction, payloads.forfeit_question(reader, tokens),
                            payloads.confirm_view(tid, opened, payloads.SURE_MOVE, arg))
        return True

    async def keep_playing(self, interaction: discord.Interaction) -> None:
        """Keep playing: nothing changes; the private panel shows the hand again."""
        reader = await self.desk.public(interaction.channel_id)
        w = words(language_of(interaction.locale))  # a private answer: the reader's own language
        if reader is not None and reader.table.status == "playing" and \
                reader.table.seat_of(interaction.user.id) is not None:
            return await self.show_hand(interaction, note=w.t("Nothing was changed: you are still playing."))
        await interaction.response.edit_message(content=w.t("Nothing was changed."), embed=None, view=None, attachments=[])


