"""The shared table cog: ``/game …`` commands and every table button.

Thin by design: parse the interaction, call the table service, answer. The public
table goes to the channel; hands, pickers and refusals are ephemeral.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import types
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import ui
from bot.engine.registry import GAME_IDS, spec
from bot.engine.core import IllegalMove
from bot.engine.cards import pretty_text
from bot.render import pictures
from bot.render.panel import clip
from bot.records import redacted
from bot.store import TableRow
from bot.tables import STALE, Actor, Change, TableError, daily_day, load_game

if TYPE_CHECKING:
    from bot.app import DeckhandBot

log = logging.getLogger(__name__)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
NO_PINGS = discord.AllowedMentions.none()

GAME_CHOICES = [app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS]


DEFER_AFTER = 2.0  # seconds; Discord allows 3 for the first answer
MOVE_DOWN_AFTER = 10  # other people's messages below the table message before it moves down the channel
MOVED = "The table moved down the channel: {link}"
SWEEP_SECONDS = 5.0  # the turn-limit sweep: an indexed read of the due tables only


def actor_of(interaction: discord.Interaction, owner_ids: Any = None) -> Actor:
    """Who acts; the bot's owners (DECKHAND_OWNER_IDS) may manage any table."""
    user = interaction.user
    perms = interaction.permissions
    can_manage = interaction.guild_id is not None and bool(perms and perms.manage_messages)
    return Actor(user.id, user.display_name, can_manage or user.id in (owner_ids or ()))


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Every refusal: ephemeral, plain and short enough for Discord."""
    message = clip(message, 1900)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=NO_PINGS)


STALE_LINK = "That table has moved on since this was posted; here is the current table."


def ending(table: TableRow, link: str) -> dict[str, Any]:
    """The one message a game's end posts: how it ended, a link to the final table, the story file."""
    title = spec(table.game).title
    game = load_game(table) if table.state is not None else None
    outcome = game.outcome() if game is not None else None
    if table.status == "finished" and outcome is not None:
        text = f"**{title} is over.** {pretty_text(outcome.summary)}"
    else:
        text = f"**The {title} game was abandoned.**"
    if link:
        text += f"\nThe final table: {link}"
    kw: dict[str, Any] = {}
    story = ui.story_markdown(table, game) if game is not None else None
    if story:
        told = "The story is told" if table.status == "finished" else "The story stops here"
        text += f"\n{told}; here it is, to keep."
        kw["file"] = discord.File(io.BytesIO(story.encode()), filename="story.md")
    kw["content"] = clip(text, 2000)
    return kw


class _Component:
    """Base of Deckhand's components: the custom_id names table, revision, kind and argument."""

    kind = ""

    def __init__(self, item: discord.ui.Item, tid: str, rev: int, arg: str):
        super().__init__(item)  # type: ignore[call-arg]
        self.tid, self.rev, self.arg = tid, rev, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(item, match["tid"], int(match["rev"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: Tables = interaction.client.get_cog("Tables")  # type: ignore[assignment]
        values = list(getattr(self.item, "values", []) or [])  # type: ignore[attr-defined]
        await cog.on_component(interaction, self.kind, self.tid, self.rev, self.arg, values)


def _component(kind: str, select: bool = False) -> type[_Component]:
    """One DynamicItem class per kind of action (join, concede, a step of a move…)."""
    template = rf"{ui.PREFIX}:(?P<tid>[0-9a-z]+):(?P<rev>\d+):{kind}:(?P<arg>.*)"
    base = discord.ui.DynamicItem[discord.ui.Select] if select else discord.ui.DynamicItem[discord.ui.Button]
    def body(ns: dict[str, Any]) -> None:
        ns.update(kind=kind, __module__=__name__)

    return types.new_class(f"Component_{kind}", (_Component, base), {"template": template}, body)


COMPONENTS = [_component(k) for k in (*ui.LOBBY_KINDS, *ui.TABLE_KINDS, ui.STEP, ui.PAGE, ui.TEXT, ui.CONFIRM,
                                      ui.SURE, ui.SURE_MOVE, ui.KEEP)]
COMPONENTS.append(_component(ui.SELECT, select=True))


class TextModal(discord.ui.Modal):
    """The text box for a free-text step (a story line); its custom_id is revision-checked too."""

    def __init__(self, tid: str, rev: int, arg: str, tokens: tuple[str, ...], label: str, required: bool, max_len: int):
        super().__init__(title=clip(label, 45) or "Your line", timeout=900,
                         custom_id=ui.cid(tid, rev, ui.MODAL, arg))
        self.tid, self.rev, self.tokens = tid, rev, tokens
        self.line = discord.ui.TextInput(label=clip(label, 45) or "Text", style=discord.TextStyle.paragraph,
                                         required=required, max_length=max(1, min(max_len, 4000)))
        self.add_item(self.line)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        cog: Tables = interaction.client.get_cog("Tables")  # type: ignore[assignment]
        text = str(self.line.value or "").strip()
        move = " ".join((*self.tokens, text)).strip()
        await cog.play(interaction, move, via="modal", table=self.tid, opened=self.rev)


class Tables(commands.Cog):
    """Tables in channels and DMs: lobby, moves, status, records."""

    game = app_commands.Group(name="game", description="Card tables: start, join and play games.",
                              allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)

    def __init__(self, bot: "DeckhandBot"):
        self.bot = bot
        self.service = bot.service
        self._live: dict[int, int] = {}  # channel -> its table message (as last read from the store)
        self._below: dict[int, int] = {}  # channel -> other people's messages posted below it since
        self._showing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # one edit at a time

    async def cog_load(self) -> None:
        if self.bot.run_timeouts:
            self.timeout_loop.start()

    async def cog_unload(self) -> None:
        self.timeout_loop.cancel()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Count what people post below a table message (content is not read): when it has
        scrolled far away, the next action moves the table down."""
        ch = message.channel.id
        live = self._live.get(ch)
        me = self.bot.user
        if live is None or message.id <= live or (me is not None and message.author.id == me.id):
            return
        self._below[ch] = self._below.get(ch, 0) + 1

    # ----- the one table message ---------------------------------------------------------
    async def render(self, table: TableRow) -> ui.TableMessage:
        """The public table message; its picture is drawn off the event loop."""
        picture = None
        if table.state is not None and table.status != "lobby":
            picture = await pictures.table_picture(table.game, load_game(table).view(None))
        return await asyncio.to_thread(ui.table_message, table, picture, with_picture=False)

    async def live_id(self, channel_id: int) -> int | None:
        """The channel's table message (as stored), keeping the count of what was posted below it."""
        mid = await self.service.store.message_id(channel_id)
        if mid is None:
            self._live.pop(channel_id, None)
        elif self._live.get(channel_id) != mid:
            self._live[channel_id] = mid
            self._below[channel_id] = 0
        return mid

    async def remember(self, channel_id: int, message_id: int) -> None:
        await self.service.store.set_message_id(channel_id, message_id)
        self._live[channel_id] = message_id
        self._below[channel_id] = 0

    async def _post(self, interaction: discord.Interaction, msg: ui.TableMessage) -> int:
        """A new public table message, through the interaction (so it works wherever the app may answer)."""
        if not interaction.response.is_done():
            sent = await interaction.response.send_message(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
            if sent.message_id is not None:
                return sent.message_id
            return (await interaction.original_response()).id
        return (await interaction.followup.send(**msg.send_kwargs(), allowed_mentions=NO_PINGS, wait=True)).id

    async def _edit(self, channel_id: int, message_id: int, **kw: Any) -> bool:
        """Edit one of the bot's own messages through the channel; False if Discord will not let it
        (a user-installed app in a channel the bot is not in, a deleted message)."""
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**kw)
            return True
        except discord.HTTPException as e:
            log.info("could not edit table message %s in %s: %s", message_id, channel_id, e)
            return False

    async def show_table(self, table: TableRow, *, post: bool = True) -> int | None:
        """Show the table without an interaction (a new thread, a timer): edit its table message in
        place, else (``post``) post one in the channel; the message's id, or None if there is none."""
        async with self._showing[table.channel_id]:
            msg = await self.render(table)
            live = await self.live_id(table.channel_id)
            if live is not None and await self._edit(table.channel_id, live, **msg.edit_kwargs()):
                return live
            if not post:
                return None
            try:
                sent = await self.bot.get_partial_messageable(table.channel_id).send(**msg.send_kwargs(),
                                                                                     allowed_mentions=NO_PINGS)
            except discord.HTTPException as e:  # e.g. a user-installed app cannot post here
                log.info("could not post the table to %s: %s", table.channel_id, e)
                return None
            await self.remember(table.channel_id, sent.id)
            return sent.id

    async def publish(self, interaction: discord.Interaction, table: TableRow, change: Change | None = None, *,
                      answer: str = "", move_down: bool = False) -> None:
        """Show the table after an action, wherever the action came from: the one table message is
        edited in place (the clicked message itself, or through the channel). A new table message
        only when there is none, it cannot be edited, or it must move down the channel; the old
        copy then loses its buttons and links to the new one. Then the notices: turn pings, the end.
        ``answer`` is the actor's private answer when the action did not come from the table message."""
        async with self._showing[table.channel_id]:  # two actions at once: the later state is shown last
            live = await self._show(interaction, table, answer, move_down)
        if change is not None:
            await self.notify(interaction, change, live)

    async def _show(self, interaction: discord.Interaction, table: TableRow, answer: str,
                    move_down: bool) -> int | None:
        ch = table.channel_id
        newest = await self.service.get(ch)
        if newest is not None and newest.table_id == table.table_id and newest.revision > table.revision:
            table = newest  # another action landed meanwhile: show where the table is now
        msg = await self.render(table)
        clicked = interaction.message
        public_click = clicked is not None and not clicked.flags.ephemeral
        live = await self.live_id(ch)
        answered = False
        if (public_click and clicked is not None and live is not None and clicked.id != live
                and not interaction.response.is_done()):
            # A click on another public copy (a notice posted with the table): the newer one is the table.
            older, newer = sorted((clicked.id, live))
            if clicked.id == older:
                await interaction.response.edit_message(content=MOVED.format(link=ui.jump_url(table, live)),
                                                        view=None)
            else:
                live = newer
                await self.remember(ch, live)
                await self._edit(ch, older, content=MOVED.format(link=ui.jump_url(table, live)), view=None)
        if live is not None and (move_down or self._below.get(ch, 0) >= MOVE_DOWN_AFTER):
            old, live = live, await self._post(interaction, msg)
            await self.remember(ch, live)
            await self._edit(ch, old, content=MOVED.format(link=ui.jump_url(table, live)), view=None)
        elif (public_click and clicked is not None and not interaction.response.is_done()
              and live in (None, clicked.id)):
            await interaction.response.edit_message(**msg.edit_kwargs())
            answered = True  # the table itself answers a click on it
            if live is None:
                live = clicked.id
                await self.remember(ch, live)
        elif live is not None and await self._edit(ch, live, **msg.edit_kwargs()):
            answered = await self._acknowledge(interaction, answer, ui.jump_url(table, live))
        else:
            live = await self._post(interaction, msg)
            await self.remember(ch, live)
        if answer and not answered:
            await interaction.followup.send(clip(answer, 1900), ephemeral=True, allowed_mentions=NO_PINGS)
        return live

    async def _acknowledge(self, interaction: discord.Interaction, answer: str, link: str) -> bool:
        """Answer an action that did not come from the table message: privately, with a link to it."""
        if interaction.response.is_done():
            return False
        text = clip(f"{answer or 'Done.'}\nThe table: {link}", 2000)
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:  # a private panel updates in place
            await interaction.response.edit_message(content=text, embed=None, view=None, attachments=[])
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        return True

    async def notify(self, interaction: discord.Interaction, change: Change, live: int | None) -> None:
        """The mover's private lines (privately); then the only new public messages: a short turn
        ping linking to the table, and one message when the game ends."""
        table = change.table
        link = ui.jump_url(table, live) if live is not None else ""
        seat = table.seat_of(interaction.user.id)
        private = change.private.get(seat, []) if seat is not None else []
        if private:
            text = "\n".join(pretty_text(p) for p in private)
            await interaction.followup.send(clip(text, 2000), ephemeral=True, allowed_mentions=NO_PINGS)
        title = spec(table.game).title
        if change.pings and table.status == "playing":
            mentions = " ".join(f"<@{u}>" for u in change.pings)
            await interaction.followup.send(
                f"{mentions} — your turn at {title}: {link}".rstrip(": "),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in change.pings],
                                                         everyone=False, roles=False),
            )
        if change.finished:
            await interaction.followup.send(**ending(table, link), allowed_mentions=NO_PINGS)

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
                change = await self.service.new_table(made.id, interaction.guild_id, actor_of(interaction), game, options)
            except TableError as e:
                return await refuse(interaction, str(e))
            await self.show_table(change.table)
            return await interaction.response.send_message(f"The table is open in {made.mention}.",
                                                           ephemeral=True)
        try:
            change = await self.service.new_table(channel_id, interaction.guild_id, actor_of(interaction), game, options)
        except TableError as e:
            return await refuse(interaction, str(e))
        await self.publish(interaction, change.table, change)

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
        await self._table_action(interaction, "jn", None, None)

    @game.command(name="leave", description="Leave this channel's table (mid-game, that is a forfeit).")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._table_action(interaction, "lv", None, None)

    @game.command(name="start", description="Start the game (host only).")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._table_action(interaction, "st", None, None)

    @game.command(name="status", description="Post the table again at the bottom of the channel.")
    async def status(self, interaction: discord.Interaction) -> None:
        try:
            table = await self.service.require(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        await self.publish(interaction, table, move_down=True)

    @game.command(name="hand", description="Your hand / your private view of this table (only you see it).")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    @game.command(name="move", description="Make a move in the game's notation (autocomplete lists the legal ones).")
    @app_commands.describe(move="The move, e.g. `place r1c2` or `draw`")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self.play(interaction, move, via="slash")

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(self.service, interaction, current)

    @game.command(name="say", description="Write your line of the story (when the game asks you for one).")
    @app_commands.describe(text="Your line")
    async def say(self, interaction: discord.Interaction, text: str) -> None:
        table = await self.service.get(interaction.channel_id)
        if table is None or table.status != "playing":
            return await refuse(interaction, "There is no story being told here right now.")
        seat = table.seat_of(interaction.user.id)
        game = load_game(table)
        verbs = text_verbs(game, seat) if seat is not None and seat in game.to_act() else []
        if not verbs:
            return await refuse(interaction, "The game is not asking you for a line right now. " + game.waiting_for())
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
        try:
            change = await self.service.abandon(interaction.channel_id, actor_of(interaction))
        except TableError as e:
            return await refuse(interaction, str(e))
        await self.publish(interaction, change.table, change, answer="You abandoned the table.")

    @game.command(name="history", description="The recent moves at this table.")
    async def history(self, interaction: discord.Interaction) -> None:
        try:
            table = await self.service.require(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        lines = [pretty_text(e) for e in ui.public_events(table)[-20:]] or ["Nothing has happened yet."]
        title = spec(table.game).title
        embed = discord.Embed(title=f"{title} — recent moves", description="\n".join(lines)[:4096],
                              colour=0x2F7D4F)
        embed.set_footer(text=f"{len(table.moves)} moves so far · rev {table.revision}")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @game.command(name="export", description="The finished game's record as a JSON file (replayable).")
    async def export(self, interaction: discord.Interaction) -> None:
        table = await self.service.get(interaction.channel_id)
        if table is not None and table.status == "playing":
            return await refuse(interaction, "The record holds the shuffle, so it is available once the game ends.")
        if table is not None and table.series.get("daily") == daily_day(self.service.clock()):
            return await refuse(interaction, "Today's daily deal stays secret until the day ends (UTC); "
                                             "its record can be exported tomorrow.")
        record = await self.service.store.last_record(interaction.channel_id)  # saved when the game ended
        if not record:
            return await refuse(interaction, "No finished game here to export.")
        name = f"{record['game']}-{interaction.channel_id}-{len(record['moves'])}.json"
        if not spec(record["game"]).export_seed:
            # Secret choices (trick cards, hands) stay hidden from everyone, even after the game.
            record = redacted(record)
            text = "The record, with every secret choice hidden (so it cannot be replayed):"
        else:
            text = "The record (replay it with `python -m bot replay FILE`):"
        await interaction.response.send_message(text, file=ui.record_file(record, name), ephemeral=True)

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
            pages = paginate(body, 4000)
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
        rows = await self.service.stats(interaction.guild_id, game, player.id if player else None)
        if not rows:
            return await interaction.response.send_message("No finished games here yet.", ephemeral=True)
        embed = discord.Embed(title="Deckhand — stats", colour=0x2F7D4F,
                              description="Ranked by the lower bound of the win rate (95%), so one lucky game "
                                          "does not top the board.")
        by_game: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            by_game.setdefault(r["game"], []).append(r)
        for g, rs in list(by_game.items())[:25]:
            lines = [f"{i + 1}. **{r['name']}** — {r['played']} played, {r['won']} won, {r['lost']} lost"
                     f"{', ' + str(r['drawn']) + ' shared' if r['drawn'] else ''}"
                     for i, r in enumerate(rs[:10])]
            embed.add_field(name=spec(g).title, value="\n".join(lines)[:1024], inline=False)
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @game.command(name="turnlimit", description="Set the turn limit in minutes (host; at least 1).")
    async def turnlimit(self, interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 100_000]) -> None:
        try:
            change = await self.service.set_turn_limit(interaction.channel_id, actor_of(interaction), minutes * 60)
        except TableError as e:
            return await refuse(interaction, str(e))
        await interaction.response.send_message(change.events[-1], allowed_mentions=NO_PINGS)

    @game.command(name="story", description="The story told at this table so far.")
    @app_commands.describe(page="Page of the story (long tales are split)")
    async def story(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        table = await self.service.get(interaction.channel_id)
        if table is None or table.state is None:
            return await refuse(interaction, "There is no story at this table.")
        game = load_game(table)
        text = ui.story_markdown(table, game)
        if text is None:
            return await refuse(interaction, f"{game.title} has no story to tell.")
        pages = paginate(text, 3800)
        page = min(page, len(pages))
        embed = discord.Embed(title=f"{game.title} — the story", description=pages[page - 1], colour=0x2F7D4F)
        embed.set_footer(text=f"page {page} of {len(pages)}")
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    # ----- components ------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, kind: str, tid: str, rev: int, arg: str,
                           values: list[str]) -> None:
        if not await self.service.first_delivery(interaction.id):
            return
        try:
            if kind in ui.LOBBY_KINDS or kind in ("cc", "sk", "rv", "rm", "ng"):
                return await self._table_action(interaction, kind, tid, rev)
            if kind == ui.SURE:
                if arg not in ("cc", "lv"):
                    return await refuse(interaction, "That button is not one of mine.")
                return await self._table_action(interaction, arg, tid, rev, confirmed=True)
            if kind == ui.KEEP:
                return await self.keep_playing(interaction)
            if kind == "sh":  # older table messages' Show table: a private copy
                table = await self.service.require(interaction.channel_id)
                msg = await self.render(table)
                return await interaction.response.send_message(**msg.send_kwargs(), ephemeral=True)
            if kind == "me":
                return await self.show_hand(interaction)
            if kind == "sf":
                table = await self.service.require(interaction.channel_id)
                story = ui.story_markdown(table, load_game(table)) if table.state else None
                if not story:
                    return await refuse(interaction, "No story here.")
                return await interaction.response.send_message(
                    file=discord.File(io.BytesIO(story.encode()), filename="story.md"), ephemeral=True)
            page = 0
            if kind == ui.PAGE:
                number, _, arg = arg.partition(":")
                page = int(number) if number.isdigit() else 0
            tokens = await self._tokens(arg)
            if kind == ui.SELECT:
                tokens = tokens + (",".join(values),) if len(values) != 1 else tokens + (values[0],)
            if kind in (ui.CONFIRM, ui.SURE_MOVE):
                return await self.play(interaction, " ".join(tokens), via="button", table=tid, opened=rev,
                                       confirmed=kind == ui.SURE_MOVE)
            if kind == ui.TEXT:
                return await self.open_modal(interaction, tid, rev, tokens)
            return await self.step(interaction, tid, rev, tokens, page)
        except TableError as e:
            if str(e) == STALE:
                return await self.refuse_stale(interaction)
            await refuse(interaction, str(e))

    async def _tokens(self, arg: str) -> tuple[str, ...]:
        if arg.startswith("~"):
            return await self.service.get_draft(arg[1:])
        return ui.decode_tokens(arg)

    async def refuse_stale(self, interaction: discord.Interaction) -> None:
        """A stale component: say so, show the current table privately, change nothing."""
        table = await self.service.get(interaction.channel_id)
        if table is None:
            return await refuse(interaction, "That table is gone. Start one with `/game new`.")
        msg = await self.render(table)
        kw = msg.send_kwargs()
        kw["content"] = STALE_LINK
        if interaction.response.is_done():
            await interaction.followup.send(**kw, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(**kw, ephemeral=True, allowed_mentions=NO_PINGS)

    # ----- "Are you sure?" ---------------------------------------------------------------------
    async def ask_sure(self, interaction: discord.Interaction, question: str, view: discord.ui.View) -> None:
        """An ephemeral question with Confirm / Keep playing; a private panel turns into it in place."""
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(content=question, embed=None, view=view, attachments=[])
        elif not interaction.response.is_done():
            await interaction.response.send_message(question, view=view, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.followup.send(question, view=view, ephemeral=True, allowed_mentions=NO_PINGS)

    async def ask_forfeit(self, interaction: discord.Interaction, move: str, tid: str | None,
                          opened: int | None) -> bool:
        """Ask before a game's concede/resign; False when the mover cannot make it anyway (then the
        move goes on, to be refused in plain words)."""
        table = await self.service.get(interaction.channel_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or seat is None or table.status != "playing":
            return False
        game = load_game(table)
        tokens = tuple(move.split())
        if seat not in game.to_act() or not game.choices(seat, tokens).complete:
            return False
        tid = tid or ui.table_key(table)
        opened = game.opened_at(seat) if opened is None else opened
        drafts = ui.Drafts()
        arg = drafts.arg(tid, opened, ui.SURE_MOVE, tokens)
        await self.service.save_drafts(drafts, table, seat, opened)
        what = pretty_text(" → ".join(ui.so_far(game, seat, tokens)))
        await self.ask_sure(interaction, clip(f"Are you sure you want to **{what}**? It gives the game up for you "
                                              "and cannot be undone.", 2000),
                            ui.confirm_view(tid, opened, ui.SURE_MOVE, arg))
        return True

    async def keep_playing(self, interaction: discord.Interaction) -> None:
        """Keep playing: nothing changes; the private panel shows the hand again."""
        table = await self.service.get(interaction.channel_id)
        if table is not None and table.status == "playing" and table.seat_of(interaction.user.id) is not None:
            return await self.show_hand(interaction, note="Nothing was changed: you are still playing.")
        await interaction.response.edit_message(content="Nothing was changed.", embed=None, view=None,
                                                attachments=[])

    async def _table_action(self, interaction: discord.Interaction, kind: str, tid: str | None, rev: int | None,
                            *, confirmed: bool = False) -> None:
        """Lobby and table buttons (and their slash commands): join, leave, start, cancel, concede,
        skip, remove, rematch, new game. A button names its table and revision and is refused
        when either has moved on. Leaving a game being played and conceding ask first."""
        actor = actor_of(interaction, self.bot.owner_ids)
        ch = interaction.channel_id
        assert ch is not None
        table: TableRow | None = None
        if tid is not None:
            table = await self.service.require(ch)
            if ui.table_key(table) != tid or (rev is not None and table.revision != rev):
                return await self.refuse_stale(interaction)
        if kind in ("cc", "lv") and not confirmed:
            table = table or await self.service.get(ch)
            if table is not None and table.status == "playing" and table.seat_of(actor.user_id) is not None:
                what = "Concede" if kind == "cc" else "Leave the game"
                return await self.ask_sure(
                    interaction, f"Are you sure? **{what}**: that is a forfeit, and it cannot be undone.",
                    ui.confirm_view(ui.table_key(table), table.revision, ui.SURE, kind))
        fns = {"jn": self.service.join, "lv": self.service.leave, "st": self.service.start,
               "cx": self.service.cancel, "cc": self.service.leave, "sk": self.service.skip,
               "rv": self.service.remove, "ab": self.service.add_bot}
        try:
            if kind in fns:
                kw = {"revision": rev} if rev is not None and kind not in ("lv", "cc", "cx") else {}
                change = await fns[kind](ch, actor, **kw)
            elif kind == "rm":
                change = await self.service.rematch(ch, actor)
            else:  # "ng": a new solo game
                table = await self.service.require(ch)
                change = await self.service.new_table(ch, interaction.guild_id, actor, table.game, table.options)
        except TableError as e:
            if str(e) == STALE:
                return await self.refuse_stale(interaction)
            return await refuse(interaction, str(e))
        answers = {"jn": "You sat down at the table.", "lv": "You left the table.", "st": "The game is on.",
                   "cx": "The table is cancelled.", "cc": "You conceded.", "sk": "The late player's turn was played.",
                   "rv": "The late player was removed.", "rm": "A rematch is on.", "ng": "A new game is on.",
                   "ab": "A bot took a seat."}
        await self.publish(interaction, change.table, change, answer=answers.get(kind, ""))

    async def show_hand(self, interaction: discord.Interaction, note: str = "") -> None:
        """The seat's private panel (its view, its picture, its first choices); a private panel
        that asked for it is updated in place."""
        try:
            table = await self.service.require(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return await refuse(interaction, "You are not playing at this table; the public table is all there is "
                                             "to see.")
        if table.status != "playing":
            return await refuse(interaction, "There is no game in progress at this table.")
        game = load_game(table)
        drafts = ui.Drafts()
        head, embed, view = ui.seat_message(table, game, seat, drafts)
        await self.service.save_drafts(drafts, table, seat, game.opened_at(seat))
        png = await pictures.seat_picture(table.game, game.view(seat))
        files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
        if png:
            embed.set_image(url="attachment://hand.png")
        if note:
            head = clip(f"{note}\n{head}", 2000)
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral and not interaction.response.is_done():
            return await interaction.response.edit_message(content=head, embed=embed, view=view, attachments=files)
        kw: dict[str, Any] = {"files": files} if files else {}
        await interaction.response.send_message(head, embed=embed, view=view, ephemeral=True,
                                                allowed_mentions=NO_PINGS, **kw)

    async def step(self, interaction: discord.Interaction, tid: str, rev: int, tokens: tuple[str, ...],
                   page: int = 0) -> None:
        """A step of building an action: play it when it is whole and nothing may follow,
        else show the next choices privately (in place when already private)."""
        table, game, seat = await self.service.to_move(interaction.channel_id, interaction.user.id, tid, rev)
        c = game.choices(seat, tokens)
        if tokens and c.complete and not c.options and c.kind == "token":
            return await self.play(interaction, " ".join(tokens), via="button", table=tid, opened=rev)
        drafts = ui.Drafts()
        text, view = ui.picker(game, table, seat, ui.Step(tokens, page), drafts)
        await self.service.save_drafts(drafts, table, seat, rev)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=text, embed=None, view=view, attachments=[])
        else:
            await interaction.response.send_message(text, view=view, ephemeral=True, allowed_mentions=NO_PINGS)

    async def open_modal(self, interaction: discord.Interaction, tid: str, rev: int, tokens: tuple[str, ...]) -> None:
        table, game, seat = await self.service.to_move(interaction.channel_id, interaction.user.id, tid, rev)
        c = game.choices(seat, tokens)
        if c.kind != "text":
            raise TableError("The game is not asking you for that line now.")
        drafts = ui.Drafts()
        arg = drafts.arg(tid, rev, ui.MODAL, tokens)
        await self.service.save_drafts(drafts, table, seat, rev)
        await interaction.response.send_modal(
            TextModal(tid, rev, arg, tokens, c.prompt or "Your line", c.required, c.max_len or 1000))

    async def play(self, interaction: discord.Interaction, move: str, *, via: str, table: str | None = None,
                   opened: int | None = None, confirmed: bool = False) -> None:
        """Apply a move and show the result: the table message is edited in place; the mover's
        private panel (or private answer) says what was done. Giving the game up asks first."""
        if via != "button" and not await self.service.first_delivery(interaction.id):
            return
        if not confirmed and ui.is_forfeit(move.split()) and await self.ask_forfeit(interaction, move, table, opened):
            return
        actor = actor_of(interaction, self.bot.owner_ids)
        work = asyncio.ensure_future(self.service.move(interaction.channel_id, actor, move, table=table,
                                                       opened=opened))
        try:
            change = await self._in_time(interaction, work)
        except TableError as e:
            if str(e) == STALE:
                return await self.refuse_stale(interaction)
            return await refuse(interaction, str(e))
        clicked = interaction.message
        on_panel = clicked is not None and clicked.flags.ephemeral
        if via == "button" and not on_panel:  # a move on the table message: the table itself answers
            return await self.publish(interaction, change.table, change)
        seat = change.table.seat_of(interaction.user.id)
        private = change.private.pop(seat, []) if seat is not None else []
        done = "Done." if change.secret else "Done: " + clip(pretty_text(move), 1800)
        done = clip("\n".join([done, *(pretty_text(p) for p in private)]), 1900)
        if on_panel and not interaction.response.is_done():
            await interaction.response.edit_message(content=done, embed=None, view=None, attachments=[])
            return await self.publish(interaction, change.table, change)
        if interaction.response.is_done():
            await interaction.followup.send(done, ephemeral=True, allowed_mentions=NO_PINGS)
            return await self.publish(interaction, change.table, change)
        await self.publish(interaction, change.table, change, answer=done)

    async def _in_time(self, interaction: discord.Interaction, work: "asyncio.Future[Change]") -> Change:
        """Wait for the work; if it takes longer than Discord's 3 s allows, defer first so the
        player is told what happened instead of "This interaction failed". The deferred answer is
        private: the public answer to a move is the table message, edited in place."""
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=interaction.message is None)
        return await work

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
        posted. The table itself is not reposted: its table message is edited in place."""
        told = 0
        for change in await self.service.check_timeouts():
            notice = change.notice
            if notice is None:
                continue
            await self.show_table(change.table, post=False)  # the table message says so (Skip / Remove)
            channel = self.bot.get_partial_messageable(change.table.channel_id)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in notice.users],
                                               everyone=False, roles=False, replied_user=False)
            try:
                await channel.send(clip(notice.message(), 2000), allowed_mentions=mentions)
                told += 1
            except discord.HTTPException as e:  # e.g. a user-installed app cannot post here
                log.info("could not post a turn-limit notice to %s: %s", change.table.channel_id, e)
        return told

    @timeout_loop.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, (TableError, IllegalMove)):
            return await refuse(interaction, str(original))
        log.exception("command failed", exc_info=error)
        await refuse(interaction, "Something went wrong on my side; nothing was changed.")


def text_verbs(game: Any, seat: int) -> list[str]:
    """The first tokens of the seat's free-text actions now (story lines)."""
    return [o.token for o in game.choices(seat, ()).options if game.choices(seat, (o.token,)).kind == "text"]


async def legal_choices(service, interaction: discord.Interaction, current: str, *, game_id: str | None = None,
                        verb: str | None = None) -> list[app_commands.Choice[str]]:
    """Autocomplete from ``choices``: the next tokens after what is typed, labelled in plain words.

    Typing builds the action a token at a time, exactly as the pickers do; only the seat's
    own view is consulted, so nothing hidden leaks."""
    table = await service.get(interaction.channel_id)
    if table is None or table.status != "playing" or (game_id and table.game != game_id):
        return []
    seat = table.seat_of(interaction.user.id)
    game = load_game(table)
    if seat is None or seat not in game.to_act():
        return []
    typed = current[:200].split()
    ends_with_space = current.endswith(" ")
    done = tuple(typed if ends_with_space else typed[:-1])
    partial = "" if ends_with_space or not typed else typed[-1].lower()
    if verb is not None:
        done = (verb, *done) if not done or done[0] != verb else done
    c = game.choices(seat, done)
    out = []
    head = " ".join(done)
    if c.complete and done and not partial:
        label = " → ".join(ui.so_far(game, seat, done))
        out.append(app_commands.Choice(name=clip(pretty_text(label) + " ✓", 100), value=head[:100]))
    if c.kind == "range":
        options = [(str(i), str(i)) for i in range(c.lo, c.hi + 1)]
    else:
        options = [(o.token, o.label or o.token) for o in c.options]
    for token, label in options:
        if partial and partial not in token.lower() and partial not in label.lower():
            continue
        value = f"{head} {token}".strip()
        shown = value if verb is None else value.partition(" ")[2] or value
        name = f"{pretty_text(label)} ({shown})" if label != token else shown
        out.append(app_commands.Choice(name=clip(name, 100), value=value[:100]))
        if len(out) == 25:
            break
    return out


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
    bot.add_dynamic_items(*COMPONENTS)
    await bot.add_cog(Tables(bot))


