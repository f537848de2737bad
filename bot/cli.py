"""The terminal side of Deckhand: play, simulate and replay games without Discord.

Everything here goes through the v2 contract and the registry (``bot.engine.registry``): games
are found by id, built-in players come from their spec, moves are offered by ``choices`` and
shown from ``view`` through ``bot.render.<game>.text``, events are read per recipient.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, TextIO

from bot.engine import registry
from bot.engine.core import Game
from bot.engine.registry import GameSpec
from bot.records import make_record, replay
from bot.render import Renderer
from bot.render import renderer as find_renderer

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # clear the screen and the scrollback, cursor home
MAX_WIDTH = 100  # rules are wrapped at the terminal's width, but never wider than this


# ----- finding games ----------------------------------------------------------------------
def game_spec(game_id: str) -> GameSpec:
    """The registered spec of ``game_id``; SystemExit with one readable line for an unknown id."""
    try:
        return registry.spec(game_id)
    except KeyError as e:
        raise SystemExit(str(e.args[0])) from None


def renderer(spec: GameSpec) -> Renderer:
    """The game's renders (found in one place, ``bot.render.renderer``): ``text(view)`` is the
    terminal's picture of a view."""
    return find_renderer(spec.id)


def game_list() -> str:
    """The registered games, one a line: id, title and how many players."""
    lines = []
    for game_id in registry.GAME_IDS:
        try:
            s = registry.spec(game_id)
        except Exception:  # a game that cannot load is still listed by id
            lines.append(f"  {game_id}")
            continue
        n = (f"{s.min_players} player{'s' if s.min_players > 1 else ''}" if s.min_players == s.max_players
             else f"{s.min_players}–{s.max_players} players")
        lines.append(f"  {game_id:<30} {s.title} ({n})")
    return "\n".join(lines)


def options_text(spec: GameSpec) -> str:
    """The game's variants and settings as ``--variant`` takes them."""
    lines = [f"{spec.title}: variants and settings (repeat --variant for each)"]
    infos = spec.options.infos()
    if not infos:
        lines.append("  none")
    for info in infos:
        lines.append(f"  {info.usage()}")
        lines += textwrap.wrap(info.help, width=76, initial_indent="      ", subsequent_indent="      ")
    return "\n".join(lines)


def default_players(game_id: str, count: int | None) -> list[str]:
    """Player names for ``count`` seats (default: the game's minimum)."""
    s = game_spec(game_id)
    n = count if count is not None else s.min_players
    if not s.min_players <= n <= s.max_players:
        need = (f"exactly {s.min_players}" if s.min_players == s.max_players
                else f"{s.min_players} to {s.max_players}")
        raise ValueError(f"{s.title} takes {need} players, not {n}.")
    return ["Player"] if n == 1 else [f"Player {i + 1}" for i in range(n)]


def terminal_width(limit: int = MAX_WIDTH) -> int:
    return max(20, min(shutil.get_terminal_size((80, 24)).columns, limit))


def wrap_lines(text: str, width: int, indent: str = "", columns: bool = False) -> str:
    """Each line of ``text`` wrapped to ``width`` columns; a wrapped line's continuation hangs
    under its words (after its own leading spaces and ``indent``; with ``columns``, under a
    second column set off by two spaces or more). Short lines stay as they are, so a board drawn
    in text is never broken."""
    out: list[str] = []
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        lead = " " * (len(line) - len(line.lstrip(" "))) + indent
        gap = re.search(r"\S {2,}(?=\S)", line) if columns else None
        if gap and gap.end() <= width // 2:
            lead = " " * gap.end()
        out.extend(textwrap.wrap(line, width=width, subsequent_indent=lead, break_on_hyphens=False,
                                 drop_whitespace=True) or [line])
    return "\n".join(out)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``--help`` wrapped at the terminal's width: prose paragraphs are reflowed, indented lines
    (examples, the game list) keep their layout and hang their continuation when too long."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        width = max(width, 20)
        out: list[str] = []
        para: list[str] = []

        def flush() -> None:
            if para:
                out.extend(textwrap.wrap(" ".join(para), width=width, initial_indent=indent,
                                         subsequent_indent=indent, break_on_hyphens=False))
                para.clear()

        entries: list[str] = []  # indented lines, a continuation joined to its entry
        column = 0  # where the last entry's second column starts
        for line in text.splitlines():
            lead = len(line) - len(line.lstrip(" "))
            if line.strip() and entries and column and lead == column:
                entries[-1] += " " + line.strip()
                continue
            out.extend(wrap_lines(e, width, "    ", columns=True) for e in entries)
            entries.clear()
            column = 0
            if not line.strip():
                flush()
                out.append("")
            elif line[:1].isspace() or (line.rstrip().endswith(":") and len(line) < 30):
                flush()
                entries.append(indent + line.rstrip())
                gap = re.search(r"\S {2,}(?=\S)", line)
                column = gap.end() if gap and line[:1].isspace() else 0
            else:
                para.append(line.strip())
        out.extend(wrap_lines(e, width, "    ", columns=True) for e in entries)
        flush()
        return "\n".join(out)


# ----- the rules, wrapped -----------------------------------------------------------------
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")


def _inline(text: str) -> str:
    """Markdown emphasis dropped (a terminal shows it as noise); `code` is kept."""
    text = _BOLD.sub(lambda m: m.group(1) or m.group(2), text)
    return _ITALIC.sub(r"\1", text)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [_inline(c.strip()) for c in line.split("|")]


def _table(rows: list[str], width: int) -> list[str]:
    """A Markdown table as aligned columns when it fits, else one wrapped line per row."""
    cells = [_cells(r) for r in rows if not re.fullmatch(r"\s*\|?[\s:|-]*-[\s:|-]*\|?\s*", r)]
    if not cells:
        return []
    ncol = max(len(r) for r in cells)
    cells = [r + [""] * (ncol - len(r)) for r in cells]
    head, body = cells[0], cells[1:]
    widths = [max(len(r[i]) for r in cells) for i in range(ncol)]
    if sum(widths) + 2 * (ncol - 1) <= width:
        def row(r: list[str]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        return [row(head), "  ".join("-" * w for w in widths).rstrip()] + [row(r) for r in body]
    out = []
    for r in body:
        label = f"{head[0]} {r[0]}".strip() if head[0] else r[0]
        rest = "; ".join(f"{h}: {c}" if h else c for h, c in zip(head[1:], r[1:], strict=True) if c not in ("", "—", "-"))
        out += textwrap.wrap(f"{label} — {rest}" if rest else label, width=width, initial_indent="- ",
                             subsequent_indent="  ")
    return out


def wrap_markdown(text: str, width: int) -> str:
    """Markdown wrapped to ``width`` columns for a terminal: paragraphs reflowed, list items
    (nested ones too) keep their markers and hang their continuation lines under the text,
    headings stand on their own lines, tables become aligned columns (or a line per row)."""
    width = max(width, 20)
    out: list[str] = []
    lines = text.splitlines()
    i = 0

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    def para(words: str, first: str, rest: str) -> None:
        out.extend(textwrap.wrap(_inline(words), width=width, initial_indent=first, subsequent_indent=rest,
                                 break_on_hyphens=False) or [first.rstrip()])

    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            blank()
            i += 1
            continue
        if line.lstrip().startswith("```"):
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                out.extend(textwrap.wrap(lines[i].rstrip(), width=width, subsequent_indent="  ",
                                         drop_whitespace=False) or [""])
                i += 1
            i += 1
            continue
        if line.lstrip().startswith("|"):
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.extend(_table(rows, width))
            continue
        m = _HEADING.match(line)
        if m:
            blank()
            title = _inline(m.group(2))
            out.extend(textwrap.wrap(title, width=width) or [""])
            if len(m.group(1)) <= 2:
                out.append(("=" if len(m.group(1)) == 1 else "-") * min(len(title), width))
            i += 1
            continue
        m = _ITEM.match(line)
        if m:
            lead, marker, words = m.groups()
            first = f"{lead}{marker} "
            if len(first) > width // 2:  # a list nested too deep for a narrow terminal
                first = first.strip() + " "
            i += 1
            while i < len(lines) and lines[i].strip() and lines[i][:1].isspace() and not _ITEM.match(lines[i]) \
                    and not lines[i].lstrip().startswith("|"):
                words += " " + lines[i].strip()
                i += 1
            para(words, first, " " * len(first))
            continue
        quote = ""
        qm = re.match(r"^(\s*>\s?)", line)
        if qm:
            quote = "> "
        words = line[len(qm.group(1)):] if qm else line.strip()
        i += 1
        while i < len(lines):
            nxt = lines[i].rstrip()
            if (not nxt.strip() or _ITEM.match(nxt) or _HEADING.match(nxt) or nxt.lstrip().startswith(("|", "```"))
                    or bool(re.match(r"^\s*>", nxt)) != bool(quote)):
                break
            words += " " + (re.sub(r"^\s*>\s?", "", nxt) if quote else nxt.strip())
            i += 1
        para(words, quote, quote)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def rules_help(spec: GameSpec, width: int, lang: str = "en") -> str:
    """The game's rules as players read them (in ``lang``: "en", "es" or "de"), wrapped to ``width``."""
    return wrap_markdown(spec.rules_text(lang), width)


# ----- built-in players and simulations ---------------------------------------------------
class Progress:
    """A one-line progress counter on a terminal (stderr); silent when not a terminal."""

    def __init__(self, total: int, label: str, stream: TextIO = sys.stderr):
        self.total, self.label, self.stream = total, label, stream
        self.enabled = stream.isatty()
        self._last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.2 or done == self.total):
            self._last = now
            self.stream.write(f"\r{self.label}: {done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def play_auto(game: Game, rng: random.Random, max_moves: int = 20_000) -> tuple[Game, list[list[Any]]]:
    """Play ``game`` to the end with the built-in player in every seat; decisions open at once
    are answered in the order the engine lists them."""
    player = game_spec(game.game_id).player
    moves: list[list[Any]] = []
    while True:
        decisions = game.decisions()
        if not decisions:
            break
        if len(moves) >= max_moves:
            raise RuntimeError(f"no end after {max_moves} moves")
        seat = decisions[0].seat
        move = str(player(game, seat, rng))
        game, _ = game.apply(seat, move)
        moves.append([seat, move])
    if not game.is_over():
        raise RuntimeError("no decision is open but the game is not over")
    return game, moves


def simulate(game_id: str, games: int, seed: int, players: int | None = None, options: list[str] | None = None,
             records: Path | None = None, progress: bool = True) -> dict[str, Any]:
    """Play ``games`` games with the built-in player; the summary ``simulate --json`` prints."""
    s = game_spec(game_id)
    names = default_players(game_id, players)
    options = s.state.check_options(options or [])
    s.state.new(names, options, seed=seed)  # a bad option or player count stops here, before any game
    if games < 1:
        raise ValueError(f"--games takes a number of games, 1 or more, not {games}.")
    if records is not None:
        check_records_folder(records)
    finished = errors = wins = losses = total_moves = 0
    scores: list[float] = []
    bar = Progress(games, f"simulate {game_id}") if progress else None
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        try:
            game = s.state.new(names, options, seed=game_seed)
            game, moves = play_auto(game, random.Random(game_seed))
        except Exception as e:  # a simulation reports engine errors instead of stopping
            errors += 1
            print(f"game {i} (seed {game_seed}): error: {e!r}", file=sys.stderr)
            continue
        finished += 1
        total_moves += len(moves)
        outcome = game.outcome()
        assert outcome is not None
        if outcome.winners:
            wins += 1
        else:
            losses += 1
        if outcome.score is not None:
            scores.append(outcome.score)
        if records is not None:
            out = records / f"{game_id}-{i:05d}.json"
            try:
                out.write_text(json.dumps(make_record(game, moves), indent=1))
            except OSError as e:  # the disk filled, the folder went away…
                raise OSError(f"--records: cannot write {out}: {e.strerror or e}.") from None
        if bar:
            bar.update(i + 1)
    if bar:
        bar.close()
    elapsed = max(time.perf_counter() - started, 1e-9)
    return {
        "games": games,
        "finished": finished,
        "errors": errors,
        "wins": wins,
        "losses": losses,
        "mean_score": round(sum(scores) / len(scores), 3) if scores else None,
        "mean_moves": round(total_moves / finished, 2) if finished else 0,
        "games_per_s": round(finished / elapsed, 2),
        "moves_per_s": round(total_moves / elapsed, 1),
    }


def check_records_folder(folder: Path) -> None:
    """``simulate --records``: a folder that exists (or can be made) and can be written, else
    OSError with one line saying why (checked before any game is played)."""
    if folder.exists() and not folder.is_dir():
        raise OSError(f"--records needs a folder, but {folder} is a file.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OSError(f"--records: cannot make the folder {folder}: {e.strerror or e}.") from None
    probe = folder / f".deckhand-write-test-{os.getpid()}"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise OSError(f"--records: cannot write in the folder {folder}: {e.strerror or e}.") from None


# ----- records ----------------------------------------------------------------------------
def replay_summary(path: Path) -> dict[str, Any]:
    try:
        record = json.loads(path.read_text())
    except RecursionError:  # 2,000 nested brackets are not a record, and no reason for a traceback
        raise ValueError("it is not a Deckhand record (its JSON is nested too deeply)") from None
    game = replay(record)
    outcome = game.outcome()
    return {
        "game": game.game_id,
        "finished": outcome is not None,
        "winners": [game.players[s] for s in outcome.winners] if outcome else [],
        "score": outcome.score if outcome else None,
        "moves": len(record["moves"]),
        "summary": outcome.summary if outcome else "in progress",
        "players": game.players,
    }


# ----- hot seat ---------------------------------------------------------------------------
