"""A plan for ``/game hint`` when the seat has no immediate aim: what its building is for (the unit
it is nearest to), or what its units should do next — from the seat's own view only."""

from __future__ import annotations

from bot.engine.core import Action, Game
from bot.engine.words import Many, say, say_n

from .model import CLASS_NAME, card_name, klass, suit, value

SUIT_SIGN = {"H": "♥", "S": "♠", "C": "♣"}
RANGE = {1: "2–4", 2: "5–7", 3: "8–10"}
BUILDING = frozenset({"resource", "tap", "tapbase", "start", "fund", "rush"})
AIMLESS = frozenset({"done", "end"})
UNITS_MAX = 4  # no assembly while a player controls more (the rulebook's consolidation)


def _list(signs: list) -> Many:
    return Many(signs, "and")


def plan(game: Game, seat: int, action: Action | str) -> str | None:  # a phrase (said in the reader's language)
    """A plan in plain words, or None when the hint's move is an aim of its own."""
    v = game.view(seat)
    if getattr(v, "current", None) != seat or v.phase not in ("construction", "battle", "consolidation"):
        return None
    verb = str(action).split(" ", 1)[0]
    me = v.boards[seat]
    if verb not in AIMLESS and not (verb in BUILDING and not me.units):
        return None
    foes = [b for b in v.boards if b.seat != seat and not b.out]
    raiders = sum(1 for b in foes for u in b.units if u.zone == "patrol")
    if me.units and not any(u.zone == "guardian" for u in me.units) and raiders:
        return say_n("guard your Aces — in consolidation, move a unit to Guardian: your opponents have {n} patrol "
                     "unit that may attack you",
                     "guard your Aces — in consolidation, move a unit to Guardian: your opponents have {n} patrol "
                     "units that may attack you", n=raiders)
    if len(me.units) > UNITS_MAX:
        return None
    return _unit_plan(me)


def _unit_plan(me):
    """The unit the seat is nearest to: its class with the most of ♥ ♠ ♣ finished or being built."""
    built = [c for c in me.finished if isinstance(c, str)] + [b.card for b in me.building if isinstance(b.card, str)]
    hand = [c for c in me.hand if isinstance(c, str) and suit(c) in SUIT_SIGN and klass(c)]

    def have(cls: int) -> set[str]:
        return {suit(c) for c in built if klass(c) == cls and suit(c) in SUIT_SIGN}

    cls = max((1, 2, 3), key=lambda k: (len(have(k)), sum(1 for c in hand if klass(c) == k), -k))
    got = have(cls)
    name = CLASS_NAME[cls]
    missing = [s for s in "HSC" if s not in got]
    if not missing:
        done = {suit(c) for c in me.finished if isinstance(c, str) and klass(c) == cls}
        if len(done) == 3:
            return say("assemble a {cls} unit in consolidation: its ♥, ♠ and ♣ are finished", cls=name)
        return say("finish building your {cls} ♥, ♠ and ♣ (fund them with markers), then assemble them into a unit",
                   cls=name)
    need = _list([SUIT_SIGN[s] for s in missing])
    have = _list([SUIT_SIGN[s] for s in "HSC" if s in got])
    fits = sorted((c for c in hand if klass(c) == cls and suit(c) in missing), key=value)
    args = {"cls": name, "need": need, "range": RANGE[cls]}
    if got:
        line = say("build a unit — you have a {cls} {have}, you need a {cls} {need} ({range})", have=have, **args)
    else:
        line = say("build a unit — you need a {cls} {need} ({range})", **args)
    if fits:
        return say("{plan}; your {cards} will do", plan=line, cards=_list([card_name(c) for c in fits]))
    return line
