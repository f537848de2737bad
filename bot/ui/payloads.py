"""The one place where every outgoing payload is made, each from one reader's object.

Content, embeds (titles, descriptions, fields, footers), components (labels, option labels and
values, custom_ids), attachments (names and descriptions), modals, autocomplete choices: built
here from a :class:`~bot.tables.reader.Reader` (or from text that is public by nature: refusals,
rules), so what a message can carry is what its reader may know. Text a person typed (display
names, story lines) is escaped wherever it is shown, one line where lines are listed.

Every component's custom_id is ``dh2:<table>:<rev>:<kind>:<arg>``:

- ``<table>`` names the table (a new game in the same channel refuses the old one's buttons);
- ``<rev>`` is, for a move, the point at which the clicking seat's decision opened (another
  seat's answer in a simultaneous decision leaves it good), and for a lobby or table button the
  table's revision;
- ``<kind>`` is the action kind (:class:`~bot.ui.components.Kind`, one DynamicItem each);
- ``<arg>`` is the action's tokens so far, or ``~<id>`` naming a stored draft when they do
  not fit in Discord's 100 characters.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Option
from bot.engine.registry import spec, with_article
from bot.render import renderer, story
from bot.render.panel import Panel, clip, defuse_names, plain

from bot.tables.clock import format_duration
from bot.tables.drafts import new_draft_id
from bot.tables.reader import FORFEIT_TOKENS, Reader, TableFacts
from bot.ui.components import PREFIX, Kind

CUSTOM_ID_MAX = 100
LABEL_MAX = 80
BUTTONS_PER_ROW = 5
STEP_BUTTONS_MAX = BUTTONS_PER_ROW  # one row of buttons a step; more options go in a select (paged)
SELECT_MAX = 25
PUBLIC_MOVES_MAX = BUTTONS_PER_ROW  # at most one row of moves on the public table message
NO_PINGS = discord.AllowedMentions.none()
COLOUR = 0x2F7D4F
HAND_LABEL = "My view / act"  # the private panel's button: one name in every phase and game (Court Wars has no hand)

# Kinds as the short strings older messages carry (kept, so old buttons still parse).
STEP, SELECT, PAGE, TEXT, MODAL, CONFIRM = (Kind.STEP.value, Kind.SELECT.value, Kind.PAGE.value, Kind.TEXT.value,
                                            Kind.MODAL.value, Kind.CONFIRM.value)
SURE, SURE_MOVE, KEEP = Kind.SURE.value, Kind.SURE_MOVE.value, Kind.KEEP.value


# ----- small pieces ---------------------------------------------------------------------------
def line(text: str) -> str:
    """A line of the log as players read it: card codes pretty, Markdown and mentions defused,
    on one line (a newline in a player's text cannot fake a line of the bot's own)."""
    return plain(" ".join(pretty_text(text).split()))


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
        return r.alt_text(view)
    head = f"{reader.title}. " + (reader.result or reader.waiting_for)
    return clip(pretty_text(head), 1000)


# ----- pickers: one step of an action, from choices -------------------------------------------
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

    Building a message collects them in ``pending``; the caller stores them (the desk's
    ``save_drafts``) before sending, so a picker survives a restart."""

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


def _label(o: Option) -> str:
    return clip(pretty_text(o.label or o.token), LABEL_MAX)


@dataclass(frozen=True)
class Shortcut:
    """A button that makes a whole move (or opens its text box) in one press."""

    tokens: tuple[str, ...]
    label: str
    style: str = "secondary"
    text: bool = False  # opens the text box of the move


def shortcuts(options: Sequence[Option], prefix: tuple[str, ...], choices_of: Any, limit: int) -> list[Shortcut] | None:
    """The options of a step as at most ``limit`` buttons, each a whole move where one more step
    finishes it: an option whose next step is a short list of final choices becomes those choices
    ("Place 2♠ on K♥"), one whose next step is a line of text opens its box at once. None when
    that does not fit (the step is shown as it is)."""
    out: list[Shortcut] = []
    for o in options:
        tokens = prefix + (o.token,)
        nxt = choices_of(tokens)
        if nxt.kind == "text" and not nxt.options:
            out.append(Shortcut(tokens, o.label or o.token, "success", text=True))
            continue
        subs = list(nxt.options) if nxt.kind == "token" and not nxt.complete else []
        if subs and all((c := choices_of(tokens + (s.token,))).complete and not c.options and c.kind == "token"
                        for s in subs):
            for s in subs:
                label = s.label if s.label and s.label != s.token else f"{o.label or o.token}: {s.label or s.token}"
                out.append(Shortcut(tokens + (s.token,), label, s.style or o.style))
        else:
            out.append(Shortcut(tokens, o.label or o.token, o.style))
    return out if len(out) <= limit else None


def _shortcut_button(tid: str, rev: int, s: Shortcut, drafts: Drafts) -> discord.ui.Button:
    kind = TEXT if s.text else STEP
    label = clip(pretty_text(f"✍ {s.label}" if s.text else s.label), LABEL_MAX)
    return discord.ui.Button(label=label, style=_button_style(s.style),
                             custom_id=cid(tid, rev, kind, drafts.arg(tid, rev, kind, s.tokens)))


def picker(reader: Reader, step: Step, drafts: Drafts) -> tuple[str, discord.ui.View]:
    """A private step of building an action: the reader's choices after ``step.tokens``."""
    tid, rev = reader.table.key, reader.opened
    c = reader.choices(step.tokens)
    view = discord.ui.View(timeout=None)
    lines: list[str] = []
    if step.tokens:
        lines.append("**So far:** " + clip(pretty_text(" → ".join(reader.so_far(step.tokens))), 1500))
    if c.progress is not None:
        lines.append(f"**{c.progress}**")
    if c.prompt:
        lines.append(pretty_text(c.prompt))
    if c.empty:
        return f"That choice is no longer open. Press **{HAND_LABEL}** for your current choices.", view
    options = list(c.options)
    apart = [o for o in options if o.token in FORFEIT_TOKENS] if c.kind == "token" and not step.tokens else []
    options = [o for o in options if o not in apart]
    for o in apart:  # the game's concede/resign: apart from the moves, on the bottom row (it asks to confirm)
        view.add_item(discord.ui.Button(label=_label(o), style=discord.ButtonStyle.danger, row=4,
                                        custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,)))))
    short = shortcuts(options, step.tokens, reader.choices, STEP_BUTTONS_MAX) if c.kind == "token" else None
    if c.kind == "token" and not options:
        pass
    elif short is not None:
        for s in short:
            view.add_item(_shortcut_button(tid, rev, s, drafts))
    elif c.kind == "token" and len(options) <= STEP_BUTTONS_MAX:
        for o in options:
            view.add_item(discord.ui.Button(
                label=_label(o), style=_button_style(o.style),
                custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens + (o.token,)))))
    elif c.kind in ("token", "set", "range"):
        _select(view, lines, c, options, tid, rev, step, drafts)
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
    return clip("\n".join(lines) or "Choose:", 2000), view


def _select(view: discord.ui.View, lines: list[str], c: Choices, options: list[Option], tid: str, rev: int,
            step: Step, drafts: Drafts) -> None:
    """A paged select for a step with more options than a row of buttons."""
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


def public_moves(reader: Reader, drafts: Drafts, limit: int, forfeits: bool = False) -> list[discord.ui.Item]:
    """A public decision's first step as buttons when they fit in ``limit``; else nothing. The
    game's concede/resign is never among them: ``forfeits=True`` gives just those (to sit apart)."""
    offer = reader.public_moves()
    if offer is None:
        return []
    c = offer.choices
    if c.kind != "token" or not c.options:
        return []
    options = [o for o in c.options if (o.token in FORFEIT_TOKENS) == forfeits]
    if not options or len(options) > limit:
        return []
    tid, rev = reader.table.key, offer.opened
    short = shortcuts(options, (), reader.public_choices, limit) if not forfeits else None
    if short is not None:
        return [_shortcut_button(tid, rev, s, drafts) for s in short]
    return [discord.ui.Button(label=_label(o),
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


def move_down_view(reader: Reader) -> discord.ui.View:
    """The one button under /game status's private copy: move the table down the channel."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Move the table down", style=discord.ButtonStyle.primary,
                                    custom_id=cid(reader.table.key, reader.table.revision, Kind.MOVE_DOWN.value)))
    return view


# ----- whole table messages -------------------------------------------------------------------
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


def without_credit(footer: str, game: str) -> str:
    """A footer without the game's credit line (credits live in /game rules and the README, not
    on every update of the table)."""
    credit = spec(game).credit.strip()
    parts = [p for p in (footer or "").split(" · ") if p.strip() and p.strip() != credit and credit not in p]
    return " · ".join(parts)


def lobby_message(reader: Reader, ratings: Sequence[str] = ()) -> TableMessage:
    t = reader.table
    cls = spec(t.game)
    seats = "\n".join(f"{i + 1}. {f'🤖 {name(s.name)}' if s.is_bot else f'<@{s.user_id}>'}"
                      f"{' (host)' if s.user_id == t.host_id else ''}" for i, s in enumerate(t.seats))
    players = f"{cls.min_players}–{cls.max_players} players"
    panel = Panel(title=f"{cls.title} — lobby",
                  description=f"{players}. Press **Join** to sit down; the host starts the game.")
    panel.add(f"Seats ({len(t.seats)}/{cls.max_players})", seats or "—")
    if ratings:
        panel.add("Ratings", "\n".join(ratings))
    panel.add("Options", ", ".join(t.options) or "the rulebook's defaults", True)
    panel.add("Turn limit", format_duration(t.turn_limit) if t.turn_limit else "none", True)
    view = discord.ui.View(timeout=None)
    tid, rev = t.key, t.revision
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "jn")))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, "lv")))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary, custom_id=cid(tid, rev, "st"),
                                    disabled=len(t.seats) < cls.min_players))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, "cx")))
    if cls.max_players > 1:  # the host seats the built-in player, which plays its turns at once
        view.add_item(discord.ui.Button(label="Add a bot", style=discord.ButtonStyle.secondary, emoji="🤖",
                                        custom_id=cid(tid, rev, "ab"), disabled=len(t.seats) >= cls.max_players))
    return TableMessage(embed_from_panel(panel), view, [])


def table_message(reader: Reader, picture: bytes | None = None, *, drafts: Drafts | None = None,
                  ratings: Sequence[str] = ()) -> TableMessage:
    """The public table: the public reader's panel, its picture and the buttons."""
    t = reader.table
    if t.status == "lobby":
        return lobby_message(reader, ratings)
    if not t.started:  # a lobby that closed before its game started
        panel = Panel(title=f"{t.title} — closed",
                      description="This table closed before its game began. Start a new one with `/game new`.")
        return TableMessage(embed_from_panel(panel), discord.ui.View(timeout=None), [])
    drafts = drafts if drafts is not None else Drafts()
    render = renderer(t.game)
    panel = defused(render.table_panel(reader.view, with_picture=picture is not None), reader.players)
    shown = reader.recent[-4:]
    if shown:
        recent = "\n".join(line(e) for e in shown)
        panel.description = clip(f"{recent}\n\n{panel.description}".strip(), 4096)
    if t.status == "playing" and t.timed_out:
        late = " and ".join(name(reader.players[d.seat]) for d in reader.decisions) or "the player to act"
        panel.fields.insert(0, ("⏰ Time is up", clip(f"Time is up for {late}. The other players or the host may "
                                                       "**Skip** (the bot plays for them) or **Remove** them.", 1024),
                                False))
    status = {"finished": "game over", "abandoned": "abandoned"}.get(t.status, "")
    panel.footer = clip(" · ".join(x for x in (without_credit(panel.footer, t.game), status) if x), 2048)
    embed = embed_from_panel(panel)
    files: list[discord.File] = []
    if picture:
        files.append(picture_file(picture, "table.png", alt_text(reader)))
        embed.set_image(url="attachment://table.png")
    return TableMessage(embed, _table_buttons(reader, drafts), files)


def _table_buttons(reader: Reader, drafts: Drafts) -> discord.ui.View:
    t = reader.table
    view = discord.ui.View(timeout=None)
    tid, rev = t.key, t.revision
    if t.status == "playing":
        deciding = reader.decisions
        moves = public_moves(reader, drafts, PUBLIC_MOVES_MAX)
        forfeits = public_moves(reader, drafts, 1, forfeits=True) if moves else []
        for item in moves:
            view.add_item(item)
        bottom: list[discord.ui.Item] = []
        if not moves or len(t.seats) > 1 or any(not d.public for d in deciding):
            bottom.append(discord.ui.Button(label=HAND_LABEL, style=discord.ButtonStyle.primary,
                                            custom_id=cid(tid, rev, "me")))
        bottom.extend(forfeits)  # apart from the moves, and asked for confirmation
        if reader.solo_concede:
            bottom.append(discord.ui.Button(label="Concede", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "cc")))
        if t.timed_out:
            bottom.append(discord.ui.Button(label="Skip late player", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sk")))
            bottom.append(discord.ui.Button(label="Remove late player", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "rv")))
        for item in bottom[:BUTTONS_PER_ROW]:
            item.row = 1 if moves else 0
            view.add_item(item)
    else:
        if len(t.seats) == 1:
            view.add_item(discord.ui.Button(label="New game", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "ng")))
        elif t.status == "finished":
            view.add_item(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "rm")))
        if renderer(t.game).story is not None:
            view.add_item(discord.ui.Button(label="Story file", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sf")))
    return view


def seat_message(reader: Reader, drafts: Drafts, picture: bytes | None = None,
                 note: str = "") -> tuple[str, discord.Embed, discord.ui.View, list[discord.File]]:
    """A seat's private panel: its view (hand), its picture, and its current step when it acts."""
    t = reader.table
    render = renderer(t.game)
    if render.hand_text is not None:
        panel = Panel(title=f"Your hand — {reader.title}", description=render.hand_text(reader.view))
    else:
        panel = render.table_panel(reader.view, with_picture=picture is not None)
        panel.title = f"Your view — {panel.title}"
    panel = defused(panel, reader.players)
    host = name(t.seats[0].name) if t.seats else "?"
    panel.footer = f"{reader.title} in this channel, hosted by {host} · press the button or /game hand again any time"
    where = f"<#{t.channel_id}>"
    if reader.acting:
        text, view = picker(reader, Step(()), drafts)
        head = f"Your seat at {with_article('the', reader.title)} table in {where}. Your move — only you can see this.\n{text}"
    else:
        view = discord.ui.View(timeout=None)
        head = (f"Your seat at {with_article('the', reader.title)} table in {where}. Not your move right now: "
                f"{name(reader.waiting_for)}")
    if note:
        head = f"{note}\n{head}"
    embed = embed_from_panel(panel)
    files = []
    if picture:
        files.append(picture_file(picture, "hand.png", alt_text(reader)))
        embed.set_image(url="attachment://hand.png")
    return clip(head, 2000), embed, view, files


_BLOCK_START = re.compile(r"^\s*([-*+•]\s|\d+[.)]\s|#|>|\||```)")


def reflow(text: str) -> str:
    """Rules text as Discord shows it well: lines hard-wrapped at ~100 columns joined again within
    each paragraph and each bullet; blank lines, headings, bullets, quotes, tables and code blocks
    kept as they are."""
    out: list[str] = []
    fenced = False
    joinable = False  # the last line out is prose that a wrapped line may continue
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            out.append(raw)
            joinable = False
            continue
        if fenced:
            out.append(raw)
            continue
        if not stripped:
            out.append("")
            joinable = False
            continue
        starts = _BLOCK_START.match(raw)
        if joinable and not starts:
            out[-1] = f"{out[-1].rstrip()} {stripped}"
            continue
        out.append(raw.rstrip())
        joinable = not stripped.startswith(("#", "|", ">"))
    return "\n".join(out)


def story_markdown(reader: Reader) -> str | None:
    """The story told at this table as Markdown (from the public view), or None for a game without one."""
    render = renderer(reader.game)
    if render.story is None or reader.view is None:
        return None
    cast, entries = render.story(reader.view)
    ending = reader.result or "The story was left unfinished."
    return story.markdown(reader.title, list(reader.players), cast, entries, ending)


def story_file(reader: Reader) -> discord.File | None:
    text = story_markdown(reader)
    return discord.File(io.BytesIO(text.encode()), filename="story.md") if text else None


def record_file(record: dict[str, Any], filename: str) -> discord.File:
    data = json.dumps(record, indent=1, ensure_ascii=False).encode()
    return discord.File(io.BytesIO(data), filename=filename)


# ----- notices, pings, answers ------------------------------------------------------------------
def ping(reader: Reader, users: Sequence[int], link: str) -> dict[str, Any]:
    """The short turn ping: mentions only the people who now must act."""
    mentions = " ".join(f"<@{u}>" for u in users)
    return {"content": f"{mentions} — your turn at {reader.title}: {link}".rstrip(": "),
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users], everyone=False,
                                                        roles=False)}


def ending(reader: Reader, link: str, ratings: str = "") -> dict[str, Any]:
    """The one message a game's end posts: how it ended, a link to the final table, the story file."""
    t = reader.table
    if t.status == "finished" and reader.result:
        text = f"**{reader.title} is over.** {line(reader.result)}"
    else:
        text = f"**The {reader.title} game was abandoned.**"
    if ratings:
        text += f"\nRatings: {ratings}"
    if link:
        text += f"\nThe final table: {link}"
    kw: dict[str, Any] = {}
    file = story_file(reader) if reader.started else None
    if file is not None:
        told = "The story is told" if t.status == "finished" else "The story stops here"
        text += f"\n{told}; here it is, to keep."
        kw["file"] = file
    kw["content"] = clip(text, 2000)
    return kw


def did(labels: Sequence[str], secret: bool = False) -> str:
    """What an action did, in one sentence from the labels of its tokens (the reader's plain words):
    "Done: you chose royal K♣, then T2." (a secret choice is said only to its chooser, privately)."""
    words = [clip(pretty_text(" ".join(str(x).split())), 200) for x in labels if str(x).strip()]
    if not words:
        return "Done."
    said = words[0] if len(words) == 1 else ", ".join(words[:-1]) + ", then " + words[-1]
    head = "Done: your secret choice is in —" if secret else "Done: you chose"
    return clip(f"{head} {plain(said)}.", 1800)


def private_lines(lines: Sequence[str]) -> str:
    return clip("\n".join(line(p) for p in lines), 2000)


def history(reader: Reader) -> discord.Embed:
    lines = [line(e) for e in reader.recent[-20:]] or ["Nothing has happened yet."]
    embed = discord.Embed(title=f"{reader.title} — recent moves", description="\n".join(lines)[:4096], colour=COLOUR)
    embed.set_footer(text=f"{reader.table.moves} moves so far")
    return embed


def autocomplete(reader: Reader, current: str, verb: str | None = None) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete from the reader's choices: the next tokens after what is typed, in plain words."""
    if not reader.acting:
        return []
    typed = current[:200].split()
    ends_with_space = current.endswith(" ")
    done = tuple(typed if ends_with_space else typed[:-1])
    partial = "" if ends_with_space or not typed else typed[-1].lower()
    if verb is not None:
        done = (verb, *done) if not done or done[0] != verb else done
    c = reader.choices(done)
    out = []
    head = " ".join(done)
    if c.complete and done and not partial:
        label = " → ".join(reader.so_far(done))
        out.append(discord.app_commands.Choice(name=clip(pretty_text(label) + " ✓", 100), value=head[:100]))
    if c.kind == "range":
        options = [(str(i), str(i)) for i in range(c.lo, c.hi + 1)]
    else:
        options = [(o.token, o.label or o.token) for o in c.options]
    for token, label in options:
        if partial and partial not in token.lower() and partial not in label.lower():
            continue
        value = f"{head} {token}".strip()
        shown = value if verb is None else value.partition(" ")[2] or value
        text = f"{pretty_text(label)} ({shown})" if label != token else shown
        out.append(discord.app_commands.Choice(name=clip(text, 100), value=value[:100]))
        if len(out) == 25:
            break
    return out


def forfeit_question(reader: Reader, tokens: tuple[str, ...]) -> str:
    what = pretty_text(" → ".join(reader.so_far(tokens)))
    return clip(f"Are you sure you want to **{what}**? It gives the game up for you and cannot be undone.", 2000)
