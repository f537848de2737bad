"""A plan for ``/game hint`` when the seat has no immediate aim: what its building is for (the unit
it is nearest to), or what its units should do next — from the seat's own view only."""

from __future__ import annotations

from bot.engine.core import Action, Game

from .model import CLASS_NAME, klass, nice, suit, value

SUIT_SIGN = {"H": "♥", "S": "♠", "C": "♣"}
RANGE = {1: "2–4", 2: "5–7", 3: "8–10"}
BUILDING = frozenset({"resource", "tap", "tapbase", "start", "fund", "rush"})
AIMLESS = frozenset({"done", "end"})
UNITS_MAX = 4  # no assembly while a player controls more (the rulebook's consolidation)


def _list(signs: list[str]) -> str:
    return signs[0] if len(signs) == 1 else ", ".join(signs[:-1]) + " and " + signs[-1]


def plan(game: Game, seat: int, action: Action | str) -> str | None:
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
        return (f"guard your Aces — in consolidation, move a unit to Guardian: your opponents have {raiders} patrol "
                f"unit{'s' if raiders != 1 else ''} that may attack you")
    if len(me.units) > UNITS_MAX:
        return None
    return _unit_plan(me)


def _unit_plan(me) -> str:
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
            return f"assemble a {name} unit in consolidation: its ♥, ♠ and ♣ are finished"
        return f"finish building your {name} ♥, ♠ and ♣ (fund them with markers), then assemble them into a unit"
    need = _list([SUIT_SIGN[s] for s in missing])
    start = f"you have a {name} {_list([SUIT_SIGN[s] for s in 'HSC' if s in got])}, " if got else ""
    fits = sorted((c for c in hand if klass(c) == cls and suit(c) in missing), key=value)
    from_hand = f"; your {_list([nice(c) for c in fits])} will do" if fits else ""
    return f"build a unit — {start}you need a {name} {need} ({RANGE[cls]}){from_hand}"
