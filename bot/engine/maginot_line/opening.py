"""Setup (§1): each player privately orders their four Aces; then Ace #1 is revealed everywhere,
decks are shuffled, five cards dealt, and seating and the first player are drawn at random."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.core import Choices, Event, IllegalMove, Option

from bot.engine.words import Many, say

from .actions import OrderAces
from .model import card_name, card_names, own_deck

if TYPE_CHECKING:
    from .rules import MaginotLine


def new_board(seat: int) -> dict:
    deck = own_deck(seat)
    return {
        "deck": deck[4:], "hand": [], "discard": [], "fallen": [], "gone": [],
        "base": [{"ace": a, "wounds": 0, "shown": False} for a in deck[:4]], "base_tapped": False,
        "resources": [], "building": [], "finished": [], "units": [],
        "out": False, "ordered": False,
    }


def choices(g: "MaginotLine", seat: int, prefix: tuple[str, ...]) -> Choices:
    aces = [a["ace"] for a in g.boards[seat]["base"]]
    if not prefix:
        opts = [Option("aces", say("Order your Aces"))]
        return Choices("token", tuple(opts), prompt=say("Put your four Aces in order, Ace #1 first."))
    if prefix[0] != "aces":
        return Choices()
    picked = list(prefix[1:])
    if picked == ["random"]:
        return Choices(complete=True)
    if len(set(picked)) != len(picked) or any(p not in aces for p in picked):
        return Choices()
    if len(picked) == 4:
        return Choices(complete=True)
    left = [a for a in aces if a not in picked]
    opts = [Option(a, say("{card} as Ace #{position}", card=card_name(a), position=len(picked) + 1), a) for a in left]
    if not picked:
        opts.append(Option("random", say("At random")))
    return Choices("token", tuple(opts), prompt=say("Which Ace is #{position}?", position=len(picked) + 1))


def apply(g: "MaginotLine", seat: int, action: OrderAces, events: list[Event]) -> None:
    board = g.boards[seat]
    aces = sorted(a["ace"] for a in board["base"])
    if board["ordered"]:
        raise IllegalMove(say("You have already ordered your Aces."), "setup")
    if action.order:
        if sorted(action.order) != aces:
            raise IllegalMove(say("Name each of your four Aces once."), "setup")
        order = list(action.order)
    else:
        order = list(aces)
        g.rng().shuffle(order)
    board["base"] = [{"ace": a, "wounds": 0, "shown": False} for a in order]
    board["ordered"] = True
    g.emit(events, say("{player} has ordered their Aces.", player=g.players[seat]),
           {seat: say("Your Aces, #1 first: {aces}.", aces=card_names(order))})
    if all(b["ordered"] or b["out"] for b in g.boards):
        begin(g, events)


def begin(g: "MaginotLine", events: list[Event]) -> None:
    """Every order is in: reveal the Aces #1, shuffle, deal 5, draw seating and first player."""
    live = [s for s, b in enumerate(g.boards) if not b["out"]]
    for s in live:
        b = g.boards[s]
        b["base"][0]["shown"] = True
        g.rng().shuffle(b["deck"])
    tops = Many([say("{player} {card}", player=g.players[s], card=card_name(g.boards[s]["base"][0]["ace"]))
                 for s in live], ", ")
    g.emit(events, say("Aces #1 revealed: {tops}.", tops=tops))
    for s in live:
        g.draw(s, 5, events)
    order = list(range(len(g.players)))
    g.rng().shuffle(order)
    g.order = order
    first = g.rng().choice(live)
    seating = " → ".join(g.players[s] for s in order if s in live)
    teams = None
    if g.opts.teams:
        from .turn import team_of

        pairs = {}
        for s in order:
            pairs.setdefault(team_of(g, s), []).append(g.players[s])
        teams = Many([Many(p, "and") for p in pairs.values()], "; ")
    if teams is None:
        g.emit(events, say("Seating, clockwise: {seating}. {player} goes first.", seating=seating,
                           player=g.players[first]))
    else:
        g.emit(events, say("Seating, clockwise: {seating}. {player} goes first. Teams: {teams}.", seating=seating,
                           player=g.players[first], teams=teams))
    g.round_start = first
    g.start_turn(first, events)
