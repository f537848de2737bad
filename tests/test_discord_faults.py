"""Faults, through the Discord stand-in: a damaged table (its moves fail on replay) answers every
command and button with one line and can be set aside by the host; text boxes of two players at
once, and one opened before a restart; drafts of another seat or table refused; the sweep's
notices isolated from each other. The damaged-table tests run on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import discord
import pytest

import bot.app
from bot.tables.games import GAMES, load_game
from tests.discord_helpers import (  # noqa: F401
    guild_with, auto_move_for, auto_moves, components, latest_table, make_move, parse_cid, start_by_slash,
)
from bot.standin import GUILD_READY_TIMEOUT, logged_in
from tests.store.conftest import backend  # noqa: F401 — fixture: both back ends (PostgreSQL: tests/conftest.py)

DAMAGED = "This table is damaged"


@asynccontextmanager
async def bot_on(backend, monkeypatch):  # noqa: F811
    """A DeckhandBot whose store is the backend's database (call again for a restart)."""
    async def open_store(*_a, **_k):
        return await backend.open()

    monkeypatch.setattr(bot.app, "open_store", open_store)
    async with logged_in(bot.app.DeckhandBot("unused.sqlite3", run_timeouts=False,
                                             guild_ready_timeout=GUILD_READY_TIMEOUT)) as b:
        yield b


def people(standin, n=3):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


async def court_wars(standin, b, g, users):
    channel = await start_by_slash(standin, b, g, users, "court_wars")
    for i in range(2):
        seat, move = await auto_move_for(b, channel, i)
        await make_move(standin, b, channel, seat, move, users)
    return channel


async def damage(store, channel: int) -> None:
    """An illegal entry at the end of the move log (the row itself still loads)."""
    [(tid, count)] = await store.execute(f"SELECT table_id, move_count FROM tables WHERE channel_id = {channel}")
    bad = json.dumps([0, "no such move at all", 1.0])
    await store.execute(f"UPDATE moves SET entry = '{bad}' WHERE table_id = '{tid}' AND ply = {count - 1}")
    GAMES.clear()


def one_line(res) -> None:
    assert res.ephemeral, res.text
    assert DAMAGED in res.text and "\n" not in res.text.strip(), res.text
    assert "went wrong" not in res.text and "not possible now" not in res.text, res.text


async def test_a_damaged_table_says_so_and_the_host_sets_it_aside(standin, backend, monkeypatch):  # noqa: F811
    g, users = people(standin)
    async with bot_on(backend, monkeypatch) as b:
        channel = await court_wars(standin, b, g, users)
        table_msg = int(latest_table(standin, channel)["id"])
        buttons = [c["custom_id"] for c in components(standin, table_msg) if c.get("custom_id", "").startswith("dh2:")]
        seat, _ = await auto_move_for(b, channel, 0)
        panel = await standin.slash(b, "game hand", user=users[seat], guild=g)  # a private panel, opened before
        assert panel.ephemeral and panel.message_id
        private = [c["custom_id"] for c in components(standin, panel.message_id)  # the table's (a first turn's
                   if c.get("custom_id", "").startswith("dh2:") and ":ln:" not in c["custom_id"]]  # lesson offer is not)
        await damage(b.store, channel)
    async with bot_on(backend, monkeypatch) as b:  # a restart: nothing cached
        for command in ("game status", "game hand", "game history", "game hint"):
            one_line(await standin.slash(b, command, user=users[0], guild=g))
        one_line(await standin.slash(b, "game new", {"game": "court_wars"}, user=users[1], guild=g))
        one_line(await standin.slash(b, "game move", {"move": "draw"}, user=users[0], guild=g))
        one_line(await standin.slash(b, "game join", user=users[1], guild=g))
        one_line(await standin.slash(b, "game turnlimit", {"minutes": 5}, user=users[0], guild=g))
        assert buttons
        for cid in buttons:  # every button on it is answered with the one line
            one_line(await standin.click(b, table_msg, cid, user=users[0]))
        assert private
        for cid in private:  # and every button of a private panel opened before
            one_line(await standin.click(b, panel.message_id, cid, user=users[seat]))
        # Abandon: a player who is not the host, without Manage Messages, is refused.
        res = await standin.slash(b, "game abandon", user=users[1], guild=g)
        assert res.ephemeral and "Only the host" in res.text, res.text
        one_line(await standin.slash(b, "game status", user=users[0], guild=g))
        res = await standin.slash(b, "game abandon", user=users[0], guild=g)
        assert res.ephemeral and "set aside" in res.text, res.text
        assert len(await b.store.set_aside_rows(channel)) == 1
        res = await standin.slash(b, "game new", {"game": "court_wars"}, user=users[1], guild=g)
        assert not res.ephemeral and res.embeds, res.text
        assert (await b.desk.require_public(channel)).table.status == "lobby"


async def test_manage_messages_sets_a_damaged_table_aside(standin, backend, monkeypatch):  # noqa: F811
    g, users = people(standin, 4)
    mod = users[3]
    g.members[int(mod["id"])]["permissions"] = str(discord.Permissions(view_channel=True, send_messages=True,
                                                                       manage_messages=True).value)
    async with bot_on(backend, monkeypatch) as b:
        channel = await court_wars(standin, b, g, users[:3])
        await damage(b.store, channel)
        b.service._rows.clear()
        res = await standin.slash(b, "game abandon", user=mod, guild=g)
        assert res.ephemeral and "set aside" in res.text, res.text
        res = await standin.slash(b, "game new", {"game": "court_wars"}, user=mod, guild=g)
        assert not res.ephemeral and res.embeds, res.text




# ----- drafts: only the table, seat and decision they were made for -----------------------------
async def test_another_seats_or_tables_draft_is_refused_as_stale(standin, bot):
    import copy
    import dataclasses

    from bot.tables.errors import StaleError
    from bot.ui import payloads

    g, users = people(standin)
    channel = await court_wars(standin, bot, g, users)
    other = g.text_channel("other")
    other_id = await start_by_slash(standin, bot, g, users, "court_wars", channel=other)

    seat, move = await auto_move_for(bot, channel, 7)
    mover = users[seat]
    idle = users[(seat + 1) % 3]
    reader = await bot.desk.reader(channel, int(mover["id"]))
    drafts = payloads.Drafts()
    drafts.pending["k" * 8] = tuple(move.split())
    await bot.desk.save_drafts(drafts, reader)
    tid, opened = reader.table.key, reader.opened
    key = "k" * 8
    # The mover's own draft, asked for rightly, is theirs.
    assert await bot.desk.get_draft(key, channel, int(mover["id"]), tid, opened) == tuple(move.split())
    # Another seat, another table, another table id, another decision: stale.
    asks = [(channel, int(idle["id"]), tid, opened),
            (other_id, int(mover["id"]), tid, opened),
            (other_id, int(mover["id"]), (await bot.desk.reader(other_id, int(mover["id"]))).table.key, opened),
            (channel, int(mover["id"]), tid, opened + 1)]
    for ask in asks:
        with pytest.raises(StaleError):
            await bot.desk.get_draft(key, *ask)

    # Through Discord: a button naming the mover's draft, pressed by another seat or at another
    # table, is refused as stale and changes nothing.
    before = {ch: dataclasses.asdict(await bot.service.get(ch)) for ch in (channel, other_id)}
    for ch, who in ((channel, idle), (other_id, mover)):
        shown = copy.deepcopy(latest_table(standin, ch))
        forged = f"dh2:{tid}:{opened}:ok:~{key}"
        shown["components"][0]["components"][0]["custom_id"] = forged
        shown["components"][0]["components"][0].pop("disabled", None)
        payload = standin._component_payload(shown, {"custom_id": forged, "component_type": 2}, who)
        res = await standin.interact(bot, payload)
        assert res.ephemeral and "moved on" in res.text, res.text
    after = {ch: dataclasses.asdict(await bot.service.get(ch)) for ch in (channel, other_id)}
    assert after == before


# ----- the sweep's notices: one channel's failure never stops the others' ----------------------
async def test_one_channels_notice_failing_does_not_stop_the_others(standin, bot, monkeypatch):
    from tests.conftest import Clock

    g, users = people(standin)
    channels = [await start_by_slash(standin, bot, g, users, "court_wars", minutes=1, channel=g.text_channel(f"t{i}"))
                for i in range(4)]
    clock = Clock(bot.desk.clock())
    bot.service.clock = clock
    clock.advance(2 * 86400)
    cog = bot.get_cog("Tables")
    broken_show, broken_send = channels[0], channels[2]
    real_show = cog.place.show_made  # the sweep's edit of a table message

    async def show_table(reader, *a, **kw):
        if reader.table.channel_id == broken_show:
            raise RuntimeError("the table message could not be built")
        return await real_show(reader, *a, **kw)

    monkeypatch.setattr(cog.place, "show_made", show_table)
    # The sweep posts its notices through a discord.py HTTPClient: the bot's, or its sender thread's own.
    real_send = discord.http.HTTPClient.send_message

    def send_message(http, cid, **kw):
        if int(cid) == broken_send:
            raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "Missing Access")
        return real_send(http, cid, **kw)

    monkeypatch.setattr(discord.http.HTTPClient, "send_message", send_message)
    before = {c: len(standin.channel_messages(c, include_ephemeral=False)) for c in channels}
    assert await cog.check_timeouts() == 2
    await standin.settle(bot)
    for c in channels:
        posted = standin.channel_messages(c, include_ephemeral=False)[before[c]:]
        notices = [m for m in posted if "time is up" in (m.get("content") or "")]
        assert len(notices) == (0 if c in (broken_show, broken_send) else 1), (c, posted)
    for c in channels:  # every table was still marked timed out
        assert (await bot.service.get(c)).timed_out


# ----- every change of revision edits the live table message ------------------------------------
TABLE_KINDS = {"jn", "lv", "st", "cx", "ab", "me", "sh", "cc", "sk", "rv", "rm", "ng", "sf"}
HARMLESS = {"lv", "st", "cx", "cc", "sk", "rv", "me", "sf"}  # pressed by an outsider: a refusal, nothing changes


async def assert_live_buttons_current(standin, b, channel: int, outsider: dict, step: str) -> None:
    table = await b.service.get(channel)
    live = await b.desk.message_id(channel)
    assert live is not None, step
    table_cids = [c["custom_id"] for c in components(standin, live)
                  if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] in TABLE_KINDS]
    assert table_cids, (step, components(standin, live))
    for custom_id in table_cids:
        tid, rev, kind, _ = parse_cid(custom_id)
        assert (tid, rev) == (table.table_id, table.revision), (step, custom_id, table.revision)
    for custom_id in table_cids:
        if parse_cid(custom_id)[2] not in HARMLESS:
            continue
        comp = standin._component(standin._message(live), custom_id)
        if comp.get("disabled"):
            continue
        res = await standin.click(b, live, custom_id, user=outsider)
        assert "moved on" not in (res.text or ""), (step, custom_id, res.text)
        after = await b.service.get(channel)
        assert after.revision == table.revision, (step, custom_id, res.text)


async def test_every_change_leaves_the_live_table_buttons_current(standin, bot):
    from tests.conftest import Clock

    g, users = people(standin, 4)
    ana, ben, cat, dee = users
    outsider = standin.user(name="eve")
    g.add_member(outsider)
    channel = int(g.channel["id"])
    clock = Clock(bot.desk.clock())
    bot.service.clock = clock

    async def check(step):
        await standin.settle(bot)
        await assert_live_buttons_current(standin, bot, channel, outsider, step)

    await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    await check("new")
    live = await bot.desk.message_id(channel)
    await standin.click(bot, live, label="Join", user=ben)
    await check("join button")
    await standin.slash(bot, "game join", user=cat, guild=g)
    await check("/game join")
    await standin.slash(bot, "game leave", user=cat, guild=g)
    await check("/game leave")
    await standin.click(bot, await bot.desk.message_id(channel), label="Join", user=cat)
    await check("join again")
    await standin.click(bot, await bot.desk.message_id(channel), label="Add Normal bot", user=ana)
    await check("add a bot")
    await standin.slash(bot, "game turnlimit", {"minutes": 5}, user=ana, guild=g)
    await check("/game turnlimit in the lobby")
    await standin.click(bot, await bot.desk.message_id(channel), label="Start", user=ana)
    await check("start")
    await standin.slash(bot, "game turnlimit", {"minutes": 10}, user=ana, guild=g)
    await check("/game turnlimit in play")
    seated = [ana, ben, cat]
    for i in range(2):
        table = await bot.service.get(channel)
        seat, move = await auto_move_for(bot, channel, i)
        if table.seats[seat].user_id < 0:
            break
        await make_move(standin, bot, channel, seat, move, seated + [dee])
        await check(f"move {i}")
    await standin.slash(bot, "game status", user=ben, guild=g)
    await check("/game status")
    cog = bot.get_cog("Tables")
    for action in ("Skip", "Remove"):
        clock.advance(2 * 86400)
        await cog.check_timeouts()
        await check(f"time up before {action}")
        table = await bot.service.get(channel)
        if table.status != "playing":
            break
        late = {table.seats[s].user_id for s in load_game(table).to_act()}
        other = next(u for u in seated if int(u["id"]) not in late)
        res = await standin.click(bot, await bot.desk.message_id(channel), label=action, user=other)
        assert "moved on" not in res.text, res.text
        await check(action)


# ----- text boxes: two at once, and one opened before a restart ---------------------------------
CE = "celestial_emperor"


def text_verbs(game, seat: int) -> list[str]:
    c = game.choices(seat, ())
    return [o.token for o in getattr(c, "options", None) or [] if game.choices(seat, (o.token,)).kind == "text"]


async def ce_at_the_epilogue(standin, b, users):
    """Warriors of the Celestial Emperor played (through the desk) until two or more players are
    asked for a line at once (the winner's victory and the losers' epilogue)."""
    import random

    from bot.tables import Actor

    g = standin.guild()
    for u in users:
        g.add_member(u)
    channel = await start_by_slash(standin, b, g, users, CE, variants="Seat Order Clans")
    rng = random.Random(3)
    for _ in range(3000):
        table = await b.service.get(channel)
        game = load_game(table)
        writers = {s: text_verbs(game, s) for s in sorted(game.to_act()) if text_verbs(game, s)}
        if len(writers) >= 2:
            return g, channel, writers
        seat = min(game.to_act())
        move = str(spec_of(table.game).player(game, seat, rng))
        if move.split()[0] in ("setting", "describe", "strike", "parry", "withdraw", "nullify", "victory", "return"):
            move = f"{move.split()[0]} A line."
        await b.desk.move(channel, Actor(int(users[seat]["id"]), users[seat]["username"]), move)
    raise AssertionError("no two text boxes at once")


def spec_of(game_id):
    from bot.engine.registry import spec

    return spec(game_id)


async def open_box(standin, b, g, user, verb):
    """/game hand, then the verb's ✍ button: the text box the bot shows (its custom_id)."""
    panel = await standin.slash(b, "game hand", user=user, guild=g)
    assert panel.ephemeral and panel.message_id, panel.text
    for c in components(standin, panel.message_id):
        cid = c.get("custom_id", "")
        if cid.startswith("dh2:") and parse_cid(cid)[2] in ("t", "s"):
            arg = parse_cid(cid)[3]
            tokens = await b.desk.get_draft(arg[1:], int(g.channel["id"]), int(user["id"]), parse_cid(cid)[0],
                                            parse_cid(cid)[1]) if arg.startswith("~") else tuple(arg.split())
            if tokens == (verb,):
                res = await standin.click(b, panel.message_id, cid, user=user)
                if res.modal is None and res.message_id:  # a step first, then the text button
                    return await open_box_on(standin, b, res.message_id, user)
                assert res.modal is not None, res.text
                return res.modal["custom_id"]
    raise AssertionError(f"no text button for {verb!r}")


async def open_box_on(standin, b, message_id, user):
    cid = next(c["custom_id"] for c in components(standin, message_id)
               if c.get("custom_id", "").startswith("dh2:") and parse_cid(c["custom_id"])[2] == "t")
    res = await standin.click(b, message_id, cid, user=user)
    assert res.modal is not None, res.text
    return res.modal["custom_id"]


async def submit(standin, b, modal_id, user, text):
    field = standin.modal_fields(modal_id)[0]["custom_id"]
    return await standin.submit_modal(b, modal_id, {field: text}, user=user)


def logged_lines(table) -> list[str]:
    return [str(m[1]) for m in table.moves]


async def test_two_players_text_boxes_at_once_both_saved_and_answered(standin, bot):
    users = [standin.user(name=x) for x in ("ana", "ben", "cat")]
    g, channel, writers = await ce_at_the_epilogue(standin, bot, users)
    (a, verb_a), (b_, verb_b) = list(writers.items())[:2]
    box_a = await open_box(standin, bot, g, users[a], verb_a[0])
    box_b = await open_box(standin, bot, g, users[b_], verb_b[0])
    assert box_a != box_b, "each opened box has its own id"
    res_a = await submit(standin, bot, box_a, users[a], "Ana's closing words, said once.")
    res_b = await submit(standin, bot, box_b, users[b_], "Ben's closing words, said once.")
    for res in (res_a, res_b):
        assert res.answered and "went wrong" not in (res.text or "") and "moved on" not in (res.text or ""), res.text
    lines = " | ".join(logged_lines(await bot.service.get(channel)))
    assert "Ana's closing words, said once." in lines and "Ben's closing words, said once." in lines, lines


async def test_a_text_box_opened_before_a_restart_is_answered(standin, make_bot):
    users = [standin.user(name=x) for x in ("ana", "ben", "cat")]
    async with logged_in(make_bot()) as b1:
        g, channel, writers = await ce_at_the_epilogue(standin, b1, users)
        (a, verb_a), (b_, verb_b) = list(writers.items())[:2]
        box_a = await open_box(standin, b1, g, users[a], verb_a[0])
        box_b = await open_box(standin, b1, g, users[b_], verb_b[0])
    async with logged_in(make_bot()) as b2:  # a restart: the boxes were opened by the old process
        res = await submit(standin, b2, box_a, users[a], "Still valid after the restart.")
        assert res.answered and "moved on" not in res.text and "went wrong" not in res.text, res.text
        assert "Still valid after the restart." in " | ".join(logged_lines(await b2.service.get(channel)))
        # B's line is sent another way first: the old box is stale now, and gives the text back.
        from bot.tables import Actor

        await b2.desk.move(channel, Actor(int(users[b_]["id"]), "ben"), f"{verb_b[0]} Said with /game say.")
        typed = "My long-considered words that must not be lost."
        res = await submit(standin, b2, box_b, users[b_], typed)
        assert res.ephemeral and typed in res.text, res.text
        assert typed not in " | ".join(logged_lines(await b2.service.get(channel)))


# ----- text injection: hostile names and story lines are escaped everywhere ------------------
HOSTILE_NAME = "Eve [free nitro](https://evil.example) <@&4242> **Boss** ```"
HOSTILE_LINE = ("so it goes\n**The Dragon forfeits. bob wins.** [click me](https://evil.example) <@&4242> "
                "@everyone ``` unclosed")


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in ("custom_id", "url", "proxy_url", "icon_url", "id")
                for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def injections(text: str) -> list[str]:
    """Each unescaped piece of hostile text in ``text``, with a little context."""
    import re

    patterns = {
        "a role mention": r"<@&",
        "@everyone": r"@everyone",
        "a masked link": r"(?<!\\)\]\(",
        "a code fence": r"```",
        "bold": r"\*\*(The Dragon|Boss\*\*)",
        "a line of its own": r"(?m)^[\\* ]*The Dragon forfeits",
    }
    return [f"{what}: {text[max(0, m.start() - 40):m.end() + 20]!r}"
            for what, pattern in patterns.items() for m in re.finditer(pattern, text)]


def every_version(standin) -> list[tuple[str, str]]:
    """(where, text) of every message body and uploaded Markdown file the bot sent."""
    out = []
    for rec in standin.requests:
        if rec.method not in ("POST", "PATCH") or not isinstance(rec.json, dict):
            continue
        body = rec.json.get("data") if isinstance(rec.json.get("data"), dict) else rec.json
        for key in ("content", "embeds"):
            for s in _strings(body.get(key)):
                out.append((f"{rec.method} {rec.path} {key}", s))
        for f in rec.files:
            if f.filename.endswith(".md"):
                out.append((f"{rec.path} {f.filename}", f.data.decode()))
    return out


async def test_hostile_names_and_lines_are_escaped_everywhere(standin, bot):
    g = standin.guild()
    users = [standin.user(name=x) for x in ("eve", "ben", "cat")]
    g.add_member(users[0], nick=HOSTILE_NAME)
    for u in users[1:]:
        g.add_member(u)
    channel = int(g.channel["id"])
    res = await standin.slash(bot, "game new", {"game": CE, "variants": "Seat Order Clans"}, user=users[1], guild=g)
    await standin.click(bot, res.message_id, label="Join", user=users[0])
    await standin.click(bot, res.message_id, label="Add Normal bot", user=users[1])
    await standin.slash(bot, "game leave", user=users[0], guild=g)
    await standin.slash(bot, "game join", user=users[0], guild=g)
    await standin.slash(bot, "game start", user=users[1], guild=g)
    async for i, table, seat, move in auto_moves(bot, channel, 600):
        verb = move.split()[0]
        if verb in ("setting", "describe", "strike", "parry", "withdraw", "nullify", "victory", "return"):
            move = f"{verb} {HOSTILE_LINE}"
        by_id = {int(u["id"]): u for u in users}
        await make_move(standin, bot, channel, seat, move, [by_id.get(s.user_id) for s in table.seats])
        if i % 40 == 0:
            for command in ("game history", "game status", "game story"):
                await standin.slash(bot, command, user=users[1], guild=g)
    assert (await bot.service.get(channel)).status == "finished"
    for command in ("game history", "game story"):
        await standin.slash(bot, command, user=users[1], guild=g)
    await standin.click(bot, await bot.desk.message_id(channel), label="Story file", user=users[1])
    texts = every_version(standin)
    assert any("evil.example" in t for _, t in texts), "the hostile text was shown somewhere"
    assert any(f.endswith(".md") for f, _ in texts), "a story file was sent"
    bad = [(where, kinds, t[:300]) for where, t in texts if (kinds := injections(t))]
    found: dict[tuple[str, str], str] = {}
    for where, kinds, _ in bad:
        for k in kinds:
            found.setdefault((where.split(" ")[-1], k.split(":")[0]), k)
    assert not found, "\n".join(f"{w} — {k}" for (w, _), k in sorted(found.items()))
