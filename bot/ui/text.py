"""The small pieces every payload is made of: limits, a line of the log and a name as players read
them (escaped, on one line), custom_ids, links, embeds from panels, pictures with their alt text.
Part of the one place payloads are made (``bot.ui.payloads`` re-exports it)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from bot.engine.cards import pretty_text
from bot.i18n import words
from bot.render import renderer
from bot.render.panel import Panel, clip, defuse_names, plain
from bot.tables.offers import SELECT_MAX  # noqa: F401 — a select's options at most, defined once
from bot.tables.reader import FORFEIT_TOKENS, Reader, TableFacts
from bot.ui.components import PREFIX, Kind

CUSTOM_ID_MAX = 100
LABEL_MAX = 80
BUTTONS_PER_ROW = 5
STEP_BUTTONS_MAX = BUTTONS_PER_ROW  # one row of buttons a step; more options go in a select (paged)
PUBLIC_MOVES_MAX = BUTTONS_PER_ROW  # at most one row of moves on the public table message
NO_PINGS = discord.AllowedMentions.none()
COLOUR = 0x2F7D4F


def hand_label(lang: str = "en") -> str:
    """The private panel's button, in ``lang``: one name in every phase and game (Court Wars has no hand)."""
    return words(lang).t("My view / act")

# Kinds as the short strings older messages carry (kept, so old buttons still parse).
STEP, SELECT, PAGE, TEXT, MODAL, CONFIRM = (Kind.STEP.value, Kind.SELECT.value, Kind.PAGE.value, Kind.TEXT.value,
                                            Kind.MODAL.value, Kind.CONFIRM.value)
SURE, SURE_MOVE, KEEP = Kind.SURE.value, Kind.SURE_MOVE.value, Kind.KEEP.value


# ----- small pieces ---------------------------------------------------------------------------
def line(text: str, lang: str = "en") -> str:
    """A line of the log as players read it (``lang``: an engine's phrase said in that language): card
    codes pretty, Markdown and mentions defused, on one line (a newline in a player's text cannot fake
    a line of the bot's own)."""
    said = pretty_text(text) if lang == "en" else words(lang).line(text)
    return plain(" ".join(said.split()))


def name(text: str) -> str:
    """A display name, escaped, on one line."""
    return plain(" ".join(str(text).split())) or "?"


def is_forfeit(tokens: tuple[str, ...] | list[str]) -> bool:
    """A move that gives the game up (a game's concede or resign)."""
    return bool(tokens) and tokens[0] in FORFEIT_TOKENS


def jump_url(table: TableFacts, message_id: int) -> str:
    """The link to a message of this table's channel (a DM has no guild)."""
    return f"https://discord.com/channels/{table.guild_id or '@me'}/{table.channel_id}/{message_id}"


def cid(tid: str, rev: int, kind: str, arg: str = "") -> str:
    return f"{PREFIX}:{tid}:{rev}:{kind}:{arg}"


def defused(panel: Panel, names: Sequence[str]) -> Panel:
    """The panel with every player's name in it escaped (renderers write names as they are)."""
    if not any(n and plain(n) != n for n in names):  # no name needs escaping
        return panel
    panel.title = defuse_names(panel.title, names)
    panel.description = defuse_names(panel.description, names)
    panel.fields = [(defuse_names(n, names), defuse_names(v, names), i) for n, v, i in panel.fields]
    panel.footer = defuse_names(panel.footer, names) if panel.footer else panel.footer
    return panel


def embed_from_panel(panel: Panel) -> discord.Embed:
    embed = discord.Embed(title=clip(panel.title, 256), description=clip(panel.description, 4096) or None,
                          colour=panel.colour)
    for field_name, value, inline in panel.fields[:25]:
        embed.add_field(name=clip(field_name, 256), value=clip(value or "—", 1024), inline=inline)
    if panel.footer:
        embed.set_footer(text=clip(panel.footer, 2048))
    return embed


def picture_file(png: bytes, filename: str, description: str = "") -> discord.File:
    """An attached picture with its description (alt text) in words."""
    return discord.File(io.BytesIO(png), filename=filename, description=clip(description, 1024) or None)


def alt_text(reader: Reader) -> str:
    """The table in words for screen readers: the game's own description, else its status."""
    r = renderer(reader.game)
    view = reader.view
    if view is None:
        return reader.title
    if r.alt_text is not None:
        return r.said("alt_text", view, reader.lang)
    head = f"{reader.title}. " + (reader.result or reader.waiting_for)
    return clip(pretty_text(head), 1000)

