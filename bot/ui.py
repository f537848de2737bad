"""Discord presentation: views → embeds, table messages, and pickers fed by ``choices``.

Every component's custom_id is ``dh2:<table>:<rev>:<kind>:<arg>``:

- ``<table>`` names the table (a new game in the same channel refuses the old one's buttons);
- ``<rev>`` is, for a move, the point at which the clicking seat's decision opened (another
  seat's answer in a simultaneous decision leaves it good), and for a lobby or table button the
  table's revision;
- ``<kind>`` is the action kind (one DynamicItem each, in ``cogs/tables.py``);
- ``<arg>`` is the action's tokens so far, or ``~<id>`` naming a stored draft when they do
  not fit in Discord's 100 characters.

Every label, option and line a recipient gets is made from that recipient's view and choices.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.registry import spec, with_article
from bot.engine.cards import pretty_text
from bot.render import renderer
from bot.render import story
from bot.render.panel import Panel, clip
from bot.store import TableRow
from bot.store.base import new_draft_id
from bot.tables import format_duration, load_game, table_key

CUSTOM_ID_MAX = 100
LABEL_MAX = 80
BUTTONS_PER_ROW = 5
STEP_BUTTONS_MAX = BUTTONS_PER_ROW  # one row of buttons a step; more options go in a select (paged)
SELECT_MAX = 25
PUBLIC_MOVES_MAX = BUTTONS_PER_ROW  # at most one row of moves on the public table message
PREFIX = "dh2"
FORFEIT_TOKENS = ("concede", "resign")  # a game's own way out: asked for confirmation, kept apart from moves

# Kinds of components (one DynamicItem each).
LOBBY_KINDS = ("jn", "lv", "st", "cx", "ab")
TABLE_KINDS = ("me", "sh", "cc", "sk", "rv", "rm", "ng", "sf")
STEP, SELECT, PAGE, TEXT, MODAL, CONFIRM = "s", "k", "p", "t", "m", "ok"
SURE, SURE_MOVE, KEEP = "y", "ym", "kp"  # "Are you sure?": confirm a table action (arg cc/lv), a move; keep playing


def is_forfeit(tokens: tuple[str, ...] | list[str]) -> bool:
    """A move that gives the game up (a game's concede or resign)."""
    return bool(tokens) and tokens[0] in FORFEIT_TOKENS


def jump_url(table: TableRow, message_id: int) -> str:
    """The link to a message of this table's channel (a DM has no guild)."""
    return f"https://discord.com/channels/{table.guild_id or '@me'}/{table.channel_id}/{message_id}"


def cid(tid: str, rev: int, kind: str, arg: str = "") -> str:
    return f"{PREFIX}:{tid}:{rev}:{kind}:{arg}"


def embed_from_panel(panel: Panel) -> discord.Embed:
    embed = discord.Embed(title=clip(panel.title, 256), description=clip(panel.description, 4096) or None,
                          colour=panel.colour)
    for name, value, inline in panel.fields[:25]:
        embed.add_field(name=clip(name, 256), value=clip(value or "—", 1024), inline=inline)
    if panel.footer:
        embed.set_footer(text=clip(panel.footer, 2048))
    return embed


# ----- pickers: one step of an action, from choices ----------------------------------------
@dataclass(frozen=True)
class Step:
    """Where a seat is in building an action: the tokens so far and the page of options."""

    tokens: tuple[str, ...]
    page: int = 0


def encode_tokens(tokens: tuple[str, ...]) -> str:
    return " ".join(tokens)


def decode_tokens(arg: str) -> tuple[str, ...]:
    return tuple(arg.split())


class Drafts:
    """Partial actions too long for a custom_id, named by a short id (``~<id>``).

    Building a message collects them in ``pending``; the caller stores them (the table
    service's ``save_drafts``) before sending, so a picker survives a restart."""

    def __init__(self) -> None:
        self.pending: dict[str, tuple[str, ...]] = {}

    def arg(self, tid: str, rev: int, kind: str, tokens: tuple[str, ...], extra: str = "") -> str:
        arg = (extra + encode_tokens(tokens)) if not extra else f"{extra}:{encode_tokens(tokens)}"
        if len(cid(tid, rev, kind, arg)) <= CUSTOM_ID_MAX:
            return arg
        key = next((k for k, v in self.pending.items() if v == tokens), None) or new_draft_id()
        self.pending[key] = tokens
        return f"{extra}:~{key}" if extra else f"~{key}"


def _button_style(option_style: str) -> discord.ButtonStyle:
    return {"primary": discord.ButtonStyle.primary, "danger": discord.ButtonStyle.danger,
            "success": discord.ButtonStyle.success}.get(option_style, discord.ButtonStyle.secondary)


def so_far(game: Any, seat: int, tokens: tuple[str, ...]) -> list[str]:
    """The labels of the tokens chosen so far (plain words from the seat's choices)."""
    out = []
    for i, tok in enumerate(tokens):
        c = game.choices(seat, tokens[:i])
        if c.kind == "text":
            out.append(f"“{clip(tok, 60)}”")
            continue
        label = next((o.label for o in c.options if o.token == tok), "") or tok
        out.append(label)
    return out


def picker(game: Any, table: TableRow, seat: int, step: Step, drafts: Drafts) -> tuple[str, discord.ui.View]:
    """A private step of building an action: the choices after ``step.tokens``."""
    tid, rev = table_key(table), game.opened_at(seat)
    c = game.choices(seat, step.tokens)
    view = discord.ui.View(timeout=None)
    lines: list[str] = []
    if step.tokens:
        lines.append("**So far:** " + clip(pretty_text(" → ".join(so_far(game, seat, step.tokens))), 1500))
    if c.progress is not None:
        lines.append(f"**{c.progress}**")
    if c.prompt:
        lines.append(pretty_text(c.prompt))
    if c.empty:
        return "That choice is no longer open. Press **My hand** for your current choices.", view
    options = list(c.options)
    apart = [o for o in options if o.token in FORFEIT_TOKENS] if c.kind == "token" and not step.tokens else []
    options = [o for o in options if o not in apart]
    for o in apart:  # the game's concede/resign: apart from the moves, on the bottom row (it asks to confirm)
        view.add_item(discord.ui.Button(
            label=clip(pretty_text(o.label or o.token), LABEL_MAX), style=discord.ButtonStyle.danger, row=4,
            custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,)))))
    if c.kind == "token" and not options:
        pass
    elif c.kind == "token" and len(options) <= STEP_BUTTONS_MAX:
        for o in options:
            view.add_item(discord.ui.Button(
                label=clip(pretty_text(o.label or o.token), LABEL_MAX), style=_button_style(o.style),
                custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens + (o.token,)))))
    elif c.kind in ("token", "set", "range"):
        if c.kind == "range":
            options_all = [(str(i), str(i)) for i in range(c.lo, c.hi + 1)]
        else:
            options_all = [(o.token, o.label or o.token) for o in options]
        pages = max(1, -(-len(options_all) // SELECT_MAX))
        page = min(max(step.page, 0), pages - 1)
        shown = options_all[page * SELECT_MAX:(page + 1) * SELECT_MAX]
        lo, hi = (1, 1) if c.kind != "set" else (max(c.lo, 0), min(c.hi, len(shown)))
        select = discord.ui.Select(custom_id=cid(tid, rev, SELECT, drafts.arg(tid, rev, SELECT, step.tokens)),
                                   placeholder=clip(pretty_text(c.prompt or "Choose…"), 150),
                                   min_values=lo, max_values=max(hi, 1))
        for token, label in shown:
            select.add_option(label=clip(pretty_text(label), 100), value=token[:100])
        view.add_item(select)
        if pages > 1:
            lines.append(f"Page {page + 1} of {pages}.")
            for delta, text in ((-1, "◀ Previous"), (1, "Next ▶")):
                target = page + delta
                view.add_item(discord.ui.Button(
                    label=text, style=discord.ButtonStyle.secondary, disabled=not 0 <= target < pages, row=4,
                    custom_id=cid(tid, rev, PAGE, drafts.arg(tid, rev, PAGE, step.tokens, extra=str(max(target, 0))))))
    elif c.kind == "text":
        view.add_item(discord.ui.Button(
            label=clip(f"✍ {pretty_text(c.prompt or 'Write')}", LABEL_MAX), style=discord.ButtonStyle.success,
            custom_id=cid(tid, rev, TEXT, drafts.arg(tid, rev, TEXT, step.tokens))))
    if c.complete and step.tokens:
        view.add_item(discord.ui.Button(
            label="Confirm", style=discord.ButtonStyle.success, row=4,
            custom_id=cid(tid, rev, CONFIRM, drafts.arg(tid, rev, CONFIRM, step.tokens))))
    if step.tokens:
        view.add_item(discord.ui.Button(
            label="↩ Back", style=discord.ButtonStyle.secondary, row=4,
            custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens[:-1]))))
    text = "\n".join(lines) or "Choose:"
    return clip(text, 2000), view


def first_step_items(game: Any, table: TableRow, seat: int, drafts: Drafts, limit: int,
                     forfeits: bool = False) -> list[discord.ui.Item]:
    """The first step's options as buttons when they fit in ``limit``; else nothing. The game's
    concede/resign is never among them: ``forfeits=True`` gives just those (to sit apart)."""
    tid, rev = table_key(table), game.opened_at(seat)
    c = game.choices(seat, ())
    if c.kind != "token" or not c.options:
        return []
    options = [o for o in c.options if (o.token in FORFEIT_TOKENS) == forfeits]
    if not options or len(options) > limit:
        return []
    return [discord.ui.Button(label=clip(pretty_text(o.label or o.token), LABEL_MAX),
                              style=discord.ButtonStyle.danger if forfeits else _button_style(o.style),
                              custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,))))
            for o in options]


def confirm_view(tid: str, rev: int, kind: str, arg: str) -> discord.ui.View:
    """Confirm / Keep playing under an "Are you sure?" (the confirm is revision-checked)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Confirm", style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, kind, arg)))
    view.add_item(discord.ui.Button(label="Keep playing", style=discord.ButtonStyle.secondary,
                                    custom_id=cid(tid, rev, KEEP)))
    return view


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
    cls = spec(table.game)
    seats = "\n".join(f"{i + 1}. {f'🤖 {s.name}' if s.user_id < 0 else f'<@{s.user_id}>'}"
                      f"{' (host)' if s.user_id == table.host_id else ''}" for i, s in enumerate(table.seats))
    panel = Panel(title=f"{cls.title} — lobby",
                  description=f"{cls.min_players}–{cls.max_players} players. Press **Join** to sit down; "
                              "the host starts the game.")
    panel.add(f"Seats ({len(table.seats)}/{cls.max_players})", seats or "—")
    panel.add("Options", ", ".join(table.options) or "the rulebook's defaults", True)
    panel.add("Turn limit", format_duration(table.turn_limit), True)
    panel.footer = f"{cls.credit} · table rev {table.revision}"
    view = discord.ui.View(timeout=None)
    tid, rev = table_key(table), table.revision
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "jn")))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, "lv")))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary, custom_id=cid(tid, rev, "st"),
                                    disabled=len(table.seats) < cls.min_players))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, "cx")))
    if cls.max_players > 1:  # the host seats the built-in player, which plays its turns at once
        view.add_item(discord.ui.Button(label="Add a bot", style=discord.ButtonStyle.secondary, emoji="🤖",
                                        custom_id=cid(tid, rev, "ab"), disabled=len(table.seats) >= cls.max_players))
    return TableMessage(embed_from_panel(panel), view, [])


def table_message(table: TableRow, picture: bytes | None = None, *, with_picture: bool = True,
                  drafts: Drafts | None = None) -> TableMessage:
    """The public table: the public view's panel, the picture and the buttons.

    The Discord layer draws ``picture`` off the event loop (``bot.render.pictures``) and passes
    the bytes; without them it is drawn here only when ``with_picture`` (the terminal's bench)."""
    if table.status == "lobby":
        return lobby_message(table)
    if table.state is None:  # a lobby that closed before its game started
        panel = Panel(title=f"{spec(table.game).title} — closed",
                      description="This table closed before its game began. Start a new one with `/game new`.")
        panel.footer = f"table rev {table.revision}"
        return TableMessage(embed_from_panel(panel), discord.ui.View(timeout=None), [])
    drafts = drafts if drafts is not None else Drafts()
    game = load_game(table)
    render = renderer(table.game)
    public = game.view(None)
    panel = render.panel(public)
    shown = public_events(table, game)[-4:]
    if shown:
        recent = "\n".join(pretty_text(e) for e in shown)
        panel.description = clip(f"{recent}\n\n{panel.description}".strip(), 4096)
    if table.status == "playing" and table.timed_out:
        late = " and ".join(game.players[d.seat] for d in game.decisions()) or "the player to act"
        panel.fields.insert(0, ("⏰ Time is up", clip(f"Time is up for {late}. The other players or the host may "
                                                       "**Skip** (the bot plays for them) or **Remove** them.", 1024),
                                False))
    status = {"playing": "", "finished": " · game over", "abandoned": " · abandoned"}.get(table.status, "")
    panel.footer = clip(f"{panel.footer + ' · ' if panel.footer else ''}table rev {table.revision}{status}", 2048)
    embed = embed_from_panel(panel)
    files: list[discord.File] = []
    png = picture if picture is not None else render.picture(public) if with_picture else None
    if png:
        files.append(discord.File(io.BytesIO(png), filename="table.png"))
        embed.set_image(url="attachment://table.png")
    view = discord.ui.View(timeout=None)
    tid, rev = table_key(table), table.revision
    if table.status == "playing":
        deciding = game.decisions()
        moves: list[discord.ui.Item] = []
        forfeits: list[discord.ui.Item] = []
        if len(deciding) == 1 and deciding[0].public:
            moves = first_step_items(game, table, deciding[0].seat, drafts, PUBLIC_MOVES_MAX)
            if moves:
                forfeits = first_step_items(game, table, deciding[0].seat, drafts, 1, forfeits=True)
        for item in moves:
            view.add_item(item)
        bottom: list[discord.ui.Item] = []
        if not moves or len(table.seats) > 1 or any(not d.public for d in deciding):
            secret = any(not d.public for d in deciding)
            label = "My hand / act" if secret or not moves else "My view"
            bottom.append(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=cid(tid, rev, "me")))
        bottom.extend(forfeits)  # apart from the moves, and asked for confirmation
        if len(table.seats) == 1 and solo_concede_offered(table.game, game):
            bottom.append(discord.ui.Button(label="Concede", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "cc")))
        if table.timed_out:
            bottom.append(discord.ui.Button(label="Skip late player", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sk")))
            bottom.append(discord.ui.Button(label="Remove late player", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "rv")))
        for item in bottom[:BUTTONS_PER_ROW]:
            item.row = 1 if moves else 0
            view.add_item(item)
    else:
        if len(table.seats) == 1:
            view.add_item(discord.ui.Button(label="New game", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "ng")))
        elif table.status == "finished":
            view.add_item(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "rm")))
        if hasattr(render, "story"):
            view.add_item(discord.ui.Button(label="Story file", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sf")))
    return TableMessage(embed, view, files)


def solo_concede_offered(game_id: str, game: Any) -> bool:
    """The table's Concede (a forfeit) for a solo game, unless the game's own concede is open."""
    if not spec(game_id).solo_concede:
        return False
    return not any(o.token == "concede" for o in game.choices(0, ()).options)


def public_events(table: TableRow, game: Any | None = None) -> list[str]:
    """The table's recent public lines, as the public view gives them."""
    if table.state is None:
        return list(table.events)
    game = game or load_game(table)
    return list(game.view(None).recent)


def seat_message(table: TableRow, game: Any, seat: int, drafts: Drafts) -> tuple[str, discord.Embed, discord.ui.View]:
    """A seat's private message: its view (hand), and the first step of its choices when it acts."""
    render = renderer(table.game)
    view_data = game.view(seat)
    if hasattr(render, "hand_text"):
        panel = Panel(title=f"Your hand — {game.title}", description=render.hand_text(view_data))
    else:
        panel = render.panel(view_data)
        panel.title = f"Your view — {panel.title}"
    panel.footer = (f"{game.title} in this channel, hosted by {table.seats[0].name if table.seats else '?'} · "
                    "press the button or /game hand again any time")
    where = f"<#{table.channel_id}>"
    if seat in game.to_act():
        text, view = picker(game, table, seat, Step(()), drafts)
        head = f"Your hand at {with_article('the', game.title)} table in {where}. Your move — only you can see this.\n{text}"
    else:
        view = discord.ui.View(timeout=None)
        head = f"Your hand at {with_article('the', game.title)} table in {where}. Not your move right now: {game.waiting_for()}"
    return clip(head, 2000), embed_from_panel(panel), view


def story_markdown(table: TableRow, game: Any) -> str | None:
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
