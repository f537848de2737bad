"""The move picker's prefix tree and the button layout (no network needed)."""

from __future__ import annotations

from bot import ui


def test_next_steps_groups_by_token():
    legal = ["draw", "place r1c1", "place r2c2", "reassign r1c1 r2c2", "reassign r1c1 r3c3", "concede"]
    steps = ui.next_steps(legal, [])
    assert [(s.token, s.move, s.count) for s in steps] == [
        ("draw", "draw", 1), ("place", None, 2), ("reassign", None, 2), ("concede", "concede", 1)]
    steps = ui.next_steps(legal, ["reassign"])
    assert [(s.token, s.count) for s in steps] == [("r1c1", 2)]
    steps = ui.next_steps(legal, ["reassign", "r1c1"])
    assert [s.move for s in steps] == ["reassign r1c1 r2c2", "reassign r1c1 r3c3"]


def test_next_steps_marks_a_complete_prefix():
    steps = ui.next_steps(["attack", "attack K 1"], ["attack"])
    assert steps[0].token == ui.END and steps[0].move == "attack"
    assert steps[1].token == "K"


def test_custom_ids_fit_discord_limit():
    assert ui.fits(123456, "mv", "x" * 80)
    assert not ui.fits(123456, "mv", "x" * 100)
    assert len(ui.cid(1, "mv", "draw")) <= ui.CUSTOM_ID_MAX


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
    from bot.engine import auto_player

    while not game.view(None).transcript:
        seat = min(game.to_act())
        move = str(auto_player(game.game_id)(game, seat, rng))
        if move.startswith("tell"):
            move = "tell ```@everyone``` **x**"
        game, _ = game.apply(seat, move)
    view = game.view(None)
    assert "```" not in render.panel(view).as_text()
    assert "@everyone" not in render.panel(view).as_text()
    assert "```@everyone```" in render.text(view)
