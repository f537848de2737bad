"""``/game learn game:``: a private lesson table, one ephemeral message edited in place.

The message shows the lesson's table as any table shows (the public reader's panel and picture),
the learner's hand, and the lesson's words: what happened, the step with its rule and its rules
section. **Take** plays the offered move; **Choose another move** opens the learner's normal private
panel (the table's own pickers, whose custom_ids name the lesson instead of a table); at the end,
the summary and **Start a real table**. Everything is made from the lesson's readers
(``bot.tables.lessons``); every custom_id names the lesson and its revision, so the buttons work
after a restart and an older message's are refused.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.engine.words import say
from bot.i18n import language_of
from bot.engine.registry import GAME_IDS, spec
from bot.render import pictures
from bot.render.panel import clip
from bot.tables import TableError
from bot.tables.errors import StaleError
from bot.tables.lessons import STALE, LessonReader, lesson_key, parse_key
from bot.tables.reader import Reader
from bot.ui import payloads
from bot.ui.components import Kind, Sent, button, modal_id, modal_moves
from bot.ui.play import actor_of, edit_in_place, refuse

Cog = Any  # the table cog (cogs.tables.Tables): the Discord layer's modules never import a cog

log = logging.getLogger("cogs.tables")

TAKE, OTHER, AGAIN, REAL, OPEN = "o", "a", "r", "n", "s"  # a lesson button's argument
TAKE_BACK = "b"  # the picker's way back to the lesson's message
TAKE_LABEL = say("Take the offered move")
OTHER_LABEL = say("Choose another move")
REAL_LABEL = say("Start a real table")
OFFER_LABEL = say("Learn with a short lesson")


# ----- payloads ---------------------------------------------------------------------------
def with_offer(head: str, view: discord.ui.View, reader: Reader, user_id: int) -> tuple[str, discord.ui.View]:
    """A first turn's private panel with the lesson's offer (once): its line, and its button where the
    panel has room."""
    w = reader.words
    try:
        view.add_item(button(label=w.say(OFFER_LABEL), emoji="🎓", style=discord.ButtonStyle.success,
                             custom_id=payloads.cid(lesson_key(reader.game, user_id), 0, Kind.LESSON.value, OPEN)))
    except ValueError:  # five full rows: the line names the command instead
        pass
    # the line goes last: what happened since, and the turn, are read first
    line = "🎓 " + w.t("New to {title}? A short guided game against the built-in player teaches it: press **{label}** "
                      "(or `/game learn` any time).", title=reader.title, label=w.say(OFFER_LABEL))
    return f"{clip(head, 2000 - len(line) - 1)}\n{line}", view


def words(lr: LessonReader) -> str:
    w, lang = lr.seat.words, lr.seat.lang
    head = "🎓 " + w.t("**Lesson: {title}** — only you can see this.", title=lr.title)
    body = [payloads.line(t, lang) if t.startswith("What happened") else w.say(t) for t in lr.lines]
    if lr.offer is not None:
        what = w.t("Offered") if lr.scripted else w.t("Hint")
        body.append(f"**{what}:** {clip(payloads.line(lr.offer, lang), 300)}")
    else:
        body.append(w.t("Press **{label}** to play {title} for real (add a bot in the lobby to play against it).",
                        label=w.say(REAL_LABEL), title=lr.title))
    text = "\n".join([head, *body])
    if len(text) > 2000:  # what happened is the part that gives way
        told = next((b for t, b in zip(lr.lines, body, strict=False) if t.startswith("What happened")), "")
        text = "\n".join([head, *(b if b != told else clip(told, max(100, 2000 - len(text) + len(told) - 1))
                                  for b in body)])
    return clip(text, 2000)


def components(lr: LessonReader) -> discord.ui.View:
    w, lang = lr.seat.words, lr.seat.lang
    view = Sent()
    kind = Kind.LESSON.value
    if lr.offer is not None:
        view.add_item(button(label=clip(f"{w.say(TAKE_LABEL)}: {payloads.line(lr.offer, lang)}", payloads.LABEL_MAX),
                             style=discord.ButtonStyle.success, custom_id=payloads.cid(lr.key, lr.revision, kind, TAKE)))
        view.add_item(button(label=w.say(OTHER_LABEL), custom_id=payloads.cid(lr.key, lr.revision, kind, OTHER)))
    else:
        view.add_item(button(label=w.say(REAL_LABEL), emoji="🃏", style=discord.ButtonStyle.success,
                             custom_id=payloads.cid(lr.key, lr.revision, kind, REAL)))
    view.add_item(button(label=w.t("Start the lesson again"), emoji="↺",
                         custom_id=payloads.cid(lr.key, lr.revision, kind, AGAIN)))
    return view


async def message(lr: LessonReader) -> dict[str, Any]:
    """The lesson's message: its words, the table, the hand, the buttons."""
    table_png = await pictures.table_picture(lr.game, lr.public.view, lr.seat.lang)
    table = payloads.table_message(lr.public, table_png)
    seat_png = await pictures.seat_picture(lr.game, lr.seat.view, lr.seat.lang)
    _, hand, _, hand_files = payloads.seat_message(lr.seat, payloads.Drafts(), seat_png)
    hand.set_footer(text=lr.seat.words.t("{title} · a lesson, step {step} of {steps}", title=lr.title, step=lr.step,
                                         steps=lr.steps))
    return {"content": words(lr), "embeds": [table.embed, hand], "view": components(lr), "files": [*table.files, *hand_files]}


# ----- answering -----------------------------------------------------------------------
def _name(interaction: discord.Interaction) -> str:
    return actor_of(interaction).name


def _lang(interaction: discord.Interaction) -> str:
    """A lesson is private: the learner's own language."""
    return language_of(interaction.locale)


async def open_lesson(cog: Cog, interaction: discord.Interaction, game: str) -> None:
    """``/game learn`` (or the first turn's offer): the player's lesson, privately."""
    try:
        lr = await cog.desk.lessons.open(game, interaction.user.id, _name(interaction), lang=_lang(interaction))
    except TableError as e:
        return await refuse(interaction, str(e))
    await interaction.response.defer(ephemeral=True, thinking=True)
    msg = await message(lr)
    await interaction.followup.send(**msg, ephemeral=True, allowed_mentions=payloads.NO_PINGS)


async def _show(interaction: discord.Interaction, lr: LessonReader, note: str = "") -> None:
    msg = await message(lr)
    if note:
        msg["content"] = clip(f"{note}\n{msg['content']}", 2000)
    files = msg.pop("files")
    await edit_in_place(interaction, **msg, attachments=files, allowed_mentions=payloads.NO_PINGS)


async def press(cog: Cog, interaction: discord.Interaction, kind: Kind, key: str, rev: int, arg: str,
                values: list[str]) -> None:
    """A press of a lesson's message: its own buttons, or a step of its picker."""
    lessons, user, who = cog.desk.lessons, interaction.user.id, _name(interaction)
    try:
        if kind is Kind.LESSON:
            return await _lesson_button(cog, interaction, key, rev, arg)
        lr = await lessons.reader(key, user, who, _lang(interaction))
        if lr.seat.opened != rev or not lr.seat.acting:
            raise StaleError("")
        tokens = await _tokens(cog, arg, key, user, rev, kind)
        if kind is Kind.BATCH:
            moves = payloads.batch_moves(values)
        else:
            if kind is Kind.SELECT:
                tokens += (",".join(values),)  # a set's values, comma-separated
            if kind is Kind.TEXT:
                return await _text_box(interaction, lr, tokens, key, rev)
            if kind in (Kind.STEP, Kind.PAGE, Kind.SELECT):
                tokens = payloads.forced_steps(lr.seat, tokens) if tokens else tokens
                c = lr.seat.choices(tokens)
                if not (tokens and c.complete and not c.options and c.kind == "token"):
                    page = arg.partition(":")[0] if kind is Kind.PAGE else ""
                    return await _picker(cog, interaction, lr, tokens, int(page) if page.isdigit() else 0)
            moves = [m.strip() for m in " ".join(tokens).split(payloads.THEN) if m.strip()]
        lr = await lessons.play(key, user, who, moves, rev, _lang(interaction))
    except StaleError:
        return await _stale(cog, interaction, key)
    except TableError as e:
        return await refuse(interaction, str(e))
    await _show(interaction, lr)


async def _tokens(cog: Cog, arg: str, key: str, user: int, rev: int, kind: Kind) -> tuple[str, ...]:
    if kind is Kind.PAGE:
        arg = arg.partition(":")[2]
    if arg.startswith("~"):
        return await cog.desk.lessons.draft(arg[1:], key, user, rev)
    return payloads.decode_tokens(arg)


async def _lesson_button(cog: Cog, interaction: discord.Interaction, key: str, rev: int, arg: str) -> None:
    lessons, user, who = cog.desk.lessons, interaction.user.id, _name(interaction)
    if arg == OPEN:  # the first turn's offer, from a table's private panel: the lesson in a new message
        return await open_lesson(cog, interaction, parse_key(key)[0])
    if arg == TAKE:
        return await _show(interaction, await lessons.take(key, user, who, rev, _lang(interaction)))
    lr = await lessons.reader(key, user, who, _lang(interaction))
    if lr.revision != rev:
        raise StaleError("")
    if arg == OTHER:
        return await _picker(cog, interaction, lr, (), 0)
    if arg == TAKE_BACK:
        return await _show(interaction, lr)
    if arg == AGAIN:
        return await _show(interaction, await lessons.open(lr.game, user, who, again=True, lang=_lang(interaction)),
                           lr.seat.words.t("The lesson starts again."))
    if arg == REAL:
        # /game new: a lobby in this channel (add a bot to play against it)
        return await type(cog).new.callback(cog, interaction, lr.game)  # type: ignore[arg-type]
    raise TableError(say("That button is not one of mine."))


async def _picker(cog: Cog, interaction: discord.Interaction, lr: LessonReader, tokens: tuple[str, ...],
                  page: int) -> None:
    """The learner's normal private panel for the lesson's decision, in place of the lesson's message."""
    drafts = payloads.Drafts()
    text, view = payloads.picker(lr.seat, payloads.Step(tokens, page), drafts)
    await cog.desk.save_drafts(drafts, lr.seat)
    view.add_item(button(label=lr.seat.words.t("Back to the lesson"), row=4,
                         custom_id=payloads.cid(lr.key, lr.revision, Kind.LESSON.value, TAKE_BACK)))
    head = "🎓 " + lr.seat.words.t("**Lesson: {title}** — choose your own move; the lesson says what it did and goes on.",
                                   title=lr.title)
    await interaction.response.edit_message(content=clip(f"{head}\n{text}", 2000), embeds=[], view=view,
                                            attachments=[])


async def _text_box(interaction: discord.Interaction, lr: LessonReader, tokens: tuple[str, ...], key: str,
                    rev: int) -> None:
    if lr.seat.choices(tokens).kind != "text":
        raise TableError(say("The game is not asking you for that line now."))
    box = payloads.text_box(lr.seat, tokens, modal_id(key, rev, payloads.encode_tokens(tokens), lr.seat.seat or 0))
    await interaction.response.send_modal(box)
    box.stop()  # submits are answered by ``modal``, never by the box object


async def modal(cog: Cog, interaction: discord.Interaction, key: str, rev: int, arg: str, text: str) -> None:
    """A text box of the lesson's picker submitted: its line played, the next lines typed in it, and
    the move chosen in its select after them (as at a table)."""
    moves, _ = modal_moves(interaction)
    try:
        tokens = await _tokens(cog, arg, key, interaction.user.id, rev, Kind.TEXT)
        lr = await cog.desk.lessons.play(key, interaction.user.id, _name(interaction),
                                         [" ".join((*tokens, text)), *moves], rev, _lang(interaction))
    except StaleError:
        return await _stale(cog, interaction, key)
    except TableError as e:
        return await refuse(interaction, str(e))
    await _show(interaction, lr)


async def _stale(cog: Cog, interaction: discord.Interaction, key: str) -> None:
    """An older message's press: the lesson as it is now, in place of the pressed message."""
    try:
        lr = await cog.desk.lessons.reader(key, interaction.user.id, _name(interaction), _lang(interaction))
    except TableError as e:
        return await refuse(interaction, str(e))
    msg = interaction.message
    if msg is not None and msg.flags.ephemeral and not interaction.response.is_done():
        return await _show(interaction, lr, lr.seat.words.say(STALE))
    await refuse(interaction, STALE)


# ----- the command ---------------------------------------------------------------------------
class _Commands:
    """``/game learn``, added to the table cog's ``/game`` group (its ``self`` is that cog)."""

    @app_commands.command(name="learn", description="A short guided first game against the built-in player "
                                                    "(only you see it).")
    @app_commands.describe(game="Which game to learn")
    @app_commands.choices(game=[app_commands.Choice(name=spec(g).title[:100], value=g) for g in GAME_IDS])
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await open_lesson(self, interaction, game)  # type: ignore[arg-type]


def attach(group: app_commands.Group) -> None:
    """Add ``/game learn`` to the ``/game`` group (before its cog is made)."""
    group.add_command(_Commands.learn, override=True)  # type: ignore[arg-type]
