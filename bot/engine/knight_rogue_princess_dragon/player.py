"""The built-in teller: it reads only its own view and its choices."""

from __future__ import annotations

import random

from bot.engine.core import Action, Game, walk_choices
from bot.engine.knight_rogue_princess_dragon.roles import role
from bot.engine.words import say

_LINES = {
    "tell": "The {role} enters the tale.",
    "wrapup": "And so the {role} gets what they wanted.",
    "twist": "But the {role} turns the tables!",
    "close": "And that is how the tale was told.",
}


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Flips, picks a showing card, writes a placeholder line, passes on, and in the ending plays
    a legal card two times out of three."""
    view = game.view(seat)
    for option in game.choices(seat, ()).options:
        if game.choices(seat, (option.token,)).kind == "text":
            card = view.card or (view.story_pile[-1] if view.story_pile else "KS")  # type: ignore[attr-defined]
            return game.parse(seat, f"{option.token} " + _LINES[option.token].format(role=role(card)))
    moves = [" ".join(t) for t in walk_choices(game, seat)]
    plays = [m for m in moves if m.startswith("play")]
    if plays:
        return game.parse(seat, rng.choice(plays) if rng.random() < 2 / 3 else "pass")
    return game.parse(seat, rng.choice(moves))


REASONS = {
    "flip": say("turning up your pile's top card is how the starter is found"),
    "use": say("any of your showing cards can tell the story on"),
    "pass": say("handing the card on (or letting the ending stand) keeps the tale moving"),
    "play": say("that card beats the top of the story pile and changes the ending"),
}


FALLBACK = say("it is the step the tale asks of you now")  # the hint's reason for any other step


def plan(game: Game, seat: int, action: Action | str) -> str | None:
    """When the hint is to hand the told card on (a step with no aim of its own), what matters
    later: in the ending the seat may play the top card of its own received pile, if it beats the
    story pile's top. It reads only the seat's own view."""
    from bot.engine.cards import pretty
    from bot.engine.words import CardName, say

    view = game.view(seat)
    if getattr(view, "step", "") != "pass" or not str(action).startswith("pass"):
        return None
    received = view.received[seat] if seat < len(view.received) else ()  # type: ignore[attr-defined]
    if not received:
        return say("think ahead to the ending: the cards handed to you make your received pile, and "
                   "its top card is the one you may play then, if it beats the story pile's top")
    top = received[0]
    return say("think ahead to the ending: {card}, the top of your received pile, is the card you may play "
               "then, if it beats the story pile's top", card=CardName(top, pretty(top)))
