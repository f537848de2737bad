"""Typed views of The Maginot Line: every card the recipient may not know is ``HIDDEN``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.core import HIDDEN, Hidden, View, fast_maker

from .battle import battle_values, initiative
from .model import ACE_LIFE, unit_armor, unit_attack, unit_class, unit_life
from .turn import team_of

if TYPE_CHECKING:
    from .rules import MaginotLine

Card = "str | Hidden"


@dataclass(frozen=True)
class UnitView:
    id: str  # the heart component's code names the unit
    h: str
    s: str
    c: str
    queen: str | None
    cls: int  # 1 Light, 2 Medium, 3 Heavy
    life: int
    armor: int
    attack: int
    wounds: int
    tapped: bool
    zone: str  # "patrol" | "guardian"
    new: bool  # assembled this turn


@dataclass(frozen=True)
class AceView:
    position: int
    card: str | Hidden
    wounds: int
    life: int


@dataclass(frozen=True)
class ResourceView:
    card: str
    tapped: bool
    queen: str | None


@dataclass(frozen=True)
class BuildingView:
    card: str | Hidden
    markers: int


@dataclass(frozen=True)
class BoardView:
    seat: int
    name: str
    out: bool
    team: int
    aces_ordered: bool
    base: tuple[AceView, ...]
    base_tapped: bool
    fallen: tuple[str, ...]
    resources: tuple[ResourceView, ...]
    initiative: int
    building: tuple[BuildingView, ...]
    finished: tuple[str, ...]
    units: tuple[UnitView, ...]
    hand: tuple[str | Hidden, ...]
    hand_size: int
    deck_size: int
    discard: tuple[str, ...]


@dataclass(frozen=True)
class CommitView:
    seat: int
    plays: tuple[tuple[str, str], ...]
    tap: str | None
    split: tuple[int, ...]


@dataclass(frozen=True)
class BattleValue:
    """Ruling 32: a unit's or targeted Ace's values in this battle, as B5 will use them (with the
    bonuses of the commits revealed so far: J♣ J♠ J♥ K♣ and base taps; K♠: takes no wounds)."""
    id: str  # a unit's id or an Ace token ``#2@1``
    attack: int  # 0 for an Ace
    armor: int
    temp_life: int
    shielded: bool


@dataclass(frozen=True)
class BattleView:
    attacker: int
    defender: int
    attacks: tuple[tuple[str, str], ...]  # (unit, ace token)
    step: str  # "engage" | "commit"
    engaged: tuple[tuple[str, str], ...]  # (guardian, attacker)
    initiative: tuple[int, int]
    holder: int
    seized: bool
    commits: tuple[CommitView, ...]
    played: tuple[str, ...]
    boosted: tuple[int, ...] = ()  # V3: who used J♦ for Initiative (ruling 28)
    values: tuple[BattleValue, ...] = ()  # ruling 32, from the first commit on


@dataclass(frozen=True)
class MaginotView(View):
    order: tuple[int, ...] = ()  # seats clockwise
    current: int | None = None
    phase: str = ""  # "aces" | "construction" | "battle" | "consolidation" | "over"
    pool: int = 0
    assembled: bool = False
    rounds_done: int = 0
    rounds_limit: int = 0
    options: tuple[str, ...] = ()
    boards: tuple[BoardView, ...] = ()
    battle: BattleView | None = None
    winners: tuple[int, ...] = ()


def _maker(cls: type) -> Any:
    """A fast constructor of a frozen view class taking every field in order: the same object its
    ``__init__`` makes (the fields set in order; none has a ``__post_init__``), without the frozen
    class's one ``object.__setattr__`` per field — boards and units are made at every view."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    assert not hasattr(cls, "__post_init__")
    new = object.__new__

    def make(*values: Any) -> Any:
        obj = new(cls)
        obj.__dict__.update(zip(names, values, strict=True))
        return obj

    return make


_unit = _maker(UnitView)
_ace = _maker(AceView)
_resource = _maker(ResourceView)
_building = _maker(BuildingView)
_board = _maker(BoardView)
_maginot_view = fast_maker(MaginotView)


_KEPT: dict[tuple, Any] = {}  # Aces and resources as viewed: few distinct ones, made once each
KEPT = 8192


def _ace_view(position: int, card: "str | Hidden", wounds: int) -> AceView:
    key = ("ace", position, card, wounds, type(wounds))
    found = _KEPT.get(key)
    if found is None:
        found = _ace(position, card, wounds, ACE_LIFE - wounds)
        if len(_KEPT) < KEPT:
            _KEPT[key] = found
    return found


def _resource_view(card: str, tapped: bool, queen: str | None) -> ResourceView:
    key = ("resource", card, tapped, type(tapped), queen)
    found = _KEPT.get(key)
    if found is None:
        found = _resource(card, tapped, queen)
        if len(_KEPT) < KEPT:
            _KEPT[key] = found
    return found


def unit_view(u: dict) -> UnitView:
    """A unit as viewed: kept by its record's values (a unit's record is copied at every move of
    its owner, its values seldom change), the same frozen view for the same values."""
    wounds, tapped, new = u["wounds"], u["tapped"], u["new"]
    key = (u["h"], u["s"], u["c"], u["queen"], wounds, tapped, u["zone"], new,
           type(wounds), type(tapped), type(new))
    found = _UNITS.get(key)
    if found is None:
        found = _unit(u["h"], u["h"], u["s"], u["c"], u["queen"], unit_class(u), unit_life(u), unit_armor(u),
                      unit_attack(u), wounds, tapped, u["zone"], new)
        if len(_UNITS) >= KEPT:
            _UNITS.clear()
        _UNITS[key] = found
    return found


_UNITS: dict[tuple, UnitView] = {}


def board_view(g: "MaginotLine", s: int, seat: int | None) -> BoardView:
    return _board_view(g, g.boards[s], s, seat == s, g.players[s], team_of(g, s))


def _board_view(g: "MaginotLine", b: dict, s: int, mine: bool, name: str, team: int) -> BoardView:
    base = tuple([_ace_view(i, a["ace"] if mine or a["shown"] else HIDDEN, a["wounds"])
                  for i, a in enumerate(b["base"], 1)])
    hand = b["hand"]
    return _board(
        s, name, b["out"], team, b["ordered"], base, b["base_tapped"], tuple(b["fallen"]),
        tuple([_resource_view(r["card"], r["tapped"], r["queen"]) for r in b["resources"]]), initiative(g, s),
        tuple([_building(c["card"] if mine else HIDDEN, c["markers"]) for c in b["building"]]),
        tuple(b["finished"]), tuple([unit_view(u) for u in b["units"]]),
        tuple(hand) if mine else (HIDDEN,) * len(hand), len(hand), len(b["deck"]), tuple(b["discard"]))


def view(g: "MaginotLine", seat: int | None) -> MaginotView:
    bt = g.battle
    battle = None
    if bt is not None:
        battle = BattleView(
            bt["attacker"], bt["defender"], tuple(tuple(p) for p in bt["attacks"]), bt["step"],
            tuple(tuple(p) for p in bt["engaged"]), tuple(bt["init"]), bt["holder"], bt["seized"],
            tuple(CommitView(c["seat"], tuple(tuple(p) for p in c["plays"]), c["tap"], tuple(c["split"]))
                  for c in bt["commits"]), tuple(bt["played"]), tuple(bt.get("boosted", ())),
            tuple(BattleValue(*x) for x in battle_values(g)) if bt["step"] == "commit" else ())
    return _maginot_view(
        **g.base_view(seat), order=tuple(g.order), current=g.current if g.current >= 0 else None, phase=g.phase,
        pool=g.pool, assembled=g.assembled, rounds_done=g.rounds_done, rounds_limit=g.opts.rounds,
        options=tuple(g.options), boards=tuple(board_view(g, s, seat) for s in range(len(g.players))),
        battle=battle, winners=tuple(g.winners or ()))
