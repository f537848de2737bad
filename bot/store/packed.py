"""How a stored row's bulky parts are held in memory: the move log as its entries' JSON texts
(:class:`MoveLog`) and a cached game state as marshal bytes (:class:`PackedState`), so the
garbage collector does not walk a hot table's lists and dicts."""

from __future__ import annotations

import json
import marshal
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from bot.store.jsontext import dumps


def _entry(move: Any) -> str:
    return dumps(move)


class MoveLog(Sequence[list[Any]]):
    """A table's move log, one ``[seat, move, unix time]`` a move, held as each entry's JSON text
    (the text the store keeps for it): a tuple of strings, not a list of lists. The garbage
    collector untracks a tuple of strings the first time it sees it, so a hot row's log is never
    walked again (a full collection over a thousand cached long games fell from hundreds of
    milliseconds; in the real press's 200-table burst the logs' references were about a fifth of
    what a full collection walked while they were lists). The moves a change appends wait in a
    short list (``_tail``) until the next copy folds them in: an append never copies the log.
    Reading an entry decodes it (a new list each time: change a move by ``append``, never in
    place); a slice decodes in one parse."""

    __slots__ = ("_base", "_tail")

    def __init__(self, moves: Iterable[Sequence[Any]] = ()):
        self._base: tuple[str, ...] = tuple(_entry(m) for m in moves)
        self._tail: list[str] | None = None

    @classmethod
    def of_texts(cls, texts: Iterable[str]) -> "MoveLog":
        """A log of entries already in JSON text (as the store reads them)."""
        log_ = cls()
        log_._base = tuple(texts)
        return log_

    @classmethod
    def of(cls, moves: Sequence[Sequence[Any]]) -> "MoveLog":
        """A log of its own holding ``moves`` (a copy: a change may append to it)."""
        return cls.of_texts(moves._all()) if isinstance(moves, MoveLog) else cls(moves)

    def _all(self) -> tuple[str, ...]:
        return self._base + tuple(self._tail) if self._tail else self._base

    def texts(self, start: int = 0) -> list[str]:
        """The JSON text of the entries from ``start`` on (what the store writes)."""
        k = len(self._base)
        if start >= k:
            return self._tail[start - k:] if self._tail else []
        return [*self._base[start:], *(self._tail or ())]

    def append(self, move: Sequence[Any]) -> None:
        if self._tail is None:
            self._tail = []
        self._tail.append(_entry(move))

    def extend(self, moves: Iterable[Sequence[Any]]) -> None:
        if self._tail is None:
            self._tail = []
        self._tail.extend(_entry(m) for m in moves)

    def __len__(self) -> int:
        return len(self._base) + (len(self._tail) if self._tail else 0)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            texts = self._all()[i]
            return json.loads(f"[{','.join(texts)}]") if texts else []
        if not self._tail:
            return json.loads(self._base[i])
        k, n = len(self._base), len(self)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError("move log index out of range")
        return json.loads(self._base[j] if j < k else self._tail[j - k])

    def __iter__(self) -> Iterator[list[Any]]:
        return iter(self[:])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MoveLog):
            return self._all() == other._all() or self[:] == other[:]
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and self[:] == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it stands for

    def __repr__(self) -> str:
        return f"MoveLog({self[:]!r})"


class PackedState(Mapping[str, Any]):
    """A table's game state (the engine's JSON-like dict) kept as marshal bytes: one object for the
    garbage collector instead of one per list and dict of the state (about 70 for a Maginot Line
    game), rebuilt on use. The table service's cache of hot rows holds their states so (a full
    collection over 1,000 hot tables walked each one's). Read-only; every read unpacks a fresh copy
    (about 20 µs for a long Maginot Line game): ``unpack()`` once, then read the dict."""

    __slots__ = ("_blob",)

    def __init__(self, state: Mapping[str, Any]):
        self._blob = state._blob if isinstance(state, PackedState) else marshal.dumps(dict(state))

    def unpack(self) -> dict[str, Any]:
        return marshal.loads(self._blob)

    def __getitem__(self, key: str) -> Any:
        return self.unpack()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.unpack())

    def __len__(self) -> int:
        return len(self.unpack())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedState):
            return self._blob == other._blob or self.unpack() == other.unpack()
        return self.unpack() == other if isinstance(other, Mapping) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedState({self.unpack()!r})"


def unpacked(state: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A state as a plain dict (a :class:`PackedState` unpacked; a dict as it is)."""
    return state.unpack() if isinstance(state, PackedState) else state  # type: ignore[return-value]
