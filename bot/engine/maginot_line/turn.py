"""The turn around the phases: UNTAP/DRAW (§2.1), END_TURN with elimination and victory (§2.5),
the round-limit safeguard (ruling 24) and a player leaving mid-game (ruling 27)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.cards import and_list
from bot.engine.core import Choices, Event, IllegalMove, Option, Progress

from .actions import EndTurn
from .model import ACE_LIFE, HAND_LIMIT, nice

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
            g.emit(events, f"{g.players[seat]} shuffles their discard pile into a new deck.")
        got.append(b["deck"].pop(0))
    b["hand"].extend(got)
    if got:
        g.emit(events, f"{g.players[seat]} draws {len(got)} card{'s' if len(got) > 1 else ''}.",
               {seat: "You draw " + " ".join(nice(c) for c in got) + "."})
    elif n:
        g.emit(events, f"{g.players[seat]} has no card left to draw.")


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
    g.emit(events, f"{g.players[seat]}'s turn: everything untaps.")
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
    g.emit(events, f"{g.players[seat]} is eliminated; all their cards leave the game.")


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
    finish(g, members(g, left), events, "")
    return True


def finish(g: "MaginotLine", winners: list[int], events: list[Event], why: str) -> None:
    g.winners = sorted(winners)
    g.phase = "over"
    g.battle = None
    names = and_list(g.players[s] for s in g.winners)
    g.summary_text = (f"{names} win{'s' if len(g.winners) == 1 else ''}{why}." if g.winners
                 else "Nobody is left: the game ends with no winner.")
    g.emit(events, g.summary_text)


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
    finish(g, members(g, {t for t in left if key[t] == best}), events,
           f" on the round limit ({best[0]} Aces, {best[1]} Ace life{' as a team' if g.opts.teams else ''})")


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
    opts = tuple(Option(c, f"Discard {nice(c)}", c) for c in sorted(hand) if not picked or c > picked[-1])
    opts = opts[:len(opts) - (excess - len(picked) - 1)] if excess - len(picked) > 1 else opts
    return Choices("token", opts, complete=not picked,
                   prompt=f"Discard down to {HAND_LIMIT} (or end now to discard at random).",
                   progress=Progress("Discarded", len(picked), excess))


def apply(g: "MaginotLine", seat: int, action: EndTurn, events: list[Event]) -> None:
    if g.phase != "consolidation":
        raise IllegalMove("End your construction and battles first.", "2")
    b = g.boards[seat]
    excess = len(b["hand"]) - HAND_LIMIT if g.opts.hand_limit else 0
    if action.discards:
        if excess <= 0:
            raise IllegalMove("You need not discard anything.", "V4")
        if len(set(action.discards)) != len(action.discards) or any(c not in b["hand"] for c in action.discards):
            raise IllegalMove("Name cards in your hand, each once.", "V4")
        if len(action.discards) != excess:
            raise IllegalMove(f"Discard exactly {excess} card{'s' if excess > 1 else ''}.", "V4")
        out = list(action.discards)
    elif excess > 0:
        out = g.rng().sample(sorted(b["hand"]), excess)
    else:
        out = []
    for c in out:
        b["hand"].remove(c)
        b["discard"].append(c)
    if out:
        g.emit(events, f"{g.players[seat]} discards down to {HAND_LIMIT}: {' '.join(nice(c) for c in out)}.")
    end_turn(g, seat, events)


def end_turn(g: "MaginotLine", seat: int, events: list[Event]) -> None:
    b = g.boards[seat]
    g.pool = 0
    if not b["base"] and not b["out"]:
        g.emit(events, f"{g.players[seat]} ends their turn with an empty base.")
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
