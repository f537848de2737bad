"""The shared table cog: ``/game …`` commands, and every table button (through ``bot.ui.play``).

Thin by design: parse the interaction, ask the desk (``bot.tables.desk``: readers and updates,
never games), answer with payloads made in ``bot.ui.payloads``. The public table goes to the
channel; hands, pickers and refusals are ephemeral.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine.words import say
from bot.engine.core import IllegalMove
from bot.engine.registry import GAME_IDS, spec
from bot.i18n import language_of, words
from bot.render.panel import clip
from bot.tables import TableError
from bot.tables import pings as ping_prefs
from bot.ui import payloads
from bot.ui.components import COMPONENTS, TEMPLATES, Kind, answered_here, first_delivery
from bot.ui.tournaments import TEMPLATE as TOURNAMENT_TEMPLATE
from bot.ui.payloads import NO_PINGS
from bot.ui.placement import MOVE_DOWN_AFTER, Placement
from bot.ui.confirmations import Confirmations
from bot.ui.pacing import BotPace
from bot.ui.help_text import bots_help, paginate, stats_line, usage, watching_help
from bot.ui.play import ANSWER_FAILED, Play, actor_of, refuse

if TYPE_CHECKING:
    from bot.app import DeckhandBot
    from bot.tables.desk import Desk
    from bot.tables.reader import Update

log = logging.getLogger(__name__)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
GAME_CHOICES = [app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS]
SWEEP_SECONDS = 5.0  # the turn-limit sweep: an indexed read of the due tables only
MARKS_SECONDS = 1.0  # what the table messages show is written to the store this often, in one batch
SWEEP_LANES = 8  # tables told at once by the turn-limit sweep (each: its table edit, then its notice)

__all__ = ["MOVE_DOWN_AFTER", "Tables", "actor_of", "refuse", "legal_choices", "paginate", "setup"]


class Tables(Play, Confirmations, BotPace, commands.Cog):
    """Tables in channels and DMs: lobby, moves, status, records."""

    game = app_commands.Group(name="game", description="Card tables: start, join and play games.",
                              allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)

    def __init__(self, bot: "DeckhandBot"):
        self.bot = bot
        self.desk: Desk = bot.desk
        self.place = Placement(bot, self.desk)

    async def cog_load(self) -> None:
        self.desk.on_bot_move = self.bot_moved  # a Strong seat's move, thought off the loop, is shown here
        self.marks_loop.start()
        self.catching_up = asyncio.create_task(self.place.catch_up(), name="deckhand: catch the table messages up")
        if self.bot.run_timeouts:
            self.timeout_loop.start()

    async def cog_unload(self) -> None:
        self.catching_up.cancel()
        self.place.stop()  # pictures being drawn to follow answers
        self.marks_loop.cancel()
        try:
            await self.place.save_marks()  # what the table messages show, for the next start
        except Exception:  # noqa: BLE001 — those tables are edited once more at the next start
            log.exception("could not save what the table messages show")
        self.timeout_loop.cancel()
        for task in self.__dict__.get("bot_timers", {}).values():
            task.cancel()
        self.desk.on_bot_move = None
        await self.desk.stop_thinking()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Count what people post below a table message (content is not read)."""
        self.place.saw_message(message)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Text boxes are answered here, whether opened before or after a restart."""
        if interaction.type is discord.InteractionType.component:
            if not answered_here(interaction, TEMPLATES + [TOURNAMENT_TEMPLATE]):  # forged, cut short, not here
                await refuse(interaction, say("That button is not one of mine, or not on this message; nothing changed."))
            return
        if interaction.type is not discord.InteractionType.modal_submit or not first_delivery(interaction):
            return
        try:
            await self.on_modal(interaction)
        except ANSWER_FAILED as e:
            await self.answer_failed(interaction, "(text box)", e)
        except Exception:
            log.exception("a text box failed")
            if not interaction.response.is_done():
                await refuse(interaction, say("Something went wrong on my side; nothing was changed."))

    # ----- /game commands -------------------------------------------------------------
    @game.command(name="new", description="Start a table for a game in this channel (or DM).")
    @app_commands.describe(game="Which game", variants="Variants or settings, comma-separated (see /game rules)",
                           thread="Open the table in a new thread (servers only)")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str, variants: str | None = None,
                  thread: bool = False) -> None:
        options = [v.strip() for v in (variants or "").split(",") if v.strip()]
        channel_id = interaction.channel_id
        assert channel_id is not None
        if thread:
            channel = interaction.channel
            if interaction.guild_id is None or not isinstance(channel, discord.TextChannel):
                return await refuse(interaction, say("Threads can only be opened in a server's text channel."))
            try:
                made = await channel.create_thread(name=words(actor_of(interaction).table_lang).t(
                    "{title} table", title=spec(game).title), type=discord.ChannelType.public_thread)
            except discord.HTTPException:
                return await refuse(interaction, say("I may not open a thread here; starting the table in this channel "
                                                 "works without one."))
            try:
                update = await self.desk.new_table(made.id, interaction.guild_id, actor_of(interaction), game, options)
            except TableError as e:
                return await refuse(interaction, str(e))
            await self.place.show_table(update.public)
            opened = words(language_of(interaction.locale)).t("The table is open in {channel}.", channel=made.mention)
            return await interaction.response.send_message(opened, ephemeral=True)
        try:
            update = await self.desk.new_table(channel_id, interaction.guild_id, actor_of(interaction), game, options)
        except TableError as e:
            return await refuse(interaction, str(e))
        await self.publish(interaction, update)

    @new.autocomplete("variants")
    async def new_variants(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Each variant and setting of the chosen game, with its help text."""
        game_id = interaction.namespace.game
        if game_id not in GAME_IDS:
            return []
        done, _, typing = current[:200].rpartition(",")
        prefix = f"{done}, " if done else ""
        w = words(language_of(interaction.locale))  # the help in the reader's language; the names as written
        out = []
        for info in spec(game_id).options.infos():
            # a variant by its name; a setting as its default, or each value it takes when it takes only a few
            shown = [info.name] if info.is_variant else [f"{info.name}={v}" for v in (info.values or (info.default,))]
            helped = w.say(info.help)
            for written in shown:
                if typing.strip().lower() not in written.lower() and typing.strip().lower() not in helped.lower():
                    continue
                value = prefix + written
                if len(value) > 100:
                    continue
                out.append(app_commands.Choice(name=clip(f"{value} — {helped}", 100), value=value))
        return out[:25]

    @game.command(name="join", description="Take a seat at this channel's table.")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.table_action(interaction, Kind.JOIN, None, None)

    @game.command(name="leave", description="Leave this channel's table (mid-game, that is a forfeit).")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.table_action(interaction, Kind.LEAVE, None, None)

    @game.command(name="start", description="Start the game (host only).")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.table_action(interaction, Kind.START, None, None)

    @game.command(name="status", description="The table, privately; move it down the channel if it scrolled away.")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    @game.command(name="hand", description="Your hand / your private view of this table (only you see it).")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    @game.command(name="move", description="Make a move in the game's notation (autocomplete lists the legal ones).")
    @app_commands.describe(move="The move, e.g. `place r1c2` or `draw`")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        if move.strip() == payloads.NOTHING:
            return await self.nothing_chosen(interaction)
        await self.play(interaction, move, via="slash")

    async def nothing_chosen(self, interaction: discord.Interaction, verb: str | None = None) -> None:
        """The autocomplete's entry that says why nothing may be chosen, sent: refused with that reason."""
        try:
            reader = await self.desk.reader(interaction.channel_id, interaction.user.id)
        except TableError as e:
            return await refuse(interaction, str(e))
        why = payloads.nothing_to_choose(reader, verb)
        await refuse(interaction, why or say("That entry was not a move, and the choices have changed since: pick one "
                                             "from the list again."))

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(self.desk, interaction, current)

    @game.command(name="say", description="Write your line of the story (when the game asks you for one).")
    @app_commands.describe(text="Your line")
    async def say(self, interaction: discord.Interaction, text: str) -> None:
        try:
            reader = await self.desk.reader(interaction.channel_id, interaction.user.id)
        except TableError as e:
            return await refuse(interaction, str(e))
        if reader.table.status != "playing":
            return await refuse(interaction, say("There is no story being told here right now."))
        verbs = reader.text_verbs()
        if not verbs:
            return await refuse(interaction, payloads.no_line_now(reader))
        await self.play(interaction, f"{verbs[0]} {text}", via="slash")

    @game.command(name="hint", description="What the built-in player would do in your place, and why (only you see it).")
    async def hint(self, interaction: discord.Interaction) -> None:
        from cogs import extras

        await extras.hint(self, interaction)

    @game.command(name="daily", description="Today's Gridcannon challenge: the same deal for everyone, one try a day.")
    @app_commands.describe(leaderboard="Show today's leaderboard instead of playing")
    async def daily(self, interaction: discord.Interaction, leaderboard: bool = False) -> None:
        from cogs import extras

        await extras.daily(self, interaction, leaderboard)

    @game.command(name="abandon", description="Abandon this channel's table (host or Manage Messages).")
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self.abandon_table(interaction)

    @game.command(name="history", description="The recent moves at this table.")
    async def history(self, interaction: discord.Interaction) -> None:
        try:
            reader = await self.desk.require_public(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(embed=payloads.history(reader), ephemeral=True)

    @game.command(name="export", description="The finished game's record as a JSON file (replayable).")
    async def export(self, interaction: discord.Interaction) -> None:
        try:
            record, hidden = await self.desk.export(interaction.channel_id)  # saved when the game ended
        except TableError as e:
            return await refuse(interaction, str(e))
        filename = f"{record['game']}-{interaction.channel_id}-{len(record['moves'])}.json"
        w = words(language_of(interaction.locale))
        if hidden:  # secret choices (trick cards, hands) stay hidden from everyone, even after the game
            text = w.t("The record, with every secret choice hidden (so it cannot be replayed):")
        else:
            text = w.t("The record (replay it with {command}):", command="`python -m bot replay FILE`")
        await interaction.response.send_message(text, file=payloads.record_file(record, filename), ephemeral=True)

    @game.command(name="rules", description="A game's rules, section by section, with credits to its authors.")
    @app_commands.describe(game="Which game", section="A section of the rules (leave empty for the overview)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, section: str | None = None) -> None:
        s = spec(game)
        lang = language_of(interaction.locale)  # the rulebook, and the answer's frame, in the reader's own language
        w = words(lang)
        sections = s.rules_sections(lang)
        if section:
            found = s.section_index(section, lang)  # the autocomplete's number, or a heading typed
            if found is None:
                names = ", ".join(h for h, _ in sections)
                return await refuse(interaction, say("{title}'s rules have no section {section}. Sections: {names}.",
                                                     title=s.title, section=repr(clip(section, 40)), names=names))
            head, body = sections[found]
            pages = paginate(payloads.reflow(body), 4000)
            embed = discord.Embed(title=clip(f"{s.title} — {head}", 256), description=pages[0], colour=0x2F7D4F)
            if len(pages) > 1:
                continued = w.n("(continued in {n} more message)", "(continued in {n} more messages)", len(pages) - 1)
                embed.set_footer(text=f"{continued} · {s.credit}"[:2048])
            else:
                embed.set_footer(text=s.credit[:2048])
            await interaction.response.send_message(embed=embed, ephemeral=True)
            for more in pages[1:4]:
                await interaction.followup.send(embed=discord.Embed(description=more, colour=0x2F7D4F), ephemeral=True)
            return
        # The game's summary in English; in another language the rulebook's own opening, as translated.
        about = s.summary if lang == "en" or s.rules_text(lang) == s.rules_text() else payloads.reflow(sections[0][1])
        embed = discord.Embed(title=s.title, description=clip(about, 4096), colour=0x2F7D4F)
        infos = s.options.infos()
        if infos:
            lines = [f"**{usage(i, w)}** — {w.say(i.help)}" for i in infos]
            embed.add_field(name=w.t("Variants and settings ({command})", command="`/game new … variants:`"),
                            value=clip("\n".join(lines), 1024), inline=False)
        embed.add_field(name=w.t("Sections ({command})", command="`/game rules … section:`"),
                        value=clip(", ".join(h for h, _ in sections), 1024), inline=False)
        embed.add_field(name=w.t("Watching and reliving"), value=watching_help(w), inline=False)
        if s.max_players > 1:
            embed.add_field(name=w.t("Playing against bots"), value=bots_help(w), inline=False)
        embed.add_field(name=w.t("Players"), value=f"{s.min_players}–{s.max_players}", inline=True)
        embed.set_footer(text=s.credit[:2048])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("section")
    async def rules_sections(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The headings in the reader's language; each chosen by its place in the rulebook (the same
        in every language), so a translated heading needs no matching."""
        game_id = interaction.namespace.game
        if game_id not in GAME_IDS:
            return []
        needle = current.strip().lower()
        return [app_commands.Choice(name=clip(h, 100), value=str(i))
                for i, (h, _) in enumerate(spec(game_id).rules_sections(language_of(interaction.locale)), start=1)
                if needle in h.lower()][:25]

    @game.command(name="stats", description="Games played, won and lost here, and a leaderboard per game.")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction, game: str | None = None,
                    player: discord.User | None = None) -> None:
        rows = await self.desk.stats(interaction.guild_id, game, player.id if player else None)
        if not rows:
            return await interaction.response.send_message(
                words(language_of(interaction.locale)).t("No finished games here yet."), ephemeral=True)
        w = words(actor_of(interaction).table_lang)  # posted in the channel: the server's language (a DM: the reader's)
        embed = discord.Embed(title=w.t("Deckhand — stats"), colour=0x2F7D4F,
                              description=w.t("Ranked by the lower bound of the win rate (95%), so one lucky game "
                                              "does not top the board."))
        by_game: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            by_game.setdefault(r["game"], []).append(r)
        for g, rs in list(by_game.items())[:25]:
            lines = [f"{i + 1}. **{payloads.name(r['name'])}** — {stats_line(r, w)}" for i, r in enumerate(rs[:10])]
            embed.add_field(name=spec(g).title, value="\n".join(lines)[:1024], inline=False)
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @game.command(name="turnlimit", description="Set the turn limit in minutes (host; 0 switches it off).")
    @app_commands.describe(minutes="Minutes a player has for a turn (0: no limit)")
    async def turnlimit(self, interaction: discord.Interaction, minutes: app_commands.Range[int, 0, 100_000]) -> None:
        try:
            update = await self.desk.set_turn_limit(interaction.channel_id, actor_of(interaction), minutes * 60)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(update.public.said(update.events[-1]),  # the table's language
                                                allowed_mentions=NO_PINGS)
        await self.place.show_table(update.public, post=False)  # its buttons carry the new revision

    @game.command(name="language", description="Set this table's language (host).")
    @app_commands.describe(language="The table's language for everyone (what only you see follows yours)")
    @app_commands.choices(language=[app_commands.Choice(name="english", value="en"),
                                    app_commands.Choice(name="español", value="es"),
                                    app_commands.Choice(name="deutsch", value="de")])
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        try:
            update = await self.desk.set_language(interaction.channel_id, actor_of(interaction), language)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(payloads.language_set(language), allowed_mentions=NO_PINGS)
        await self.place.show_table(update.public, post=False)  # the table message in its new language

    @game.command(name="pings", description="When you are pinged for your turn on this server (only you see it).")
    @app_commands.describe(when="Every turn, only after some hours of waiting, or never (empty: show yours)",
                           hours="With “after”: how many hours your turn waits before the ping (1–168)")
    @app_commands.choices(when=[app_commands.Choice(name="every turn", value=ping_prefs.EVERY),
                                app_commands.Choice(name="only after some hours of waiting", value=ping_prefs.AFTER),
                                app_commands.Choice(name="never", value=ping_prefs.NEVER)])
    async def pings(self, interaction: discord.Interaction, when: str | None = None, hours: int | None = None) -> None:
        here = interaction.guild_id is not None
        w = words(language_of(interaction.locale))
        try:
            if when is None:
                if hours is not None:
                    raise TableError(say("Say when too: hours go only with “after some hours of waiting”."))
                pref = (await self.desk.pings.prefs(interaction.guild_id, [interaction.user.id]))[interaction.user.id]
                how = ping_prefs.described(pref)
                shown = (w.t("Your turn pings on this server: {how}.", how=how) if here else
                         w.t("Your turn pings in direct messages: {how}.", how=how))
                return await interaction.response.send_message(shown, ephemeral=True)
            pref = ping_prefs.chosen(interaction.guild_id, interaction.user.id, when, hours)
            await self.desk.pings.set(pref)
        except TableError as e:
            return await refuse(interaction, str(e))
        how = ping_prefs.described(pref)
        done = (w.t("Done: your turn pings on this server are now {how}.", how=how) if here else
                w.t("Done: your turn pings in direct messages are now {how}.", how=how))
        await interaction.response.send_message(done, ephemeral=True)

    @game.command(name="rating", description="A player's rating, or a game's leaderboard here (only you see it).")
    @app_commands.describe(game="Which game (leave empty for every game you play)", player="Whose rating (default: yours)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rating(self, interaction: discord.Interaction, game: str | None = None,
                     player: discord.User | None = None) -> None:
        from bot.ui import ratings

        await ratings.rating(self.desk.ratings, interaction, game, player)

    @game.command(name="story", description="The story told at this table so far.")
    @app_commands.describe(page="Page of the story (long tales are split)")
    async def story(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        try:
            reader = await self.desk.public(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        if reader is None or not reader.started:
            return await refuse(interaction, say("There is no story at this table."))
        reader = reader.in_language(language_of(interaction.locale))  # only its reader sees it
        text = payloads.story_markdown(reader)
        if text is None:
            return await refuse(interaction, say("{title} has no story to tell.", title=reader.title))
        pages = paginate(text, 3800)
        page = min(page, len(pages))
        w = reader.words
        embed = discord.Embed(title=w.t("{title} — the story", title=reader.title), description=pages[page - 1],
                              colour=0x2F7D4F)
        embed.set_footer(text=w.t("page {page} of {pages}", page=page, pages=len(pages)))
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


    @tasks.loop(seconds=MARKS_SECONDS)
    async def marks_loop(self) -> None:
        """What the table messages show, written to the store in batches (bot.ui.placement)."""
        try:
            await self.place.save_marks()
        except Exception:  # e.g. the database is away for a moment: kept for the next batch
            log.exception("could not save what the table messages show; trying again")

    # ----- turn limits --------------------------------------------------------------------
    @tasks.loop(seconds=SWEEP_SECONDS)
    async def timeout_loop(self) -> None:
        try:
            await self.check_timeouts()
        except Exception:  # e.g. the database is away for a moment: the loop goes on
            log.exception("the turn-limit sweep failed; trying again in %s s", SWEEP_SECONDS)

    async def check_timeouts(self) -> int:
        """Run the turn-limit sweep and post each notice as one short message that mentions only
        the late players (a warning, time up, a rulebook clock run out); returns how many were
        posted. The table itself is not reposted: its table message is edited in place.

        A few tables are told at once (:data:`SWEEP_LANES`), each its edit then its notice, through
        the bot's own client: every request is awaited, so presses go in between them."""
        told = 0

        async def lane(todo: Iterator["Update"]) -> None:
            nonlocal told
            for update in todo:  # the lanes share one iterator: each table is told once
                if await self._tell(update):
                    told += 1

        async for page in self.desk.sweep():
            todo = iter([u for u in page if u.notice is not None])
            await asyncio.gather(*(lane(todo) for _ in range(SWEEP_LANES)))
        for reader, users in await self.desk.due_pings():  # turn pings held back until the turn had waited
            live = await self.place.live_id(reader)
            link = payloads.jump_url(reader.table, live) if live is not None else ""
            try:
                await self.bot.get_partial_messageable(reader.table.channel_id).send(**payloads.ping(reader, users, link))
                told += 1
            except discord.HTTPException as e:
                log.info("could not post a turn ping to %s: %s", reader.table.channel_id, e)
        return told

    async def _tell(self, update: "Update") -> bool:
        """One table's sweep notice: its table message edited, then the notice posted (one table's
        trouble never stops the others')."""
        notice = update.notice
        assert notice is not None
        ch = update.table.channel_id
        try:
            if not notice.quiet:  # the table message says so (Skip / Remove); a warning leaves it as it is
                await self.place.show_made(update.public)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in notice.users], everyone=False,
                                               roles=False, replied_user=False)
            notice_text = clip(notice.message(update.public.words), 2000)  # the table's language
            await self.bot.get_partial_messageable(ch).send(notice_text, allowed_mentions=mentions)
            return True
        except discord.HTTPException as e:  # e.g. a user-installed app cannot post here
            log.info("could not post a turn-limit notice to %s: %s", ch, e)
        except Exception:  # one table's trouble never stops the others' notices
            log.exception("a turn-limit notice failed for channel %s", ch)
        return False

    @timeout_loop.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, (TableError, IllegalMove)):
            return await refuse(interaction, str(original))
        if isinstance(original, ANSWER_FAILED):
            command = interaction.command.qualified_name if interaction.command else "?"
            return await self.answer_failed(interaction, f"(/{command})", original)
        log.exception("command failed", exc_info=error)
        await refuse(interaction, say("Something went wrong on my side; nothing was changed."))


async def legal_choices(desk: "Desk", interaction: discord.Interaction, current: str, *, game_id: str | None = None,
                        verb: str | None = None) -> list[app_commands.Choice[str]]:
    """Autocomplete from the caller's own reader: the next tokens after what is typed."""
    try:
        reader = await desk.reader(interaction.channel_id, interaction.user.id)
    except TableError as e:
        return payloads.nothing_entry(str(e))
    if game_id and reader.game != game_id:
        w = words(language_of(interaction.locale))
        return payloads.nothing_entry(w.t("There is no {title} table in this channel.",
                                          title=spec(game_id).title.removeprefix("The ")))
    return payloads.autocomplete(reader, current, verb)


async def setup(bot: "DeckhandBot") -> None:
    from bot.ui import lessons, replay
    from cogs import watch

    replay.attach(Tables.game)  # /game replay: a finished game, step by step (bot.ui.replay answers its buttons)
    watch.attach(Tables.game)  # /game watch (cogs.watch answers it and its buttons)
    lessons.attach(Tables.game)  # /game learn (bot.ui.lessons answers it and its buttons)
    bot.add_dynamic_items(*replay.with_viewer(COMPONENTS))
    await bot.add_cog(Tables(bot))
