"""What a seat may do in one press, found on its reader: whole moves where one more step finishes
them, the steps taken for the player where there is no choice, several moves at once, one pick of a
move of several steps, and the passing chain — with their words. No Discord here: the pickers
(``bot.ui.pickers``) make buttons and selects of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import pretty_text
from bot.engine.core import Choices, Option
from bot.render.panel import clip
from bot.tables.reader import FORFEIT_TOKENS, Reader

SELECT_MAX = 25  # a select's options at most (Discord's): the most moves offered in one list

@dataclass(frozen=True)
class Shortcut:
    """A button that makes a whole move (or opens its text box) in one press."""

    tokens: tuple[str, ...]
    label: str
    style: str = "secondary"
    text: bool = False  # opens the text box of the move


def shortcuts(options: Sequence[Option], prefix: tuple[str, ...], choices_of: Any, limit: int) -> list[Shortcut] | None:
    """The options of a step as at most ``limit`` buttons, each a whole move where one more step
    finishes it: an option whose next step is a short list of final choices becomes those choices
    ("Place 2♠ on K♥"), one whose next step is a line of text opens its box at once. None when
    that does not fit (the step is shown as it is): known once more than ``limit`` are found,
    without asking the later options' steps."""
    out: list[Shortcut] = []
    for o in options:
        if len(out) > limit:
            return None
        tokens = prefix + (o.token,)
        nxt = choices_of(tokens)
        if nxt.kind == "text" and not nxt.options:
            out.append(Shortcut(tokens, o.label or o.token, "success", text=True))
            continue
        subs = list(nxt.options) if nxt.kind == "token" and not nxt.complete else []
        if subs and all((c := choices_of(tokens + (s.token,))).complete and not c.options and c.kind == "token"
                        for s in subs):
            for s in subs:
                label = s.label if s.label and s.label != s.token else f"{o.label or o.token}: {s.label or s.token}"
                out.append(Shortcut(tokens + (s.token,), label, s.style or o.style))
        else:
            out.append(Shortcut(tokens, o.label or o.token, o.style))
    return out if len(out) <= limit else None


FORCED_MAX = 8  # forced steps taken in a row at most (a move has a few steps)


def _forced(c: Choices) -> bool:
    """A step that leaves the seat no choice: one option, the tokens so far no move of their own
    (so stopping is no alternative), and no forfeit (giving the game up is always asked)."""
    return c.kind == "token" and not c.complete and len(c.options) == 1 and c.options[0].token not in FORFEIT_TOKENS


def forced_steps(reader: Reader, tokens: tuple[str, ...]) -> tuple[str, ...]:
    """``tokens`` (a step the player pressed) and each step after them that leaves the seat no
    choice, taken for the player: taking one shows nothing new (a step's choices are read from the
    seat's own view, and nothing is played until the move is whole), and the player would only
    press its one button. A decision's first step is never taken (it is where the decision is
    explained, and a whole move there is the player's to make: pressing it is the choice)."""
    out = tuple(tokens)
    for _ in range(FORCED_MAX):
        c = reader.choices(out)
        if not _forced(c):
            break
        out += (c.options[0].token,)
    return out


def back_to(reader: Reader, tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Where Back goes from ``tokens``: the last step before them that held a choice (a step taken
    for the player would be taken again at once), else the decision's first step."""
    for n in range(len(tokens) - 1, 0, -1):
        if forced_steps(reader, tokens[:n]) == tokens[:n]:
            return tokens[:n]
    return ()


THEN = ";"  # between the moves of a sequence played in one press (never a token of any game)


def batch_value(i: int, tokens: Sequence[str]) -> str:
    """A value of a select of whole moves: its place in the order they are played, then the move."""
    return f"{i:02d} {' '.join(tokens)}"


def batch_moves(values: Sequence[str]) -> list[str]:
    """The moves a select of whole moves chose, in the order offered; a move whose longer form
    (the same move with one more token, as a tap with J♦) was chosen too gives way to it."""
    picked = sorted((v.partition(" ") for v in values), key=lambda p: p[0])
    moves = [m.strip() for _, _, m in picked if m.strip() and THEN not in m.split()]
    return [m for m in moves if not any(o != m and o.startswith(m + " ") for o in moves)]


def whole(reader: Reader, tokens: tuple[str, ...]) -> bool:
    c = reader.choices(tokens)
    return c.complete and c.kind == "token"


def _short_moves(reader: Reader, options: Sequence[Option]) -> list[tuple[tuple[str, ...], list[tuple[str, ...]]]]:
    """The seat's whole moves of one or two tokens now, each with its one-token longer forms (a
    tap with J♦); passing steps (the primary option that ends a phase), forfeits and text left out."""
    out: list[tuple[tuple[str, ...], list[tuple[str, ...]]]] = []
    for o in options:
        if o.style == "primary" or o.token in FORFEIT_TOKENS:
            continue
        c = reader.choices((o.token,))
        firsts = [(o.token,)] if c.complete and c.kind == "token" else []
        if c.kind == "token" and not c.complete:
            firsts = [(o.token, x.token) for x in c.options if whole(reader, (o.token, x.token))]
        for t in firsts:
            longer = [t + (y.token,) for y in reader.choices(t).options
                      if whole(reader, t + (y.token,)) and not reader.choices(t + (y.token,)).options]
            out.append((t, longer))
    return out


def move_label(reader: Reader, tokens: tuple[str, ...]) -> str:
    """A whole move in a few words (one entry of a batch, one part of what a press did)."""
    words = reader.so_far(tokens)
    if len(words) <= 2:
        return words[-1]
    return ", ".join(words[1:]) if reader.choices(tokens[:2]).kind == "token" and len(words) == 3 and \
        reader.choices(tokens[:2]).complete else _long_label(reader, tokens)


def said_label(reader: Reader, move: str) -> str | None:
    """A move that ends in the player's own words (a story line) as one label: the words of its
    steps, then the line as written ("Tell with the Princess (Q♠): “Then the dragon woke.”");
    None for a move without a text step."""
    words = move.split()
    for i in range(len(words)):
        if reader.choices(tuple(words[:i])).kind == "text":
            text = move.split(None, i)[i].strip()
            head = " → ".join(reader.so_far(tuple(words[:i])))
            return f"{head}: “{text}”" if head else f"“{text}”"
    return None


def several(reader: Reader, options: Sequence[Option]) -> list[tuple[tuple[str, ...], str]]:
    """Whole moves a seat may make several of in one go, in the order they are played: each
    leaves the same decision open and takes no other one away (tapping resources and the base,
    playing a resource and then tapping it). Found by looking ahead on the seat's own reader."""
    decision = reader.decision.name if reader.decision is not None else ""
    out: list[tuple[tuple[str, ...], str]] = []
    now, seen, count = reader, set(), 0
    todo = list(_candidates(reader, options))
    while todo and len(out) < SELECT_MAX - 1:
        move, longer, kept = todo.pop(0)
        if move in seen:
            continue
        if kept is not None and not kept.ok(now):
            continue  # not a candidate after all: one_pick(keeps=True) leaves its option out
        seen.add(move)
        text = " ".join(move)
        nxt = now.trial(text)  # whether the move shows the seat anything new: asked last (``after``)
        if nxt is None or nxt.decision is None or nxt.decision.name != decision:
            continue
        if not all(whole(nxt, m) or (k is not None and not k.ok(now)) for m, _, k in todo):
            continue  # it would take another move away (one K♦ for two rushes): not in a batch
        nxt = now.after(text)
        if nxt is None:
            continue  # it shows the seat something it does not know (a card drawn): no preview
        out.append((move, move_label(now, move)))
        out += [(m, move_label(now, m)) for m in longer[:1]]
        count += 1
        now = nxt
        todo = [c for c in _candidates(nxt, list(nxt.choices(()).options)) if c[0] not in seen]
    return out if count >= 2 else []


class _Keeps:
    """Whether the first move of an option of several steps keeps the reader's decision open:
    the test ``one_pick(keeps=True)`` makes of each option (one preview), made only when a batch
    comes to the option's moves or needs them to tell whether a move takes another away; most
    readers along a batch give way to the next before either. ``ok`` is asked of a reader of the
    game the moves were found in (kept with it: no reader is held here)."""

    __slots__ = ("move", "decision", "_ok")

    def __init__(self, move: tuple[str, ...], decision: str):
        self.move, self.decision = move, decision
        self._ok: bool | None = None

    def ok(self, reader: Reader) -> bool:
        if self._ok is None:
            nxt = reader.after(" ".join(self.move), acting=False)
            self._ok = nxt is not None and nxt.decision is not None and nxt.decision.name == self.decision
        return self._ok


Candidate = tuple[tuple[str, ...], list[tuple[str, ...]], "_Keeps | None"]


def _candidates(reader: Reader, options: Sequence[Option]) -> tuple[Candidate, ...]:
    """Moves that may go in a batch: the short ones, then those of several steps, exactly
    ``one_pick(keeps=True)``'s, each with its option's test (``_Keeps``) not yet made. Kept with
    the reader's game: each reader along a batch is asked once, and the reader of a move the seat
    then plays is the preview's own."""
    def find() -> tuple[Candidate, ...]:
        short = _short_moves(reader, options)
        return tuple([(m, lg, None) for m, lg in short] + _kept_moves(reader, options, [m for m, _ in short]))
    # bench: CPU per interaction — each reader along a batch and each step of a panel asks these again
    return reader.kept(("candidates", options_key(options)), find)


def _kept_moves(reader: Reader, options: Sequence[Option], besides: Sequence[tuple[str, ...]]) -> list[Candidate]:
    """``one_pick(reader, options, besides, keeps=True)``'s moves, each option's with its test
    (``_Keeps``) not yet made. Each option's moves are capped as if every earlier option's were
    kept (the fewest left): a list found within that cap is the one found within a larger one
    (``_leaves``); when one is not (more than the cap), or all of them are more than a select
    holds, the tests are made at once as one_pick makes them."""
    decision = reader.decision.name if reader.decision is not None else ""
    out: list[Candidate] = []
    for o in options:
        if o.style == "primary" or o.token in FORFEIT_TOKENS:
            continue
        leaves = _leaves(reader, (o.token,), 4, SELECT_MAX - len(out))
        if leaves is None and out:
            break  # with fewer moves kept before it, it might fit
        if not leaves or any(len(t) < 2 or t in besides for t in leaves):
            continue
        keeps = _Keeps(leaves[0], decision)
        out += [(t, [], keeps) for t in leaves]
    else:
        if len(out) <= SELECT_MAX:
            return out
    return [(t, [], None) for t in _one_pick_moves(reader, options, besides, True, None)]


def options_key(options: Sequence[Option]) -> tuple[tuple[str, str, str], ...]:
    """A step's options as a key of ``Reader.kept`` (what the pickers read of them)."""
    return tuple((o.token, o.label, o.style) for o in options)


def _leaves(reader: Reader, tokens: tuple[str, ...], depth: int, cap: int) -> list[tuple[str, ...]] | None:
    """Every whole move under ``tokens`` made of token steps (a step asking how much to put on
    something with a target gives the amount that finishes it, or all there is); None when there
    are more than ``cap``, or a step of text or of several picks at once."""
    c = reader.choices(tokens)
    out: list[tuple[str, ...]] = [tokens] if c.complete and c.kind == "token" and not c.options else []
    if c.kind == "range":
        p = c.progress
        if p is None or p.target is None:
            return None
        n = min(c.hi, p.target - p.total)
        return [tokens + (str(n),)] if n >= c.lo and whole(reader, tokens + (str(n),)) else []
    if c.kind != "token" or (c.options and (c.complete or depth == 0)):
        return None if c.options or c.kind != "token" else out
    for x in c.options:
        sub = _leaves(reader, tokens + (x.token,), depth - 1, cap - len(out))
        if sub is None:
            return None
        out += sub
        if len(out) > cap:
            return None
    return out


def one_pick(reader: Reader, options: Sequence[Option], besides: Sequence[tuple[str, ...]] = (), *,
             keeps: bool = False, passing: bool | None = None) -> list[tuple[tuple[str, ...], str]]:
    """Whole moves of two or more steps as one pick (start a card with what finishes it, rush a
    card, put a queen on a unit, assemble a unit), for options whose moves are few enough to list
    and not ``besides`` (offered several at once), in a decision that stays open after them (a
    phase the seat ends by passing). ``keeps``: only moves after which that decision stays open.
    ``passing``: ``_phase(reader, options)`` when the caller knows it (else asked only when a
    move ends the seat's part and ``keeps`` is false: its one preview is of the passing step)."""
    return [(t, _long_label(reader, t)) for t in _one_pick_moves(reader, options, besides, keeps, passing)]


def _one_pick_moves(reader: Reader, options: Sequence[Option], besides: Sequence[tuple[str, ...]], keeps: bool,
                    passing: bool | None) -> list[tuple[str, ...]]:
    """``one_pick``'s moves without their words (a batch's candidates need none)."""
    decision = reader.decision.name if reader.decision is not None else ""
    out: list[tuple[str, ...]] = []
    for o in options:
        if o.style == "primary" or o.token in FORFEIT_TOKENS:
            continue
        leaves = _leaves(reader, (o.token,), 4, SELECT_MAX - len(out))
        if not leaves or any(len(t) < 2 or t in besides for t in leaves):
            continue
        nxt = reader.after(" ".join(leaves[0]), acting=False)
        if nxt is None or (nxt.decision.name != decision if nxt.decision is not None else keeps or not (
                passing if passing is not None else (passing := _phase(reader, options)))):
            continue  # a move that ends the seat's part is one pick only in a phase it may pass
        out += leaves
    return out[:SELECT_MAX]


def _long_label(reader: Reader, tokens: tuple[str, ...]) -> str:
    """A whole move of several steps in words: "Start building a card: Start 5♥ (needs 5), 5 markers"."""
    words = reader.so_far(tokens)
    step = reader.choices(tokens[:-1])
    if step.kind == "range" and step.progress is not None:
        name = step.progress.name.lower()
        words[-1] = f"{tokens[-1]} {name[:-1] if tokens[-1] == '1' and name.endswith('s') else name}".strip()
    return f"{words[0]}: {', '.join(words[1:])}" if len(words) > 1 else words[0]


def passing_chain(reader: Reader, options: Sequence[Option]) -> list[tuple[tuple[str, ...], str]]:
    """The phase's passing step and each next one while nothing else would be left to do there
    (Finish construction → Finish battles → End your turn), each legal where it is played."""
    out: list[tuple[tuple[str, ...], str]] = []
    now, offered = reader, {o.token for o in options}
    opts = list(options)
    while len(out) < 6:
        step = next((o for o in opts if o.style == "primary" and whole(now, (o.token,))
                     and not now.choices((o.token,)).options), None)
        if step is None:
            break
        out.append(((step.token,), step.label or step.token))
        nxt = now.after(step.token)
        if nxt is None:
            break
        opts = list(nxt.choices(()).options)
        if any(o.token not in offered for o in opts if o is not next((p for p in opts if p.style == "primary"), None)):
            break  # the next phase offers something new: the player decides there
        now = nxt
    return out if len(out) >= 2 else []


def _phase(reader: Reader, options: Sequence[Option]) -> bool:
    """The decision is a phase the seat ends by passing: a passing step (the primary option, whole
    alone) that shows the seat nothing new (it is no draw)."""
    return any(o.style == "primary" and whole(reader, (o.token,)) and not reader.choices((o.token,)).options
               and reader.after(o.token, acting=False) is not None for o in options)


Moves = tuple[tuple[tuple[str, ...], str], ...]


def pick_words(reader: Reader, moves: Moves) -> str:
    """The placeholder of a select of whole moves in one pick: what its moves are, from the words of
    their first steps ("In one pick: Attach a queen…"), and, when a move's amount is chosen for
    the player (``_leaves``: what finishes it, or all there is), that it is."""
    heads = list(dict.fromkeys(reader.so_far(t[:1])[0] for t, _ in moves))
    amounts = any(reader.choices(t[:k]).kind == "range" for t, _ in moves for k in range(1, len(t)))
    note = " (amounts: what finishes it, or all you have)" if amounts else ""
    return clip(pretty_text(f"In one pick: {'; '.join(heads)}{note}…"), 150)


def press_moves(reader: Reader, options: Sequence[Option]) -> tuple[Moves, Moves, Moves] | None:
    """What ``in_one_press`` offers, as moves and their words (kept with the reader's game: a
    seat's panel shown again, or after a move it previewed, asks nothing again): several at
    once, in one pick, the passing chain; None when the decision is no phase (``_phase``)."""
    if not _phase(reader, options):
        return None
    many = tuple((t, label) for t, label in several(reader, options) if len(batch_value(0, t)) <= 100)
    quick = tuple((t, label) for t, label in one_pick(reader, options, [t for t, _ in many if len(t) <= 2],
                                                      passing=True) if len(batch_value(0, t)) <= 100)
    return many, quick, tuple(passing_chain(reader, options))
