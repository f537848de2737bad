"""The built-in player: builds units from what its diamonds make, guards with about half of them,
attacks the weakest base with the rest, and plays its battle cards where they count.

It reads only its own view and ``choices`` (no peeking), so it can stand in for any seat.
"""

from __future__ import annotations

import random

from bot.engine.core import Action, Choices, Game

from .model import klass, suit, value
from .reasons import REASONS  # noqa: F401 — the hint's reasons (bot.engine.hints finds them here)
from .plans import plan  # noqa: F401 — /game hint's plan (bot.engine.hints finds it here)
from .view import MaginotView

ACE_PREFERENCE = "DCSH"  # Ace #1: A♦ makes markers every turn


def random_walk(game: Game, seat: int, rng: random.Random) -> Action:
    """A uniformly random walk through ``choices`` (the opponent the built-in player must beat)."""
    prefix: tuple[str, ...] = ()
    while True:
        c = game.choices(seat, prefix)
        nxt: list[str] = []
        if c.kind == "token":
            nxt = c.tokens()
        elif c.kind == "range" and c.hi >= c.lo:
            nxt = [str(rng.randint(c.lo, c.hi))]
        if c.complete and (not nxt or rng.random() < 1 / (len(nxt) + 1)):
            return game.parse(seat, " ".join(prefix))
        if not nxt:
            raise AssertionError(f"dead end after {prefix!r}")
        prefix += (rng.choice(nxt),)


def _walk(game: Game, seat: int, prefix: tuple[str, ...], pick) -> tuple[str, ...] | None:
    """Follow ``pick(choices, prefix) -> token | None`` (None: stop here if complete)."""
    while True:
        c = game.choices(seat, prefix)
        tok = pick(c, prefix)
        if tok is None:
            return prefix if c.complete else None
        prefix += (tok,)


def auto_move(game: Game, seat: int, rng: random.Random) -> Action:
    d = game.decision_of(seat)
    v: MaginotView = game.view(seat)  # type: ignore[assignment]
    tokens = _choose(game, seat, d.name if d else "turn", v)
    if tokens is None:
        return random_walk(game, seat, rng)
    return game.parse(seat, " ".join(tokens))


def _choose(game: Game, seat: int, name: str, v: MaginotView) -> tuple[str, ...] | None:
    me = v.boards[seat]
    units = {u.id: u for b in v.boards for u in b.units}
    if name == "order-aces":
        aces = sorted(game.choices(seat, ("aces",)).tokens()[:-1], key=lambda a: ACE_PREFERENCE.index(a[1]))
        return ("aces", *aces)
    if name == "engage":
        bt = v.battle
        taken: dict[str, int] = {}

        def pick(c: Choices, prefix: tuple[str, ...]) -> str | None:
            opts = c.tokens()
            if (len(prefix) - 1) % 2 == 1:  # a guardian was picked: choose its attacker
                return max(opts, key=lambda a: (-taken.get(a, 0), units[a].attack))
            if not opts:
                return None
            return opts[0]

        out = _walk(game, seat, ("engage",), lambda c, p: _track(pick(c, p), p, taken))
        return out if bt is not None else None
    if name == "commit":
        return _commit(game, seat, v, units)
    return _turn(game, seat, v, me, units)


def _track(tok: str | None, prefix: tuple[str, ...], taken: dict[str, int]) -> str | None:
    if tok is not None and (len(prefix) - 1) % 2 == 1:
        taken[tok] = taken.get(tok, 0) + 1
    return tok


def _commit(game: Game, seat: int, v: MaginotView, units: dict) -> tuple[str, ...] | None:
    bt = v.battle
    mine_attack = seat == bt.attacker

    def pick(c: Choices, prefix: tuple[str, ...]) -> str | None:
        toks = c.tokens()
        if c.kind == "range":
            # kill the guardian if the attack allows: armor + life left
            slot = sum(1 for t in prefix[prefix.index("split") + 1:])
            split = [(a, g) for a, _ in bt.attacks for g in [gg for gg, aa in bt.engaged if aa == a]
                     if sum(1 for _, aa in bt.engaged if aa == a) >= 2]
            gid = split[slot][1]
            u = units[gid]
            need = u.armor + u.life - u.wounds
            return str(max(c.lo, min(c.hi, need)))
        if not toks:
            return None
        last = prefix[-1] if prefix else ""
        if len(prefix) >= 2 and last in ("tap",) or (prefix and _is_card(last) and last[:2] in BATTLE):
            return _best_target(last, toks, units, mine_attack, v)
        cards = [t for t in toks if _is_card(t) and t[:2] in BATTLE and _useful(t, v, seat, units)]
        if cards:
            return cards[0]
        if "tap" in toks:
            return "tap"
        if "split" in toks:
            return "split"
        return None

    return _walk(game, seat, ("commit",), pick)


BATTLE = ("JC", "JS", "JH", "KS", "KC", "KH")


def _is_card(tok: str) -> bool:
    return "@" in tok and not tok.startswith("#")


def _useful(card: str, v: MaginotView, seat: int, units: dict) -> bool:
    if card[:2] == "KH":
        me = v.boards[seat]
        return any(u.wounds >= u.life // 2 for u in me.units) or any(a.wounds >= 8 for a in me.base)
    return True


def _best_target(last: str, toks: list[str], units: dict, attacker: bool, v: MaginotView) -> str:
    f = last[:2]
    unit_toks = [t for t in toks if t in units]
    if f == "KC":
        return max(toks, key=lambda t: units[t].armor if t in units else 0)
    if f == "KH":
        return max(unit_toks or toks, key=lambda t: units[t].wounds if t in units else 0)
    if f in ("KS", "JH", "JS") and not attacker:
        aces = [t for t in toks if t.startswith("#")]
        if aces:
            return aces[0]
    if f == "JC" or last == "tap":
        return max(toks, key=lambda t: units[t].attack if t in units else 0)
    return max(toks, key=lambda t: units[t].life - units[t].wounds if t in units else 0)


def _turn(game: Game, seat: int, v: MaginotView, me, units: dict) -> tuple[str, ...] | None:
    root = game.choices(seat, ()).tokens()
    hand = list(me.hand)
    if "resource" in root:
        return ("resource", game.choices(seat, ("resource",)).tokens()[0])
    if "tap" in root:
        r = game.choices(seat, ("tap",)).tokens()[0]
        jd = game.choices(seat, ("tap", r)).tokens()
        return ("tap", r, *jd[:1])
    if "tapbase" in root:
        return ("tapbase",)
    if "queen" in root:
        q = game.choices(seat, ("queen",)).tokens()[0]
        targets = game.choices(seat, ("queen", q)).tokens()
        if suit(q) == "D":
            return ("queen", q, targets[0])
        return ("queen", q, max(targets, key=lambda t: units[t].life + units[t].armor + units[t].attack))
    if "heal" in root:
        t = max(game.choices(seat, ("heal",)).tokens(),
                key=lambda t: units[t].wounds if t in units else me.base[int(t[1:].split("@")[0]) - 1].wounds)
        return ("heal", t)
    if "revive" in root:
        return ("revive", game.choices(seat, ("revive",)).tokens()[0])
    if v.phase == "construction":
        have = [c for c in me.finished] + [b.card for b in me.building if isinstance(b.card, str)]
        if "rush" in root:
            opts = game.choices(seat, ("rush",)).tokens()
            best = max(opts, key=lambda c: (_fills(c, have), value(c)))
            if _fills(best, have) and value(best) >= 5:
                return ("rush", best)
        if "fund" in root:
            building = {b.card: b.markers for b in me.building if isinstance(b.card, str)}
            c = min(building, key=lambda c: value(c) - building[c])
            return ("fund", c, str(min(v.pool, value(c) - building[c])))
        if "start" in root:
            opts = game.choices(seat, ("start",)).tokens()
            best = max(opts, key=lambda c: (_fills(c, have), value(c) <= v.pool, -abs(value(c) - 6)))
            return ("start", best, str(min(v.pool, value(best))))
        return ("done",)
    if v.phase == "battle":
        if "attack" in root:
            foes = game.choices(seat, ("attack",)).tokens()
            foe = min(foes, key=lambda t: sum(a.life for a in v.boards[int(t[1:])].base))
            prefix: tuple[str, ...] = ("attack", foe)
            while True:
                c = game.choices(seat, prefix)
                ready = c.tokens()
                if not ready:
                    break
                prefix += (ready[0],)
                aces = game.choices(seat, prefix).tokens()
                board = v.boards[int(foe[1:])]
                prefix += (min(aces, key=lambda t: board.base[int(t[1:].split("@")[0]) - 1].life),)
            return prefix
        return ("done",)
    # consolidation
    if "move" in root:
        mine = list(me.units)
        guards = [u for u in mine if u.zone == "guardian"]
        want = len(mine) // 2
        if len(guards) < want:
            patrols = [u for u in mine if u.zone == "patrol"]
            return ("move", max(patrols, key=lambda u: (u.armor + u.life, u.id)).id)
        if len(guards) > want + 1:
            return ("move", min(guards, key=lambda u: (u.armor + u.life, u.id)).id)
    if "assemble" in root:
        out: tuple[str, ...] = ("assemble",)
        for _ in range(3):
            out += (max(game.choices(seat, out).tokens(), key=value),)
        return out
    if "end" in root:
        return ("end",)
    del hand
    return None


def _fills(card: str, have: list[str]) -> int:
    """How much ``card`` helps a unit of its class: 1 if its suit is still missing there."""
    same = [c for c in have if klass(c) == klass(card)]
    return int(suit(card) not in {suit(c) for c in same})





def easy_move(game: Game, seat: int, rng: random.Random) -> Action:
    """Easy: a general who hesitates and forgets the defence — it often holds its patrols back
    when it could attack, its units stay on patrol instead of guarding, and in a battle it often
    commits nothing from its hand."""
    normal = auto_move(game, seat, rng)
    d = game.decision_of(seat)
    name = d.name if d else "turn"
    if name == "turn" and str(normal).startswith("attack ") and rng.random() < 0.6 \
            and "done" in game.choices(seat, ()).tokens():
        return game.parse(seat, "done")  # holds back when it could attack
    if name == "commit" and rng.random() < 0.7 and game.choices(seat, ("commit",)).complete:
        return game.parse(seat, "commit")
    if name == "turn" and str(normal).startswith("move ") and rng.random() < 0.8:
        v: MaginotView = game.view(seat)  # type: ignore[assignment]
        unit = str(normal).split()[1]
        if any(u.id == unit and u.zone == "patrol" for u in v.boards[seat].units):
            root = game.choices(seat, ()).tokens()
            if "end" in root:
                return game.parse(seat, "end")
    return normal
