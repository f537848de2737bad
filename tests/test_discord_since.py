""""Since your last move" through the Discord stand-in (Court Wars, two players): the public ping
says only whose turn it is; its button opens the pinged player's private panel, which says in
plain words, from that player's own view, what the other player did since."""

from __future__ import annotations

import json
import re

from bot.engine.cards import pretty_text
from bot.engine.core import Event
from bot.engine.words import CardName, encode, say
from bot.i18n import words
from bot.tables import since
from bot.tables.games import load_game
from tests.discord_helpers import auto_move_for, auto_moves, guild_with, make_move, public_posts, start_by_slash


async def test_the_ping_opens_a_panel_that_says_what_happened_since(standin, bot):
    g, users = guild_with(standin, ("ana", "ben"))
    channel = await start_by_slash(standin, bot, g, users, "court_wars")
    ana = int(users[0]["id"])
    read: list[str] = []  # what ana read of the moves since her last one
    pinged = None
    async for _i, table, seat, move in auto_moves(bot, channel, 80):
        before = load_game(table)
        _, events = before.apply(seat, move)
        posted = len(public_posts(standin, channel))
        await make_move(standin, bot, channel, seat, move, users)
        if seat == 0:
            read = []
            continue
        read += [t for t in (e.for_(0) for e in events) if t]
        new = public_posts(standin, channel)[posted:]
        pings = [m for m in new if ana in standin.pinged_user_ids(m)]
        if pings and read:
            pinged = pings[-1]
            break
    assert pinged is not None, "ben moved and ana was pinged"
    assert "Since your last move" not in pinged["content"], "the public ping tells no seat's view"
    panel = await standin.click(bot, int(pinged["id"]), label="My view / act", user=users[0])
    assert panel.ephemeral
    said = panel.text.splitlines()
    assert said[0].startswith("Since your last move: ")
    told = " ".join(line for line in said[:2] if not line.startswith("Your seat"))
    assert pretty_text(read[-1]).rstrip(".") in told, (read, told)
    assert not re.search(r"(?<![A-Za-z0-9])[2-9TJQKA][SHDC](?![A-Za-z0-9])", told), "cards as faces, no codes"
    assert "ben" in told.lower()
    # Ana moves: her inbox is emptied (her next panel tells only what happens after this move).
    assert since.of((await bot.service.get(channel)).series, 0) is not None
    seat, move = await auto_move_for(bot, channel, 99)
    assert seat == 0
    await make_move(standin, bot, channel, seat, move, users)
    assert since.of((await bot.service.get(channel)).series, 0) is None

def test_many_moves_are_summed_up_in_two_lines():
    en = words("en")
    s = since.Since(moves=7, movers=(1, 2), lines=tuple(f"Ben plays 9H at r{i}" for i in range(6)), said=11)
    out = since.told(s, ["ana", "ben", "cat"], en)
    assert out == ["Since your last move: 7 moves by ben and cat.", "The latest: Ben plays 9♥ at r4; Ben plays 9♥ at r5."]
    few = since.told(since.Since(1, (1,), ("Ben attacks Ana's KH with 9S — defeated.",), 1), ["ana", "ben"], en)
    assert few == ["Since your last move: Ben attacks Ana's K♥ with 9♠ — defeated."]
    assert since.told(None, ["ana"], en) == []
    assert since.told(since.Since(2, (1,), (), 0), ["ana", "ben"], en) == ["Since your last move: 2 moves by ben."]


def test_an_inbox_keeps_the_engines_phrases_and_each_reader_reads_them_in_its_language():
    """The inbox stores a line as the phrase's JSON (no language in it), and reads in any language; a line
    an older inbox kept as English text still reads as it was written (its cards as faces)."""
    placed = Event(say("{card} placed on {cell}.", card=CardName("QH", "Q♥"), cell="r1c2"))
    stored = json.loads(json.dumps(since.noted({}, 2, 1, [placed])))
    assert stored[since.SINCE]["0"]["lines"] == [encode(placed.public)]
    inbox = since.of(stored, 0)
    assert since.told(inbox, ["ana", "ben"], words("en")) == ["Since your last move: Q♥ placed on r1c2."]
    assert since.told(inbox, ["ana", "ben"], words("de")) == ["Seit deinem letzten Zug: D♥ auf r1c2 gelegt."]
    old = since.of({since.SINCE: {"0": {"moves": 4, "by": [1], "lines": ["Join plays 9H at r1"] * 4, "said": 4}}}, 0)
    assert since.told(old, ["ana", "Join"], words("es")) == [  # a name as typed, even a button's word
        "Desde tu última jugada: 4 jugadas de Join.", "Lo último: Join plays 9♥ at r1; Join plays 9♥ at r1."]
