"""The Strong level: determinized Monte-Carlo search from the seat's own knowledge only.

For a deciding seat it gathers a few candidate actions through ``choices`` (every legal action
when they are few, else the Normal player's picks and walks starting with each first token), then
plays each candidate on many deals consistent with what the seat knows (:func:`sample`), the rest
of the game played out by the Normal player in every seat, and keeps the candidate whose playouts
the seat wins most often. All candidates are tried on the same deals with the same coin flips
(common random numbers), and the weaker half is dropped after each round of deals (successive
halving), so the playouts go where the choice is close.

The search stops at a CPU-time budget (``time.process_time``) and/or a cap on its playouts; with
a cap and no budget it is deterministic given its generator, and the contract suite holds it to
the same choice on a state re-dealt for its seat (it never reads a hidden card).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bot.engine.core import Action, Game, walk_choices
from bot.engine.determinize import card_universe
from bot.engine.registry import player_module, spec

MAX_CANDIDATES = 8  # actions weighed per move
ENUMERATE = 40  # every legal action is a candidate when there are at most this many
PLAYOUT_MOVES = 4000  # a playout still running after this many moves counts as a draw
FIRST_ROUND = 2  # deals every candidate is played on before any is dropped
# Games where winning is not the point (The Knight, the Rogue, the Princess and the Dragon is a
# story told together; its races have no strategy to search): Strong plays as Normal there.
NORMAL_ONLY = frozenset({"knight_rogue_princess_dragon"})


def sample(game: Game, seat: int, rng: random.Random, universe: frozenset[str], known: frozenset[str],
           data: dict[str, Any]) -> Game:
    """A deal consistent with what ``seat`` knows, made without reading where its hidden cards are:
    the cards it may not know, shuffled, are given to the hidden cards in the order the state
    first names them (a card named in two places stays one card); a new generator seed too. Two
    states the seat cannot tell apart give the same deal for the same ``rng``."""
    unknown = sorted(universe - known)
    pool = unknown[:]
    rng.shuffle(pool)
    hidden = frozenset(unknown)
    order: dict[str, str] = {}
    state = data["state"]

    def first(x: Any) -> None:
        t = type(x)
        if t is str:
            if x in hidden and x not in order:
                order[x] = pool[len(order)]
        elif t is dict:
            for v in x.values():
                first(v)
        elif t is list:
            for v in x:
                first(v)

    for k, v in state.items():
        if k != "journal":
            first(v)
    get = order.get

    def sub(x: Any) -> Any:  # states are JSON-like: lists, dicts, strings and numbers
        t = type(x)
        if t is str:
            return get(x, x)
        if t is dict:
            return {k: sub(v) for k, v in x.items()}
        if t is list:
            return [sub(v) for v in x]
        return x

    new = {k: (v if k == "journal" else sub(v)) for k, v in state.items()}
    new["seed"] = rng.getrandbits(62)
    return type(game).from_json({**data, "state": new})


def reward(game: Game, seat: int) -> float:
    """What a finished playout is worth to ``seat``: 1 for a win (a shared win split), 0 for a
    loss; a solo game adds a little for its score so that nearer wins count."""
    out = game.outcome()
    if out is None:
        return 1 / max(1, len(game.players))
    value = (1 / len(out.winners)) if seat in out.winners else 0.0
    if len(game.players) == 1:
        kills = out.details.get("kills") if isinstance(out.details, dict) else None
        if isinstance(kills, int):
            value += 0.05 * kills
    return value


def playout(game: Game, player: Callable[..., Any], rng: random.Random, limit: int = PLAYOUT_MOVES) -> Game | None:
    """``game`` played to its end by ``player`` in every seat (the first open decision first).

    A re-deal moves every card the searching seat cannot see, so another seat may hold what its
    own rules would not give it (a joker among a Maginot base's Aces): where ``player`` fails
    there, that seat walks ``choices`` at random; None when the engine refuses the walk too."""
    for _ in range(limit):
        decisions = game.decisions()
        if not decisions:
            break
        seat = decisions[0].seat
        try:
            action: Any = player(game, seat, rng)
        except (ValueError, IndexError, KeyError, AssertionError, AttributeError, TypeError):
            try:
                action = _walk(game, seat, (), rng)
            except Exception:  # the engine's choices meet a card its deal never puts there
                action = None
            if action is None:
                return None
        try:
            game, _ = game.apply(seat, action)
        except Exception:  # the engine's rules meet a card its deal never puts there: no playout
            return None
    return game


def _walk(game: Game, seat: int, tokens: tuple[str, ...], rng: random.Random) -> str | None:
    """A random completion of ``tokens`` through ``choices`` (None: a text step or a dead end)."""
    for _ in range(60):
        c = game.choices(seat, tokens)
        nxt: list[str] = []
        if c.kind == "token":
            nxt = c.tokens()
        elif c.kind == "range" and c.hi >= c.lo:
            nxt = [str(rng.randint(c.lo, c.hi))]
        elif c.kind == "set":
            toks = c.tokens()
            hi = min(c.hi, len(toks))
            if hi >= c.lo:
                k = rng.randint(c.lo, hi)
                nxt = [",".join(sorted(rng.sample(toks, k), key=toks.index))]
        elif c.kind == "text":
            return None
        if c.complete and tokens and (not nxt or rng.random() < 0.3):
            return " ".join(tokens)
        if not nxt:
            return None
        tokens += (rng.choice(nxt),)
    return None


def candidates(game: Game, seat: int, rng: random.Random, player: Callable[..., Any]) -> list[str]:
    """The actions Strong weighs, the Normal player's pick first, from ``choices`` and the Normal
    player only (so from the seat's own view): the moves the player module rates best when it
    ranks them (``ranked_moves``), then every legal action when they are few, else walks."""
    first = str(player(game, seat, random.Random(rng.random())))
    verb = first.split(" ", 1)[0]
    if game.choices(seat, (verb,)).kind == "text":  # a line of story: nothing to weigh
        return [first]
    out = [first]
    ranked = getattr(player_module(game.game_id), "ranked_moves", None)
    if ranked is not None:
        out += ranked(game, seat, random.Random(rng.random()), MAX_CANDIDATES)
    rated = len(out)
    everything = list(walk_choices(game, seat, limit=ENUMERATE + 1))
    if len(everything) <= ENUMERATE:
        out += [" ".join(t) for t in everything]
    else:
        for _ in range(4):
            out.append(str(player(game, seat, random.Random(rng.random()))))
        for tok in game.choices(seat, ()).tokens():
            walked = _walk(game, seat, (tok,), rng)
            if walked is not None:
                out.append(walked)
    seen: dict[str, None] = {}
    for a in out[:rated]:
        seen.setdefault(" ".join(a.split()), None)
    top = list(seen)
    rest = [b for b in dict.fromkeys(" ".join(a.split()) for a in out[rated:]) if b not in seen]
    if len(top) + len(rest) > MAX_CANDIDATES:  # the Normal pick, the rated ones, an even spread of the rest
        top = top[:MAX_CANDIDATES]
        rng.shuffle(rest)
    return [*top, *rest[: MAX_CANDIDATES - len(top)]]


def strong_move(game: Game, seat: int, rng: random.Random, budget: float | None = None,
                playouts: int | None = None) -> Action | str:
    """Strong's action for ``seat``: the candidate whose playouts on deals consistent with the
    seat's knowledge score best. ``budget``: CPU seconds (None: no limit); ``playouts``: the most
    playouts in all (None: no cap). One of them must be given."""
    if budget is None and playouts is None:
        raise ValueError("Strong needs a CPU budget or a playout cap")
    player = spec(game.game_id).player
    if game.game_id in NORMAL_ONLY:
        return player(game, seat, rng)
    found = candidates(game, seat, rng, player)
    if len(found) == 1:
        return found[0]
    start = time.process_time()
    universe = card_universe(game)
    known = game.known(seat)
    data = game.to_json()
    alive = list(range(len(found)))
    # scores[i][r]: candidate i's playout on deal r (None: not played, or no playout on that deal)
    scores: list[list[float | None]] = [[] for _ in found]
    spent = 0

    def out_of_time() -> bool:
        return (budget is not None and time.process_time() - start >= budget) or \
            (playouts is not None and spent >= playouts)

    while not out_of_time():
        deal = sample(game, seat, rng, universe, known, data)
        flips = rng.random()
        for i in range(len(found)):
            value = None
            if i in alive and not out_of_time():
                after, _ = deal.apply(seat, found[i])
                end = playout(after, player, random.Random(flips))
                value = None if end is None else reward(end, seat)  # a deal the engine cannot play
                spent += 1
            scores[i].append(value)
        rounds = len(scores[0])
        if rounds >= FIRST_ROUND and len(alive) > 2 and rounds & (rounds - 1) == 0:
            # Successive halving; the Normal pick (0) stays in: it is what a choice must beat.
            rest = sorted(alive[1:], key=lambda i: (-_mean(scores[i]), i))
            alive = [0, *sorted(rest[: max(1, len(rest) // 2)])]
    return found[_pick(scores, alive)]


def _mean(values: list[float | None]) -> float:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else 0.0


def _pick(scores: list[list[float | None]], alive: list[int]) -> int:
    """The candidate to play: the one whose playouts beat the Normal pick's on the same deals by
    the most, if by more than their noise (one standard error of the paired differences); else the
    Normal pick. Few playouts never make Strong weaker than Normal by chance."""
    best, best_gain = 0, 0.0
    for i in alive[1:]:
        diffs = [a - b for a, b in zip(scores[i], scores[0], strict=True) if a is not None and b is not None]
        if len(diffs) < 2:
            continue
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > (var / n) ** 0.5 and mean > best_gain:
            best, best_gain = i, mean
    return best
