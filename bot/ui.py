"""Discord presentation: panels → embeds, table messages, move pickers.

Buttons and selects carry everything they need in their custom_id (``dh:<revision>:
<action>:<argument>``), so they work after a restart: the cog rebuilds the table
from the store. Moves are offered one token at a time from the prefix tree of the
seat's legal moves (see :func:`next_steps`).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import game_class
from bot.engine.base import Game
from bot.engine.cards import names_any, pretty_text
from bot.render import renderer
from bot.render import story
from bot.render.panel import Panel, clip
from bot.store import TableRow
from bot.tables import format_duration, load_game

CUSTOM_ID_MAX = 100
MOVE_BUTTONS_MAX = 20  # 4 rows of 5; the last row is for table buttons
BUTTON_LABEL_MAX = 80
END = "✓"  # the picker's token meaning "this prefix is the whole move"


def embed_from_panel(panel: Panel) -> discord.Embed:
    embed = discord.Embed(title=clip(panel.title, 256), description=clip(panel.description, 4096) or None,
                          colour=panel.colour)
    for name, value, inline in panel.fields[:25]:
        embed.add_field(name=clip(name, 256), value=clip(value or "—", 1024), inline=inline)
    if panel.footer:
        embed.set_footer(text=clip(panel.footer, 2048))
    return embed


def cid(rev: int, act: str, arg: str = "") -> str:
    return f"dh:{rev}:{act}:{arg}"


def fits(rev: int, act: str, arg: str) -> bool:
    return len(cid(rev, act, arg)) <= CUSTOM_ID_MAX


# ----- the prefix tree of legal moves ---------------------------------------------------
@dataclass(frozen=True)
class Step:
    token: str  # the next token, or END
    move: str | None  # the whole move when this step completes one
    count: int  # how many legal moves lie behind this step


def next_steps(legal: list[str], prefix: list[str]) -> list[Step]:
    """The choices after ``prefix``: each next token (in first-seen order) and END if complete."""
    steps: dict[str, list[str]] = {}
    complete = False
    n = len(prefix)
    for move in legal:
        tokens = move.split()
        if tokens[:n] != prefix:
            continue
        if len(tokens) == n:
            complete = True
            continue
        steps.setdefault(tokens[n], []).append(move)
    out = [Step(END, " ".join(prefix), 1)] if complete else []
    for token, moves in steps.items():
        single = moves[0] if len(moves) == 1 else None
        out.append(Step(token, single, len(moves)))
    return out


def step_label(game: Game, seat: int, prefix: list[str], step: Step) -> str:
    if step.move is not None:
        label = game.describe(seat, step.move)
    else:
        label = " ".join([*prefix, step.token]) + " …"
    return clip(pretty_text(label), BUTTON_LABEL_MAX)


def move_items(game: Game, seat: int, rev: int, limit: int = MOVE_BUTTONS_MAX) -> list[discord.ui.Item]:
    """Buttons for a seat's moves: whole moves where they fit, else a button per first token."""
    legal = game.legal_moves(seat)
    items: list[discord.ui.Item] = []
    groups = next_steps(legal, [])
    expanded: set[str] = set()
    total = len(groups)
    for g in groups:  # expand groups in order while everything still fits
        if g.move is None and total - 1 + g.count <= limit and all(fits(rev, "mv", m) for m in legal
                                                                    if m.split()[0] == g.token):
            expanded.add(g.token)
            total += g.count - 1
    for g in groups:
        if g.move is not None or g.token in expanded:
            moves = [g.move] if g.move is not None else [m for m in legal if m.split()[0] == g.token]
            for m in moves:
                if not fits(rev, "mv", m):
                    continue
                items.append(discord.ui.Button(label=clip(pretty_text(game.describe(seat, m)), BUTTON_LABEL_MAX),
                                               style=_style(m), custom_id=cid(rev, "mv", m)))
        else:
            items.append(discord.ui.Button(label=clip(f"{g.token.capitalize()} … ({g.count})", BUTTON_LABEL_MAX),
                                           style=discord.ButtonStyle.primary, custom_id=cid(rev, "pf", g.token)))
    for p in game.prompts(seat):
        items.append(discord.ui.Button(label=clip(f"✍ {p.label}", BUTTON_LABEL_MAX), style=discord.ButtonStyle.success,
                                       custom_id=cid(rev, "tx", p.verb)))
    return items[:limit + 5]


def _style(move: str) -> discord.ButtonStyle:
    verb = move.split()[0]
    if verb in ("concede", "resign", "abandon"):
        return discord.ButtonStyle.danger
    if verb in ("draw", "defend", "flip", "play"):
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def picker_view(game: Game, seat: int, rev: int, prefix: list[str]) -> tuple[str, discord.ui.View]:
    """An ephemeral step of the move picker: the choices after ``prefix``."""
    steps = next_steps(game.legal_moves(seat), prefix)
    view = discord.ui.View(timeout=None)
    if not steps:
        return "That choice is no longer available.", view
    base = " ".join(prefix)
    if len(steps) <= MOVE_BUTTONS_MAX:
        for s in steps:
            whole = base if s.token == END else s.move
            if whole is not None and fits(rev, "mv", whole):
                button = discord.ui.Button(label=step_label(game, seat, prefix, s) if s.token != END
                                           else clip(pretty_text(game.describe(seat, base)), BUTTON_LABEL_MAX),
                                           style=discord.ButtonStyle.success, custom_id=cid(rev, "mv", whole))
            else:
                button = discord.ui.Button(label=step_label(game, seat, prefix, s), style=discord.ButtonStyle.primary,
                                           custom_id=cid(rev, "pf", f"{base} {s.token}".strip()))
            view.add_item(button)
    else:
        select = discord.ui.Select(custom_id=cid(rev, "pk", base), placeholder="Choose…", min_values=1, max_values=1)
        for s in steps[:25]:
            select.add_option(label=step_label(game, seat, prefix, s), value=s.token)
        view.add_item(select)
    return f"**{pretty_text(base)}** — choose:", view


# ----- whole table messages -------------------------------------------------------------
@dataclass
class TableMessage:
    embed: discord.Embed
    view: discord.ui.View
    files: list[discord.File]
    content: str | None = None

    def send_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"embed": self.embed, "view": self.view}
        if self.files:
            kw["files"] = self.files
        if self.content:
            kw["content"] = self.content
        return kw

    def edit_kwargs(self) -> dict[str, Any]:
        return {"embed": self.embed, "view": self.view, "attachments": self.files, "content": self.content}


def lobby_message(table: TableRow) -> TableMessage:
    cls = game_class(table.game)
    seats = "\n".join(f"{i + 1}. <@{s.user_id}>{' (host)' if s.user_id == table.host_id else ''}"
                      for i, s in enumerate(table.seats))
    panel = Panel(title=f"{cls.title} — lobby",
                  description=f"{cls.min_players}–{cls.max_players} players. Press **Join** to sit down; "
                              "the host starts the game.")
    panel.add(f"Seats ({len(table.seats)}/{cls.max_players})", seats or "—")
    panel.add("Options", ", ".join(table.options) or "the rulebook's defaults", True)
    panel.add("Turn limit", format_duration(table.turn_limit), True)
    panel.footer = f"{cls.credit} · table rev {table.revision}"
    view = discord.ui.View(timeout=None)
    rev = table.revision
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=cid(rev, "jn")))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=cid(rev, "lv")))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary, custom_id=cid(rev, "st"),
                                    disabled=len(table.seats) < cls.min_players))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, custom_id=cid(rev, "cx")))
    return TableMessage(embed_from_panel(panel), view, [])


def table_message(table: TableRow, *, with_picture: bool = True) -> TableMessage:
    """The public table: the public view's panel, its picture, and the buttons."""
    if table.status == "lobby":
        return lobby_message(table)
    game = load_game(table)
    render = renderer(table.game)
    public = game.view(None)
    panel = render.panel(public)
    shown = public_events(table, game)[-4:]
    if shown:
        recent = "\n".join(pretty_text(e) for e in shown)
        panel.description = clip(f"{recent}\n\n{panel.description}".strip(), 4096)
    status = {"playing": "", "finished": " · game over", "abandoned": " · abandoned"}[table.status]
    panel.footer = clip(f"{panel.footer + ' · ' if panel.footer else ''}table rev {table.revision}{status}", 2048)
    embed = embed_from_panel(panel)
    files: list[discord.File] = []
    if with_picture:
        png = render.picture(public)
        if png:
            files.append(discord.File(io.BytesIO(png), filename="table.png"))
            embed.set_image(url="attachment://table.png")
    view = discord.ui.View(timeout=None)
    rev = table.revision
    if table.status == "playing":
        actors = sorted(game.to_act())
        if not game.secret_moves and len(actors) == 1:
            for item in move_items(game, actors[0], rev):
                view.add_item(item)
        bottom: list[discord.ui.Item] = []
        if game.secret_moves or len(actors) > 1 or len(table.seats) > 1:
            label = "My hand / act" if game.secret_moves else "My view"
            bottom.append(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=cid(rev, "me")))
        bottom.append(discord.ui.Button(label="Show table", style=discord.ButtonStyle.secondary,
                                        custom_id=cid(rev, "sh")))
        if len(table.seats) == 1 and not any(m.split()[0] == "concede" for m in game.legal_moves(0)):
            # The rulebook's concede is for an exhausted deck; giving up earlier is a forfeit (a loss).
            bottom.append(discord.ui.Button(label="Concede", style=discord.ButtonStyle.danger, custom_id=cid(rev, "lv")))
        if table.timed_out:
            bottom.append(discord.ui.Button(label="Skip late player", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(rev, "sk")))
            bottom.append(discord.ui.Button(label="Remove late player", style=discord.ButtonStyle.danger,
                                            custom_id=cid(rev, "rv")))
        _add_rows(view, bottom)
    else:
        if len(table.seats) == 1:
            view.add_item(discord.ui.Button(label="New game", style=discord.ButtonStyle.success, custom_id=cid(rev, "ng")))
        elif table.status == "finished":
            view.add_item(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id=cid(rev, "rm")))
        if hasattr(render, "story"):
            view.add_item(discord.ui.Button(label="Story file", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(rev, "sf")))
    return TableMessage(embed, view, files)


def public_events(table: TableRow, game: Game | None = None) -> list[str]:
    """The table's recent public events, less any line naming a card that is hidden now.

    An event was public when it happened, but a card revealed then may be hidden again
    later (Celestial Emperor's duel cards once they may have gone into a trick).
    """
    if table.state is None:
        return list(table.events)
    game = game or load_game(table)
    hidden = game.hidden_cards(None)
    return [e for e in table.events if not hidden or not names_any(e, hidden)]


def _add_rows(view: discord.ui.View, items: list[discord.ui.Item]) -> None:
    used = len(view.children)
    free = 25 - used
    for item in items[:free]:
        view.add_item(item)


def seat_message(table: TableRow, game: Game, seat: int) -> tuple[str, discord.Embed, discord.ui.View]:
    """A seat's private message: its view (hand), and its moves when it may act."""
    render = renderer(table.game)
    view_data = game.view(seat)
    if hasattr(render, "hand_text"):
        panel = Panel(title=f"Your hand — {game.title}", description=render.hand_text(view_data))
    else:
        panel = render.panel(view_data)
        panel.title = f"Your view — {panel.title}"
    panel.footer = (f"{game.title} in this channel, hosted by {table.seats[0].name if table.seats else '?'} · "
                    f"rev {table.revision} · press the button or /game hand again any time")
    view = discord.ui.View(timeout=None)
    where = f"<#{table.channel_id}>"
    if seat in game.to_act():
        for item in move_items(game, seat, table.revision):
            if len(view.children) < 25:
                view.add_item(item)
        head = f"Your hand at the {game.title} table in {where}. Your move — only you can see this."
    else:
        head = f"Your hand at the {game.title} table in {where}. Not your move right now: {game.waiting_for()}"
    return head, embed_from_panel(panel), view


def story_markdown(table: TableRow, game: Game) -> str | None:
    """The story told at this table as Markdown, or None for a game without one."""
    render = renderer(table.game)
    if not hasattr(render, "story"):
        return None
    cast, entries = render.story(game.view(None))
    outcome = game.outcome()
    ending = outcome.summary if outcome else "The story was left unfinished."
    return story.markdown(game.title, list(game.players), cast, entries, ending)


def record_file(record: dict[str, Any], name: str) -> discord.File:
    data = json.dumps(record, indent=1, ensure_ascii=False).encode()
    return discord.File(io.BytesIO(data), filename=name)
