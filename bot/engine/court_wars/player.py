"""Court Wars' built-in player: chooses from its own view and its legal actions only."""

from __future__ import annotations

import random

from bot.engine.core import Action, Game

from .actions import LETTERS, Attack, Defend, Discard, Draw, Place, PlaceJoker, Resign, Skip
from .rules import guard_value
from .view import CourtWarsView


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Defeat a stack when possible (eliminations first, then the cheapest), else make an
    even cut, else defend; place guards where they fit snugly; always place jokers."""
    view = game.view(seat)
    assert isinstance(view, CourtWarsView)
    legal = list(game.legal_actions(seat))
    if not legal:
        return Resign()
    if view.stage == "build":
        return Draw()
    mine = view.seats[seat].positions
    if view.stage == "guard":
        v = guard_value(view.pending or "")
        best: tuple[float, Place] | None = None
        for a in legal:
            if not isinstance(a, Place):
                continue
            guards = mine[a.index].guards
            gap = (11 - v) if not guards else guard_value(guards[-1]) - v
            # Low guards on an empty stack cap it: keep empty stacks for high guards.
            score = gap + rng.random() * 0.1
            if best is None or score < best[0]:
                best = (score, a)
        return best[1] if best else Discard()
    if view.stage == "joker":
        jokers = [a for a in legal if isinstance(a, PlaceJoker)]
        return jokers[0] if jokers else Discard()
    attack = _best_attack(view, seat, [a for a in legal if isinstance(a, Attack)], rng)
    if attack:
        return attack
    return Skip() if view.stage == "ace" else Defend()


def _best_attack(view: CourtWarsView, seat: int, attacks: list[Attack], rng: random.Random) -> Attack | None:
    best: tuple[tuple[float, ...], Attack] | None = None
    for a in attacks:
        target = view.seats[a.target_seat].positions[a.target_index]
        theirs = target.guards
        spent = view.seats[seat].positions[a.source_index].guards[-a.spend:]
        power = sum(guard_value(g) for g in spent)
        cost = sum(guard_value(g) for g in theirs[-a.remove:]) if a.remove <= len(theirs) else \
            sum(guard_value(g) for g in theirs) + 10
        if a.remove > len(theirs):  # a defeat
            eliminates = view.seats[a.target_seat].living == 1
            key: tuple[float, ...] = (2, 1 if eliminates else 0, -power, -(power - cost), rng.random())
        elif power == cost and cost >= 5:
            key = (1, 0, cost, -a.spend, rng.random())
        else:
            continue
        if best is None or key > best[0]:
            best = (key, a)
    return best[1] if best else None


__all__ = ["auto_move", "LETTERS"]
