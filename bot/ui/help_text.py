"""The words of the rules and stats answers (``/game rules``, ``/game stats``) in their reader's language:
the help on watching and on bots (with the buttons as that language labels them), how an option is
written, a player's record of one game, and a long text cut into messages."""

from __future__ import annotations

from typing import Any

from bot.engine.options import OptionInfo
from bot.i18n import Words


def watching_help(w: Words) -> str:
    """The rules answer's words on watching and replays, with the buttons as the reader's language labels them."""
    return w.t("{watch} follows a table from another channel (or, {private}, your DMs); a table in a DM has "
               "**{invite}**. A game's end message carries the whole game as an animation. {replay} steps through a "
               "finished game; **{share}** posts the step shown. Your panel says what happened since your last move; "
               "{pings} chooses when you are pinged.", watch="`/game watch table:`", private="`private:true`",
               invite=w.t("Invite a watcher"), replay="`/game replay [move:]`", share=w.t("Share this moment"),
               pings="`/game pings`")


def bots_help(w: Words) -> str:
    """The rules answer's words on bots, with the lobby's buttons as the reader's language labels them."""
    easy, normal, strong = (w.t("Add {level} bot", level=w.tp("bot level", level))
                            for level in ("Easy", "Normal", "Strong"))
    return w.t("In the lobby the host presses **{easy}**, **{normal}** or **{strong}** to seat a built-in player at "
               "that level (the lobby shows it beside the bot's name). Easy makes the mistakes a person makes, Normal "
               "is the everyday player, Strong thinks for about a second a move over the deals it cannot see. Every "
               "bot plays from its own seat's view only; {command} enters bots at a level.", easy=easy, normal=normal,
               strong=strong, command="`/tournament new bots: bot_level:`")


def usage(info: OptionInfo, w: Words) -> str:
    """How a variant or setting is written, in ``/game rules``: a variant by its name; a setting as
    ``name=<values> (default n)``."""
    if info.is_variant:
        return info.name
    return f"{info.written()} " + w.t("(default {value})", value=str(info.default))


def stats_line(r: dict[str, Any], w: Words) -> str:
    """A player's games of one kind: "5 played, 3 won, 1 lost, 1 shared"."""
    parts = [w.n("{n} played", "{n} played", r["played"]), w.n("{n} won", "{n} won", r["won"]),
             w.n("{n} lost", "{n} lost", r["lost"])]
    if r["drawn"]:
        parts.append(w.n("{n} shared", "{n} shared", r["drawn"]))
    return ", ".join(parts)


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
