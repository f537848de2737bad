"""Plain words everywhere players read (issue 12).

Seeded playouts of every registered game, walked through ``choices``; at each step every string a
player could read is gathered — the public and each seat's rendered panel, text, hand and status;
each recipient's event texts; decision prompts, choice prompts and option labels; ``waiting_for``;
refusals (garbage, bare verbs, moves out of turn, moves gone stale); the outcome summary — and
checked as the engine and the renderers write it, before any layer restyles it:
no card codes (``KS``, ``TD``, ``JK``), no seat:card codes (``1:K``), no notation shorthands
(``T = 1``, ``rem 4``), no internal names (``SETUP_ROYALS``), no ``the The``; a sentence (event,
refusal, prompt) starts with a capital.
"""

from __future__ import annotations

import ast
import inspect
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine.core import Choices, Game, IllegalMove
from bot.engine.registry import GAME_IDS, spec
from bot.render import renderer
from tests.contract.harness import candidates
from tests.contract.test_contract import random_variants

SEEDS = int(os.environ.get("DECKHAND_PLAIN_SEEDS", "3"))
MAX_STEPS = 400  # steps looked at per playout (enough to reach every phase; keeps the test quick)

CHECKS: list[tuple[str, re.Pattern[str]]] = [
    ("card code", re.compile(r"(?<![\w@#/])(?:10|[2-9TJQKA])[SHDC](?![\w])|\bJK2?\b")),
    ("seat:card code", re.compile(r"\b\d:(?:10|[2-9TJQKA])\b")),
    ("shorthand", re.compile(r"\bT = \d|\brem \d|\b[A-Z] = \d")),
    ("internal name", re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")),
    ("the The", re.compile(r"\b[Tt]he [Tt]he\b")),
    ("field dump", re.compile(r"\b[a-z_]+=\w|\b(?:True|False)\b|\bNone\b(?! of)")),
]
STORY = "Once upon a time the road ran north."  # a player's own line (players' words are theirs)


_CODE_SPAN = re.compile(r"`[^`\n]*`")


def problems(text: str, sentence: bool = False) -> list[str]:
    """What is wrong with ``text`` as plain words (empty: fine). Notation a player types, shown in
    a `code span` (a refusal teaching the written form), is exempt; the words around it are not."""
    words = _CODE_SPAN.sub("`…`", text)
    found = [f"{name}: {m.group(0)!r}" for name, pat in CHECKS for m in pat.finditer(words)]
    if sentence:
        first = words.lstrip(" *_>•-–—(")
        if first[:1].islower():  # a line may open with a quote of the player's own words
            found.append("starts lowercase")
    return found


def _text_choice(c: Choices, rng: random.Random) -> list[str]:
    """The contract's random choice, with a story line that reads as a sentence."""
    return [STORY[: c.max_len or 200]] if c.kind == "text" else candidates(c, rng)


def _walk(game: Game, seat: int, rng: random.Random, said: list[tuple[str, str, bool]]) -> str:
    """A random complete action through ``choices``, noting every prompt and label offered."""
    tokens: tuple[str, ...] = ()
    for _ in range(200):
        c = game.choices(seat, tokens)
        if c.prompt:
            said.append(("choice prompt", c.prompt, True))
        if c.progress is not None:
            said.append(("progress", str(c.progress), False))
        for o in c.options:
            said.append(("option label", o.label or o.token, False))
        nxt = _text_choice(c, rng)
        if c.complete and tokens and (not nxt or rng.random() < 0.25):
            break
        quitting = {o.token for o in c.options if o.style == "danger" or o.token in ("resign", "concede", "forfeit")}
        keep = [t for t in nxt if t not in quitting]
        tokens += (rng.choice(keep or nxt),)
    return " ".join(tokens)


def _refusal(game: Game, seat: int, move: str, said: list[tuple[str, str, bool]]) -> None:
    try:
        game.apply(seat, move)
    except IllegalMove as e:
        said.append(("refusal", str(e), True))


def _renders(game: Game, seat: int | None) -> Iterator[tuple[str, str]]:
    r = renderer(game.game_id)
    view = game.view(seat)
    yield "panel", r.panel(view).as_text()
    if "with_picture" in inspect.signature(r.panel).parameters:
        yield "panel without a picture", r.panel(view, with_picture=False).as_text()
    if hasattr(r, "alt_text"):
        yield "alt text", r.alt_text(view)
    yield "text", r.text(view)
    for name in ("hand_text", "status"):
        fn = getattr(r, name, None)
        if fn is not None:
            yield name, fn(view)


def playout_texts(game_id: str, players: int, seed: int) -> list[tuple[str, str, bool]]:
    """Every (where, text, is_a_sentence) a player could read over one seeded playout."""
    s = spec(game_id)
    rng = random.Random(seed)
    options = (*random_variants(s, players, random.Random(seed)), *s.quick_options)
    game = s.state.new([f"P{i + 1}" for i in range(players)], options, seed=seed)
    said: list[tuple[str, str, bool]] = []
    stale: list[str] = []
    for step in range(MAX_STEPS):
        if game.is_over():
            break
        recipients: list[int | None] = [None, *range(players)] if step % 3 == 0 else [None]
        for who in recipients:
            said += [(f"{where} ({'public' if who is None else f'seat {who}'})", t, False)
                     for where, t in _renders(game, who)]
        said.append(("waiting for", game.waiting_for(), True))
        for d in game.decisions():
            if d.prompt:
                said.append(("decision prompt", d.prompt, True))
        seat = rng.choice(sorted(game.to_act()))
        move = _walk(game, seat, rng, said)
        if step % 4 == 0:
            _refusal(game, seat, "xyzzy plugh", said)
            for verb in sorted({m.split()[0] for m in stale[-6:]}):
                _refusal(game, seat, verb, said)
            for old in stale[-6:]:
                if old != move:
                    _refusal(game, seat, old, said)
            others = [p for p in range(players) if p not in game.to_act()]
            if others:
                _refusal(game, others[0], move, said)
        game, events = game.apply(seat, move)
        stale.append(move)
        for e in events:
            for who in [None, *range(players)]:
                t = e.for_(who)
                if t:
                    said.append(("event", t, True))
    out = game.outcome() if game.is_over() else None
    if out is not None and out.summary:
        said.append(("outcome", out.summary, True))
    if game.is_over():
        for who in [None, *range(players)]:
            said += [(where, t, False) for where, t in _renders(game, who)]
    return said


def report(game_id: str, seeds: int = SEEDS) -> dict[str, set[str]]:
    """Offending strings of a game: problem → the strings (a line each) that show it."""
    s = spec(game_id)
    counts = sorted({s.min_players, s.max_players})
    bad: dict[str, set[str]] = {}
    found: dict[tuple[str, bool], list[str]] = {}  # the same lines recur from step to step: each read once
    for i in range(seeds):
        for where, text, sentence in playout_texts(game_id, counts[i % len(counts)], 7000 + i):
            lines = text.splitlines() if not sentence else [text]
            for line in lines:
                key = (line, sentence)
                if key not in found:
                    found[key] = problems(line, sentence)
                for p in found[key]:
                    bad.setdefault(f"{where.split(' (')[0]} — {p}", set()).add(line[:160])
    return bad


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_string_a_player_reads_is_plain(game_id):
    bad = report(game_id)
    shown = "\n".join(f"{k}: {sorted(v)[:3]}" for k, v in sorted(bad.items()))
    assert not bad, f"{game_id}: not plain words:\n{shown}"


def test_the_checks_catch_what_the_issue_names():
    for text in ("You play KS.", "P1 has TD", "1:K beats 2:Q", "T = 1", "rem 4 cards", "SETUP_ROYALS",
                 "the The Knight", "JK is wild", "state=3"):
        assert problems(text), text
    for text in ("You play K♠.", "P1 has 10♦.", "The Knight draws a card.", "Royals: 3 of 4 placed.",
                 "A1 and b2", "As the sun rose"):
        assert not problems(text, sentence=True), text
    assert problems("you play K♠.", sentence=True)


# ----- refusals that cite the rules ----------------------------------------------------------
SEE = re.compile(r"see /game rules section: ([^)]+)\)")
CITES = re.compile(r"\brulings? \d|§ ?\d|\brule R\d")


def refusal_texts(game_id: str) -> list[tuple[str, str]]:
    """Every refusal written in the game's package, as (where, its fixed words): the string parts
    of each ``IllegalMove(...)`` reason (an f-string's fields read as ``{}``)."""
    package = Path(__file__).resolve().parent.parent / "bot" / "engine" / game_id
    out = []
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove" and node.args):
                out.append((f"{path.name}:{node.lineno}", _words(node.args[0])))
    return out


def _words(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_words(v) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _words(node.left) + _words(node.right)
    return "{}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_refusals_citing_a_ruling_link_a_real_rules_section(game_id):
    """A refusal that cites a ruling says the rule in words and links the section of the rules the
    bot ships (``/game rules`` shows them section by section); its fixed words are plain."""
    sections = {h for h, _ in spec(game_id).rules_sections()}
    found = refusal_texts(game_id)
    assert found, "no refusals found: the scan is broken"
    for where, words in found:
        linked = SEE.findall(words)
        if CITES.search(words):
            assert linked, f"{where}: cites a ruling without naming the rules section: {words!r}"
        for name in linked:
            assert name in sections, f"{where}: no section {name!r} in the rules ({sorted(sections)})"
        assert not problems(words.replace("{}", "x")), f"{where}: {words!r}: {problems(words)}"


# ----- the recent moves, once -------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_public_panel_does_not_repeat_the_recent_moves(game_id):
    """The table message shows the last public moves above the panel; the panel itself does not
    list them again (a seat's own view may: no recent moves are put above it)."""
    s = spec(game_id)
    r = renderer(game_id)
    rng = random.Random(11)
    game = s.state.new([f"P{i + 1}" for i in range(s.min_players)], s.quick_options, seed=11)
    looked = 0
    for _ in range(120):
        if game.is_over():
            break
        view = game.view(None)
        shown = {line.strip() for line in view.recent[-4:] if len(line.strip()) > 8}
        lines = {line.strip().strip("*") for line in r.panel(view).as_text().splitlines()}
        assert not shown & lines, f"the panel repeats recent moves: {sorted(shown & lines)}"
        looked += bool(shown)
        seat = rng.choice(sorted(game.to_act()))
        game, _ = game.apply(seat, _walk(game, seat, rng, []))
    assert looked > 3


if __name__ == "__main__":  # a quick look at what a game still gets wrong
    import sys

    for gid in sys.argv[1:] or GAME_IDS:
        for key, lines in sorted(report(gid, int(os.environ.get("N", "2"))).items()):
            print(f"[{gid}] {key} ({len(lines)}):")
            for line in sorted(lines)[:6]:
                print("     ", line)
