"""The terminal side of Deckhand: play, simulate and replay games without Discord.

Everything here goes through the v2 contract and the registry (``bot.engine.registry``): games
are found by id, built-in players come from their spec, moves are offered by ``choices`` and
shown from ``view`` through ``bot.render.<game>.text``, events are read per recipient.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import os
import random
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from bot.engine import registry
from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Decision, Event, Game, IllegalMove
from bot.engine.registry import GameSpec
from bot.records import make_record, replay

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # clear the screen and the scrollback, cursor home
MAX_WIDTH = 100  # rules are wrapped at the terminal's width, but never wider than this


# ----- finding games ----------------------------------------------------------------------
def game_spec(game_id: str) -> GameSpec:
    """The registered spec of ``game_id``; SystemExit with one readable line for an unknown id."""
    try:
        return registry.spec(game_id)
    except KeyError as e:
        raise SystemExit(str(e.args[0])) from None


def renderer(spec: GameSpec) -> ModuleType:
    """``bot.render.<game>``: ``text(view)`` is the terminal's picture of a view."""
    return importlib.import_module(f"bot.render.{spec.id}")


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


def rules_help(spec: GameSpec, width: int) -> str:
    """The game's rules as players read them, wrapped to ``width``."""
    return wrap_markdown(spec.rules_text(), width)


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
HINT = "Type a move, `?` to choose it step by step, `hint` for a suggestion, `help` for the rules, `quit` to stop."
COMMANDS_HELP = ("In this terminal: type a move in the game's notation, or `?` (or `moves`) to choose it step by "
                 "step; `hint` suggests a move; `rules` lists the rules' sections and `rules SECTION` shows one; "
                 "`help` shows all the rules; `show` your view again; `quit` leaves the game.")
COMMANDS = ("?", "moves", "hint", "rules", "help", "show", "quit", "exit", "back", "cancel")
LEAVING = ("resign", "concede")  # moves that end the game for the seat: the terminal asks before playing them
_DISCORD_RULES = re.compile(r"/game rules section:\s*([^)]+?)\s*(?=\)|$)")


def terminal_text(text: str) -> str:
    """An engine's words as the terminal says them: a pointer to the Discord command
    (``/game rules section: Setup``) becomes the terminal's own (```rules Setup```)."""
    return _DISCORD_RULES.sub(lambda m: f"`rules {m.group(1)}`", text)


def _flat(text: str) -> str:
    return " ".join(text.split())


def rules_section(spec: GameSpec, ask: str, width: int) -> str:
    """``rules``: the sections of the game's rules; ``rules SECTION`` (a number, a name, the start
    of one or a near miss): that section, wrapped to ``width``."""
    sections = spec.rules_sections()
    heads = [h for h, _ in sections]
    listing = "; ".join(f"{i}. {h}" for i, h in enumerate(heads, start=1))
    ask = ask.strip()
    if not ask:
        return wrap_lines(f"Sections of the rules: {listing}. Type `rules` and a section's number or name "
                          "(`help` shows them all).", width, "  ")
    lower = [h.lower() for h in heads]
    want = ask.lower()
    found = None
    if want.isdigit() and 1 <= int(want) <= len(heads):
        found = int(want) - 1
    elif want in lower:
        found = lower.index(want)
    else:
        starts = [i for i, h in enumerate(lower) if h.startswith(want)] or [i for i, h in enumerate(lower) if want in h]
        close = difflib.get_close_matches(want, lower, n=1, cutoff=0.6)
        found = starts[0] if starts else (lower.index(close[0]) if close else None)
    if found is None:
        return wrap_lines(f"No section {ask[:40]!r} in the rules. Sections: {listing}.", width, "  ")
    head, body = sections[found]
    return wrap_markdown(f"## {head}\n\n{body}", width)


class Quit(Exception):
    """The player left the terminal table (``quit`` or end of input)."""


class HotSeat:
    """A terminal table: humans share the keyboard, the built-in player takes the bot seats.

    Each human sees only their own view: with two humans or more, the screen is cleared and the
    terminal handed over before a seat's view is shown, and each seat reads the events since
    its last turn as that seat reads them.
    """

    def __init__(self, spec: GameSpec, game: Game, bots: set[int], read: Callable[[str], str],
                 write: Callable[[str], None], width: int, rng: random.Random, clear: bool = True):
        self.spec, self.game, self.bots = spec, game, bots
        self.read, self.write, self.width, self.rng = read, write, width, rng
        self.clear = clear  # the screen is cleared (ANSI) between players: only on a real terminal
        self.render = renderer(spec)
        self.humans = [s for s in range(len(game.players)) if s not in bots]
        self.holder: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.pending: dict[int, list[str]] = {}  # lines a seat has not read yet
        self.unread: list[str] = []  # lines the holder was shown since its last input
        self.fresh: list[str] = []  # events for the holder not shown yet: shown before its next view, once

    # ----- the loop ---------------------------------------------------------------------
    def run(self) -> Game:
        names = ", ".join(f"{n} (built-in player)" if s in self.bots else n for s, n in enumerate(self.game.players))
        self.say(f"{self.spec.title} — seed {self.game.seed}. Players: {names}.")
        if self.humans:
            self.write(wrap_lines(HINT, self.width))
        try:
            while True:
                decisions = self.game.decisions()
                if not decisions:
                    break
                d = decisions[0]  # decisions open at once are asked in turn
                if d.seat in self.bots:
                    action = self.spec.player(self.game, d.seat, self.rng)
                    self.game, events = self.game.apply(d.seat, action)
                    self.deliver(events)
                else:
                    self.turn(d)
        except Quit as q:
            self.write(str(q))
            return self.game
        final = self.render.text(self.game.view(None))
        self.show(final)
        outcome = self.game.outcome()
        if outcome and outcome.summary and _flat(pretty_text(outcome.summary)) not in _flat(final):
            self.write(wrap_lines(pretty_text(outcome.summary), self.width))
        return self.game

    def deliver(self, events: Sequence[Event]) -> None:
        """Each human reads each event as that seat reads it: the seat at the terminal now,
        the others when the terminal comes to them. The end of a game is public."""
        if not self.humans or (self.game.is_over() and len(self.humans) > 1):
            for e in events:
                text = e.for_(None)
                if text:
                    self.write(wrap_lines(terminal_text(pretty_text(text)), self.width, "  "))
            return
        for seat in self.humans:
            lines = [wrap_lines(terminal_text(pretty_text(t)), self.width, "  ") for t in (e.for_(seat) for e in events)
                     if t]
            if seat == self.holder:  # shown before the seat's next view (unless that view shows them)
                self.fresh += lines
            else:
                self.pending.setdefault(seat, []).extend(lines)

    def take_terminal(self, seat: int) -> None:
        """Hand the terminal to ``seat`` (clearing the screen first when others share it)."""
        if self.holder == seat:
            return
        for line in self.fresh:  # the last holder's own move's events, shown before the screen clears
            self.write(line)
        self.unread += self.fresh
        self.fresh = []
        if self.holder is not None and self.unread:  # what the last holder may not have read yet
            self.pending[self.holder] = self.unread + self.pending.get(self.holder, [])
        self.unread = []
        if self.holder is not None and self.clear:  # a seat's own view is on the screen
            self.write(CLEAR)
        self.ask(f"Pass to {self.game.players[seat]}; press Enter. ")
        self.holder = seat
        missed = self.pending.pop(seat, [])
        if missed:
            self.write("Since your last turn:")
            for t in missed:
                self.write(wrap_lines(f"  {t}", self.width, "  "))

    def show(self, view_text: str) -> None:
        """A view, after the events not shown yet that it does not show itself (a render that
        lists the recent events would otherwise print each twice)."""
        view_text = terminal_text(view_text)
        flat = _flat(view_text)
        for line in self.fresh:
            if _flat(line) not in flat:
                self.write(line)
        self.fresh = []
        self.write("")
        self.write(view_text)

    def ask(self, prompt: str) -> str:
        try:
            line = self.read(prompt)
        except EOFError:
            raise Quit("Bye.") from None
        self.unread = []
        return line

    # ----- one human decision -------------------------------------------------------------
    def turn(self, d: Decision) -> None:
        """Read lines from ``d.seat`` until a move of theirs goes through."""
        seat = d.seat
        if len(self.humans) > 1:
            self.take_terminal(seat)
        view_text = self.render.text(self.game.view(seat))
        self.show(view_text)
        name = self.game.players[seat]
        prompt = terminal_text(pretty_text(d.prompt or ""))
        if prompt and _flat(prompt) not in _flat(view_text):  # a view that shows the prompt says it once
            self.write(wrap_lines(f"{name}: {prompt}", self.width, "  "))
        prefix: tuple[str, ...] | None = None  # the move being built step by step, if any
        while True:
            building = f" [{' '.join(prefix)} …]" if prefix else (" [choosing]" if prefix == () else "")
            line = self.ask(f"{name}{building}> ").strip()
            cmd = line.lower()
            if cmd in ("quit", "exit"):
                raise Quit("Game left unfinished.")
            if cmd == "help":
                self.write(rules_help(self.spec, self.width))
                self.write("")
                self.say(COMMANDS_HELP)
            elif cmd == "rules" or cmd.startswith("rules "):
                self.write(rules_section(self.spec, line[5:], self.width))
            elif cmd == "hint":
                from bot.engine.hints import hint_sentence

                self.say(f"Hint: {terminal_text(hint_sentence(self.game, seat))}")
            elif cmd == "show":
                self.write(terminal_text(self.render.text(self.game.view(seat))))
            elif cmd in ("?", "moves"):
                prefix = prefix or ()
                self.list_choices(seat, prefix)
            elif prefix is None:
                if line and self.play(seat, self.as_move(seat, line)):
                    return
            elif cmd == "cancel":
                prefix = None
                self.write("Move cleared.")
            elif cmd == "back":
                prefix = prefix[:-1]
                self.list_choices(seat, prefix)
            else:
                step = self.step(seat, prefix, line)
                if step is True:
                    return
                if isinstance(step, tuple):
                    c = self.game.choices(seat, step)
                    if c.complete and c.kind == "token" and not c.options:
                        if self.play(seat, " ".join(step)):
                            return
                        continue
                    prefix = step
                    self.list_choices(seat, prefix)

    def as_move(self, seat: int, line: str) -> str:
        """A typed line as a move: notation as it is, or plain words for the one text step on offer
        (a story line typed without its verb: ``The knight rides out`` → ``tell The knight rides out``)."""
        root = self.game.choices(seat, ())
        if root.kind == "text":
            return line
        words = line.split()
        tokens = {t.lower() for t in root.tokens()}
        if not words or words[0].lower() in tokens or line.strip().lower() in ("?", "moves"):
            return line
        texts = [o.token for o in root.options if self.game.choices(seat, (o.token,)).kind == "text"]
        if len(texts) != 1:
            return line
        try:  # a line that already parses as a move of its own is left alone
            self.game.parse(seat, line)
            return line
        except IllegalMove:
            return f"{texts[0]} {line.strip()}"

    def play(self, seat: int, text: str) -> bool:
        """Apply a written move (True), or show the refusal's reason (False). A move that ends
        the game for the seat (resign, concede) is played only once confirmed."""
        verb = text.split()[0].lower() if text.split() else ""
        if verb in LEAVING and verb in {t.lower() for t in self.game.choices(seat, ()).tokens()}:
            answer = self.ask(f"{verb.capitalize()}? That ends the game for you and cannot be undone. "
                              "Type `yes` to confirm: ").strip().lower()
            if answer not in ("yes", "y"):
                return self.refuse(f"Not done: you did not {verb}.")
        try:
            self.game, events = self.game.apply(seat, text)
        except IllegalMove as e:
            reason = terminal_text(pretty_text(e.reason))
            self.write(wrap_lines(f"Not allowed: {reason}{self.suggest(seat, verb)}", self.width, "  "))
            return False
        self.deliver(events)
        return True

    def suggest(self, seat: int, word: str) -> str:
        """After a refusal of a first word that is no move now: the nearest moves and commands."""
        root = self.game.choices(seat, ()).tokens()
        if not word or word in {t.lower() for t in root}:
            return ""
        commands = [c for c in COMMANDS if c not in ("back", "cancel")]  # those only while building a move
        names = list(dict.fromkeys([*(t.lower() for t in root), *commands]))
        close = difflib.get_close_matches(word, names, n=3, cutoff=0.7)
        did = f" Did you mean {' or '.join(f'`{c}`' for c in close)}?" if close else ""
        return f"{did} Type `?` for your moves, `help` for the rules and the terminal's commands."

    def step(self, seat: int, prefix: tuple[str, ...], line: str) -> tuple[str, ...] | bool:
        """One typed line in the step-by-step builder: the extended prefix, True when the move
        was played, False when refused (the reason shown). A number picks an offered option
        (several numbers a set; a range takes the number itself), a text slot takes the line as
        typed, ``0`` (or Enter for optional text) plays the move as it is; anything else is the
        rest of the move in notation."""
        c = self.game.choices(seat, prefix)
        if c.kind == "text":
            if not line:
                if c.complete:
                    return self.play(seat, " ".join(prefix))
                return self.refuse("Type the text (spaces are fine), or `back`.")
            if c.max_len and len(line) > c.max_len:
                return self.refuse(f"That text is too long ({len(line)} characters; at most {c.max_len}).")
            return prefix + (line,)
        if not line:
            return False
        if line == "0" and c.complete and c.kind != "range":
            return self.play(seat, " ".join(prefix))
        if c.kind == "range" and re.fullmatch(r"-?\d+", line):
            value = int(line)
            if not c.lo <= value <= c.hi:
                return self.refuse(f"Pick a whole number from {c.lo} to {c.hi}.")
            return prefix + (str(value),)
        numbers = re.split(r"[\s,]+", line.strip(", "))
        if c.kind in ("token", "set") and c.options and all(n.isdigit() for n in numbers):
            picked = sorted({int(n) for n in numbers})
            if any(not 1 <= n <= len(c.options) for n in picked):
                return self.refuse(f"Pick a number from 1 to {len(c.options)}"
                                   + (" (0: as it is)." if c.complete else "."))
            if c.kind == "token":
                if len(picked) != 1:
                    return self.refuse("Pick one number.")
                return prefix + (c.options[picked[0] - 1].token,)
            if not c.lo <= len(picked) <= c.hi:
                count = str(c.lo) if c.lo == c.hi else f"{c.lo} to {c.hi}"
                return self.refuse(f"Pick {count} of them.")
            return prefix + (",".join(c.options[n - 1].token for n in picked),)
        return self.notation(seat, prefix, line)

    def notation(self, seat: int, prefix: tuple[str, ...], line: str) -> tuple[str, ...] | bool:
        """Typed notation while building: the rest of the move, or a whole move when its first
        word starts one and is not offered here."""
        words = line.split()
        here = {t.lower() for t in self.game.choices(seat, prefix).tokens()}
        root = {t.lower() for t in self.game.choices(seat, ()).tokens()}
        if prefix and words[0].lower() not in here and words[0].lower() in root:
            prefix = ()
        tokens = list(prefix)
        rest = line
        while rest:
            c = self.game.choices(seat, tuple(tokens))
            if c.kind == "text":
                tokens.append(rest)
                break
            word, _, rest = rest.partition(" ")
            rest = rest.strip()
            by_lower = {t.lower(): t for t in c.tokens()}
            tokens.append(by_lower.get(word.lower(), word))
        if self.game.choices(seat, tuple(tokens)).empty:  # not an offered step: the engine says why
            return self.play(seat, " ".join(tokens))
        return tuple(tokens)

    def say(self, text: str, indent: str = "  ") -> None:
        """Words (never a board) written wrapped to the table's width."""
        self.write(wrap_lines(text, self.width, indent))

    def refuse(self, reason: str) -> bool:
        self.write(wrap_lines(terminal_text(reason), self.width, "  "))
        return False

    def list_choices(self, seat: int, prefix: tuple[str, ...]) -> None:
        """The next step of the move being built, numbered."""
        c: Choices = self.game.choices(seat, prefix)
        if prefix:
            self.say(f"Move so far: {' '.join(prefix)}")
        head = pretty_text(c.prompt) or ("Choose:" if c.options else "")
        if c.progress is not None:
            head = f"{head} ({c.progress})" if head else str(c.progress)
        if head:
            self.say(head)
        if c.empty:
            self.say("  Nothing can follow that: `back` or `cancel`.")
            return
        if c.kind == "text":
            limit = f" (up to {c.max_len} characters)" if c.max_len else ""
            self.say(f"  Type the text as you want it read{limit}; spaces are fine.")
            if c.complete:
                self.say(f"  Or press Enter to play `{' '.join(prefix)}` without it.")
        elif c.kind == "range":
            self.say(f"  Type a whole number from {c.lo} to {c.hi}.")
        else:
            if c.kind == "set":
                count = str(c.lo) if c.lo == c.hi else f"{c.lo} to {c.hi}"
                self.say(f"  Pick {count}: numbers separated by commas or spaces.")
            wide = max(len(str(len(c.options))), 1)
            for i, o in enumerate(c.options, start=1):
                label = pretty_text(o.label or o.token)
                token = "" if o.token.lower() == label.lower() else f"  ({o.token})"
                self.say(f"  {i:>{wide}}. {label}{token}", " " * (wide + 2))
        if c.complete and c.kind != "text" and prefix:
            what = "None of them" if c.kind == "set" else "Done"
            self.say(f"  {0:>{max(len(str(len(c.options))), 1)}}. {what}: play `{' '.join(prefix)}` as it is")
        self.say("  (`back` undoes a step, `cancel` clears the move)" if prefix
                   else "  (a number picks; `cancel` stops choosing)")


def play_terminal(game_id: str, players: list[str], options: list[str], seed: int | None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                  auto_seats: set[int] | None = None, width: int | None = None, clear: bool | None = None) -> Game:
    """A hot-seat terminal table; returns the last state (finished or left). The screen is cleared
    between players only when ``clear`` (default: when the standard output is a terminal)."""
    s = game_spec(game_id)
    bots = set(auto_seats or ())
    if any(not 0 <= b < len(players) for b in bots):
        raise ValueError(f"--bots takes seat numbers from 1 to {len(players)}.")
    game = s.state.new(players, options, seed=seed)
    if clear is None:
        clear = sys.stdout.isatty()
    table = HotSeat(s, game, bots, read, write, width or terminal_width(), random.Random(game.seed), clear)
    return table.run()
