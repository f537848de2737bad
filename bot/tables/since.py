"""What happened since a seat last acted, as that seat read it.

Each seat has a small inbox kept with its table (``TableRow.series["since"]``, stored with the row,
so it outlives a restart): every move notes in every other seat's inbox the move's events as that
seat read them (``Event.for_``: its own view, as of the moment they happened), and a seat's own
move empties its inbox. Only the seat's own reader carries its inbox (``Reader.since``); the
private panel tells it in one or two lines (:func:`told`), in the reader's language, never the
public ping. A line is kept as the engine's phrase JSON (``bot.engine.words.encode``), the same
in every language; a line an older inbox kept as English text reads as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import pretty_text
from bot.engine.core import Event
from bot.engine.words import Many, Typed, decode, encode
from bot.i18n import Words

SINCE = "since"  # the series key of the inboxes
KEEP = 6  # the latest lines kept a seat (the rest are counted)
SHORT = 3  # at most this many lines are told whole; more are summed up
LINE = 300  # characters of one told line


@dataclass(frozen=True)
class Since:
    """One seat's inbox: the moves made since its last one, by whom, and the latest lines it read."""

    moves: int
    movers: tuple[int, ...]  # seats, in the order they first moved
    lines: tuple[Any, ...]  # the latest lines, as this seat read them (phrases; an older inbox's English text)
    said: int  # lines in all (``lines`` keeps the last :data:`KEEP`)


def noted(series: Mapping[str, Any], players: int, mover: int, events: Iterable[Event]) -> dict[str, Any]:
    """``series`` with one move noted: in each other seat's inbox what it read of ``events``; the
    mover's inbox emptied. A new dict (the old one may be shared with a cached row)."""
    events = list(events)
    old = series.get(SINCE) or {}
    inbox: dict[str, Any] = {}
    for seat in range(players):
        key = str(seat)
        if seat == mover:
            continue  # an empty inbox is no inbox
        was = old.get(key) or {}
        texts = [encode(t) for t in (e.for_(seat) for e in events) if t]
        by = list(was.get("by", []))
        if mover not in by:
            by.append(mover)
        inbox[key] = {"moves": int(was.get("moves", 0)) + 1, "by": by,
                      "lines": (list(was.get("lines", [])) + texts)[-KEEP:], "said": int(was.get("said", 0)) + len(texts)}
    return {**series, SINCE: inbox}


def dropped(series: Mapping[str, Any]) -> dict[str, Any]:
    """``series`` without the inboxes (a new game of the series starts with none)."""
    return {k: v for k, v in series.items() if k != SINCE}


def of(series: Mapping[str, Any] | None, seat: int | None) -> Since | None:
    """``seat``'s inbox (None: the public, or nothing since its last move)."""
    if seat is None or not series:
        return None
    found = (series.get(SINCE) or {}).get(str(seat))
    if not found or not found.get("moves"):
        return None
    return Since(int(found["moves"]), tuple(int(s) for s in found.get("by", [])),
                 tuple(decode(t, True) if isinstance(t, dict) else str(t) for t in found.get("lines", [])),
                 int(found.get("said", 0)))


def _names(seats: Sequence[int], players: Sequence[str]) -> Many:
    """The movers' names as typed, listed as the reader's language lists them."""
    return Many([Typed(" ".join(players[s].split())) if 0 <= s < len(players) else "?" for s in seats], "and")


def _clip(text: str) -> str:
    return text if len(text) <= LINE else text[:LINE - 1] + "…"


def _said(line: Any, w: Words) -> str:
    """One line as the reader reads it: in its language, cards as faces, on one line, without its full stop
    (an older inbox's English text as it is, its card codes as faces)."""
    said = pretty_text(str(line)) if w.english or type(line) is str else w.line(line)
    return " ".join(said.split()).rstrip(".")


def told(since: Since | None, players: Sequence[str], w: Words) -> list[str]:
    """The inbox in one or two lines of plain words in the reader's language (``w``; cards as faces):
    every line when there are few, else how many moves by whom and the latest lines. Empty when
    nothing happened."""
    if since is None:
        return []
    lines = [_said(t, w) for t in since.lines]
    moves = w.n("{n} move by {names}", "{n} moves by {names}", since.moves, names=_names(since.movers, players))
    if not lines:
        return [w.t("Since your last move: {lines}.", lines=moves)]
    if since.said <= SHORT and len("; ".join(lines)) <= LINE:
        return [_clip(w.t("Since your last move: {lines}.", lines="; ".join(lines)))]  # (plain text: put in as it is)
    latest = "; ".join(lines[-2:])
    return [w.t("Since your last move: {lines}.", lines=moves), _clip(w.t("The latest: {lines}.", lines=latest))]
