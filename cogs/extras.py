"""``/game hint`` and ``/game daily``: the logic behind two thin commands of the table cog.

A hint is the built-in player's choice for the seat to act, with its reason, privately. The
daily challenge deals the day's Gridcannon (the same deck for everyone, from the UTC date) at
a table in the player's DMs, one attempt a day, and keeps a leaderboard of the day.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.words import say
from bot.i18n import Words, language_of, words
from bot.engine.registry import spec
from bot.render.panel import clip
from bot.tables import DAILY_GAME, TableError
from bot.tables.daily import DailyEntry
from bot.ui.payloads import name
from bot.ui.placement import render

if TYPE_CHECKING:
    from cogs.tables import Tables

BOARD_SIZE = 10


async def hint(cog: "Tables", interaction: discord.Interaction) -> None:
    """What the built-in player would do for the caller's seat now, and why; only to that player."""
    from cogs.tables import NO_PINGS, refuse

    try:
        sentence = await cog.desk.hint(interaction.channel_id, interaction.user.id)
    except TableError as e:
        return await refuse(interaction, str(e))
    said = words(language_of(interaction.locale)).line(sentence)  # the reader's own language
    await interaction.response.send_message(f"💡 {clip(said, 1900)}", ephemeral=True, allowed_mentions=NO_PINGS)


async def daily(cog: "Tables", interaction: discord.Interaction, leaderboard: bool = False) -> None:
    """Deal today's challenge in the caller's DMs (once a day), or show today's leaderboard."""
    from cogs.tables import NO_PINGS, actor_of, refuse

    desk = cog.desk
    w = words(language_of(interaction.locale))  # the player's own language (the deal is in our DMs)
    if leaderboard:
        embed = board_embed(await desk.daily_board(), interaction.user.id, desk.today(), w)
        return await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)
    try:
        dm = await interaction.user.create_dm()
    except discord.HTTPException:
        return await refuse(interaction, say("I cannot open a DM with you; allow direct messages from this app and try "
                                         "again."))
    try:
        update = await desk.start_daily(dm.id, actor_of(interaction))
    except TableError as e:
        mine = await desk.daily_attempt(interaction.user.id)
        if mine is None or mine.finished_at is None:
            return await refuse(interaction, str(e))
        # Played already: say so, with how it went and the day's board.
        embed = board_embed(await desk.daily_board(), interaction.user.id, mine.day, w)
        said = w.say(str(e)) + " " + w.t("Yours: {result}.", result=result_text(mine, w))
        return await interaction.response.send_message(clip(said, 1900), embed=embed,
                                                       ephemeral=True, allowed_mentions=NO_PINGS)
    msg = await render(update.public)  # its picture drawn off the loop, like every table message
    day = update.table.daily or ""
    intro = w.t("**Daily challenge — {day}.** Everyone gets this same deal today and has one attempt; the "
                "leaderboard ranks a win by its score, then by time from this deal. {command} shows it.", day=day,
                command="`/game daily leaderboard:True`")
    if interaction.channel_id == dm.id:
        kw = msg.send_kwargs()
        kw["content"] = intro
        sent = await interaction.response.send_message(**kw, allowed_mentions=NO_PINGS)
        if sent.message_id is not None:
            await cog.place.remember(dm.id, sent.message_id)  # the deal is the table message, edited by every move
        return
    kw = msg.send_kwargs()
    kw["content"] = intro
    try:
        posted = await dm.send(**kw, allowed_mentions=NO_PINGS)
    except discord.HTTPException:  # the deal was never seen: give the attempt back and close the table
        await desk.give_back_daily(dm.id, actor_of(interaction), day, update.table.key)
        return await refuse(interaction, say("I could not post the deal in your DMs (are messages from this app "
                                         "allowed?); your attempt for today is not used up."))
    await cog.place.remember(dm.id, posted.id)
    await interaction.response.send_message(w.t("Today's deal is waiting in our DMs: {link}", link=posted.jump_url),
                                            ephemeral=True,
                                            allowed_mentions=NO_PINGS)


def clock_text(seconds: float) -> str:
    """``754`` → ``"12:34"``; ``3754`` → ``"1:02:34"``."""
    s = max(0, round(seconds))
    h, m, sec = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def result_text(e: DailyEntry, w: Words | None = None) -> str:
    w = w or words("en")
    time_taken = clock_text(e.seconds or 0)
    if e.won:
        return w.t("won, score {score} — {time}", score=e.score, time=time_taken)
    if e.kills is not None:
        return w.n("lost, {n} royal killed — {time}", "lost, {n} royals killed — {time}", e.kills, time=time_taken)
    return w.t("lost — {time}", time=time_taken)


def board_embed(board: list[DailyEntry], user_id: int, day: str, w: Words | None = None) -> discord.Embed:
    """The day's leaderboard, in ``w``'s language (its reader's)."""
    w = w or words("en")
    title = spec(DAILY_GAME).title
    embed = discord.Embed(title=w.t("Daily {title} — {day}", title=title, day=day), colour=0x2F7D4F,
                          description=w.t("Wins first, by score (higher is better), then by time from the deal."))
    if not board:
        embed.description = w.t("Nobody has finished today's deal yet. {command} deals it to you.",
                                command="`/game daily`")
        return embed
    lines = [f"{i + 1}. **{name(clip(e.name, 40))}** — {result_text(e, w)}" for i, e in enumerate(board[:BOARD_SIZE])]
    mine = next((i for i, e in enumerate(board) if e.user_id == user_id), None)
    if mine is not None and mine >= BOARD_SIZE:
        lines.append(f"…\n{mine + 1}. **{name(clip(board[mine].name, 40))}** — {result_text(board[mine], w)}")
    embed.add_field(name=w.t("Leaderboard"), value=clip("\n".join(lines), 1024), inline=False)
    return embed
