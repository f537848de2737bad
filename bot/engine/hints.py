"""Hints: what the built-in player would do for a seat now, and why, in one plain sentence.

Each game's ``player`` module offers ``hint(game, seat) -> (action, reason)``, or ``REASONS``
by kind of action for :func:`verb_hint`; the reason is a clause in plain words ("it defeats
Ben's K♠ stack"). :func:`hint_sentence` joins it to the action described from the seat's own
``choices`` labels, so nothing the seat may not know is used and no notation code is shown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from bot.engine.cards import pretty_text
from bot.engine.registry import player_module
from bot.engine.core import Action, Game
from bot.engine.words import Many, Phrase, say

HINT_SEED = "hint"  # the built-in player's coin flips, fixed so the same position gets the same hint


def hint_rng(game: Game, seat: int) -> random.Random:
    return random.Random(f"{HINT_SEED}:{seat}:{getattr(game, 'move_count', 0)}")


def describe(game: Game, seat: int, action: Action | str) -> str:
    """The action in plain words, from the labels ``choices`` gives the seat for each token."""
    tokens = str(action).split()
    labels: list[str] = []
    for i, tok in enumerate(tokens):
        c = game.choices(seat, tuple(tokens[:i]))
        if c.kind == "text":
            break  # the built-in player's own words are a placeholder: name the step, not its text
        if c.kind == "set":
            parts = tok.split(",")
            names = {o.token: o.label or o.token for o in c.options}
            labels.append(Many([names.get(p, p) for p in parts], ", "))
            continue
        label = next((o.label for o in c.options if o.token == tok and o.label), "") or tok
        if labels and label.split()[:1] == labels[-1].split()[:1]:
            labels[-1] = label  # "Place 9♣" then "Place 9♣ on r3c3": the fuller label says it all
        else:
            labels.append(label)
    if not labels:
        return "act"
    text = labels[0] if len(labels) == 1 else say("{what}: {steps}", what=labels[0], steps=Many(labels[1:], ", "))
    return _kept(text)


def _kept(text: str) -> str:
    """``text`` with card codes pretty: a phrase kept as it is when it has none (said in any language)."""
    pretty = pretty_text(text)
    return text if isinstance(text, Phrase | Many) and str(text) == pretty else pretty


def writes_text(game: Game, seat: int, action: Action | str) -> bool:
    tokens = str(action).split()
    return bool(tokens) and game.choices(seat, (tokens[0],)).kind == "text"


def verb_hint(game: Game, seat: int, action: Action, reasons: Mapping[str, str], fallback: str) -> tuple[Action, str]:
    """A hint whose reason depends on the kind of action only (the player's rule for that verb)."""
    verb = str(action).split(" ", 1)[0]
    if writes_text(game, seat, action):
        return action, "the game is waiting for your line of the story, and any words of your own will do"
    return action, reasons.get(verb, fallback)


def hint(game: Game, seat: int) -> tuple[Action, str]:
    """The built-in player's action for ``seat`` and its reason (``seat`` must be deciding): the
    player module's own ``hint`` when its reasons depend on the position, else its ``REASONS`` by
    kind of action (``FALLBACK`` for any other step)."""
    module = player_module(game.game_id)
    own = getattr(module, "hint", None)
    if own is not None:
        return own(game, seat)
    action = module.auto_move(game, seat, hint_rng(game, seat))
    return verb_hint(game, seat, action, module.REASONS,
                     getattr(module, "FALLBACK", "it is the step the game asks of you now"))


def plan(game: Game, seat: int, action: Action | str) -> str | None:
    """When the hint's move has no aim of its own (finishing a phase, building with nothing in
    view), the player module's ``plan`` (what to aim for, from the seat's own view), else None."""
    own = getattr(player_module(game.game_id), "plan", None)
    return own(game, seat, action) if own is not None else None


def hint_sentence(game: Game, seat: int) -> str:
    """One imperative sentence: what to do and why ("Draw a card, because …"), and a plan when the
    move itself has no aim ("Plan: build a unit — …")."""
    action, reason = hint(game, seat)
    aim = plan(game, seat, action)
    what = describe(game, seat, action)
    if writes_text(game, seat, action):
        what = say("Write your line (“{line}”)", line=what) if what.endswith("?") else \
            say("{what} in your own words", what=what)
    said = Phrase("{what}, because {reason}.", None, {"what": what, "reason": _bare(reason)}, True)  # begun with a capital
    return Phrase("{hint} Plan: {plan}.", None, {"hint": said, "plan": _bare(aim)}) if aim else said


def _bare(text: str) -> str:
    """A clause of the hint (a reason, a plan): its phrase as it is when it has no closing full stop
    (said in any language), else its English, trimmed, with card codes pretty."""
    bare = pretty_text(text.strip().rstrip("."))
    return text if isinstance(text, Phrase) and str(text) == bare else bare
