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
from bot.tables.offers import (  # noqa: F401 — the pickers' words and moves, reached from here too
    THEN, Shortcut, back_to, batch_moves, batch_value, forced_steps, move_label, options_key, pick_words, press_moves,
    said_label, shortcuts,
)
from bot.tables.reader import FORFEIT_TOKENS, Reader
from bot.ui.components import Kind, Sent, add, button, option, select, view_of
from bot.ui.text import (
    CONFIRM, CUSTOM_ID_MAX, KEEP, LABEL_MAX, PAGE, SELECT, SELECT_MAX, STEP, STEP_BUTTONS_MAX, TEXT, cid,
    hand_label,
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


_STYLES = {"primary": discord.ButtonStyle.primary, "danger": discord.ButtonStyle.danger,
           "success": discord.ButtonStyle.success}


def _button_style(option_style: str) -> discord.ButtonStyle:
    return _STYLES.get(option_style, discord.ButtonStyle.secondary)


def _label(o: Option) -> str:
    return clip(pretty_text(o.label or o.token), LABEL_MAX)


def _shortcut_kwargs(tid: str, rev: int, s: Shortcut, drafts: Drafts) -> dict[str, Any]:
    """A shortcut's button, as the arguments of :func:`bot.ui.components.button`."""
    kind = TEXT if s.text else STEP
    label = clip(pretty_text(f"✍ {s.label}" if s.text else s.label), LABEL_MAX)
    return {"label": label, "style": _button_style(s.style),
            "custom_id": cid(tid, rev, kind, drafts.arg(tid, rev, kind, s.tokens))}


def picker(reader: Reader, step: Step, drafts: Drafts) -> tuple[str, discord.ui.View]:
    """A private step of building an action: the reader's choices after ``step.tokens``."""
    tid, rev = reader.table.key, reader.opened
    w = reader.words
    c = reader.choices(step.tokens)
    view = Sent()
    lines: list[str] = []
    if step.tokens:
        lines.append(w.t("**So far:** {steps}", steps=clip(pretty_text(" → ".join(reader.so_far(step.tokens))), 1500)))
    if c.progress is not None:
        lines.append(f"**{c.progress}**")
    if c.prompt:
        lines.append(pretty_text(c.prompt))
    if c.empty:
        return w.t("That choice is no longer open. Press **{button}** for your current choices.",
                   button=hand_label(reader.lang)), view
    options = list(c.options)
    apart = [o for o in options if o.token in FORFEIT_TOKENS] if c.kind == "token" and not step.tokens else []
    options = [o for o in options if o not in apart]
    for o in apart:  # the game's concede/resign: apart from the moves, on the bottom row (it asks to confirm)
        view.add_item(button(label=_label(o), style=discord.ButtonStyle.danger, row=4,
                             custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,)))))
    short = shortcuts(options, step.tokens, reader.choices, STEP_BUTTONS_MAX) if c.kind == "token" and options else None
    if short is not None:
        for s in short:
            view.add_item(button(**_shortcut_kwargs(tid, rev, s, drafts)))
    elif c.kind == "token" and len(options) <= STEP_BUTTONS_MAX:
        for o in options:
            view.add_item(button(label=_label(o), style=_button_style(o.style),
                            custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens + (o.token,)))))
    elif c.kind in ("token", "set", "range"):
        _select(view, lines, c, options, tid, rev, step, drafts)
    elif c.kind == "text":
        view.add_item(button(label=clip(f"✍ {pretty_text(c.prompt or 'Write')}", LABEL_MAX),
                        style=discord.ButtonStyle.success,
                        custom_id=cid(tid, rev, TEXT, drafts.arg(tid, rev, TEXT, step.tokens))))
    if not step.tokens and c.kind == "token":
        for component, row in in_one_press(reader, options, drafts):
            add(view, component, row)
    if c.complete and step.tokens:
        view.add_item(button(label=w.t("Confirm"), style=discord.ButtonStyle.success, row=4,
                             custom_id=cid(tid, rev, CONFIRM, drafts.arg(tid, rev, CONFIRM, step.tokens))))
    if step.tokens:
        view.add_item(button(label="↩ " + w.t("Back"), style=discord.ButtonStyle.secondary, row=4,
                             custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, back_to(reader, step.tokens)))))
    return clip("\n".join(lines) or w.t("Choose:"), 2000), view


# ----- several moves in one press ---------------------------------------------------------------
_BATCH_ROW, _AMOUNT_ROW, _CHAIN_ROW = 1, 2, 3


def in_one_press(reader: Reader, options: Sequence[Option], drafts: Drafts) -> list[tuple[discord.ui.Item, int]]:
    """At the start of a decision that runs until the seat passes (a phase of a turn; each kind
    looks ahead to see that it does): selects and a button that make several moves in one press,
    each still applied and logged alone (``several``, ``one_pick``, ``passing_chain``). Each with
    its row."""
    tid, rev = reader.table.key, reader.opened
    items: list[tuple[discord.ui.Item, int]] = []
    # bench: CPU per interaction — a panel's look-ahead, kept with the game for its next readers (0.1 ms a press)
    found = reader.kept(("in_one_press", options_key(options)), lambda: press_moves(reader, options))
    if found is None:
        return items  # a decision of one move (or whose passing step draws): each press is a whole move
    many, quick, chain = found
    batch_cid = cid(tid, rev, Kind.BATCH.value, "")
    if len(many) >= 2:
        items.append((select(custom_id=batch_cid + "1", placeholder="Several at once (played in this order)…",
                             max_values=len(many), options=[option(clip(pretty_text(label), 100), batch_value(i, tokens))
                                                            for i, (tokens, label) in enumerate(many)]), _BATCH_ROW))
    if quick:
        items.append((select(custom_id=batch_cid + "2", placeholder=pick_words(reader, quick),
                             options=[option(clip(pretty_text(label), 100), batch_value(i, tokens))
                                      for i, (tokens, label) in enumerate(quick)]), _AMOUNT_ROW))
    if chain:
        tokens = tuple(x for i, (t, _) in enumerate(chain) for x in ((THEN,) if i else ()) + t)
        items.append((button(label=clip("⏭ " + " → ".join(pretty_text(label) for _, label in chain), LABEL_MAX),
                             style=discord.ButtonStyle.primary,
                             custom_id=cid(tid, rev, CONFIRM, drafts.arg(tid, rev, CONFIRM, tokens))), _CHAIN_ROW))
    return items


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
    view.add_item(select(custom_id=cid(tid, rev, SELECT, drafts.arg(tid, rev, SELECT, step.tokens)),
                    placeholder=clip(pretty_text(c.prompt or "Choose…"), 150), min_values=lo, max_values=max(hi, 1),
                    options=[option(clip(pretty_text(label), 100), token[:100]) for token, label in shown]))
    if pages > 1:
        lines.append(f"Page {page + 1} of {pages}.")
        for delta, text in ((-1, "◀ Previous"), (1, "Next ▶")):
            target = page + delta
            view.add_item(button(label=text, style=discord.ButtonStyle.secondary, disabled=not 0 <= target < pages,
                                 row=4, custom_id=cid(tid, rev, PAGE, drafts.arg(tid, rev, PAGE, step.tokens,
                                                                                 extra=str(max(target, 0))))))


def public_moves(reader: Reader, drafts: Drafts, limit: int, forfeits: bool = False) -> list[discord.ui.Item]:
    """A public decision's first step as buttons when they fit in ``limit``; else nothing. The
    game's concede/resign is never among them: ``forfeits=True`` gives just those (to sit apart)."""
    offer = reader.public_moves()
    if offer is None or offer.choices.kind != "token" or not offer.choices.options:
        return []
    options = [o for o in offer.choices.options if (o.token in FORFEIT_TOKENS) == forfeits]
    if not options or len(options) > limit:
        return []
    tid, rev = reader.table.key, offer.opened
    short = shortcuts(options, (), reader.public_choices, limit) if not forfeits else None
    if short is not None:
        return [button(**_shortcut_kwargs(tid, rev, s, drafts)) for s in short]
    return [button(label=_label(o), style=discord.ButtonStyle.danger if forfeits else _button_style(o.style),
                   custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,)))) for o in options]


def confirm_view(tid: str, rev: int, kind: str, arg: str) -> discord.ui.View:
    """Confirm / Keep playing under an "Are you sure?" (the confirm is revision-checked)."""
    return view_of(button(label="Confirm", style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, kind, arg)),
                   button(label="Keep playing", style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, KEEP)))


def move_down_view(reader: Reader) -> discord.ui.View:
    """The one button under /game status's private copy: move the table down the channel."""
    return view_of(button(label="Move the table down", style=discord.ButtonStyle.primary,
                          custom_id=cid(reader.table.key, reader.table.revision, Kind.MOVE_DOWN.value)))

