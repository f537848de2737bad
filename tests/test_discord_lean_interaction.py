"""A slash command and a press of a Deckhand component are parsed into a
(bot.ui.presses.LeanInteraction) whose member is a LeanMember: the parts no press reads (the
entitlements, the integrations, the context, the locales; the member's roles, times, status,
avatar, flags) are built when first read. Once read, every slot is the one discord.py makes of the
same payload; the press's and the slash command's roads never read them."""

from __future__ import annotations

import copy

import discord
import pytest

from bot.ui import presses
from bot.ui.presses import (INTERACTION_LATER, MEMBER_LATER, LeanInteraction, LeanMember, PressedMessage,
                            command_interaction, pressed_interaction)
from tests.discord_helpers import auto_move_for, auto_moves, guild_with, no_pictures, press_move, start_by_slash

_MISSING = object()


def _slots(obj, cls, skip=()) -> dict:
    out = {}
    for name in discord.utils.get_slots(cls):
        if name in skip:
            continue
        try:
            out[name] = getattr(obj, name)
        except AttributeError:
            out[name] = _MISSING
    return out


def _same(a, b) -> bool:
    """Equal as discord.py's objects are compared by what they carry."""
    if a is b:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, discord.flags.BaseFlags):
        return type(a) is type(b) and a.value == b.value
    if isinstance(a, discord.User):
        return type(a) is type(b) and _same_slots(a, b, discord.User)
    if isinstance(a, (discord.Guild, discord.abc.GuildChannel, discord.abc.PrivateChannel, discord.Thread)):
        return type(a) is type(b) and a.id == b.id and _same_slots(a, b, type(a), skip=("_state", "guild", "_guild",
                                                                                             "me", "recipients"))
    if type(a) is type(b) and type(a).__eq__ is object.__eq__ and list(discord.utils.get_slots(type(a))):
        return _same_slots(a, b, type(a))  # compared by identity otherwise (a ClientStatus, a context…)
    return type(a) is type(b) and a == b


def _same_slots(a, b, cls, skip=()) -> bool:
    mine, truth = _slots(a, cls, skip), _slots(b, cls, skip)
    return mine.keys() == truth.keys() and all(_same(mine[k], truth[k]) for k in truth)


def _unset(obj, names) -> list[str]:
    """The names among ``names`` whose discord.py slot is not set yet (read without building)."""
    out = []
    for name in names:
        try:
            getattr(type(obj), name).slot.__get__(obj, type(obj))
        except AttributeError:
            out.append(name)
    return out


def assert_as_discord_builds_it(ours: discord.Interaction, theirs: discord.Interaction) -> None:
    """Every slot of the interaction, and of its member (its user's too), equal to discord.py's
    once read; the message is compared by its own test (tests/test_discord_lazy_press.py)."""
    assert type(ours) is LeanInteraction and isinstance(ours, discord.Interaction)
    mine, truth = _slots(ours, discord.Interaction, skip=("message",)), _slots(theirs, discord.Interaction,
                                                                                skip=("message",))
    assert mine.keys() == truth.keys()
    for name in truth:
        if name == "user" and isinstance(truth[name], discord.Member):
            continue
        assert _same(mine[name], truth[name]), (name, mine[name], truth[name])
    assert (ours.message is None) == (theirs.message is None)
    if isinstance(theirs.user, discord.Member):
        member, truth_member = ours.user, theirs.user
        assert type(member) is LeanMember and isinstance(member, discord.Member)
        assert member == truth_member and hash(member) == hash(truth_member)
        assert member.guild is ours.guild and truth_member.guild is theirs.guild
        assert _same_slots(member, truth_member, discord.Member, skip=("guild",))
        assert member.roles == truth_member.roles and member.display_avatar == truth_member.display_avatar
        assert member.guild_permissions == truth_member.guild_permissions
    assert ours.permissions == theirs.permissions and ours.app_permissions == theirs.app_permissions
    assert repr(ours.context) == repr(theirs.context) and ours.locale is theirs.locale
    assert _same(ours.guild, theirs.guild) and ours.channel_id == theirs.channel_id


def assert_lean_then_the_same(bot, payload: dict, make) -> discord.Interaction:
    """``make`` (the parser's road) builds the payload lean; read, it is discord.py's."""
    state = bot._connection
    theirs = discord.Interaction(data=copy.deepcopy(payload), state=state)
    ours = make(state, copy.deepcopy(payload))
    assert ours is not None
    # What a press reads is there before anything later is built.
    assert _unset(ours, INTERACTION_LATER) == list(INTERACTION_LATER)
    for name in ("id", "type", "data", "token", "version", "guild_id", "application_id", "filesize_limit",
                 "_permissions", "_app_permissions"):
        assert _same(getattr(ours, name), getattr(theirs, name)), name
    assert ours.user == theirs.user and ours.user.id == theirs.user.id
    assert ours.user.display_name == theirs.user.display_name and ours.permissions == theirs.permissions
    assert _same(ours.channel, theirs.channel) and ours.channel_id == theirs.channel_id
    if isinstance(ours.user, LeanMember):
        assert _unset(ours.user, MEMBER_LATER) == list(MEMBER_LATER)
    assert _unset(ours, INTERACTION_LATER) == list(INTERACTION_LATER)
    assert_as_discord_builds_it(ours, theirs)
    assert _unset(ours, INTERACTION_LATER) == []
    assert not isinstance(ours.user, LeanMember) or _unset(ours.user, MEMBER_LATER) == []
    # Each later part read first builds them all, as discord.py has them.
    for name in INTERACTION_LATER:
        again = make(state, copy.deepcopy(payload))
        assert _same(getattr(again, name), getattr(theirs, name)), name
        assert _unset(again, INTERACTION_LATER) == []
    if isinstance(theirs.user, discord.Member):
        for name in MEMBER_LATER:
            again = make(state, copy.deepcopy(payload))
            user = again.user._user
            assert _same(getattr(again.user, name), getattr(theirs.user, name)), name
            assert again.user._user is user  # the user already read stays the member's
    return ours


def _variants(payload: dict) -> list[dict]:
    """The payload from a DM, and from a channel the bot has not cached (built from the payload)."""
    dm = copy.deepcopy(payload)
    member = dm.pop("member")
    for key in ("guild_id", "guild", "guild_locale"):
        dm.pop(key, None)
    dm["user"] = member["user"]
    dm["context"] = 1
    dm["channel"] = {"id": "1" + dm["channel"]["id"][1:], "type": 1, "last_message_id": None, "flags": 0,
                     "recipients": [member["user"]]}
    if isinstance(dm.get("message"), dict):
        dm["message"].pop("guild_id", None)
        dm["message"]["channel_id"] = dm["channel"]["id"]
    unknown = copy.deepcopy(payload)
    unknown["channel"] = dict(unknown["channel"], id="4" + unknown["channel"]["id"][1:], name="elsewhere")
    member = copy.deepcopy(payload)  # a member with roles, a nick, an avatar and a boost
    member["member"].update(nick="Nick", avatar="a" * 32, premium_since="2026-02-01T00:00:00+00:00",
                            roles=[member["guild_id"]], communication_disabled_until="2026-03-01T00:00:00+00:00")
    no_context = copy.deepcopy(payload)
    for key in ("context", "guild_locale", "locale", "entitlements", "authorizing_integration_owners"):
        no_context.pop(key, None)
    return [dm, unknown, member, no_context]


async def test_slash_commands_and_presses_are_lean_and_read_as_discord_builds_them(standin, bot, monkeypatch):
    no_pictures(monkeypatch)
    payloads: list[dict] = []
    interact = standin.interact

    async def kept(bot_, payload, **kw):
        payloads.append(copy.deepcopy(payload))
        return await interact(bot_, payload, **kw)

    monkeypatch.setattr(standin, "interact", kept)
    later: list[str] = []
    for cls in (LeanInteraction, LeanMember):
        build = cls._build_later

        def noted(self, build=build):
            later.append(type(self).__name__)
            return build(self)

        monkeypatch.setattr(cls, "_build_later", noted)
    made: list[int] = []
    from_data = LeanInteraction._from_data

    def counted(self, data):
        made.append(int(data["type"]))
        return from_data(self, data)

    monkeypatch.setattr(LeanInteraction, "_from_data", counted)
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line")
    async for _, _, seat, move in auto_moves(bot, channel, 4):
        await press_move(standin, bot, channel, move, users[seat])
        await standin.settle(bot)
    for seed in range(2):
        seat, move = await auto_move_for(bot, channel, seed)
        await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
        await standin.settle(bot)
    slashes = [p for p in payloads if p["type"] == 2]
    presses = [p for p in payloads if p["type"] == 3]
    assert len(slashes) >= 5 and len(presses) >= 4
    assert sorted(made) == sorted(p["type"] for p in payloads), "an interaction went through discord.py's parser"
    assert later == [], "the road of a press or a slash command built what it does not read"
    monkeypatch.undo()

    for payload in (slashes[0], slashes[-1]):
        assert_lean_then_the_same(bot, payload, command_interaction)
        for other in _variants(payload):
            assert_lean_then_the_same(bot, other, command_interaction)
    for payload in (presses[0], presses[-1]):
        ours = assert_lean_then_the_same(bot, payload, pressed_interaction)
        assert type(ours.message) is PressedMessage and not ours.message._built
        for other in _variants(payload):
            ours = assert_lean_then_the_same(bot, other, pressed_interaction)
            theirs = discord.Interaction(data=copy.deepcopy(other), state=bot._connection)
            assert ours.message.guild is getattr(ours.user, "guild", None) or ours.message.guild is theirs.message.guild
            assert (ours.message.guild is None) == (theirs.message.guild is None)


@pytest.mark.parametrize("kind", [1, 4, 5])
async def test_other_interactions_are_left_to_discord_py(standin, bot, kind):
    g, users = guild_with(standin, ["ana"])
    res_payloads: list[dict] = []
    interact = standin.interact

    async def kept(bot_, payload, **kw):
        res_payloads.append(copy.deepcopy(payload))
        return await interact(bot_, payload, **kw)

    standin.interact = kept
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
    payload = dict(copy.deepcopy(res_payloads[0]), type=kind)
    assert command_interaction(bot._connection, payload) is None
    assert pressed_interaction(bot._connection, payload) is None
    no_member = copy.deepcopy(res_payloads[0])
    del no_member["member"]
    assert command_interaction(bot._connection, no_member) is None


async def _presses(tmp_path, monkeypatch, *, lean: bool) -> tuple[list, int]:
    """Slash commands and presses (the table's buttons, the private panel's steps) of one seeded
    game of Maginot Line, each one's requests at the stand-in; ``lean=False``: every interaction
    through discord.py's own parser."""
    import secrets

    from bot.app import DeckhandBot
    from tests.discord_helpers import no_deferral_deadline
    from bot.standin import GUILD_READY_TIMEOUT, logged_in, running_standin
    from tests.test_discord_slash_road import Canonical

    made = []
    from_data = LeanInteraction._from_data

    def counted(self, data):
        made.append(data["type"])
        return from_data(self, data)

    steps: list = []
    canonical = Canonical()
    with monkeypatch.context() as m:
        m.setattr(LeanInteraction, "_from_data", counted)
        m.setattr(secrets, "randbits", lambda k: 0x5EED & ((1 << k) - 1))  # the same deal in both runs
        if not lean:
            m.setattr(presses, "command_interaction", lambda state, data: None)
            m.setattr(presses, "pressed_interaction", lambda state, data: None)
        async with running_standin() as standin:
            bot = no_deferral_deadline(DeckhandBot(tmp_path / f"{lean}.sqlite3", run_timeouts=False,
                                                         guild_ready_timeout=GUILD_READY_TIMEOUT))
            async with logged_in(bot):
                interact = standin.interact

                async def kept(bot_, payload, **kw):
                    res = await interact(bot_, payload, **kw)
                    steps.append((payload["type"], canonical(payload.get("data")), canonical.requests(res)))
                    return res

                standin.interact = kept
                g, users = guild_with(standin, ["ana", "ben"])
                channel = await start_by_slash(standin, bot, g, users, "maginot_line")
                async for _, _, seat, move in auto_moves(bot, channel, 5):
                    await press_move(standin, bot, channel, move, users[seat])
                    await standin.settle(bot)
                    seat, move = await auto_move_for(bot, channel, 7)
                    await standin.slash(bot, "game move", {"move": move}, user=users[1 - seat], guild=g)
                    await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
                    await standin.settle(bot)
    return steps, len(made)


async def test_the_lean_interaction_sends_what_discord_pys_sends(tmp_path, monkeypatch):
    from tests.test_discord_slash_road import _first_difference

    no_pictures(monkeypatch)
    theirs, their_lean = await _presses(tmp_path, monkeypatch, lean=False)
    ours, our_lean = await _presses(tmp_path, monkeypatch, lean=True)
    assert their_lean == 0 and our_lean == len(ours) == len(theirs)
    assert {kind for kind, _, _ in ours} == {2, 3} and sum(1 for *_, r in ours if r) >= 20
    for (kind, data, mine), (_, _, truth) in zip(ours, theirs, strict=True):
        assert mine == truth, (kind, data, _first_difference(mine, truth))
