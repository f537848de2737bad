"""The Discord stand-in drives a real discord.py 2.7.1 bot: slash commands, buttons, selects, modals,
autocomplete, files, pings, sync and the gateway. The bot under test is a tiny one defined here."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.standin import (
    GUILD_READY_TIMEOUT,
    SAFETY_TIMEOUT,
    DiscordStandIn,
    StandInError,
    fail_on_discord_errors,
    guild_cached,
    logged_in,
    running_standin,
)

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
    b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"
)
GAMES = ["gridcannon", "court wars", "celestial emperor", "knight rogue princess dragon"]


# --------------------------------------------------------------------------------------------------
# The tiny bot
# --------------------------------------------------------------------------------------------------


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<n>\d+)"):
    """A persistent button whose custom_id carries the count; survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        n = self.n + 1
        if interaction.message.flags.components_v2:  # content is not allowed on a v2 message
            await interaction.response.edit_message(view=Layout(f"count={n}", n))
        else:
            await interaction.response.edit_message(content=f"count={n}", view=board_view(n))


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    def __init__(self) -> None:
        super().__init__(custom_id="feedback", timeout=None)
        self.headline = discord.ui.TextInput(label="Headline", custom_id="headline", max_length=20)
        self.body = discord.ui.TextInput(label="Body", custom_id="body", style=discord.TextStyle.paragraph, required=False)
        self.add_item(self.headline)
        self.add_item(discord.ui.Label(text="Details", component=self.body))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.headline.value} / {self.body.value or '-'}", ephemeral=True)


class FeedbackButton(discord.ui.Button):
    def __init__(self) -> None:
        super().__init__(label="Feedback", custom_id="feedback-open", style=discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())


def board_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    view.add_item(FeedbackButton())
    return view


class GamePicker(discord.ui.View):
    @discord.ui.select(custom_id="pick-game", options=[discord.SelectOption(label=g, value=g) for g in GAMES])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class Layout(discord.ui.LayoutView):
    def __init__(self, text: str = "Your turn", n: int = 0) -> None:
        super().__init__(timeout=None)
        row = discord.ui.ActionRow()
        row.add_item(Counter(n))
        self.add_item(discord.ui.Container(discord.ui.TextDisplay(text), row))


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class Demo(app_commands.Group, name="demo", description="Stand-in demo"):
    @app_commands.command(description="A public board with buttons")
    async def show(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board", description="Press the buttons")
        await interaction.response.send_message(embed=embed, view=board_view(0))

    @app_commands.command(description="Something private")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand: A♠ K♥", ephemeral=True)

    @app_commands.command(description="Find a game")
    @app_commands.describe(query="Game name")
    async def find(self, interaction: discord.Interaction, query: str, seats: app_commands.Range[int, 1, 4] = 2) -> None:
        await interaction.response.send_message(f"found {query} for {seats}")

    @find.autocomplete("query")
    async def find_query(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g.title(), value=g) for g in GAMES if current.lower() in g]

    @app_commands.command(description="Pick a game")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=GamePicker())

    @app_commands.command(description="Ping a player")
    async def ping(self, interaction: discord.Interaction, who: discord.User) -> None:
        await interaction.channel.send(
            f"{who.mention} your turn (not <@123456789012345678>)",
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[who]),
        )
        await interaction.response.send_message("pinged", ephemeral=True)

    @app_commands.command(description="A card image")
    async def card(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("card", file=discord.File(io.BytesIO(PNG), filename="card.png"))

    @app_commands.command(description="Think, then answer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("a second message", ephemeral=True)
        await interaction.edit_original_response(content="done thinking (edited)")

    @app_commands.command(description="Open a table thread and DM the host")
    async def table(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("table open")
        msg = await interaction.original_response()
        thread = await msg.create_thread(name="Table 1")
        await thread.send("welcome")
        await interaction.user.send("you host table 1")
        assert (await interaction.channel.fetch_message(msg.id)).content == "table open"
        assert (await interaction.client.fetch_channel(thread.id)).name == "Table 1"
        note = await interaction.channel.send("temporary")
        await note.edit(content="temporary (edited)")
        await note.delete()
        side = await interaction.channel.create_thread(name="Side", type=discord.ChannelType.private_thread)
        await side.send("psst")

    @app_commands.command(description="A components-v2 layout")
    async def layout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Layout())

    @app_commands.command(description="Fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")


GUILD_ID = 900000000000000001


def make_bot(**kwargs) -> commands.Bot:
    kwargs.setdefault("guild_ready_timeout", GUILD_READY_TIMEOUT)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), **kwargs)

    async def setup_hook() -> None:
        bot.tree.add_command(Demo())

        @bot.tree.command(name="admin", description="Guild-only admin command", guild=discord.Object(GUILD_ID))
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin ok", ephemeral=True)

        bot.add_dynamic_items(Counter)
        bot.add_view(board_view(0))  # persistent: the modal button works after a restart too

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def standin():
    async with running_standin() as s:
        yield s


@pytest.fixture
async def bot(standin):
    async with logged_in(make_bot()) as b:
        yield b


# --------------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------------


async def test_login_hits_the_standin(standin: DiscordStandIn, bot: commands.Bot) -> None:
    assert bot.user is not None and bot.user.id == standin.application_id
    assert bot.application_id == standin.application_id
    paths = [(r.method, r.path) for r in standin.requests]
    assert ("GET", "/users/@me") in paths and ("GET", "/oauth2/applications/@me") in paths
    assert standin.unhandled == []


async def test_slash_in_guild_channel_public_embed_and_buttons(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    alice = standin.user(name="alice")
    res = await standin.slash(bot, "demo show", user=alice, guild=g)
    assert res.callback_type == 4 and not res.ephemeral
    assert res.embed["title"] == "Board"
    assert res.buttons() == [("counter:0", "Count 0", False), ("feedback-open", "Feedback", False)]
    msg = standin.messages[res.message_id]
    assert msg["channel_id"] == g.channel["id"] and msg["guild_id"] == str(g.id)
    assert standin.channel_messages(g.channel["id"]) == [msg]
    assert res.payload["member"]["user"]["id"] == alice["id"]
    assert res.payload["data"]["options"] == [{"name": "show", "type": 1, "options": []}]


async def test_slash_in_dm(standin: DiscordStandIn, bot) -> None:
    bob = standin.user(name="bob")
    res = await standin.slash(bot, "demo show", user=bob)  # guild=None: the bot's DM with bob
    assert res.guild_id is None and "member" not in res.payload and res.payload["user"] == bob
    dm = standin.dm_channel(bob)
    assert res.message["channel_id"] == dm["id"] and "guild_id" not in res.message
    clicked = await standin.click(bot, res.message_id, "counter:0", user=bob)
    assert clicked.content == "count=1"


async def test_guild_commands_are_not_offered_in_dms(standin: DiscordStandIn, bot) -> None:
    g = standin.guild(id=GUILD_ID)
    res = await standin.slash(bot, "admin", guild=g)
    assert res.content == "admin ok" and res.payload["data"]["guild_id"] == str(GUILD_ID)
    with pytest.raises(StandInError, match="guild command"):
        await standin.slash(bot, "admin")


async def test_ephemeral_flag(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    res = await standin.slash(bot, "demo secret", guild=g)
    assert res.ephemeral and res.data["flags"] & 64 and res.content == "your hand: A♠ K♥"
    other = standin.user(name="mallory")
    with pytest.raises(StandInError, match="ephemeral"):
        await standin.click(bot, res.message_id, "x", user=other)


async def test_click_edits_the_message_and_unknown_buttons_fail(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    shown = await standin.slash(bot, "demo show", guild=g)
    mid = shown.message_id
    res = await standin.click(bot, mid, "counter:0")
    assert res.callback_type == 7 and res.message_id == mid
    assert standin.messages[mid]["content"] == "count=1"
    assert standin.messages[mid]["edited_timestamp"] is not None
    res = await standin.click(bot, mid, label="Count 1")
    assert res.content == "count=2" and res.find_button("Count") == "counter:2"
    with pytest.raises(StandInError, match="no component 'counter:0'"):
        await standin.click(bot, mid, "counter:0")


async def test_dynamic_button_works_after_restart(standin: DiscordStandIn) -> None:
    g = standin.guild()
    async with logged_in(make_bot()) as first:
        shown = await standin.slash(first, "demo show", guild=g)
        await standin.click(first, shown.message_id, "counter:0")
    async with logged_in(make_bot()) as second:  # a new process: only persistent items survive
        res = await standin.click(second, shown.message_id, "counter:1")
        assert res.callback_type == 7 and res.content == "count=2"
        opened = await standin.click(second, shown.message_id, "feedback-open")
        assert opened.modal["custom_id"] == "feedback"


async def test_autocomplete_choices(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    choices = await standin.autocomplete(bot, "demo find", {"query": "c"}, focused="query", guild=g)
    assert [c["value"] for c in choices] == GAMES  # all contain a "c"
    choices = await standin.autocomplete(bot, "demo find", {"query": "ur", "seats": 2}, focused="query", guild=g)
    assert choices == [{"name": "Court Wars", "value": "court wars"}]
    res = await standin.slash(bot, "demo find", {"query": "gridcannon", "seats": 3}, guild=g)
    assert res.content == "found gridcannon for 3"
    with pytest.raises(StandInError, match="outside"):
        await standin.slash(bot, "demo find", {"query": "x", "seats": 9}, guild=g)
    with pytest.raises(StandInError, match="required option"):
        await standin.slash(bot, "demo find", {}, guild=g)


async def test_modal_submit(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    carol = standin.user(name="carol")
    shown = await standin.slash(bot, "demo show", guild=g, user=carol)
    opened = await standin.click(bot, shown.message_id, "feedback-open", user=carol)
    assert opened.callback_type == 9 and opened.modal["title"] == "Feedback"
    assert {c["custom_id"] for c in standin.modal_fields("feedback")} == {"headline", "body"}
    with pytest.raises(StandInError, match="no modal"):
        await standin.submit_modal(bot, "feedback", {"headline": "hi"}, user=standin.user(name="dave"))
    with pytest.raises(StandInError, match="required"):
        await standin.submit_modal(bot, "feedback", {"body": "no headline"}, user=carol)
    res = await standin.submit_modal(bot, "feedback", {"headline": "great", "body": "fun game"}, user=carol)
    assert res.ephemeral and res.content == "thanks: great / fun game"
    # the label-wrapped input is answered in the label shape discord.py 2.7.1 parses
    assert res.payload["data"]["components"][1]["type"] == 18


async def test_select(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    shown = await standin.slash(bot, "demo pick", guild=g)
    assert [v for v, _ in standin.select_options(shown.message_id, "pick-game")] == GAMES
    with pytest.raises(StandInError, match="no option"):
        await standin.select(bot, shown.message_id, "pick-game", ["poker"])
    res = await standin.select(bot, shown.message_id, "pick-game", ["court wars"])
    assert res.callback_type == 7 and res.content == "picked court wars" and res.components == []


async def test_channel_send_ping_allowed_mentions(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    erin = standin.user(name="erin")
    res = await standin.slash(bot, "demo ping", {"who": erin}, guild=g)
    assert res.ephemeral and res.content == "pinged"
    posted = [m for m in standin.channel_messages(g.channel["id"]) if not m["ephemeral"]]
    assert len(posted) == 1
    ping = posted[0]
    assert ping["content"].startswith(f"<@{erin['id']}> your turn")
    assert ping["allowed_mentions"]["parse"] == [] and ping["allowed_mentions"]["users"] == [int(erin["id"])]
    assert standin.pinged_user_ids(ping) == [int(erin["id"])]
    assert any(r.method == "POST" and r.path == f"/channels/{g.channel['id']}/messages" for r in res.requests)


async def test_file_upload(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    res = await standin.slash(bot, "demo card", guild=g)
    assert [(f.filename, f.data) for f in res.files] == [("card.png", PNG)]
    assert res.message["attachments"][0]["filename"] == "card.png"
    cb = [r for r in res.requests if r.path.endswith("/callback")][0]
    assert cb.json["data"]["attachments"] == [{"id": 0, "filename": "card.png"}]


async def test_defer_followups_and_edit_original(standin: DiscordStandIn, bot) -> None:
    res = await standin.slash(bot, "demo slow", guild=standin.guild())
    assert res.callback_type == 5 and res.ephemeral
    assert res.content == "done thinking (edited)"  # the first follow-up replaced the "thinking" message
    assert [m["content"] for m in res.followups] == ["a second message"]
    assert res.followups[0]["ephemeral"]


async def test_tree_sync_is_captured(standin: DiscordStandIn, bot) -> None:
    synced = await bot.tree.sync()
    await bot.tree.sync(guild=discord.Object(GUILD_ID))
    assert [c.name for c in synced] == ["demo"]
    (gid, body), (ggid, gbody) = standin.command_puts
    assert gid is None and ggid == GUILD_ID and [c["name"] for c in gbody] == ["admin"]
    demo = body[0]
    assert demo["contexts"] == [0, 1] and demo["integration_types"] == [0]
    assert [o["name"] for o in demo["options"]] == [
        "show",
        "secret",
        "find",
        "pick",
        "ping",
        "card",
        "slow",
        "table",
        "layout",
        "boom",
    ]
    find = next(o for o in demo["options"] if o["name"] == "find")
    assert find["options"][0]["name"] == "query" and find["options"][0]["autocomplete"] is True
    assert find["options"][1]["min_value"] == 1 and find["options"][1]["max_value"] == 4
    # commands now carry ids and the next slash uses them
    res = await standin.slash(bot, "demo secret", guild=standin.guild())
    assert res.payload["data"]["id"] == standin.commands[None][0]["id"]
    assert standin.unhandled == []


async def test_error_in_command_is_reraised_and_logged(standin: DiscordStandIn, bot) -> None:
    with pytest.raises(RuntimeError, match="kaboom"):
        await standin.slash(bot, "demo boom", guild=standin.guild(), expect_answer=False)
    res = await standin.slash(bot, "demo boom", guild=standin.guild(), allow_errors=True, expect_answer=False)
    assert not res.answered and standin.discord_errors


def test_fail_on_discord_errors_helper() -> None:
    with fail_on_discord_errors():
        logging.getLogger("discord.client").warning("only a warning")
    with pytest.raises(AssertionError, match="oops"):
        with fail_on_discord_errors():
            logging.getLogger("discord.app_commands.tree").error("oops")


async def test_unhandled_routes_and_rejections_are_recorded(standin: DiscordStandIn, bot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=1))
    assert [(r.method, r.path) for r in standin.unhandled] == [("GET", "/guilds/1/audit-logs")]
    with pytest.raises(StandInError, match="unhandled"):
        standin.assert_clean()
    standin.unhandled.clear()
    ch = standin.guild().channel
    with pytest.raises(discord.HTTPException, match="2000"):
        await bot.http.send_message(int(ch["id"]), params=discord.http.handle_message_parameters(content="x" * 2001))
    assert len(standin.rejected) == 1
    standin.rejected.clear()


async def test_unanswered_interaction_is_flagged(standin: DiscordStandIn, bot) -> None:
    shown = await standin.slash(bot, "demo show", guild=standin.guild())
    # a button nobody handles: forge a message with an extra button
    standin.messages[shown.message_id]["components"][0]["components"].append(
        {"type": 2, "style": 2, "label": "Ghost", "custom_id": "ghost"}
    )
    res = await standin.click(bot, shown.message_id, label="Ghost")
    assert not res.answered and standin.unanswered == [res]
    standin.unanswered.clear()


async def test_gateway_smoke(standin: DiscordStandIn) -> None:
    g = standin.guild(id=GUILD_ID, name="Smoke")
    frank = standin.user(name="frank")
    g.add_member(frank)
    bot = make_bot(guild_ready_timeout=0.05)
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    bot.add_listener(on_ready)
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        await asyncio.wait_for(ready.wait(), SAFETY_TIMEOUT)
        assert 2 in [op["op"] for op in standin.gateway_received]  # IDENTIFY
        guild = await guild_cached(bot, GUILD_ID)
        assert guild is not None and guild.name == "Smoke" and not guild.unavailable
        assert guild.get_channel(int(g.channel["id"])).name == "general"
        res = await standin.slash(bot, "admin", user=frank, guild=g)
        assert res.content == "admin ok" and res.ephemeral
        shown = await standin.slash(bot, "demo show", user=frank, guild=g)
        clicked = await standin.click(bot, shown.message_id, "counter:0", user=frank)
        assert clicked.content == "count=1"
    finally:
        await bot.close()
        await asyncio.wait_for(task, SAFETY_TIMEOUT)
    assert task.exception() is None


async def test_threads_dms_fetch_edit_delete(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    gina = standin.user(name="gina")
    res = await standin.slash(bot, "demo table", user=gina, guild=g)
    thread = standin.channels[res.message_id]  # a thread started from a message takes the message's id
    assert thread["type"] == 11 and thread["parent_id"] == g.channel["id"] and thread["name"] == "Table 1"
    assert [m["content"] for m in standin.channel_messages(thread["id"])] == ["welcome"]
    dm = standin.dm_channel(gina)
    assert [m["content"] for m in standin.channel_messages(dm["id"])] == ["you host table 1"]
    assert [m["content"] for m in standin.channel_messages(g.channel["id"])] == ["table open"]
    (deleted,) = standin.deleted_messages.values()
    assert deleted["content"] == "temporary (edited)"
    side = next(c for c in standin.channels.values() if c.get("name") == "Side")
    assert side["type"] == 12 and standin.channel_messages(side["id"])[0]["content"] == "psst"
    # commands work inside the thread too
    inside = await standin.slash(bot, "demo show", user=gina, guild=g, channel=thread)
    assert inside.message["channel_id"] == thread["id"]
    clicked = await standin.click(bot, inside.message_id, "counter:0", user=gina)
    assert clicked.content == "count=1"


async def test_components_v2_layout(standin: DiscordStandIn, bot) -> None:
    res = await standin.slash(bot, "demo layout", guild=standin.guild())
    assert res.flags & (1 << 15) and res.content == "" and "Your turn" in res.text
    assert res.buttons() == [("counter:0", "Count 0", False)]
    clicked = await standin.click(bot, res.message_id, "counter:0")
    assert clicked.callback_type == 7 and clicked.content == "" and "count=1" in clicked.text
    assert clicked.buttons() == [("counter:1", "Count 1", False)]


# --------------------------------------------------------------------------------------------------
# The gateway road: every interaction is a DISPATCH, known to be parsed by the bot's own heartbeat
# --------------------------------------------------------------------------------------------------


async def test_an_interaction_is_a_dispatch_the_bot_read_before_it_settles(standin: DiscordStandIn, bot) -> None:
    mark = len(standin.gateway_received)
    res = await standin.slash(bot, "demo show", guild=standin.guild())
    (session,) = standin.sessions.values()
    (seq,) = [s for s, frame in session.sent if res.token in frame]  # its INTERACTION_CREATE, once
    beats = [m["d"] for m in standin.gateway_received[mark:] if m["op"] == 1]
    assert any(d >= seq for d in beats), "the bot answered the heartbeat request after reading the interaction"
    assert session.acked >= seq and res.callback_type == 4


async def test_a_bot_is_asked_to_reconnect_before_discord_py_holds_its_sends_back(standin: DiscordStandIn, bot,
                                                                                  monkeypatch) -> None:
    """discord.py sends at most 110 gateway frames a minute per connection (each answer to a
    heartbeat request is one): the stand-in asks it to reconnect well before, and it resumes."""
    from bot.standin import gateway

    monkeypatch.setattr(gateway, "ROTATE_AFTER", 4)
    shown = await standin.slash(bot, "demo show", guild=standin.guild())
    (session,) = standin.sessions.values()
    for n in range(8):
        res = await standin.click(bot, shown.message_id, f"counter:{n}")
        assert res.content == f"count={n + 1}"
    resumes = [m["d"] for m in standin.gateway_received if m["op"] == 6]
    assert len(resumes) >= 2 and {d["session_id"] for d in resumes} == {session.id}
    assert list(standin.sessions) == [session.id] and session.live.is_set()


async def test_events_sent_while_the_bot_reconnects_are_replayed_on_its_resume(standin: DiscordStandIn, bot) -> None:
    shown = await standin.slash(bot, "demo show", guild=standin.guild())
    (session,) = standin.sessions.values()
    async with session.lock:  # what _rotate does, without waiting for the resume
        session.live.clear()
        session.rotating = True
        await session.ws.send_str('{"op": 7, "d": null, "s": null, "t": null}')
    res = await standin.click(bot, shown.message_id, "counter:0")  # sent while no socket is open
    assert res.content == "count=1"
    (resume,) = [m["d"] for m in standin.gateway_received if m["op"] == 6]
    (seq,) = [s for s, frame in session.sent if res.token in frame]
    assert resume["seq"] < seq <= session.acked, "the click was replayed on the new connection"


async def test_a_bot_that_closes_ends_its_session(standin: DiscordStandIn) -> None:
    async with logged_in(make_bot()):
        (first,) = standin.sessions.values()
    await asyncio.wait_for(first.closed.wait(), SAFETY_TIMEOUT)  # the stand-in saw it close (code 1000)
    assert standin.sessions == {}
    with pytest.raises(StandInError, match="no bot is connected"):
        await standin.gateway_dispatch("TYPING_START", {"channel_id": "1"})
    async with logged_in(make_bot()) as again:
        assert list(standin.sessions.values()) != [first] and len(standin.sessions) == 1
        res = await standin.slash(again, "demo secret", guild=standin.guild())
        assert res.ephemeral


# --------------------------------------------------------------------------------------------------
# Answering as Discord does: the documented road, 403 in a private channel, 429
# --------------------------------------------------------------------------------------------------


@app_commands.command(name="road", description="Every documented way to answer")
async def road(interaction: discord.Interaction) -> None:
    callback = await interaction.response.send_message("first", file=discord.File(io.BytesIO(PNG), filename="a.png"))
    assert callback.message_id is not None and callback.resource is not None  # ?with_response=true
    original = await interaction.original_response()  # GET @original
    assert original.content == "first" and original.attachments[0].filename == "a.png"
    follow = await interaction.followup.send("second")  # discord.py waits (?wait=1) on an interaction's webhook
    assert follow.content == "second"
    await follow.edit(content="second (edited)")  # PATCH the follow-up through the webhook
    await interaction.edit_original_response(content="first (edited)", attachments=[])  # PATCH @original
    posted = await interaction.channel.send("third")
    await interaction.channel.get_partial_message(posted.id).edit(content="third (edited)")


@app_commands.command(name="whisper", description="A user-installed app where the bot is not")
@app_commands.allowed_installs(guilds=False, users=True)
@app_commands.allowed_contexts(guilds=False, dms=True, private_channels=True)
async def whisper(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("psst", ephemeral=True)
    try:
        await interaction.channel.send("to everyone")
    except discord.Forbidden as e:
        await interaction.followup.send(f"refused {e.code}", ephemeral=True, wait=True)


def make_road_bot() -> commands.Bot:
    b = make_bot()
    b.tree.add_command(road)
    b.tree.add_command(whisper)
    return b


async def test_the_documented_road_of_answers(standin: DiscordStandIn) -> None:
    g = standin.guild()
    async with logged_in(make_road_bot()) as b:
        res = await standin.slash(b, "road", guild=g)
    assert res.callback_type == 4 and res.content == "first (edited)" and res.files == []
    assert [m["content"] for m in res.followups] == ["second (edited)"]
    (third,) = [m for m in standin.channel_messages(g.channel["id"]) if "interaction_metadata" not in m]
    assert third["content"] == "third (edited)"
    callback = next(r for r in res.requests if r.path.endswith("/callback"))
    assert callback.query == {"with_response": "1"} and [f.filename for f in callback.files] == ["a.png"]
    waits = [r.query.get("wait") for r in res.requests if r.method == "POST" and r.path.startswith("/webhooks/")]
    assert waits == ["1"]
    assert [v.how for v in standin.message_versions(res.message_id)] == ["response", "webhook-edit"]


async def test_a_private_channel_the_bot_is_not_in_answers_missing_access(standin: DiscordStandIn) -> None:
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    ch = standin.private_channel(ana, ben)
    async with logged_in(make_road_bot()) as b:
        res = await standin.slash(b, "whisper", user=ana, channel=ch)
        with pytest.raises(StandInError, match="does not offer it in a private channel"):
            await standin.slash(b, "demo show", user=ana, channel=ch)
    assert res.payload["context"] == 2 and res.content == "psst" and res.ephemeral
    assert [m["content"] for m in res.followups] == ["refused 50001"]
    assert [r.status for r in res.requests if r.path == f"/channels/{ch['id']}/messages"] == [403]
    assert standin.channel_messages(ch["id"], include_ephemeral=False) == []


async def test_a_rate_limited_request_is_waited_for_and_sent_again(standin: DiscordStandIn, bot) -> None:
    g = standin.guild()
    erin = standin.user(name="erin")
    standin.rate_limit(r"/channels/\d+/messages", method="POST", retry_after=0.05)
    res = await standin.slash(bot, "demo ping", {"who": erin}, guild=g)
    assert res.content == "pinged"
    sent = [r for r in res.requests if r.method == "POST" and r.path == f"/channels/{g.channel['id']}/messages"]
    assert [r.status for r in sent] == [429, 200] and sent[1].arrived - sent[0].arrived >= 0.05
    assert len(standin.channel_messages(g.channel["id"], include_ephemeral=False)) == 1
    assert standin.rate_limited == [sent[0]]


async def test_a_second_answer_to_one_interaction_is_refused(standin: DiscordStandIn, bot) -> None:
    import aiohttp

    res = await standin.slash(bot, "demo secret", guild=standin.guild())
    async with aiohttp.ClientSession() as http:  # the callback again, as a bot answering twice would
        async with http.post(f"{standin.base_url}/interactions/{res.id}/{res.token}/callback",
                             params={"with_response": "1"}, json={"type": 4, "data": {"content": "again"}}) as r:
            assert r.status == 400 and (await r.json())["code"] == 40060
    assert res.content == "your hand: A♠ K♥" and len(res.callbacks) == 1
    standin.rejected.clear()


async def test_a_frame_discord_py_cannot_parse_fails_the_interaction_at_once(standin: DiscordStandIn, bot,
                                                                              monkeypatch) -> None:
    def cannot(*args, **kwargs):
        raise RuntimeError("cannot parse")

    monkeypatch.setattr(discord.Interaction, "__init__", cannot)
    with pytest.raises(RuntimeError, match="cannot parse"):
        await standin.slash(bot, "demo secret", guild=standin.guild(), expect_answer=False)
    assert bot.is_closed() and standin.sessions == {}
