"""The told story as a Markdown file, for the storytelling games.

A game's render module offers ``story(view) -> (cast, entries)``: what each seat plays as
(a clan, a suit) and the narration entries ``{seat, kind, text, card?}`` in order (seat
None for the game's own lines). This module turns that into the file players keep.
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import pretty_text
from bot.render.panel import defuse_names, plain


def markdown(title: str, players: list[str], cast: list[str], entries: list[dict[str, Any]], ending: str) -> str:
    """The story file. Players' words and names are escaped (no links, mentions, headings, fences
    or bold of theirs) and each line stays on one line, so nobody's text can pass for the
    game's own; the game's own lines are ours (a player's name in them is escaped too)."""
    names = [one_line(n) for n in players]
    lines = [f"# {title}", "", "## Players", ""]
    for i, name in enumerate(names):
        role = cast[i] if i < len(cast) else ""
        lines.append(f"- {plain(name)}{f' — {role}' if role else ''}")
    lines += ["", "## The story", ""]
    for entry in entries:
        seat = entry.get("seat")
        who = plain(names[seat]) if seat is not None and 0 <= seat < len(names) else "Narrator"
        card = f" ({pretty_text(entry['card'])})" if entry.get("card") else ""
        text = one_line(str(entry.get("text", "")))
        said = plain(text) if seat is not None else defuse_names(text, players)
        lines += [f"**{who}** — {entry.get('kind', '')}{card}: {said}", ""]
    lines += ["## How it ended", "", defuse_names(pretty_text(ending), players)]
    return "\n".join(lines) + "\n"


def one_line(text: str) -> str:
    return " ".join(str(text).split())
