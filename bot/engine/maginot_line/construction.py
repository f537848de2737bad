"""CONSTRUCTION (§2.2): resources, taps, the marker pool, START/FUND/RUSH (rulings 14, 18)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.core import Choices, Event, IllegalMove, Option, Progress

from bot.engine.words import Phrase, say, say_n

from .actions import Fund, PlayResource, Rush, Start, TapBase, TapResource
from .model import COMPLETE, NOTHING, NUMBERS, card_name, face, is_component, is_resource, suit, value

if TYPE_CHECKING:
    from .rules import MaginotLine


def _complete(g: "MaginotLine", seat: int, code: str, events: list[Event], line: Phrase) -> None:
    """``line``: the event's words (a phrase with ``{card}``, the card finished)."""
    b = g.boards[seat]
    b["finished"].append(code)
    g.emit(events, line)


def tap_yield(res: dict, jack: bool) -> int:
    return 1 + (2 if res["queen"] else 0) + (3 if jack else 0)


def can_tap_base(g: "MaginotLine", seat: int) -> bool:
    b = g.boards[seat]
    return bool(b["base"]) and not b["base_tapped"] and face(b["base"][0]["ace"]) == "AD"


def apply(g: "MaginotLine", seat: int, action, events: list[Event]) -> None:
    b = g.boards[seat]
    if isinstance(action, PlayResource):
        if action.card not in b["hand"] or not is_resource(action.card):
            raise IllegalMove(say("Play a numbered diamond from your hand."), "2.2")
        b["hand"].remove(action.card)
        b["resources"].append({"card": action.card, "tapped": False, "queen": None})
        g.emit(events, say("{player} plays {card} as a resource.", player=g.players[seat], card=card_name(action.card)))
    elif isinstance(action, TapResource):
        res = next((r for r in b["resources"] if r["card"] == action.card), None)
        if res is None or res["tapped"]:
            raise IllegalMove(say("Tap one of your untapped resource cards."), "2.2")
        if action.jack is not None and (face(action.jack) != "JD" or action.jack not in b["hand"]):
            raise IllegalMove(say("Only J♦ from your hand adds to a tap."), "2.2")
        res["tapped"] = True
        got = tap_yield(res, action.jack is not None)
        if action.jack:
            b["hand"].remove(action.jack)
            b["discard"].append(action.jack)
        g.pool += got
        args = {"player": g.players[seat], "card": card_name(action.card), "n": got, "pool": g.pool}
        g.emit(events, say_n("{player} taps {card} with J♦: +{n} marker (pool {pool}).",
                             "{player} taps {card} with J♦: +{n} markers (pool {pool}).", **args) if action.jack else
               say_n("{player} taps {card}: +{n} marker (pool {pool}).", "{player} taps {card}: +{n} markers (pool {pool}).",
                     **args))
    elif isinstance(action, TapBase):
        if not can_tap_base(g, seat):
            raise IllegalMove(say("Your base must be untapped with A♦ as Ace #1."), "17")
        b["base_tapped"] = True
        g.pool += 2
        g.emit(events, say("{player} taps their base (A♦): +2 markers (pool {pool}).", player=g.players[seat], pool=g.pool))
    elif isinstance(action, Start):
        if action.card not in b["hand"] or not is_component(action.card):
            raise IllegalMove(say("Start a numbered heart, spade or club from your hand."), "2.2")
        if not 1 <= action.markers <= g.pool:
            raise IllegalMove(_put(g.pool), "18") if g.pool else \
                IllegalMove(say("Your pool is empty: a card starts with at least 1 marker."), "18")
        b["hand"].remove(action.card)
        if action.markers >= value(action.card):
            g.pool -= action.markers
            _complete(g, seat, action.card, events,
                      say("{player} starts and completes with {markers} markers {card}: finished.",
                          player=g.players[seat], markers=action.markers, card=card_name(action.card)))
        else:
            b["building"].append({"card": action.card, "markers": action.markers})
            g.pool -= action.markers
            g.emit(events, say_n("{player} starts a card face down with {n} marker (pool {pool}).",
                                 "{player} starts a card face down with {n} markers (pool {pool}).",
                                 player=g.players[seat], n=action.markers, pool=g.pool),
                   {seat: say_n("You start {card} with {n} marker (pool {pool}).",
                                "You start {card} with {n} markers (pool {pool}).",
                                card=card_name(action.card), n=action.markers, pool=g.pool)})
    elif isinstance(action, Fund):
        rec = next((c for c in b["building"] if c["card"] == action.card), None)
        if rec is None:
            raise IllegalMove(say("Fund one of your cards being built."), "2.2")
        if not 1 <= action.markers <= g.pool:
            raise IllegalMove(_put(g.pool) if g.pool
                              else say("Your pool is empty."), "2.2")
        g.pool -= action.markers
        rec["markers"] += action.markers
        idx = b["building"].index(rec) + 1
        if rec["markers"] >= value(rec["card"]):
            b["building"].remove(rec)
            _complete(g, seat, rec["card"], events,
                      say("{player} funds card {index} being built with {markers} and turns up {card}: finished.",
                          player=g.players[seat], index=idx, markers=action.markers, card=card_name(rec["card"])))
        else:
            g.emit(events, say("{player} puts {markers} more on card {index} being built ({total} markers, pool {pool}).",
                               player=g.players[seat], markers=action.markers, index=idx, total=rec["markers"],
                               pool=g.pool),
                   {seat: say("You put {markers} more on {card} ({total} of {value}, pool {pool}).",
                              markers=action.markers, card=card_name(rec["card"]), total=rec["markers"],
                              value=value(rec["card"]), pool=g.pool)})
    elif isinstance(action, Rush):
        kd = f"KD@{seat}"
        if kd not in b["hand"]:
            raise IllegalMove(say("Rushing needs K♦ in your hand."), "2.2")
        rec = next((c for c in b["building"] if c["card"] == action.card), None)
        if rec is None and not (action.card in b["hand"] and is_component(action.card)):
            raise IllegalMove(say("Rush a card being built or a numbered heart, spade or club from your hand."),
                              "2.2")
        b["hand"].remove(kd)
        b["discard"].append(kd)
        if rec is not None:
            b["building"].remove(rec)
        else:
            b["hand"].remove(action.card)
        _complete(g, seat, action.card, events, say("{player} discards K♦ to rush {card}: finished.",
                                                      player=g.players[seat], card=card_name(action.card)))
    else:  # pragma: no cover - dispatch guards this
        raise IllegalMove(say("That is not a construction move."), "2.2")


TAP_IT = Choices("token", (), complete=True, prompt=say("Tap it."))  # a tap without J♦ to add: made once
ROOTS = {o.token: o for o in (  # frozen: made once
    Option("resource", say("Play a resource")), Option("tap", say("Tap a resource")),
    Option("tapbase", say("Tap your base (A♦): +2 markers")), Option("start", say("Start building a card")),
    Option("fund", say("Fund a card being built")), Option("rush", say("Rush a card with K♦")))}


def root_options(g: "MaginotLine", seat: int) -> list[Option]:
    b = g.boards[seat]
    hand = b["hand"]
    resource = component = False  # is there a numbered diamond, a numbered heart, spade or club in hand
    for c in hand:
        if c[0] in NUMBERS:
            if c[1] == "D":
                resource = True
            elif c[1] in "HSC":
                component = True
    out = []
    if resource:
        out.append(ROOTS["resource"])
    if any(not r["tapped"] for r in b["resources"]):
        out.append(ROOTS["tap"])
    if can_tap_base(g, seat):
        out.append(ROOTS["tapbase"])
    if g.pool and component:
        out.append(ROOTS["start"])
    if g.pool and b["building"]:
        out.append(ROOTS["fund"])
    if (b["building"] or component) and f"KD@{seat}" in hand:
        out.append(ROOTS["rush"])
    return out


def _cards(b: dict, seat: int, verb: str, pool: int) -> Any:
    """What a construction verb may name on ``b`` (``seat``'s board), for every step of its
    choices (kept once a state: read, never changed): diamonds to play, untapped resources by
    card, cards to start or fund with the markers they hold, cards to rush."""
    if verb == "resource":
        return [c for c in b["hand"] if is_resource(c)]
    if verb == "tap":
        return {r["card"]: r for r in b["resources"] if not r["tapped"]}
    if verb == "start":
        return {c: 0 for c in b["hand"] if is_component(c)} if pool else {}
    if verb == "fund":
        return {c["card"]: c["markers"] for c in b["building"]} if pool else {}
    return [c["card"] for c in b["building"]] + [c for c in b["hand"] if is_component(c)]  # rush


def choices(g: "MaginotLine", seat: int, prefix: tuple[str, ...]) -> Choices:
    b = g.boards[seat]
    verb, rest = prefix[0], prefix[1:]
    if verb == "resource":
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        cs = g._kept(("cards", seat, verb), _cards, b, seat, verb, g.pool)
        if not rest:
            return Choices("token", tuple(Option(c, say("Play {card}", card=card_name(c)), c) for c in cs),
                           prompt=say("Which diamond?"))
        return COMPLETE if len(rest) == 1 and rest[0] in cs else NOTHING
    if verb == "tap":
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        rs = g._kept(("cards", seat, verb), _cards, b, seat, verb, g.pool)
        if not rest:
            return Choices("token", tuple(Option(c, say("Tap {card} (+{markers})", card=card_name(c),
                                                        markers=tap_yield(r, False)), c)
                                          for c, r in rs.items()), prompt=say("Tap which resource?"))
        if rest[0] not in rs:
            return NOTHING
        jd = f"JD@{seat}"
        if len(rest) == 1:
            if jd not in b["hand"]:
                return TAP_IT
            opts = (Option(jd, say("With J♦ (+{markers})", markers=tap_yield(rs[rest[0]], True)), jd),)
            return Choices("token", opts, complete=True, prompt=say("Add J♦ to this tap?"))
        return COMPLETE if len(rest) == 2 and rest[1] == jd and jd in b["hand"] else NOTHING
    if verb == "tapbase":
        return COMPLETE if not rest and can_tap_base(g, seat) else NOTHING
    if verb in ("start", "fund"):
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        cs = g._kept(("cards", seat, verb), _cards, b, seat, verb, g.pool)
        if not rest:
            def label(c: str) -> str:
                if verb == "start":
                    return say("Start {card} (needs {value})", card=card_name(c), value=value(c))
                return say("{card} ({markers} of {value})", card=card_name(c), markers=cs[c], value=value(c))
            return Choices("token", tuple(Option(c, label(c), c) for c in cs), prompt=say("Which card?"))
        if rest[0] not in cs:
            return NOTHING
        need = value(rest[0]) - cs[rest[0]]
        if len(rest) == 1:
            return Choices("range", lo=1, hi=g.pool,
                           prompt=say("How many markers? ({need} finish it; surplus is lost)", need=need),
                           progress=Progress(say("Markers"), cs[rest[0]], value(rest[0])))
        ok = len(rest) == 2 and rest[1].isdigit() and 1 <= int(rest[1]) <= g.pool
        return COMPLETE if ok else NOTHING
    if verb == "rush":
        if f"KD@{seat}" not in b["hand"]:
            return NOTHING
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        cs = g._kept(("cards", seat, verb), _cards, b, seat, verb, g.pool)
        if not rest:
            return Choices("token", tuple(Option(c, say("Rush {card}", card=card_name(c)), c) for c in cs),
                           prompt=say("Rush which card?"))
        return COMPLETE if len(rest) == 1 and rest[0] in cs else NOTHING
    return NOTHING


__all__ = ["apply", "choices", "root_options", "can_tap_base", "suit"]


def _put(pool: int) -> Phrase:
    """How many markers a card may take from the pool, in words."""
    return say("Put 1 marker on it (your pool holds 1).") if pool == 1 else \
        say("Put from 1 to {pool} markers on it (your pool).", pool=pool)
