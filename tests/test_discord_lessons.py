"""``/game learn`` through the Discord stand-in: each lesson played to its end privately, pressing
**Take**; a move of one's own through the normal private panel; an older message's press refused;
the end's **Start a real table**; and a first game's first turn offering the lesson once."""

from __future__ import annotations

import json

import pytest

from bot.engine.lessons import MAX_PRESSES, lesson, lesson_games
from bot.engine.registry import spec
from bot.tables.lessons import lesson_key
from tests.discord_helpers import components, guild_with, no_pictures, parse_cid

GAMES = lesson_games()


@pytest.fixture(autouse=True)
def _no_pictures(monkeypatch):
    no_pictures(monkeypatch)


def lesson_buttons(standin, mid: int) -> dict[str, dict]:
    """The lesson message's own buttons by their argument (o: take, a: another, n: a real table…)."""
    return {parse_cid(c["custom_id"])[3]: c for c in components(standin, mid) if parse_cid(c["custom_id"])[2] == "ln"}


async def open_lesson(standin, bot, game_id: str, user, g):
    res = await standin.slash(bot, "game learn", {"game": game_id}, user=user, guild=g)
    assert res.ephemeral, "a lesson is private"
    return res.message_id


@pytest.mark.parametrize("game_id", GAMES)
async def test_each_lesson_plays_to_its_end_through_discord(standin, bot, game_id):
    g, (ana,) = guild_with(standin, ("ana",))
    mid = await open_lesson(standin, bot, game_id, ana, g)
    les = lesson(game_id)
    presses = 0
    while "take" not in (msg := standin._message(mid))["content"].lower() or "o" in lesson_buttons(standin, mid):
        content = msg["content"]
        assert "only you can see this" in content
        assert f"Step {presses + 1} of {len(les.steps)}" in content, content
        assert f"/game rules game:{game_id} section:{les.steps[presses].section}" in content
        assert "@" not in content.replace("@everyone", ""), "no internal card codes"
        assert len(msg["embeds"]) == 2  # the lesson's table and the learner's hand
        assert all(len(c["custom_id"]) <= 100 for c in components(standin, mid))
        res = await standin.click(bot, mid, lesson_buttons(standin, mid)["o"]["custom_id"], user=ana)
        assert not res.ephemeral or res.message_id == mid
        presses += 1
        assert presses <= MAX_PRESSES
        if "o" not in lesson_buttons(standin, mid):
            break
    assert presses == len(les.steps)
    end = standin._message(mid)
    assert "The lesson is over" in end["content"] and "Start a real table" in end["content"]
    stored = await bot.service.store.lesson(int(ana["id"]), game_id)
    assert stored is not None and stored[1] == len(les.steps)
    real = await standin.click(bot, mid, lesson_buttons(standin, mid)["n"]["custom_id"], user=ana)
    assert not real.ephemeral, "the real table is public, in the channel"
    shown = json.dumps(standin._message(real.message_id)["embeds"], ensure_ascii=False)
    assert spec(game_id).title in shown
    if spec(game_id).min_players > 1:  # a lobby: the built-in player is a button away
        assert "Add Normal bot" in [label for _, label, _ in standin.buttons(real.message_id)]


async def test_a_move_of_ones_own_through_the_private_panel(standin, bot):
    g, (ana,) = guild_with(standin, ("ana",))
    mid = await open_lesson(standin, bot, "maginot_line", ana, g)
    await standin.click(bot, mid, lesson_buttons(standin, mid)["o"]["custom_id"], user=ana)  # the Aces, as offered
    await standin.click(bot, mid, lesson_buttons(standin, mid)["a"]["custom_id"], user=ana)
    picker = standin._message(mid)
    assert "choose your own move" in picker["content"]
    # The normal panel's steps, naming the lesson: play 10♦ alone (the lesson offered both diamonds).
    step = next(c for c in components(standin, mid) if c.get("label") == "Play 10♦")
    assert parse_cid(step["custom_id"])[0] == lesson_key("maginot_line", int(ana["id"]))
    await standin.click(bot, mid, step["custom_id"], user=ana)
    content = standin._message(mid)["content"]
    assert "move of your own" in content and "What happened" in content
    stored, revision = await bot.service.store.lesson(int(ana["id"]), "maginot_line")
    assert revision == 2 and stored[1][0].startswith("resource")
    # The lesson opened again elsewhere (where it was left) and played on there: the first message's
    # press is refused, and that message shows the lesson as it is now.
    other = await open_lesson(standin, bot, "maginot_line", ana, g)
    assert other != mid
    await standin.click(bot, other, lesson_buttons(standin, other)["o"]["custom_id"], user=ana)
    assert (await bot.service.store.lesson(int(ana["id"]), "maginot_line"))[1] == 3
    await standin.click(bot, mid, lesson_buttons(standin, mid)["o"]["custom_id"], user=ana)
    assert "moved on" in standin._message(mid)["content"]
    assert (await bot.service.store.lesson(int(ana["id"]), "maginot_line"))[1] == 3, "nothing played twice"
    assert lesson_buttons(standin, mid)["o"]["custom_id"] == lesson_buttons(standin, other)["o"]["custom_id"]
    # The lesson goes on: the script's next step fits again (the other diamond, then the taps).
    assert "Step " in content or "Hint:" in content
    # Start the lesson again: the deal afresh, its first step offered.
    await standin.click(bot, mid, lesson_buttons(standin, mid)["r"]["custom_id"], user=ana)
    assert "Step 1 of" in standin._message(mid)["content"] and "starts again" in standin._message(mid)["content"]
    assert (await bot.service.store.lesson(int(ana["id"]), "maginot_line")) == ([], 0)


async def test_the_first_turn_of_a_first_game_offers_the_lesson_once(standin, bot):
    g, (ana,) = guild_with(standin, ("ana",))
    lobby = await standin.slash(bot, "game new", {"game": "maginot_line"}, user=ana, guild=g)
    await standin.click(bot, lobby.message_id, label="Add Normal bot", user=ana)
    await standin.slash(bot, "game start", user=ana, guild=g)
    first = await standin.slash(bot, "game hand", user=ana, guild=g)
    assert first.ephemeral and "New to The Maginot Line?" in first.text
    learn = next(c for c in components(standin, first.message_id) if parse_cid(c["custom_id"])[2] == "ln")
    again = await standin.slash(bot, "game hand", user=ana, guild=g)
    assert "New to" not in again.text, "offered once"
    opened = await standin.click(bot, first.message_id, learn["custom_id"], user=ana)
    assert opened.ephemeral and "Step 1 of" in standin._message(opened.message_id)["content"]
    assert not await bot.service.store.offer_lesson(int(ana["id"]), "maginot_line")  # remembered in the store


async def test_no_offer_once_a_game_of_that_kind_was_played(standin, bot):
    from tests.test_discord_replay import finish

    g, (ana,) = guild_with(standin, ("ana",))
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "gridcannon", [ana], seed=3)  # a whole game, through the service
    assert await bot.service.store.stats(g.id, "gridcannon", int(ana["id"]))
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=ana, guild=g)
    first = await standin.slash(bot, "game hand", user=ana, guild=g)
    assert first.ephemeral and "New to" not in first.text and "Your seat" in first.text


async def test_a_line_of_ones_own_through_the_text_box(standin, bot):
    g, (ana,) = guild_with(standin, ("ana",))
    game = "knight_rogue_princess_dragon"
    mid = await open_lesson(standin, bot, game, ana, g)
    await standin.click(bot, mid, lesson_buttons(standin, mid)["o"]["custom_id"], user=ana)  # the flip
    await standin.click(bot, mid, lesson_buttons(standin, mid)["a"]["custom_id"], user=ana)
    tell = next(c for c in components(standin, mid) if c.get("label", "").startswith("✍"))
    box = (await standin.click(bot, mid, tell["custom_id"], user=ana)).modal
    fields = standin.modal_fields(box["custom_id"])
    values = {fields[0]["custom_id"]: "My **own** Princess climbs the tower @everyone"}
    then = next((f for f in fields if f["custom_id"] == "then"), None)
    if then is not None:
        values["then"] = [then["options"][0]["value"]]
    await standin.submit_modal(bot, box["custom_id"], values, user=ana)
    presses, revision = await bot.service.store.lesson(int(ana["id"]), game)
    assert revision == 2 and presses[1][0] == "tell My **own** Princess climbs the tower @everyone"
    content = standin._message(mid)["content"]
    assert "What happened" in content and "@everyone" not in content.replace("@\u200beveryone", "")


async def test_a_lesson_survives_a_restart(standin, bot, make_bot):
    from bot.standin import logged_in

    g, (ana,) = guild_with(standin, ("ana",))
    mid = await open_lesson(standin, bot, "maginot_line", ana, g)
    await standin.click(bot, mid, lesson_buttons(standin, mid)["o"]["custom_id"], user=ana)
    take = lesson_buttons(standin, mid)["o"]["custom_id"]
    async with logged_in(make_bot()) as again:  # a new process: nothing of the lesson held in memory
        await standin.click(again, mid, take, user=ana)
        assert "Step 3 of" in standin._message(mid)["content"]
        assert (await again.service.store.lesson(int(ana["id"]), "maginot_line"))[1] == 2
