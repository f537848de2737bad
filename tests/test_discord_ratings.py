"""Ratings through the Discord stand-in: a lobby shows each seated player's rating, a rated game's
end says each person's change, and ``/game rating`` answers privately with the new numbers."""

from __future__ import annotations

from tests.discord_helpers import latest_table
from tests.store.conftest import backend  # noqa: F401 — fixture: both back ends (PostgreSQL: tests/conftest.py)
from tests.test_discord_bots import people
from tests.test_discord_faults import bot_on


async def test_a_game_rates_its_players_and_rating_answers_privately(standin, backend, monkeypatch):  # noqa: F811
    g, (ana, ben) = people(standin)
    channel = int(g.channel["id"])
    async with bot_on(backend, monkeypatch) as bot:
        lobby = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
        joined = await standin.click(bot, lobby.message_id, label="Join", user=ben)
        ratings = next(f["value"] for f in joined.embed["fields"] if f["name"] == "Ratings")
        assert "ana — new (1,000)" in ratings.lower() and "ben — new (1,000)" in ratings.lower()
        await standin.click(bot, lobby.message_id, label="Start", user=ana)
    async with bot_on(backend, monkeypatch) as bot:  # a restart mid-game: the game is rated all the same
        await _finish_and_look(standin, bot, g, channel, ana, ben)


async def _finish_and_look(standin, bot, g, channel, ana, ben):
    asked = await standin.slash(bot, "game leave", user=ben, guild=g)  # a forfeit: asks first
    sure = await standin.click(bot, asked.message_id, label="Confirm", user=ben)
    table = await bot.service.get(channel)
    assert table.status == "finished"
    ending = [m for m in sure.followups if "is over" in (m.get("content") or "")]
    assert len(ending) == 1 and "Ratings:" in ending[0]["content"], sure.followups
    assert "→" in ending[0]["content"] and "(+" in ending[0]["content"] and "(−" in ending[0]["content"]
    mine = await standin.slash(bot, "game rating", {"game": "court_wars"}, user=ana, guild=g)
    assert mine.ephemeral
    shown = str(mine.embed)
    from bot.ratings import display

    (stored,) = await bot.store.player_ratings(int(g.id), int(ana["id"]), "court_wars")
    assert display(stored.mu, stored.sigma) > 1000 and f"{display(stored.mu, stored.sigma):,}" in shown
    theirs = await standin.slash(bot, "game rating", {}, user=ben, guild=g)
    assert theirs.ephemeral and "Court Wars" in str(theirs.embed)
    assert latest_table(standin, channel)
