"""Tournament payloads and buttons: the tournament's message (sign-up, then the round's tables),
the standings (a table and a picture), and the buttons Join, Leave, Start, Cancel, Drop out.

Buttons carry ``dht:<tournament>:<kind>`` and work after a restart (DynamicItems); what a press
may do is decided by the tournament service from the stored tournament, never by the message.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from bot.i18n import Words, words
from bot.render.panel import clip
from bot.render.standings import Line, standings_png
from bot.tables.clock import format_duration
from bot.tables.tournaments import TournamentView
from bot.ui.components import first_delivery, view_of
from bot.ui.payloads import COLOUR, level_word, name

PREFIX = "dht"
JOIN, LEAVE, START, CANCEL, DROP = "jn", "lv", "st", "cx", "dr"


def format_name(w: Words, fmt: str) -> str:
    said = {"swiss": w.tp("tournament format", "Swiss"), "elimination": w.t("single elimination"),
            "tables": w.t("rounds of tables")}
    return said.get(fmt, fmt)


TEMPLATE = re.compile(rf"{PREFIX}:(?P<tid>\d+):(?P<kind>[a-z]+)")


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """Every tournament button: the Tournaments cog answers it."""

    def __init__(self, tid: int, kind: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(discord.ui.Button(label=label or kind, style=style, custom_id=f"{PREFIX}:{tid}:{kind}"))
        self.tid, self.kind = tid, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(int(match["tid"]), match["kind"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Tournaments")  # type: ignore[attr-defined]
        await cog.on_button(interaction, self.tid, self.kind)  # type: ignore[union-attr]


def tournament_embed(v: TournamentView) -> discord.Embed:
    """The tournament's message, public: in the tournament's language."""
    w = words(v.lang)
    fmt = format_name(w, v.format)
    size = "" if v.size == 2 else w.t(", tables of {size}", size=v.size)
    embed = discord.Embed(title=clip(w.t("{title} tournament — {format}{size}", title=v.title, format=fmt, size=size),
                                     256), colour=COLOUR)
    settle = w.t("a win for the player ahead") if v.settle == "ahead" else w.t("a draw")
    lines = [w.t("Organiser: {name}", name=name(v.organiser)),
             w.t("Rounds: {rounds} of {hours}; a table still playing at a round's end is settled as {settle}.",
                 rounds=v.rounds_planned or w.t("set at the start"), hours=format_duration(v.round_seconds, days=False),
                 settle=settle)]
    if v.fill:
        lines.append(w.t("Built-in players fill short tables."))
    if v.fill or any(u < 0 for u, _, _ in v.entrants):
        lines.append(w.t("Built-in players play at the {level} level.", level=level_word(w, v.bot_level)))
    if v.status == "signup":
        lines.append(w.t("**Sign-up is open**: press **Join**.") + " " + (
            w.t("It starts {when}, or when the organiser presses **Start**.", when=f"<t:{int(v.starts_at)}:R>")
            if v.starts_at else w.t("The organiser presses **Start** to begin.")))
    elif v.status == "running":
        head = (w.t("**Round {round} of {rounds}**, ends {when}.", round=v.round, rounds=v.rounds_planned,
                    when=f"<t:{int(v.round_ends)}:R>") if v.round_ends
                else w.t("**Round {round} of {rounds}**.", round=v.round, rounds=v.rounds_planned))
        lines.append(head + " " + w.t("**Drop out** leaves the tournament (a table still playing is a forfeit)."))
    elif v.status == "finished":
        winner = v.standings[0].name if v.standings else "?"
        lines.append(w.t("**Finished.** The winner: **{name}**.", name=name(winner)))
    else:
        lines.append(w.t("**Cancelled.**"))
    embed.description = "\n".join(lines)
    players = [name(n) + (w.t(" (dropped)") if dropped else "") for _, n, dropped in v.entrants]
    embed.add_field(name=w.t("Players ({count})", count=len(players)),
                    value=clip(", ".join(players) or w.t("nobody yet"), 1024), inline=False)
    if v.status == "running" and v.boards:
        rows = []
        for b in v.boards:
            who = " v ".join(name(w.say(p)) for p in b.players)  # a fill-in named in the reader's language
            where = f" — <#{b.channel_id}>" if b.channel_id and b.channel_id > 0 and not b.done else ""
            rows.append(f"{who}{where}" + (f" — {w.say(b.result)}" if b.result else ""))
        embed.add_field(name=w.t("Round {round} tables", round=v.round), value=clip("\n".join(rows), 1024),
                        inline=False)
    embed.set_footer(text=w.t("tournament {id}", id=str(v.id)))
    return embed


def tournament_view(v: TournamentView) -> discord.ui.View | None:
    w = words(v.lang)
    if v.status == "signup":
        return view_of(TournamentButton(v.id, JOIN, w.tp("tournament button", "Join"), discord.ButtonStyle.success),
                       TournamentButton(v.id, LEAVE, w.tp("tournament button", "Leave")),
                       TournamentButton(v.id, START, w.tp("tournament button", "Start"), discord.ButtonStyle.primary),
                       TournamentButton(v.id, CANCEL, w.tp("tournament button", "Cancel"), discord.ButtonStyle.danger))
    if v.status == "running":
        return view_of(TournamentButton(v.id, DROP, w.tp("tournament button", "Drop out"), discord.ButtonStyle.danger))
    return None


def message_kwargs(v: TournamentView, *, edit: bool = False) -> dict[str, Any]:
    """The tournament message's content; an edit takes the buttons away once they are no use."""
    view = tournament_view(v)
    return {"embed": tournament_embed(v), "view": view} if view is not None or edit else {"embed": tournament_embed(v)}


def standings_lines(v: TournamentView, w: Words) -> list[Line]:
    out = []
    place = 0
    last: tuple[float, float] | None = None
    for k, s in enumerate(v.standings):
        if (s.points, s.buchholz) != last:  # a tie shares the place of the first of it
            place, last = k + 1, (s.points, s.buchholz)
        out_now = getattr(s, "out", False) and v.format == "elimination"
        note = w.t("dropped") if s.dropped else w.tp("tournament standing", "out") if out_now else ""
        out.append(Line(place, s.name, s.points, s.buchholz, f"{s.wins}–{s.draws}–{s.losses}", note))
    return out


def standings_text(v: TournamentView, lines: list[Line], w: Words) -> str:
    player, points = w.tp("standings column", "Player"), w.tp("standings column", "Pts")
    buchholz, record = w.tp("standings column", "Bch"), w.tp("standings column", "W-D-L")
    rows = [f"{'#':>2}  {player:<24} {points:>4} {buchholz:>5}  {record}"]
    for ln in lines[:30]:
        rows.append(f"{ln.place:>2}  {clip(ln.name + (' (' + ln.note + ')' if ln.note else ''), 24):<24} "
                    f"{ln.points:>4g} {ln.buchholz:>5g}  {ln.record.replace('–', '-')}")
    body = "\n".join(r.replace("`", "'") for r in rows)
    return clip(f"```\n{body}\n```", 4000)


async def standings_payload(v: TournamentView, round_no: int, final: bool, lang: str | None = None) -> dict[str, Any]:
    """The standings after ``round_no``: an embed holding the table and the picture attached; in ``lang``
    (a private answer: its reader's), else in the tournament's language (posted in its channel)."""
    w = words(lang or v.lang)
    lines = standings_lines(v, w)
    title = (w.t("{title} tournament — final standings", title=v.title) if final
             else w.t("{title} tournament — standings after round {round}", title=v.title, round=round_no))
    subtitle = w.n("{format} · round {round} of {rounds} · {n} player", "{format} · round {round} of {rounds} · {n} players",
                   len(v.entrants), format=format_name(w, v.format), round=round_no, rounds=v.rounds_planned)
    png = await asyncio.to_thread(standings_png, title, subtitle, lines, final=final, lang=w.lang)
    embed = discord.Embed(title=clip(title, 256), description=standings_text(v, lines, w), colour=COLOUR)
    if final and lines:
        embed.add_field(name=w.t("Winner"), value=name(lines[0].name), inline=False)
    embed.set_image(url="attachment://standings.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(png), filename="standings.png")}
