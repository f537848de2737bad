"""Pickers: one step of an action built from a reader's choices — a row of buttons, a paged select,
a text box's button, Confirm and Back — whole moves where one more step finishes them, and the
"Are you sure?" confirmations. Part of the one place payloads are made (``bot.ui.payloads``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Option
from bot.render.panel import clip

from bot.tables.drafts import new_draft_id
from bot.tables.reader import FORFEIT_TOKENS, Reader
from bot.ui.components import Kind
from bot.ui.text import (
    CONFIRM, CUSTOM_ID_MAX, HAND_LABEL, KEEP, LABEL_MAX, PAGE, SELECT, SELECT_MAX, STEP, STEP_BUTTONS_MAX, TEXT, cid,
)


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

