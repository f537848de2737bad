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
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import ui
from bot.engine.registry import GAME_IDS, spec
from bot.engine.core import IllegalMove
from bot.engine.cards import pretty_text
from bot.render.panel import clip
from bot.records import redacted
from bot.tables import STALE, Actor, Change, TableError, daily_day, load_game

if TYPE_CHECKING:
    from bot.app import DeckhandBot

log = logging.getLogger(__name__)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
NO_PINGS = discord.AllowedMentions.none()

GAME_CHOICES = [app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS]


DEFER_AFTER = 2.0  # seconds; Discord allows 3 for the first answer
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


COMPONENTS = [_component(k) for k in (*ui.LOBBY_KINDS, *ui.TABLE_KINDS, ui.STEP, ui.PAGE, ui.TEXT, ui.CONFIRM)]
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

    async def cog_load(self) -> None:
        if self.bot.run_timeouts:
            self.timeout_loop.start()

    async def cog_unload(self) -> None:
        self.timeout_loop.cancel()

    # ----- answering ---------------------------------------------------------------
    async def send_table(self, interaction: discord.Interaction, change: Change, *, edit: bool) -> None:
        """Show the table after a change: edit the clicked message or post a new one, then ping.

        The picture is drawn in a worker thread so other tables' clicks are not held up.
        """
        msg = await asyncio.to_thread(ui.table_message, change.table)
        if edit and not interaction.response.is_done():
            await interaction.response.edit_message(**msg.edit_kwargs())
        elif not interaction.response.is_done():
            await interaction.response.send_message(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
        else:
            await interaction.followup.send(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
        await self.after_change(interaction, change)

    async def after_change(self, interaction: discord.Interaction, change: Change) -> None:
        table = change.table
        seat = table.seat_of(interaction.user.id)
        private = change.private.get(seat, []) if seat is not None else []
        if private:
            text = "\n".join(pretty_text(p) for p in private)
            await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=NO_PINGS)
        if change.pings:
            title = spec(table.game).title
            mentions = " ".join(f"<@{u}>" for u in change.pings)
            await interaction.followup.send(
                f"{mentions} — your turn at {title}.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in change.pings],
                                                         everyone=False, roles=False),
            )
        if change.finished and change.record:
            game = load_game(table)
            story = ui.story_markdown(table, game)
            if story:
                told = "The story is told" if table.status == "finished" else "The story stops here"
                await interaction.followup.send(
                    f"{told}. Here it is, to keep:",
                    file=discord.File(io.BytesIO(story.encode()), filename="story.md"),
                    allowed_mentions=NO_PINGS,
                )

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
            msg = await asyncio.to_thread(ui.table_message, change.table)
            await made.send(**msg.send_kwargs(), allowed_mentions=NO_PINGS)
            return await interaction.response.send_message(f"The table is open in {made.mention}.",
                                                           ephemeral=True)
        try:
            change = await self.service.new_table(channel_id, interaction.guild_id, actor_of(interaction), game, options)
        except TableError as e:
            return await refuse(interaction, str(e))
        await self.send_table(interaction, change, edit=False)

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

    @game.command(name="status", description="Post the table again.")
    async def status(self, interaction: discord.Interaction) -> None:
        try:
            table = await self.service.require(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        msg = await asyncio.to_thread(ui.table_message, table)
        await interaction.response.send_message(**msg.send_kwargs(), allowed_mentions=NO_PINGS)

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
        await self.send_table(interaction, change, edit=False)

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
            if kind == "sh":
                table = await self.service.require(interaction.channel_id)
                msg = await asyncio.to_thread(ui.table_message, table)
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
            if kind == ui.CONFIRM:
                return await self.play(interaction, " ".join(tokens), via="button", table=tid, opened=rev)
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
        msg = await asyncio.to_thread(ui.table_message, table)
        kw = msg.send_kwargs()
        kw["content"] = STALE_LINK
        if interaction.response.is_done():
            await interaction.followup.send(**kw, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(**kw, ephemeral=True, allowed_mentions=NO_PINGS)

    async def _table_action(self, interaction: discord.Interaction, kind: str, tid: str | None, rev: int | None) -> None:
        """Lobby and table buttons (and their slash commands): join, leave, start, cancel, concede,
        skip, remove, rematch, new game. A button names its table and revision and is refused
        when either has moved on."""
        actor = actor_of(interaction, self.bot.owner_ids)
        ch = interaction.channel_id
        if tid is not None:
            table = await self.service.require(ch)
            if ui.table_key(table) != tid or (rev is not None and table.revision != rev):
                return await self.refuse_stale(interaction)
        fns = {"jn": self.service.join, "lv": self.service.leave, "st": self.service.start,
               "cx": self.service.cancel, "cc": self.service.leave, "sk": self.service.skip,
               "rv": self.service.remove, "ab": self.service.add_bot}
        try:
            if kind in fns:
                kw = {"revision": rev} if rev is not None and kind not in ("lv", "cc") else {}
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
        edit = tid is not None and kind not in ("rm", "ng")
        await self.send_table(interaction, change, edit=edit)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        try:
            table = await self.service.require(interaction.channel_id)
        except TableError as e:
            return await refuse(interaction, str(e))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return await refuse(interaction, "You are not playing at this table; the public table is all there is "
                                             "to see (press **Show table**).")
        if table.status != "playing":
            return await refuse(interaction, "There is no game in progress at this table.")
        game = load_game(table)
        drafts = ui.Drafts()
        head, embed, view = ui.seat_message(table, game, seat, drafts)
        await self.service.save_drafts(drafts, table, seat, game.opened_at(seat))
        await interaction.response.send_message(head, embed=embed, view=view, ephemeral=True,
                                                allowed_mentions=NO_PINGS)

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
            await interaction.response.edit_message(content=text, embed=None, view=view)
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
                   opened: int | None = None) -> None:
        """Apply a move and show the result. Private steps answer the mover privately."""
        if via != "button" and not await self.service.first_delivery(interaction.id):
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
        msg_is_ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        secret = change.secret
        if via == "button" and not msg_is_ephemeral and not secret:
            return await self.send_table(interaction, change, edit=True)
        if not (secret or msg_is_ephemeral or via == "modal"):
            return await self.send_table(interaction, change, edit=False)
        done = "Done: " + clip(pretty_text(move), 1800) if not secret else "Done."
        if via == "button" and msg_is_ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(content=done, embed=None, view=None)
        elif not interaction.response.is_done():
            await interaction.response.send_message(done, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.followup.send(done, ephemeral=True, allowed_mentions=NO_PINGS)
        await self.send_table(interaction, change, edit=False)

    async def _in_time(self, interaction: discord.Interaction, work: "asyncio.Future[Change]") -> Change:
        """Wait for the work; if it takes longer than Discord's 3 s allows, defer first so the
        player is told what happened instead of "This interaction failed". A deferred answer is
        private exactly when the mover's decision is (a secret choice is never shown)."""
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            private = True
            table = await self.service.get(interaction.channel_id)
            seat = table.seat_of(interaction.user.id) if table and table.state else None
            if seat is not None and table is not None and table.status == "playing":
                decision = load_game(table).decision_of(seat)
                private = decision is None or not decision.public
            await interaction.response.defer(ephemeral=private, thinking=interaction.message is None)
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
        posted. The table itself is not reposted: ``change.table`` is the table after the change."""
        told = 0
        for change in await self.service.check_timeouts():
            notice = change.notice
            if notice is None:
                continue
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


