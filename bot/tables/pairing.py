"""Tournament pairing and standings: pure functions over plain data (no store, no Discord).

A tournament is a list of :class:`Entrant` and the rounds played so far, each a list of
:class:`Board` (the players of one table, and its result once it ended). Everything here is a
function of those: the standings (points, Buchholz), the next round's boards.

* **Swiss** (two-player games): players are paired by score (then rating), never twice against
  the same opponent while a repeat-free pairing exists (an exact search; over the usual
  ⌈log₂ n⌉ rounds one always exists), and with an odd count the lowest-placed player who has not
  had a bye gets one: a bye is a win (1 point) and counts no opponent for Buchholz.
* **Single elimination** (two-player games): a bracket seeded by rating (1 v n, 2 v n−1, …),
  byes for the top seeds when the count is not a power of two; a drawn game (or a table settled
  as a draw) sends the higher seed through.
* **Tables** (games for 3–6): each round the players, ordered by score then rating, sit at
  tables of the chosen size, top tables first; a player earns ``n − 1 − place`` points at a table
  of ``n`` (shared places share). A table the count cannot fill is filled with built-in players
  when the organiser allows, else the tables are evened out within the game's player range.

Points are kept in halves (a drawn two-player game is ½ each) as floats; Buchholz is the sum of
the points of every opponent met (at a table, every other person there).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SWISS, ELIMINATION, TABLES = "swiss", "elimination", "tables"
FORMATS = (SWISS, ELIMINATION, TABLES)
FILL = -1000  # fill-in bots' user ids start below this (they are not entrants and score nothing)


@dataclass
class Entrant:
    user_id: int  # negative: a built-in player entered by the organiser
    name: str
    rating: float = 0.0  # the conservative rating when the tournament started (seeding)
    dropped: bool = False

    def to_json(self) -> list[Any]:
        return [self.user_id, self.name, self.rating, self.dropped]

    @classmethod
    def from_json(cls, d: Sequence[Any]) -> "Entrant":
        return cls(int(d[0]), str(d[1]), float(d[2]), bool(d[3]))


@dataclass
class Board:
    """One table of a round: its players in seat order; ``places`` (0 first) once it ended;
    ``channel`` and ``table`` once it was opened; a bye has one player and no table."""

    players: list[int]
    places: list[int] | None = None
    channel: int | None = None
    table: str | None = None
    bye: bool = False
    announced: bool = False  # the table was posted and its players pinged
    how: str = ""  # how it ended: "", "settled", "abandoned"
    points: float | None = None  # a bye's points when not a win's (a bye in a round of tables)

    @property
    def done(self) -> bool:
        return self.places is not None

    def to_json(self) -> dict[str, Any]:
        return {"p": self.players, "r": self.places, "c": self.channel, "t": self.table, "b": self.bye,
                "a": self.announced, "h": self.how, "x": self.points}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Board":
        return cls([int(u) for u in d["p"]], None if d.get("r") is None else [int(x) for x in d["r"]],
                   d.get("c"), d.get("t"), bool(d.get("b")), bool(d.get("a")), str(d.get("h") or ""), d.get("x"))


@dataclass
class Standing:
    user_id: int
    name: str
    points: float = 0.0
    buchholz: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)
    rating: float = 0.0
    out: bool = False  # knocked out (single elimination)


def board_points(board: Board) -> dict[int, float]:
    """Each entrant's points from one ended board (fill-in bots excluded)."""
    if board.places is None:
        return {}
    if board.bye:
        return {board.players[0]: 1.0 if board.points is None else board.points}
    n = len(board.players)
    if n == 2:
        a, b = board.places
        if a == b:
            return {board.players[0]: 0.5, board.players[1]: 0.5}
        return {board.players[0]: 1.0 if a < b else 0.0, board.players[1]: 1.0 if b < a else 0.0}
    out: dict[int, float] = {}
    for i, u in enumerate(board.players):
        if u <= FILL:
            continue
        place = board.places[i]
        # Shared places share the points of the places they cover.
        same = sum(1 for p in board.places if p == place)
        above = sum(1 for p in board.places if p < place)
        out[u] = sum(n - 1 - k for k in range(above, above + same)) / same
    return out


def standings(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Board]]) -> list[Standing]:
    """Everyone's standing, best first: points, then Buchholz, then rating, then name."""
    table = {e.user_id: Standing(e.user_id, e.name, dropped=e.dropped, rating=e.rating) for e in entrants}
    for boards in rounds:
        for board in boards:
            if board.places is None:
                continue
            pts = board_points(board)
            for i, u in enumerate(board.players):
                s = table.get(u)
                if s is None:
                    continue
                s.points += pts.get(u, 0.0)
                if board.bye:
                    s.byes += 1
                    s.wins += 1
                    continue
                s.played += 1
                s.opponents += [v for v in board.players if v != u and v in table]
                best = min(board.places)
                mine = board.places[i]
                if mine == best and board.places.count(best) == 1:
                    s.wins += 1
                elif mine == best:
                    s.draws += 1
                else:
                    s.losses += 1
    for s in table.values():
        s.buchholz = sum(table[o].points for o in s.opponents)
    return sorted(table.values(), key=lambda s: (-s.points, -s.buchholz, -s.rating, s.name.lower(), s.user_id))


# ----- Swiss -------------------------------------------------------------------------------------
def met(rounds: Sequence[Sequence[Board]]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for boards in rounds for bd in boards if not bd.bye
            for i, a in enumerate(bd.players) for b in bd.players[i + 1:]}


def swiss_round(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Board]]) -> list[Board]:
    """The next Swiss round: a bye (if the count is odd) and pairs, no repeats where possible."""
    order = [s.user_id for s in standings(entrants, rounds) if not s.dropped]
    had_bye = {bd.players[0] for boards in rounds for bd in boards if bd.bye}
    seen = met(rounds)
    candidates: list[int | None] = [None]
    if len(order) % 2:
        # The lowest-placed player without a bye first; everyone has had one: the lowest-placed.
        candidates = [u for u in reversed(order) if u not in had_bye] or list(reversed(order))
    for allow_repeats in (False, True):
        for bye in candidates:
            rest = [u for u in order if u != bye]
            pairs = _pair(rest, seen, allow_repeats)
            if pairs is not None:
                boards = [Board([a, b]) for a, b in pairs]
                if bye is not None:
                    boards.append(Board([bye], places=[0], bye=True))
                return boards
    raise AssertionError("a pairing with repeats always exists")


def _pair(players: list[int], seen: set[frozenset[int]], allow_repeats: bool,
          budget: list[int] | None = None) -> list[tuple[int, int]] | None:
    """Pair the list top-down, each with the nearest player below not met yet (backtracking)."""
    if budget is None:
        budget = [200_000]
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    top, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if not allow_repeats and frozenset((top, other)) in seen:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], seen, allow_repeats, budget)
        if tail is not None:
            return [(top, other), *tail]
    return None


def swiss_rounds(n: int) -> int:
    """The usual number of Swiss rounds for ``n`` players: enough to find one clear winner."""
    return max(1, math.ceil(math.log2(max(n, 2))))


# ----- single elimination ------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """Seed numbers (0 best) in bracket slots: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for 8."""
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n - 1 - s)]
    return order


def elimination_round(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Board]]) -> list[Board]:
    """The next round of the bracket: seeds by rating in round one, then the winners in order."""
    seeds = sorted(entrants, key=lambda e: (-e.rating, e.name.lower(), e.user_id))
    rank = {e.user_id: i for i, e in enumerate(seeds)}
    dropped = {e.user_id for e in entrants if e.dropped}
    if not rounds:
        size = 1 << max(1, math.ceil(math.log2(max(len(seeds), 2))))
        slots: list[int | None] = [seeds[s].user_id if s < len(seeds) else None for s in bracket_order(size)]
    else:
        slots = [advancer(bd, rank) for bd in rounds[-1]]
    boards = []
    for a, b in zip(slots[0::2], slots[1::2], strict=True):
        if a is None or b is None or a in dropped or b in dropped:
            through = [u for u in (a, b) if u is not None and u not in dropped]
            if not through:  # both gone: the better seed's slot carries no one
                through = [min((u for u in (a, b) if u is not None), key=lambda u: rank[u], default=0)]
            boards.append(Board([through[0]], places=[0], bye=True))
        else:
            boards.append(Board([a, b]))
    return boards


def advancer(board: Board, rank: Mapping[int, int]) -> int:
    """Who goes through from an ended elimination board: the winner, on a draw the higher seed."""
    if board.bye or board.places is None:
        return board.players[0]
    a, b = board.players
    pa, pb = board.places
    if pa != pb:
        return a if pa < pb else b
    return a if rank.get(a, 0) <= rank.get(b, 0) else b


def elimination_rounds(n: int) -> int:
    return max(1, math.ceil(math.log2(max(n, 2))))


def knocked_out(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Board]]) -> set[int]:
    seeds = sorted(entrants, key=lambda e: (-e.rating, e.name.lower(), e.user_id))
    rank = {e.user_id: i for i, e in enumerate(seeds)}
    out = set()
    for boards in rounds:
        for bd in boards:
            if bd.places is not None and not bd.bye:
                w = advancer(bd, rank)
                out |= {u for u in bd.players if u != w}
    return out


# ----- tables of 3 to 6 --------------------------------------------------------------------------
def table_sizes(n: int, size: int, lo: int, hi: int, fill: bool) -> list[int]:
    """How many seats each table gets: ``size`` each, the last filled with bots when allowed,
    else as even as the player range allows (people left over sit out with a bye)."""
    if n <= 0:
        return []
    if fill:
        return [size] * math.ceil(n / size)
    for count in sorted({math.ceil(n / size), max(1, n // size)}, reverse=True):
        base, extra = divmod(n, count)
        sizes = [base + 1] * extra + [base] * (count - extra)
        if lo <= min(sizes) and max(sizes) <= hi:
            return sizes
    count = n // max(lo, 1)
    return [size if size * count <= n else lo] * count if count else []


def tables_round(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Board]], size: int, lo: int, hi: int,
                 fill: bool) -> list[Board]:
    """The next round of tables: the players by score then rating, top tables first."""
    order = [s.user_id for s in standings(entrants, rounds) if not s.dropped]
    sizes = table_sizes(len(order), size, lo, hi, fill)
    boards: list[Board] = []
    i = 0
    fills = 0
    for n in sizes:
        players = order[i:i + n]
        i += n
        while len(players) < n:
            fills += 1
            players.append(FILL - fills)
        boards.append(Board(players))
    for u in order[i:]:  # no table for them: a bye worth a middle place's points
        boards.append(Board([u], places=[0], bye=True, points=(size - 1) / 2))
    return boards
