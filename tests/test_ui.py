"""Pickers built from ``choices``: Discord's limits and drafts (no network needed)."""

from __future__ import annotations

from bot.ui import payloads as ui
from bot.engine.registry import spec
from bot.engine.core import Choices, Decision, Option
from bot.store import Seat, TableRow
from bot.tables import table_key
from bot.tables.reader import reader_of
from tests.test_reader_asked import components_of


BUTTON, SELECT = 2, 3  # the component types of a button and a string select


class Wide:
    """A stand-in game whose first step offers ``n`` options (pickers only read choices)."""

    title = "Wide"

    def __init__(self, n: int, kind: str = "token"):
        self.n, self.kind = n, kind

    forfeited: list[int] = []

    def opened_at(self, seat: int) -> int:
        return 7

    def decisions(self):
        return (Decision(0),)

    def choices(self, seat, prefix=()):
        if not prefix:
            opts = tuple(Option(f"t{i}", f"Option {i}") for i in range(self.n))
            return Choices(self.kind, opts, lo=1, hi=3)
        return Choices(complete=True)


def row() -> TableRow:
    return TableRow(channel_id=1, guild_id=None, game="gridcannon", status="playing", host_id=1,
                    seats=[Seat(1, "a")], options=[], seed=5, created_at=1.0)


def test_few_choices_are_buttons_many_are_a_paged_select():
    drafts = ui.Drafts()
    _, few = ui.picker(reader_of(row(), Wide(4), 0), ui.Step(()), drafts)
    assert [c["type"] for c in components_of(few)] == [BUTTON] * 4
    text, many = ui.picker(reader_of(row(), Wide(60), 0), ui.Step((), page=1), drafts)
    selects = [c for c in components_of(many) if c["type"] == SELECT]
    assert len(selects) == 1 and len(selects[0]["options"]) == 25
    assert [o["value"] for o in selects[0]["options"]][0] == "t25"
    assert "Page 2 of 3" in text
    pages = [c for c in components_of(many) if c["type"] == BUTTON]
    assert [p["label"] for p in pages] == ["◀ Previous", "Next ▶"]
    for v in (few, many):
        assert len(components_of(v)) <= 25
        assert all(len(c["custom_id"]) <= ui.CUSTOM_ID_MAX for c in components_of(v))


def test_more_than_a_row_of_choices_is_one_select_and_giving_up_sits_apart():
    """The same rule for every game: a row of five buttons at most, else a select (Gridcannon's nine
    "extract" cells are one select); a concede/resign option is a button of its own on the bottom row."""

    class Nine(Wide):
        def choices(self, seat, prefix=()):
            if not prefix:
                return Choices("token", (*(Option(f"r{i}", f"Row {i}") for i in range(5)),
                                         Option("resign", "Resign")))
            return Choices(complete=True)

    _, five = ui.picker(reader_of(row(), Wide(5), 0), ui.Step(()), ui.Drafts())
    assert [c["type"] for c in components_of(five)] == [BUTTON] * 5
    _, nine = ui.picker(reader_of(row(), Wide(9), 0), ui.Step(()), ui.Drafts())
    (select,) = components_of(nine)
    assert select["type"] == SELECT and len(select["options"]) == 9
    _, apart = ui.picker(reader_of(row(), Nine(0), 0), ui.Step(()), ui.Drafts())
    rows = [[c["label"] for c in r["components"]] for r in apart.to_components()]
    assert rows == [[f"Row {i}" for i in range(5)], ["Resign"]]  # Resign made first, shown on its own last row
    assert ui.is_forfeit(("resign",)) and ui.is_forfeit(["concede"]) and not ui.is_forfeit(("draw",))


def test_a_set_step_is_a_multi_select():
    _, view = ui.picker(reader_of(row(), Wide(6, "set"), 0), ui.Step(()), ui.Drafts())
    (select,) = components_of(view)
    assert (select["min_values"], select["max_values"]) == (1, 3)


def test_long_partial_actions_become_drafts():
    drafts = ui.Drafts()
    long_tokens = tuple(f"token{i}" for i in range(20))
    arg = drafts.arg("tid", 3, ui.STEP, long_tokens)
    assert arg.startswith("~") and drafts.pending == {arg[1:]: long_tokens}
    assert drafts.arg("tid", 3, ui.STEP, ("draw",)) == "draw"
    assert len(ui.cid("tid", 3, ui.STEP, arg)) <= ui.CUSTOM_ID_MAX


def test_custom_ids_name_the_table_and_the_decision():
    game = spec("gridcannon").state.new(["a"], seed=3)
    _, view = ui.picker(reader_of(row(), game, 0), ui.Step(()), ui.Drafts())
    for c in components_of(view):
        prefix, tid, rev, kind, _ = c["custom_id"].split(":", 4)
        assert (prefix, tid, int(rev), kind) == ("dh2", table_key(row()), game.opened_at(0), ui.STEP)


def test_players_words_cannot_break_an_embed_or_ping():
    from bot.render.panel import plain

    raw = "```js\n@everyone **bold** <@&123> # heading > quote"
    out = plain(raw)
    assert "```" not in out and "@everyone" not in out and "<@&" not in out
    assert out.replace("\\", "").replace("\u200b", "") == raw


def test_story_lines_escaped_in_embeds_not_in_the_terminal():
    import random

    from bot.engine.knight_rogue_princess_dragon import GAME
    from bot.render import knight_rogue_princess_dragon as render

    game = GAME.new(["a", "b", "c", "d"], seed=1)
    rng = random.Random(1)
    while not game.view(None).transcript:
        seat = min(game.to_act())
        move = str(spec(game.game_id).player(game, seat, rng))
        if move.startswith("tell"):
            move = "tell ```@everyone``` **x**"
        game, _ = game.apply(seat, move)
    view = game.view(None)
    assert "```" not in render.panel(view).as_text()
    assert "@everyone" not in render.panel(view).as_text()
    assert "```@everyone```" in render.text(view)


def test_what_a_move_did_is_said_the_same_when_said_again():
    from bot.ui import payloads

    first = payloads.did(["royal K♠", "T2"])
    assert first == "Done: you chose royal K♠, then T2."
    assert payloads.did(("royal K♠", "T2")) == first  # a tuple or a list: the same sentence
    assert payloads.did(["royal K♠", "T2"], secret=True) == "Done: your secret choice is in — royal K♠, then T2."
    assert payloads.did(["*bold* @here"]) == "Done: you chose \\*bold\\* @\u200bhere."
    assert payloads.did([]) == payloads.did(["  "]) == "Done."
