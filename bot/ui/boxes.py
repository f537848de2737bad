"""A line of text's box (a Discord modal): the line, the same seat's next lines when the rules ask
for nothing between them, and the move that follows them (the pass after a story line) as a
select in the same box — so a telling and its pass are one submit."""

from __future__ import annotations

import discord

from bot.engine.cards import pretty_text
from bot.render.panel import clip
from bot.tables.reader import FORFEIT_TOKENS, Reader
from bot.ui.components import LINE_ID, THEN_ID
from bot.tables.offers import shortcuts, whole
from bot.ui.text import SELECT_MAX


def text_box(reader: Reader, tokens: tuple[str, ...], custom_id: str) -> discord.ui.Modal:
    """The text box of a line of text; the same seat's next lines when the rules ask for nothing
    between (a last telling, then its wrap-up), each optional; and when the same seat's next step
    after them is a short list of whole moves (the pass after a story line), a select of that move
    in the same box."""
    c = reader.choices(tokens)
    label = clip(pretty_text(c.prompt or "Your line"), 45)
    modal = discord.ui.Modal(title=label, timeout=None, custom_id=custom_id)
    modal.add_item(discord.ui.TextInput(label=label or "Text", style=discord.TextStyle.paragraph,
                                        required=c.required, max_length=max(1, min(c.max_len or 1000, 4000))))
    now: Reader | None = reader
    for _ in range(3):  # the same seat's next lines, while the rules ask for nothing else between
        nxt = now.after(" ".join((*tokens, "…"))) if now is not None else None
        root = nxt.choices(()) if nxt is not None else None
        if nxt is None or root is None or len(root.options) != 1 or nxt.choices((root.options[0].token,)).kind != "text":
            break
        verb = root.options[0].token
        line = nxt.choices((verb,))
        modal.add_item(discord.ui.Label(
            text=clip(pretty_text(line.prompt or verb), 45), description="Optional now: leave it empty to write it later.",
            component=discord.ui.TextInput(custom_id=f"{LINE_ID}{verb}"[:100], style=discord.TextStyle.paragraph,
                                           required=False, max_length=max(1, min(line.max_len or 1000, 4000)))))
        now, tokens = nxt, (verb,)
    then = _then_select(now, tokens) if now is not None else None
    if then is not None:
        modal.add_item(then)
    return modal


def _then_select(reader: Reader, tokens: tuple[str, ...]) -> discord.ui.Label | None:
    nxt = reader.after(" ".join((*tokens, "…")))  # the rules' next step never depends on the words
    if nxt is None:
        return None
    root = nxt.choices(())
    if root.kind != "token" or not root.options or any(o.token in FORFEIT_TOKENS for o in root.options):
        return None
    moves = shortcuts(list(root.options), (), nxt.choices, SELECT_MAX)
    if not moves or any(m.text or not whole(nxt, m.tokens) or nxt.choices(m.tokens).options for m in moves):
        return None
    select = discord.ui.Select(custom_id=THEN_ID, min_values=0, max_values=1, required=False,
                               placeholder=clip(pretty_text(f"{root.prompt} (or later)" if root.prompt else
                                                            "Then… (or later)"), 150))
    for m in moves:  # left empty, the line is told alone and the next step waits on the panel as before
        select.add_option(label=clip(pretty_text(m.label), 100), value=" ".join(m.tokens)[:100])
    title = root.options[0].label if len(root.options) == 1 and root.options[0].label else "Then"
    return discord.ui.Label(text=clip(pretty_text(f"Then: {title}" if title != "Then" else title), 45),
                            component=select)
