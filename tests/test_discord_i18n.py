"""A whole seeded Gridcannon game through the Discord stand-in for a Spanish and a German player (in a
DM, and at a Spanish or German server's table): every version of every message, every component,
modal, autocomplete, embed and picture description they get carries no English message of the
catalogue; the table keeps its language in its row, each private answer follows the reader's own."""

from __future__ import annotations

import pytest

from bot.i18n.lang import language_of
from tests.discord_helpers import auto_move_for, latest_table, press_move
from tests.test_i18n_messages import english_left

SKIP = {"custom_id", "url", "proxy_url", "filename", "id", "channel_id", "guild_id", "application_id", "token",
        "content_type", "emoji", "timestamp", "type", "style"}
LOCALES = {"es": "es-ES", "de": "de"}


def texts(value, out: list[str]) -> list[str]:
    """Every string a person may read in a payload (ids, links and file names aside)."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in SKIP:
                texts(v, out)
    elif isinstance(value, list):
        for v in value:
            texts(v, out)
    return out


def everything_read_by(standin, user_id: int, channel_id: int) -> str:
    """Every version of everything the bot showed this user (their own private things and the
    channel's messages), with each picture's description (alt text)."""
    out: list[str] = []
    for shown in standin.shown:
        if shown.reader not in (None, user_id) or (shown.channel_id not in (None, channel_id)):
            continue
        texts(shown.payload, out)
    return "\n".join(out)


async def play(standin, bot, channel_id, user, slash_every=0):
    for i in range(600):
        table = await bot.service.get(channel_id)
        if table.status != "playing":
            return table
        _, move = await auto_move_for(bot, channel_id, i)
        if slash_every and i % slash_every == 0:
            typed = " ".join(move.split()[:-1]) + " " if len(move.split()) > 1 else move[:3]
            await standin.autocomplete(bot, "game move", {"move": typed}, focused="move", user=user,
                                       **({"guild": standin._where(channel_id)[0]} if standin._where(channel_id)[0]
                                          else {}))
            await standin.slash(bot, "game move", {"move": move}, user=user,
                                **({"guild": standin._where(channel_id)[0]} if standin._where(channel_id)[0] else {}))
        else:
            await press_move(standin, bot, channel_id, move, user)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_whole_gridcannon_game_in_a_dm_in_the_players_language(standin, bot, lang):
    alice = standin.user(name="alice")
    alice["locale"] = LOCALES[lang]
    res = await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice)
    channel_id = int(res.message["channel_id"])
    assert (await bot.service.get(channel_id)).series.get("lang") == lang  # the DM table follows its player
    wrong = await standin.slash(bot, "game move", {"move": "place r9c9"}, user=alice)  # a refusal, in the language
    assert wrong.ephemeral
    table = await play(standin, bot, channel_id, alice, slash_every=9)
    assert table.status == "finished"
    shown = everything_read_by(standin, int(alice["id"]), channel_id)
    assert english_left(shown, lang) == []
    final = latest_table(standin, channel_id)
    labels = [label for _, label, _ in standin.buttons(int(final["id"]))]
    assert {"es": "Nueva partida", "de": "Neue Partie"}[lang] in labels
    descriptions = [a.get("description") or "" for a in final.get("attachments") or []]
    assert any({"es": "Cuadrícula", "de": "Raster"}[lang] in d for d in descriptions), "the picture's alt text"


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_servers_table_speaks_the_servers_language_and_a_private_answer_the_readers(standin, bot, lang):
    g = standin.guild()
    g.locale = LOCALES[lang]
    alice = standin.user(name="alice")
    alice["locale"] = LOCALES[lang]
    g.add_member(alice)
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice, guild=g)
    channel_id = int(g.channel["id"])
    assert language_of(LOCALES[lang]) == (await bot.service.get(channel_id)).series["lang"]
    for i in range(12):
        _, move = await auto_move_for(bot, channel_id, i)
        await press_move(standin, bot, channel_id, move, alice)
    shown = everything_read_by(standin, int(alice["id"]), channel_id)
    assert english_left(shown, lang) == []
    # An English reader's private panel at the same table is in English; the table stays in the server's.
    alice["locale"] = "en-US"
    panel = await standin.slash(bot, "game hand", user=alice, guild=g)
    assert panel.ephemeral and "Your view" in panel.embed["title"]
    assert english_left(latest_table(standin, channel_id)["embeds"][0].get("footer", {}).get("text", ""), lang) == []


async def test_the_host_sets_the_tables_language_with_game_language(standin, bot):
    g = standin.guild()  # an English server
    alice, bob = standin.user(name="alice"), standin.user(name="bob")
    g.add_member(alice)
    g.add_member(bob)
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=alice, guild=g)
    channel_id = int(g.channel["id"])
    before = latest_table(standin, channel_id)["embeds"][0]["footer"]["text"]
    assert before.startswith("Rules:")
    refused = await standin.slash(bot, "game language", {"language": "de"}, user=bob, guild=g)
    assert refused.ephemeral and "host" in refused.text
    said = await standin.slash(bot, "game language", {"language": "de"}, user=alice, guild=g)
    assert not said.ephemeral and "Deutsch" in said.text
    assert (await bot.service.get(channel_id)).series["lang"] == "de"
    assert latest_table(standin, channel_id)["embeds"][0]["footer"]["text"].startswith("Regeln:")
    _, move = await auto_move_for(bot, channel_id, 0)
    await press_move(standin, bot, channel_id, move, alice)  # a move keeps the table in German
    assert latest_table(standin, channel_id)["embeds"][0]["footer"]["text"].startswith("Regeln:")
    await standin.slash(bot, "game language", {"language": "en"}, user=alice, guild=g)
    assert "lang" not in (await bot.service.get(channel_id)).series
    assert latest_table(standin, channel_id)["embeds"][0]["footer"]["text"].startswith("Rules:")
