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

from bot.tables.offers import THEN

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
    REPLAY_SHARE = "rs"  # post the step shown publicly (always the public view)
    REPLAY_OPEN = "ro"  # a shared moment's button: the viewer, privately, at that step
    ABANDON = "an"  # /game abandon, confirmed (only ever the arg of SURE)
    MOVE_DOWN = "md"  # move the table message down the channel (from /game status)
    INVITE = "iw"  # a DM table's "Invite a watcher" (answered by cogs.watch)
    STOP_WATCHING = "xw"  # a watcher message's "Stop watching" (answered by cogs.watch)
    LESSON = "ln"  # a lesson's own buttons (bot.ui.lessons; the table part names the lesson)


# The lobby and table buttons (bot.ui.play's table_action answers them).
TABLE_ACTIONS = frozenset({Kind.JOIN, Kind.LEAVE, Kind.START, Kind.CANCEL, Kind.ADD_BOT, Kind.CONCEDE, Kind.SKIP,
                           Kind.REMOVE, Kind.REMATCH, Kind.NEW_GAME})

_MODAL_ID = re.compile(rf"^{PREFIX}:(?P<tid>[0-9a-z]+):(?P<rev>\d+):{Kind.MODAL.value}:(?P<arg>.*)$")


class Component:
    """Base of Deckhand's components: the custom_id names table, revision, kind and argument."""

    kind: Kind = Kind.STEP

    def __init__(self, item: discord.ui.Item, tid: str, rev: int, arg: str, *, row: int | None = None):
        super().__init__(item, row=row)  # type: ignore[call-arg]
        self.tid, self.rev, self.arg = tid, rev, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(item, match["tid"], int(match["rev"]), match["arg"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A press Discord delivers twice is answered once (the second is let go here)."""
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = interaction.client.get_cog("Tables")
        values = list(getattr(self.item, "values", []) or [])  # type: ignore[attr-defined]
        await handler.on_component(interaction, self.kind, self.tid, self.rev, self.arg, values)  # type: ignore[union-attr]


class Delivered:
    """The ids of the last ``size`` interactions delivered to this process: Discord may deliver one
    twice (as a gateway session resumes), and the second, often in flight with the first, must not
    be answered again (a restart in between is the store's to tell: it remembers moves and table
    actions with their interaction)."""

    def __init__(self, size: int = 4096):
        self.size = size
        self.ids: dict[int, None] = {}

    def first(self, interaction_id: int) -> bool:
        """True the first time an id is seen (while it is among the last ``size``)."""
        if interaction_id in self.ids:
            return False
        self.ids[interaction_id] = None
        if len(self.ids) > self.size:
            del self.ids[next(iter(self.ids))]
        return True


def first_delivery(interaction: discord.Interaction) -> bool:
    """Whether this process sees this interaction for the first time (the bot's :class:`Delivered`)."""
    delivered = getattr(interaction.client, "delivered", None)
    return delivered is None or delivered.first(interaction.id)


def template_of(kind: Kind) -> str:
    """The custom_id template of a kind's DynamicItem (its fourth field is the kind's value)."""
    return rf"{PREFIX}:(?P<tid>[0-9a-z]+):(?P<rev>\d+):{kind.value}:(?P<arg>.*)"


CLASSES: dict[Kind, type[Component]] = {}  # each kind's DynamicItem class (the replay viewer's too)


def component_class(kind: Kind, select: bool = False, base_class: type[Component] = Component) -> type[Component]:
    """One DynamicItem class per kind of action (join, concede, a step of a move…); ``base_class``
    answers it (the table cog's, unless another part of the Discord layer answers that kind)."""
    template = template_of(kind)
    base = discord.ui.DynamicItem[discord.ui.Select] if select else discord.ui.DynamicItem[discord.ui.Button]

    def body(ns: dict[str, Any]) -> None:
        ns.update(kind=kind, __module__=__name__)

    made = types.new_class(f"Component_{kind.name}", (base_class, base), {"template": template}, body)
    CLASSES[kind] = made
    return made


# The replay viewer's kinds are answered by bot.ui.replay, not by the table cog.
_ELSEWHERE = {Kind.MODAL, Kind.REPLAY, Kind.REPLAY_PICK, Kind.REPLAY_EYES, Kind.REPLAY_SHARE, Kind.REPLAY_OPEN}
COMPONENTS = [component_class(k, select=k in (Kind.SELECT, Kind.BATCH)) for k in Kind if k not in _ELSEWHERE]
TEMPLATES = [re.compile(template_of(k)) for k in Kind if k is not Kind.MODAL]  # every kind a press may name


def answered_here(interaction: discord.Interaction, templates: list[re.Pattern[str]]) -> bool:
    """Whether a press will be answered by one of the bot's DynamicItems: its custom_id matches one of
    their ``templates`` and the clicked message holds it (discord.py answers nothing else)."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not any(t.fullmatch(custom_id) for t in templates):
        return False
    message = interaction.message
    held = {getattr(c, "custom_id", None) for row in (message.components if message else [])
            for c in getattr(row, "children", [row])}
    return custom_id in held


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


def dynamic(inner: discord.ui.Button | discord.ui.Select, row: int | None = None) -> discord.ui.Item:
    """A button or select of Deckhand's (custom_id ``dh2:<table>:<rev>:<kind>:<arg>``) as its kind's
    DynamicItem: a view made only of these is not kept by discord.py (its presses are answered by
    the kind's class, after a restart too). A link button stays as it is."""
    custom_id = inner.custom_id if inner.is_dispatchable() else None
    if custom_id is None or not custom_id.startswith(f"{PREFIX}:"):
        if row is not None:
            inner.row = row
        return inner
    _, tid, rev, kind, arg = custom_id.split(":", 4)
    return CLASSES[Kind(kind)](inner, tid, int(rev), arg, row=row)


def button(*, label: str | None = None, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           custom_id: str | None = None, url: str | None = None, disabled: bool = False,
           emoji: str | None = None, row: int | None = None) -> discord.ui.Item:
    """One of Deckhand's buttons (a DynamicItem, :func:`dynamic`), or a link when it has a url."""
    return dynamic(discord.ui.Button(label=label, style=style, custom_id=custom_id, url=url, disabled=disabled,
                                     emoji=emoji), row)


def option(label: str, value: str | None = None, *, description: str | None = None, emoji: str | None = None,
           default: bool = False) -> discord.SelectOption:
    return discord.SelectOption(label=label, value=label if value is None else value, description=description,
                                emoji=emoji, default=default)


def select(*, custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None, min_values: int = 1,
           max_values: int = 1, disabled: bool = False, row: int | None = None) -> discord.ui.Item:
    """One of Deckhand's string selects (a DynamicItem, :func:`dynamic`)."""
    return dynamic(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder,
                                     min_values=min_values, max_values=max_values, disabled=disabled), row)


class Sent(discord.ui.View):
    """A message's components, sent and never listened to: each press reaches its DynamicItem (one
    class a kind, registered once with ``add_dynamic_items``, so presses work after a restart too).
    Stopped when made, so discord.py keeps no copy of it: a view it stores (one for every message
    sent with one) would stay alive for good, and every full collection of the garbage collector
    walked them all (bench: event loop held at most)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    """A message's components (see :class:`Sent`)."""
    view = Sent()
    for item in items:
        view.add_item(item)
    return view


def add(view: discord.ui.View, item: discord.ui.Item, row: int | None = None) -> None:
    if row is not None:
        item.row = row
    view.add_item(item)


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


def modal_moves(interaction: discord.Interaction) -> tuple[list[str], list[str]]:
    """A text box's next lines as moves (``verb line``, up to the first left empty; all written: then the
    move chosen in its select, the pass after a line), and those lines as typed."""
    moves: list[str] = []
    typed: list[str] = []
    for verb, line in modal_lines(interaction):
        line = " ".join(line.split())
        if not line:
            return moves, typed
        moves.append(f"{verb} {line}")
        typed.append(line)
    then = modal_then(interaction)
    return moves + ([then] if then and THEN not in then.split() else []), typed


def modal_text(interaction: discord.Interaction) -> str:
    """The text typed in a submitted text box (from the raw payload: works after a restart)."""
    for c in _modal_inputs(interaction):
        if "value" in c:
            return str(c.get("value") or "")
    return ""
