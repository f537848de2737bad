"""A press of a Deckhand component is parsed with its clicked message built only when read
(bot.ui.presses.PressedMessage): once read, that message is the ``discord.Message`` discord.py makes of
the same payload; the press's own road (the table's buttons, the private panel's steps) never
reads more than its id and flags."""

from __future__ import annotations

import copy

import discord

from bot.ui.presses import LeanInteraction, PressedMessage, _pressed_item, pressed_interaction
from tests.discord_helpers import auto_moves, guild_with, no_pictures, press_move, start_by_slash
from tests.test_discord_lean_interaction import assert_as_discord_builds_it


def _same(a, b) -> bool:
    """Equal as discord.py's objects are compared by what they carry."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "to_dict") and hasattr(b, "to_dict"):
        return type(a) is type(b) and a.to_dict() == b.to_dict()
    if isinstance(a, discord.flags.BaseFlags):
        return type(a) is type(b) and a.value == b.value
    if isinstance(a, (discord.abc.User, discord.Guild, discord.abc.GuildChannel)):
        return type(a) is type(b) and a.id == b.id
    return type(a) is type(b) and a == b


def _same_item(item, truth) -> bool:
    """The same discord.ui item: its attributes, and its component's, one by one."""
    def state(i) -> tuple[dict, dict]:
        own = {k: v for k, v in vars(i).items() if k != "_underlying"}
        part = i._underlying
        return own, {k: getattr(part, k, AttributeError) for k in discord.utils.get_slots(type(part))}

    (own, part), (own_truth, part_truth) = state(item), state(truth)
    return (type(item) is type(truth) and type(item._underlying) is type(truth._underlying)
            and own.keys() == own_truth.keys() and all(_same(own[k], own_truth[k]) for k in own)
            and part.keys() == part_truth.keys() and all(_same(part[k], part_truth[k]) for k in part)
            and item.to_component_dict() == truth.to_component_dict())


def _slots(obj) -> dict:
    out = {}
    for name in discord.utils.get_slots(discord.Message):
        try:
            out[name] = getattr(obj, name)
        except AttributeError:
            out[name] = AttributeError
    return out


def _assert_as_discord_builds_it(bot, payload: dict) -> None:
    state = bot._connection
    theirs = discord.Interaction(data=copy.deepcopy(payload), state=state)
    ours = pressed_interaction(state, copy.deepcopy(payload))
    assert ours is not None and type(ours) is LeanInteraction and isinstance(ours, discord.Interaction)
    message = ours.message
    assert type(message) is PressedMessage and isinstance(message, discord.Message)
    # What the press road reads is there before anything is built.
    assert message.id == theirs.message.id and message.flags.value == theirs.message.flags.value
    assert message == theirs.message and hash(message) == hash(theirs.message)
    assert not message._built
    assert ours.message.content == theirs.message.content  # any other read builds it, as discord.py does
    assert message._built
    mine, truth = _slots(message), _slots(theirs.message)
    assert mine.keys() == truth.keys()
    for name in truth:
        assert _same(mine[name], truth[name]), (name, mine[name], truth[name])
    assert [c.to_dict() for c in message.components] == [c.to_dict() for c in theirs.message.components]
    assert [e.to_dict() for e in message.embeds] == [e.to_dict() for e in theirs.message.embeds]
    # The same objects of its own interaction as discord.py's message has of its own.
    assert message.channel is ours.channel and theirs.message.channel is theirs.channel
    assert (message.guild is getattr(ours.user, "guild", None)) == \
        (theirs.message.guild is getattr(theirs.user, "guild", None))
    assert (message.guild is getattr(ours.channel, "guild", None)) == \
        (theirs.message.guild is getattr(theirs.channel, "guild", None))
    assert message.author.id == theirs.message.author.id
    if theirs.channel is not None:
        assert message.jump_url == theirs.message.jump_url
    # The rest of the interaction is discord.py's own, from the same payload.
    for name in ("id", "type", "data", "token", "guild_id", "application_id", "locale", "guild_locale",
                 "_app_permissions", "_permissions", "filesize_limit"):
        assert _same(getattr(ours, name), getattr(theirs, name)), name
    assert repr(ours.context) == repr(theirs.context)
    assert ours.user == theirs.user and isinstance(ours.user, type(theirs.user))
    assert _same(ours.channel, theirs.channel)
    assert_as_discord_builds_it(ours, theirs)  # every slot of the interaction and of its member
    # Every component of the message is found as discord.py's message.components hold it.
    found = 0
    for row in theirs.message.components:
        for c in getattr(row, "children", (row,)):
            if getattr(c, "custom_id", None) is None:
                continue
            probe = pressed_interaction(state, dict(copy.deepcopy(payload), data={
                "custom_id": c.custom_id, "component_type": c.type.value}))
            assert probe is not None
            item = _pressed_item(c.type.value, probe, c.custom_id)
            assert not probe.message._built
            truth_item = discord.ui.view._component_to_item(c)
            assert _same_item(item, truth_item), (item, truth_item)
            found += 1
    assert found
    assert _pressed_item(2, ours, "dh2:none:1:me:") is None  # a component the message does not hold


def _other_payloads(payload: dict) -> list[dict]:
    out = []
    not_ours = copy.deepcopy(payload)
    not_ours["data"]["custom_id"] = "someone-else"
    out.append(not_ours)
    no_message = copy.deepcopy(payload)
    del no_message["message"]
    out.append(no_message)
    no_member = copy.deepcopy(payload)
    no_member.pop("member", None)
    out.append(no_member)
    return out


async def test_the_clicked_message_read_is_discord_pys_and_the_press_road_never_builds_it(standin, bot,
                                                                                          monkeypatch):
    no_pictures(monkeypatch)
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")

    # Every payload the stand-in sends for a press (the table's buttons, the panel's steps) is kept.
    payloads: list[dict] = []
    interact = standin.interact

    async def kept(bot_, payload, **kw):
        if payload.get("type") == 3:
            payloads.append(copy.deepcopy(payload))
        return await interact(bot_, payload, **kw)

    monkeypatch.setattr(standin, "interact", kept)
    built: list[int] = []
    build = PressedMessage._build

    def counted(self):
        built.append(self.id)
        return build(self)

    monkeypatch.setattr(PressedMessage, "_build", counted)
    made: list[int] = []
    init = PressedMessage.__init__

    def noted(self, **kw):
        init(self, **kw)
        made.append(self.id)

    monkeypatch.setattr(PressedMessage, "__init__", noted)
    async for _, _, seat, move in auto_moves(bot, channel, 6):
        await press_move(standin, bot, channel, move, users[seat])
        await standin.settle(bot)
    assert len(payloads) >= 6
    assert len(made) == len(payloads), "a press went through discord.py's own parser"
    assert built == [], "a press's road built the clicked message"
    monkeypatch.setattr(PressedMessage, "_build", build)
    monkeypatch.setattr(PressedMessage, "__init__", init)

    public = [p for p in payloads if not int(p["message"].get("flags") or 0) & 64]
    private = [p for p in payloads if int(p["message"].get("flags") or 0) & 64]
    assert public and private
    for payload in (public[-1], private[-1]):
        _assert_as_discord_builds_it(bot, payload)
    # A message without a guild of its own is given the interaction's, as discord.py does.
    guildless = copy.deepcopy(public[-1])
    guildless["message"].pop("guild_id", None)
    guildless.pop("channel", None)  # no channel either: nothing else gives the message a guild
    theirs = discord.Interaction(data=copy.deepcopy(guildless), state=bot._connection)
    assert theirs.channel is None and theirs.message.guild is theirs.user.guild is not None
    _assert_as_discord_builds_it(bot, guildless)
    for other in _other_payloads(public[-1]):
        assert pressed_interaction(bot._connection, other) is None


async def test_a_press_answered_after_its_message_was_read_is_unchanged(standin, bot, monkeypatch):
    """Reading the clicked message anywhere on the road (here: every press's) changes nothing."""
    no_pictures(monkeypatch)
    read: list[tuple[int, int]] = []
    build = PressedMessage._build

    def noted(self):
        build(self)
        read.append((self.id, len(self.components)))

    monkeypatch.setattr(PressedMessage, "_build", noted)
    async def reads_the_message(interaction: discord.Interaction) -> None:
        if interaction.message is not None:
            assert interaction.message.embeds is not None

    bot.add_listener(reads_the_message, "on_interaction")
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")
    moves = 0
    async for _, _, seat, move in auto_moves(bot, channel, 4):
        res = await press_move(standin, bot, channel, move, users[seat])
        moves += res is not None
    assert moves and read and all(n > 0 for _, n in read)
