"""The private panel's components made as dicts (``bot.ui.components.PlainView``) are byte for byte
what the ``discord.ui.View`` of ``discord.ui`` buttons and selects it was built as made: at every
acting seat's first step, its deeper steps and their pages, over played games of every game.

``views_picker`` below is the panel as it was built before, kept here as the reference."""

from __future__ import annotations

import itertools
import random

import discord
import pytest

from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Decision, Option, Progress
from bot.engine.registry import spec, specs
from bot.render.panel import clip
from bot.tables.reader import ASKED, FORFEIT_TOKENS, Reader, TableFacts
from bot.ui import pickers
from bot.ui.components import Kind, PlainView
from bot.ui.text import CONFIRM, HAND_LABEL, LABEL_MAX, PAGE, SELECT, SELECT_MAX, STEP, STEP_BUTTONS_MAX, TEXT, cid
from tests.test_reader_asked import make_table

GAMES = [(s.id, n, o) for s in specs() for n, o in
         ([(2, []), (4, ["Teams"])] if s.id == "maginot_line" else [(s.state.min_players, [])])]


def wire(components) -> str:
    """The bytes discord.py sends (its own JSON encoder)."""
    return discord.utils._to_json(components)


# ----- the panel as a View of discord.ui items (the reference) ------------------------------------
def _views_shortcut_button(tid, rev, s, drafts) -> discord.ui.Button:
    kind = TEXT if s.text else STEP
    label = clip(pretty_text(f"✍ {s.label}" if s.text else s.label), LABEL_MAX)
    return discord.ui.Button(label=label, style=pickers._button_style(s.style),
                             custom_id=cid(tid, rev, kind, drafts.arg(tid, rev, kind, s.tokens)))


def _views_in_one_press(reader, options, drafts) -> list[discord.ui.Item]:
    tid, rev = reader.table.key, reader.opened
    items: list[discord.ui.Item] = []
    found = reader.kept(("in_one_press", pickers._options_key(options)), lambda: pickers._press_moves(reader, options))
    if found is None:
        return items
    many, quick, chain = found
    batch_cid = cid(tid, rev, Kind.BATCH.value, "")
    if len(many) >= 2:
        select = discord.ui.Select(custom_id=batch_cid + "1", placeholder="Several at once (played in this order)…",
                                   min_values=1, max_values=len(many), row=1)
        for i, (tokens, label) in enumerate(many):
            select.add_option(label=clip(pretty_text(label), 100), value=pickers.batch_value(i, tokens))
        items.append(select)
    if quick:
        select = discord.ui.Select(custom_id=batch_cid + "2", min_values=1, max_values=1, row=2,
                                   placeholder="In one pick (building: what finishes it, or all you have)…")
        for i, (tokens, label) in enumerate(quick):
            select.add_option(label=clip(pretty_text(label), 100), value=pickers.batch_value(i, tokens))
        items.append(select)
    if chain:
        tokens = tuple(x for i, (t, _) in enumerate(chain) for x in ((pickers.THEN,) if i else ()) + t)
        items.append(discord.ui.Button(
            label=clip("⏭ " + " → ".join(pretty_text(label) for _, label in chain), LABEL_MAX),
            style=discord.ButtonStyle.primary, row=3,
            custom_id=cid(tid, rev, CONFIRM, drafts.arg(tid, rev, CONFIRM, tokens))))
    return items


def _views_select(view, lines, c, options, tid, rev, step, drafts) -> None:
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


def views_picker(reader: Reader, step: pickers.Step, drafts: pickers.Drafts) -> tuple[str, discord.ui.View]:
    """``pickers.picker`` as it was: a View of discord.ui items."""
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
    for o in apart:
        view.add_item(discord.ui.Button(label=pickers._label(o), style=discord.ButtonStyle.danger, row=4,
                                        custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, (o.token,)))))
    short = pickers.shortcuts(options, step.tokens, reader.choices, STEP_BUTTONS_MAX) if c.kind == "token" else None
    if c.kind == "token" and not options:
        pass
    elif short is not None:
        for s in short:
            view.add_item(_views_shortcut_button(tid, rev, s, drafts))
    elif c.kind == "token" and len(options) <= STEP_BUTTONS_MAX:
        for o in options:
            view.add_item(discord.ui.Button(
                label=pickers._label(o), style=pickers._button_style(o.style),
                custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens + (o.token,)))))
    elif c.kind in ("token", "set", "range"):
        _views_select(view, lines, c, options, tid, rev, step, drafts)
    elif c.kind == "text":
        view.add_item(discord.ui.Button(
            label=clip(f"✍ {pretty_text(c.prompt or 'Write')}", LABEL_MAX), style=discord.ButtonStyle.success,
            custom_id=cid(tid, rev, TEXT, drafts.arg(tid, rev, TEXT, step.tokens))))
    if not step.tokens and c.kind == "token":
        for item in _views_in_one_press(reader, options, drafts):
            view.add_item(item)
    if c.complete and step.tokens:
        view.add_item(discord.ui.Button(
            label="Confirm", style=discord.ButtonStyle.success, row=4,
            custom_id=cid(tid, rev, CONFIRM, drafts.arg(tid, rev, CONFIRM, step.tokens))))
    if step.tokens:
        view.add_item(discord.ui.Button(
            label="↩ Back", style=discord.ButtonStyle.secondary, row=4,
            custom_id=cid(tid, rev, STEP, drafts.arg(tid, rev, STEP, step.tokens[:-1]))))
    return clip("\n".join(lines) or "Choose:", 2000), view


# ----- the comparison ------------------------------------------------------------------------------
def steps_of(reader: Reader) -> list[pickers.Step]:
    """The first step, each first option's step and each of its options' (two deep), and the pages
    of every step with more options than a select holds."""
    out = [pickers.Step(())]
    for o in reader.choices(()).options if reader.choices(()).kind == "token" else ():
        out.append(pickers.Step((o.token,)))
        nxt = reader.choices((o.token,))
        if nxt.kind == "token":
            out += [pickers.Step((o.token, x.token)) for x in nxt.options[:8]]
    paged = []
    for s in out:
        c = reader.choices(s.tokens)
        n = (c.hi - c.lo + 1) if c.kind == "range" else len(c.options)
        paged += [pickers.Step(s.tokens, page) for page in range(1, -(-n // SELECT_MAX))]
    return out + paged + [pickers.Step((), page=3), pickers.Step(("no-such-token",))]


def compare(table, game, seat: int, step: pickers.Step, monkeypatch) -> tuple[str, str, list]:
    """The step built both ways, each with a fresh reader (nothing kept between) and the same
    draft ids; the two must be the same text, the same bytes and the same drafts."""
    made = []
    for build in (views_picker, pickers.picker):
        counter = itertools.count()
        monkeypatch.setattr(pickers, "new_draft_id", lambda c=counter: f"d{next(c):03d}")
        drafts = pickers.Drafts()
        text, view = build(Reader(TableFacts.of(table), game, seat), step, drafts)
        made.append((text, wire(view.to_components()), sorted(drafts.pending.items())))
        if build is pickers.picker:
            assert type(view) is PlainView
            assert view.is_dispatchable() == bool(view.to_components())
    assert made[0] == made[1], (table.game, table.revision, seat, step)
    return made[1]


class Synthetic:
    """A stand-in game of two steps of ``n`` options each (or a number 0..n, or a line of text),
    its tokens ``width`` characters long (long ones need drafts), a concede among them."""

    title = "Synthetic"
    forfeited: list[int] = []

    def __init__(self, n: int, kind: str = "token", width: int = 2):
        self.n, self.kind, self.width = n, kind, width

    def opened_at(self, seat: int) -> int:
        return 7

    def decisions(self):
        return (Decision(0),)

    def choices(self, seat, prefix=()):
        if len(prefix) >= 2:
            return Choices(complete=True)
        if self.kind == "range":
            return Choices("range", lo=0, hi=self.n, prompt="How many?", complete=bool(prefix),
                           progress=Progress("Markers", 3, 9) if prefix else None)
        if self.kind == "text":
            return Choices("text", max_len=200, prompt="Say it" if prefix else "")
        opts = tuple(Option(f"{i:0{self.width}d}", f"Option {i}", style=("", "primary", "danger")[i % 3])
                     for i in range(self.n))
        if not prefix:
            opts += (Option("concede", "Concede"),)
        return Choices(self.kind, opts, lo=1, hi=4, complete=bool(prefix), prompt="Pick" if prefix else "")


@pytest.mark.parametrize("n,kind,width", [(3, "token", 2), (5, "token", 40), (9, "token", 2), (60, "token", 2),
                                          (60, "set", 45), (30, "range", 2), (1, "text", 2)])
def test_steps_of_every_shape_are_their_views_byte_for_byte(n, kind, width, monkeypatch):
    from tests.test_ui import row

    game = Synthetic(n, kind, width)
    table = row()
    made = []
    first, second = f"{0:0{width}d}", f"{1:0{width}d}"
    for tokens in ((), (first,), (second,), (first, second), ("no-such-token",)):
        for page in range(4):
            made.append(compare(table, game, 0, pickers.Step(tokens, page), monkeypatch))
    sent = "".join(m[1] for m in made)
    assert (":p:" in sent) == ((n + 1 if kind == "range" else n) > SELECT_MAX)  # paged past a select's 25
    assert any(drafts for _, _, drafts in made) == (width >= 40)  # tokens too long for a custom_id


@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_the_panels_dicts_are_its_views_byte_for_byte(game_id, seats, options, monkeypatch):
    ASKED.clear()
    game = spec(game_id).state.new([f"p{i}" for i in range(seats)], options, seed=2)
    rng = random.Random(2)
    log: list[list] = []
    kinds: set[str] = set()
    compared = 0
    for move_no in range(120):
        if game.outcome() is not None:
            break
        for seat in sorted(game.to_act()) if move_no % 3 == 0 else ():  # every acting seat, at every third move
            table = make_table(log, game_id, seats, options)
            for step in steps_of(Reader(TableFacts.of(table), game, seat)):
                _, sent, _ = compare(table, game, seat, step, monkeypatch)
                compared += 1
                kinds |= {f'"type":{t}' for t in (2, 3) if f'"type":{t}' in sent}
                kinds |= {"in one press"} if ":b:" in sent else set()
        seat = min(game.to_act())
        move = str(spec(game_id).player(game, seat, rng))
        game = game.apply(seat, move)[0]
        log.append([seat, move, 0])
    assert compared >= 20
    assert '"type":2' in kinds  # buttons
    if game_id == "maginot_line":
        assert {'"type":3', "in one press"} <= kinds, kinds  # selects, and the several-moves-at-once ones
