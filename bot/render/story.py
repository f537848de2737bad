"""The told story as a Markdown file, for the storytelling games.

A game's render module offers ``story(view) -> (cast, entries)``: what each seat plays as
(a clan, a suit) and the narration entries ``{seat, kind, text, card?}`` in order (seat
None for the game's own lines). This module turns that into the file players keep.
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import pretty_text
from bot.render.panel import plain


def markdown(title: str, players: list[str], cast: list[str], entries: list[dict[str, Any]], ending: str) -> str:
    lines = [f"# {title}", "", "## Players", ""]
    for i, name in enumerate(players):
        role = cast[i] if i < len(cast) else ""
        lines.append(f"- {name}{f' — {role}' if role else ''}")
    lines += ["", "## The story", ""]
    for entry in entries:
        seat = entry.get("seat")
        who = players[seat] if seat is not None else "Narrator"
        card = f" ({pretty_text(entry['card'])})" if entry.get("card") else ""
        text = entry.get("text", "")
        # Players' words are escaped (no headings, fences or mentions); the game's own lines are ours.
        lines += [f"**{who}** — {entry.get('kind', '')}{card}: {plain(text) if seat is not None else text}", ""]
    lines += ["## How it ended", "", pretty_text(ending)]
    return "\n".join(lines) + "\n"
