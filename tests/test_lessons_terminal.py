"""``python -m bot learn GAME``: each lesson played to its end in the terminal, Enter taking each
offered step; a move of one's own is told and the lesson goes on."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.engine.lessons import MAX_PRESSES, lesson, lesson_games
from bot.lesson_terminal import learn_terminal
from tests.test_cli import Script

GAMES = lesson_games()


@pytest.mark.parametrize("game_id", GAMES)
def test_each_lesson_plays_to_its_end_in_the_terminal(game_id: str) -> None:
    term = Script(answer=lambda prompt: "")
    walk = learn_terminal(game_id, term.read, term.write, width=100)
    assert walk.finished and walk.taught == tuple(s.rule for s in lesson(game_id).steps if s.rule)
    assert not any(p.startswith("Pass to") for p in term.asked())
    assert len(term.asked()) == len(lesson(game_id).steps) <= MAX_PRESSES  # one Enter a step
    out = term.out
    assert "The lesson is over" in out and f"python -m bot play {game_id}" in out
    assert "/game rules" not in out and "`rules " in out  # the terminal's own command for a section
    assert "Step 1 of" in out


def test_a_typed_move_of_ones_own_is_told_in_the_terminal() -> None:
    answers = iter(["aces AC AD AS AH"])
    term = Script(answer=lambda prompt: next(answers, ""))
    walk = learn_terminal("maginot_line", term.read, term.write, width=100)
    assert "move of your own" in term.out
    assert walk.finished and len(walk.presses) <= MAX_PRESSES


def test_a_bad_line_is_refused_and_the_lesson_waits() -> None:
    answers = iter(["fly to the moon", "quit"])
    term = Script(answer=lambda prompt: next(answers, "quit"))
    walk = learn_terminal("maginot_line", term.read, term.write, width=100)
    assert walk.presses == () and "Not allowed" in term.out


def test_learn_is_a_command(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["learn", "--help"])
    assert done.value.code == 0
    assert "python -m bot learn " in capsys.readouterr().out
