"""A message's components made as dicts (bot.ui.components.PlainView, button) are byte for byte
what discord.py's ``View.to_components()`` makes of the same ``discord.ui`` items, laid out in the
same rows; the table and lobby messages' components are the ones the View-built messages had; and
discord.py's sending calls accept such a view and keep nothing of it."""

from __future__ import annotations

import random

import discord
import pytest

from bot.ui import payloads
from bot.ui.components import PlainView, button, option, select
from tests.discord_helpers import auto_moves, guild_with, no_pictures, press_move, start_by_slash

STYLES = [discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.success,
          discord.ButtonStyle.danger]
EMOJI = [None, "🤖", "⏮", "<:card:123456789012345678>", "<a:spin:223456789012345678>"]


def wire(components) -> str:
    """The bytes discord.py sends (its own JSON encoder)."""
    return discord.utils._to_json(components)


def _button_kwargs(rng: random.Random, n: int) -> dict:
    kw: dict = {"label": rng.choice([None, f"Move {n}", "My view / act", "é ♠"])}
    if rng.random() < 0.15:
        kw["url"] = f"https://discord.com/channels/1/2/{n}"
    else:
        kw["custom_id"] = f"dh2:t{n}:{n}:s:a{n}"
        kw["style"] = rng.choice(STYLES)
    if rng.random() < 0.3:
        kw["disabled"] = True
    emoji = rng.choice(EMOJI)
    if emoji is not None:
        kw["emoji"] = emoji
    if kw["label"] is None and emoji is None:
        kw["label"] = "x"
    return kw


def _select(rng: random.Random, n: int) -> tuple[discord.ui.Select, dict]:
    """A select, as discord.ui.Select and as select()'s dict, from the same arguments."""
    kw = dict(custom_id=f"dh2:t{n}:{n}:k:", placeholder=rng.choice([None, "Pick…"]), min_values=rng.choice([0, 1]),
              max_values=rng.choice([1, 2]), disabled=rng.random() < 0.2)
    if rng.random() < 0.2:
        kw["required"] = False
    item = discord.ui.Select(**kw)
    options = []
    for i in range(rng.randint(1, 25)):
        okw = dict(label=f"Option {i}", description=rng.choice([None, "what it does"]), emoji=rng.choice(EMOJI),
                   default=i == 0 and rng.random() < 0.3)
        value = rng.choice([None, f"v{i}"])
        item.add_option(**okw, **({} if value is None else {"value": value}))
        options.append(option(okw.pop("label"), value, **okw))
    return item, select(options=options, **kw)


@pytest.mark.parametrize("seed", range(60))
def test_rows_and_dicts_are_the_views_byte_for_byte(seed):
    rng = random.Random(seed)
    view, plain = discord.ui.View(timeout=None), PlainView(timeout=None)
    for n in range(rng.randint(0, 30)):
        row = rng.choice([None, None, 0, 1, 2, 3, 4])
        as_item = rng.random() < 0.3
        if rng.random() < 0.15:
            item, made = _select(rng, n)
        else:
            kw = _button_kwargs(rng, n)
            item, made = discord.ui.Button(**kw), button(**kw)
        item.row = row
        try:
            view.add_item(item)
        except ValueError:  # full: the plain view refuses it too, and stays as the View stays
            with pytest.raises(ValueError):
                if as_item:
                    plain.add_item(item)
                else:
                    plain.add(made, row=row)
            continue
        assert wire(made) == wire(item.to_component_dict())
        if as_item:
            plain.add_item(item)
        else:
            plain.add(made, row=row)
        assert plain.is_dispatchable() == view.is_dispatchable()
    assert wire(plain.to_components()) == wire(view.to_components())
    assert plain.is_finished() == view.is_finished() is False and plain.has_components_v2() is False
    assert plain.timeout == view.timeout


def test_every_kind_of_button_alone():
    kinds = [dict(label="Join", style=discord.ButtonStyle.success, custom_id="dh2:a:1:jn:"),
             dict(label="Start", style=discord.ButtonStyle.primary, custom_id="dh2:a:1:st:", disabled=True),
             dict(label="Add a bot", emoji="🤖", custom_id="dh2:a:1:ab:", disabled=False),
             dict(emoji="⏭", custom_id="dh2:a:1:rp:e"),
             dict(label="Jump", url="https://discord.com/channels/1/2/3"),
             dict(label="Jump", url="https://discord.com/channels/1/2/3", emoji="<:c:12345678901234567>")]
    for kw in kinds:
        assert wire(button(**kw)) == wire(discord.ui.Button(**kw).to_component_dict()), kw
    link = PlainView().add(button(label="Jump", url="https://x.example/"))
    assert not link.is_dispatchable() and not discord.ui.View().add_item(
        discord.ui.Button(label="Jump", url="https://x.example/")).is_dispatchable()


def test_a_component_discord_py_would_have_to_keep_is_refused():
    with pytest.raises(ValueError):
        PlainView().add(button(label="Other", custom_id="someone-else"))
    with pytest.raises(ValueError):
        PlainView().add_item(discord.ui.Select(custom_id="not-ours"))
    with pytest.raises(TypeError):
        button(label="Nothing to press")


def test_discord_py_keeps_nothing_of_it():
    from bot.app import answered_by_dynamic_items, let_go_of_view

    plain = PlainView(timeout=None).add(button(label="Go", custom_id="dh2:a:1:me:"))
    assert answered_by_dynamic_items(plain)
    let_go_of_view(plain)
    assert wire(plain.to_components()) == wire(
        discord.ui.View(timeout=None).add_item(discord.ui.Button(label="Go", custom_id="dh2:a:1:me:")).to_components())
    params = discord.http.handle_message_parameters(content="x", view=plain)
    assert params.payload["components"] == plain.to_components()


# ----- the table and lobby messages, as their View-built forms were --------------------------------
def views_table_buttons(reader, drafts) -> discord.ui.View:
    """The table message's buttons as they were built before: a View of discord.ui.Buttons."""
    from bot.ui.payloads import BUTTONS_PER_ROW, HAND_LABEL, PUBLIC_MOVES_MAX, cid, public_moves, renderer

    t = reader.table
    view = discord.ui.View(timeout=None)
    tid, rev = t.key, t.revision
    if t.status == "playing":
        deciding = reader.decisions
        moves = public_moves(reader, drafts, PUBLIC_MOVES_MAX)
        forfeits = public_moves(reader, drafts, 1, forfeits=True) if moves else []
        for item in moves:
            view.add_item(item)
        bottom: list[discord.ui.Item] = []
        if not moves or len(t.seats) > 1 or any(not d.public for d in deciding):
            bottom.append(discord.ui.Button(label=HAND_LABEL, style=discord.ButtonStyle.primary,
                                            custom_id=cid(tid, rev, "me")))
        bottom.extend(forfeits)
        if reader.solo_concede:
            bottom.append(discord.ui.Button(label="Concede", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "cc")))
        if t.timed_out:
            bottom.append(discord.ui.Button(label="Skip late player", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sk")))
            bottom.append(discord.ui.Button(label="Remove late player", style=discord.ButtonStyle.danger,
                                            custom_id=cid(tid, rev, "rv")))
        for item in bottom[:BUTTONS_PER_ROW]:
            item.row = 1 if moves else 0
            view.add_item(item)
    else:
        if len(t.seats) == 1:
            view.add_item(discord.ui.Button(label="New game", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "ng")))
        elif t.status == "finished":
            view.add_item(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success,
                                            custom_id=cid(tid, rev, "rm")))
        if renderer(t.game).story is not None:
            view.add_item(discord.ui.Button(label="Story file", style=discord.ButtonStyle.secondary,
                                            custom_id=cid(tid, rev, "sf")))
    return view


def views_lobby(reader) -> discord.ui.View:
    from bot.ui.payloads import cid, spec

    t = reader.table
    cls = spec(t.game)
    view = discord.ui.View(timeout=None)
    tid, rev = t.key, t.revision
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=cid(tid, rev, "jn")))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=cid(tid, rev, "lv")))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary, custom_id=cid(tid, rev, "st"),
                                    disabled=len(t.seats) < cls.min_players))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, custom_id=cid(tid, rev, "cx")))
    if cls.max_players > 1:
        view.add_item(discord.ui.Button(label="Add a bot", style=discord.ButtonStyle.secondary, emoji="🤖",
                                        custom_id=cid(tid, rev, "ab"), disabled=len(t.seats) >= cls.max_players))
    return view


@pytest.fixture
def compared(monkeypatch):
    """Every table and lobby message made: its components beside the View-built ones'."""
    seen: list[str] = []
    table_buttons, lobby = payloads._table_buttons, payloads.lobby_message

    def checked_table(reader, drafts):
        plain = table_buttons(reader, drafts)
        assert type(plain) is PlainView
        assert wire(plain.to_components()) == wire(views_table_buttons(reader, drafts).to_components())
        seen.append(reader.table.status)
        seen.extend(["moves on the table"] * (len(plain.to_components()) > 1))
        return plain

    def checked_lobby(reader, ratings=()):
        msg = lobby(reader, ratings)
        assert wire(msg.view.to_components()) == wire(views_lobby(reader).to_components())
        seen.append("lobby")
        return msg

    monkeypatch.setattr(payloads, "_table_buttons", checked_table)
    monkeypatch.setattr(payloads, "lobby_message", checked_lobby)
    return seen


async def test_table_messages_carry_the_components_their_views_did(standin, bot, compared, monkeypatch):
    no_pictures(monkeypatch)
    g, users = guild_with(standin, ["ana", "ben"])
    channel = await start_by_slash(standin, bot, g, users, "maginot_line", minutes=5)
    async for _, _, seat, move in auto_moves(bot, channel, 8):
        await press_move(standin, bot, channel, move, users[seat])
    sure = await standin.slash(bot, "game abandon", user=users[0], guild=g)  # asked first, then confirmed
    await standin.click(bot, sure.message_id, label="Confirm", user=users[0])
    assert (await bot.service.get(channel)).status == "abandoned"
    # A solo game: its moves as buttons on the table, and its ending (New game, story).
    solo = standin.user(name="cat")
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=solo)
    dm = int(res.message["channel_id"])
    async for _, _, _, move in auto_moves(bot, dm, 6):
        await press_move(standin, bot, dm, move, solo)
    await standin.settle(bot)
    assert {"lobby", "playing", "abandoned", "moves on the table"} <= set(compared), set(compared)
    assert len(compared) >= 10


async def test_the_bots_state_keeps_no_plain_view_and_still_keeps_a_view_it_must(make_bot):
    """Sent through the bot's state (as answers.send and the table edits store what they send): a
    plain view is not kept — nothing of it could be dispatched — while a View with a component the
    bot's DynamicItems do not answer is kept by discord.py as before."""
    bot = make_bot()
    state = bot._connection
    store = state._view_store
    panel = PlainView(timeout=None).add(button(label="Go", custom_id="dh2:a:1:me:"))
    panel.timeout = 15 * 60.0  # as an ephemeral answer sets it
    state.store_view(panel, 1234)
    assert store._views == {} and store._synced_message_views == {}
    theirs = discord.ui.View(timeout=None).add_item(discord.ui.Button(label="Other", custom_id="other"))
    state.store_view(theirs, 5678)
    assert (2, "other") in store._views.get(5678, {})
    assert store._synced_message_views.get(5678) is theirs
    theirs.stop()
    await bot.close()
