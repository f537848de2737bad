"""Labels that predict an outcome agree with what ``apply`` then does (issue 16).

Seeded playouts of all six games walk ``choices`` as a player would. At every step, each offered
option whose label makes a prediction ("— kills J♥", "→ Attack 10, Defence 20", "(health 19)",
"Tap 5♦ (+3)", a Σ against the defence…) is played on a copy, and the prediction is checked
against the events and the new state. A label that promises what the rules then do not do is
a bug players trust and cannot see.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.engine.cards import pretty, pretty_text
from bot.engine.core import Choices, Game, IllegalMove
from bot.engine.hints import hint
from bot.engine.registry import spec
from tests.contract.harness import QUITTING, candidates

# A check gets the state before, the seat, the action's tokens, the state after and the events,
# and returns what went wrong ("" when the prediction held).
Check = Callable[[Any, int, tuple[str, ...], Any, list], str]
Predict = Callable[[Any, int, tuple[str, ...], str], Check | None]


def complete(game: Game, seat: int, tokens: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """``tokens`` as played when they already make an action, else completed at random."""
    for _ in range(100):
        c = game.choices(seat, tokens)
        if c.complete:
            return tokens
        nxt = candidates(c, rng)
        assert nxt, f"dead end in choices after {tokens!r}"
        tokens += (rng.choice(nxt),)
    raise AssertionError(f"choices never completed: {tokens!r}")


# ----- Gridcannon ------------------------------------------------------------------------------
_LANDING = re.compile(r"^(Place \S+ on r\dc\d|Joker: move \S+ from r\dc\d to r\dc\d|Reset r\dc\d with \S+)"
                      r"(?: — (kills|fires at) (.+))?$")
_ARMOUR = re.compile(r"^Armour (\S+) with \S+ \(health (\d+)\)$")
_EXTRACT = re.compile(r"^Ace: extract (r\dc\d) \((\d+) cards? to the bottom\)$")


def _dead(g: Any) -> set[str]:
    return {pretty(s["royal"]) for s in g.slots if s["royal"] and s["dead"]}


def gridcannon(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    if m := _LANDING.match(label):
        kind, named = m.group(2), m.group(3)
        killed = set(named.split(" and ")) if kind == "kills" else set()

        def landing(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
            died = _dead(new) - _dead(old)
            return "" if died == killed else f"the label says it kills {sorted(killed)}, apply killed {sorted(died)}"
        return landing
    if m := _ARMOUR.match(label):
        royal, health = m.group(1), int(m.group(2))

        def armour(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
            i = [pretty(s["royal"]) if s["royal"] else "" for s in new.slots].index(royal)
            return "" if new.health(i) == health else f"health {new.health(i)}, the label says {health}"
        return armour
    if m := _EXTRACT.match(label):
        k = int(m.group(2))

        def extract(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
            sent = len(new.pile) + len(new.cycle) - len(old.pile) - len(old.cycle)
            return "" if sent == k else f"{sent} cards went to the bottom, the label says {k}"
        return extract
    return None


# ----- Court Wars ------------------------------------------------------------------------------
_PLACE = re.compile(r"→ Attack (\d+), Defence (\d+)$")
_JOKER = re.compile(r"^Put the joker on \S+ \(Defence (\d+)\)$")
_ATTACK = re.compile(r"→ (?:defeat (.+)|remove \[(.*)\] from (.+)) \(cost (\d+)\)$")


def court_wars(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    from bot.engine.court_wars import LETTERS

    if tokens[0] in ("place", "joker") and len(tokens) == 2:
        i = LETTERS.index(tokens[1])
        m = _PLACE.search(label) if tokens[0] == "place" else _JOKER.match(label)
        if not m:
            return None
        attack = int(m.group(1)) if tokens[0] == "place" else None
        defence = int(m.group(2)) if tokens[0] == "place" else int(m.group(1))

        def place(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
            got = (new.attack_of(seat, i), new.defence_of(seat, i))
            want = (got[0] if attack is None else attack, defence)
            return "" if got == want else f"Attack/Defence {got}, the label says {want}"
        return place
    if tokens[0] == "attack" and len(tokens) == 5 and (m := _ATTACK.search(label)):
        s, _, letter = tokens[3].partition(":")
        opp, t, r = int(s) - 1, LETTERS.index(letter), int(tokens[4])
        defeats = m.group(1) is not None

        def attack(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
            before, after = old.courts[opp][t], new.courts[opp][t]
            if defeats:
                return "" if after["state"] == "defeated" else f"the label says it defeats, the stack is {after['state']}"
            removed = before["guards"][len(after["guards"]):]
            ok = after["state"] == before["state"] and before["guards"][:len(after["guards"])] == after["guards"]
            shown = " ".join(pretty(g) for g in removed)
            if ok and len(removed) == r and all(pretty(g) in m.group(2) for g in removed):
                return ""
            return f"removed [{shown}] ({after['state']}), the label says [{m.group(2)}]"
        return attack
    return None


# ----- Cardchess2 ------------------------------------------------------------------------------
_SIGMA = re.compile(r"Σ (\d+)")
_AGAINST = re.compile(r"\(Σ (\d+) [≥<] (\d+)\)")


def cardchess2(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    """An attack's (or reinforcement's) progress ``Σ total of defence`` and the values its
    strikers' labels show ("d2 (7)", "step to c3 (9)")."""
    if tokens[0] not in ("attack", "reinforce"):
        return None
    c = game.choices(seat, tokens)
    if not c.complete or c.progress is None:
        return None
    total, defence = c.progress.total, c.progress.target
    shown = [v for i in range(1, len(tokens)) for o in game.choices(seat, tokens[:i]).options
             if o.token == tokens[i] and (v := getattr(o.data, "value", None)) is not None]
    strikers = len(game.parse(seat, " ".join(tokens)).strikers)  # each shows its value once (or not at all)
    base = game.attack["sigma"] if tokens[0] == "reinforce" else 0

    def sigma(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        said = [e.for_(seat) or "" for e in events if e.kind in ("attack", "reinforce", "defeated", "survives")]
        got = next((int(m.group(1)) for t in said if (m := _SIGMA.search(t))), None)
        if got != total:
            return f"Σ {got} after apply, the progress said Σ {total}"
        if len(shown) == strikers and base + sum(shown) != total:
            return f"the strikers' labels add up to {base} + {sum(shown)}, the attack makes Σ {total}"
        against = next((int(m.group(2)) for t in said if (m := _AGAINST.search(t))), None)
        if against is not None and against != defence:
            return f"resolved against {against}, the progress said {defence}"
        return ""
    return sigma


# ----- Maginot Line ----------------------------------------------------------------------------
_PLUS = re.compile(r"\(\+(\d+)\)$|: \+(\d+) markers$")


def maginot_line(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    if tokens[0] not in ("tap", "tapbase") or not (m := _PLUS.search(label)):
        return None
    if not game.choices(seat, tokens).complete:
        return None
    gain = int(m.group(1) or m.group(2))

    def markers(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        got = new.pool - old.pool
        return "" if got == gain else f"+{got} markers, the label says +{gain}"
    return markers


# ----- The Knight, the Rogue, the Princess and the Dragon -------------------------------------------
_BEATS = re.compile(r"^Play (\S+) on (\S+) — (.+)$")


def knight_rogue_princess_dragon(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    if not (m := _BEATS.match(label)):
        return None
    said = f"plays {m.group(1)} on {m.group(2)}: {m.group(3)}"

    def beats(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        texts = [e.for_(None) or "" for e in events]
        return "" if any(said in t for t in texts) else f"no event says {said!r}: {texts}"
    return beats


# ----- Warriors of the Celestial Emperor ----------------------------------------------------------
_TARGET = re.compile(r"^Attack the (.+) \((.+)\)$")


def celestial_emperor(game: Any, seat: int, tokens: tuple[str, ...], label: str) -> Check | None:
    if not (m := _TARGET.match(label)):
        return None
    clan, name = m.groups()

    def target(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        texts = " ".join(e.for_(None) or "" for e in events)
        return "" if clan in texts and name in texts else f"the label says {clan} ({name}), events: {texts!r}"
    return target


# ----- hints: the built-in player's reason may predict too ("landing there kills J♥") ---------------
_HINT_KILLS = re.compile(r"kills (.+)$")
_HINT_DEFEATS = re.compile(r"it defeats (.+)'s stack( and knocks them out of the game)?$")


def gridcannon_hint(game: Any, seat: int, tokens: tuple[str, ...], reason: str) -> Check | None:
    if not (m := _HINT_KILLS.search(reason)):
        return None
    killed = {pretty_text(r) for r in m.group(1).split(" and ")}

    def kills(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        died = _dead(new) - _dead(old)
        return "" if died == killed else f"the hint says it kills {sorted(killed)}, apply killed {sorted(died)}"
    return kills


def court_wars_hint(game: Any, seat: int, tokens: tuple[str, ...], reason: str) -> Check | None:
    if not (m := _HINT_DEFEATS.search(reason)):
        return None
    out = bool(m.group(2))
    opp, t = int(tokens[3].partition(":")[0]) - 1, "KQJ".index(tokens[3].partition(":")[2])

    def defeats(old: Any, seat: int, tokens: tuple[str, ...], new: Any, events: list) -> str:
        got = (new.courts[opp][t]["state"] == "defeated", not new.living(opp))
        return "" if got == (True, out) else f"defeated, out: {got}; the hint says {(True, out)}"
    return defeats


HINTS: dict[str, Predict] = {"gridcannon": gridcannon_hint, "court_wars": court_wars_hint}

PREDICTIONS: dict[str, Predict] = {
    "gridcannon": gridcannon, "court_wars": court_wars, "cardchess2": cardchess2,
    "maginot_line": maginot_line, "knight_rogue_princess_dragon": knight_rogue_princess_dragon,
    "celestial_emperor": celestial_emperor,
}
GRIDCANNON_VARIANTS = ((), ("Classic (Old Version)",), ("Ploys First",), ("Lowest Health", "Keep Ploys", "Memory Aid"))
PLAYOUTS = {"gridcannon": 24, "court_wars": 10, "cardchess2": 6, "maginot_line": 4,
            "knight_rogue_princess_dragon": 16, "celestial_emperor": 6}
MAX_STEPS = 160


def options_for(game_id: str, seed: int) -> tuple[str, ...]:
    if game_id == "gridcannon":
        return GRIDCANNON_VARIANTS[seed % len(GRIDCANNON_VARIANTS)]
    return spec(game_id).quick_options


def checked_playout(game_id: str, seed: int, predict: Predict, max_steps: int = MAX_STEPS) -> tuple[int, list[str]]:
    """Play ``seed`` through ``choices``; return how many predictions were checked and every one
    that ``apply`` contradicted."""
    s = spec(game_id)
    rng = random.Random(seed)
    players = [f"P{i + 1}" for i in range(rng.randint(s.min_players, min(s.max_players, 4)))]
    game = s.state.new(players, options_for(game_id, seed), seed=seed)
    checked, wrong = 0, []
    for step in range(max_steps):
        if game.is_over():
            break
        seat = rng.choice(sorted(game.to_act()))
        if game_id in HINTS:
            action, reason = hint(game, seat)
            for n, what in _checked(game, seat, str(action).split(), reason, HINTS[game_id]):
                checked += n
                if what:
                    wrong.append(f"{game_id} seed {seed} step {step}: the hint {what}")
        tokens: tuple[str, ...] = ()
        while True:
            c = game.choices(seat, tokens)
            for tried in _predicting(game, seat, tokens, c, predict):
                n, what = tried
                checked += n
                if what:
                    wrong.append(f"{game_id} seed {seed} step {step}: {what}")
            nxt = candidates(c, rng)
            if c.complete and tokens and (not nxt or rng.random() < 0.25):
                break
            assert nxt, f"dead end after {tokens!r}"
            keep = [t for t in nxt if t not in QUITTING]  # giving up ends the playout too soon
            tokens += (rng.choice(keep or nxt),)
        game, _ = game.apply(seat, " ".join(tokens))
    return checked, wrong


def _predicting(game: Game, seat: int, tokens: tuple[str, ...], c: Choices,
                predict: Predict) -> Iterator[tuple[int, str]]:
    """Each prediction made at this step of the walk: the labels of the offered options, and the
    progress of a complete prefix."""
    made = {tokens + (o.token,): o.label for o in c.options if o.label}
    if c.complete and tokens:
        made.setdefault(tokens, "")
    for played, label in made.items():
        yield from _checked(game, seat, played, label, predict)


def _checked(game: Game, seat: int, played: tuple[str, ...], label: str, predict: Predict) -> Iterator[tuple[int, str]]:
    """Play ``played`` on a copy when ``label`` predicts its outcome, and check the prediction."""
    played = tuple(played)
    check = predict(game, seat, played, label)
    if check is None:
        return
    try:
        new, events = game.apply(seat, " ".join(played))
    except IllegalMove as e:
        yield 1, f"{' '.join(played)!r} ({label}) was offered but refused: {e}"
        return
    what = check(game, seat, played, new, events)
    yield 1, f"{' '.join(played)!r} — {label!r}: {what}" if what else ""


@pytest.mark.parametrize("game_id", sorted(PREDICTIONS))
def test_labels_that_predict_agree_with_apply(game_id: str) -> None:
    checked, wrong = 0, []
    for seed in range(PLAYOUTS[game_id]):
        n, bad = checked_playout(game_id, seed, PREDICTIONS[game_id])
        checked += n
        wrong += bad
    assert not wrong, f"{len(wrong)} of {checked} predictions wrong, first ones:\n" + "\n".join(wrong[:8])
    assert checked >= 20, f"only {checked} predictions met in {game_id}'s playouts: the walk misses its labels"
