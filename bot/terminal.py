"""Hot-seat play in a terminal: every seat at one keyboard, moves typed in the game's notation or
chosen step by step, the rules and hints at hand, each line printed once.
"""

from __future__ import annotations


import difflib
import os
import random
import re
import sys
from collections.abc import Callable, Sequence

from bot.engine import levels
from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Decision, Event, Game, IllegalMove
from bot.engine.registry import GameSpec
from bot.i18n import language_of, words

from bot.cli import (
    CLEAR, game_spec, renderer, rules_help, terminal_width, wrap_lines, wrap_markdown,
)

HINT = "Type a move, `?` to choose it step by step, `hint` for a suggestion, `help` for the rules, `quit` to stop."
COMMANDS_HELP = ("In this terminal: type a move in the game's notation (several of your moves in a row: "
                 "`move ; move`), or `?` (or `moves`) to choose it step by "
                 "step; `hint` suggests a move; `rules` lists the rules' sections and `rules SECTION` shows one; "
                 "`help` shows all the rules; `show` your view again; `quit` leaves the game.")
THEN = ";"  # between several moves typed on one line (never inside a line of a story)
COMMANDS = ("?", "moves", "hint", "rules", "help", "show", "quit", "exit", "back", "cancel")
LEAVING = ("resign", "concede")  # moves that end the game for the seat: the terminal asks before playing them
# ``/game rules section: Setup``, or a lesson's ```/game rules game:gridcannon section:Setup```
_DISCORD_RULES = re.compile(r"`?/game rules (?:game:\S+ )?section:\s*([^)`]+?)\s*`?(?=\)|$)")


def terminal_text(text: str) -> str:
    """An engine's words as the terminal says them: a pointer to the Discord command
    (``/game rules section: Setup``) becomes the terminal's own (```rules Setup```)."""
    return _DISCORD_RULES.sub(lambda m: f"`rules {m.group(1)}`", text)


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # the system's, not Deckhand settings: POSIX order


def terminal_language(lang: str | None = None) -> str:
    """The terminal's language: ``lang`` when given (``--lang``), else the environment's (the first
    of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, as every POSIX program reads them)."""
    if not lang:
        lang = next((os.environ[v] for v in LOCALE_VARIABLES if os.environ.get(v)), "")
    return language_of(lang)


def _flat(text: str) -> str:
    return " ".join(text.split())


def rules_section(spec: GameSpec, ask: str, width: int, lang: str = "en") -> str:
    """``rules``: the sections of the game's rules (in ``lang``); ``rules SECTION`` (a number, a name,
    the start of one or a near miss, or the English name): that section, wrapped to ``width``."""
    sections = spec.rules_sections(lang)
    heads = [h for h, _ in sections]
    listing = "; ".join(f"{i}. {h}" for i, h in enumerate(heads, start=1))
    ask = ask.strip()
    if not ask:
        return wrap_lines(f"Sections of the rules: {listing}. Type `rules` and a section's number or name "
                          "(`help` shows them all).", width, "  ")
    lower = [h.lower() for h in heads]
    want = ask.lower()
    found = spec.section_index(want, lang)
    if found is None and not want.isdigit():
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

    def __init__(self, spec: GameSpec, game: Game, bots: set[int] | dict[int, str], read: Callable[[str], str],
                 write: Callable[[str], None], width: int, rng: random.Random, clear: bool = True,
                 lang: str = "en"):
        # The bot seats and each one's level (a set of seats: all Normal).
        self.bots = dict(bots) if isinstance(bots, dict) else {s: levels.DEFAULT_LEVEL for s in bots}
        self.spec, self.game = spec, game
        self.budget = None
        if any(v == "strong" for v in self.bots.values()):
            from bot.tables.thinking import strong_budget

            self.budget = strong_budget()  # a Strong move's CPU seconds (DECKHAND_STRONG_SECONDS)
        self.read, self.write, self.width, self.rng = read, write, width, rng
        self.clear = clear  # the screen is cleared (ANSI) between players: only on a real terminal
        self.render = renderer(spec)
        self.w = words(lang)  # the table's language: the render's, the engine's and the rules' words in it
        self.lang = self.w.lang
        self.humans = [s for s in range(len(game.players)) if s not in bots]
        self.holder: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.pending: dict[int, list[str]] = {}  # lines a seat has not read yet
        self.unread: list[str] = []  # lines the holder was shown since its last input
        self.fresh: list[str] = []  # events for the holder not shown yet: shown before its next view, once

    # ----- the loop ---------------------------------------------------------------------
    def run(self) -> Game:
        names = ", ".join(f"{n} (built-in player, {levels.LEVEL_NAMES[self.bots[s]]})" if s in self.bots else n
                          for s, n in enumerate(self.game.players))
        self.say(self.w.t("{title} — seed {seed}. Players: {names}.", title=self.spec.title, seed=self.game.seed,
                          names=names))
        if self.humans:
            self.write(wrap_lines(HINT if self.w.english else self.w.t(
                "Type a move, `?` to choose it step by step, `hint` for a suggestion, `help` for the rules, `quit` to "
                "stop."), self.width))
        try:
            while True:
                decisions = self.game.decisions()
                if not decisions:
                    break
                d = decisions[0]  # decisions open at once are asked in turn
                if d.seat in self.bots:
                    action = levels.choose(self.bots[d.seat], self.game, d.seat, self.rng, self.budget)
                    self.game, events = self.game.apply(d.seat, action)
                    self.deliver(events)
                else:
                    self.turn(d)
        except Quit as q:
            self.write(str(q))
            return self.game
        final = self.view_text(None)
        self.show(final)
        outcome = self.game.outcome()
        if outcome and outcome.summary and _flat(self.said(outcome.summary)) not in _flat(final):
            self.write(wrap_lines(self.said(outcome.summary), self.width))
        return self.game

    def said(self, text: str) -> str:
        """An engine's words (an event, a prompt, a label, a refusal) in the table's language."""
        return pretty_text(text) if self.w.english else self.w.line(text)

    def view_text(self, seat: int | None) -> str:
        return self.render.said("text", self.game.view(seat), self.lang)

    def deliver(self, events: Sequence[Event]) -> None:
        """Each human reads each event as that seat reads it: the seat at the terminal now,
        the others when the terminal comes to them. The end of a game is public."""
        if not self.humans or (self.game.is_over() and len(self.humans) > 1):
            for e in events:
                text = e.for_(None)
                if text:
                    self.write(wrap_lines(terminal_text(self.said(text)), self.width, "  "))
            return
        for seat in self.humans:
            lines = [wrap_lines(terminal_text(self.said(t)), self.width, "  ") for t in (e.for_(seat) for e in events)
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
        view_text = self.view_text(seat)
        self.show(view_text)
        name = self.game.players[seat]
        prompt = terminal_text(self.said(d.prompt or ""))
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
                self.write(rules_help(self.spec, self.width, self.lang))
                self.write("")
                self.say(COMMANDS_HELP)
            elif cmd == "rules" or cmd.startswith("rules "):
                self.write(rules_section(self.spec, line[5:], self.width, self.lang))
            elif cmd == "hint":
                from bot.engine.hints import hint_sentence

                self.say(f"Hint: {terminal_text(hint_sentence(self.game, seat))}")
            elif cmd == "show":
                self.write(terminal_text(self.view_text(seat)))
            elif cmd in ("?", "moves"):
                prefix = prefix or ()
                self.list_choices(seat, prefix)
            elif prefix is None and not line and (offered := self.offered(seat)) is not None:
                if self.play_line(seat, offered):
                    return
            elif prefix is None:
                if line and self.play_line(seat, line):
                    return
            elif cmd == "cancel":
                prefix = None
                self.write(self.w.t("Move cleared."))
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

    def offered(self, seat: int) -> str | None:
        """The move(s) an empty line plays (none at a plain table; a lesson's offered step)."""
        return None

    def play_line(self, seat: int, line: str) -> bool:
        """A typed line: one move, or several (``move ; move``), played; True when played."""
        parts = self.several(seat, line)
        if len(parts) > 1:
            return self.play_several(seat, parts)
        return self.play(seat, self.as_move(seat, line))

    def apply_move(self, seat: int, text: str) -> list[Event]:
        """Play one move at this table (IllegalMove: nothing changed); its events."""
        self.game, events = self.game.apply(seat, text)
        return events

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
            events = self.apply_move(seat, text)
        except IllegalMove as e:
            reason = terminal_text(self.said(e.reason))
            self.write(wrap_lines(self.w.t("Not allowed: {reason}", reason=reason) + self.suggest(seat, verb), self.width,
                                  "  "))
            return False
        self.deliver(events)
        return True

    def several(self, seat: int, line: str) -> list[str]:
        """A line of several moves (``done ; done ; end``), unless it is a line of text."""
        words = line.split()
        if THEN not in line or not words or self.game.choices(seat, ()).kind == "text" \
                or self.game.choices(seat, (words[0],)).kind == "text":
            return [line]
        return [p.strip() for p in line.split(THEN) if p.strip()]

    def play_several(self, seat: int, parts: list[str]) -> bool:
        """Play several moves of the seat's in a row, each applied and said alone; all of them or,
        when one is refused (or the seat's part ends before the last), none."""
        game, said = self.game, []
        for k, part in enumerate(parts, 1):
            verb = part.split()[0].lower()
            if seat not in game.to_act() or verb in LEAVING:
                return self.refuse(f"Not done: move {k} (`{part}`) cannot follow in the same line; nothing was played.")
            try:
                game, events = game.apply(seat, part)
            except IllegalMove as e:
                reason = terminal_text(pretty_text(e.reason))
                return self.refuse(f"Not allowed: move {k} (`{part}`): {reason} Nothing was played.")
            said.append(events)
        self.game = game
        for events in said:
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
        did = " " + self.w.t("Did you mean {words}?", words=" / ".join(f"`{c}`" for c in close)) if close else ""
        return f"{did} " + self.w.t("Type `?` for your moves, `help` for the rules and the terminal's commands.")

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
                return self.refuse(self.w.t("Pick a number from 1 to {n} (0: as it is).", n=len(c.options))
                                   if c.complete else self.w.t("Pick a number from 1 to {n}.", n=len(c.options)))
            if c.kind == "token":
                if len(picked) != 1:
                    return self.refuse(self.w.t("Pick one number."))
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
            self.say(self.w.t("Move so far: {move}", move=" ".join(prefix)))
        head = self.said(c.prompt) or (self.w.t("Choose:") if c.options else "")
        if c.progress is not None:
            head = f"{head} ({c.progress})" if head else str(c.progress)
        if head:
            self.say(head)
        if c.empty:
            self.write(wrap_lines("  " + self.w.t("Nothing can follow that: `back` or `cancel`."), self.width, "  "))
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
                label = self.said(o.label or o.token)
                token = "" if o.token.lower() == label.lower() else f"  ({o.token})"
                self.say(f"  {i:>{wide}}. {label}{token}", " " * (wide + 2))
        if c.complete and c.kind != "text" and prefix:
            move = " ".join(prefix)
            what = self.w.t("None of them: play `{move}` as it is", move=move) if c.kind == "set" \
                else self.w.t("Done: play `{move}` as it is", move=move)
            self.say(f"  {0:>{max(len(str(len(c.options))), 1)}}. {what}")
        hint = self.w.t("(`back` undoes a step, `cancel` clears the move)") if prefix \
            else self.w.t("(a number picks; `cancel` stops choosing)")
        self.say(f"  {hint}")


def play_terminal(game_id: str, players: list[str], options: list[str], seed: int | None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                  auto_seats: set[int] | dict[int, str] | None = None, width: int | None = None,
                  clear: bool | None = None, lang: str | None = None) -> Game:
    """A hot-seat terminal table; returns the last state (finished or left). ``auto_seats``: the
    built-in player's seats, each with its level (a set: Normal). The screen is cleared between
    players only when ``clear`` (default: when the standard output is a terminal). ``lang``: the
    table's and the rules' language (default: the environment's, ``LANG``; Gridcannon's table speaks
    every language so far, the other games' tables English)."""
    s = game_spec(game_id)
    bots = dict(auto_seats) if isinstance(auto_seats, dict) else {b: levels.DEFAULT_LEVEL for b in auto_seats or ()}
    if any(v not in levels.LEVELS for v in bots.values()):
        raise ValueError(f"A bot's level is one of {', '.join(levels.LEVELS)}.")
    if any(not 0 <= b < len(players) for b in bots):
        raise ValueError(f"--bots takes seat numbers from 1 to {len(players)}.")
    game = s.state.new(players, options, seed=seed)
    if clear is None:
        clear = sys.stdout.isatty()
    table = HotSeat(s, game, bots, read, write, width or terminal_width(), random.Random(game.seed), clear,
                    terminal_language(lang))
    return table.run()
