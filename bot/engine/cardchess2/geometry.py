"""The 7×7 board: cells, patterns, cover and move rules (§2.1), attack values (§2.5).

Cells are indices ``rank * 7 + file`` (a1 = 0, g7 = 48) inside the engine and names
(``"d5"``) everywhere else. Occupancy is a list of 49 entries, ``None`` for an empty cell.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

SIZE = 7
FILES = "abcdefg"
CELLS = [FILES[i % SIZE] + str(i // SIZE + 1) for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(CELLS)}

ATTACK = {"A": 14, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
          "K": 13}
DEF_RANK = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
            "K": 13}
# mult[attacking suit][defending suit] (§1, ruling 1)
MULT = {
    "H": {"H": 1, "S": 8, "C": 4, "D": 2},
    "S": {"H": 2, "S": 1, "C": 8, "D": 4},
    "C": {"H": 4, "S": 2, "C": 1, "D": 8},
    "D": {"H": 8, "S": 4, "C": 2, "D": 1},
}
ORTH, DIAG, KNIGHT = "o", "d", "n"
PATTERN = {"A": ORTH, "2": ORTH, "4": ORTH, "8": ORTH, "T": ORTH, "3": DIAG, "9": DIAG, "6": ORTH + DIAG,
           "Q": ORTH + DIAG, "5": KNIGHT, "7": KNIGHT, "J": KNIGHT, "K": KNIGHT}
PATTERN_NAME = {ORTH: "orthogonal", DIAG: "diagonal", ORTH + DIAG: "orthogonal and diagonal", KNIGHT: "knight"}


class Rules(NamedTuple):
    """The option flags the geometry and values depend on (a tuple: cheap to hash for caches)."""

    short_range: bool = False  # V2
    pawn_march: bool = False  # V3
    optional_step: bool = False  # V4
    special_first: bool = False  # V5
    wide_powers: bool = False  # V6


def rank_of(code: str) -> str:
    return code[0]


def suit_of(code: str) -> str:
    return code[1]


def defence(code: str) -> int:
    """Def(T) = 10 × rank (A = 1, J = 11, Q = 12, K = 13)."""
    return 10 * DEF_RANK[code[0]]


def _on(f: int, r: int) -> bool:
    return 0 <= f < SIZE and 0 <= r < SIZE


def _build() -> tuple[list[dict[int, tuple[str, tuple[int, ...]]]], list[frozenset[int]], list[frozenset[int]],
                      list[frozenset[int]], list[frozenset[int]]]:
    line: list[dict[int, tuple[str, tuple[int, ...]]]] = []
    knight, orth1, diag1, jump2 = [], [], [], []
    for x in range(SIZE * SIZE):
        f, r = x % SIZE, x // SIZE
        ln: dict[int, tuple[str, tuple[int, ...]]] = {}
        for kind, dirs in ((ORTH, ((0, 1), (0, -1), (1, 0), (-1, 0))), (DIAG, ((1, 1), (1, -1), (-1, 1), (-1, -1)))):
            for df, dr in dirs:
                between: list[int] = []
                nf, nr = f + df, r + dr
                while _on(nf, nr):
                    y = nr * SIZE + nf
                    ln[y] = (kind, tuple(between))
                    between.append(y)
                    nf, nr = nf + df, nr + dr
        line.append(ln)
        knight.append(frozenset((r + dr) * SIZE + f + df for df, dr in
                                ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
                                if _on(f + df, r + dr)))
        orth1.append(frozenset((r + dr) * SIZE + f + df for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                               if _on(f + df, r + dr)))
        diag1.append(frozenset((r + dr) * SIZE + f + df for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
                               if _on(f + df, r + dr)))
        jump2.append(frozenset((r + dr) * SIZE + f + df for df, dr in ((0, 2), (0, -2), (2, 0), (-2, 0))
                               if _on(f + df, r + dr)))
    return line, knight, orth1, diag1, jump2


LINE, KNIGHTS, ORTH1, DIAG1, JUMP2 = _build()


def adjacent_for_power(rank: str, x: int, y: int, rules: Rules) -> bool:
    """Whether a 2 or 3 at ``x`` is adjacent to ``y`` for its special power (ruling 7; V6: all 8)."""
    if rules.wide_powers:
        return y in ORTH1[x] or y in DIAG1[x]
    return y in (ORTH1[x] if rank == "2" else DIAG1[x])


@functools.lru_cache(maxsize=None)  # bench: playouts/s — a fixed geometry, asked at every step
def reach(x: int, rank: str, y: int, rules: Rules) -> tuple[int, ...] | None:
    """The cells that must be empty for the card at ``x`` to cover ``y``, or ``None`` if its
    pattern never reaches ``y`` from ``x`` (whatever stands between)."""
    if rules.wide_powers and rank in "23" and (y in ORTH1[x] or y in DIAG1[x]):
        return ()
    pattern = PATTERN[rank]
    if pattern == KNIGHT:
        return () if y in KNIGHTS[x] else None
    ln = LINE[x].get(y)
    if ln is None or ln[0] not in pattern:
        return None
    if rules.short_range and ln[1]:
        return None
    return ln[1]


@functools.lru_cache(maxsize=None)  # bench: playouts/s — a fixed geometry, asked at every step
def reach_set(x: int, rank: str, rules: Rules) -> tuple[int, ...]:
    """Every cell the card of ``rank`` at ``x`` could cover on some board."""
    return tuple(y for y in range(SIZE * SIZE) if y != x and reach(x, rank, y, rules) is not None)


def covers(occ: Sequence[Any], x: int, rank: str, y: int, rules: Rules) -> bool:
    """covers(X, Y): the card (of ``rank``) at ``x`` can attack cell ``y`` (§2.1)."""
    between = reach(x, rank, y, rules)
    return between is not None and not any(occ[c] for c in between)


def forward(side: int) -> int:
    """+1 rank for South (side 0), -1 for North."""
    return 1 if side == 0 else -1


def moves(occ: Sequence[Any], x: int, rank: str, side: int, rules: Rules) -> list[int]:
    """M(X): the empty cells the card of ``rank`` at ``x`` can MOVE to (§2.1, rulings 4 and 8)."""
    return [y for y in move_cells(x, rank, side, rules) if not occ[y]]


@functools.lru_cache(maxsize=None)  # bench: playouts/s — a fixed geometry, asked at every step
def move_cells(x: int, rank: str, side: int, rules: Rules) -> tuple[int, ...]:
    """The cells a card of ``rank`` at ``x`` moves to on an empty board (only the destination
    must be empty: line moves are one cell, knights and the 4's jump are never blocked)."""
    out: set[int] = set()
    pattern = PATTERN[rank]
    if rules.pawn_march:
        r = x // SIZE + forward(side)
        if 0 <= r < SIZE:
            out.add(r * SIZE + x % SIZE)
    elif pattern == KNIGHT:
        out |= KNIGHTS[x]
    else:
        if ORTH in pattern:
            out |= ORTH1[x]
        if DIAG in pattern:
            out |= DIAG1[x]
    if rank == "4":
        out |= JUMP2[x]
    elif rank == "5":
        out |= ORTH1[x]
    return tuple(sorted(out))


def value(attacker: str, x: int, target: str, y: int, rules: Rules) -> int:
    """value(a, T) for the card ``attacker`` at ``x`` against ``target`` at ``y`` (§2.5, rulings 7, V5)."""
    r = attacker[0]
    mult = MULT[attacker[1]][target[1]]
    normal = ATTACK[r] * mult
    if r in "23" and adjacent_for_power(r, x, y, rules):
        special = 20 if r == "2" else 15
        return special * mult if rules.special_first else max(special, normal)
    return normal


def best_value(attacker: str, target: str, rules: Rules) -> int:
    """An upper bound of value(attacker, target) over every position."""
    r = attacker[0]
    mult = MULT[attacker[1]][target[1]]
    normal = ATTACK[r] * mult
    if r in "23":
        special = 20 if r == "2" else 15
        return max(normal, special * mult if rules.special_first else special)
    return normal
