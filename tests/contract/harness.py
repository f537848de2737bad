"""The contract harness: random playouts driven only through ``choices``, with every step checked.

Used by ``test_contract.py`` against every registered game. A game joins these checks the day
it is registered: nothing here knows a rule.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from bot.engine.cards import Card
from bot.engine.core import Choices, Game, IllegalMove, _field_names
from bot.engine.determinize import card_universe, redeal
from bot.engine.registry import GameSpec
from bot import records
from bot.records import make_record, replay
from bot.render import renderer

# Card names as a recipient could read them: codes (7H, TD, JK, 8H@1) and pretty (7♥, 10♦).
_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC](?:@\d)?|JK\d?(?:@\d)?)(?![A-Za-z0-9])")
_PRETTY = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

COUNTS: Counter = Counter()  # (game id, figure) -> count, for the report (playouts, steps, leak checks…)
QUITTING = {"resign", "concede", "forfeit", "leave"}  # figures for the report (playouts, steps, leak checks)
# Checked in full (renders, re-deals, refusals compared, the built-in pick compared): the first
# FULL_FIRST steps of each kind in a playout, then each later step of that kind at the rate
# FULL_RATE, drawn from a generator seeded with the playout's seed. Long games repeat the same
# kinds of step hundreds of times: this keeps every kind checked in full in every playout while
# the cost stays linear in the distinct kinds, not the steps. Views, events, logs and every step
# of each walk through the picker are checked at every step.
FULL_FIRST = 2
FULL_RATE = 0.2


@functools.lru_cache(maxsize=4096)
def faces(cards: frozenset[str]) -> frozenset[str]:
    """``8H@1`` → ``8H``: what a pretty name can tell apart (the same sets recur: cached)."""
    return frozenset(c.partition("@")[0] for c in cards)


# Both, in one pass. The leading look-ahead (every name starts with one of these characters) only
# skips, cheaply, the places where neither could start: the same matches, several times faster than
# trying the look-behinds at every character.
_ANY = re.compile(r"(?=[1-9TJQKA])(?:(?<![A-Za-z0-9])([2-9TJQKA][SHDC](?:@\d)?|JK\d?(?:@\d)?)(?![A-Za-z0-9])"
                  r"|(?<![0-9])(10|[2-9JQKA])([♠♥♦♣]))")


@functools.lru_cache(maxsize=1 << 16)
def named_cards(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(codes, faces) named in ``text`` (one pass; texts repeat from step to step, so results are
    cached)."""
    codes, pretty = set(), set()
    for code, rank, suit in _ANY.findall(text):
        if code:
            codes.add(code)
        else:
            pretty.add(("T" if rank == "10" else rank) + _SUIT[suit])
    return frozenset(codes), frozenset(pretty)


_LEAVES = frozenset({int, float, bool, type(None)})


def view_strings(x: Any, out: set[str] | None = None, skip: str = "") -> set[str]:
    """Every string a typed view carries (card codes included): what a recipient could be shown.
    Blind to field names; ``skip`` names a field of ``x`` itself to leave out. A card name never
    spans two strings, so checking each string alone is the same as checking them joined."""
    out = set() if out is None else out
    add = out.add
    leaves = _LEAVES
    if skip:
        stack = [getattr(x, name) for name in x.__dataclass_fields__ if name != skip]
    else:
        stack = [x]
    pop, push = stack.pop, stack.append
    while stack:
        x = pop()
        t = type(x)
        if t is str:
            add(x)
            continue
        if t is tuple or t is list:
            items = x
        elif t in leaves:
            continue
        elif isinstance(x, str):
            add(x)
            continue
        elif isinstance(x, Card):
            add(x.code)
            continue
        elif isinstance(x, (tuple, list, set, frozenset)):
            items = x
        elif isinstance(x, dict):
            stack.extend(x.keys())
            items = x.values()
        elif hasattr(x, "__dataclass_fields__"):
            # A dataclass: its instance dict holds every field (and anything cached beside them).
            d = getattr(x, "__dict__", None)
            items = d.values() if d is not None else [getattr(x, name) for name in x.__dataclass_fields__]
        else:
            continue
        for v in items:
            tv = type(v)
            if tv is str:
                add(v)
            elif tv not in leaves:
                push(v)
    return out


def changed_strings(part: Any, ref: Any, out: set[str], depth: int = 3) -> None:
    """The strings of ``part`` not shown to be in the same place of ``ref`` (a view already
    checked against less knowledge): equal parts are skipped; unequal tuples (item by item, as
    far as the reference reaches: a log or a story that grew is compared on what it had) and
    dataclasses (not cards) are compared part by part ``depth`` levels down, then read whole."""
    if part == ref:
        return
    t = type(part)
    if depth and t is type(ref):
        if t is tuple:
            n = len(ref)
            if n < len(part) and part[:n] == ref:  # grown: only the new items are read
                view_strings([part[n:]], out)
                return
            for a, b in zip(part, ref, strict=False):  # part may be longer (its rest is read below) or shorter
                changed_strings(a, b, out, depth - 1)
            if n < len(part):
                view_strings([part[n:]], out)
            return
        if hasattr(part, "__dataclass_fields__") and not isinstance(part, Card):
            for name in part.__dataclass_fields__:
                changed_strings(getattr(part, name), getattr(ref, name), out, depth - 1)
            return
    view_strings([part], out)


class Knowledge:
    """What one recipient may know now, ready for fast checks."""

    def __init__(self, known: frozenset[str], all_cards: frozenset[str], all_faces: frozenset[str]):
        self.known, self.all_cards, self.all_faces = known, all_cards, all_faces
        self._faces: set[str] | None = None

    @property
    def known_faces(self) -> set[str]:
        if self._faces is None:
            self._faces = faces(self.known)
        return self._faces

    def with_(self, extra: frozenset[str]) -> "Knowledge":
        return Knowledge(self.known | extra, self.all_cards, self.all_faces) if extra else self


def assert_no_leak(text: str, k: Knowledge, what: str) -> None:
    assert_none_leak((text,), k, what)


def assert_none_leak(texts: Iterable[str], k: Knowledge, what: str) -> None:
    """No text names a card (by code or by face) outside what ``k`` may know."""
    codes: set[str] = set()
    pretty: set[str] = set()
    for text in texts:
        c, p = named_cards(text)
        if c:
            codes |= c
        if p:
            pretty |= p
    leaked = (codes & k.all_cards) - k.known  # only strings that really are cards of this game
    assert not leaked, f"{what} names {sorted(leaked)} which it may not know"
    faces_named = pretty & k.all_faces
    if faces_named:
        leaked_faces = faces_named - k.known_faces
        assert not leaked_faces, f"{what} names {sorted(leaked_faces)} which it may not know"


def candidates(c: Choices, rng: random.Random) -> list[str]:
    if c.kind == "token":
        return c.tokens()
    if c.kind == "range":
        return [str(rng.randint(c.lo, c.hi))] if c.hi >= c.lo else []
    if c.kind == "set":
        toks = c.tokens()
        hi = min(c.hi, len(toks))
        if hi < c.lo:
            return []
        k = rng.randint(c.lo, hi)
        return [",".join(sorted(rng.sample(toks, k), key=toks.index))]
    if c.kind == "text":
        words = ["the", "knight", "rode", "north", "and", "sang", "a", "song"]
        n = rng.randint(1 if c.required else 0, 6)
        text = " ".join(rng.choice(words) for _ in range(n))
        return [text[: c.max_len or 200] or "quiet"]
    return []


def random_action(game: Game, seat: int, rng: random.Random, first: Choices | None = None,
                  trail: list[tuple[tuple[str, ...], Choices]] | None = None) -> str:
    """Walk ``choices`` to a complete action, a random option each step. A dead end fails.
    ``first``: ``game.choices(seat, ())``, when already worked out; ``trail`` receives every
    step walked, as (prefix, choices)."""
    tokens: tuple[str, ...] = ()
    for _ in range(200):
        c = first if first is not None and not tokens else game.choices(seat, tokens)
        if trail is not None:
            trail.append((tokens, c))
        nxt = candidates(c, rng)
        if c.complete and tokens and (not nxt or rng.random() < 0.25):
            return " ".join(tokens)
        assert nxt, f"dead end in choices after {tokens!r}: {c}"
        # Giving up (resign, concede, a "danger" option) is offered but rarely taken, so random
        # games last long enough to reach every part of the rules.
        quitting = {o.token for o in c.options if o.style == "danger" or o.token in QUITTING}
        keep = [t for t in nxt if t not in quitting]
        if keep and (len(keep) < len(nxt)) and rng.random() > 0.01:
            nxt = keep
        tokens += (rng.choice(nxt),)
    raise AssertionError(f"choices never completed: {tokens!r}")


@dataclass
class Walk:
    """A random walk through a seat's picker to a complete action, every step kept."""

    action: str
    trail: list[tuple[tuple[str, ...], Choices]]

    @classmethod
    def of(cls, game: Game, seat: int, rng: random.Random) -> "Walk":
        trail: list[tuple[tuple[str, ...], Choices]] = []
        action = random_action(game, seat, rng, trail=trail)
        return cls(action, trail)

    def near_misses(self, universe: frozenset[str], rng: random.Random, n: int = 1) -> list[str]:
        """``n`` actions a player might type instead: the walked one with a token swapped for
        another offered somewhere on the walk or a random card of the game (seen or not), or
        one token too many. Most are refused; the refusals are compared."""
        tokens = self.action.split()
        pool = sorted({t for _, c in self.trail for t in c.tokens()} | set(rng.sample(sorted(universe), 3)))
        out = []
        for _ in range(n):
            if tokens and rng.random() < 0.7:
                i = rng.randrange(len(tokens))
                out.append(" ".join(tokens[:i] + [rng.choice(pool)] + tokens[i + 1:]))
            else:
                out.append(" ".join(tokens + [rng.choice(pool)]))
        return out


def choice_strings(c: Choices) -> list[str]:
    """Every string a picker step shows or carries: prompt, progress, tokens, labels, data."""
    out = [c.prompt, str(c.progress) if c.progress is not None else ""]
    for o in c.options:
        out += (o.token, o.label)
        if o.data is not None and not isinstance(o.data, (int, float, bool)):
            out += view_strings(o.data)
    return out


def refusal(game: Game, seat: int, action: str) -> tuple[str, str] | None:
    """The rule and the reason ``game`` gives for refusing ``action`` by ``seat`` (``None``:
    accepted)."""
    try:
        game.apply(seat, action)
    except IllegalMove as e:
        return e.rule, str(e)
    return None


@dataclass
class Playout:
    spec: GameSpec
    players: int
    seed: int
    check_redeal: bool = True
    max_steps: int = 20000
    options: tuple[str, ...] = ()
    bot_seat: int | None = None  # a seat played by the built-in player (its actions checked too)
    moves: list[list[Any]] = field(default_factory=list)
    ever: dict[Any, set[str]] = field(default_factory=dict)  # cards each recipient has known
    public_known: frozenset[str] = frozenset()  # what the public may know at the step being checked
    # each recipient's view when it was last checked for leaks, and what it knew then
    last_checked: dict[int | None, tuple[Any, frozenset[str]]] = field(default_factory=dict)
    walked: dict[int, Walk] = field(default_factory=dict)  # each deciding seat's random walk there
    redealt: dict[int, Game] = field(default_factory=dict)  # the state re-dealt for each deciding seat there
    full_first: int = FULL_FIRST  # see FULL_FIRST and FULL_RATE (a rate of 1: every step in full)
    full_rate: float = FULL_RATE
    kinds: Counter = field(default_factory=Counter)  # kinds of step met in this playout -> steps so far

    def names(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.players)]

    @property
    def render(self) -> Any:
        """The game's render module (text, panel)."""
        return renderer(self.spec.id)

    def count(self, figure: str, n: int = 1) -> None:
        COUNTS[(self.spec.id, figure)] += n

    def run(self) -> Game:
        rng = self._rng = random.Random(self.seed)
        self.sampler = random.Random(f"full checks {self.seed}")  # apart from ``rng``: the same games are played
        spec = self.spec
        game = spec.state.new(self.names(), self.options, seed=self.seed)
        assert game.to_json() == spec.state.new(self.names(), self.options, seed=self.seed).to_json(), \
            "not deterministic"
        universe = card_universe(game)
        states = [game.to_json()]
        self.check_step(game, [], universe, rng, states[0])
        steps = 0
        while not game.is_over():
            steps += 1
            assert steps <= self.max_steps, f"no end after {self.max_steps} actions"
            deciding = game.decisions()
            assert deciding, "a game that is not over has someone to act"
            seat = rng.choice(sorted({d.seat for d in deciding}))
            if rng.random() < 0.05:
                self.check_refusals(game, seat, rng)
            if seat == self.bot_seat:
                pick = rng.random()
                action = str(spec.player(game, seat, random.Random(pick)))
                if seat in self.redealt:  # the same pick where what the seat cannot see was re-dealt
                    theirs = str(spec.player(self.redealt[seat], seat, random.Random(pick)))
                    assert theirs == action, f"the built-in player peeked: {action!r} vs {theirs!r}"
                    self.count("built-in picks compared")
            else:
                action = self.walked[seat].action  # the walk whose every step check_step read
            try:
                new, events = game.apply(seat, action)
            except IllegalMove as e:
                raise AssertionError(f"choices offered {action!r} but apply refused it: {e}") from None
            parsed = game.parse(seat, action)
            assert str(parsed) == " ".join(action.split()) or parsed == game.parse(seat, str(parsed)), \
                f"notation does not round-trip: {action!r} -> {str(parsed)!r}"
            self.moves.append([seat, action])
            assert as_stored(game) == states[-1], "apply changed the state it was given"
            game = new
            data = game.to_json()
            states.append(data)
            if self.check_step(game, events, universe, rng, data):
                text = json.dumps(data, sort_keys=True)
                again = type(game).from_json(json.loads(text))
                assert json.dumps(again.to_json(), sort_keys=True) == text, "JSON round trip changed the state"
        self.count("playouts")
        # Replaying the record reproduces every state: the record's start, then each state
        # bot.records.replay passes through, compared as it is reached.
        record = make_record(game, self.moves)
        start = spec.state.new(record["players"], record["options"], seed=record["seed"])
        assert start.to_json() == states[0], "the record's start differs"
        with replay_states(states) as reached:
            replayed = replay(record)
        assert reached == [len(self.moves)], "the replay did not apply every move of the record"
        assert replayed.to_json() == game.to_json()
        return game

    def shown(self, view: Any) -> tuple[str, str]:
        """The text render and the panel of ``view`` without its log (the log is checked on its
        own, against what the recipient has ever known): what they show of where cards are now."""
        bare = dataclasses.replace(view, recent=())
        return self.render.text(bare), self.render.panel(bare).as_text()

    def check_step(self, game: Game, events: list[Any], universe: frozenset[str], rng: random.Random,
                   data: dict[str, Any] | None = None) -> bool:
        """Every recipient's view, log and events; every step of a random walk through each
        deciding seat's picker; then, at a step checked in full (see FULL_FIRST), every recipient's
        text render and panel and, on a state re-dealt for the public and for each deciding seat,
        the same view, renders, picker, refusals and built-in pick (and, in ``run``, the JSON round
        trip). A seat not deciding has its view and log read at the steps checked in full; its
        events at every step. Whether this step was checked in full."""
        self.count("steps")
        all_faces = frozenset(faces(universe))
        to_act = game.to_act()
        views: dict[int | None, Any] = {}
        knowns: dict[int | None, frozenset[str]] = {}
        walked = self.walked = {}
        self.redealt = {}
        self._to_act = to_act
        deciders = [None, *sorted(to_act)]  # (the walks draw from ``rng`` in this order)
        for r in deciders:
            self.check_recipient(game, r, events, universe, all_faces, rng, views, knowns)
        full = self.in_full(game, walked)
        for r in range(self.players):
            if r not in to_act:
                self.check_recipient(game, r, events, universe, all_faces, rng, views, knowns, full)
        if not full:
            if self.check_redeal:
                for r in deciders:  # the draws a re-deal takes: the game goes on as in full
                    self.skip_redeal_of(r, universe, knowns[r])
            return False
        shown: dict[int | None, tuple[str, str]] = {}
        for r, view in views.items():
            shown[r] = self.shown(view)
            assert_none_leak(shown[r], Knowledge(knowns[r], universe, all_faces), f"the text render or panel of {r}")
        self.count("renders checked", len(shown))
        if self.check_redeal:
            for r in [None, *sorted(to_act)]:
                self.check_redeal_of(game, r, universe, rng, views[r], shown[r], walked.get(r), knowns[r], data)
        return True

    def check_recipient(self, game: Game, r: int | None, events: list[Any], universe: frozenset[str],
                        all_faces: frozenset[str], rng: random.Random, views: dict[int | None, Any],
                        knowns: dict[int | None, frozenset[str]], view_too: bool = True) -> None:
        """What ``r`` reads this step: its view less the log (``view_too``), the events, the log
        (``view_too``), and every step of a walk through its picker when it decides."""
        known = knowns[r] = game.known(r)
        if r is None:
            self.public_known = known
        k = Knowledge(known, universe, all_faces)
        if view_too:
            view = views[r] = game.view(r)
            # Where cards are now: the view, less its log of what happened.
            public = None if r is None else views[None]
            assert_none_leak(self.strings_to_check(view, known, public, universe, r), k, f"the view of {r}")
            self.last_checked[r] = (view, known)
        ever = self.ever.setdefault(r, set())
        ever.update(known)
        for e in events:
            text = e.for_(r)
            if text:
                # Each event is judged as it happens: against what the state lets its reader
                # know after the step, and what the event itself says it shows (a card an attack
                # shows may be back in a hand by the step's end). Another line naming that card
                # must say so too.
                revealed = e_revealed(e)
                assert_no_leak(text, k.with_(revealed), f"an event for {r}")
                ever.update(revealed)
        if view_too:
            # The log tells history: it may name a card the recipient once knew (a discard later
            # shuffled away), never one it never knew. Games whose history becomes secret (a card
            # chosen into a hidden trick) redact their log themselves, and test it.
            assert_none_leak(views[r].recent, Knowledge(frozenset(ever), universe, all_faces), f"the log of {r}")
            self.count("leak checks")
        if r is not None and r in self._to_act:
            # Every step of a random walk through the picker (the acting seat then plays it).
            w = self.walked[r] = Walk.of(game, r, random.Random(rng.random()))
            for prefix, c in w.trail:
                assert_none_leak(choice_strings(c), k, f"the choices of {r} after {prefix!r}")
            self.count("picker steps checked", len(w.trail))

    def step_kind(self, game: Game, walked: dict[int, "Walk"]) -> tuple[Any, ...]:
        """What kind of step this is: the decisions open (by name) and the verb of each walked
        action (the first token when it is one of the game's verbs)."""
        verbs = _verbs(self.spec)
        decisions = tuple(sorted(d.name for d in game.decisions()))
        acts = tuple(sorted(w.action.split(" ", 1)[0] if w.action.split(" ", 1)[0] in verbs else "·"
                            for w in walked.values()))
        return decisions, acts, game.is_over()

    def in_full(self, game: Game, walked: dict[int, "Walk"]) -> bool:
        """Whether this step is checked in full (FULL_FIRST, FULL_RATE)."""
        kind = self.step_kind(game, walked)
        seen = self.kinds[kind]
        self.kinds[kind] += 1
        if not seen:
            self.count("step kinds")
        full = seen < self.full_first or self.sampler.random() < self.full_rate
        self.count("steps checked in full" if full else "steps checked in part")
        return full

    def skip_redeal_of(self, seat: int | None, universe: frozenset[str], known: frozenset[str]) -> None:
        """Take from ``rng`` what :meth:`check_redeal_of` would (one draw for the re-deal, one
        for the near misses of a deciding seat), without the checks."""
        rng = self._rng
        rng.random()
        if seat is not None and len(universe - known) >= 2:
            rng.random()

    def strings_to_check(self, view: Any, known: frozenset[str], public: Any, universe: frozenset[str],
                         r: int | None = None) -> set[str]:
        """The strings of ``view`` (its log aside) that could name a card its recipient may not
        know. None when it may know every card. A part equal to the same part of a view already
        checked against no more than the recipient knows now (this step's public view, else this
        recipient's view when it was last checked) is left out: its strings passed against less
        knowledge, so they name only cards the recipient may know."""
        if universe <= known:
            return set()
        ref = None
        if public is not None and type(public) is type(view) and self.public_known <= known:
            ref = public
        else:
            last = self.last_checked.get(r)
            if last is not None and type(last[0]) is type(view) and last[1] <= known:
                ref = last[0]
        if ref is None:
            return view_strings(view, skip="recent")
        out: set[str] = set()
        for name in view.__dataclass_fields__:
            if name != "recent":
                changed_strings(getattr(view, name), getattr(ref, name), out)
        return out

    def check_redeal_of(self, game: Game, seat: int | None, universe: frozenset[str], rng: random.Random,
                        view: Any = None, shown: tuple[str, str] | None = None, walk: Walk | None = None,
                        known: frozenset[str] | None = None, data: dict[str, Any] | None = None) -> None:
        """Re-deal what ``seat`` (``None``: the public) cannot see: its view, text render and
        panel stay the same; for a deciding seat also every step of its walk through the picker
        (options, labels, prompts) and its refusals of near-miss actions (the built-in player's
        pick is compared in ``run``, where it plays). ``view``, ``shown``, ``walk``, ``known``
        and ``data`` (the state's JSON): already worked out this step."""
        other = redeal(game, seat, random.Random(rng.random()), universe, known, data)
        if other is game:
            return
        view = game.view(seat) if view is None else view
        theirs = other.view(seat)
        assert theirs == view or repr(theirs) == repr(view), "the view changed when unseen cards moved"
        assert self.shown(theirs) == (self.shown(view) if shown is None else shown), \
            "the text render or panel changed when unseen cards moved"
        self.count("re-deals")
        if seat is None:
            return
        walk = Walk.of(game, seat, random.Random(rng.random())) if walk is None else walk
        for prefix, c in walk.trail:
            assert other.choices(seat, prefix) == c, \
                f"choices after {prefix!r} changed when cards the seat cannot see were re-dealt"
        for action in walk.near_misses(universe, random.Random(rng.random())):
            told = [refusal(g, seat, action) for g in (game, other)]
            # Compared, not read for card names: a refusal may name a card as a rule does ("Only J♦
            # from your hand adds to a tap") or as notation help; naming where a hidden card is
            # would change with the re-deal.
            assert told[0] == told[1], f"{action!r}: refused differently when unseen cards moved: {told}"
            self.count("refusals compared")
        self.redealt[seat] = other

    def check_refusals(self, game: Game, seat: int, rng: random.Random) -> None:
        before = json.dumps(game.to_json(), sort_keys=True)
        action = random_action(game, seat, random.Random(rng.random()))
        idle = [s for s in range(self.players) if s not in game.to_act()]
        bad_inputs = [(seat, "✗ not a move ✗"), (seat, "x" * 5000), (seat, "!forfeit"), (seat, "")]
        if idle:
            bad_inputs.append((idle[0], action))
        bad_inputs.append((self.players + 3, action))
        for who, text in bad_inputs:
            try:
                game.apply(who, text)
            except IllegalMove as e:
                assert str(e) and len(str(e)) < 500, "a refusal is one short sentence"
            else:
                raise AssertionError(f"{text[:40]!r} by seat {who} was accepted")
        assert json.dumps(game.to_json(), sort_keys=True) == before, "a refusal changed the state"
        self.count("refusal checks")


@contextlib.contextmanager
def replay_states(states: list[dict[str, Any]]) -> Iterator[list[int]]:
    """While open, each state :func:`bot.records.replay` reaches (a logged move applied) is
    compared with ``states`` (its start at 0): the i-th with ``states[i]``, as it is reached, so
    one replay checks every state and the product's own replay is the one checked. Yields a list
    holding how many states were compared (read it after the block)."""
    original = records.apply_logged
    reached = [0]

    def checked(game: Game, seat: int, move: str) -> Game:
        out = original(game, seat, move)
        reached[0] += 1
        i = reached[0]
        assert i < len(states) and as_stored(out) == states[i], f"replay differs at action {i}"
        return out

    records.apply_logged = checked
    try:
        yield reached
    finally:
        records.apply_logged = original


_VERBS: dict[str, frozenset[str]] = {}


def _verbs(spec: GameSpec) -> frozenset[str]:
    """The verbs of ``spec``'s actions (looked up once per game)."""
    if spec.id not in _VERBS:
        _VERBS[spec.id] = frozenset(a.verb for a in spec.actions)
    return _VERBS[spec.id]


def as_stored(game: Game) -> dict[str, Any]:
    """``game.to_json()`` without its deep copy, for comparing (equal exactly when ``to_json()``
    is: ``_state`` is by contract a deep copy of every field, keeping every value and type; a
    game's own faster ``_state`` is held equal to the core's by that game's tests)."""
    if type(game).to_json is not Game.to_json:
        return game.to_json()
    return {"format": game.state_version, "game": game.game_id,
            "state": {name: getattr(game, name) for name in _field_names(type(game))}}


def e_revealed(event: Any) -> frozenset[str]:
    """Cards an event shows its readers as it happens: what it says it reveals (older events:
    what their typed payload lists)."""
    reveals = getattr(event, "reveals", ())
    if reveals:
        return frozenset(reveals)
    data = getattr(event, "data", None)
    if isinstance(data, dict):
        data = data.get("revealed")
    if isinstance(data, str):
        data = [data]
    if isinstance(data, (list, tuple, set, frozenset)):
        return frozenset(c for c in data if isinstance(c, str) and _CODE.fullmatch(c))
    return frozenset()
