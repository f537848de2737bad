"""``/game replay`` through the Discord stand-in: a private viewer of a finished game with ⏮ ◀ ▶ ⏭,
a move picker paged past 25 and whose eyes to look through (as the game's export policy allows);
its buttons work after a restart; Celestial Emperor shows the public view (and a seated player's
own); today's daily deal is refused until the day ends; an exported record can be attached."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine.registry import spec
from bot.records import replay as replay_record
from bot.tables import Actor
from bot.tables.games import load_game
from bot.ui import replay as replay_ui
from tests.contract.harness import Knowledge, assert_none_leak, card_universe, e_revealed, faces
from tests.discord_helpers import guild_with, components, parse_cid
from tests.service_helpers import turns
from bot.standin import GUILD_READY_TIMEOUT, logged_in


def people(standin, n=2):
    return guild_with(standin, ("ana", "ben", "cat", "dee")[:n])


async def finish(bot, channel: int, guild: int | None, game: str, users: list[dict], bots: int = 0,
                 seed: int = 1) -> None:
    """A whole game at a table, every person's move the built-in player's (through the service),
    dealt from ``seed`` too (the lobby otherwise draws a table's seed from ``secrets``)."""
    from tests.play_loop import seeded

    actors = [Actor(int(u["id"]), u["username"]) for u in users]
    with seeded(seed):
        await bot.service.new_table(channel, guild, actors[0], game)
    for a in actors[1:]:
        await bot.service.join(channel, a)
    for _ in range(bots):
        await bot.service.add_bot(channel, actors[0])
    if spec(game).max_players > 1:
        await bot.service.start(channel, actors[0])
    rng = random.Random(seed)
    async for table, g, seat in turns(bot.service, channel, 5000):
        move = str(spec(game).player(g, seat, random.Random(rng.random())))
        who = next(a for a in actors if a.user_id == table.seats[seat].user_id)
        await bot.service.move(channel, who, move)
    assert (await bot.service.get(channel)).status == "finished"


async def stepped(standin, bot, message_id: int, user: dict, record: dict) -> AsyncIterator[tuple[int, Any, list]]:
    """The replay message stepped through the whole game with its Next button, beside the game
    replayed from ``record``: ``(step, game, events of that step)``, the message showing it."""
    game = spec(record["game"]).state.new(record["players"], record["options"], seed=record["seed"])
    events: list = []
    for step in range(len(record["moves"]) + 1):
        if step:
            seat, move = record["moves"][step - 1]
            game, events = game.apply(seat, move)
            await standin.click(bot, message_id, parts(standin, message_id)["n"]["custom_id"], user=user)
        assert step_of(standin, message_id) == step
        yield step, game, events


def parts(standin, message_id: int) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for c in components(standin, message_id):
        _, _, kind, arg = parse_cid(c["custom_id"])
        if kind == "rp":
            out[arg.split(".")[0]] = c
        elif kind == "rk":
            out["pick"] = c
        elif kind == "re":
            out["eyes"] = c
    return out


def step_of(standin, message_id: int) -> int:
    return parse_cid(parts(standin, message_id)["n"]["custom_id"])[1]


async def test_replay_steps_through_a_finished_game_and_survives_a_restart(standin, bot, make_bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "court_wars", users, bots=1, seed=4)
    record = await bot.service.last_record(channel)
    last = len(record["moves"])
    assert last > 25, "long enough to page the picker"

    listed = await standin.autocomplete(bot, "game replay", focused="game", user=users[1], guild=g)
    assert listed and "Court Wars" in listed[0]["name"]
    res = await standin.slash(bot, "game replay", {"game": listed[0]["value"]}, user=users[1], guild=g)
    assert res.ephemeral, "the viewer is private"
    mid = res.message_id
    msg = standin._message(mid)
    assert "The deal" in msg["embeds"][0]["description"]
    assert [f.filename for f in standin.files(mid)] == ["replay.png"]
    p = parts(standin, mid)
    assert [p[k]["emoji"]["name"] for k in "fbnl"] == ["⏮", "◀", "▶", "⏭"]
    assert p["f"].get("disabled") and p["b"].get("disabled") and not p["n"].get("disabled")
    # Court Wars tells everything after the game: the public view and every seat's.
    assert [o["value"] for o in p["eyes"]["options"]] == ["p", "0", "1", "2"]
    assert all(len(c["custom_id"]) <= 100 for c in components(standin, mid))

    await standin.click(bot, mid, p["n"]["custom_id"], user=users[1])
    assert step_of(standin, mid) == 1
    assert "Move 1 of" in standin._message(mid)["embeds"][0]["description"]
    await standin.click(bot, mid, parts(standin, mid)["l"]["custom_id"], user=users[1])
    assert step_of(standin, mid) == last
    end = parts(standin, mid)
    assert end["l"].get("disabled") and end["n"].get("disabled")
    await standin.click(bot, mid, end["b"]["custom_id"], user=users[1])
    assert step_of(standin, mid) == last - 1
    # The picker: a page of moves, and its other pages.
    pick = parts(standin, mid)["pick"]
    values = [o["value"] for o in pick["options"]]
    assert len(values) <= 25 and any(v.startswith("p") for v in values)
    earlier = next(v for v in values if v.startswith("p"))
    await standin.select(bot, mid, pick["custom_id"], [earlier], user=users[1])
    assert step_of(standin, mid) == last - 1, "turning the picker's page does not move"
    pick = parts(standin, mid)["pick"]
    target = next(o["value"] for o in pick["options"] if o["value"].startswith("s"))
    await standin.select(bot, mid, pick["custom_id"], [target], user=users[1])
    assert step_of(standin, mid) == int(target[1:])
    await standin.click(bot, mid, parts(standin, mid)["f"]["custom_id"], user=users[1])
    assert step_of(standin, mid) == 0
    await standin.click(bot, mid, parts(standin, mid)["n"]["custom_id"], user=users[1])
    eyes = parts(standin, mid)["eyes"]
    await standin.select(bot, mid, eyes["custom_id"], ["1"], user=users[1])
    assert "view" in standin._message(mid)["embeds"][0]["footer"]["text"]
    seen_before = json.dumps(standin._message(mid)["embeds"])
    old = parts(standin, mid)

    # A restart: a new bot on the same database; the old message's buttons still work.
    await bot.close()
    async with logged_in(make_bot()) as again:
        await standin.click(again, mid, old["n"]["custom_id"], user=users[1])
        assert step_of(standin, mid) == 2
        assert json.dumps(standin._message(mid)["embeds"]) != seen_before
        await standin.click(again, mid, parts(standin, mid)["b"]["custom_id"], user=users[1])
        assert step_of(standin, mid) == 1
        assert json.dumps(standin._message(mid)["embeds"]) == seen_before, "the same step looks the same"


def card_texts(msg: dict, with_components: bool = True) -> list[str]:
    texts = [msg.get("content") or ""]
    for e in msg.get("embeds") or []:
        texts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text", "")]
        texts += [f["name"] + "\n" + f["value"] for f in e.get("fields") or []]
    for row in (msg.get("components") or []) if with_components else []:
        for c in row.get("components") or []:
            texts.append(c.get("custom_id") or "")
            texts += [o["label"] + (o.get("description") or "") for o in c.get("options") or []]
    return texts


async def test_celestial_emperor_shows_the_public_view_and_a_players_own(standin, bot):
    g, users = people(standin, 3)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "celestial_emperor", users[:2], seed=2)
    record = await bot.service.last_record(channel)
    final = replay_record(record)
    universe = card_universe(final)
    # Someone who did not play: the public view only, no choice of eyes.
    res = await standin.slash(bot, "game replay", user=users[2], guild=g)
    assert res.ephemeral and res.message["embeds"], res.text
    mid = res.message_id
    assert "eyes" not in parts(standin, mid)
    assert "public view only" in standin._message(mid)["embeds"][0]["footer"]["text"]
    # Step through the whole game: every version of the message names no card the public could not know.
    async for step, game, events in stepped(standin, bot, mid, users[2], record):
        k = Knowledge(game.known(None), universe, frozenset(faces(universe)))
        revealed = frozenset().union(*(e_revealed(e) for e in events))
        msg = standin._message(mid)
        # The message as it is now (the picker's labels are each checked at their own step below).
        assert_none_leak(card_texts(msg, with_components=False), k.with_(revealed), f"the replay at step {step}")
        label = next(o["label"] for o in parts(standin, mid)["pick"]["options"] if o.get("default"))
        assert_none_leak([label], k.with_(revealed), f"the picker's label of step {step}")
    # A seated player: the public view and their own, never the other seat's.
    mine = await standin.slash(bot, "game replay", user=users[1], guild=g)
    eyes = parts(standin, mine.message_id)["eyes"]
    assert [o["value"] for o in eyes["options"]] == ["p", "1"]
    await standin.select(bot, mine.message_id, eyes["custom_id"], ["1"], user=users[1])
    own = mine.message_id
    assert "ben's view" in standin._message(own)["embeds"][0]["footer"]["text"]
    assert "ben's hand" in [f["name"] for f in standin._message(own)["embeds"][0]["fields"]]
    # Ben steps through his own view: every version names only what Ben's seat could know then.
    async for step, game, events in stepped(standin, bot, own, users[1], record):
        k = Knowledge(game.known(1), universe, frozenset(faces(universe)))
        revealed = frozenset().union(*(e_revealed(e) for e in events))
        assert_none_leak(card_texts(standin._message(own), with_components=False), k.with_(revealed),
                         f"Ben's replay at step {step}")


async def test_todays_daily_deal_is_refused_until_the_day_ends(standin, bot, clock):
    bot.service.clock = clock
    ana = standin.user(name="ana")
    dm = standin.dm_channel(ana)
    res = await standin.slash(bot, "game daily", user=ana)
    channel = int(dm["id"])
    actor = Actor(int(ana["id"]), "ana")
    rng = random.Random(3)
    for _ in range(2000):
        table = await bot.service.get(channel)
        if table.status != "playing":
            break
        g = load_game(table)
        await bot.service.move(channel, actor, str(spec("gridcannon").player(g, 0, random.Random(rng.random()))))
    assert res is not None and (await bot.service.get(channel)).status == "finished"
    listed = await standin.autocomplete(bot, "game replay", focused="game", user=ana, channel=dm)
    assert listed == [], "today's deal is not offered"
    refused = await standin.slash(bot, "game replay", user=ana, channel=dm)
    assert refused.ephemeral and "No finished game" in refused.text
    record_id = (await bot.store.execute("SELECT id FROM records ORDER BY id DESC LIMIT 1"))[0][0]
    from bot.tables.replays import stored_key

    named = await standin.slash(bot, "game replay", {"game": stored_key(record_id)}, user=ana, channel=dm)
    assert named.ephemeral and "daily deal stays secret" in named.text
    record = await bot.service.last_record(channel)
    upload = standin.upload("daily.json", json.dumps(record).encode())
    attached = await standin.slash(bot, "game replay", {"record": upload}, user=ana, channel=dm)
    assert attached.ephemeral and "daily deal stays secret" in attached.text
    clock.advance(24 * 3600)
    opened = await standin.slash(bot, "game replay", user=ana, channel=dm)
    assert opened.ephemeral and "Gridcannon" in opened.message["embeds"][0]["title"]


async def test_an_attached_record_is_replayed_and_its_buttons_survive_a_restart(standin, bot, make_bot, monkeypatch):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "knight_rogue_princess_dragon", users[:1], bots=3, seed=5)
    exported = await standin.slash(bot, "game export", user=users[0], guild=g)
    data = exported.files[0].data
    other = standin.guild()
    other.add_member(users[1])
    upload = standin.upload("game.json", data)
    res = await standin.slash(bot, "game replay", {"record": upload}, user=users[1], guild=other)
    assert res.ephemeral
    mid = res.message_id
    assert sorted(f.filename for f in standin.files(mid)) == ["record.json", "replay.png"]
    p = parts(standin, mid)
    assert len(p["eyes"]["options"]) == 5, "a game that tells all: the public view and every seat's"
    await standin.click(bot, mid, p["n"]["custom_id"], user=users[1])
    assert step_of(standin, mid) == 1
    assert sorted(f.filename for f in standin.files(mid)) == ["record.json", "replay.png"], "the record rides along"
    old = parts(standin, mid)
    await bot.close()
    from bot.tables.replays import REPLAYS

    REPLAYS.clear()  # a new process holds no replay: it reads the record back from the message
    async with logged_in(make_bot()) as again:
        monkeypatch.setattr(replay_ui, "DEFER_AFTER", 0.0)  # as if replaying took longer than Discord waits
        late = await standin.click(again, mid, old["l"]["custom_id"], user=users[1])
        assert late.callback_type == 6, "deferred, then the message edited"
        assert step_of(standin, mid) == len(json.loads(data)["moves"])
        assert sorted(f.filename for f in standin.files(mid)) == ["record.json", "replay.png"]
    garbage = standin.upload("x.json", b"not json")
    async with logged_in(make_bot()) as again:
        bad = await standin.slash(again, "game replay", {"record": garbage}, user=users[1], guild=other)
        assert bad.ephemeral and "not a Deckhand record" in bad.text


async def test_the_viewer_on_postgresql_across_a_restart(standin, pg_server, tmp_path):  # noqa: F811
    """The same viewer on a real PostgreSQL: recent games, a step, and a new bot on the same
    database answering the old message's buttons."""
    from bot.app import DeckhandBot

    url = await pg_server.create_database("replay_")
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    async with logged_in(DeckhandBot(tmp_path / "unused.sqlite3", database_url=url, run_timeouts=False,
                                    guild_ready_timeout=GUILD_READY_TIMEOUT)) as bot:
        await finish(bot, channel, g.id, "cardchess2", users, seed=6)
        listed = await standin.autocomplete(bot, "game replay", focused="game", user=users[0], guild=g)
        assert [c["name"].split(" — ")[0] for c in listed] == ["Cardchess2"]
        res = await standin.slash(bot, "game replay", {"game": listed[0]["value"]}, user=users[0], guild=g)
        mid = res.message_id
        eyes = parts(standin, mid)["eyes"]
        assert [o["value"] for o in eyes["options"]] == ["p", "0"], "Cardchess2 keeps its secrets: public and own"
        await standin.click(bot, mid, parts(standin, mid)["n"]["custom_id"], user=users[0])
        old = parts(standin, mid)
    async with logged_in(DeckhandBot(tmp_path / "unused.sqlite3", database_url=url, run_timeouts=False,
                                    guild_ready_timeout=GUILD_READY_TIMEOUT)) as again:
        await standin.click(again, mid, old["n"]["custom_id"], user=users[0])
        assert step_of(standin, mid) == 2
        await standin.select(again, mid, parts(standin, mid)["eyes"]["custom_id"], ["0"], user=users[0])
        assert "ana's view" in standin._message(mid)["embeds"][0]["footer"]["text"]


@pytest.mark.end_animation  # it reads the end message's animation
async def test_the_end_message_carries_the_game_as_an_animation_and_the_viewer_sends_a_seats(standin, bot):
    """The end of a game played through the stand-in: its one ending message carries the whole
    game as the public saw it (an animated GIF, described in words); the replay viewer sends the
    animation through a seat's eyes privately where the game tells all after it ends."""
    from PIL import Image

    from bot.render.animation import read_frames
    from tests.discord_helpers import auto_moves, make_move, public_posts
    from tests.play_loop import seeded

    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    with seeded(8):
        await standin.slash(bot, "game new", {"game": "court_wars"}, user=users[0], guild=g)
    await standin.slash(bot, "game join", user=users[1], guild=g)
    await standin.slash(bot, "game start", user=users[0], guild=g)
    async for _, _, seat, move in auto_moves(bot, channel, 400):
        await make_move(standin, bot, channel, seat, move, users)
    await standin.settle(bot)
    record = await bot.service.last_record(channel)
    ending = public_posts(standin, channel)[-1]
    assert "Court Wars is over" in ending["content"]
    shown = [a for a in ending["attachments"] if a["filename"].startswith("game.")]
    assert len(shown) == 1, ending["attachments"]
    alt = shown[0]["description"] or ""
    assert 0 < len(alt) <= 1024 and "Court Wars" in alt and f"{len(record['moves'])} moves" in alt
    assert "ana" in alt.lower() and "ben" in alt.lower()
    data = next(f.data for f in standin.files(int(ending["id"])) if f.filename == shown[0]["filename"])
    with Image.open(__import__("io").BytesIO(data)) as im:
        assert im.format in ("GIF", "WEBP") and im.n_frames >= 2
    assert len(read_frames(data)) <= len(record["moves"]) + 1  # one frame a move at most (unchanged ones merged)

    # The viewer: the public animation, and a seat's (Court Wars tells all once it is over).
    res = await standin.slash(bot, "game replay", user=users[1], guild=g)
    mid = res.message_id
    film = parts(standin, mid)["a"]
    assert not film.get("disabled")
    await standin.select(bot, mid, parts(standin, mid)["eyes"]["custom_id"], ["0"], user=users[1])
    sent = await standin.click(bot, mid, parts(standin, mid)["a"]["custom_id"], user=users[1])
    assert sent.ephemeral and "ana's view" in sent.text.lower()
    files = [f for f in sent.files if f.filename.startswith("game.")]
    from bot.render import animation
    from bot.tables.replays import Replay, file_key

    seat_frames = Replay(file_key(record), record).frames(0)
    assert len(files) == 1 and files[0].data == animation.draw("court_wars", seat_frames).data, "drawn from ana's eyes"
    described = [a for a in sent.message["attachments"] if a["filename"] == files[0].filename][0]["description"]
    assert "ana's eyes" in described.lower()


async def test_a_seats_animation_is_not_sent_where_the_game_keeps_its_secrets(standin, bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "cardchess2", users, seed=3)
    res = await standin.slash(bot, "game replay", user=users[1], guild=g)
    mid = res.message_id
    assert not parts(standin, mid)["a"].get("disabled"), "the public animation may be sent"
    await standin.select(bot, mid, parts(standin, mid)["eyes"]["custom_id"], ["1"], user=users[1])
    own = parts(standin, mid)["a"]
    assert own.get("disabled"), "a seat's eyes: its secrets stay secret"
    # The button is off, and the road behind it refuses too (a forged press).
    from bot.tables import TableError
    from bot.tables.films import film
    from bot.tables.replays import replays_of

    viewing = await replays_of(bot.desk).open(parse_cid(own["custom_id"])[0], channel, g.id, int(users[1]["id"]))
    assert viewing.allowed(1)
    with pytest.raises(TableError):
        await film(viewing, 1)
