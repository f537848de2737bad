"""Attacks: the step simulation (A2), range and power checks (A3, A4) and the exact search that
keeps the attack builder free of dead ends.

Everything here reads only what the attacking seat may know: which cells are occupied (public),
its own cards, and the target's card only when it is face up. Face-up cards and aces never
step, so the search branches only on the seat's face-down non-aces; a memo over (cards used,
where they stand) keeps it small.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .geometry import ATTACK, Rules, best_value, covers, moves, reach, value


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
        return self.face_down and self.rank != "A"


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

    # ----- declaring ----------------------------------------------------------------------
    def where(self, own: Own) -> list[int]:
        """Where ``own`` may attack from if it joins now (its step destinations, or its cell)."""
        out = []
        if not own.steps or self.rules.optional_step:
            out.append(own.cell)
        if own.steps:
            out += moves(self.occ, own.cell, own.rank, self.side, self.rules)
        return out

    def join(self, own: Own, at: int) -> None:
        """Add a striker (its step, if any, made now)."""
        if at != own.cell:
            self.occ[own.cell] = False
            self.occ[at] = True
        self.cands = [c for c in self.cands if c is not own]
        self.chosen.append((own, at))
        if self.target_card is not None:
            self.sigma += value(own.code, at, self.target_card, self.target, self.rules)

    def value_of(self, own: Own, at: int) -> int | None:
        return None if self.target_card is None else value(own.code, at, self.target_card, self.target, self.rules)

    def fails(self) -> tuple[Own, int] | None:
        """The first striker that does not cover the target now (A3), or ``None``."""
        for own, at in self.chosen:
            if not covers(self.occ, at, own.rank, self.target, self.rules):
                return own, at
        return None

    def complete(self) -> bool:
        return len(self.chosen) >= self.min_count and self.fails() is None and self.sigma >= self.need

    # ----- the exact search ---------------------------------------------------------------
    def feasible(self) -> bool:
        """Whether some continuation (more strikers, each with a legal step) is a legal attack."""
        pos = [c.cell for c in self.cands]
        checks = [(own.rank, at) for own, at in self.chosen]
        key = frozenset((own.cell, at) for own, at in self.chosen)
        return self._dfs(list(self.occ), pos, 0, checks, self.sigma, len(self.chosen), key)

    def feasible_with(self, own: Own, at: int) -> bool:
        """Whether joining ``own`` attacking from ``at`` keeps the attack completable."""
        if reach(at, own.rank, self.target, self.rules) is None:
            return False
        trial = Plan(list(self.occ), self.side, self.rules, self.target, self.target_card, self.need,
                     list(self.cands), self.min_count, self.cap, list(self.chosen), self.sigma, self.memo)
        trial.join(own, at)
        if self.cap is not None and len(trial.chosen) > self.cap:
            return False
        return trial.feasible()

    def _dfs(self, occ: list[bool], pos: list[int], used: int, checks: list[tuple[str, int]], sigma: int,
             count: int, key: frozenset) -> bool:
        rules, t = self.rules, self.target
        if count >= self.min_count and sigma >= self.need and all(covers(occ, at, r, t, rules) for r, at in checks):
            return True
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = False
        if self.cap is not None and count >= self.cap:
            return False
        cands = self.cands
        movable = {pos[i] for i, c in enumerate(cands) if not used >> i & 1 and c.steps}
        for r, at in checks:  # a line blocked by a card that can never step away
            between = reach(at, r, t, rules)
            if between and any(occ[c] and c not in movable for c in between):
                return False
        if self.need > sigma:
            bound = sorted((best_value(c.code, self.target_card, rules) for i, c in enumerate(cands)
                            if not used >> i & 1), reverse=True) if self.target_card else []
            if self.cap is not None:
                bound = bound[: self.cap - count]
            if sigma + sum(bound) < self.need:
                return False
        for i, c in enumerate(cands):
            if used >> i & 1:
                continue
            here = pos[i]
            spots = []
            if not c.steps or rules.optional_step:
                spots.append(here)
            if c.steps:
                spots += moves(occ, here, c.rank, self.side, rules)
            for at in spots:
                if reach(at, c.rank, t, rules) is None:
                    continue
                gain = value(c.code, at, self.target_card, t, rules) if self.target_card else 0
                if at != here:
                    occ[here], occ[at] = False, True
                pos[i] = at
                ok = self._dfs(occ, pos, used | 1 << i, checks + [(c.rank, at)], sigma + gain, count + 1,
                               key | {(c.cell, at)})
                pos[i] = here
                if at != here:
                    occ[here], occ[at] = True, False
                if ok:
                    self.memo[key] = True
                    return True
        return False


def upper_bound(cands: Sequence[Own], target_card: str, rules: Rules) -> int:
    return sum(best_value(c.code, target_card, rules) for c in cands)


def enforcement_bonus(code: str) -> int:
    """An enforcer adds 10 × its attack value (ruling 2: an ace adds 140)."""
    return 10 * ATTACK[code[0]]
