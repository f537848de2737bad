"""A whole seeded Gridcannon game through the Discord stand-in for a Spanish and a German player (in a
DM, and at a Spanish or German server's table): every version of every message, every component,
modal, autocomplete, embed and picture description they get carries no English message of the
catalogue; the table keeps its language in its row, each private answer follows the reader's own."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.words import decode
from bot.i18n.lang import language_of
from bot.i18n import words
from bot.tables.clock import format_duration
from tests.discord_helpers import auto_move_for, guild_with, latest_table, make_move, press_move, start_by_slash
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


def everything_read_by(standin, user_id: int, channel_id: int, start: int = 0) -> str:
    """Every version of everything the bot showed this user (their own private things and the
    channel's messages; from the ``start``-th thing shown on), with each picture's description (alt text)."""
    out: list[str] = []
    for shown in standin.shown[start:]:
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


# game id -> (players, variants) of the many-player games played here whole in each language
MANY = {"maginot_line": (2, "Mobile defence, rounds=2")}


@pytest.mark.parametrize(("game_id", "lang", "setting"), [
    ("maginot_line", "es", "server"),  # a Spanish server's table
    ("maginot_line", "de", "host"),  # an English server's table the host sets to German with /game language
])
async def test_a_whole_game_of_many_players_in_the_tables_language(standin, bot, game_id, lang, setting):
    players, variants = MANY[game_id]
    g = standin.guild()
    if setting == "server":
        g.locale = LOCALES[lang]
    users = [standin.user(name=x) for x in ("ana", "ben", "cat", "dee")[:players]]
    for u in users:
        u["locale"] = LOCALES[lang]
        g.add_member(u)
    channel_id = await start_by_slash(standin, bot, g, users, game_id, variants=variants)
    if setting == "host":
        said = await standin.slash(bot, "game language", {"language": lang}, user=users[0], guild=g)
        assert not said.ephemeral
    start = len(standin.shown)  # from here on, everything in the table's language
    assert (await bot.service.get(channel_id)).series.get("lang") == lang
    wrong = await standin.slash(bot, "game move", {"move": "attack @9"}, user=users[0], guild=g)
    assert wrong.ephemeral  # a refusal, in the reader's language
    for i in range(400):
        table = await bot.service.get(channel_id)
        if table.status != "playing":
            break
        seat, move = await auto_move_for(bot, channel_id, i)
        if i % 11 == 0:  # now and then typed, with what autocomplete offers
            await standin.autocomplete(bot, "game move", {"move": move.split()[0]}, focused="move", user=users[seat],
                                       guild=g)
            await standin.slash(bot, "game move", {"move": move}, user=users[seat], guild=g)
        else:
            await press_move(standin, bot, channel_id, move, users[seat])
    assert table.status == "finished"
    since = words(lang).t("Since your last move: {lines}.", lines="").partition(":")[0]
    for u in users:
        shown = everything_read_by(standin, int(u["id"]), channel_id, start)
        assert english_left(shown, lang) == []
        assert since in shown  # what happened since the seat's last move, in its private panel
    final = latest_table(standin, channel_id)
    descriptions = [a.get("description") or "" for a in final.get("attachments") or []]
    assert any({"es": "ases", "de": "Asse"}[lang] in d for d in descriptions), "the picture's alt text"


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_lobby_a_bot_a_few_moves_a_hint_and_ratings_leave_no_english_message(standin, bot, lang):
    """The shared words of a multi-player table (the lobby, its seats, levels and buttons, the refusals
    of the wrong person, the answers, the hint's frame, the ratings) at a Spanish or German server."""
    g, (ana, ben) = guild_with(standin, ("ana", "ben"))
    g.locale = LOCALES[lang]
    for u in (ana, ben):
        u["locale"] = LOCALES[lang]
    channel = int(g.channel["id"])
    w = words(lang)
    lobby = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    add = w.t("Add {level} bot", level=w.tp("bot level", "Normal"))
    assert add in [label for _, label, _ in standin.buttons(lobby.message_id)]
    refused = await standin.click(bot, lobby.message_id, label=add, user=ben)
    assert refused.ephemeral and refused.text == w.t("Only the host can add a bot.")
    for who, command in ((ben, "game join"), (ben, "game join"), (ben, "game start"), (ben, "game hint")):
        assert (await standin.slash(bot, command, user=who, guild=g)).ephemeral
    await standin.click(bot, lobby.message_id, label=add, user=ana)
    await standin.slash(bot, "game start", user=ana, guild=g)
    users = [ana, ben]
    for i in range(8):
        table = await bot.service.get(channel)
        seat, move = await auto_move_for(bot, channel, i)
        if table.status != "playing" or seat >= len(users):
            break
        hint = await standin.slash(bot, "game hint", user=users[seat], guild=g)
        assert hint.ephemeral and hint.text.startswith("💡 ")
        await standin.slash(bot, "game move", {"move": "zzz"}, user=users[1 - seat], guild=g)  # not their turn
        await make_move(standin, bot, channel, seat, move, users)
    rating = await standin.slash(bot, "game rating", user=ana, guild=g)
    assert rating.ephemeral and rating.embed["title"] == w.t("Ratings")
    board = await standin.slash(bot, "game rating", {"game": "court_wars"}, user=ben, guild=g)
    assert board.ephemeral
    for user in (ana, ben):
        assert english_left(everything_read_by(standin, int(user["id"]), channel), lang) == []
    # The table service's line for each lobby action, as the table says it: in its language, a name as typed
    # (even one that reads like a button's word).
    from bot.engine.words import Phrase, Typed
    from bot.tables.base import Actor

    svc, here, there = bot.service, channel + 1, channel + 2
    host, guest = (Actor(int(u["id"]), name, False, lang, lang) for u, name in ((ana, "ana <3"), (ben, "Join")))
    lines = []
    for act in (lambda: svc.new_table(here, g.id, host, "court_wars"), lambda: svc.join(here, guest),
                lambda: svc.add_bot(here, host, level="strong"), lambda: svc.set_turn_limit(here, host, 5400),
                lambda: svc.set_turn_limit(here, host, 0), lambda: svc.leave(here, host), lambda: svc.join(here, host),
                lambda: svc.start(here, guest), lambda: svc.abandon(here, guest), lambda: svc.rematch(here, guest),
                lambda: svc.new_table(there, g.id, host, "court_wars"), lambda: svc.leave(there, host),
                lambda: svc.new_table(there, g.id, host, "court_wars"), lambda: svc.cancel(there, host)):
        lines += (await act()).events
    said = [w.say(e) for e in lines]
    assert len(said) >= 14 and all(isinstance(e, Phrase) for e in lines), lines
    assert all(line != str(e) for line, e in zip(said, lines, strict=True)), said  # every one in the language
    assert english_left("\n".join(said), lang) == [], said
    assert w.t("{name} is now the host.", name=Typed("Join")) in said and said[1].startswith("Join ")
    assert said[0].startswith("ana <3 ")
    assert w.t("Turn limit set to {limit}.", limit=format_duration(5400)) in said


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_lessons_frame_speaks_the_learners_language(standin, bot, lang):
    """/game learn for a Spanish or German learner: the lesson's words, its steps, buttons and footer,
    a move of one's own through the picker, and the lesson's end, with no English message."""
    from tests.test_discord_lessons import lesson_buttons

    g, (ana,) = guild_with(standin, ("ana",))
    ana["locale"] = LOCALES[lang]
    w = words(lang)
    res = await standin.slash(bot, "game learn", {"game": "gridcannon"}, user=ana, guild=g)
    mid = res.message_id
    assert res.ephemeral and w.t("**Lesson: {title}** — only you can see this.", title="Gridcannon") in res.text
    await standin.click(bot, mid, lesson_buttons(standin, mid)["a"]["custom_id"], user=ana)  # the picker, in place
    assert w.t("Back to the lesson") in [label for _, label, _ in standin.buttons(mid)]
    await standin.click(bot, mid, lesson_buttons(standin, mid)["b"]["custom_id"], user=ana)
    for _ in range(40):
        buttons = lesson_buttons(standin, mid)
        if "o" not in buttons:
            break
        await standin.click(bot, mid, buttons["o"]["custom_id"], user=ana)
    assert w.t("Start a real table") in standin._message(mid)["content"]
    assert english_left(everything_read_by(standin, int(ana["id"]), int(g.channel["id"])), lang) == []


# ----- the games of several players, at a server's table -----------------------------------------
SEVERAL = [  # (game, language, its options, the text its picture's description carries in that language)
    ("court_wars", "es", "rounds=4", "Montón de descartes"),
    ("court_wars", "de", "Shuffle Recycle, rounds=4", "Ablagestoß"),
    ("celestial_emperor", "es", "Seat Order Clans", "Ganador:"),
    ("celestial_emperor", "de", "Lenient Descriptions", "Sieger:"),
]
WRONG_MOVE = {"court_wars": ("attack K 9 9:Q 9", {"es": "No hay ningún jugador 9", "de": "Es gibt keinen Spieler 9"}),
         "celestial_emperor": ("target unicorn", {"es": "Nombra el objetivo", "de": "Nenn das Ziel"})}


LIMIT = 120  # minutes: the host's turn limit at those tables ("2 h", said in the table's language)


@pytest.mark.parametrize(("game", "lang", "variants", "alt"), SEVERAL)
async def test_a_whole_game_of_several_players_at_a_servers_table_in_its_language(standin, bot, game, lang, variants,
                                                                                  alt):
    """Two players at a Spanish or German server, each with that Discord language, play a seeded game
    to its end with buttons, pickers and (now and then) /game move: nothing either was shown, the
    refusal of a wrong move included, carries an English message (the lobby's turn limit neither)."""
    from bot.tables.games import load_game
    from tests.discord_helpers import guild_with, start_by_slash

    g, users = guild_with(standin, ("ana", "ben"))
    g.locale = LOCALES[lang]
    for u in users:
        u["locale"] = LOCALES[lang]
    channel_id = await start_by_slash(standin, bot, g, users, game, variants=variants, minutes=LIMIT)
    assert (await bot.service.get(channel_id)).series.get("lang") == lang
    refused = False
    wrong_move, said = WRONG_MOVE[game]
    for i in range(400):
        table = await bot.service.get(channel_id)
        if table.status != "playing":
            break
        seat, move = await auto_move_for(bot, channel_id, i)
        user = users[seat]
        if not refused:  # a refusal, in the language
            wrong = await standin.slash(bot, "game move", {"move": wrong_move}, user=user, guild=g)
            refused = wrong.ephemeral and said[lang] in wrong.text
        if i % 7 == 3 or load_game(table).choices(seat, (move.split()[0],)).kind == "text":  # a line: typed
            await standin.slash(bot, "game move", {"move": move}, user=user, guild=g)
        else:
            await press_move(standin, bot, channel_id, move, user)
    assert table.status == "finished" and refused and i > 20
    w = words(lang)
    for u in users:
        shown = everything_read_by(standin, int(u["id"]), channel_id)
        assert english_left(shown, lang) == []
        # the turn limit, on the table (the lobby's, and the host's answer)
        assert w.t("Turn limit set to {limit}.", limit=format_duration(LIMIT * 60)) in shown
        assert w.say(format_duration(LIMIT * 60)) in shown
    final = latest_table(standin, channel_id)
    assert any(alt in (a.get("description") or "") for a in final.get("attachments") or []), "the picture's alt text"


PLAYERS = {"knight_rogue_princess_dragon": 4, "cardchess2": 2}


@pytest.mark.parametrize(("game", "lang", "where"), [
    ("knight_rogue_princess_dragon", "es", "server"), ("knight_rogue_princess_dragon", "de", "host"),
    ("cardchess2", "de", "server"), ("cardchess2", "es", "host"),
])
async def test_a_whole_seeded_game_at_a_table_in_its_language_leaves_each_reader_no_english(standin, bot, game, lang,
                                                                                            where):
    """A whole game of several players: at a server of the language (``server``), or at an English
    server whose host set the table's language with /game language (``host``); each player's
    Discord speaks it too. Every version of everything each of them was shown is in the language."""
    g = standin.guild()
    if where == "server":
        g.locale = LOCALES[lang]
    users = [standin.user(name=name) for name in ("ana", "ben", "cat", "dee")[:PLAYERS[game]]]
    for u in users:
        u["locale"] = LOCALES[lang]
        g.add_member(u)
    await standin.slash(bot, "game new", {"game": game}, user=users[0], guild=g)
    start = 0
    if where == "host":
        await standin.slash(bot, "game language", {"language": lang}, user=users[0], guild=g)
        start = len(standin.shown)  # from here on, everything in the table's language
    for u in users[1:]:
        await standin.slash(bot, "game join", user=u, guild=g)
    await standin.slash(bot, "game start", user=users[0], guild=g)
    channel_id = int(g.channel["id"])
    assert (await bot.service.get(channel_id)).series["lang"] == lang
    for i in range(400):
        table = await bot.service.get(channel_id)
        if table.status != "playing":
            break
        seat, move = await auto_move_for(bot, channel_id, i)
        if i == 3:  # a refusal, in the reader's language; the recent moves, the table again, a line not asked for
            wrong = await standin.slash(bot, "game move", {"move": "pass 9"}, user=users[seat], guild=g)
            assert wrong.ephemeral
            for command, options in (("game history", {}), ("game status", {})):
                assert (await standin.slash(bot, command, options, user=users[seat], guild=g)).ephemeral, command
            if game == "cardchess2":  # a line where the game asks for none (a story game's would be its move)
                assert (await standin.slash(bot, "game say", {"text": "hola"}, user=users[seat], guild=g)).ephemeral
        if move.split()[0] in ("tell", "wrapup", "twist", "close"):  # the players write their story in their language
            move = move.split()[0] + " " + {"es": "Y así siguió el cuento.", "de": "Und so ging es weiter."}[lang]
        await make_move(standin, bot, channel_id, seat, move, users)
    assert (await bot.service.get(channel_id)).status == "finished"
    await the_answers_around_a_finished_game(standin, bot, g, users[0], game, lang, public=where == "server")
    assert (await standin.slash(bot, "game leave", user=users[0], guild=g)).ephemeral  # refused: the game is over
    await standin.slash(bot, "game turnlimit", {"minutes": 30}, user=users[0], guild=g)  # for the next game
    for u in users:
        assert english_left(everything_read_by(standin, int(u["id"]), channel_id, start), lang) == [], \
            u["username"]
    stories = [f.data.decode() for m in standin.channel_messages(channel_id, include_ephemeral=False)
               for f in standin.files(int(m["id"])) if f.filename == "story.md"]
    if game == "knight_rogue_princess_dragon":  # the story file: its frame in the table's language
        assert stories and words(lang).tp("story file", "The story") in stories[-1]
        assert english_left(stories[-1], lang) == []


async def the_answers_around_a_finished_game(standin, bot, g, user, game, lang, public):
    """The answers a player asks for around a game, in their language: /game rules (the overview with
    its variants and a section), /game pings (shown and set), /game story, /game export, the replay
    list with the game's summary, a broken record given to /game replay, /game new's variants; and,
    at a server of the language (``public``), /game stats posted in the channel."""
    from bot.engine.registry import spec

    w = words(lang)
    rules = await standin.slash(bot, "game rules", {"game": game}, user=user, guild=g)
    assert rules.ephemeral and w.t("Players") in [f["name"] for f in rules.embed["fields"]]
    first = spec(game).options.infos()[0]
    assert w.say(first.help) in rules.embed["fields"][0]["value"] != first.help, "a variant's help"
    section = await standin.slash(bot, "game rules", {"game": game, "section": "2"}, user=user, guild=g)
    assert section.ephemeral
    for options in ({}, {"when": "after", "hours": 6}):
        pings = await standin.slash(bot, "game pings", options, user=user, guild=g)
        assert pings.ephemeral and w.t("only once your turn has waited {hours} h", hours=6) in pings.text or not options
    for command in ("game story", "game export"):
        assert (await standin.slash(bot, command, user=user, guild=g)).ephemeral
    listed = await standin.autocomplete(bot, "game replay", {"game": ""}, focused="game", user=user, guild=g)
    record = (await bot.service.store.last_record(int(g.channel["id"])))["result"]
    told = listed[0]["name"].rsplit(" — ", 1)[-1].rstrip("…")  # a label of 100 characters at most
    assert len(told) > 10 and w.line(decode(record["said"])).startswith(told), "the summary in the reader's language"
    bad = standin.upload("bad.json", b'{"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": "x", "moves": []}')
    refused = await standin.slash(bot, "game replay", {"record": bad}, user=user, guild=g)
    assert refused.ephemeral and w.t("the record's seed must be a whole number") in refused.text
    helped = await standin.autocomplete(bot, "game new", {"game": game, "variants": ""}, focused="variants", user=user,
                                        guild=g)
    assert helped and all(" — " in c["name"] for c in helped)
    for typo in ("Nope Nope", "zzz=1", "Nope " * 30):  # an unknown variant, an unknown setting, too long
        refused = await standin.slash(bot, "game new", {"game": game, "variants": typo}, user=user, guild=g)
        with pytest.raises(IllegalMove) as why:
            spec(game).options.parse([typo])
        said = w.say(why.value.reason)  # the engine's reason, in the reader's language
        assert refused.ephemeral and said != str(why.value.reason) and said in refused.text, refused.text
        assert english_left(refused.text, lang) == [], refused.text
    if public:
        stats = await standin.slash(bot, "game stats", {"game": game}, user=user, guild=g)
        assert not stats.ephemeral and stats.embed["title"] == w.t("Deckhand — stats")
        assert w.n("{n} played", "{n} played", 1) in stats.embed["fields"][0]["value"]


# ----- the frames around the games: tournaments, the watch and replay viewers, the daily challenge ------
def read_in(standin, user: dict, channels, start: int = 0) -> str:
    """Everything shown to ``user`` in these channels (and privately there), every version of it."""
    return "\n".join(everything_read_by(standin, int(user["id"]), int(c), start) for c in channels)


async def test_a_tournament_at_a_spanish_server_speaks_spanish_from_sign_up_to_its_standings(standin, bot):
    """Its sign-up message and buttons, the round's thread, the announcement and the table there, the
    settled table at the round's end, the final standings (posted) and a player's own (private)."""
    from tests.test_discord_tournaments import MANAGER, cog

    g = standin.guild()
    g.locale = "es-ES"
    org, ana = standin.user(name="org"), standin.user(name="ana")
    for u in (org, ana):
        u["locale"] = "es-ES"
    g.add_member(org, permissions=MANAGER)
    g.add_member(ana)
    channel = int(g.channel["id"])
    w = words("es")
    res = await standin.slash(bot, "tournament new", {"game": "court_wars", "format": "swiss", "round_hours": 1},
                              user=org, guild=g)
    assert not res.ephemeral and w.t("**Sign-up is open**: press **Join**.") in res.embed["description"]
    for u in (org, ana):
        await standin.click(bot, res.message_id, label=w.tp("tournament button", "Join"), user=u)
    await standin.click(bot, res.message_id, label=w.tp("tournament button", "Start"), user=org)
    await standin.settle(bot)
    tid = (await cog(bot).tours.in_channel(channel)).id
    t = await cog(bot).tours.load(tid)
    assert t.lang == "es" and t.status == "running"
    thread = t.current[0].channel
    assert standin.channels[thread]["name"].startswith("Court Wars · ronda 1 · mesa 1")
    assert (await bot.service.get(thread)).series.get("lang") == "es", "its tables speak it too"
    await cog(bot).tours._mutate(tid, lambda t: setattr(t, "round_ends", 0.0))  # the round's time is up
    await cog(bot).tick()
    await standin.settle(bot)
    assert (await cog(bot).tours.load(tid)).status == "finished"
    mine = await standin.slash(bot, "tournament standings", user=ana, guild=g)
    assert mine.ephemeral and mine.embed["title"] == w.t("{title} tournament — final standings", title="Court Wars")
    said = read_in(standin, ana, (channel, thread))
    assert w.t("The round's time is up: this table is settled as {how}.", how=w.t("a draw")) in said
    assert english_left(said, "es") == []
    assert english_left(read_in(standin, org, (channel, thread)), "es") == []


async def test_a_watcher_and_a_replay_viewer_read_their_own_language(standin, bot):
    from cogs.watch import NOT_FOUND
    from tests.test_discord_secrecy import components_of

    """A Gridcannon game at a Spanish server, watched from another channel by a German-speaking member
    (the watcher message and the answers to the watcher speak his German, the table Spanish), then
    stepped through in the replay viewer by its Spanish player: buttons, the move picker, the
    animation and a shared moment."""
    g, (ana, zed) = guild_with(standin, ("ana", "zed"))
    g.locale = "es-ES"
    ana["locale"], zed["locale"] = "es-ES", "de"
    channel = int(g.channel["id"])
    await standin.slash(bot, "game new", {"game": "gridcannon"}, user=ana, guild=g)
    lounge = g.text_channel("lounge")
    await standin.gateway_dispatch("GUILD_CREATE", g.create_payload())
    bot.get_cog("Watch").pacer.pace = 0.0
    picked = await standin.autocomplete(bot, "game watch", {"table": ""}, focused="table", user=zed, guild=g,
                                        channel=lounge)
    watching = await standin.slash(bot, "game watch", {"table": picked[0]["value"]}, user=zed, guild=g, channel=lounge)
    assert not watching.ephemeral and words("de").t("Stop watching") in [lb for _, lb, _ in
                                                                         standin.buttons(watching.message_id)]
    assert [w.lang for w in await bot.service.store.watchers()] == ["de"], "kept with the watcher"
    bad = await standin.slash(bot, "game watch", {"table": "zzz"}, user=zed, guild=g, channel=lounge)
    assert bad.ephemeral and bad.content == words("de").say(NOT_FOUND), "a refusal: its reader's language"
    for i in range(6):
        _, move = await auto_move_for(bot, channel, i)
        await press_move(standin, bot, channel, move, ana)
    await standin.slash(bot, "game abandon", user=ana, guild=g)  # a short game: the record of six moves
    await bot.get_cog("Watch").pacer.drained()
    final = standin._message(watching.message_id)
    assert words("de").t("The game is over; the final table") in final["content"]
    assert english_left(read_in(standin, zed, (lounge["id"],)), "de") == []  # the watcher message: its watcher's
    # The replay viewer, privately, in its reader's language
    start = len(standin.shown)
    res = await standin.slash(bot, "game replay", user=ana, guild=g)
    assert res.ephemeral
    w = words("es")
    for _ in range(2):
        nxt = next(c for c in components_of(standin, res.message_id) if c.get("emoji", {}).get("name") == "▶")
        await standin.click(bot, res.message_id, nxt["custom_id"], user=ana)
    pick = next(c for c in components_of(standin, res.message_id) if c.get("placeholder") == w.t("Go to a move…"))
    await standin.select(bot, res.message_id, pick["custom_id"], [pick["options"][-1]["value"]], user=ana)
    for label in (w.t("Animation"), w.t("Share this moment")):
        await standin.click(bot, res.message_id, label=label, user=ana)
    shown = read_in(standin, ana, (channel,), start)
    assert w.t("{title} — replay", title="Gridcannon") in shown and w.t("Open the replay here") in shown
    assert english_left(shown, "es") == []


async def test_the_daily_challenge_speaks_its_players_language(standin, bot):
    """A Spanish player's daily challenge: the answer in the server channel, the deal in our DMs (its
    table in her language), the leaderboard, and the answer to a second attempt with her result."""
    g, (ana,) = guild_with(standin, ("ana",))
    ana["locale"] = "es-ES"
    w = words("es")
    asked = await standin.slash(bot, "game daily", user=ana, guild=g)
    assert asked.ephemeral
    dm = int(standin.dm_channel(ana)["id"])
    assert (await bot.service.get(dm)).series.get("lang") == "es", "a DM table follows its player"
    assert asked.text.startswith(w.t("Today's deal is waiting in our DMs: {link}", link=""))
    for i in range(3):
        _, move = await auto_move_for(bot, dm, i)
        await press_move(standin, bot, dm, move, ana)
    await standin.slash(bot, "game abandon", user=ana, channel=standin.dm_channel(ana))
    board = await standin.slash(bot, "game daily", {"leaderboard": True}, user=ana, guild=g)
    assert board.ephemeral and board.embed["title"] == w.t("Daily {title} — {day}", title="Gridcannon",
                                                           day=bot.desk.today())
    again = await standin.slash(bot, "game daily", user=ana, guild=g)
    assert again.ephemeral and "La tuya: perdida" in again.text
    said = read_in(standin, ana, (g.channel["id"], dm))
    assert english_left(said, "es") == []
