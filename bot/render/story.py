"""The told story as a Markdown file, for the storytelling games.

A game's render module offers ``story(view) -> (cast, entries)``: what each seat plays as
(a clan, a suit) and the narration entries ``{seat, kind, text, card?}`` in order (seat
None for the game's own lines). This module turns that into the file players keep, its frame
(headings, the narrator, each entry's kind) in the table's language.
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import pretty_text
from bot.i18n import Words, words
from bot.render.panel import defuse_names, plain


def chapter(w: Words, kind: str) -> str:
    """An entry's kind as the story file names it (``tell``, ``twist``, ``duel``…), in ``w``'s language."""
    found = {
        # The Knight, the Rogue, the Princess and the Dragon
        "opening": lambda: w.tp("story chapter", "opening"), "tell": lambda: w.tp("story chapter", "tell"),
        "wrapup": lambda: w.tp("story chapter", "wrapup"), "twist": lambda: w.tp("story chapter", "twist"),
        "close": lambda: w.tp("story chapter", "close"),
        # Warriors of the Celestial Emperor: the players' lines, then the narrator's
        "setting": lambda: w.tp("story chapter", "setting"), "attack": lambda: w.tp("story chapter", "attack"),
        "nullify": lambda: w.tp("story chapter", "nullify"), "strike": lambda: w.tp("story chapter", "strike"),
        "parry": lambda: w.tp("story chapter", "parry"), "withdraw": lambda: w.tp("story chapter", "withdraw"),
        "victory": lambda: w.tp("story chapter", "victory"), "return": lambda: w.tp("story chapter", "return"),
        "duel": lambda: w.tp("story chapter", "duel"), "tie": lambda: w.tp("story chapter", "tie"),
        "result": lambda: w.tp("story chapter", "result"), "trick": lambda: w.tp("story chapter", "trick"),
        "lock": lambda: w.tp("story chapter", "lock"), "end": lambda: w.tp("story chapter", "end"),
        "keep": lambda: w.tp("story chapter", "keep"), "score": lambda: w.tp("story chapter", "score"),
    }.get(kind)
    return found() if found else kind


def markdown(title: str, players: list[str], cast: list[str], entries: list[dict[str, Any]], ending: str,
             lang: str = "en") -> str:
    """The story file. Players' words and names are escaped (no links, mentions, headings, fences
    or bold of theirs) and each line stays on one line, so nobody's text can pass for the
    game's own; the game's own lines are ours (a player's name in them is escaped too). The
    frame and the game's own lines in ``lang`` (``cast`` and ``ending`` come said in it already)."""
    w = words(lang)
    names = [one_line(n) for n in players]
    lines = [f"# {title}", "", "## " + w.tp("story file", "Players"), ""]
    for i, name in enumerate(names):
        role = cast[i] if i < len(cast) else ""
        lines.append(f"- {plain(name)}{f' — {role}' if role else ''}")
    lines += ["", "## " + w.tp("story file", "The story"), ""]
    for entry in entries:
        seat = entry.get("seat")
        who = plain(names[seat]) if seat is not None and 0 <= seat < len(names) else w.tp("story file", "Narrator")
        code = entry.get("card")
        card = f" ({pretty_text(code) if w.english else w.card(code)})" if code else ""
        text = entry.get("text", "")
        text = one_line(str(text) if seat is not None or w.english else w.line(text))  # the game's own: said
        said = plain(text) if seat is not None else defuse_names(text, players)
        lines += [f"**{who}** — {chapter(w, str(entry.get('kind', '')))}{card}: {said}", ""]
    ended = pretty_text(ending) if w.english else ending
    lines += ["## " + w.tp("story file", "How it ended"), "", defuse_names(ended, players)]
    return "\n".join(lines) + "\n"


def one_line(text: str) -> str:
    return " ".join(str(text).split())
