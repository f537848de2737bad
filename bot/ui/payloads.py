"""The one place where every outgoing payload is made, each from one reader's object (with its two
parts: ``bot.ui.text``, the small pieces, and ``bot.ui.pickers``, the steps of a move).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.levels import LEVEL_NAMES, LEVELS
from bot.engine.registry import spec, with_article
from bot.render import renderer, story
from bot.render.panel import Panel, clip, plain, reflow  # noqa: F401 — every payload is reached from here

from bot.tables.answers import (  # noqa: F401 — every payload is reached from here
    LINE_MAX, NOTHING, completions, did, forfeit_question, language_set, no_line_now, nothing_to_choose,
)
from bot.tables.clock import format_duration
from bot.tables.reader import Reader
from bot.tables.since import told
from bot.ui.components import Kind, Sent, add, button, view_of
from bot.ui.boxes import text_box  # noqa: F401 — every payload is reached from here
from bot.ui.pickers import (  # noqa: F401 — every payload is reached from here
    THEN, Drafts, Shortcut, Step, batch_moves, confirm_view, decode_tokens, encode_tokens, forced_steps, move_down_view,
    move_label, picker, public_moves, said_label, shortcuts,
)
from bot.ui.text import (  # noqa: F401 — every payload is reached from here
    BUTTONS_PER_ROW, COLOUR, CUSTOM_ID_MAX, LABEL_MAX, MODAL, NO_PINGS, PUBLIC_MOVES_MAX, SELECT_MAX, STEP, SURE, SURE_MOVE,
    alt_text, cid, defused, embed_from_panel, hand_label, is_forfeit, jump_url, line, name, picture_file,
)


# ----- whole table messages -------------------------------------------------------------------
@dataclass
class TableMessage:
    embed: discord.Embed
    view: discord.ui.View
    files: list[discord.File]
    content: str | None = None
    kept: bool = False  # an edit keeps the picture the message carries (its new one follows: bot.ui.placement)

    def send_kwargs(self) -> dict[str, Any]:
        embed = self.embed.copy().set_image(url=None) if self.kept else self.embed  # a new message has none to keep
        kw: dict[str, Any] = {"embed": embed, "view": self.view}
        if self.files:
            kw["files"] = self.files
        if self.content:
            kw["content"] = self.content
        return kw

    def edit_kwargs(self) -> dict[str, Any]:
        kw = {"embed": self.embed, "view": self.view, "attachments": self.files, "content": self.content}
        if self.kept:
            del kw["attachments"]
        return kw


def without_credit(footer: str, game: str) -> str:
    """A footer without the game's credit line (credits live in /game rules and the README, not
    on every update of the table)."""
    credit = spec(game).credit.strip()
    parts = [p for p in (footer or "").split(" · ") if p.strip() and p.strip() != credit and credit not in p]
    return " · ".join(parts)


def level_word(w: Any, level: str) -> str:
    """A built-in player's level (easy, normal, strong) in ``w``'s language."""
    said = {"easy": w.tp("bot level", "Easy"), "normal": w.tp("bot level", "Normal"), "strong": w.tp("bot level", "Strong")}
    return said.get(level, LEVEL_NAMES.get(level, level))


def lobby_message(reader: Reader, ratings: Sequence[str] = ()) -> TableMessage:
    t, w = reader.table, reader.words
    cls = spec(t.game)
    host = " " + w.t("(host)")
    seats = "\n".join(f"{i + 1}. {f'🤖 {name(s.name)} ({level_word(w, s.level)})' if s.is_bot else f'<@{s.user_id}>'}"
                      f"{host if s.user_id == t.host_id else ''}" for i, s in enumerate(t.seats))
    players = w.t("{low}–{high} players", low=cls.min_players, high=cls.max_players)
    panel = Panel(title=w.t("{title} — lobby", title=cls.title),
                  description=w.t("{players}. Press **Join** to sit down; the host starts the game.", players=players))
    panel.add(w.t("Seats ({seated}/{most})", seated=len(t.seats), most=cls.max_players), seats or "—")
    if ratings:
        panel.add(w.t("Ratings"), "\n".join(ratings))
    panel.add(w.t("Options"), ", ".join(t.options) or w.t("the rulebook's defaults"), True)
    panel.add(w.t("Turn limit"), w.say(format_duration(t.turn_limit)) if t.turn_limit else w.t("none"), True)
    tid, rev = t.key, t.revision
    view = view_of(button(label=w.t("Join"), style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "jn")),
                   button(label=w.t("Leave"), style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, "lv")),
                   button(label=w.t("Start"), style=discord.ButtonStyle.primary, custom_id=cid(tid, rev, "st"),
                          disabled=len(t.seats) < cls.min_players),
                   button(label=w.t("Cancel"), style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, "cx")))
    if cls.max_players > 1:  # the host seats the built-in player at a level, one press (a row of their own)
        full = len(t.seats) >= cls.max_players
        for level in LEVELS:
            view.add_item(button(label=w.t("Add {level} bot", level=level_word(w, level)), style=discord.ButtonStyle.secondary,
                                 emoji="🤖", custom_id=cid(tid, rev, "ab", level), disabled=full, row=1))
    return TableMessage(embed_from_panel(panel), view, [])


KEPT = "the picture the message carries"  # table_message's picture while the new one is drawn


def table_message(reader: Reader, picture: bytes | str | None = None, *, ratings: Sequence[str] = ()) -> TableMessage:
    """The public table: the public reader's panel, its picture and the buttons."""
    t = reader.table
    if t.status == "lobby":
        return lobby_message(reader, ratings)
    w = reader.words
    if not t.started:  # a lobby that closed before its game started
        panel = Panel(title=w.t("{title} — closed", title=t.title),
                      description=w.t("This table closed before its game began. Start a new one with `/game new`."))
        return TableMessage(embed_from_panel(panel), Sent(), [])
    render = renderer(t.game)
    panel = render.table_panel(reader.view, with_picture=picture is not None, lang=reader.lang)
    ended = reader.result if reader.result and reader.result in panel.description else ""  # the panel says it
    panel = defused(panel, reader.players)
    shown = tuple(e for e in reader.recent if e != ended)[-4:]  # how the game ended, said once
    if shown:
        recent = "\n".join(line(e) for e in shown)
        panel.description = clip(f"{recent}\n\n{panel.description}".strip(), 4096)
    if t.status == "playing" and t.timed_out:
        late = w.list([name(reader.players[d.seat]) for d in reader.decisions]) or w.t("the player to act")
        panel.fields.insert(0, ("⏰ " + w.t("Time is up"), clip(w.t(
            "Time is up for {late}. The other players or the host may **Skip** (the bot plays for them) or "
            "**Remove** them.", late=late), 1024), False))
    status = {"finished": w.t("game over"), "abandoned": w.t("abandoned")}.get(t.status, "")
    panel.footer = clip(" · ".join(x for x in (without_credit(panel.footer, t.game), status) if x), 2048)
    embed = embed_from_panel(panel)
    files: list[discord.File] = []
    if picture:
        if picture is not KEPT:
            files.append(picture_file(picture, "table.png", alt_text(reader)))
        embed.set_image(url="attachment://table.png")
    return TableMessage(embed, _table_buttons(reader, Drafts()), files, kept=picture is KEPT)


def _table_buttons(reader: Reader, drafts: Drafts) -> discord.ui.View:
    t, w = reader.table, reader.words
    view = Sent()
    tid, rev = t.key, t.revision
    if t.status == "playing":
        moves = public_moves(reader, drafts, PUBLIC_MOVES_MAX)
        forfeits = public_moves(reader, drafts, 1, forfeits=True) if moves else []
        for item in moves:
            view.add_item(item)
        bottom: list[discord.ui.Item] = []
        if not moves or len(t.seats) > 1 or any(not d.public for d in reader.decisions):
            bottom.append(button(label=hand_label(reader.lang), style=discord.ButtonStyle.primary,
                                 custom_id=cid(tid, rev, "me")))
        bottom.extend(forfeits)  # apart from the moves, and asked for confirmation
        if reader.solo_concede:
            bottom.append(button(label=w.t("Concede"), style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, "cc")))
        if t.guild_id is None:  # a table in a DM: its players may let friends watch (bot.tables.watching)
            bottom.append(button(label=w.t("Invite a watcher"), emoji="👀", custom_id=cid(tid, rev, Kind.INVITE.value)))
        if t.timed_out:
            bottom.append(button(label=w.t("Skip late player"), style=discord.ButtonStyle.secondary,
                                 custom_id=cid(tid, rev, "sk")))
            bottom.append(button(label=w.t("Remove late player"), style=discord.ButtonStyle.danger,
                                 custom_id=cid(tid, rev, "rv")))
        for component in bottom[:BUTTONS_PER_ROW]:
            add(view, component, row=1 if moves else 0)
    else:
        if len(t.seats) == 1:
            view.add_item(button(label=w.t("New game"), style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "ng")))
        elif t.status == "finished":
            view.add_item(button(label=w.t("Rematch"), style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "rm")))
        if renderer(t.game).story is not None:
            view.add_item(button(label=w.t("Story file"), style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, "sf")))
    return view


def watch_message(reader: Reader, picture: bytes | None, link: str, watchers: int, *, final: bool = False,
                  film: Any = None) -> TableMessage:
    """A watcher's message (``/game watch``): the public table, never a seat's, without a move; a link
    to the table message, how many watch, and **Stop watching** until the game is over (``final``:
    with the whole game as the public saw it, ``film``, below the final table)."""
    if not reader.is_public:
        raise ValueError("a watcher reads the public table only")
    msg = table_message(reader, picture)
    if film is not None:
        msg.files.append(picture_file(film.data, film.filename, film.alt))
    w = reader.words  # the table's language (a public reader's)
    where = f": {link}" if link else ""
    if final:
        head = w.t("The game is over; the final table")
    elif w.english:  # "the Gridcannon table", "The Maginot Line table": English's own article
        head = f"👀 Watching {with_article('the', reader.title)} table"
    else:
        head = w.t("👀 Watching the {title} table", title=reader.title)
    msg.content = clip(f"{head}{where} · " + w.n("{n} watching", "{n} watching", watchers), 2000)
    msg.view = Sent()
    if not final:
        msg.view.add_item(button(label=w.t("Stop watching"),
                                 custom_id=cid(reader.table.key, 0, Kind.STOP_WATCHING.value)))
    return msg


def seat_message(reader: Reader, drafts: Drafts, picture: bytes | None = None,
                 note: str = "") -> tuple[str, discord.Embed, discord.ui.View, list[discord.File]]:
    """A seat's private panel: its view (hand), its picture, and its current step when it acts."""
    t, w = reader.table, reader.words
    render = renderer(t.game)
    if render.hand_text is not None:
        panel = Panel(title=w.t("Your hand — {title}", title=reader.title),
                      description=render.said("hand_text", reader.view, reader.lang))
    else:
        panel = render.table_panel(reader.view, with_picture=picture is not None, lang=reader.lang)
        panel.title = w.t("Your view — {title}", title=panel.title)
    panel = defused(panel, reader.players)
    host = name(t.seats[0].name) if t.seats else "?"
    panel.footer = w.t("{title} in this channel, hosted by {host} · press the button or /game hand again any time",
                       title=reader.title, host=host)
    where = f"<#{t.channel_id}>"
    if reader.acting:
        text, view = picker(reader, Step(()), drafts)
        if w.english:  # "the Gridcannon table", "The Maginot Line table": English's own article
            head = f"Your seat at {with_article('the', reader.title)} table in {where}. Your move — only you can see this."
        else:
            head = w.t("Your seat at the {title} table in {where}. Your move — only you can see this.",
                       title=reader.title, where=where)
        # what happened since, from this seat's own view, in its reader's language (cards as faces already)
        head = "\n".join([*(plain(t) for t in told(reader.since, reader.players, w)), head, text])
    else:
        view = Sent()
        head = (f"Your seat at {with_article('the', reader.title)} table in {where}. Not your move right now: "
                f"{name(reader.waiting_for)}") if w.english else w.t(
            "Your seat at the {title} table in {where}. Not your move right now: {waiting}", title=reader.title,
            where=where, waiting=name(reader.waiting_for))
    if note:
        head = f"{note}\n{head}"
    embed = embed_from_panel(panel)
    files = []
    if picture:
        files.append(picture_file(picture, "hand.png", alt_text(reader)))
        embed.set_image(url="attachment://hand.png")
    return clip(head, 2000), embed, view, files


def story_markdown(reader: Reader) -> str | None:
    """The story told at this table as Markdown (from the public view), or None for a game without one."""
    render = renderer(reader.game)
    if render.story is None or reader.view is None:
        return None
    cast, entries = render.said("story", reader.view, reader.lang)
    ending = reader.result or reader.words.t("The story was left unfinished.")
    return story.markdown(reader.title, list(reader.players), cast, entries, ending, reader.lang)


def story_file(reader: Reader) -> discord.File | None:
    text = story_markdown(reader)
    return discord.File(io.BytesIO(text.encode()), filename="story.md") if text else None


def record_file(record: dict[str, Any], filename: str) -> discord.File:
    data = json.dumps(record, indent=1, ensure_ascii=False).encode()
    return discord.File(io.BytesIO(data), filename=filename)


# ----- notices, pings, answers ------------------------------------------------------------------
def ping(reader: Reader, users: Sequence[int], link: str) -> dict[str, Any]:
    """The short turn ping: mentions only the people who now must act; its button opens the
    private panel, which says what happened since the player's last move (this is public)."""
    mentions = " ".join(f"<@{u}>" for u in users)
    view = Sent()
    view.add_item(button(label=hand_label(reader.lang), style=discord.ButtonStyle.primary,
                         custom_id=cid(reader.table.key, reader.table.revision, "me")))
    turn = reader.words.t("{mentions} — your turn at {title}: {link}", mentions=mentions, title=reader.title, link=link)
    return {"content": turn.rstrip(": "), "view": view,
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users], everyone=False,
                                                        roles=False)}


def ending(reader: Reader, link: str, ratings: str = "", film: Any = None) -> dict[str, Any]:
    """The one message a game's end posts: how it ended, a link to the final table, the story file,
    the whole game as the public saw it (``film``: ``bot.tables.films.Film``)."""
    t, w = reader.table, reader.words
    if t.status == "finished" and reader.result:
        text = w.t("**{title} is over.** {result}", title=reader.title, result=line(reader.result))
    else:
        text = w.t("**The {title} game was abandoned.**", title=reader.title)
    if ratings:
        text += "\n" + w.t("Ratings: {ratings}", ratings=ratings)
    if link:
        text += "\n" + w.t("The final table: {link}", link=link)
    file = story_file(reader) if reader.started else None
    if file is not None:
        text += "\n" + (w.t("The story is told; here it is, to keep.") if t.status == "finished"
                        else w.t("The story stops here; here it is, to keep."))
    films = [picture_file(film.data, film.filename, film.alt)] if film is not None else []
    return {"files": [f for f in (file, *films) if f is not None], "content": clip(text, 2000)}


def private_lines(lines: Sequence[str]) -> str:
    return clip("\n".join(line(p) for p in lines), 2000)


def history(reader: Reader) -> discord.Embed:
    w = reader.words
    lines = [line(e) for e in reader.recent[-20:]] or [w.t("Nothing has happened yet.")]
    embed = discord.Embed(title=w.t("{title} — recent moves", title=reader.title), description="\n".join(lines)[:4096],
                          colour=COLOUR)
    embed.set_footer(text=w.n("{n} move so far", "{n} moves so far", reader.table.moves))
    return embed


def nothing_entry(why: str) -> list[discord.app_commands.Choice[str]]:
    """The autocomplete's one entry when nothing may be chosen: the reason, and a value that is
    refused with it when sent (:data:`NOTHING`)."""
    shown = " ".join(why.replace("`", "").split())  # a choice's name shows no Markdown
    return [discord.app_commands.Choice(name=clip(shown, 100) or "Nothing to choose now.", value=NOTHING)]


def autocomplete(reader: Reader, current: str, verb: str | None = None) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete from the reader's choices (``bot.tables.answers.completions``); when nothing may
    be chosen, one entry that says why."""
    why = nothing_to_choose(reader, verb)
    if why is not None:
        return nothing_entry(why)
    return [discord.app_commands.Choice(name=name, value=value) for name, value in completions(reader, current, verb)]
