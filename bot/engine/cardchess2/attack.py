"""Attacks: the step simulation (A2), range and power checks (A3, A4) and the exact search that
keeps the attack builder free of dead ends.

Everything here reads only what the attacking seat may know: which cells are occupied (public),
its own cards, and the target's card only when it is face up. Face-up cards and aces never
step, so the search branches only on the seat's cards that can reach the target; a memo over
the set of (card, attacking cell) pairs keeps it small (the board after the steps depends on
that set only, whatever their order).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import ATTACK, Rules, best_value, move_cells, reach, value


@dataclass(frozen=True)
class Own:
    """One of the attacking seat's cards on the board."""

    code: str
    cell: int
    face_down: bool

    @property
    def rank(self) -> str:
        return self.code[0]

    @property
    def steps(self) -> bool:
        """Whether it steps before attacking (ruling 6: face-down non-aces)."""
        return self.face_down and self.code[0] != "A"


Spot = tuple[int, tuple[int, ...], int]  # (attacking cell, cells that must be empty, value)


@dataclass
class Plan:
    """An attack (or a reinforcement) being declared: the board as the seat knows it, and the
    strikers so far. ``need``: the Σ the strikers must reach (0: any); ``target_card``: ``None``
    when the target is face down (no values)."""

    occ: list[bool]  # occupied cells, after the steps so far
    side: int
    rules: Rules
    target: int
    target_card: str | None
    need: int
    cands: list[Own]  # own cards that may still join
    min_count: int = 1
    cap: int | None = None
    chosen: list[tuple[Own, int]] = field(default_factory=list)  # (card, where it attacks from)
    sigma: int = 0
    memo: dict = field(default_factory=dict)
    spots: dict = field(default_factory=dict)  # Own -> its useful spots (shared, static)

    # ----- declaring ----------------------------------------------------------------------
    def where(self, own: Own) -> list[int]:
        """Where ``own`` may attack from if it joins now (its legal step destinations, or its cell)."""
        out = []
        if not own.steps or self.rules.optional_step:
            out.append(own.cell)
        if own.steps:
            out += [y for y in move_cells(own.cell, own.rank, self.side, self.rules) if not self.occ[y]]
        return out

    def join(self, own: Own, at: int) -> None:
        """Add a striker (its step, if any, made now)."""
        if at != own.cell:
            self.occ[own.cell] = False
            self.occ[at] = True
        self.cands = [c for c in self.cands if c != own]
        self.chosen.append((own, at))
        if self.target_card is not None:
            self.sigma += value(own.code, at, self.target_card, self.target, self.rules)

    def value_of(self, own: Own, at: int) -> int | None:
        return None if self.target_card is None else value(own.code, at, self.target_card, self.target, self.rules)

    def fails(self) -> tuple[Own, int] | None:
        """The first striker that does not cover the target now (A3), or ``None``."""
        for own, at in self.chosen:
            between = reach(at, own.rank, self.target, self.rules)
            if between is None or any(self.occ[c] for c in between):
                return own, at
        return None

    def complete(self) -> bool:
        return len(self.chosen) >= self.min_count and self.fails() is None and self.sigma >= self.need

    # ----- the exact search ---------------------------------------------------------------
    def _spots(self, own: Own) -> list[Spot]:
        """Every cell ``own`` could attack the target from (its own, or a step), with the cells
        that must then be empty and its value; occupancy is checked later."""
        got = self.spots.get(own)
        if got is None:
            got = []
            rules, t = self.rules, self.target
            cells = ([own.cell] if not own.steps or rules.optional_step else []) + (
                list(move_cells(own.cell, own.rank, self.side, rules)) if own.steps else [])
            for at in cells:
                between = reach(at, own.rank, t, rules)
                if between is not None:
                    v = value(own.code, at, self.target_card, t, rules) if self.target_card else 0
                    got.append((at, between, v))
            self.spots[own] = got
        return got

    def feasible(self) -> bool:
        """Whether some continuation (more strikers, each with a legal step) is a legal attack."""
        checks = []
        for own, at in self.chosen:
            between = reach(at, own.rank, self.target, self.rules)
            if between is None:
                return False
            checks.append(between)
        cands = [c for c in self.cands if self._spots(c)]
        if self.target_card is not None and self.need > self.sigma:
            if self.sigma + sum(best_value(c.code, self.target_card, self.rules) for c in cands) < self.need:
                return False
        key = frozenset((own.cell, at) for own, at in self.chosen)
        return self._dfs(list(self.occ), cands, 0, checks, self.sigma, len(self.chosen), key)

    def feasible_with(self, own: Own, at: int) -> bool:
        """Whether joining ``own`` attacking from ``at`` keeps the attack completable."""
        if reach(at, own.rank, self.target, self.rules) is None:
            return False
        if self.cap is not None and len(self.chosen) + 1 > self.cap:
            return False
        return self.joined(own, at).feasible()

    def joined(self, own: Own, at: int) -> "Plan":
        """A copy of this plan with ``own`` joined, attacking from ``at`` (this plan unchanged; the
        search's memo and spots shared)."""
        trial = Plan(list(self.occ), self.side, self.rules, self.target, self.target_card, self.need,
                     list(self.cands), self.min_count, self.cap, list(self.chosen), self.sigma, self.memo, self.spots)
        trial.join(own, at)
        return trial

    def _dfs(self, occ: list[bool], cands: list[Own], used: int, checks: list[tuple[int, ...]], sigma: int,
             count: int, key: frozenset) -> bool:
        if count >= self.min_count and sigma >= self.need and not any(occ[c] for b in checks for c in b):
            return True
        memo = self.memo
        if key in memo:
            return memo[key]
        memo[key] = False
        if self.cap is not None and count >= self.cap:
            return False
        movable = {c.cell for i, c in enumerate(cands) if not used >> i & 1 and c.steps}
        for b in checks:  # a line blocked by a card that can never step away
            for c in b:
                if occ[c] and c not in movable:
                    return False
        if self.need > sigma:
            bound = sorted((best_value(c.code, self.target_card, self.rules) for i, c in enumerate(cands)
                            if not used >> i & 1), reverse=True) if self.target_card else []
            if self.cap is not None:
                bound = bound[: self.cap - count]
            if sigma + sum(bound) < self.need:
                return False
        for i, c in enumerate(cands):
            if used >> i & 1:
                continue
            here = c.cell
            for at, between, gain in self._spots(c):
                if at != here:
                    if occ[at]:
                        continue
                    occ[here], occ[at] = False, True
                ok = self._dfs(occ, cands, used | 1 << i, checks + [between], sigma + gain, count + 1,
                               key | {(here, at)})
                if at != here:
                    occ[here], occ[at] = True, False
                if ok:
                    memo[key] = True
                    return True
        return False


def enforcement_bonus(code: str) -> int:
    """An enforcer adds 10 × its attack value (ruling 2: an ace adds 140)."""
    return 10 * ATTACK[code[0]]
