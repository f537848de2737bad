"""A discord-free description of an embed, so renders stay testable and pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class Panel:
    """What an embed shows. Limits (Discord's): title 256, description 4096, 25 fields,
    field name 256, field value 1024, footer 2048 characters; use :func:`clip`."""

    title: str
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)  # (name, value, inline)
    footer: str = ""
    colour: int = 0x2F7D4F  # card-table green

    def add(self, name: str, value: str, inline: bool = False) -> "Panel":
        self.fields.append((clip(name, 256), clip(value or "—", 1024), inline))
        return self

    def as_text(self) -> str:
        """Everything the panel shows, as plain text (tests and the terminal)."""
        parts = [self.title, self.description]
        parts += [f"{n}\n{v}" for n, v, _ in self.fields]
        parts.append(self.footer)
        return "\n\n".join(p for p in parts if p)


def options_words(options: Iterable[str]) -> str:
    """A table's options as players read them: variant names as they are, settings as
    ``turn cap: 80`` (not the written ``turn_cap=80``)."""
    out = []
    for o in options:
        name, eq, value = o.partition("=")
        out.append(f"{name.replace('_', ' ')}: {value}" if eq else o)
    return ", ".join(out)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_MARKDOWN = re.compile(r"([\\`*_~|>#\[\]])")


def plain(text: str) -> str:
    """Players' own words shown as typed: Markdown escaped, mentions defused (no pings, no
    swallowed embed), for embeds. The terminal shows text as it is."""
    return _MARKDOWN.sub(r"\\\1", text).replace("@", "@\u200b").replace("<#", "<\u200b#")


def defuse_names(text: str, names: Sequence[str]) -> str:
    """``text`` (the bot's own Markdown) with every player's display name in it escaped as
    :func:`plain` does: a name cannot add a link, a mention, a code fence or bold. A name
    already escaped (in a line that was escaped whole) is left as it is."""
    hostile = sorted({n for n in names if n and plain(n) != n}, key=len, reverse=True)
    if not hostile or not text:
        return text
    pattern = re.compile("(?<!\\\\)(?:" + "|".join(re.escape(n) for n in hostile) + ")")
    return pattern.sub(lambda m: plain(m.group(0)), text)


_BLOCK_START = re.compile(r"^\s*([-*+•]\s|\d+[.)]\s|#|>|\||```)")


def reflow(text: str) -> str:
    """Rules text as Discord shows it well: lines hard-wrapped at ~100 columns joined again within
    each paragraph and each bullet; blank lines, headings, bullets, quotes, tables and code blocks
    kept as they are."""
    out: list[str] = []
    fenced = False
    joinable = False  # the last line out is prose that a wrapped line may continue
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            out.append(raw)
            joinable = False
            continue
        if fenced:
            out.append(raw)
            continue
        if not stripped:
            out.append("")
            joinable = False
            continue
        starts = _BLOCK_START.match(raw)
        if joinable and not starts:
            out[-1] = f"{out[-1].rstrip()} {stripped}"
            continue
        out.append(raw.rstrip())
        joinable = not stripped.startswith(("#", "|", ">"))
    return "\n".join(out)
