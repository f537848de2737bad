"""The turn around the phases: UNTAP/DRAW (§2.1), END_TURN with elimination and victory (§2.5),
the round-limit safeguard (ruling 24) and a player leaving mid-game (ruling 27)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.core import Choices, Event, IllegalMove, Option, Progress
from bot.engine.words import Many, encode, say, say_n

from .actions import EndTurn
from .model import ACE_LIFE, HAND_LIMIT, card_name, card_names

if TYPE_CHECKING:
    from .rules import MaginotLine


def draw(g: "MaginotLine", seat: int, n: int, events: list[Event]) -> None:
    """Draw ``n`` cards one at a time, reshuffling the discard pile whenever the deck is empty."""
    b = g.boards[seat]
    got: list[str] = []
    for _ in range(n):
        if not b["deck"]:
            if not b["discard"]:
                break
            b["deck"] = b["discard"]
            b["discard"] = []
            g.rng().shuffle(b["deck"])
            g.emit(events, say("{player} shuffles their discard pile into a new deck.", player=g.players[seat]))
        got.append(b["deck"].pop(0))
    b["hand"].extend(got)
    if got:
        g.emit(events, say_n("{player} draws {n} card.", "{player} draws {n} cards.", player=g.players[seat], n=len(got)),
               {seat: say("You draw {cards}.", cards=card_names(got))})
    elif n:
        g.emit(events, say("{player} has no card left to draw.", player=g.players[seat]))


def start_turn(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    """UNTAP/DRAW, then CONSTRUCTION with an empty pool."""
    g.current = seat
    g.turn_count += 1
    b = g.boards[seat]
    b["base_tapped"] = False
    for r in b["resources"]:
        r["tapped"] = False
    for u in b["units"]:
        u["tapped"] = False
        u["new"] = False
    g.phase = "construction"
    g.pool = 0
    g.assembled = False
    g.emit(events, say("{player}'s turn: everything untaps.", player=g.players[seat]))
    draw(g, seat, 2, events)


def next_seat(g: "MaginotLine", after: int) -> int | None:
    """The next player clockwise still in the game."""
    i = g.order.index(after)
    for k in range(1, len(g.order) + 1):
        s = g.order[(i + k) % len(g.order)]
        if not g.boards[s]["out"]:
            return s
    return None


def eliminate(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    """All of the player's cards leave the game."""
    b = g.boards[seat]
    gone = b["gone"]
    gone += b["deck"] + b["hand"] + b["discard"] + b["fallen"] + b["finished"]
    gone += [a["ace"] for a in b["base"]]
    gone += [r["card"] for r in b["resources"]] + [r["queen"] for r in b["resources"] if r["queen"]]
    gone += [c["card"] for c in b["building"]]
    for u in b["units"]:
        gone += [u["h"], u["s"], u["c"]] + ([u["queen"]] if u["queen"] else [])
    for k in ("deck", "hand", "discard", "fallen", "finished", "base", "resources", "building", "units"):
        b[k] = []
    b["base_tapped"] = False
    b["out"] = True
    g.emit(events, say("{player} is eliminated; all their cards leave the game.", player=g.players[seat]))


def team_of(g: "MaginotLine", seat: int) -> int:
    """V5 (ruling 30): teams are pairs who sit apart — with 4 players seats 1 and 3 against 2 and 4;
    with 6, seats 1 and 4, 2 and 5, 3 and 6 (seats counted clockwise in the drawn seating)."""
    if not g.opts.teams:
        return seat
    return g.order.index(seat) % max(1, len(g.order) // 2)


def members(g: "MaginotLine", teams: set[int]) -> list[int]:
    """Every seat of those teams, eliminated ones included (V5, ruling 35: a team wins as a whole);
    without teams a team is its one seat."""
    return [s for s in range(len(g.players)) if team_of(g, s) in teams]


def check_victory(g: "MaginotLine", events: list[Event]) -> bool:
    live = [s for s, b in enumerate(g.boards) if not b["out"]]
    left = {team_of(g, s) for s in live}
    if len(left) > 1:
        return False
    finish(g, members(g, left), events, None)
    return True


def finish(g: "MaginotLine", winners: list[int], events: list[Event], why: str | None) -> None:
    """The game ends: ``why`` the safeguard's ranking (a phrase), else None (the last ones standing)."""
    g.winners = sorted(winners)
    g.phase = "over"
    g.battle = None
    names = Many([g.players[s] for s in g.winners], "and")
    if not g.winners:
        summary = say("Nobody is left: the game ends with no winner.")
    elif why is None:
        summary = say_n("{names} wins.", "{names} win.", names=names, n=len(g.winners))
    else:
        summary = say_n("{names} wins {why}.", "{names} win {why}.", names=names, n=len(g.winners), why=why)
    g.summary_text = encode(summary)  # the phrase's JSON: the same in every language
    g.emit(events, summary)


def ace_life(b: dict) -> int:
    return sum(ACE_LIFE - a["wounds"] for a in b["base"])


def safeguard(g: "MaginotLine", events: list[Event]) -> None:
    """Rank the remaining players by Aces, then by Ace life; tied players share the win. With teams
    (V5, ruling 35) the teams still in the game are ranked, by their members' Aces added together,
    then their Ace life added together (an eliminated member adds nothing), and a team wins whole."""
    left = {team_of(g, s) for s, b in enumerate(g.boards) if not b["out"]}
    key = {t: (0, 0) for t in left}
    for s in members(g, left):
        b = g.boards[s]
        aces, life = key[team_of(g, s)]
        key[team_of(g, s)] = (aces + len(b["base"]), life + ace_life(b))
    best = max(key.values())
    why = (say("on the round limit ({aces} Aces, {life} Ace life as a team)", aces=best[0], life=best[1])
           if g.opts.teams else say("on the round limit ({aces} Aces, {life} Ace life)", aces=best[0], life=best[1]))
    finish(g, members(g, {t for t in left if key[t] == best}), events, why)


# ----- END_TURN -----------------------------------------------------------------------------
def choices(g: "MaginotLine", seat: int, prefix: tuple[str, ...]) -> Choices:
    hand = g.boards[seat]["hand"]
    excess = len(hand) - HAND_LIMIT if g.opts.hand_limit else 0
    picked = list(prefix[1:])
    if excess <= 0:
        return Choices(complete=True) if not picked else Choices()
    if len(set(picked)) != len(picked) or any(c not in hand for c in picked) or picked != sorted(picked):
        return Choices()
    if len(picked) == excess:
        return Choices(complete=True)
    opts = tuple(Option(c, say("Discard {card}", card=card_name(c)), c) for c in sorted(hand) if not picked or c > picked[-1])
    opts = opts[:len(opts) - (excess - len(picked) - 1)] if excess - len(picked) > 1 else opts
    return Choices("token", opts, complete=not picked,
                   prompt=say("Discard down to {limit} (or end now to discard at random).", limit=HAND_LIMIT),
                   progress=Progress(say("Discarded"), len(picked), excess))


def apply(g: "MaginotLine", seat: int, action: EndTurn, events: list[Event]) -> None:
    if g.phase != "consolidation":
        raise IllegalMove(say("End your construction and battles first."), "2")
    b = g.boards[seat]
    excess = len(b["hand"]) - HAND_LIMIT if g.opts.hand_limit else 0
    if action.discards:
        if excess <= 0:
            raise IllegalMove(say("You need not discard anything."), "V4")
        if len(set(action.discards)) != len(action.discards) or any(c not in b["hand"] for c in action.discards):
            raise IllegalMove(say("Name cards in your hand, each once."), "V4")
        if len(action.discards) != excess:
            raise IllegalMove(say_n("Discard exactly {n} card.", "Discard exactly {n} cards.", n=excess), "V4")
        out = list(action.discards)
    elif excess > 0:
        out = g.rng().sample(sorted(b["hand"]), excess)
    else:
        out = []
    for c in out:
        b["hand"].remove(c)
        b["discard"].append(c)
    if out:
        g.emit(events, say("{player} discards down to {limit}: {cards}.", player=g.players[seat], limit=HAND_LIMIT,
                           cards=card_names(out)))
    end_turn(g, seat, events)


def end_turn(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    b = g.boards[seat]
    g.pool = 0
    if not b["base"] and not b["out"]:
        g.emit(events, say("{player} ends their turn with an empty base.", player=g.players[seat]))
        eliminate(g, seat, events)
    pass_turn(g, seat, events)


def pass_turn(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    """Victory check, round count and safeguard, then the next player's turn."""
    if check_victory(g, events):
        return
    nxt = next_seat(g, seat)
    assert nxt is not None
    # A full round ends when play comes back round to (or past) the round's first seat.
    pos = {s: i for i, s in enumerate(g.order)}
    start = pos[g.round_start]
    if (pos[nxt] - start) % len(g.order) <= (pos[seat] - start) % len(g.order):
        g.rounds_done += 1
        g.round_start = nxt
        limit = g.opts.rounds
        if limit and g.rounds_done >= limit:
            safeguard(g, events)
            return
    start_turn(g, nxt, events)


def forfeit(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    """Ruling 27: eliminated at once; a battle they are in ends with no outcome."""
    if g.phase == "over":
        return
    battle = g.battle
    if battle and seat in (battle["attacker"], battle["defender"]):
        from .battle import abort

        abort(g, events)
    eliminate(g, seat, events)
    if g.phase == "aces":
        if check_victory(g, events):
            return
        if all(b["ordered"] or b["out"] for b in g.boards):
            from .opening import begin

            begin(g, events)
        return
    if seat == g.current:
        g.pool = 0
        pass_turn(g, seat, events)
    else:
        check_victory(g, events)
