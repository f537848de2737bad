"""Court Wars' built-in player: chooses from its own view and its legal actions only."""

from __future__ import annotations

import random

from bot.engine.core import Action, Game
from bot.engine.words import say

from .actions import LETTERS, Attack, Defend, Discard, Draw, Place, PlaceJoker, Resign, Skip
from .rules import cn, guard_value
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


def hint(game: Game, seat: int) -> tuple[Action, str]:
    """The built-in player's action for ``seat`` and, in plain words, why (from its own view)."""
    from bot.engine.hints import hint_rng

    action = auto_move(game, seat, hint_rng(game, seat))
    view = game.view(seat)
    assert isinstance(view, CourtWarsView)
    if isinstance(action, Draw):
        return action, say("the opening build only asks you to draw until a guard turns up")
    if isinstance(action, Place):
        guards = view.seats[seat].positions[LETTERS.index(action.letter)].guards
        if guards:
            return action, say("that stack's outer guard is the closest above this one, so the stack stays snug and strong")
        return action, say("an empty stack is best kept for a high guard, and this one is high enough for it")
    if isinstance(action, PlaceJoker):
        return action, say("a joker on a defeated position brings it back into the fight")
    if isinstance(action, Discard):
        return action, say("the drawn card fits on none of your positions")
    if isinstance(action, Attack):
        them = view.seats[action.target_seat]
        target = them.positions[action.target_index]
        if action.remove > len(target.guards):
            if them.living == 1:
                return action, say("it defeats {name}'s stack and knocks them out of the game", name=them.name)
            return action, say("it defeats {name}'s stack", name=them.name)
        return action, say("it is an even trade that cuts {name}'s stack by as much as it costs you", name=them.name)
    if isinstance(action, Skip):
        return action, say("no attack defeats a stack or trades evenly, so you keep your guards and draw again")
    if isinstance(action, Defend):
        return action, say("no attack defeats a stack or trades evenly, so defending is the safe choice")
    return action, say("no other move is left")


def plan(game: Game, seat: int, action: Action | str) -> str | None:
    """When the hint is to defend (or to skip an ace's attack), what to build towards: the weakest
    living stack of the others, and how far the seat's strongest stack is from defeating it."""
    if not isinstance(action, (Defend, Skip)):
        return None
    view = game.view(seat)
    assert isinstance(view, CourtWarsView)
    mine = [p for p in view.seats[seat].positions if p.living]
    theirs = [(s, p) for s in view.seats if s.seat != seat and not s.eliminated for p in s.positions if p.living]
    if not mine or not theirs:
        return None
    them, target = min(theirs, key=lambda sp: (sp[1].defence, sp[0].seat))
    best = max(mine, key=lambda p: (p.attack, p.letter))
    court = say("joker on {court}", court=cn(target.court)) if target.joker else cn(target.court)
    if best.attack >= target.defence:
        return None  # an attack would do it: the hint's reason already says why not now
    aim = say("grow a stack to Attack {defence} to defeat {stack} (Defence {defence})", defence=target.defence,
              stack=say("{name}'s {stack}", name=them.name, stack=court))
    if not best.attack:
        return say("{aim}: your stacks have no guards now, so start one with a high guard", aim=aim)
    return say("{aim}: your strongest, {court}, has Attack {attack} (each new guard goes lower)", aim=aim,
               court=cn(best.court), attack=best.attack)


__all__ = ["auto_move", "hint", "plan", "easy_move", "LETTERS"]


def easy_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Easy: the mistakes a new player makes — a guard put on any stack rather than the snug one,
    an attack that would defeat a stack overlooked, a rash attack that costs more than it cuts."""
    normal = auto_move(game, seat, rng)
    view = game.view(seat)
    assert isinstance(view, CourtWarsView)
    if view.stage == "guard" and isinstance(normal, Place) and rng.random() < 0.6:
        places = [a for a in game.legal_actions(seat) if isinstance(a, Place)]
        return rng.choice(places) if places else normal
    if isinstance(normal, Attack) and rng.random() < 0.5:
        return Skip() if view.stage == "ace" else Defend()  # did not see the attack
    if isinstance(normal, (Defend, Skip)) and rng.random() < 0.35:
        attacks = [a for a in game.legal_actions(seat) if isinstance(a, Attack)]
        if attacks:
            return rng.choice(attacks)  # attacks anyway, whatever it costs
    return normal
