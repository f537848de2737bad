"""The built-in warrior: short lines, a middling attack, a cheap-but-firm defence, low cards
into tricks, and the best final card it can qualify with.

It reads only what its own seat may see: its hand, the public hand sizes and trick counts,
and its own choices.
"""

from __future__ import annotations

import random

from bot.engine.core import Action, Game

from .actions import LINE_BY_VERB, Commit, IllegalMove, Keep, Target, Trick
from .rules import CelestialEmperorGame, value

PLACEHOLDER = {
    "setting": "A misty mountain pass under the Emperor's banners.",
    "describe": "The warrior strikes.",
    "nullify": "The blow meets only air.",
    "strike": "The blade finds its mark.",
    "parry": "The attack is turned aside.",
    "withdraw": "The warrior falls back into the mist.",
    "victory": "The banners rise in triumph.",
    "return": "I will return to fight again.",
}


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    """The built-in player's action for ``seat`` (which must be deciding now)."""
    assert isinstance(game, CelestialEmperorGame)
    first = game.choices(seat, ())
    for o in first.options:  # a story line to tell: a short one, even where it is optional
        if game.choices(seat, (o.token,)).kind == "text":
            return LINE_BY_VERB[o.token](text=PLACEHOLDER.get(o.token, "The warrior fights on."))
    verbs = first.tokens()
    if not verbs:
        raise IllegalMove("Nothing to do now.")
    view = game.view(seat)
    hand = sorted(game.hands[seat], key=value)  # its own hand, in the order it came to hold it
    decision = game.decision_of(seat)
    name = decision.name if decision else ""
    if "target" in verbs:
        # Attack someone with many cards (the most dangerous, the one with most to lose).
        targets = game.choices(seat, ("target",)).options
        most = max(view.seats[o.data].hand_size for o in targets)
        best = [o for o in targets if view.seats[o.data].hand_size == most]
        return Target(view.seats[rng.choice(best).data].suit)
    if "commit" in verbs and view.duel is not None and view.duel.attacker == seat:
        i = min(len(hand) - 1, max(0, len(hand) // 2 + rng.choice((-1, 0, 0, 1))))
        return Commit(hand[i])
    if "commit" in verbs:
        i = min(len(hand) - 1, max(0, (len(hand) * 3) // 5 + rng.choice((-1, 0, 1))))
        return Commit(hand[i])
    if "trick" in verbs:
        return Trick(hand[0])
    if "keep" in verbs:
        t_after = view.seats[seat].tricks + len(hand) - 1
        strict = "Strict" in view.options
        ok = [c for c in hand if (value(c) < t_after if strict else value(c) <= t_after)]
        return Keep(ok[-1] if ok else hand[0])
    assert name, "a deciding seat has a decision"
    return game.parse(seat, verbs[0])


REASONS = {
    "target": "the player holding the most cards is the most dangerous and has the most to lose",
    "commit": "a card from the middle of your hand is firm enough while your best ones stay for later",
    "trick": "your lowest card costs you least in a trick",
    "keep": "it is the highest card you can still qualify with at the end",
}



def easy_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Easy: a warrior who hoards its high cards — often its lowest card into a duel (it loses the
    duel, so its tricks stay few), its highest card kept as its final card whether or not its tricks
    qualify it — and attacks whoever it looks at first."""
    normal = auto_move(game, seat, rng)
    assert isinstance(game, CelestialEmperorGame)
    hand = sorted(game.hands[seat], key=value)  # its own hand
    if isinstance(normal, Commit) and hand and rng.random() < 0.75:
        return Commit(hand[0])
    if isinstance(normal, Keep) and hand and rng.random() < 0.8:
        return Keep(hand[-1])  # its best card, though its tricks may not qualify it
    if isinstance(normal, Target) and rng.random() < 0.5:
        targets = game.choices(seat, ("target",)).options
        view = game.view(seat)
        return Target(view.seats[rng.choice(targets).data].suit)
    return normal


def plan(game: Game, seat: int, action: Action | str) -> str | None:
    """When the hint is a card put into a trick (an aim of its own: none), what to aim for: a final
    card its trick count qualifies — the best the seat holds now, or how many more duels it needs
    for its lowest card. It reads only the seat's hand and the public trick counts."""
    from bot.engine.cards import pretty
    from bot.engine.words import CardName, say, say_n

    if not isinstance(action, Trick):
        return None
    assert isinstance(game, CelestialEmperorGame)
    view = game.view(seat)
    hand = sorted((c for c in game.hands[seat] if c != action.card), key=value)
    if not hand:
        return None
    tricks = view.seats[seat].tricks
    strict = "Strict" in view.options
    ok = [c for c in hand if (value(c) < tricks if strict else value(c) <= tricks)]
    if ok:
        return say("keep {card} for your final card: your {tricks} tricks already qualify it",
                   card=CardName(ok[-1], pretty(ok[-1])), tricks=tricks)
    need = value(hand[0]) + (1 if strict else 0) - tricks
    return say_n("win duels: {card}, your lowest card, needs {n} more trick to qualify as your final card",
                 "win duels: {card}, your lowest card, needs {n} more tricks to qualify as your final card",
                 card=CardName(hand[0], pretty(hand[0])), n=need)
