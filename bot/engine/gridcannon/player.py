"""Gridcannon's built-in player: go for kills, keep ploys for emergencies, seat royals where
they die. It reads only what the table shows (grid, slots, stash, the pending card) and the
legal actions; never the order of the draw pile."""

from __future__ import annotations

import random

from bot.engine.core import Action

from . import actions as A
from .board import (
    BASE,
    CELLS,
    CENTRE,
    EXHAUSTED,
    LINE,
    PENDING_NUMBER,
    PENDING_PLOY,
    PENDING_ROYAL,
    READY,
    SETUP_REPLACE,
    SETUP_ROYALS,
    SLOTS,
    qualifies,
    value,
)
from .rules import GridcannonGame


def _potential(game: GridcannonGame, grid: list[list[str]]) -> float:
    """How close the living royals are to dying on this grid (0..1 each)."""
    total = 0.0
    for i in game.living():
        total += min(game.attack(i, grid) / game.health(i), 1.0)
    return total


def _slot_score(game: GridcannonGame, royal: str, slot: str) -> float:
    """How easy a royal would be to kill in ``slot`` (higher is easier)."""
    a, b, _ = LINE[slot]
    atk = sum(value(game.top(c)) for c in (a, b) if qualifies(game.top(c), royal))
    return atk / BASE[royal[0]]


def _best_place(game: GridcannonGame, card: str, cells: list[int]) -> tuple[float, int]:
    before = _potential(game, game.grid)
    best: tuple[float, int] | None = None
    for c in cells:
        kills = game.kills_at(c)
        g = [list(s) for s in game.grid]
        g[c].append(card)
        after = _potential(game, g)
        waste = value(card) - value(game.top(c))
        score = 100 * len(kills) + 5 * (after - before) - 0.3 * waste
        if c == CENTRE:
            score += 0.2
        if best is None or score > best[0]:
            best = (score, c)
    assert best is not None
    return best


def _reassign_kills(game: GridcannonGame, move: A.Reassign) -> list[int]:
    """The slots whose royals the reassignment kills."""
    g = [list(s) for s in game.grid]
    g[move.target].append(g[move.source].pop())
    return game.kills_at(move.target, g)


def _best_killing_reassign(game: GridcannonGame, moves: list[Action]) -> Action | None:
    scored = [(len(_reassign_kills(game, m)), i) for i, m in enumerate(moves) if isinstance(m, A.Reassign)]
    best = max(scored, default=None)
    return moves[best[1]] if best and best[0] > 0 else None


def _potential_loss(game: GridcannonGame, cell: int) -> float:
    g = [list(s) for s in game.grid]
    g[cell] = []
    return _potential(game, game.grid) - _potential(game, g)


def auto_move(game: GridcannonGame, seat: int, rng: random.Random) -> Action:
    """The built-in player's action for ``seat`` now."""
    ph = game.phase
    if ph == READY:
        return A.Draw()
    if ph == PENDING_NUMBER and game.place_cells(game.pending):
        cells = game.place_cells(game.pending)
        return A.Place(_best_place(game, game.pending, cells)[1])
    moves = list(game.legal_actions(seat))
    if game.classic and game.move_count > 600:
        # Classic resets can cycle the deck for ever; past this point play loosely so it ends.
        return rng.choice(moves)
    extracts = [m for m in moves if isinstance(m, A.Extract)]
    has_reassign = any(isinstance(m, A.Reassign) for m in moves)

    def cheapest_extract() -> Action:
        # Give up the stack that helps the attacks least; a bigger stack refills the deck more.
        return min(extracts, key=lambda m: (_potential_loss(game, m.cell), -len(game.grid[m.cell]), rng.random()))

    if ph == SETUP_ROYALS:
        royals = [m for m in moves if isinstance(m, A.PlaceRoyal)]
        return max(royals, key=lambda m: (_slot_score(game, m.royal, m.slot), rng.random()))
    if ph == SETUP_REPLACE:
        return A.Keep()
    if ph == PENDING_ROYAL:
        royals = [m for m in moves if isinstance(m, A.PlaceRoyal)]
        return max(royals, key=lambda m: (_slot_score(game, game.pending, m.slot), rng.random()))
    if ph == PENDING_NUMBER:
        card = game.pending
        if any(isinstance(m, A.Continue) for m in moves):
            return A.Continue()
        armours = [m for m in moves if isinstance(m, A.Armour)]
        hard = [m for m in moves if isinstance(m, A.HardReset)]

        def after(m: A.Armour) -> tuple[bool, int]:
            i = [s["royal"] for s in game.slots].index(m.royal)
            trial = game.copy()
            trial.slots[i]["armour"].append(card)
            return trial.is_invincible(i), trial.health(i)

        ranked = sorted(armours, key=after)
        if ranked:
            lose, h = after(ranked[0])
            if not lose and (h <= 17 or not (extracts or has_reassign or hard)):
                return ranked[0]
        kill = _best_killing_reassign(game, moves) if has_reassign else None
        if kill:
            return kill
        if extracts:
            return cheapest_extract()
        if hard:
            return min(hard, key=lambda m: (_potential_loss(game, m.cell), -len(game.grid[m.cell])))
        if ranked:
            return ranked[0]
        return rng.choice(moves)
    if ph == PENDING_PLOY:
        # Kill if possible; else clear the highest card that helps no attack (it blocks placements).
        best = max(range(9), key=lambda c: (100 * len(game.kills_at(c)) + value(game.top(c))
                                            - 30 * _potential_loss(game, c) + 0.1 * len(game.grid[c]),
                                            rng.random()))
        return A.Reset(best)
    if ph == EXHAUSTED:
        if game.classic:
            rec = [m for m in moves if isinstance(m, A.Recycle)]
            return max(rec, key=lambda m: len(game.grid[m.cell]))
        kill = _best_killing_reassign(game, moves) if has_reassign else None
        if kill:
            return kill
        if extracts:
            return max(extracts, key=lambda m: (len(game.grid[m.cell]), -_potential_loss(game, m.cell)))
        return A.Concede()
    return rng.choice(moves)


# Why the built-in player chose an action: where its cell kills royals, the words before their names
# (else the reason without a kill); otherwise the same reason whatever the table.
_KILLING: dict[type[Action], tuple[str, str]] = {
    A.Place: ("landing there kills", "it brings the most attack to bear on the living royals while wasting the least"),
    A.Reassign: ("moving that card onto the other cell kills",
                 "the card fits on no cell and nothing kills a royal now, so a joker moves a top card instead"),
    A.Reset: ("resetting that cell kills", "it clears a high card that blocks placements and helps no attack"),
}
_WHY: dict[type[Action], str] = {
    A.Draw: "there is nothing else to do until a card is drawn",
    A.PlaceRoyal: "the cards facing that slot are the strongest that can hurt it, so it will be easiest to kill there",
    A.Keep: "the grid as dealt is good enough, and a replacement might be worse",
    A.Continue: "the card cannot be placed and cycling it keeps your ploys for later",
    A.Armour: "armouring a royal costs no ploy and still leaves it possible to kill",
    A.Extract: "it clears the stack that helps your attacks least, and a big stack refills the deck",
    A.HardReset: "it gives up the stack that helps your attacks least",
    A.Recycle: "the biggest stack makes the longest new deck",
    A.Concede: "the deck is empty and no ploy can still kill a royal",
}


def hint(game: GridcannonGame, seat: int) -> tuple[Action, str]:
    """The built-in player's action and, in plain words, why (from what the table shows)."""
    from bot.engine.hints import hint_rng

    action = auto_move(game, seat, hint_rng(game, seat))

    def royals(slots: list[int]) -> str:
        return " and ".join(str(game.slots[i]["royal"]) for i in slots)

    if type(action) in _KILLING:
        kills = _reassign_kills(game, action) if isinstance(action, A.Reassign) else game.kills_at(action.cell)
        killing, otherwise = _KILLING[type(action)]
        return action, f"{killing} {royals(kills)}" if kills else otherwise
    return action, _WHY.get(type(action), "it is the only sensible move left")


def easy_move(game: GridcannonGame, seat: int, rng: random.Random) -> Action:
    """Easy: short-sighted — a number card often goes on the first cell it fits, and a royal into
    the first open slot, without weighing the attacks."""
    normal = auto_move(game, seat, rng)
    if isinstance(normal, A.Place) and rng.random() < 0.5:
        return A.Place(game.place_cells(game.pending)[0])
    if isinstance(normal, A.PlaceRoyal) and rng.random() < 0.5:
        royals = [m for m in game.legal_actions(seat) if isinstance(m, A.PlaceRoyal)]
        return royals[0] if royals else normal
    return normal


def plan(game: GridcannonGame, seat: int, action: Action | str) -> str | None:
    """When the hint is a number card placed where it kills nothing, the royal to aim at: the
    living one (not yet beyond reach) whose attack is nearest its health, and what counts against
    it. Everything it reads is face up on the table."""
    from bot.engine.words import say

    from .rules import cn

    if not isinstance(action, A.Place) or game.kills_at(action.cell):
        return None
    reachable = [i for i in game.living() if not game.is_invincible(i)]
    if not reachable:
        return None
    i = min(reachable, key=lambda i: (game.health(i) - game.attack(i), i))
    royal = game.slots[i]["royal"]
    counts = {"J": say("any card counts against it"), "Q": say("cards of its colour count against it"),
              "K": say("cards of its suit count against it")}[royal[0]]
    attack, health = game.attack(i), game.health(i)
    if attack >= health:  # ready: the next card that lands on its far cell fires
        return say("finish {royal}: its two attacking cells make {attack}, enough for its {health}, so the next "
                   "card placed on {cell} kills it", royal=cn(royal), attack=attack, health=health,
                   cell=CELLS[LINE[SLOTS[i]][2]])
    return say("aim at {royal}, the nearest to falling: {counts}, and its two attacking cells "
               "make {attack} of the {health} that kill it", royal=cn(royal), counts=counts,
               attack=attack, health=health)
