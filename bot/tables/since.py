"""What happened since a seat last acted, as that seat read it.

Each seat has a small inbox kept with its table (``TableRow.series["since"]``, stored with the row,
so it outlives a restart): every move notes in every other seat's inbox the move's events as that
seat read them (``Event.for_``: its own view, as of the moment they happened), and a seat's own
move empties its inbox. Only the seat's own reader carries its inbox (``Reader.since``); the
private panel tells it in one or two lines (:func:`told`), never the public ping.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import pretty_text
from bot.engine.core import Event

SINCE = "since"  # the series key of the inboxes
KEEP = 6  # the latest lines kept a seat (the rest are counted)
SHORT = 3  # at most this many lines are told whole; more are summed up
LINE = 300  # characters of one told line


@dataclass(frozen=True)
class Since:
    """One seat's inbox: the moves made since its last one, by whom, and the latest lines it read."""

    moves: int
    movers: tuple[int, ...]  # seats, in the order they first moved
    lines: tuple[str, ...]  # the latest lines, as this seat read them
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
        texts = [t for t in (e.for_(seat) for e in events) if t]
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
                 tuple(str(t) for t in found.get("lines", [])), int(found.get("said", 0)))


def _names(seats: Sequence[int], players: Sequence[str]) -> str:
    names = [" ".join(players[s].split()) if 0 <= s < len(players) else "?" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _clip(text: str) -> str:
    return text if len(text) <= LINE else text[:LINE - 1] + "…"


def told(since: Since | None, players: Sequence[str]) -> list[str]:
    """The inbox in one or two lines of plain words (cards as faces): every line when there are
    few, else how many moves by whom and the latest lines. Empty when nothing happened."""
    if since is None:
        return []
    lines = [" ".join(pretty_text(t).split()).rstrip(".") for t in since.lines]
    moves = f"{since.moves} move{'s' if since.moves != 1 else ''} by {_names(since.movers, players)}"
    if not lines:
        return [f"Since your last move: {moves}."]
    if since.said <= SHORT and len("; ".join(lines)) <= LINE:
        return [_clip(f"Since your last move: {'; '.join(lines)}.")]
    latest = "; ".join(lines[-2:])
    return [f"Since your last move: {moves}.", _clip(f"The latest: {latest}.")]
