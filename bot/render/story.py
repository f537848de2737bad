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


def chapters(w: Words) -> dict[str, str]:
    """Each entry's kind (``tell``, ``twist``, ``duel``…) as the story file names it, in ``w``'s language."""
    return {
        # The Knight, the Rogue, the Princess and the Dragon
        "opening": w.tp("story chapter", "opening"), "tell": w.tp("story chapter", "tell"),
        "wrapup": w.tp("story chapter", "wrapup"), "twist": w.tp("story chapter", "twist"),
        "close": w.tp("story chapter", "close"),
        # Warriors of the Celestial Emperor: the players' lines, then the narrator's
        "setting": w.tp("story chapter", "setting"), "attack": w.tp("story chapter", "attack"),
        "nullify": w.tp("story chapter", "nullify"), "strike": w.tp("story chapter", "strike"),
        "parry": w.tp("story chapter", "parry"), "withdraw": w.tp("story chapter", "withdraw"),
        "victory": w.tp("story chapter", "victory"), "return": w.tp("story chapter", "return"),
        "duel": w.tp("story chapter", "duel"), "tie": w.tp("story chapter", "tie"),
        "result": w.tp("story chapter", "result"), "trick": w.tp("story chapter", "trick"),
        "lock": w.tp("story chapter", "lock"), "end": w.tp("story chapter", "end"),
        "keep": w.tp("story chapter", "keep"), "score": w.tp("story chapter", "score"),
    }


def markdown(title: str, players: list[str], cast: list[str], entries: list[dict[str, Any]], ending: str,
             lang: str = "en") -> str:
    """The story file. Players' words and names are escaped (no links, mentions, headings, fences
    or bold of theirs) and each line stays on one line, so nobody's text can pass for the
    game's own; the game's own lines are ours (a player's name in them is escaped too). The
    frame and the game's own lines in ``lang`` (``cast`` and ``ending`` come said in it already)."""
    w = words(lang)
    kinds = chapters(w)
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
        lines += [f"**{who}** — {kinds.get(str(entry.get('kind', '')), entry.get('kind', ''))}{card}: {said}", ""]
    ended = pretty_text(ending) if w.english else ending
    lines += ["## " + w.tp("story file", "How it ended"), "", defuse_names(ended, players)]
    return "\n".join(lines) + "\n"


def one_line(text: str) -> str:
    return " ".join(str(text).split())
