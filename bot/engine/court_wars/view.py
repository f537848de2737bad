"""Court Wars views: everything on the table is public; the draw pile is a count, and its order
is shown only once it is public (the discard pile turned over, not shuffled)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.core import View

Stage = Literal["build", "guard", "joker", "turn", "ace", "over"]


@dataclass(frozen=True)
class PositionView:
    """One of a player's three positions: ``K♠ [8♣ 4♦]``, a defeated court, or a joker on it."""

    letter: str  # K, Q or J
    ref: str  # "2:Q": the notation naming it as a target
    court: str  # the court card's code, e.g. "QH"
    state: Literal["alive", "defeated", "jokered"]
    joker: str | None  # the joker's code on a jokered position
    guards: tuple[str, ...]  # innermost first, outermost last
    attack: int
    defence: int

    @property
    def living(self) -> bool:
        return self.state != "defeated"


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    suit: str  # S, H, D or C
    eliminated: bool
    positions: tuple[PositionView, ...]
    living: int  # living stacks
    total_defence: int
    left: bool = False  # left the game (a forfeit): out, its courts face down, but never defeated in play


@dataclass(frozen=True)
class CourtWarsView(View):
    options: tuple[str, ...] = ()
    seats: tuple[SeatView, ...] = ()
    current: int | None = None  # the seat to act (None once over)
    stage: Stage = "build"
    build_round: int = 0  # 1..3 during the opening build, 0 afterwards
    pending: str | None = None  # the drawn guard or joker waiting for a decision
    first: int = 0  # the seat that picked first
    discard: tuple[str, ...] = ()  # bottom first, top last
    draw_size: int = 0
    draw_pile: tuple[str, ...] | None = None  # top first, only when its order is public
    quiet_rounds: int = 0
    rounds_limit: int = 0
    winners: tuple[int, ...] = ()
    end_reason: str = ""  # "last_standing" | "stalemate" once over

    @property
    def discard_size(self) -> int:
        return len(self.discard)

    @property
    def draw_order_public(self) -> bool:
        return self.draw_pile is not None
