"""The built-in player: chooses from its own view and ``choices`` only (no peeking).

It removes an opponent's card that sits on its home row (that card would win), takes face-up
cards its numbers beat, steps onto the goal row when it can, attacks face-down cards when its
strength makes success likely, and otherwise advances toward the goal row or adds cards there.
In the windows it enforces just enough to save its card, and reinforces only when that wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.cards import pretty
from bot.engine.core import HIDDEN, Action, Choices, Game, Hidden
from bot.engine.words import CardName, say, say_n

from .geometry import ATTACK, DEF_RANK, INDEX, SIZE

AVERAGE_DEFENCE = 70  # of an unknown card
AVERAGE_MULT = 3.75  # of an unknown suit pairing


def _rank(cell: str) -> int:
    return INDEX[cell] // SIZE


def _goal_rank(view, seat: int) -> int:
    return SIZE - 1 if view.side(seat) == "South" else 0


def _home_rank(view, seat: int) -> int:
    return 0 if view.side(seat) == "South" else SIZE - 1


def _progress(view, seat: int, cell: str) -> int:
    """How many ranks ``cell`` is from the seat's home row."""
    return abs(_rank(cell) - _home_rank(view, seat))


def _build(game: Game, seat: int, prefix: Sequence[str], need: int | None) -> tuple[tuple[str, ...], int, bool]:
    """Greedily add strikers through ``choices``, best value first (face-up ones before the
    face-down ones they would reveal), until Σ reaches ``need`` (``None``: take every striker).
    Returns the tokens, Σ and whether the tokens are a complete action."""
    tokens = tuple(prefix)
    while True:
        c = game.choices(seat, tokens)
        total = c.progress.total if c.progress else 0
        if c.complete and need is not None and total >= need:
            return tokens, total, True
        if not c.options:
            return tokens, total, c.complete
        best, best_score, best_step = None, -1e9, None
        for o in c.options:
            v = o.data.value if o.data is not None else None
            step = None
            if v is None:  # a face-down attacker: look at its steps
                steps = game.choices(seat, tokens + (o.token,))
                if not steps.options:
                    continue
                vals = [(s.data.value if s.data is not None and s.data.value is not None else 0, s.token)
                        for s in steps.options]
                moves = [x for x in vals if x[1].startswith(">")]
                if moves and (steps.complete or len(moves) < len(vals)):  # V4: it may also attack unmoved
                    vals = moves + [((steps.progress.total - total) if steps.progress else 0, "")]
                v, step = max(vals)
                score = v - 6
            else:
                score = v
            if score > best_score:
                best, best_score, best_step = o, score, step
        if best is None:
            return tokens, total, c.complete
        tokens = tokens + (best.token,) + ((best_step,) if best_step else ())
        if need is None and game.choices(seat, tokens).complete and len(tokens) > 8:
            return tokens, game.choices(seat, tokens).progress.total if game.choices(seat, tokens).progress else 0, True


def _finish(game: Game, seat: int, tokens: Sequence[str]) -> Action:
    return game.parse(seat, " ".join(tokens))


def _walk_any(game: Game, seat: int, tokens: tuple[str, ...], rng: random.Random) -> tuple[str, ...] | None:
    """Any complete continuation of ``tokens`` (first options first)."""
    for _ in range(40):
        c = game.choices(seat, tokens)
        if c.complete:
            return tokens
        if not c.options:
            return None
        tokens = tokens + (c.options[0].token,)
    return None


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    view = game.view(seat)
    d = game.decision_of(seat)
    if d is None:
        raise ValueError("not this seat's decision")
    if d.name == "order-home-row":
        return _order(game, seat, view)
    if d.name == "enforce":
        return _enforce(game, seat, view)
    if d.name == "reinforce":
        a = view.attack
        tokens, total, ok = _build(game, seat, ("reinforce",), a.defence + a.enforcement)
        if ok and total >= a.defence + a.enforcement:
            return _finish(game, seat, tokens)
        return game.parse(seat, "reinforce")
    return _turn(game, seat, view, rng)


def _order(game: Game, seat: int, view) -> Action:
    """Strong attackers in the middle files, where they reach most."""
    row = sorted((b for b in view.board if b.owner == seat and _rank(b.cell) == _home_rank(view, seat)),
                 key=lambda b: b.cell)
    codes = sorted((b.card for b in row if isinstance(b.card, str)), key=lambda c: ATTACK[c[0]])
    files = [0, 6, 1, 5, 2, 4, 3]  # weakest on the edges
    placed: list[str] = [""] * 7
    for f, code in zip(files, codes, strict=False):
        placed[f] = code
    tokens = ("order", *placed)
    if "" in placed or not game.choices(seat, tokens).complete:
        return game.parse(seat, "order")
    return _finish(game, seat, tokens)


def _enforce(game: Game, seat: int, view) -> Action:
    a = view.attack
    c = game.choices(seat, ("enforce",))
    if c.kind != "set" or not c.options:
        return game.parse(seat, "enforce")
    opts = sorted(c.options, key=lambda o: -(o.data.value or 0))
    if a.defence + sum(o.data.value or 0 for o in opts) <= a.sigma:
        return game.parse(seat, "enforce")  # cannot save it: keep the cards hidden
    chosen, total = [], a.defence
    for o in opts:
        if total > a.sigma + 20:
            break
        chosen.append(o.token)
        total += o.data.value or 0
    order = [o.token for o in c.options]
    return game.parse(seat, "enforce " + ",".join(sorted(chosen, key=order.index)))


def _turn(game: Game, seat: int, view, rng: random.Random, weigh: bool = True) -> Action:
    """The seat's turn. ``weigh=False`` (Easy) attacks a face-down card without holding back when
    its odds are poor."""
    ranked = _turns(game, seat, view, rng, weigh)
    if ranked:
        return _finish(game, seat, ranked[0][1])
    for v in game.choices(seat, ()).tokens():
        tokens = _walk_any(game, seat, (v,), rng)
        if tokens:
            return _finish(game, seat, tokens)
    return game.parse(seat, "pass")


def _turns(game: Game, seat: int, view, rng: random.Random, weigh: bool = True) -> list[tuple[float, tuple[str, ...]]]:
    """Every move, add and attack the player weighs this turn, with its score, best first
    (empty: none it would weigh; a lone pass is scored too)."""
    verbs = game.choices(seat, ()).tokens()
    if verbs == ["pass"]:
        return [(0.0, ("pass",))]
    found: list[tuple[float, tuple[str, ...]]] = []

    def consider(score: float, tokens: tuple[str, ...]) -> None:
        found.append((score + rng.random() * 0.5, tokens))

    mine = [b for b in view.board if b.owner == seat]
    theirs = [b for b in view.board if b.owner != seat]
    home = _home_rank(view, seat)
    goal = _goal_rank(view, seat)
    if "attack" in verbs:
        for t in game.choices(seat, ("attack",)).options:
            card = t.data.card if t.data is not None else HIDDEN
            threat = 6 - abs(_rank(t.token) - home)  # close to my home row: dangerous
            urgent = _rank(t.token) == home
            last = len(theirs) == 1
            if isinstance(card, Hidden):
                tokens, total, ok = _build(game, seat, ("attack", t.token), None)
                if not ok:
                    continue
                strength = _strength(view, tokens)
                chance = min(1.0, strength / AVERAGE_DEFENCE / 1.3)
                score = 10 + 40 * chance + 4 * threat + (400 if urgent else 0) + (200 * chance if last else 0)
                if chance < 0.5 and not urgent and weigh:
                    score -= 30
                consider(score, tokens)
            else:
                need = 10 * DEF_RANK[card[0]]
                tokens, total, ok = _build(game, seat, ("attack", t.token), need)
                if ok and total >= need:
                    score = 60 + need / 4 + 5 * threat + (500 if urgent else 0) + (500 if last else 0)
                    consider(score, tokens)
    if "move" in verbs:
        for src in game.choices(seat, ("move",)).options:
            here = _progress(view, seat, src.token)
            for dst in game.choices(seat, ("move", src.token)).options:
                there = _progress(view, seat, dst.token)
                score = 5 + 6 * (there - here)
                if _rank(dst.token) == goal:
                    score += 150
                if _rank(src.token) == home and there > here:
                    score += 2
                consider(score, ("move", src.token, dst.token))
    if "add" in verbs:
        hand = game.choices(seat, ("add",)).options
        if hand:
            card = max(hand, key=lambda o: ATTACK[o.token[0]])
            for dst in game.choices(seat, ("add", card.token)).options:
                score = 6 + 3 * _progress(view, seat, dst.token) - len(mine) * 0.2
                if _rank(dst.token) == goal:
                    score += 150
                consider(score, ("add", card.token, dst.token))
    found.sort(key=lambda x: -x[0])
    return found


def ranked_moves(game: Game, seat: int, rng: random.Random, k: int) -> list[str]:
    """Up to ``k`` of the turn's actions the player rates best, best first (for Strong's search:
    the moves worth weighing); the other decisions: the player's one pick."""
    d = game.decision_of(seat)
    if d is None or d.name != "turn":
        return [str(auto_move(game, seat, rng))]
    return [" ".join(tokens) for _, tokens in _turns(game, seat, game.view(seat), rng)[:k]]


def _strength(view, tokens: Sequence[str]) -> float:
    """An estimate of Σ against a face-down card (its suit unknown)."""
    total = 0.0
    for tok in tokens[2:]:
        if tok.startswith(">") or tok == "stay":
            continue
        b = view.at(tok)
        if b is not None and isinstance(b.card, str):
            total += ATTACK[b.card[0]] * AVERAGE_MULT
    return total


__all__ = ["auto_move", "Choices"]


REASONS = {
    "order": say("strong attackers in the middle files reach the most cells, and weak cards go on the edges"),
    "move": say("it advances toward the goal row, or steps onto it"),
    "add": say("another card on the board gives you more ways to reach the goal row"),
    "attack": say("it removes a card that threatens you, or your strength makes the attack likely to succeed"),
    "enforce": say("turning up those cards adds to the defence where it helps"),
    "reinforce": say("more attackers make the attack likely to succeed"),
    "pass": say("no move, add or attack is legal"),
}



def plan(game: Game, seat: int, action: Action | str) -> str | None:
    """When the hint is a move, an add or a pass (no attack), the aim behind it: the goal row, and
    the seat's card nearest to it (from the seat's own view)."""
    verb = str(action).split(" ", 1)[0]
    v = game.view(seat)
    if verb not in ("move", "add", "pass") or getattr(v, "setup", True) or getattr(v, "attack", None) is not None:
        return None
    goal = 7 if seat == v.south else 1  # the other home row
    mine = [b for b in v.board if b.owner == seat]
    if not mine:
        return None
    near = min(mine, key=lambda b: (abs(goal - int(b.cell[1:])), b.cell))
    ranks = abs(goal - int(near.cell[1:]))
    what = CardName(near.card, pretty(near.card)) if isinstance(near.card, str) else say("a card")
    if not ranks:
        return say("keep {card} at {cell} alive: a card on your goal row that survives a whole turn wins",
                   card=what, cell=near.cell)
    return say_n("reach your goal row (rank {goal}): your nearest card, {card} at {cell}, is {n} rank away, and a "
                 "card there that survives a whole turn wins",
                 "reach your goal row (rank {goal}): your nearest card, {card} at {cell}, is {n} ranks away, and a "
                 "card there that survives a whole turn wins", goal=goal, card=what, cell=near.cell, n=ranks)


EASY_FORGETS_ENFORCE = 0.85  # of the enforce windows
EASY_BUILDS_UP = 0.3  # of the turns: lays a card beside its own home row instead of racing
EASY_RUSHES = 0.6  # of the other turns: pushes whichever card goes furthest


def easy_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Easy: a player who forgets the race and rushes by turns. Now and then it lays its strongest
    card from its hand beside its own home row, building up instead of racing to the goal row; it
    often just pushes the card that goes furthest, whatever threatens it there or at its home row;
    it attacks face-down cards without weighing its odds; and it often forgets to enforce a
    defence."""
    d = game.decision_of(seat)
    if d is not None and d.name == "enforce" and rng.random() < EASY_FORGETS_ENFORCE:
        return game.parse(seat, "enforce")
    if d is None or d.name != "turn":
        return auto_move(game, seat, rng)
    view = game.view(seat)
    verbs = game.choices(seat, ()).tokens()
    if "add" in verbs and rng.random() < EASY_BUILDS_UP:
        hand = game.choices(seat, ("add",)).options
        if hand:
            card = max(hand, key=lambda o: ATTACK[o.token[0]])
            cells = game.choices(seat, ("add", card.token)).options
            if cells:
                near = min(cells, key=lambda o: (_progress(view, seat, o.token), rng.random()))
                return game.parse(seat, f"add {card.token} {near.token}")
    if "move" in verbs and rng.random() < EASY_RUSHES:
        best: tuple[float, str] | None = None
        for src in game.choices(seat, ("move",)).options:
            for dst in game.choices(seat, ("move", src.token)).options:
                gain = _progress(view, seat, dst.token) - _progress(view, seat, src.token) + rng.random() * 0.5
                if best is None or gain > best[0]:
                    best = (gain, f"move {src.token} {dst.token}")
        if best is not None and best[0] > 0:
            return game.parse(seat, best[1])
    return _turn(game, seat, view, rng, weigh=False)
