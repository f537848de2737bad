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

from bot.engine.core import IllegalMove
from bot.engine.registry import GAME_IDS, spec
from bot.render import pictures
from bot.render.panel import clip
from bot.tables import TableError
from bot.ui import payloads
from bot.ui.components import COMPONENTS, Kind
from bot.ui.payloads import NO_PINGS
from bot.ui.placement import MOVE_DOWN_AFTER, Placement, edit_bodies, notice_body
from bot.ui.confirmations import Confirmations
from bot.ui.pacing import BotPace
from bot.ui.play import Delivered, Play, actor_of, refuse
from bot.ui.presses import listens_to

if TYPE_CHECKING:
    from bot.app import DeckhandBot
    from bot.tables.desk import Desk
    from bot.tables.reader import Reader, Update
    from bot.ui.courier import Courier, Request

log = logging.getLogger(__name__)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
GAME_CHOICES = [app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS]
SWEEP_SECONDS = 5.0  # the turn-limit sweep: an indexed read of the due tables only
SWEEP_LANES = 8  # tables whose sweep notices are sent at once (each: its table edit, then its notice)
COURIER_LANES = 64  # the same, handed to the sender thread (bot.ui.courier), which sends 8 at once

Ahead = tuple[payloads.TableMessage | None, discord.http.MultipartParameters | None]  # made before it is shown

__all__ = ["MOVE_DOWN_AFTER", "Tables", "actor_of", "refuse", "legal_choices", "paginate", "setup"]


async def table_messages(readers: list["Reader"]) -> list[payloads.TableMessage | None]:
    """The table messages of a page of the sweep's tables, made off the event loop: their views (the
    engine's) worked out in a worker thread, their pictures drawn by the picture processes, the
    messages (the moves offered on their buttons: the engine's again) made in a worker thread, two
    hops for the page. None for a table whose message is made as usual when it is shown (a lobby:
    its ratings are read from the store), or for all when this fails."""
    shown = [r for r in readers if r.started and r.table.status != "lobby"]
    try:
        await asyncio.to_thread(lambda: [r.view for r in shown])
        drawn = await asyncio.gather(*(pictures.table_picture(r.game, r.view) for r in shown))
        made = await asyncio.to_thread(lambda: [payloads.table_message(r, png) for r, png in zip(shown, drawn, strict=True)])
    except Exception:  # noqa: BLE001 — each table's message is then made as usual, one at a time
        log.exception("the sweep's table messages could not be made together")
        return [None] * len(readers)
    by_reader = {id(r): m for r, m in zip(shown, made, strict=True)}
    return [by_reader.get(id(r)) for r in readers]


class Tables(Play, Confirmations, BotPace, commands.Cog):
    """Tables in channels and DMs: lobby, moves, status, records."""

    game = app_commands.Group(name="game", description="Card tables: start, join and play games.",
                              allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)

    def __init__(self, bot: "DeckhandBot"):
        self.bot = bot
        self.desk: Desk = bot.desk
        self.place = Placement(bot, self.desk)
        self.delivered = Delivered()  # presses that change nothing, delivered to this process

    async def cog_load(self) -> None:
        await self._courier()  # the sweep's sender thread, logged in before any sweep needs it
        if self.bot.run_timeouts:
            self.timeout_loop.start()

    async def cog_unload(self) -> None:
        self.timeout_loop.cancel()
        for task in self.__dict__.get("bot_timers", {}).values():
            task.cancel()
        courier = getattr(self.bot, "courier", None)
        if courier is not None:  # the sweep's sender thread stops with the sweep
            await courier.close()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Count what people post below a table message (content is not read)."""
        self.place.saw_message(message)

    @commands.Cog.listener()
    @listens_to(discord.InteractionType.modal_submit)  # no task for the other interactions (bot.app)
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Text boxes are answered here, whether opened before or after a restart."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        try:
            await self.on_modal(interaction)
        except Exception:
            log.exception("a text box failed")
            if not interaction.response.is_done():
                await refuse(interaction, "Something went wrong on my side; nothing was changed.")

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
                return await refuse(interaction, "Threads can only be opened in a server's text channel.")
            try:
                made = await channel.create_thread(name=f"{spec(game).title} table",
                                                   type=discord.ChannelType.public_thread)
            except discord.HTTPException:
                return await refuse(interaction, "I may not open a thread here; starting the table in this channel "
                                                 "works without one.")
            try:
                update = await self.desk.new_table(made.id, interaction.guild_id, actor_of(interaction), game, options)
            except TableError as e:
                return await refuse(interaction, str(e))
            await self.place.show_table(update.public)
            return await interaction.response.send_message(f"The table is open in {made.mention}.",
                                                           ephemeral=True)
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
        out = []
        for info in spec(game_id).options.infos():
            written = info.name if info.is_variant else f"{info.name}={info.default}"
            if typing.strip().lower() not in written.lower() and typing.strip().lower() not in info.help.lower():
                continue
            value = prefix + written
            if len(value) > 100:
                continue
            out.append(app_commands.Choice(name=clip(f"{value} — {info.help}", 100), value=value))
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
        await self.play(interaction, move, via="slash")

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
            return await refuse(interaction, "There is no story being told here right now.")
        verbs = reader.text_verbs()
        if not verbs:
            return await refuse(interaction, "The game is not asking you for a line right now. " + reader.waiting_for)
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
        if hidden:  # secret choices (trick cards, hands) stay hidden from everyone, even after the game
            text = "The record, with every secret choice hidden (so it cannot be replayed):"
        else:
            text = "The record (replay it with `python -m bot replay FILE`):"
        await interaction.response.send_message(text, file=payloads.record_file(record, filename), ephemeral=True)

    @game.command(name="rules", description="A game's rules, section by section, with credits to its authors.")
    @app_commands.describe(game="Which game", section="A section of the rules (leave empty for the overview)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, section: str | None = None) -> None:
        s = spec(game)
        sections = s.rules_sections()
        if section:
            found = next(((h, b) for h, b in sections if h.lower() == section.strip().lower()), None)
            if found is None:
                names = ", ".join(h for h, _ in sections)
                return await refuse(interaction, f"{s.title}'s rules have no section {clip(section, 40)!r}. "
                                                 f"Sections: {names}.")
            head, body = found
            pages = paginate(payloads.reflow(body), 4000)
            embed = discord.Embed(title=clip(f"{s.title} — {head}", 256), description=pages[0], colour=0x2F7D4F)
            if len(pages) > 1:
                embed.set_footer(text=f"(continued in {len(pages) - 1} more message(s)) · {s.credit}"[:2048])
            else:
                embed.set_footer(text=s.credit[:2048])
            await interaction.response.send_message(embed=embed, ephemeral=True)
            for more in pages[1:4]:
                await interaction.followup.send(embed=discord.Embed(description=more, colour=0x2F7D4F), ephemeral=True)
            return
        embed = discord.Embed(title=s.title, description=clip(s.summary, 4096), colour=0x2F7D4F)
        infos = s.options.infos()
        if infos:
            lines = [f"**{i.usage()}** — {i.help}" for i in infos]
            embed.add_field(name="Variants and settings (`/game new … variants:`)",
                            value=clip("\n".join(lines), 1024), inline=False)
        embed.add_field(name="Sections (`/game rules … section:`)",
                        value=clip(", ".join(h for h, _ in sections), 1024), inline=False)
        embed.add_field(name="Players", value=f"{s.min_players}–{s.max_players}", inline=True)
        embed.set_footer(text=s.credit[:2048])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("section")
    async def rules_sections(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game_id = interaction.namespace.game
        if game_id not in GAME_IDS:
            return []
        needle = current.strip().lower()
        return [app_commands.Choice(name=clip(h, 100), value=clip(h, 100))
                for h, _ in spec(game_id).rules_sections() if needle in h.lower()][:25]

    @game.command(name="stats", description="Games played, won and lost here, and a leaderboard per game.")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction, game: str | None = None,
                    player: discord.User | None = None) -> None:
        rows = await self.desk.stats(interaction.guild_id, game, player.id if player else None)
        if not rows:
            return await interaction.response.send_message("No finished games here yet.", ephemeral=True)
        embed = discord.Embed(title="Deckhand — stats", colour=0x2F7D4F,
                              description="Ranked by the lower bound of the win rate (95%), so one lucky game "
                                          "does not top the board.")
        by_game: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            by_game.setdefault(r["game"], []).append(r)
        for g, rs in list(by_game.items())[:25]:
            lines = [f"{i + 1}. **{payloads.name(r['name'])}** — {r['played']} played, {r['won']} won, {r['lost']} lost"
                     f"{', ' + str(r['drawn']) + ' shared' if r['drawn'] else ''}"
                     for i, r in enumerate(rs[:10])]
            embed.add_field(name=spec(g).title, value="\n".join(lines)[:1024], inline=False)
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @game.command(name="turnlimit", description="Set the turn limit in minutes (host; 0 switches it off).")
    @app_commands.describe(minutes="Minutes a player has for a turn (0: no limit)")
    async def turnlimit(self, interaction: discord.Interaction, minutes: app_commands.Range[int, 0, 100_000]) -> None:
        try:
            update = await self.desk.set_turn_limit(interaction.channel_id, actor_of(interaction), minutes * 60)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(update.events[-1], allowed_mentions=NO_PINGS)
        await self.place.show_table(update.public, post=False)  # its buttons carry the new revision

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
            return await refuse(interaction, "There is no story at this table.")
        text = payloads.story_markdown(reader)
        if text is None:
            return await refuse(interaction, f"{reader.title} has no story to tell.")
        pages = paginate(text, 3800)
        page = min(page, len(pages))
        embed = discord.Embed(title=f"{reader.title} — the story", description=pages[page - 1], colour=0x2F7D4F)
        embed.set_footer(text=f"page {page} of {len(pages)}")
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


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

        A few tables are told at once (each its edit, then its notice): a thousand due tables are
        two thousand requests, and the event loop spends less on each when a few are in flight.
        They are sent by the bot's sender thread (bot.ui.courier) where it has one: the event loop
        only hands each table's over, and reads and makes the next page meanwhile."""
        told = 0
        courier: Courier | None = None
        looked = False

        async def lane(todo: Iterator[tuple[Update, Ahead, Request | None]]) -> None:
            nonlocal told
            for update, ahead, said in todo:  # the lanes share one iterator: each table is told once
                if await self._tell(update, ahead, courier, said):
                    told += 1

        telling: asyncio.Future[Any] | None = None  # the page being told (by the sender thread)
        try:
            async for page in self.desk.sweep():
                updates = [u for u in page if u.notice is not None]
                if updates and not looked:
                    courier, looked = await self._courier(), True
                shown = [u for u in updates if u.notice is not None and not u.notice.quiet]  # a warning: no edit
                msgs = await table_messages([u.public for u in shown])
                # their edits' bodies encoded off the loop too, and (for the sender thread) their notices'
                bodies, notices = await asyncio.to_thread(self._bodies, msgs, updates if courier is not None else [])
                made = {id(u): (m, b) for u, m, b in zip(shown, msgs, bodies, strict=True)}
                said = iter(notices)
                todo = iter([(u, made.get(id(u), (None, None)), next(said, None)) for u in updates])
                if telling is not None:  # one page told at a time, in order
                    await telling
                lanes = SWEEP_LANES if courier is None else COURIER_LANES
                telling = asyncio.gather(*(lane(todo) for _ in range(min(lanes, len(updates)))))
                if courier is None:  # told on the event loop: a page told before the next is read
                    await telling
                    telling = None
                # else the sender thread sends this page while the next is read and made (the bench:
                # about a tenth less of the loop's time, as the sweep's wall time shrinks)
        except asyncio.CancelledError:
            if telling is not None:  # the sweep is stopped (the cog unloaded): the page being told too
                telling.cancel()
            raise
        finally:
            if telling is not None and not telling.cancelled():
                await telling
        return told

    def _bodies(self, msgs: list[payloads.TableMessage | None], updates: list["Update"]
                ) -> tuple[list[discord.http.MultipartParameters | None], list[Request | None]]:
        """In a worker thread: the edit bodies of a page's table messages, and the notice requests of
        ``updates``; None for each (made when it is sent) if they cannot be made together."""
        try:
            bodies = edit_bodies(self.bot, msgs)
        except Exception:  # noqa: BLE001 — each edit's body is then made when it is sent
            log.exception("the sweep's table edits could not be made together")
            bodies = [None] * len(msgs)
        try:
            notices: list[Request | None] = [self._said(u) for u in updates]
        except Exception:  # noqa: BLE001 — each notice is then made when it is sent
            log.exception("the sweep's notices could not be made together")
            notices = [None] * len(updates)
        return bodies, notices

    @staticmethod
    def _words(update: "Update") -> tuple[str, discord.AllowedMentions]:
        """A table's sweep notice: one short message that mentions only the late players."""
        notice = update.notice
        assert notice is not None
        return clip(notice.message(), 2000), discord.AllowedMentions(
            users=[discord.Object(u) for u in notice.users], everyone=False, roles=False, replied_user=False)

    def _said(self, update: "Update") -> Request:
        """The request that posts a table's sweep notice (for the sender thread)."""
        return "send_message", (update.table.channel_id,), notice_body(self.bot, *self._words(update))

    async def _courier(self) -> "Courier | None":
        """The bot's sender thread for the sweep's requests (bot.ui.courier), started if it is not;
        None (the requests go through the bot's own client) for a bot with none or no token, or
        when it cannot start."""
        courier = getattr(self.bot, "courier", None)
        if courier is None or not courier.usable:
            return None
        if not courier.running:
            try:
                await courier.start()
            except Exception:  # noqa: BLE001 — the sweep still works, on the event loop
                log.exception("the sweep's sender thread could not start; its requests go through the bot's client")
                return None
        return courier

    async def _tell(self, update: "Update", ahead: Ahead = (None, None), courier: "Courier | None" = None,
                    said: "Request | None" = None) -> bool:
        """One table's sweep notice: its table message edited, then the notice posted (one table's
        trouble never stops the others'). Both are sent by the ``courier`` if given (``said``: the
        notice's request, made beforehand), the channel's table message held meanwhile (a move's
        newer state is shown after them)."""
        notice = update.notice
        assert notice is not None
        ch = update.table.channel_id
        try:
            if courier is None:
                if not notice.quiet:  # the table message says so (Skip / Remove); a warning leaves it as it is
                    await self.place.show_made(update.public, *ahead)
                await self.place.notify(ch, *self._words(update))
                return True
            said = said or self._said(update)
            if notice.quiet:
                [refused] = await courier.send([said])
                if refused is not None:
                    raise refused
            else:
                await self.place.show_made(update.public, *ahead, via=courier, then=[said])
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
        log.exception("command failed", exc_info=error)
        await refuse(interaction, "Something went wrong on my side; nothing was changed.")


async def legal_choices(desk: "Desk", interaction: discord.Interaction, current: str, *, game_id: str | None = None,
                        verb: str | None = None) -> list[app_commands.Choice[str]]:
    """Autocomplete from the caller's own reader: the next tokens after what is typed."""
    try:
        reader = await desk.reader(interaction.channel_id, interaction.user.id)
    except TableError:
        return []
    if reader.table.status != "playing" or (game_id and reader.game != game_id):
        return []
    return payloads.autocomplete(reader, current, verb)


def paginate(text: str, size: int) -> list[str]:
    pages, current = [], ""
    for line in text.splitlines(keepends=True):
        while len(line) > size:
            pages.append(current + line[: size - len(current)])
            line, current = line[size - len(current):], ""
        if len(current) + len(line) > size:
            pages.append(current)
            current = ""
        current += line
    if current or not pages:
        pages.append(current)
    return pages


async def setup(bot: "DeckhandBot") -> None:
    from bot.ui import replay

    replay.attach(Tables.game)  # /game replay: a finished game, step by step (bot.ui.replay answers its buttons)
    bot.add_dynamic_items(*replay.with_viewer(COMPONENTS))
    await bot.add_cog(Tables(bot))
