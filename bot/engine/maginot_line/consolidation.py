"""CONSOLIDATION (§2.4): MOVE between Patrol and Guardian, then ASSEMBLE under the unit cap."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from bot.engine.core import Choices, Event, IllegalMove, Option

from bot.engine.words import say

from .actions import Assemble, Move
from .model import CLASS_NAME, COMPLETE, NOTHING, UNIT_CAP, card_name, klass, suit, unit_text

if TYPE_CHECKING:
    from .rules import MaginotLine


def can_assemble(g: "MaginotLine", seat: int) -> bool:
    return len(g.boards[seat]["units"]) <= UNIT_CAP


def sets(g: "MaginotLine", seat: int) -> tuple[tuple[str, str, str], ...]:
    """Every (h, s, c) of finished components of one class (asked at every step of an assembly:
    kept by a finished state)."""
    # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
    return g._kept(("sets", seat), _sets, g, seat)


def _sets(g: "MaginotLine", seat: int) -> tuple[tuple[str, str, str], ...]:
    fin = g.boards[seat]["finished"]
    by = {s: [c for c in fin if suit(c) == s] for s in "HSC"}
    return tuple((h, s, c) for h, s, c in product(by["H"], by["S"], by["C"]) if klass(h) == klass(s) == klass(c))


def apply(g: "MaginotLine", seat: int, action, events: list[Event]) -> None:
    b = g.boards[seat]
    if isinstance(action, Move):
        u = g.unit(seat, action.unit)
        if u is None:
            raise IllegalMove(say("Move one of your units."), "2.4")
        if g.assembled:
            raise IllegalMove(say("After your first assembly this turn no unit may move."), "2.4")
        u["zone"] = "guardian" if u["zone"] == "patrol" else "patrol"
        g.emit(events, say("{player} moves {unit} to Guardian.", player=g.players[seat], unit=unit_text(u))
               if u["zone"] == "guardian" else say("{player} moves {unit} to Patrol.", player=g.players[seat],
                                                   unit=unit_text(u)))
        return
    if isinstance(action, Assemble):
        fin = b["finished"]
        if any(c not in fin for c in (action.h, action.s, action.c)) or \
                (suit(action.h), suit(action.s), suit(action.c)) != ("H", "S", "C"):
            raise IllegalMove(say("Use one finished heart, spade and club of yours."), "2.4")
        if not klass(action.h) == klass(action.s) == klass(action.c):
            raise IllegalMove(say("All three components must be of one class (Light 2–4, Medium 5–7, Heavy 8–10)."),
                              "M1")
        if not can_assemble(g, seat):
            raise IllegalMove(say("You may assemble only while controlling {cap} units or fewer.", cap=UNIT_CAP), "2.4")
        for c in (action.h, action.s, action.c):
            fin.remove(c)
        u = {"h": action.h, "s": action.s, "c": action.c, "queen": None, "wounds": 0, "tapped": False,
             "zone": "patrol", "new": True}
        b["units"].append(u)
        g.assembled = True
        g.emit(events, say("{player} assembles {unit}, a {cls} unit, into Patrol.", player=g.players[seat],
                           unit=unit_text(u), cls=CLASS_NAME[klass(action.h)]))
        return
    raise IllegalMove(say("That is not a consolidation move."), "2.4")  # pragma: no cover


MOVE = Option("move", say("Move a unit between Patrol and Guardian"))  # frozen: made once
ASSEMBLE = Option("assemble", say("Assemble a unit"))


def root_options(g: "MaginotLine", seat: int) -> list[Option]:
    out = []
    if not g.assembled and g.boards[seat]["units"]:
        out.append(MOVE)
    if can_assemble(g, seat) and sets(g, seat):
        out.append(ASSEMBLE)
    return out


def choices(g: "MaginotLine", seat: int, prefix: tuple[str, ...]) -> Choices:
    verb, rest = prefix[0], prefix[1:]
    b = g.boards[seat]
    if verb == "move":
        units = [u for u in b["units"]] if not g.assembled else []
        if not rest:
            return Choices("token", tuple(
                Option(u["h"], say("{unit} to Guardian", unit=unit_text(u)) if u["zone"] == "patrol"
                       else say("{unit} to Patrol", unit=unit_text(u)), u["h"])
                for u in units), prompt=say("Move which unit?"))
        return COMPLETE if len(rest) == 1 and rest[0] in {u["h"] for u in units} else NOTHING
    if verb == "assemble":
        ok = sets(g, seat) if can_assemble(g, seat) else []
        n = len(rest)
        if n > 3 or not any(s[:n] == tuple(rest) for s in ok):
            return NOTHING
        if n == 3:
            return COMPLETE
        seen: list[str] = []
        for s in ok:
            if s[:n] == tuple(rest) and s[n] not in seen:
                seen.append(s[n])
        ask = (say("Which heart?"), say("Which spade?"), say("Which club?"))[n]
        return Choices("token", tuple(Option(c, card_name(c), c) for c in seen), prompt=ask)
    return NOTHING
