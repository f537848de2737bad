"""A plain slash command (bot.ui.slash: ``/game move``, ``/game hand``, ``/game join``…) is called
without discord.py's Namespace and argument transforms, and answers exactly as through the tree:
the same requests at the stand-in, the same checks, error handlers, logs and events. Anything that
is not plain goes through the tree."""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

import discord
import pytest

import bot.ui.slash as slash
from bot.app import DeckhandBot
from tests.discord_helpers import auto_move_for, guild_with, latest_table, no_deferral_deadline, no_pictures
from bot.standin import GUILD_READY_TIMEOUT, logged_in, running_standin

SNOWFLAKE = re.compile(r"(?<=dh2:)[0-9a-f]{6,}|\d{15,20}")  # ids, and a table's key (its creation time's)
PLAIN_CALL = slash.plain_call  # the road itself (a run below counts its calls)


class Canonical:
    """A run's requests with every snowflake (the stand-in's ids, made from the clock) and table key
    renamed by its first appearance in the run: two runs that do the same show the same."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, found: re.Match[str]) -> str:
        return self.names.setdefault(found.group(0), f"#{len(self.names)}")

    def __call__(self, x: Any) -> Any:
        if isinstance(x, str):
            return SNOWFLAKE.sub(self._name, x)
        if isinstance(x, int) and not isinstance(x, bool) and x >= 10**14:
            return ("int", SNOWFLAKE.sub(self._name, str(x)))
        if isinstance(x, dict):
            return {self(k): self(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [self(v) for v in x]
        return x

    def requests(self, res: Any) -> list[Any]:
        return [[r.method, self(r.path), self(r.query), self(r.json), r.status,
                 [[f.filename, f.content_type, f.data] for f in r.files]] for r in res.requests]


def _first_difference(a: Any, b: Any, at: str = "") -> str | None:
    """Where two canonical request lists first differ (for a failure's message)."""
    if type(a) is not type(b):
        return f"{at}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(a.keys() | b.keys(), key=str):
            if k not in a or k not in b:
                return f"{at}.{k}: only in {'ours' if k in a else 'theirs'}"
            found = _first_difference(a[k], b[k], f"{at}.{k}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{at}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{at}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{at}: {a!r} != {b!r}"


async def _scenario(tmp_path, monkeypatch, *, direct: bool) -> tuple[list[Any], dict[str, Any]]:
    """One game of Maginot Line through slash commands only, with every kind of answer a slash
    move meets; the road switched off (``direct=False``): everything through discord.py's tree."""
    roads = {"plain": 0, "tree": 0}

    def counted(tree, interaction):
        call = PLAIN_CALL(tree, interaction) if direct else None
        roads["plain" if call is not None else "tree"] += 1
        return call

    monkeypatch.setattr(slash, "plain_call", counted)
    monkeypatch.setattr(secrets, "randbits", lambda k: 0x5EED & ((1 << k) - 1))  # the same deal in both runs
    steps: list[Any] = []
    seen: dict[str, Any] = {"completed": [], "answers": [], "logged": []}
    canonical = Canonical()

    class Logged(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            exc = record.exc_info[1] if record.exc_info else None
            seen["logged"].append((record.name, record.levelname, record.getMessage(), type(exc).__name__,
                                   type(getattr(exc, "original", None)).__name__))

    handler = Logged(logging.WARNING)
    logging.getLogger().addHandler(handler)
    try:
        async with running_standin() as standin:
            bot = no_deferral_deadline(DeckhandBot(tmp_path / f"{direct}.sqlite3", run_timeouts=False,
                                                           guild_ready_timeout=GUILD_READY_TIMEOUT))
            async with logged_in(bot):
                async def completed(interaction, command) -> None:
                    seen["completed"].append(command.qualified_name)

                bot.add_listener(completed, "on_app_command_completion")
                g, users = guild_with(standin, ["ana", "ben"])
                empty = g.text_channel("empty")

                async def run(command: str, options: dict | None = None, *, user: int = 0, **kw: Any) -> Any:
                    res = await standin.slash(bot, command, options, user=users[user], guild=g, **kw)
                    steps.append((command, canonical(options), canonical.requests(res)))
                    return res

                await run("game move", {"move": "draw"}, channel=empty)  # no table here
                await run("game new", {"game": "maginot_line"})
                await run("game move", {"move": "draw"})  # a lobby: nothing to move yet
                await run("game join", user=1)
                await run("game start")
                ch = int(g.channel["id"])
                for i in range(6):
                    seat, move = await auto_move_for(bot, ch, i)
                    await run("game move", {"move": move}, user=1 - seat)  # not their turn
                    await run("game move", {"move": "no such move at all"}, user=seat)  # bad text
                    await run("game move", {"move": move}, user=seat)  # played
                    if i == 2:
                        await run("game hand", user=seat)
                        await run("game status", user=1 - seat)
                    if i == 3:  # the table message was deleted: the move posts the table anew
                        standin._delete(int(latest_table(standin, ch)["id"]))
                seat, move = await auto_move_for(bot, ch, 99)

                async def broken(*args: Any, **kw: Any) -> Any:
                    raise RuntimeError("the store is away")

                with monkeypatch.context() as m:
                    m.setattr(bot.desk, "move", broken)  # an error inside the callback
                    await run("game move", {"move": move}, user=seat)
                await run("game move", {"move": move}, user=seat)
                asked = await run("game abandon")  # asks first; confirmed with its button, the table is over
                sure = next(c for c, _, _ in asked.buttons() if c and c.split(":")[3] == "y")
                await standin.click(bot, asked.message_id, sure, user=users[0])
                over = await run("game move", {"move": move}, user=seat)  # a table that is over
                assert over.ephemeral and (await bot.service.get(ch)).status == "abandoned", over.text
                seen["over"] = over.text
                seen["answers"] = [r.callback_type for r in standin.interactions.values()]
                seen["moves"] = len((await bot.service.get(ch)).moves)
    finally:
        logging.getLogger().removeHandler(handler)
    return steps, {**seen, "roads": roads}


async def test_a_plain_slash_command_sends_what_the_tree_sends(tmp_path, monkeypatch):
    no_pictures(monkeypatch)
    theirs, their_seen = await _scenario(tmp_path, monkeypatch, direct=False)
    ours, our_seen = await _scenario(tmp_path, monkeypatch, direct=True)
    assert their_seen["roads"]["plain"] == 0 and our_seen["roads"]["tree"] == 0
    assert our_seen["roads"]["plain"] == len(ours) == len(theirs)
    for (command, options, mine), (_, _, truth) in zip(ours, theirs, strict=True):
        assert mine == truth, (command, options, _first_difference(mine, truth))
    assert all(r for _, _, r in ours)  # each was answered
    assert our_seen["moves"] == their_seen["moves"] >= 7  # played: six moves and the last one
    kinds = [step[0] for step in ours]
    assert kinds.count("game move") >= 20
    for key in ("completed", "answers", "logged", "over"):
        assert our_seen[key] == their_seen[key], key
    assert ("cogs.tables", "ERROR", "command failed", "CommandInvokeError", "RuntimeError") in our_seen["logged"]
    assert our_seen["completed"].count("game move") == kinds.count("game move") - 1  # all but the broken one


def _payload(standin, bot, g, user, command: str, options: dict | None) -> dict:
    data = standin._command_data(bot, command, options, g)
    return standin._payload(2, data, user, g, None)


async def test_what_is_not_plain_goes_through_the_tree(standin, bot):
    """A command with an option that is resolved (a user), one with an option the
    command does not have or without its required one, an unknown command, a context menu and
    autocomplete: the tree's own road, with its own answers and errors."""
    g, users = guild_with(standin, ["ana"])
    state = bot._connection

    def call_of(payload: dict) -> Any:
        return slash.plain_call(bot.tree, discord.Interaction(data=payload, state=state))

    move = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    command, arguments = call_of(move)
    assert command.qualified_name == "game move" and arguments == {"move": "draw"}
    new = _payload(standin, bot, g, users[0], "game new", {"game": "gridcannon"})
    assert call_of(new)[1] == {"game": "gridcannon", "variants": None, "thread": False}  # defaults filled in
    assert call_of(_payload(standin, bot, g, users[0], "game turnlimit", {"minutes": 5}))[1] == {"minutes": 5}  # a Range
    assert call_of(_payload(standin, bot, g, users[0], "game stats", {"player": users[0]})) is None  # a user, resolved
    extra = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    extra["data"]["options"][0]["options"].append({"type": 3, "name": "elsewhere", "value": "x"})
    missing = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    missing["data"]["options"][0]["options"].clear()
    twice = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    twice["data"]["options"][0]["options"] *= 2
    unknown = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    unknown["data"]["name"] = "nothing"
    menu = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    menu["data"]["type"] = 2
    completing = _payload(standin, bot, g, users[0], "game move", {"move": "dr"})
    completing["type"] = 4
    garbled = _payload(standin, bot, g, users[0], "game move", {"move": "draw"})
    garbled["data"]["options"][0]["options"] = ["move"]
    for payload in (extra, missing, twice, unknown, menu, completing, garbled):
        assert call_of(payload) is None, payload["data"]
    # Through the tree: a missing required option is discord.py's signature mismatch, for the cog's handler.
    failed: list[Any] = []

    async def on_error(interaction: discord.Interaction, error: Exception) -> None:
        failed.append(type(error))

    bot.tree.on_error = on_error
    res = await standin.interact(bot, missing)
    assert res.text == "Something went wrong on my side; nothing was changed."
    assert failed == [discord.app_commands.CommandSignatureMismatch]
    got = await standin.autocomplete(bot, "game new", {"game": "maginot_line", "variants": ""}, focused="variants",
                                     user=users[0], guild=g)
    assert got and all(c["value"] for c in got)  # autocomplete stays on the tree: the variants offered


async def test_the_checks_and_the_namespace_are_the_trees(standin, bot, monkeypatch):
    """The tree's and the command's checks refuse as on the tree's road (the command's error
    handler and the tree's ``on_error`` with a CheckFailure, no completion event);
    ``interaction.command`` is the tree's command and ``interaction.namespace`` the tree's own."""
    g, users = guild_with(standin, ["ana"])
    seen: list[Any] = []
    game = bot.tree.get_command("game")
    hand, move = game.get_command("hand"), game.get_command("move")

    async def looked(cog, interaction: discord.Interaction, **arguments: Any) -> None:
        seen.append((interaction.command, dict(interaction.namespace.__dict__), interaction.command_failed))

    monkeypatch.setattr(hand, "_callback", looked)
    payload = _payload(standin, bot, g, users[0], "game hand", None)
    await standin.interact(bot, payload, expect_answer=False)
    assert seen == [(hand, {}, False)]
    monkeypatch.setattr(move, "_callback", looked)
    await standin.slash(bot, "game move", {"move": "draw x"}, user=users[0], guild=g, expect_answer=False)
    assert seen[-1] == (move, {"move": "draw x"}, False)
    errors: list[Any] = []

    async def on_error(interaction: discord.Interaction, error: Exception) -> None:
        errors.append((type(error).__name__, interaction.command, interaction.command_failed))

    monkeypatch.setattr(bot.tree, "on_error", on_error)
    move.add_check(lambda interaction: False)
    await standin.slash(bot, "game move", {"move": "draw"}, user=users[0], guild=g)  # the cog's handler refuses
    assert errors == [("CheckFailure", move, True)]
    move.remove_check(move.checks[0])

    async def closed(interaction: discord.Interaction) -> bool:
        return False

    monkeypatch.setattr(bot.tree, "interaction_check", closed)
    res = await standin.slash(bot, "game move", {"move": "draw"}, user=users[0], guild=g, expect_answer=False)
    assert not res.requests and len(seen) == 2 and len(errors) == 1


@pytest.mark.parametrize("name", ["game move", "game hand", "game join", "game start", "game status", "game say"])
async def test_the_games_hot_commands_are_plain(standin, bot, name):
    g, users = guild_with(standin, ["ana"])
    options = {"move": "draw"} if name == "game move" else {"text": "once"} if name == "game say" else None
    payload = _payload(standin, bot, g, users[0], name, options)
    call = slash.plain_call(bot.tree, discord.Interaction(data=payload, state=bot._connection))
    assert call is not None and call[0].qualified_name == name


async def test_a_follow_up_is_discord_pys_own_request(standin, bot):
    """bot.ui.play.follow_up posts the very request ``interaction.followup.send`` posts (the same
    body, files and query, through the same adapter) and raises on an HTTP error as it does."""
    import io

    from bot.ui.payloads import NO_PINGS
    from bot.ui.play import follow_up

    g, users = guild_with(standin, ["ana", "ben"])
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=users[0], guild=g)
    table = standin._message(res.message_id)
    bot.add_listener(on_interaction)
    for _ in range(6):  # presses nobody answers: a custom_id that is not the bot's
        payload = standin._component_payload(table, {"custom_id": "elsewhere:1", "component_type": 2}, users[0])
        await standin.interact(bot, payload, expect_answer=False)
    for interaction in seen:
        await interaction.response.defer(ephemeral=True, thinking=False)
    ping = {"content": f"<@{users[1]['id']}> — your turn", "allowed_mentions": discord.AllowedMentions(
        users=[discord.Object(int(users[1]["id"]))], everyone=False, roles=False)}

    def last(interaction: discord.Interaction) -> list[Any]:
        r = standin.requests[-1]
        assert r.path.endswith(interaction.token)
        return [r.method, r.path.replace(interaction.token, "TOKEN"), r.query, r.json, r.status,
                [(f.filename, f.content_type, f.data) for f in r.files]]

    cases = [({"content": "lines", "ephemeral": True, "allowed_mentions": NO_PINGS}, {}),
             (ping, {}),
             ({"content": "over", "allowed_mentions": NO_PINGS}, {"file": b"the story"})]
    for i, (kw, file) in enumerate(cases):
        ours, theirs = seen[2 * i], seen[2 * i + 1]
        files = [{"file": discord.File(io.BytesIO(data), filename="story.md")} for data in file.values() for _ in "ab"]
        files = files or [{}, {}]
        await follow_up(ours, **kw, **files[0])
        mine = last(ours)
        await theirs.followup.send(**kw, **files[1])
        assert mine == last(theirs), kw
        assert mine[2]["wait"] in ("1", "true", "True")
    with pytest.raises(discord.HTTPException):  # Discord refuses a follow-up of an unknown interaction
        await follow_up(discord.Interaction(data=dict(standin._component_payload(
            table, {"custom_id": "elsewhere:2", "component_type": 2}, users[0]), token="unknown"),
            state=bot._connection), "x")
