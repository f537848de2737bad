"""Gridcannon's typed views. The one player (and anyone watching) sees every table zone; the
draw pile is a count, plus (Memory Aid) the cards knowingly sent to its bottom."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core import View


@dataclass(frozen=True)
class CellView:
    cell: str  # r1c1 .. r3c3
    stack: tuple[str, ...]  # bottom -> top
    top: str | None
    height: int


@dataclass(frozen=True)
class SlotView:
    slot: str  # T1 .. R3
    state: str  # "empty" | "living" | "dead"
    royal: str | None = None
    base: int = 0
    armour: tuple[str, ...] = ()
    health: int = 0
    attack: int | None = None  # what its attackers would do now (living royals only)


@dataclass(frozen=True)
class PloyView:
    card: str
    spent: bool


@dataclass(frozen=True)
class GridcannonView(View):
    options: tuple[str, ...] = ()
    classic: bool = False
    stage: str = ""  # where the game is, in plain words ("draw", "place the drawn card", …)
    prompt: str = ""  # what the player should do now, in plain words
    grid: tuple[CellView, ...] = ()
    slots: tuple[SlotView, ...] = ()
    stash: tuple[PloyView, ...] = ()
    set_aside: tuple[str, ...] = ()
    cycle: tuple[str, ...] = ()
    pending: str | None = None
    searching: bool = False
    deck: int = 0  # cards in the draw pile (face down)
    memory: tuple[str, ...] | None = None  # Memory Aid: known bottom cards, next drawn first
    shame: tuple[str, ...] | None = None  # Classic only
    kills: int = 0
    living: int = 0
    ploys_spent: int = 0
    unspent_in_stash: int = 0
    max_score: int | None = None
    score_so_far: int = 0
    won: bool = False
    score: int | None = None  # the final score once won
    last_lines: int = 0  # how many of ``recent`` (the newest) the latest move wrote

    @property
    def latest(self) -> tuple[str, ...]:
        """The lines the latest move wrote."""
        return self.recent[-self.last_lines:] if self.last_lines else ()
