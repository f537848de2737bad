"""A link to any moment of a replay, through the Discord stand-in: **Share this moment** posts the
step's public picture and words in the channel ("move N of M"), whatever eyes the sharer looked
through, with a button that opens the private viewer at that step; ``/game replay move:N`` opens
the viewer there (a move out of range is refused in a short message, nothing else)."""

from __future__ import annotations

from tests.discord_helpers import components, parse_cid, public_posts
from tests.test_discord_replay import finish, parts, people, step_of


def share_button(standin, message_id: int) -> dict:
    return next(c for c in components(standin, message_id) if parse_cid(c["custom_id"])[2] == "rs")


async def test_a_shared_moment_is_public_and_opens_the_viewer_at_its_step(standin, bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "celestial_emperor", users, bots=1, seed=3)
    record = await bot.service.last_record(channel)
    last = len(record["moves"])
    key = (await standin.autocomplete(bot, "game replay", focused="game", user=users[0], guild=g))[0]["value"]

    res = await standin.slash(bot, "game replay", {"game": key, "move": 5}, user=users[0], guild=g)
    assert res.ephemeral and step_of(standin, res.message_id) == 5
    assert f"Move 5 of {last}" in standin._message(res.message_id)["embeds"][0]["description"]
    # through ana's own eyes (her hand shown to her), and then shared: the post is the public view
    eyes = parts(standin, res.message_id)["eyes"]
    await standin.select(bot, res.message_id, eyes["custom_id"], ["0"], user=users[0])
    assert "ana's view" in standin._message(res.message_id)["embeds"][0]["footer"]["text"]
    before = len(public_posts(standin, channel))
    shared = await standin.click(bot, res.message_id, share_button(standin, res.message_id)["custom_id"], user=users[0])
    posts = public_posts(standin, channel)[before:]
    assert len(posts) == 1 and not shared.ephemeral
    post = posts[0]
    assert f"move 5 of {last}" in post["content"] and post["content"].lower().startswith("ana shares")
    assert f"Move 5 of {last}" in post["embeds"][0]["description"]
    assert post["embeds"][0]["footer"]["text"].startswith("The public view")
    assert [f.filename for f in standin.files(int(post["id"]))] == ["replay.png"]
    assert not standin.pinged_user_ids(post)
    opener = [c for c in components(standin, int(post["id"]))]
    assert len(opener) == 1 and parse_cid(opener[0]["custom_id"])[:3] == (key, 5, "ro")

    # ben (who played too) opens it: his own viewer, privately, at move 5, from the public view
    opened = await standin.click(bot, int(post["id"]), opener[0]["custom_id"], user=users[1])
    assert opened.ephemeral and step_of(standin, opened.message_id) == 5
    assert "The public view" in standin._message(opened.message_id)["embeds"][0]["footer"]["text"]
    assert len(public_posts(standin, channel)) == before + 1, "opening posts nothing in the channel"


async def test_replay_at_a_move_out_of_range_is_refused(standin, bot):
    g, users = people(standin, 2)
    channel = int(g.channel["id"])
    await finish(bot, channel, g.id, "court_wars", users, bots=1, seed=4)
    last = len((await bot.service.last_record(channel))["moves"])
    key = (await standin.autocomplete(bot, "game replay", focused="game", user=users[0], guild=g))[0]["value"]
    posted = len(standin.channel_messages(channel))
    for bad in (last + 1, -1):
        res = await standin.slash(bot, "game replay", {"game": key, "move": bad}, user=users[0], guild=g)
        assert res.ephemeral and res.text == f"That game has moves 0 (the deal) to {last}; there is no move {bad}."
        assert not standin._message(res.message_id).get("embeds")
    assert len(standin.channel_messages(channel)) == posted + 2, "two refusals, nothing else"
    res = await standin.slash(bot, "game replay", {"game": key, "move": last}, user=users[0], guild=g)
    assert step_of(standin, res.message_id) == last
