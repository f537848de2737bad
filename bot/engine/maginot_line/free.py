"""Free actions on your own turn outside battles (HEAL with K♥, REVIVE with a joker) and queens
(§2.6, ruling 15: only in your own CONSTRUCTION or CONSOLIDATION)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.core import Choices, Event, IllegalMove, Option

from bot.engine.words import say

from .actions import AttachQueen, Heal, Revive
from .model import COMPLETE, NOTHING, SUIT_WORD, ace_token, card_name, parse_ace_token, rank, suit, unit_text

if TYPE_CHECKING:
    from .rules import MaginotLine


def own(seat: int, face: str) -> str:
    return f"{face}@{seat}"


def heal_targets(g: "MaginotLine", seat: int) -> list[tuple[str, str]]:
    """(token, label) of own units and Aces that carry wounds."""
    b = g.boards[seat]
    out = [(u["h"], say("Heal {unit}", unit=unit_text(u))) for u in b["units"] if u["wounds"]]
    out += [(ace_token(i + 1, seat), say("Heal your Ace #{position}", position=i + 1))
            for i, a in enumerate(b["base"]) if a["wounds"]]
    return out


def wounded(g: "MaginotLine", seat: int, tok: str) -> dict | None:
    """The unit or Ace record ``tok`` names among ``seat``'s own (any wounds or not)."""
    b = g.boards[seat]
    pos = parse_ace_token(tok)
    if pos:
        p, s = pos
        return b["base"][p - 1] if s == seat and 1 <= p <= len(b["base"]) else None
    return g.unit(seat, tok)


def apply_heal(g: "MaginotLine", seat: int, action: Heal, events: list[Event]) -> None:
    b = g.boards[seat]
    kh = own(seat, "KH")
    if kh not in b["hand"]:
        raise IllegalMove(say("Healing needs K♥ in your hand."), "2")
    rec = wounded(g, seat, action.target)
    if rec is None:
        raise IllegalMove(say("Heal one of your own units or Aces."), "2")
    b["hand"].remove(kh)
    b["discard"].append(kh)
    rec["wounds"] = 0
    what = unit_text(rec) if "h" in rec else say("Ace #{position}", position=parse_ace_token(action.target)[0])
    g.emit(events, say("{player} discards K♥ to heal {what}.", player=g.players[seat], what=what))


def apply_revive(g: "MaginotLine", seat: int, action: Revive, events: list[Event]) -> None:
    b = g.boards[seat]
    joker = next((c for c in b["hand"] if c.startswith("JK")), None)
    if joker is None:
        raise IllegalMove(say("Reviving needs a joker in your hand."), "19")
    if action.ace not in b["fallen"]:
        raise IllegalMove(say("Name one of your fallen Aces."), "19")
    b["hand"].remove(joker)
    b["discard"].append(joker)
    b["fallen"].remove(action.ace)
    b["base"].append({"ace": action.ace, "wounds": 0, "shown": True})
    g.emit(events, say("{player} discards a joker to revive {card} at the bottom of their base (#{position}).",
                       player=g.players[seat], card=card_name(action.ace), position=len(b["base"])))


def queen_targets(g: "MaginotLine", seat: int, q: str) -> list[tuple[str, str]]:
    b = g.boards[seat]
    if suit(q) == "D":
        return [(r["card"], say("on {target}", target=card_name(r["card"]))) for r in b["resources"] if not r["queen"]]
    return [(u["h"], say("on {target}", target=unit_text(u))) for u in b["units"] if not u["queen"]]


def _has_queen_target(b: dict, q: str) -> bool:
    """``queen_targets`` is not empty (without writing its labels)."""
    if suit(q) == "D":
        return any(not r["queen"] for r in b["resources"])
    return any(not u["queen"] for u in b["units"])


def apply_queen(g: "MaginotLine", seat: int, action: AttachQueen, events: list[Event]) -> None:
    b = g.boards[seat]
    q = action.card
    if rank(q) != "Q" or q not in b["hand"]:
        raise IllegalMove(say("Attach a queen from your hand."), "15")
    if action.target not in [t for t, _ in queen_targets(g, seat, q)]:
        raise IllegalMove(say("Q♦ goes on your resource card without a queen; other queens on your unit "
                              "without a queen.") if suit(q) == "D" else
                          say("That queen goes on one of your units without a queen."), "15")
    b["hand"].remove(q)
    if suit(q) == "D":
        rec = next(r for r in b["resources"] if r["card"] == action.target)
        rec["queen"] = q
        g.emit(events, say("{player} attaches Q♦ to {card}: +2 markers per tap.", player=g.players[seat],
                           card=card_name(action.target)))
    else:
        u = g.unit(seat, action.target)
        u["queen"] = q
        g.emit(events, say("{player} attaches {queen} to {unit}: +2 {word}.", player=g.players[seat],
                           queen=card_name(q), unit=unit_text(u), word=SUIT_WORD[suit(q)]))


QUEEN = Option("queen", say("Attach a queen"))  # frozen: made once
HEAL = Option("heal", say("Heal with K♥"))
REVIVE = Option("revive", say("Revive an Ace with a joker"))


def root_options(g: "MaginotLine", seat: int, queens: bool) -> list[Option]:
    b = g.boards[seat]
    out = []
    if queens and any(rank(c) == "Q" and _has_queen_target(b, c) for c in b["hand"]):
        out.append(QUEEN)
    if own(seat, "KH") in b["hand"] and (any(u["wounds"] for u in b["units"])
                                         or any(a["wounds"] for a in b["base"])):  # ``heal_targets`` not empty
        out.append(HEAL)
    if b["fallen"] and any(c.startswith("JK") for c in b["hand"]):
        out.append(REVIVE)
    return out


def choices(g: "MaginotLine", seat: int, prefix: tuple[str, ...]) -> Choices:
    b = g.boards[seat]
    verb, rest = prefix[0], prefix[1:]
    if verb == "heal":
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        targets = g._kept(("heal", seat), _heal_options, g, seat)
        if not rest:
            return Choices("token", tuple(Option(t, lab, t) for t, lab in targets.items()), prompt=say("Heal what?"))
        return COMPLETE if len(rest) == 1 and rest[0] in targets else NOTHING
    if verb == "revive":
        ok = any(c.startswith("JK") for c in b["hand"])
        if not rest:
            return Choices("token", tuple(Option(a, say("Revive {card}", card=card_name(a)), a) for a in b["fallen"] if ok),
                           prompt=say("Revive which Ace?"))
        return COMPLETE if len(rest) == 1 and rest[0] in b["fallen"] and ok else NOTHING
    if verb == "queen":
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        qs = g._kept(("queens", seat), _queens, b)
        if not rest:
            return Choices("token", tuple(Option(q, say("Attach {card}", card=card_name(q)), q) for q in qs),
                           prompt=say("Which queen?"))
        if rest[0] not in qs:
            return NOTHING
        # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
        targets = g._kept(("queen", seat, rest[0]), _queen_options, g, seat, rest[0])
        if len(rest) == 1:
            return Choices("token", tuple(Option(t, lab, t) for t, lab in targets.items()), prompt=say("On what?"))
        return COMPLETE if len(rest) == 2 and rest[1] in targets else NOTHING
    return NOTHING


# What each step of a heal or a queen names, worked out once a state (kept: read, never changed).
def _heal_options(g: "MaginotLine", seat: int) -> dict[str, str]:
    return dict(heal_targets(g, seat)) if own(seat, "KH") in g.boards[seat]["hand"] else {}


def _queens(b: dict) -> list[str]:
    return [c for c in b["hand"] if rank(c) == "Q" and _has_queen_target(b, c)]


def _queen_options(g: "MaginotLine", seat: int, q: str) -> dict[str, str]:
    return dict(queen_targets(g, seat, q))
