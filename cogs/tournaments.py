"""``/tournament …``: sign-up with buttons, rounds whose tables open in threads, standings.

Thin: the tournament service (``bot.tables.tournaments``) decides everything from the stored
tournament; this cog turns its work into Discord (threads, the table message and the pings, the
standings) and runs its clock. Every table is an ordinary table in its own thread, so the table
cog's buttons, turn limit and Skip/Remove work there as anywhere.

**Threads are needed**: one table per channel is the rule, so every table of a round opens in a
new public thread of the tournament's channel. ``/tournament new`` is refused outside a server's
text channel; when the bot may not create threads there, the board waits (the organiser is told
once in the channel, and the clock tries again every few seconds) and a board still without a
table at the round's end is settled as a draw.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine.words import say
from bot.i18n import language_of, words
from bot.engine.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS
from bot.engine.registry import GAME_IDS, spec
from bot.render.panel import clip
from bot.tables import TableError
from bot.tables.tournaments import Announce, OpenBoard, PostStandings, Settled, Tournaments, TournamentView
from bot.ui.payloads import NO_PINGS
from bot.ui.play import actor_of, refuse
from bot.ui.tournaments import CANCEL, DROP, JOIN, LEAVE, START, TournamentButton, message_kwargs, standings_payload

if TYPE_CHECKING:
    from bot.app import DeckhandBot

log = logging.getLogger(__name__)

CLOCK_SECONDS = 5.0
SERVERS = app_commands.AppCommandContext(guild=True)
GAMES = [app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS if spec(g).max_players >= 2]
FORMATS = [app_commands.Choice(name="Swiss (two-player games)", value="swiss"),
           app_commands.Choice(name="Single elimination (two-player games)", value="elimination"),
           app_commands.Choice(name="Rounds of tables (games of 3–6)", value="tables")]
BOT_LEVELS = [app_commands.Choice(name=LEVEL_NAMES[v], value=v) for v in LEVELS]
SETTLE = [app_commands.Choice(name="A win for the player ahead", value="ahead"),
          app_commands.Choice(name="A draw", value="draw")]


class TournamentsCog(commands.Cog, name="Tournaments"):
    """Tournaments: Swiss, single elimination, or rounds of tables."""

    tournament = app_commands.Group(name="tournament", description="Tournaments: sign up, play rounds, see standings.",
                                    allowed_contexts=SERVERS)

    def __init__(self, bot: "DeckhandBot"):
        self.bot = bot
        self.tours = Tournaments(bot.service)
        self.no_threads: set[int] = set()  # tournaments already told that threads cannot be opened

    async def cog_load(self) -> None:
        if self.bot.run_timeouts:
            self.clock_loop.start()

    async def cog_unload(self) -> None:
        self.clock_loop.cancel()

    # ----- commands -------------------------------------------------------------------------
    @tournament.command(name="new", description="Open a tournament's sign-up here (Manage Server).")
    @app_commands.describe(game="Which game", format="Swiss, single elimination, or rounds of tables",
                           rounds="Rounds (default: enough for a clear winner; 3 for tables)",
                           round_hours="Hours a round lasts", bots="Built-in players entered",
                           bot_level="The built-in players' level (Easy, Normal or Strong)",
                           fill="Built-in players fill short tables", settle="A table unfinished at a round's end",
                           seats="Seats a table (format tables)", starts_in_hours="Start by itself after this many hours",
                           variants="Variants or settings, comma-separated (see /game rules)")
    @app_commands.choices(game=GAMES, format=FORMATS, settle=SETTLE, bot_level=BOT_LEVELS)
    @app_commands.default_permissions(manage_guild=True)
    async def new(self, interaction: discord.Interaction, game: str, format: str,
                  rounds: app_commands.Range[int, 1, 20] | None = None,
                  round_hours: app_commands.Range[int, 1, 336] = 24, bots: app_commands.Range[int, 0, 32] = 0,
                  fill: bool = False, settle: str = "ahead", seats: app_commands.Range[int, 3, 6] | None = None,
                  starts_in_hours: app_commands.Range[int, 1, 336] | None = None, variants: str | None = None,
                  bot_level: str = DEFAULT_LEVEL) -> None:
        perms = interaction.permissions
        if interaction.guild_id is None or not (perms and perms.manage_guild):
            return await refuse(interaction, say("Only someone with Manage Server can open a tournament."))
        if not isinstance(interaction.channel, discord.TextChannel):
            return await refuse(interaction, say("A tournament's tables open in threads: start it in a server's text channel."))
        options = [v.strip() for v in (variants or "").split(",") if v.strip()]
        try:
            v = await self.tours.create(interaction.guild_id, interaction.channel.id, actor_of(interaction), game, format,
                                        rounds=rounds, round_seconds=round_hours * 3600, bots=bots, fill=fill,
                                        settle=settle, seats=seats, options=options, bot_level=bot_level,
                                        starts_in=None if starts_in_hours is None else starts_in_hours * 3600,
                                        lang=language_of(interaction.guild_locale))  # the server's language
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(**message_kwargs(v), allowed_mentions=NO_PINGS)
        sent = await interaction.original_response()
        await self.tours.set_message(v.id, sent.id)

    @tournament.command(name="standings", description="The standings of this channel's tournament (only you see them).")
    async def standings(self, interaction: discord.Interaction) -> None:
        v = await self.tours.in_channel(interaction.channel_id)
        if v is None:
            return await refuse(interaction, say("There is no tournament in this channel."))
        kw = await standings_payload(v, v.round, v.status == "finished", language_of(interaction.locale))
        await interaction.response.send_message(**kw, ephemeral=True, allowed_mentions=NO_PINGS)

    @tournament.command(name="drop", description="Drop out of this channel's tournament.")
    async def drop(self, interaction: discord.Interaction) -> None:
        v = await self.tours.in_channel(interaction.channel_id)
        if v is None:
            return await refuse(interaction, say("There is no tournament in this channel."))
        await self.on_button(interaction, v.id, DROP)

    # ----- buttons ---------------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, tid: int, kind: str) -> None:
        actor = actor_of(interaction)
        try:
            if kind == JOIN:
                v = await self.tours.join(tid, actor)
            elif kind == LEAVE:
                v = await self.tours.leave(tid, actor)
            elif kind == START:
                v = await self.tours.start(tid, actor)
            elif kind == CANCEL:
                v = await self.tours.cancel(tid, actor)
            elif kind == DROP:
                v = await self.tours.drop(tid, actor)
            else:
                return await refuse(interaction, say("That button is not one of mine."))
        except TableError as e:
            return await refuse(interaction, str(e))
        message = interaction.message
        if message is not None and message.id == v.message_id:
            await interaction.response.edit_message(**message_kwargs(v, edit=True))
        else:
            await interaction.response.send_message(words(language_of(interaction.locale)).t("Done."), ephemeral=True)
            await self.refresh(v)
        if kind in (START, DROP):
            await self.run(tid)

    # ----- the clock -------------------------------------------------------------------------
    @tasks.loop(seconds=CLOCK_SECONDS)
    async def clock_loop(self) -> None:
        try:
            await self.tick()
        except Exception:  # the database away for a moment: the loop goes on
            log.exception("the tournament clock failed; trying again in %s s", CLOCK_SECONDS)

    @clock_loop.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> int:
        """Every due tournament of this process's shards, one step each; how many were stepped."""
        due = await self.tours.due(self.bot.sweep_shards)
        for tid in due:
            try:
                await self.run(tid)
            except Exception:  # one tournament's trouble never stops the others
                log.exception("tournament %s: its clock step failed", tid)
        return len(due)

    async def run(self, tid: int) -> None:
        """The clock's steps for one tournament until nothing is left to do now."""
        changed = False
        for _ in range(10):
            work = await self.tours.step(tid)
            if not work:
                break
            progress = False
            for w in work:
                progress |= await self.do(w)
            changed = True
            if not progress:
                break
        if changed:
            await self.refresh(await self.tours.view(tid))

    async def do(self, w: object) -> bool:
        """Do one piece of work in Discord and acknowledge it; False if it could not be done."""
        if isinstance(w, OpenBoard):
            t = await self.tours.view(w.tournament)
            try:
                channel = self.bot.get_channel(t.channel_id) or await self.bot.fetch_channel(t.channel_id)
                if not isinstance(channel, discord.TextChannel):
                    raise discord.ClientException("a tournament's tables open as threads of a text channel")
                made = await channel.create_thread(name=words(w.lang).say(w.name)[:100], auto_archive_duration=1440,
                                                   type=discord.ChannelType.public_thread)
            except (discord.HTTPException, discord.ClientException) as e:
                log.info("tournament %s: no thread in %s: %s", t.id, t.channel_id, e)
                if t.id not in self.no_threads:
                    self.no_threads.add(t.id)
                    await self.say(t.channel_id, words(t.lang).t(
                        "I may not open threads here, and each table needs its own: give me **Create Public Threads** "
                        "in this channel and the round's tables open by themselves (a table not open at the round's "
                        "end is a draw)."))
                return False
            await self.tours.open_board(w.tournament, w.round, w.board, made.id)
            return True
        if isinstance(w, Announce):
            tables = self.bot.get_cog("Tables")
            try:
                reader = await self.bot.desk.require_public(w.channel_id)
                await tables.place.show_table(reader)  # type: ignore[union-attr]
            except TableError as e:
                log.info("tournament %s: table in %s: %s", w.tournament, w.channel_id, e)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in w.users], everyone=False, roles=False)
            text = " ".join(f"<@{u}>" for u in w.users) + " — " + words(w.lang).say(w.text)
            await self.say(w.channel_id, text, mentions)
            await self.tours.announced(w.tournament, w.round, w.board)
            return True
        if isinstance(w, Settled):
            tables = self.bot.get_cog("Tables")
            try:
                reader = await self.bot.desk.require_public(w.channel_id)
                await tables.place.show_table(reader, post=False)  # type: ignore[union-attr]
            except TableError:
                pass
            await self.say(w.channel_id, words(w.lang).say(w.text))
            return True
        if isinstance(w, PostStandings):
            v = await self.tours.view(w.tournament)
            kw = await standings_payload(v, w.round, w.final)
            try:
                await self.bot.get_partial_messageable(v.channel_id).send(**kw, allowed_mentions=NO_PINGS)
            except discord.HTTPException as e:
                log.info("tournament %s: could not post standings: %s", v.id, e)
            await self.tours.posted_standings(w.tournament, w.round)
            return True
        return False

    async def say(self, channel_id: int, text: str, mentions: discord.AllowedMentions = NO_PINGS) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id).send(clip(text, 2000), allowed_mentions=mentions)
        except discord.HTTPException as e:
            log.info("could not post to %s: %s", channel_id, e)

    async def refresh(self, v: TournamentView) -> None:
        """Edit the tournament's message to show it as it is now."""
        if v.message_id is None:
            return
        try:
            await self.bot.get_partial_messageable(v.channel_id).get_partial_message(v.message_id).edit(
                **message_kwargs(v, edit=True), allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not edit tournament %s's message: %s", v.id, e)


async def setup(bot: "DeckhandBot") -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentsCog(bot))
