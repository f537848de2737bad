"""``/game rating [game] [player]`` and the rating lines of a lobby and of a game's end: plain
functions the table cog calls (the numbers come from ``bot.ratings``; see it for what they mean).

* :func:`rating` answers the command, privately: a game and no player is that game's leaderboard
  (players with at least ``MIN_GAMES`` games) with the caller's own line under it; otherwise the
  player's (default: the caller's) rating in that game or in every game rated here.
* :func:`lobby_lines`: each seated player's rating in the table's game, for the lobby message.
* :func:`change_lines`: what a finished game did, ``Ana 1,212 → 1,236 (+24)`` a person.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.registry import GAME_IDS, spec
from bot.i18n import Words, language_of, words
from bot.render.panel import plain
from bot.ratings import MIN_GAMES, NEW, PlayerRating, RatingChange, bot_skill, display, is_bot
from bot.ui.text import COLOUR, NO_PINGS

BOARD_SIZE = 10
NAME_LIMIT = 40


def name_text(name: str) -> str:
    """A user's name as Discord shows it literally (markdown escaped, cut to a sensible length)."""
    name = " ".join(name.split())
    name = name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"
    return plain(name)


EN = words("en")


def number(value: int, w: Words = EN) -> str:
    return f"{value:,}" if w.english else w.num(value)


def signed(value: int, w: Words = EN) -> str:
    return f"+{number(value, w)}" if value > 0 else f"−{number(-value, w)}" if value < 0 else "±0"


def title_of(game: str) -> str:
    try:
        return spec(game).title
    except KeyError:
        return game


def rating_line(r: PlayerRating, w: Words = EN) -> str:
    """``1,236 · 14 games · last game +24``."""
    games = w.n("{n} game", "{n} games", r.games)
    return f"{number(display(r.mu, r.sigma), w)} · {games} · " + w.t("last game {change}", change=signed(r.last_change, w))


# ----- the command ----------------------------------------------------------------------------
async def rating_embed(store: Any, guild_id: int, user_id: int, user_name: str,
                       game: str | None = None, w: Words = EN) -> discord.Embed:
    """A player's rating in ``game`` (with their place on its leaderboard), or in every game."""
    rows = await store.player_ratings(guild_id, user_id, game)
    who = name_text(user_name)
    if game is not None:
        embed = discord.Embed(title=w.t("{title} — rating", title=title_of(game)), colour=COLOUR)
        if not rows:
            embed.description = w.t("**{who}** has no rating in {title} here yet: a new player starts at {start}, and "
                                    "every finished game with two or more players counts.", who=who, title=title_of(game),
                                    start=number(NEW.display, w))
            return embed
        place = await store.rating_place(guild_id, game, user_id, MIN_GAMES)
        where = (w.t("#{place} on the leaderboard", place=place) if place is not None
                 else w.n("on the leaderboard after {n} game", "on the leaderboard after {n} games", MIN_GAMES))
        embed.description = f"**{who}** — {rating_line(rows[0], w)} · {where}"
    else:
        embed = discord.Embed(title=w.t("Ratings"), colour=COLOUR)
        if not rows:
            embed.description = w.t("**{who}** has no rating here yet: a new player starts at {start}, and every "
                                    "finished game with two or more players counts.", who=who, start=number(NEW.display, w))
            return embed
        embed.description = f"**{who}**\n" + "\n".join(f"{title_of(r.game)}: {rating_line(r, w)}" for r in rows)
    embed.set_footer(text=w.t("A cautious estimate of skill (μ − 3σ): it rises as you win and as your games make it "
                              "surer."))
    return embed


async def leaderboard_embed(store: Any, guild_id: int, game: str, user_id: int | None = None,
                            user_name: str = "", w: Words = EN) -> discord.Embed:
    """The best ratings of ``game`` here (at least ``MIN_GAMES`` games), and the caller's own line
    under it when they are not among those shown."""
    board = await store.leaderboard(guild_id, game, MIN_GAMES, BOARD_SIZE)
    embed = discord.Embed(title=w.t("{title} — leaderboard", title=title_of(game)), colour=COLOUR,
                          description=w.t("Ranked by rating; players with at least {least} rated games.", least=MIN_GAMES))
    if not board:
        embed.description = w.t("Nobody has {least} rated games of {title} here yet.", least=MIN_GAMES, title=title_of(game))
    else:
        lines = [f"{i}. **{name_text(r.name)}** — {rating_line(r, w)}" for i, r in enumerate(board, start=1)]
        embed.add_field(name=w.t("Leaderboard"), value="\n".join(lines)[:1024], inline=False)
    if user_id is not None and all(r.user_id != user_id for r in board):
        mine = await store.player_ratings(guild_id, user_id, game)
        if mine:
            place = await store.rating_place(guild_id, game, user_id, MIN_GAMES)
            head = f"#{place}" if place is not None else w.t("not ranked yet ({least} games needed)", least=MIN_GAMES)
            embed.add_field(name=w.t("You"), value=f"{head}: **{name_text(mine[0].name or user_name)}** — "
                                                   f"{rating_line(mine[0], w)}"[:1024], inline=False)
    return embed


async def rating(store: Any, interaction: discord.Interaction, game: str | None = None,
                 player: discord.abc.User | None = None) -> None:
    """``/game rating [game] [player]``, answered privately (an ephemeral embed)."""
    w = words(language_of(interaction.locale))  # a private answer: the reader's own language
    if interaction.guild_id is None:
        return await interaction.response.send_message(
            w.t("Ratings are kept per server: games in DMs are not rated. Ask in a server channel."), ephemeral=True)
    if game is not None and game not in GAME_IDS:
        return await interaction.response.send_message(w.t("There is no game called {name}.", name=plain(game[:60])),
                                                       ephemeral=True, allowed_mentions=NO_PINGS)
    if game is not None and player is None:
        embed = await leaderboard_embed(store, interaction.guild_id, game, interaction.user.id,
                                        interaction.user.display_name, w)
    else:
        who = player or interaction.user
        embed = await rating_embed(store, interaction.guild_id, who.id, who.display_name, game, w)
    await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


# ----- lines for the table messages -----------------------------------------------------------
async def lobby_lines(store: Any, table: Any) -> list[str]:
    """Each seated player's rating in the table's game, in seat order (``Ana — 1,212 (14 games)``,
    ``Ben — new (1,000)``, a bot's fixed strength); none where the game is not rated (a DM, a
    game for one, the daily challenge). ``table``: a table's public facts (guild_id, game, daily,
    seats with user_id and name)."""
    if table.guild_id is None or table.daily or spec(table.game).max_players < 2:
        return []
    people = [s.user_id for s in table.seats if not is_bot(s.user_id)]
    stored = await store.ratings(table.guild_id, table.game, people) if people else {}
    w = words(getattr(table, "lang", "en"))  # the lobby's: the table's language
    lines = []
    for s in table.seats:
        who = name_text(s.name)
        if is_bot(s.user_id):
            fixed = number(bot_skill(table.game).display, w)
            lines.append(f"{who} — " + w.t("{rating} (built-in player, fixed)", rating=fixed))
        elif s.user_id in stored:
            r = stored[s.user_id]
            games = w.n("{n} game", "{n} games", r.games)
            lines.append(f"{who} — {number(display(r.mu, r.sigma), w)} ({games})")
        else:
            lines.append(f"{who} — " + w.t("new ({rating})", rating=number(NEW.display, w)))
    return lines


def change_lines(changes: Sequence[RatingChange], lang: str = "en") -> str:
    """The end-of-game line of each person's change, one a line: ``Ana 1,212 → 1,236 (+24)``
    (empty when the game was not rated); numbers as ``lang`` writes them."""
    w = words(lang)
    return "\n".join(f"{name_text(c.name)} {number(c.before, w)} → {number(c.after, w)} ({signed(c.delta, w)})"
                     for c in changes)
