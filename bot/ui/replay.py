"""The replay viewer: ``/game replay`` steps through a finished game, privately.

One ephemeral message, edited in place: the table picture and panel at the step shown, the
move's line (its events as the chosen eyes read them then), ⏮ ◀ ▶ ⏭, a move picker (a select,
paged past 25) and, where the game's export policy allows more than the public view, whose eyes
to look through. Everything is made from readers (``bot.tables.replays``); nothing is kept in
view objects: every custom_id names the record (a stored record's id, or an attached record's
digest — a record never changes, so a button naming it is never stale) and the step shown, so
the buttons work after a restart. An attached record rides along on the viewer's message, so a
restarted bot reads it back from there.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.words import say
from bot.i18n import language_of, words
from bot.render import pictures, renderer
from bot.render.panel import clip
from bot.tables import TableError
from bot.tables.films import film
from bot.tables.replays import (
    MAX_RECORD_BYTES, Replays, Viewing, eye_code, eye_of, eyes_label, replays_of, step_label,
)
from bot.ui.components import Component, Kind, Sent, button, component_class, option, select, view_of
from bot.ui.payloads import COLOUR, NO_PINGS, SELECT_MAX, alt_text, cid, embed_from_panel, line, name, picture_file
from bot.ui.play import DEFER_AFTER, edit_in_place, refuse

if TYPE_CHECKING:
    from bot.tables.desk import Desk

log = logging.getLogger("cogs.tables")

REPLAY_KINDS = frozenset({Kind.REPLAY, Kind.REPLAY_PICK, Kind.REPLAY_EYES, Kind.REPLAY_SHARE, Kind.REPLAY_OPEN})
PER_PAGE = SELECT_MAX - 2  # steps a page of the picker; the other two options turn its pages
RECORD_FILE = "record.json"
PICTURE_FILE = "replay.png"
WHICH = {"f": "⏮", "b": "◀", "n": "▶", "l": "⏭"}
FILM = "🎞"  # the whole game as an animation, sent privately


def page_of(step: int) -> int:
    return step // PER_PAGE


def frame_message(viewing: Viewing, step: int, seat: int | None, picture: bytes | None,
                  page: int | None = None, lang: str = "en") -> dict[str, Any]:
    """The viewer at ``step`` through ``seat``'s eyes: content, embed, components and the picture, in
    ``lang`` (the viewer's)."""
    replay = viewing.replay
    reader = viewing.reader(step, seat).in_language(lang)
    w = reader.words
    r = renderer(replay.game)
    panel = r.table_panel(reader.view, with_picture=picture is not None, lang=lang)
    head = w.t("**The deal.**") if step == 0 else w.t("**Move {step} of {last}** — {mover}", step=step, last=replay.last,
                                                        mover=name(replay.mover(step)))
    told = "\n".join(f"• {line(t, lang)}" for t in viewing.line(step, seat)[:6])
    panel.description = clip("\n".join(x for x in (head, told, panel.description) if x), 4096)
    panel.title = clip(w.t("{title} — replay", title=replay.title), 256)
    if seat is not None and r.hand_text is not None:
        panel.fields.insert(0, (w.t("{name}'s hand", name=name(replay.players[seat])),
                                clip(r.said("hand_text", reader.view, lang), 1024), False))
    if viewing.tells_all:
        policy = w.t("every seat's view may be shown now the game is over")
    elif len(viewing.eyes) > 1:
        policy = w.t("its secrets stay secret after the game: the public view, and your own, only")
    else:
        policy = w.t("its secrets stay secret after the game: the public view only")
    ending = f" · {reader.said(replay.summary)}" if step == replay.last else ""  # the result is told when it happens
    panel.footer = clip(f"{eyes_label(viewing, seat, w)} · {replay.title}: {policy}{ending}", 2048)
    embed = embed_from_panel(panel)
    embed.colour = COLOUR
    files = [picture_file(picture, PICTURE_FILE, alt_text(reader))] if picture else []
    if picture:
        embed.set_image(url=f"attachment://{PICTURE_FILE}")
    players = ", ".join(name(p) for p in replay.players)
    content = clip(w.t("Replay of {title} played in {where} ({players}) — only you can see this.", title=replay.title,
                       where=viewing.where, players=players) if viewing.where else
                   w.t("Replay of {title} ({players}) — only you can see this.", title=replay.title, players=players),
                   2000)
    return {"content": content, "embed": embed, "view": components(viewing, step, seat, page, lang), "files": files}


def components(viewing: Viewing, step: int, seat: int | None, page: int | None = None,
               lang: str = "en") -> discord.ui.View:
    w = words(lang)
    replay = viewing.replay
    key, eye = replay.key, eye_code(seat)
    view = Sent()
    last = replay.last
    targets = {"f": 0, "b": step - 1, "n": step + 1, "l": last}
    for which, emoji in WHICH.items():
        off = not 0 <= targets[which] <= last or targets[which] == step
        view.add_item(button(emoji=emoji, row=0, disabled=off, custom_id=cid(key, step, Kind.REPLAY.value, f"{which}.{eye}")))
    view.add_item(button(emoji=FILM, label=w.t("Animation"), row=3, disabled=not viewing.may_film(seat),
                         custom_id=cid(key, step, Kind.REPLAY.value, f"a.{eye}")))
    view.add_item(button(label=w.t("Share this moment"), emoji="📣", row=3,
                         custom_id=cid(key, step, Kind.REPLAY_SHARE.value, "p")))
    page = page_of(step) if page is None else max(0, min(page, page_of(last)))

    def moves(p: int) -> str:  # the option that turns to page ``p``
        return w.t("Moves {first}–{last}", first=p * PER_PAGE, last=min(last, (p + 1) * PER_PAGE - 1))

    options = [option("« " + moves(page - 1), f"p{page - 1}", emoji="📜")] if page else []
    options += [option(step_label(viewing, s, seat, w), f"s{s}", default=s == step)
                for s in range(page * PER_PAGE, min(last + 1, (page + 1) * PER_PAGE))]
    if (page + 1) * PER_PAGE <= last:
        options.append(option(moves(page + 1) + " »", f"p{page + 1}", emoji="📜"))
    view.add_item(select(custom_id=cid(key, step, Kind.REPLAY_PICK.value, f"{page}.{eye}"), row=1,
                         placeholder=w.t("Go to a move…"), options=options))
    if len(viewing.eyes) > 1:
        view.add_item(select(custom_id=cid(key, step, Kind.REPLAY_EYES.value, eye), row=2, placeholder=w.t("Whose eyes…"),
                             options=[option(eyes_label(viewing, s, w), eye_code(s), default=s == seat) for s in viewing.eyes]))
    return view


async def picture_of(viewing: Viewing, step: int, seat: int | None, lang: str = "en") -> bytes | None:
    """The table at ``step`` as ``seat`` saw it (a seat's eyes: its own side shown), its words in ``lang``."""
    reader = viewing.reader(step, seat)
    return await pictures.table_picture(reader.game, reader.view, lang)


async def frame(viewing: Viewing, step: int, seat: int | None, page: int | None = None,
                lang: str = "en") -> dict[str, Any]:
    return frame_message(viewing, step, seat, await picture_of(viewing, step, seat, lang), page, lang)


async def moment(viewing: Viewing, step: int, who: str, lang: str = "en") -> dict[str, Any]:
    """A shared moment, posted publicly: the step's public picture and words (from the public
    reader, whatever eyes ``viewing`` looked through) and a button opening the viewer there; in
    ``lang`` (the channel's)."""
    msg = await frame(viewing.public(), step, None, lang=lang)
    replay = viewing.replay
    w = words(lang)
    players = ", ".join(name(p) for p in replay.players)
    msg["content"] = clip(w.t("{who} shares the deal of a {title} game ({players}).", who=name(who),
                              title=replay.title, players=players) if step == 0 else
                          w.t("{who} shares move {step} of {last} of a {title} game ({players}).", who=name(who),
                              step=step, last=replay.last, title=replay.title, players=players), 2000)
    msg["view"] = view_of(button(label=w.t("Open the replay here"), style=discord.ButtonStyle.primary,
                                 custom_id=cid(replay.key, step, Kind.REPLAY_OPEN.value, "p")))
    return msg


# ----- an attached record ------------------------------------------------------------------
async def read_attachment(attachment: discord.Attachment) -> Any:
    if attachment.size > MAX_RECORD_BYTES:
        raise TableError(say("That file is too large for a record ({size} KB).", size=attachment.size // 1000))
    try:
        data = await attachment.read()
    except discord.HTTPException:
        raise TableError(say("I could not read that file; try attaching it again.")) from None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TableError(say("That file is not a Deckhand record (a JSON file from `/game export`).")) from None


# ----- the buttons ------------------------------------------------------------------------
async def viewing_for(replays: Replays, interaction: discord.Interaction, key: str) -> Viewing:
    if key.startswith("f"):
        found = replays.cached_file(key)
        if found is not None:
            return found
        message = interaction.message
        attached = next((a for a in (message.attachments if message else []) if a.filename == RECORD_FILE), None)
        viewing = await replays.open_file(await read_attachment(attached)) if attached is not None else None
        if viewing is None or viewing.replay.key != key:
            raise TableError(say("This replay's record is no longer attached; run `/game replay` with the file again."))
        return viewing
    return await replays.open(key, interaction.channel_id or 0, interaction.guild_id, interaction.user.id)


async def on_component(desk: "Desk", interaction: discord.Interaction, kind: Kind, key: str, step: int, arg: str,
                       values: list[str]) -> None:
    """A press in the viewer: the same message, at the new step or through the new eyes. A step
    seen before is drawn from the caches; a first one after a restart (a long game replayed) may
    take longer than Discord waits, and is then answered by a deferred edit. The animation, Share
    and a shared moment's Open answer with a new message."""
    lang = language_of(interaction.locale)  # the viewer's own language
    if kind is Kind.REPLAY and arg.startswith("a."):
        return await send_new(desk, interaction, key, lambda v: film_message(v, eye_of(arg[2:]), lang), ephemeral=True)
    if kind is Kind.REPLAY_OPEN:
        return await send_new(desk, interaction, key, lambda v: frame(v, v.step(step), None, lang=lang), ephemeral=True)
    if kind is Kind.REPLAY_SHARE:
        who = str(interaction.user.display_name)
        here = language_of(interaction.guild_locale) if interaction.guild_id is not None else lang  # posted publicly
        return await send_new(desk, interaction, key, lambda v: moment(v, v.step(step), who, here), ephemeral=False)
    work = asyncio.ensure_future(_pressed(desk, interaction, kind, key, step, arg, values, lang))
    done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer()
    try:
        msg = await work
    except TableError as e:
        return await refuse(interaction, str(e))
    files = msg.pop("files")
    keep = [a for a in (interaction.message.attachments if interaction.message else []) if a.filename == RECORD_FILE]
    await edit_in_place(interaction, **msg, attachments=[*keep, *files], allowed_mentions=NO_PINGS)


async def send_new(desk: "Desk", interaction: discord.Interaction, key: str, make: Any, *, ephemeral: bool) -> None:
    """A press answered by a new message (``make(viewing)``: a shared moment, the viewer opened at a
    step, an animation), after a deferral: drawing it may take a second or two."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    try:
        msg = await make(await viewing_for(replays_of(desk), interaction, key))
    except TableError as e:
        return await refuse(interaction, str(e))
    await interaction.followup.send(**msg, ephemeral=ephemeral, allowed_mentions=NO_PINGS)


async def film_message(viewing: Viewing, seat: int | None, lang: str = "en") -> dict[str, Any]:
    """The whole game through ``seat``'s eyes (None: the public's), as an animation, for the one who asked
    (in ``lang``, theirs)."""
    made = await film(viewing, seat, lang)
    if made is None:
        raise TableError(say("The animation could not be drawn this time; try again later."))
    w = words(lang)
    eyes = w.t("the public view") if seat is None else w.t("{name}'s view", name=name(viewing.replay.players[seat]))
    return {"content": clip(w.t("{title}, the whole game ({eyes}) — only you can see this.", title=viewing.replay.title,
                                eyes=eyes), 2000),
            "file": picture_file(made.data, made.filename, made.alt)}


async def _pressed(desk: "Desk", interaction: discord.Interaction, kind: Kind, key: str, step: int, arg: str,
                   values: list[str], lang: str = "en") -> dict[str, Any]:
    viewing = await viewing_for(replays_of(desk), interaction, key)
    last = viewing.replay.last
    page = None
    which, _, eye = arg.partition(".")  # ⏮ ◀ ▶ ⏭ and the move picker: what, then whose eyes
    if kind is Kind.REPLAY:
        seat = eye_of(eye)
        step = {"f": 0, "b": step - 1, "n": step + 1, "l": last}.get(which, step)
    elif kind is Kind.REPLAY_PICK:
        seat = eye_of(eye)
        value = values[0] if values else ""
        if value[:1] == "p" and value[1:].isdigit():
            page = int(value[1:])
        elif value[:1] == "s" and value[1:].isdigit():
            step = int(value[1:])
    else:
        seat = eye_of(values[0]) if values else eye_of(arg)
    step = max(0, min(step, last))
    if not viewing.allowed(seat):
        raise TableError(say("You may not look through that seat's eyes in this game."))
    return await frame(viewing, step, seat, page, lang)


class ReplayItem(Component):
    """Base of the viewer's components (restart-safe: everything is in the custom_id, whose table
    part names the record and whose revision part is the step shown)."""

    kind: Kind = Kind.REPLAY

    @property
    def key(self) -> str:
        return self.tid

    @property
    def step(self) -> int:
        return self.rev

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(getattr(self.item, "values", []) or [])  # type: ignore[attr-defined]
        try:
            await on_component(interaction.client.desk, interaction, self.kind, self.key, self.step,  # type: ignore[attr-defined]
                               self.arg, values)
        except Exception:
            log.exception("the replay viewer failed")
            if not interaction.response.is_done():
                await refuse(interaction, say("Something went wrong on my side; nothing was changed."))


def _item(kind: Kind) -> type:
    return component_class(kind, select=kind in (Kind.REPLAY_PICK, Kind.REPLAY_EYES), base_class=ReplayItem)


REPLAY_COMPONENTS = [_item(k) for k in sorted(REPLAY_KINDS, key=lambda k: k.value)]


def with_viewer(table_components: list[type]) -> list[type]:
    """The table's components with the replay kinds answered here instead."""
    return [c for c in table_components if getattr(c, "kind", None) not in REPLAY_KINDS] + REPLAY_COMPONENTS


class _Commands:
    """``/game replay``, added to the table cog's ``/game`` group (its ``self`` is that cog)."""

    desk: "Desk"

    @app_commands.command(name="replay", description="Step through a finished game of this channel or server "
                                                     "(only you see it).")
    @app_commands.describe(game="A recent finished game (start typing to pick one; empty: the last one here)",
                           record="An exported record (the JSON file from /game export)",
                           move="Open it at this move (0: the deal)")
    async def replay(self, interaction: discord.Interaction, game: str | None = None,
                     record: discord.Attachment | None = None, move: int | None = None) -> None:
        """``/game replay``: a finished game of this channel or server (``game``: its key, from the
        autocomplete; neither: the last one here) or an attached record, from its deal (or ``move``)."""
        replays = replays_of(self.desk)
        record_json = None
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)  # a first replay takes a moment
            if record is not None:
                record_json = await read_attachment(record)
                viewing = await replays.open_file(record_json)
            else:
                key = (game or "").strip()
                if not key:
                    found = await replays.recent(interaction.channel_id or 0, interaction.guild_id, interaction.user.id)
                    here = [g for g in found if g.here]
                    if not here:
                        raise TableError(say("No finished game here to replay. Pick one with the `game` option, or attach "
                                         "a record from `/game export`."))
                    key = here[0].key
                viewing = await replays.open(key, interaction.channel_id or 0, interaction.guild_id, interaction.user.id)
            msg = await frame(viewing, viewing.step(move) if move is not None else 0, None,
                              lang=language_of(interaction.locale))  # a private viewer: its reader's language
        except TableError as e:
            return await refuse(interaction, str(e))
        files = msg.pop("files")
        if record_json is not None:  # the record rides along: a restarted bot reads it back from the message
            data = json.dumps(record_json, ensure_ascii=False).encode()
            files.append(discord.File(io.BytesIO(data), filename=RECORD_FILE))
        await interaction.followup.send(**msg, files=files, ephemeral=True, allowed_mentions=NO_PINGS)

    @replay.autocomplete("game")
    async def replay_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The autocomplete: recent finished games here (and in this server, those the user played)."""
        try:
            found = await replays_of(self.desk).recent(interaction.channel_id or 0, interaction.guild_id, interaction.user.id)
        except Exception:  # an autocomplete never fails loudly
            log.exception("the replay list failed")
            return []
        needle = current.strip().lower()
        w = words(language_of(interaction.locale))
        out = []
        for g in found:
            label = g.label(w) if g.here else w.t("{game} (elsewhere)", game=g.label(w))
            if needle and needle not in label.lower() and needle != g.key:
                continue
            out.append(app_commands.Choice(name=clip(label, 100), value=g.key))
        return out[:25]


def attach(group: app_commands.Group) -> None:
    """Add ``/game replay`` to the ``/game`` group (before its cog is made)."""
    group.add_command(_Commands.replay, override=True)  # type: ignore[arg-type]
