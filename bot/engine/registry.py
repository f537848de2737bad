"""Game id -> :class:`GameSpec`. Every other layer finds games here, never by importing one.

A game package registers itself by exposing ``SPEC`` in ``bot.engine.<id>``; the ids listed
in :data:`GAME_IDS` are the rulebooks' file names.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from importlib import resources
from types import ModuleType

from bot.engine.core import Action, Game, Outcome
from bot.engine.options import Options

GAME_IDS: tuple[str, ...] = ("gridcannon", "court_wars", "celestial_emperor", "knight_rogue_princess_dragon", "cardchess2",
                             "maginot_line")

BuiltInPlayer = Callable[[Game, int, random.Random], "Action | str"]


def _no_rematch_rule(n: int, last_first: int, outcome: Outcome | None) -> int | None:
    return None


@dataclass(frozen=True)
class GameSpec:
    """Everything outside the engine needs to know about a game.

    ``rematch_first(n, last_first, outcome)`` is the rulebook's series rule (who starts the
    next game; ``None``: at random). ``solo_concede`` offers a table **Concede** (a forfeit)
    while the game has no concede action of its own. ``export_seed`` says whether a finished
    game's record may carry its seed to players (no, where choices stay secret for ever).
    """

    state: type[Game]
    options: type[Options]
    player: BuiltInPlayer
    actions: tuple[type[Action], ...]
    command: str  # the slash-command group, e.g. "court-wars"
    # Declared once, by the game's state class (``game_id``, ``credit``, ``summary``) unless given here.
    id: str = ""
    credit: str = ""
    summary: str = ""
    rematch_first: Callable[[int, int, Outcome | None], int | None] = _no_rematch_rule
    solo_concede: bool = False
    export_seed: bool = True
    story: bool = False  # the game tells a story (a story file at the end)
    seat_names: tuple[str, ...] = field(default_factory=tuple)
    # Declared once, by the game's state class (``Game.title`` and its player counts): read from it.
    title: str = field(init=False)
    min_players: int = field(init=False)
    max_players: int = field(init=False)
    # Settings that keep a game between random players short (a round-limit safeguard, lowered),
    # for test playouts and simulations that must finish quickly; never used at a real table.
    quick_options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, declared in (("id", "game_id"), ("credit", "credit"), ("summary", "summary")):
            if not getattr(self, name):
                object.__setattr__(self, name, getattr(self.state, declared))
        object.__setattr__(self, "title", self.state.title)
        object.__setattr__(self, "min_players", self.state.min_players)
        object.__setattr__(self, "max_players", self.state.max_players)

    def rules_text(self, lang: str = "en") -> str:
        """The rules as players read them, shipped beside the engine: ``rules.<lang>.md`` for a
        language (``"es"``, ``"de"``), ``rules.md`` (English) when the language has none."""
        return resources.files(f"bot.engine.{self.id}").joinpath(rules_file(self.id, lang)).read_text(encoding="utf-8")

    def rules_sections(self, lang: str = "en") -> list[tuple[str, str]]:
        """The rules split at ``## `` headings: (heading, body) pairs, the intro first. Every
        language's rulebook has the same sections in the same order, so an index names one section
        in all of them."""
        sections: list[tuple[str, str]] = []
        head, body = self.title, []
        for line in self.rules_text(lang).splitlines():
            if line.startswith("## "):
                sections.append((head, "\n".join(body).strip()))
                head, body = line[3:].strip(), []
            elif line.startswith("# ") and not sections and not body:
                head = line[2:].strip()
            else:
                body.append(line)
        sections.append((head, "\n".join(body).strip()))
        return [(h, b) for h, b in sections if b]

    def section_index(self, ask: str, lang: str = "en") -> int | None:
        """Which section ``ask`` names: its number (from 1, as the rulebook lists them), its heading
        in ``lang`` or its English heading (a lesson written in English still finds it); None if none."""
        want = " ".join(ask.split()).lower()
        heads = [h.lower() for h, _ in self.rules_sections(lang)]
        if want.isdigit():
            return int(want) - 1 if 1 <= int(want) <= len(heads) else None
        if want in heads:
            return heads.index(want)
        english = [h.lower() for h, _ in self.rules_sections()]
        return english.index(want) if want in english and len(english) == len(heads) else None


def rules_file(game_id: str, lang: str = "en") -> str:
    """The name of the rulebook a reader of ``lang`` reads: ``rules.es.md`` when the game ships it,
    else ``rules.md`` (English, the source)."""
    if lang and lang != "en" and lang.isalpha():
        name = f"rules.{lang}.md"
        if resources.files(f"bot.engine.{game_id}").joinpath(name).is_file():
            return name
    return "rules.md"


_SPECS: dict[str, GameSpec] = {}


def spec(game_id: str) -> GameSpec:
    """The spec of ``game_id``; KeyError with a readable message for an unknown id."""
    found = _SPECS.get(game_id)
    if found is not None:
        return found
    if game_id not in GAME_IDS:
        shown = game_id if len(game_id) <= 40 else game_id[:39] + "…"
        raise KeyError(f"Unknown game {shown!r}. Games: {', '.join(GAME_IDS)}.")
    found = importlib.import_module(f"bot.engine.{game_id}").SPEC
    _SPECS[game_id] = found
    return found


def player_module(game_id: str) -> ModuleType:
    """A game's built-in player module (its ``auto_move``, and ``hint`` or ``REASONS``): found here,
    like the game itself, never imported by name elsewhere."""
    spec(game_id)  # a registered game (KeyError otherwise)
    return importlib.import_module(f"bot.engine.{game_id}.player")


def specs() -> list[GameSpec]:
    return [spec(g) for g in GAME_IDS]


def load_state(data: dict) -> Game:
    """A game state from its stored JSON (any registered game)."""
    return spec(str(data.get("game"))).state.from_json(data)


def with_article(article: str, title: str) -> str:
    """``"a"`` or ``"the"`` before a game's title without doubling its own: "the Maginot Line",
    "a Court Wars" (never "the The Maginot Line")."""
    return f"{article} {title[4:]}" if title.startswith("The ") else f"{article} {title}"


def sample_views(moves: int = 40, seed: int = 1) -> list[tuple[str, str, Any]]:
    """A public and a seat view of every game a few moves in (played by the built-in players), as
    ``(kind, game_id, view)``: what the picture processes draw once to warm up."""
    out: list[tuple[str, str, Any]] = []
    for game_id in GAME_IDS:
        s = spec(game_id)
        game = s.state.new([f"Player {i + 1}" for i in range(max(2, s.min_players))][: s.max_players], (),
                           seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over() or not game.to_act():
                break
            seat = min(game.to_act())
            game, _ = game.apply(seat, str(s.player(game, seat, rng)))
        out += [("table", game_id, game.view(None)), ("seat", game_id, game.view(0))]
    return out
