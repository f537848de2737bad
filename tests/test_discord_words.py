"""What players read, through the Discord stand-in: the sentence that confirms a move (secret only
when the move stays hidden, a story line as written), the refusals of /game say and of the
autocomplete's entry that says why nothing may be chosen, a select's placeholder, a forced step
taken for the player, and the Court Wars ending."""

from __future__ import annotations

from bot.tables.games import load_game
from tests.discord_helpers import press_move
from tests.play_loop import open_game, seeded


def _user(table, users, seat):
    return next(u for u in users if int(u["id"]) == table.seats[seat].user_id)


# ----- 1. "secret" only for a secret decision -------------------------------------------------
async def test_an_ordinary_maginot_move_is_not_called_secret_but_an_aces_order_is(standin, bot):
    with seeded(66):
        _, users, channel, _ = await open_game(standin, bot, "maginot_line", 2, "rounds=3")
    for _ in range(2):  # both seats order their Aces: a hidden choice (a record hides it)
        table = await bot.service.get(channel)
        game = load_game(table)
        seat = min(game.to_act())
        order = next(m for m in game.legal_moves(seat) if m != "aces random")
        res = await press_move(standin, bot, channel, order, _user(table, users, seat))
        said = res.text.partition("\n")[0]
        assert res.ephemeral and said.startswith("Done: your secret choice is in"), said
    table = await bot.service.get(channel)
    game = load_game(table)
    seat = min(game.to_act())
    assert game.decision_of(seat).name == "turn" and not game.decision_of(seat).public  # chosen privately
    move = next(m for m in game.legal_moves(seat) if m.startswith("resource"))  # a resource played from the hand
    res = await press_move(standin, bot, channel, move, _user(table, users, seat))
    said = res.text.partition("\n")[0]
    assert res.ephemeral and said.startswith("Done: you chose ") and "secret" not in said, said
    assert (await bot.service.get(channel)).moves[-1][1] == move


# ----- 2 and 3. /game say: what comes first; a line said back as written -----------------------
KRPD = "knight_rogue_princess_dragon"


async def _krpd(standin, bot):
    with seeded(0):  # a deal whose first telling comes within the first turns
        return await open_game(standin, bot, KRPD, 4)


async def test_game_say_names_the_step_the_game_asks_first(standin, bot):
    g, users, channel, _ = await _krpd(standin, bot)
    table = await bot.service.get(channel)
    game = load_game(table)
    seat = min(game.to_act())
    assert game.decision_of(seat).name == "flip"
    early = await standin.slash(bot, "game say", {"text": "Once upon a time"}, user=users[seat], guild=g)
    assert early.ephemeral and "not asking you for a line yet" in early.text, early.text
    assert "Flip the top card of your own pile" in early.text and "turn" not in early.text, early.text
    waiting = await standin.slash(bot, "game say", {"text": "Me too"}, user=users[(seat + 1) % 4], guild=g)
    assert waiting.ephemeral and f"It is {table.seats[seat].name}'s turn" in waiting.text, waiting.text
    assert (await bot.service.get(channel)).revision == table.revision


async def test_a_story_line_is_said_back_as_written(standin, bot):
    from bot.engine.cards import pretty_text
    from tests.discord_helpers import make_move

    g, users, channel, _ = await _krpd(standin, bot)
    for _ in range(40):  # the flips, up to a telling
        game = load_game(await bot.service.get(channel))
        seat = min(game.to_act())
        if game.decision_of(seat).name == "tell":
            break
        await make_move(standin, bot, channel, seat, str(game.legal_moves(seat)[0]), users)
    else:
        raise AssertionError("no telling came")
    label = game.choices(seat, ("tell",)).prompt
    line = "Then the dragon woke,  then hungry."
    res = await standin.slash(bot, "game say", {"text": line}, user=users[seat], guild=g)
    said = res.text.partition("\n")[0]
    assert said == f"Done: you chose {pretty_text(label)}: “Then the dragon woke, then hungry.”.", said
    assert (await bot.service.get(channel)).moves[-1][1] == f"tell {line}"


# ----- 4. the autocomplete says why nothing may be chosen ---------------------------------------
async def test_autocomplete_with_nothing_legal_says_why_and_that_entry_is_refused_with_it(standin, bot):
    g, users, channel, _ = await open_game(standin, bot, "court_wars", 2)
    table = await bot.service.get(channel)
    seat = min(load_game(table).to_act())
    me, other = users[seat], users[1 - seat]
    shown = {}
    for who, command, options in ((me, "court-wars attack", {"choice": ""}), (other, "court-wars attack", {"choice": ""}),
                                  (other, "game move", {"move": ""})):
        focused = next(iter(options))
        choices = await standin.autocomplete(bot, command, options, focused=focused, user=who, guild=g)
        assert len(choices) == 1 and 1 <= len(choices[0]["value"]) <= 100 and len(choices[0]["name"]) <= 100, choices
        shown[(who["id"], command)] = choices[0]
    mine = shown[(me["id"], "court-wars attack")]
    assert mine["name"].startswith("No attack is possible now; you may: "), mine  # the opening build: a draw
    theirs = shown[(other["id"], "court-wars attack")]
    assert theirs["name"] == f"It is {table.seats[seat].name}'s turn." == shown[(other["id"], "game move")]["name"]
    for who, command, key, entry in ((me, "court-wars attack", "choice", mine), (other, "court-wars attack", "choice", theirs),
                                     (other, "game move", "move", theirs)):
        sent = await standin.slash(bot, command, {key: entry["value"]}, user=who, guild=g)  # the entry picked and sent
        assert sent.ephemeral and sent.text == entry["name"], sent.text
    assert (await bot.service.get(channel)).revision == table.revision


# ----- 5. the Court Wars ending, said once; a player who left shown as having left -------------
async def test_court_wars_ending_is_said_once_and_who_left_is_shown_as_left(standin, bot):
    from tests.discord_helpers import latest_table, public_posts

    g, users, channel, _ = await open_game(standin, bot, "court_wars", 2)
    posted = len(public_posts(standin, channel))
    ask = await standin.slash(bot, "game leave", user=users[1], guild=g)  # with three living stacks
    sure = next(c for c, label, _ in standin.buttons(ask.message_id) if label == "Confirm")
    await standin.click(bot, ask.message_id, sure, user=users[1])
    table = await bot.service.get(channel)
    result = load_game(table).outcome().summary
    assert table.status == "finished" and result.endswith("wins: the last player standing.")
    final = latest_table(standin, channel)
    embed = final["embeds"][0]
    shown = "\n".join([embed.get("description") or ""] + [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])])
    assert shown.count(result) == 1, shown
    ending = [m["content"] for m in public_posts(standin, channel)[posted:] if "is over" in (m.get("content") or "")]
    assert len(ending) == 1 and ending[0].count(result) == 1, ending
    alt = final["attachments"][0]["description"]  # the picture in words
    left = table.seats[1].name
    assert f"{left} (left the game)" in alt and "defeated" not in alt, alt


# ----- 6. a select's placeholder names what it holds --------------------------------------------
async def test_a_one_pick_select_of_queens_says_it_holds_queens_not_building(standin, bot, monkeypatch):
    """Table seed 66, 2 players, six rounds: after the built-in players' first 41 moves (each seeded
    by its number, as ``auto_move_for`` plays them) the seat to act consolidates with a queen to attach."""
    from bot.tables import Actor, lobby
    from tests.discord_helpers import auto_move_for, components, latest_table, parse_cid

    monkeypatch.setattr(lobby.secrets, "randbits", lambda n: 66)
    _, users, channel, _ = await open_game(standin, bot, "maginot_line", 2, "rounds=6")
    table = await bot.service.get(channel)
    desk = bot.get_cog("Tables").desk
    for i in range(41):
        seat, move = await auto_move_for(bot, channel, i)
        await desk.move(channel, Actor(table.seats[seat].user_id, table.seats[seat].name), move)
    table = await bot.service.get(channel)
    seat = min(load_game(table).to_act())
    me = next(c for c, label, _ in standin.buttons(int(latest_table(standin, channel)["id"])) if label == "My view / act")
    panel = await standin.click(bot, int(latest_table(standin, channel)["id"]), me, user=_user(table, users, seat))
    picks = [c for c in components(standin, panel.message_id) if c.get("type") == 3
             and parse_cid(c["custom_id"])[2] == "b" and not (c.get("placeholder") or "").startswith("Several")]
    assert len(picks) == 1, [c.get("placeholder") for c in components(standin, panel.message_id)]
    held = [o["label"] for o in picks[0]["options"]]
    assert held and all(label.startswith("Attach a queen: ") for label in held), held
    assert picks[0]["placeholder"] == "In one pick: Attach a queen…", picks[0]["placeholder"]


# ----- 7. a step that leaves no choice is taken for the player ----------------------------------
async def test_steps_that_leave_no_choice_are_taken_for_the_player(standin, bot, monkeypatch):
    """Gridcannon, seed 2: the deal's first decision is to place a set-aside royal, and of the five
    royals Q♠ has one place only (T2): choosing Q♠ places it at once, and Back from a step after
    steps taken for the player goes to the last step that held a choice."""
    from bot.tables import lobby
    from tests.discord_helpers import components, latest_table, parse_cid, step_tokens

    monkeypatch.setattr(lobby.secrets, "randbits", lambda n: 2)
    _, users, channel, _ = await open_game(standin, bot, "gridcannon", 1)
    table = await bot.service.get(channel)
    game = load_game(table)
    assert [o.token for o in game.choices(0, ()).options] == ["royal"]
    assert [o.token for o in game.choices(0, ("royal", "QS")).options] == ["T2"]

    def steps(message_id):
        return {step_tokens(bot, parse_cid(c["custom_id"])[3]): c for c in components(standin, message_id)
                if parse_cid(c["custom_id"])[2] == "s"}

    live = int(latest_table(standin, channel)["id"])
    first = await standin.click(bot, live, steps(live)[("royal",)]["custom_id"], user=users[0])  # the decision's one step
    assert first.ephemeral and ("royal", "QS") in steps(first.message_id), first.text
    res = await standin.click(bot, first.message_id, steps(first.message_id)[("royal", "QS")]["custom_id"], user=users[0])
    assert res.ephemeral and res.text.startswith("Done: "), res.text
    after = await bot.service.get(channel)
    assert [m[1] for m in after.moves[len(table.moves):]] == ["royal QS T2"]


class _Tree:
    """A reader's choices from a table of steps (the forced steps' look-up asks nothing else)."""

    def __init__(self, steps):
        self.steps = steps

    def choices(self, prefix):
        from bot.engine.core import Choices

        return self.steps.get(tuple(prefix), Choices())


def test_a_forced_step_is_never_a_forfeit_nor_a_stop_and_back_skips_forced_steps():
    from bot.engine.core import Choices, Option
    from bot.ui import pickers

    def one(token, **kw):
        return Choices("token", (Option(token, token.title()),), **kw)

    whole = Choices(complete=True)
    two = Choices("token", (Option("a"), Option("b")))
    # Giving the game up is never taken for the player, nor a step where stopping is a move too.
    resign = _Tree({(): one("resign"), ("resign",): whole})
    assert pickers.forced_steps(resign, ()) == ()
    stop = _Tree({("fund",): one("7C", complete=True), ("fund", "7C"): whole})
    assert pickers.forced_steps(stop, ("fund",)) == ("fund",)
    # A step pressed whose next steps leave no choice: taken up to the move, or to the next real choice.
    chain = _Tree({("royal",): one("QS"), ("royal", "QS"): one("T2"), ("royal", "QS", "T2"): whole})
    assert pickers.forced_steps(chain, ("royal",)) == ("royal", "QS", "T2")
    deep = _Tree({("attack",): one("K"), ("attack", "K"): one("1"), ("attack", "K", "1"): two})
    assert pickers.forced_steps(deep, ("attack",)) == ("attack", "K", "1")
    assert pickers.back_to(deep, ("attack", "K", "1", "a")) == ("attack", "K", "1")
    assert pickers.back_to(deep, ("attack", "K", "1")) == ()  # every step after the first was taken: back to it
