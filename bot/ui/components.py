"""Deckhand's components: one kind a handler, restart-safe.

Each kind is a :class:`discord.ui.DynamicItem` whose custom_id names the table, the revision,
the kind and its argument (``dh2:<table>:<rev>:<kind>:<arg>``), so a button works after a
restart and a stale one is refused. Text boxes carry an id of their own (seat and opening),
so two players' boxes never collide, and a box submitted after a restart is still answered.
"""

from __future__ import annotations

import enum
import re
import secrets
import types
from typing import Any

import discord

PREFIX = "dh2"


class Kind(str, enum.Enum):
    """What a component does. The values are the short strings custom_ids carry."""

    JOIN = "jn"
    LEAVE = "lv"
    START = "st"
    CANCEL = "cx"
    ADD_BOT = "ab"
    HAND = "me"  # the private panel
    SHOW = "sh"  # older table messages' Show table: a private copy
    CONCEDE = "cc"
    SKIP = "sk"
    REMOVE = "rv"
    REMATCH = "rm"
    NEW_GAME = "ng"
    STORY_FILE = "sf"
    STEP = "s"  # a step of building a move
    SELECT = "k"  # a select of the next step
    BATCH = "b"  # a select of whole moves, played in one press in the order offered (values: "NN move")
    PAGE = "p"  # another page of a select
    TEXT = "t"  # opens a text box
    MODAL = "m"  # a text box's submit
    CONFIRM = "ok"  # play the move built so far
    SURE = "y"  # confirm a table action (arg: cc, lv or an for abandon)
    SURE_MOVE = "ym"  # confirm a move that gives the game up
    KEEP = "kp"  # "Keep playing": nothing changes
    # The replay viewer (bot.ui.replay): the table part names a record, the revision the step shown.
    REPLAY = "rp"  # ⏮ ◀ ▶ ⏭ (arg: which one and whose eyes)
    REPLAY_PICK = "rk"  # the move picker, a select paged past 25
    REPLAY_EYES = "re"  # whose eyes to look through, a select
    ABANDON = "an"  # /game abandon, confirmed (only ever the arg of SURE)
    MOVE_DOWN = "md"  # move the table message down the channel (from /game status)

    @property
    def is_table_action(self) -> bool:
        return self in TABLE_ACTIONS


TABLE_ACTIONS = frozenset({Kind.JOIN, Kind.LEAVE, Kind.START, Kind.CANCEL, Kind.ADD_BOT, Kind.CONCEDE, Kind.SKIP,
                           Kind.REMOVE, Kind.REMATCH, Kind.NEW_GAME})

_MODAL_ID = re.compile(rf"^{PREFIX}:(?P<tid>[0-9a-z]+):(?P<rev>\d+):{Kind.MODAL.value}:(?P<arg>.*)$")


class Component:
    """Base of Deckhand's components: the custom_id names table, revision, kind and argument."""

    kind: Kind = Kind.STEP

    def __init__(self, item: discord.ui.Item, tid: str, rev: int, arg: str):
        super().__init__(item)  # type: ignore[call-arg]
        self.tid, self.rev, self.arg = tid, rev, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(item, match["tid"], int(match["rev"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = interaction.client.get_cog("Tables")
        values = list(getattr(self.item, "values", []) or [])  # type: ignore[attr-defined]
        gate = getattr(interaction.client, "turnstile", None)  # the bot's (bot.ui.turnstile)
        if gate is None:
            return await handler.on_component(interaction, self.kind, self.tid, self.rev, self.arg, values)  # type: ignore[union-attr]
        async with gate():
            await handler.on_component(interaction, self.kind, self.tid, self.rev, self.arg, values)  # type: ignore[union-attr]


def template_of(kind: Kind) -> str:
    """The custom_id template of a kind's DynamicItem (its fourth field is the kind's value)."""
    return rf"{PREFIX}:(?P<tid>[0-9a-z]+):(?P<rev>\d+):{kind.value}:(?P<arg>.*)"


def component_class(kind: Kind, select: bool = False, base_class: type[Component] = Component) -> type[Component]:
    """One DynamicItem class per kind of action (join, concede, a step of a move…); ``base_class``
    answers it (the table cog's, unless another part of the Discord layer answers that kind)."""
    template = template_of(kind)
    base = discord.ui.DynamicItem[discord.ui.Select] if select else discord.ui.DynamicItem[discord.ui.Button]

    def body(ns: dict[str, Any]) -> None:
        ns.update(kind=kind, __module__=__name__)

    return types.new_class(f"Component_{kind.name}", (base_class, base), {"template": template}, body)


# The replay viewer's kinds are answered by bot.ui.replay, not by the table cog.
_ELSEWHERE = {Kind.MODAL, Kind.REPLAY, Kind.REPLAY_PICK, Kind.REPLAY_EYES}
COMPONENTS = [component_class(k, select=k in (Kind.SELECT, Kind.BATCH)) for k in Kind if k not in _ELSEWHERE]


def modal_id(tid: str, rev: int, arg: str, seat: int) -> str:
    """A text box's custom_id: its table, decision and draft, plus the seat and this opening, so
    two open boxes never share an id (discord.py keeps open boxes by custom_id alone)."""
    return f"{PREFIX}:{tid}:{rev}:{Kind.MODAL.value}:{arg}|{seat}.{secrets.token_hex(3)}"


def parse_modal_id(custom_id: str) -> tuple[str, int, str] | None:
    """(table, revision, arg) of a text box's custom_id, else None."""
    m = _MODAL_ID.match(custom_id or "")
    if m is None:
        return None
    arg = m["arg"].rpartition("|")[0] if "|" in m["arg"] else m["arg"]
    return m["tid"], int(m["rev"]), arg


class PlainView:
    """A message's components made straight as the dicts discord.py's ``View.to_components()`` makes
    them, for a view of Deckhand's own buttons (and links): every press on it is answered by the
    bot's DynamicItems, so discord.py never keeps it (``bot.app.answered_by_dynamic_items``), and a
    ``discord.ui.View`` with its ``Button`` items would be built only to be turned into these dicts.

    Rows are laid out as the View lays its items out (``_ViewWeights``: an item with a row goes
    there, one without into the first row with room; 25 items at most, five wide a row), and
    ``discord.ui`` items may be added too (their ``to_component_dict()``). It has what discord.py's
    sending calls read of a view — ``to_components()``, ``has_components_v2()``, ``is_finished()``,
    ``is_dispatchable()``, ``timeout`` — and refuses a component discord.py would have to keep (a
    custom_id not Deckhand's)."""

    __discord_ui_view__ = True  # as discord.ui.View: the sending calls accept it as a view
    __slots__ = ("timeout", "_placed", "_weights", "_dispatchable")

    def __init__(self, *, timeout: float | None = None):
        self.timeout = timeout
        self._placed: list[tuple[int, dict[str, Any]]] = []
        self._weights = [0, 0, 0, 0, 0]
        self._dispatchable = False

    def __repr__(self) -> str:
        return f"<PlainView timeout={self.timeout} children={len(self._placed)}>"

    def add(self, component: dict[str, Any], *, row: int | None = None, width: int | None = None) -> PlainView:
        """Add one component's dict (:func:`button`, :func:`select`), as ``View.add_item`` places it
        (a select is a whole row wide, a button one fifth)."""
        if width is None:
            width = 5 if component.get("type") in _SELECTS else 1
        if len(self._placed) >= 25:
            raise ValueError("maximum number of children exceeded")
        if row is not None and not 0 <= row < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        custom_id = component.get("custom_id")
        if custom_id is not None and not str(custom_id).startswith(f"{PREFIX}:"):
            raise ValueError(f"{custom_id!r} is not Deckhand's: discord.py would keep this view (use a View)")
        if row is not None:
            if self._weights[row] + width > 5:
                raise ValueError(f"item would not fit at row {row} ({self._weights[row] + width} > 5 width)")
        else:
            row = next((i for i, w in enumerate(self._weights) if w + width <= 5), None)
            if row is None:
                raise ValueError("could not find open space for item")
        self._weights[row] += width
        self._placed.append((row, component))
        self._dispatchable = self._dispatchable or custom_id is not None or component.get("type") in _SELECTS
        return self

    def held(self) -> tuple[Any, ...]:
        """What this view holds, to make the same view again (:meth:`again`): its component dicts
        themselves (nothing changes one once made), where they are placed, its timeout."""
        return tuple(self._placed), tuple(self._weights), self._dispatchable, self.timeout

    @classmethod
    def again(cls, held: tuple[Any, ...]) -> PlainView:
        """A new view holding what :meth:`held` gave (its own lists: adding to it leaves the other alone)."""
        placed, weights, dispatchable, timeout = held
        view = cls.__new__(cls)
        view.timeout, view._placed, view._weights, view._dispatchable = timeout, list(placed), list(weights), dispatchable
        return view

    def add_item(self, item: discord.ui.Item) -> PlainView:
        """A ``discord.ui`` item (a button or select), as its dict, where the View would put it."""
        return self.add(item.to_component_dict(), row=item.row, width=item.width)

    def to_components(self) -> list[dict[str, Any]]:
        rows: dict[int, list[dict[str, Any]]] = {}
        for row, component in sorted(self._placed, key=lambda p: p[0]):
            rows.setdefault(row, []).append(component)
        return [{"type": 1, "components": children} for children in rows.values()]

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return False  # as a View never stopped (and with no timeout running: discord.py does not keep it)

    def is_dispatchable(self) -> bool:
        return self._dispatchable

    def stop(self) -> None:
        """Nothing to stop: discord.py never listens on it."""


_SELECTS = frozenset({3, 5, 6, 7, 8})  # the select menus' component types (always dispatchable)


def button(*, label: str | None = None, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           custom_id: str | None = None, url: str | None = None, disabled: bool = False,
           emoji: str | None = None) -> dict[str, Any]:
    """A button's dict, as ``discord.ui.Button(...).to_component_dict()`` makes it (key for key, in
    its order): a link when it has a url."""
    if custom_id is not None and url is not None:
        raise TypeError("cannot mix both url and custom_id with Button")
    if custom_id is None and url is None:
        raise TypeError("a button Deckhand sends has a custom_id or a url")
    if url is not None:
        style = discord.ButtonStyle.link
    out: dict[str, Any] = {"type": 2, "style": style.value, "disabled": disabled}
    if label:
        out["label"] = label
    if custom_id:
        out["custom_id"] = custom_id
    if url:
        out["url"] = url
    if emoji is not None:
        out["emoji"] = discord.PartialEmoji.from_str(emoji).to_dict()
    return out


def option(label: str, value: str | None = None, *, description: str | None = None, emoji: str | None = None,
           default: bool = False) -> dict[str, Any]:
    """A select option's dict, as ``discord.SelectOption(...).to_dict()`` makes it."""
    out: dict[str, Any] = {"label": label, "value": label if value is None else value, "default": default}
    if description:
        out["description"] = description
    if emoji is not None:
        out["emoji"] = discord.PartialEmoji.from_str(emoji).to_dict()
    return out


def select(*, custom_id: str, options: list[dict[str, Any]], placeholder: str | None = None, min_values: int = 1,
           max_values: int = 1, disabled: bool = False, required: bool = True) -> dict[str, Any]:
    """A string select's dict (options: :func:`option`), as ``discord.ui.Select(...)`` with those
    options added makes it."""
    if len(options) > 25:
        raise ValueError("maximum number of options already provided")
    out: dict[str, Any] = {"type": 3, "custom_id": custom_id, "min_values": min_values, "max_values": max_values,
                           "disabled": disabled, "required": required}
    if placeholder:
        out["placeholder"] = placeholder
    if options:
        out["options"] = list(options)
    return out


THEN_ID = "then"  # a text box's select of the move that follows its line
LINE_ID = "line:"  # a text box's next line, of the text step named after it (line:wrapup)


def _modal_inputs(interaction: discord.Interaction) -> list[dict[str, Any]]:
    """The input components of a submitted text box, from the raw payload (old action rows of
    text inputs, or labels wrapping one input each)."""
    data: Any = interaction.data or {}
    out: list[dict[str, Any]] = []
    for row in data.get("components", []) or []:
        if not isinstance(row, dict):
            continue
        inner = [row["component"]] if "component" in row else row.get("components", []) or []
        out.extend(c for c in inner if isinstance(c, dict))
    return out


def modal_then(interaction: discord.Interaction) -> str:
    """The move chosen in a text box's select (``THEN_ID``), or "" when it has none."""
    for c in _modal_inputs(interaction):
        if c.get("custom_id") == THEN_ID:
            values = c.get("values") or []
            return str(values[0]) if len(values) == 1 else ""
    return ""


def modal_lines(interaction: discord.Interaction) -> list[tuple[str, str]]:
    """The next lines typed in a text box, (the step's verb, the text), in order."""
    return [(str(c["custom_id"])[len(LINE_ID):], str(c.get("value") or "")) for c in _modal_inputs(interaction)
            if str(c.get("custom_id") or "").startswith(LINE_ID) and "value" in c]


def modal_text(interaction: discord.Interaction) -> str:
    """The text typed in a submitted text box (from the raw payload: works after a restart)."""
    for c in _modal_inputs(interaction):
        if "value" in c:
            return str(c.get("value") or "")
    return ""
