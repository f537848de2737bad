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

from bot.engine.levels import LEVEL_NAMES
from bot.render.panel import clip
from bot.render.standings import Line, standings_png
from bot.tables.tournaments import TournamentView
from bot.ui.components import Sent, first_delivery
from bot.ui.payloads import COLOUR, name

PREFIX = "dht"
JOIN, LEAVE, START, CANCEL, DROP = "jn", "lv", "st", "cx", "dr"
KINDS = (JOIN, LEAVE, START, CANCEL, DROP)
FORMAT_NAMES = {"swiss": "Swiss", "elimination": "single elimination", "tables": "rounds of tables"}


def custom_id(tid: int, kind: str) -> str:
    return f"{PREFIX}:{tid}:{kind}"


TEMPLATE = re.compile(rf"{PREFIX}:(?P<tid>\d+):(?P<kind>[a-z]+)")


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """Every tournament button: the Tournaments cog answers it."""

    def __init__(self, tid: int, kind: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(discord.ui.Button(label=label or kind, style=style, custom_id=custom_id(tid, kind)))
        self.tid, self.kind = tid, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(int(match["tid"]), match["kind"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Tournaments")  # type: ignore[attr-defined]
        await cog.on_button(interaction, self.tid, self.kind)  # type: ignore[union-attr]


def _hours(seconds: int) -> str:
    return f"{seconds // 3600} h" if seconds % 3600 == 0 else f"{seconds // 60} min"


def _record(s: Any) -> str:
    return f"{s.wins}–{s.draws}–{s.losses}"


def tournament_embed(v: TournamentView) -> discord.Embed:
    fmt = FORMAT_NAMES.get(v.format, v.format)
    size = "" if v.size == 2 else f", tables of {v.size}"
    embed = discord.Embed(title=clip(f"{v.title} tournament — {fmt}{size}", 256), colour=COLOUR)
    lines = [f"Organiser: {name(v.organiser)}",
             f"Rounds: {v.rounds_planned or 'set at the start'} of {_hours(v.round_seconds)}; a table still playing "
             f"at a round's end is settled as " + ("a win for the player ahead" if v.settle == "ahead" else "a draw")
             + "."]
    if v.fill:
        lines.append("Built-in players fill short tables.")
    if v.fill or any(u < 0 for u, _, _ in v.entrants):
        lines.append(f"Built-in players play at the {LEVEL_NAMES.get(v.bot_level, v.bot_level)} level.")
    if v.status == "signup":
        lines.append("**Sign-up is open**: press **Join**. " + (f"It starts <t:{int(v.starts_at)}:R>, or when the "
                                                               "organiser presses **Start**." if v.starts_at else
                                                               "The organiser presses **Start** to begin."))
    elif v.status == "running":
        ends = f", ends <t:{int(v.round_ends)}:R>" if v.round_ends else ""
        lines.append(f"**Round {v.round} of {v.rounds_planned}**{ends}. **Drop out** leaves the tournament "
                     "(a table still playing is a forfeit).")
    elif v.status == "finished":
        winner = v.standings[0].name if v.standings else "?"
        lines.append(f"**Finished.** The winner: **{name(winner)}**.")
    else:
        lines.append("**Cancelled.**")
    embed.description = "\n".join(lines)
    players = [name(n) + (" (dropped)" if dropped else "") for _, n, dropped in v.entrants]
    embed.add_field(name=f"Players ({len(players)})", value=clip(", ".join(players) or "nobody yet", 1024), inline=False)
    if v.status == "running" and v.boards:
        rows = []
        for b in v.boards:
            who = " v ".join(name(p) for p in b.players)
            where = f" — <#{b.channel_id}>" if b.channel_id and b.channel_id > 0 and not b.done else ""
            rows.append(f"{who}{where}" + (f" — {b.result}" if b.result else ""))
        embed.add_field(name=f"Round {v.round} tables", value=clip("\n".join(rows), 1024), inline=False)
    embed.set_footer(text=f"tournament {v.id}")
    return embed


def tournament_view(v: TournamentView) -> discord.ui.View | None:
    view = Sent()
    if v.status == "signup":
        view.add_item(TournamentButton(v.id, JOIN, "Join", discord.ButtonStyle.success))
        view.add_item(TournamentButton(v.id, LEAVE, "Leave"))
        view.add_item(TournamentButton(v.id, START, "Start", discord.ButtonStyle.primary))
        view.add_item(TournamentButton(v.id, CANCEL, "Cancel", discord.ButtonStyle.danger))
    elif v.status == "running":
        view.add_item(TournamentButton(v.id, DROP, "Drop out", discord.ButtonStyle.danger))
    else:
        return None
    return view


def message_kwargs(v: TournamentView, *, edit: bool = False) -> dict[str, Any]:
    """The tournament message's content; an edit takes the buttons away once they are no use."""
    view = tournament_view(v)
    if view is None and not edit:
        return {"embed": tournament_embed(v)}
    return {"embed": tournament_embed(v), "view": view}


def standings_lines(v: TournamentView) -> list[Line]:
    out = []
    place = 0
    last: tuple[float, float] | None = None
    for k, s in enumerate(v.standings):
        key = (s.points, s.buchholz)
        if key != last:
            place = k + 1
            last = key
        note = "dropped" if s.dropped else "out" if getattr(s, "out", False) and v.format == "elimination" else ""
        out.append(Line(place, s.name, s.points, s.buchholz, _record(s), note))
    return out


def standings_text(v: TournamentView, lines: list[Line]) -> str:
    rows = [f"{'#':>2}  {'Player':<24} {'Pts':>4} {'Bch':>5}  W-D-L"]
    for ln in lines[:30]:
        rows.append(f"{ln.place:>2}  {clip(ln.name + (' (' + ln.note + ')' if ln.note else ''), 24):<24} "
                    f"{ln.points:>4g} {ln.buchholz:>5g}  {ln.record.replace('–', '-')}")
    body = "\n".join(r.replace("`", "'") for r in rows)
    return clip(f"```\n{body}\n```", 4000)


async def standings_payload(v: TournamentView, round_no: int, final: bool) -> dict[str, Any]:
    """The standings after ``round_no``: an embed holding the table and the picture attached."""
    lines = standings_lines(v)
    title = f"{v.title} tournament — " + ("final standings" if final else f"standings after round {round_no}")
    fmt = FORMAT_NAMES.get(v.format, v.format)
    subtitle = f"{fmt} · round {round_no} of {v.rounds_planned} · {len(v.entrants)} players"
    png = await asyncio.to_thread(standings_png, title, subtitle, lines, final=final)
    embed = discord.Embed(title=clip(title, 256), description=standings_text(v, lines), colour=COLOUR)
    if final and lines:
        embed.add_field(name="Winner", value=name(lines[0].name), inline=False)
    embed.set_image(url="attachment://standings.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(png), filename="standings.png")}
