"""The terminal tools: run without a token, play (hot seat), simulate, replay, --help."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main, parse_seats
from bot.cli import CLEAR, rules_help, simulate, wrap_lines, wrap_markdown
from bot.terminal import HotSeat, play_terminal
from bot.engine.registry import GAME_IDS, spec

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"games", "finished", "errors", "wins", "losses", "mean_score", "mean_moves", "games_per_s", "moves_per_s"}
HAND_OVER = re.compile(r"^Pass to (.+); press Enter")


def run_cli(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DECKHAND_"))}
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=base, input=stdin,
                          capture_output=True, text=True, timeout=120)


class Script:
    """A terminal stand-in: answers prompts from a list (or a function of the prompt) and keeps
    everything written and asked, in order, as ("out", text) / ("ask", prompt, answer)."""

    def __init__(self, answers=(), answer=None):
        self.answers = list(answers)
        self.answer = answer
        self.log: list[tuple[str, ...]] = []

    def read(self, prompt: str) -> str:
        if len(self.log) > 20_000:  # a script that never ends its game fails instead of hanging
            raise EOFError
        if self.answers:
            line = self.answers.pop(0)
        elif self.answer is not None:
            line = self.answer(prompt)
        else:
            raise EOFError
        self.log.append(("ask", prompt, line))
        return line

    def write(self, text: str) -> None:
        self.log.append(("out", text))

    @property
    def out(self) -> str:
        return "\n".join(e[1] for e in self.log if e[0] == "out")

    def asked(self) -> list[str]:
        return [e[1] for e in self.log if e[0] == "ask"]


# ----- the command line -------------------------------------------------------------------
def test_run_without_token_is_one_clear_line(tmp_path):
    out = run_cli("run", env={"DISCORD_TOKEN": "", "DECKHAND_DATABASE": str(tmp_path / "x.db")})
    assert out.returncode != 0
    assert "DISCORD_TOKEN" in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_help_lists_every_command_and_game():
    out = run_cli("--help")
    assert out.returncode == 0
    for cmd in ("start", "run", "sync", "play", "simulate", "replay", "bench", "migrate-store"):
        assert cmd in out.stdout
    for game in GAME_IDS:
        assert game in out.stdout


@pytest.mark.parametrize("command", ["play", "simulate", "replay"])
def test_subcommand_help_has_examples_and_game_ids(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text
    assert f"python -m bot {command} " in text
    if command != "replay":
        for game in GAME_IDS:
            assert re.search(rf"^  {game}\b", text, re.M), game
        assert spec(GAME_IDS[-1]).title in text
    if command == "play":
        assert "--bots" in text and "? or moves" in text and "help" in text


def test_play_lists_variants(capsys):
    game = next(g for g in GAME_IDS if spec(g).options.infos())
    assert main(["play", game, "--list-variants"]) == 0
    text = capsys.readouterr().out
    for info in spec(game).options.infos():
        assert info.name in text


@pytest.mark.parametrize("args, says", [
    (["--bots", "9"], "--bots takes seat numbers from 1 to"),
    (["--players", "99"], "players, not 99"),
    (["--variant", "No Such Thing"], "no variant"),
])
def test_play_refuses_bad_arguments_in_one_line(args, says, capsys):
    game = next(g for g in GAME_IDS if spec(g).max_players > 1 and spec(g).max_players < 99)
    assert main(["play", game, *args]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


# ----- simulate and replay ----------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_IDS)
def test_simulate_json_every_game_and_replay_its_records(tmp_path, capsys, game):
    args = ["simulate", game, "--games", "2", "--seed", "3", "--json", "--records", str(tmp_path)]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(summary) == KEYS
    assert summary["games"] == 2 and summary["finished"] == 2 and summary["errors"] == 0
    assert summary["wins"] + summary["losses"] == 2
    assert summary["mean_moves"] > 0 and summary["games_per_s"] > 0
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"{game}-00000.json", f"{game}-00001.json"]
    assert main(["replay", str(files[1]), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    record = json.loads(files[1].read_text())
    assert result["game"] == game and result["finished"] is True
    assert result["moves"] == len(record["moves"])
    assert result["winners"] == record["result"]["winner_names"]
    assert result["score"] == record["result"]["score"]


def test_simulate_with_players_and_variant(capsys):
    game = next(g for g in GAME_IDS if spec(g).max_players > spec(g).min_players
                and any(i.is_variant for i in spec(g).options.infos()))
    s = spec(game)
    variant = next(i.name for i in s.options.infos() if i.is_variant)
    assert main(["simulate", game, "--games", "2", "--players", str(s.max_players), "--variant", variant,
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["finished"] == 2


def test_simulate_is_deterministic():
    game = "court_wars"
    a = simulate(game, 3, 9, progress=False)
    b = simulate(game, 3, 9, progress=False)
    drop = {"games_per_s", "moves_per_s"}
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def test_replay_human_readable(tmp_path, capsys):
    game = "court_wars"
    assert main(["simulate", game, "--games", "1", "--records", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / f"{game}-00000.json")]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{game}: finished after ")


def test_replay_rejects_an_illegal_move(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": 1,
                               "moves": [[0, "fly away"]]}))
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "move 1 ('fly away' by seat 0) is illegal" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text, says", [
    ('{"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": 1, "moves": {"a": 1}}',
     "moves must be a list"),
    ('{"format": 1, "game": "chess", "players": ["P"], "seed": 1, "moves": []}', "Unknown game 'chess'"),
    ('{"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": "x", "moves": []}', "seed"),
    ('{"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": 1, "moves": [[0]]}', "move 1"),
    ('{"format": 1, "game": "court_wars", "players": "P", "seed": 1, "moves": []}', "players"),
    ('{"format": 1, "game": "court_wars", "players": ["A"], "seed": 1, "moves": []}', "cannot be set up"),
    ('{"format": 1, "game": "court_wars", "players": ["A", "B"], "seed": 1, "moves": [], "redacted": true}',
     "cannot replay it"),
    ('[1, 2]', "not a Deckhand record"),
    ('{"format": 1, "gam', "cannot replay"),
])
def test_every_malformed_record_is_one_clear_line(tmp_path, capsys, text, says):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# ----- hot seat ---------------------------------------------------------------------------
def test_hot_seat_clears_the_screen_and_hands_over_between_two_players():
    """Two humans: before each seat's view the screen is cleared (once someone's view was on
    it) and the terminal is handed over; each refusal shows its reason."""
    game = "court_wars"
    s = spec(game)
    rng = random.Random(5)
    moves: list[str] = []

    def answer(prompt: str) -> str:
        if HAND_OVER.match(prompt):
            return ""
        if len(moves) == 6:
            return "quit"
        seat = table.game.decisions()[0].seat
        assert prompt.startswith(table.game.players[seat])
        if len(moves) == 1 and "nonsense" not in script.out:
            return "nonsense words"
        moves.append(str(s.player(table.game, seat, rng)))
        return moves[-1]

    script = Script(answer=answer)
    table = HotSeat(s, s.state.new(["Ann", "Ben"], seed=4), set(), script.read, script.write, 80, random.Random(1),
                    clear=True)
    table.run()
    assert "Game left unfinished." in script.out
    assert "Not allowed: " in script.out  # the refusal's reason follows
    log = script.log
    handovers = [i for i, e in enumerate(log) if e[0] == "ask" and HAND_OVER.match(e[1])]
    assert len(handovers) >= 2
    assert all(log[i - 1] == ("out", CLEAR) for i in handovers[1:])  # cleared before every later hand-over
    first_view = next(i for i, e in enumerate(log) if e[0] == "out" and "Court Wars" in e[1] and i > 1)
    assert handovers[0] < first_view  # nobody's view shows before the first hand-over
    names = [HAND_OVER.match(log[i][1]).group(1) for i in handovers]
    assert all(a != b for a, b in zip(names, names[1:], strict=False))  # a hand-over only when the seat changes
    for i in handovers:  # the next prompt after a hand-over is that player's
        nxt = next(e for e in log[i + 1:] if e[0] == "ask")
        assert nxt[1].startswith(HAND_OVER.match(log[i][1]).group(1))


def test_hot_seat_clears_only_a_real_terminal():
    """The screen is cleared (ANSI) only when the output is a terminal: piped or captured output
    gets the hand-over prompt and no escape codes."""
    s = spec("court_wars")
    seen: list[str] = []

    def answer(prompt: str) -> str:
        seen.append(prompt)
        if HAND_OVER.match(prompt):
            return ""
        return "quit" if len([p for p in seen if HAND_OVER.match(p)]) >= 2 else \
            str(s.player(script_game(), script_game().decisions()[0].seat, random.Random(0)))

    def script_game():
        return table.game

    for clear in (False, True):
        seen.clear()
        script = Script(answer=answer)
        table = HotSeat(s, s.state.new(["Ann", "Ben"], seed=4), set(), script.read, script.write, 80,
                        random.Random(1), clear=clear)
        table.run()
        handovers = [p for p in script.asked() if HAND_OVER.match(p)]
        assert len(handovers) >= 2
        assert (CLEAR in [e[1] for e in script.log if e[0] == "out"]) is clear
    # play_terminal asks the output itself: pytest's captured stdout is no terminal
    script = Script(["", "quit"])
    play_terminal("court_wars", ["Ann", "Ben"], [], 4, read=script.read, write=script.write, width=80)
    assert not any(CLEAR in e[1] for e in script.log if e[0] == "out") and not sys.stdout.isatty()
    assert HAND_OVER.match(script.asked()[0]).group(1) in ("Ann", "Ben")


def test_each_seat_reads_events_as_that_seat_reads_them():
    """Celestial Emperor, two humans at one terminal: a private event text (the committed card)
    reaches only its seat, right after the move or in its catch-up; the other seat reads the
    public text in its catch-up. Decisions open at once are asked in turn."""
    game = "celestial_emperor"
    s = spec(game)
    rng = random.Random(2)
    asked_while_open: list[int] = []
    delivered: list = []

    def answer(prompt: str) -> str:
        if HAND_OVER.match(prompt):
            return ""
        if table.game.move_count >= 40:
            return "quit"
        decisions = table.game.decisions()
        asked_while_open.append(len(decisions))
        return str(s.player(table.game, decisions[0].seat, rng))

    script = Script(answer=answer)
    table = HotSeat(s, s.state.new(["Ann", "Ben"], seed=1), set(), script.read, script.write, 80, random.Random(1))
    deliver = table.deliver
    table.deliver = lambda events: (delivered.extend(events), deliver(events))
    table.run()
    assert max(asked_while_open) == 2  # a simultaneous decision: both asked, one after the other
    seen: dict[int, str] = {0: "", 1: ""}  # what each seat saw while holding the terminal
    holder = None
    for e in script.log:
        if e[0] == "ask" and HAND_OVER.match(e[1]):
            holder = table.game.players.index(HAND_OVER.match(e[1]).group(1))
        elif e[0] == "out" and holder is not None:
            seen[holder] += e[1] + "\n"
    private = [ev for ev in delivered if ev.private]
    assert len(private) >= 4
    mine = {seat: {t for ev in private for s_, t in ev.private.items() if s_ == seat} for seat in (0, 1)}
    for ev in private:
        for seat, text in ev.private.items():
            assert text in seen[seat]
            if text not in mine[1 - seat]:  # the same words may be the other's own line too
                assert text not in seen[1 - seat]
            assert ev.public in seen[1 - seat]
    assert "Since your last turn:" in seen[0] and "Since your last turn:" in seen[1]


def test_numbered_choices_pick_step_by_step():
    """`?` lists the next choices numbered; a number picks; the move plays when complete."""
    game = "court_wars"
    s = spec(game)
    script = Script(["?", "7", "1", "quit"])
    table = HotSeat(s, s.state.new(["Ann"] + ["Bot"], seed=4), {1}, script.read, script.write, 80,
                    random.Random(1))
    before = table.game.decisions()[0]
    c = table.game.choices(before.seat, ())
    table.run()
    out = script.out
    assert f"  1. {c.options[0].label}" in out
    assert f"Pick a number from 1 to {len(c.options)}" in out  # 7 was not offered
    assert table.game.move_count >= 1
    assert script.asked()[1].startswith("Ann [choosing]> ")
    assert not any(HAND_OVER.match(p) for p in script.asked())  # one human: no hand-over


def test_step_by_step_through_several_slots_with_back_and_zero():
    """A multi-step move is built token by token (`back` undoes one), and `0` plays a prefix
    that is already complete."""
    game = "court_wars"
    s = spec(game)
    rng = random.Random(3)
    g = s.state.new(["Ann", "Bot"], seed=11)
    while True:  # let the built-in player play until Ann can attack with a choice of several steps
        d = g.decisions()[0]
        if d.seat == 0 and "attack" in g.choices(0, ()).tokens():
            break
        g, _ = g.apply(d.seat, s.player(g, d.seat, rng))
    root = g.choices(0, ()).tokens()
    n = root.index("attack") + 1
    court = g.choices(0, ("attack",)).options
    script = Script(["?", str(n), "back", str(n), "1"] + ["1"] * 6 + ["quit"])
    table = HotSeat(s, g, {1}, script.read, script.write, 80, random.Random(1))
    table.run()
    out = script.out
    assert "Move so far: attack" in out
    assert court[0].label in out
    prompts = script.asked()
    assert any(p.startswith("Ann [attack …]> ") for p in prompts)
    assert any(p.startswith(f"Ann [attack {court[0].token} …]> ") for p in prompts)
    assert table.game.move_count > g.move_count  # the attack was played


def test_free_text_with_spaces_krpd_tell():
    """KRPD: the teller types their words as they are, spaces and all, in the text step."""
    game = "knight_rogue_princess_dragon"
    s = spec(game)
    rng = random.Random(1)
    words = "The Knight rides out at dawn, singing loudly"
    told: list[int] = []

    def answer(prompt: str) -> str:
        if HAND_OVER.match(prompt):
            return ""
        d = table.game.decisions()[0]
        if told:
            return "quit"
        if d.name == "tell":
            if "[choosing]" in prompt:
                return "1"
            if "[tell …]" in prompt:
                told.append(d.seat)
                return words
            return "?"
        return str(s.player(table.game, d.seat, rng))

    script = Script(answer=answer)
    table = HotSeat(s, s.state.new(["Ann", "Ben", "Cat", "Dee"], seed=6), set(), script.read, script.write, 80,
                    random.Random(1))
    table.run()
    assert told
    view = table.game.view(None)
    assert view.transcript[0].text == words
    assert "Type the text as you want it read" in script.out


def krpd_first_telling(typed: str) -> tuple[HotSeat, Script, str]:
    """KRPD at the terminal, the others built-in players: the seat that tells first (it depends on
    the deal) types ``typed`` at the telling prompt, then quits. The table, the script, the teller."""
    s = spec("knight_rogue_princess_dragon")
    names = ["Ann", "Ben", "Cat", "Dee"]
    g = s.state.new(names, seed=6)
    while g.decisions()[0].name != "tell":
        d = g.decisions()[0]
        g, _ = g.apply(d.seat, s.player(g, d.seat, random.Random(0)))
    starter = g.decisions()[0].seat

    def answer(prompt: str) -> str:
        if table.game.view(None).transcript:
            return "quit"
        d = table.game.decisions()[0]
        return typed if d.name == "tell" else str(s.player(table.game, d.seat, random.Random(0)))

    script = Script(answer=answer)
    table = HotSeat(s, s.state.new(names, seed=6), set(range(4)) - {starter}, script.read, script.write, 80,
                    random.Random(0))
    table.run()
    return table, script, names[starter]


def test_free_text_typed_as_notation_keeps_its_spaces():
    """The whole move typed at once: the text after the verb reaches the engine as typed."""
    words = "Once upon a time,  there was a knight"
    table, script, teller = krpd_first_telling(f"tell {words}")
    assert table.game.view(None).transcript[0].text == words
    assert script.asked()[0].startswith(teller + "> ")


def test_a_story_line_typed_without_its_verb_is_told():
    """KRPD: at the telling prompt the teller types their words as they are; the one text step
    on offer takes them (no `tell` needed)."""
    words = "Once upon a time,  a knight rode out"
    table, script, _ = krpd_first_telling(words)
    assert table.game.view(None).transcript[0].text == words.strip()
    assert "Not allowed" not in script.out


def test_a_line_that_is_notation_is_not_taken_as_story():
    """Words that start a move of their own stay a move (and its refusal), never a story line."""
    s = spec("court_wars")
    script = Script(["fly away", "quit"])
    table = HotSeat(s, s.state.new(["Ann", "Bot"], seed=4), {1}, script.read, script.write, 80, random.Random(1))
    table.run()
    assert "Not allowed: 'fly away' is not possible now" in script.out  # Court Wars has no text step


def test_choices_and_refusals_wrap_at_the_terminal_width():
    """Numbered choices, prompts and refusals are wrapped to the table's width; the board itself
    (the game's text view) is shown as drawn."""
    s = spec("court_wars")
    g = s.state.new(["Ann", "Bot"], seed=11)
    rng = random.Random(3)
    while not (g.decisions()[0].seat == 0 and "attack" in g.choices(0, ()).tokens()):
        d = g.decisions()[0]
        g, _ = g.apply(d.seat, s.player(g, d.seat, rng))
    n = g.choices(0, ()).tokens().index("attack") + 1
    script = Script(["?", str(n), "1", "1", "99", "nonsense words here and there for a long refusal", "quit"])
    table = HotSeat(s, g, {1}, script.read, script.write, 40, random.Random(1))
    table.run()
    views = {s_.render.text(v) for s_ in [table] for v in (g.view(0),)}
    lines = [ln for e in script.log if e[0] == "out" and e[1] not in views and not e[1].startswith("== ")
             for ln in e[1].splitlines()]
    assert any(ln.startswith("  1. ") for ln in lines)
    long = [ln for ln in lines if len(ln) > 40 and " " in ln.strip()]
    assert not long, long


def test_wrap_lines_hangs_continuations_and_keeps_short_lines():
    assert wrap_lines("a short line\n  x", 20) == "a short line\n  x"
    wrapped = wrap_lines("  1. " + "word " * 12, 20, "   ").splitlines()
    assert all(len(ln) <= 20 for ln in wrapped) and all(ln.startswith("     ") for ln in wrapped[1:])


@pytest.mark.parametrize("command", ["", "play", "simulate", "replay", "bench", "migrate-store"])
def test_argparse_help_wraps_at_the_terminal_width(command, monkeypatch, capsys):
    """``--help`` follows the terminal's width (COLUMNS): prose reflowed, examples and the game
    list keep their columns and hang their continuations. (In this process: argparse reads
    COLUMNS when it prints; ``python -m bot --help`` itself runs as a process in
    test_help_lists_every_command_and_game.)"""
    for columns in (50, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        with pytest.raises(SystemExit) as done:
            main([*([command] if command else []), "--help"])
        assert done.value.code == 0
        lines = capsys.readouterr().out.splitlines()
        assert max(len(ln) for ln in lines) <= columns, [ln for ln in lines if len(ln) > columns]
        if columns == 120 and command == "play":  # a wide terminal keeps a paragraph on one line
            assert any(ln.startswith("Play a game in this terminal. Several people share the keyboard (hot seat):")
                       for ln in lines)


@pytest.mark.parametrize("game", GAME_IDS)
def test_help_wraps_the_rules_at_width_60(game):
    s = spec(game)
    text = rules_help(s, 60)
    lines = text.splitlines()
    assert len(lines) > 10
    assert max(len(line) for line in lines) <= 60
    assert s.title in text
    assert "**" not in text


def test_help_inside_a_game_is_wrapped_to_the_terminal():
    s = spec("knight_rogue_princess_dragon")
    script = Script(["help", "quit"])
    play_terminal(s.id, ["A", "B", "C", "D"], [], 2, read=script.read, write=script.write, width=60,
                  auto_seats={1, 2, 3})
    shown = next(e[1] for e in script.log if e[0] == "out" and e[1].startswith(s.title + "\n="))
    assert max(len(line) for line in shown.splitlines()) <= 60
    assert shown == rules_help(s, 60)


def test_wrap_markdown_keeps_list_indents_and_tables():
    text = ("# Title\n\nA paragraph that was hard-wrapped\nin the source file and is long enough to wrap again.\n\n"
            "- an item whose words run well past the width of this narrow terminal\n"
            "  and go on in a continuation line\n"
            "  - a nested item that also runs long enough to need a second line here\n"
            "1. a numbered item that runs long enough to need a second line\n\n"
            "| Rank | Attack | Defence | Pattern | Power |\n|---|---|---|---|---|\n"
            "| A | 14 | 10 | orthogonal | face down, it attacks without stepping |\n\n"
            "| x | y |\n|---|---|\n| 1 | 2 |\n")
    out = wrap_markdown(text, 40)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 40
    assert lines[:2] == ["Title", "====="]
    assert "A paragraph that was hard-wrapped in the" in out  # reflowed
    item = lines.index(next(line for line in lines if line.startswith("- an item")))
    assert lines[item + 1].startswith("  ") and not lines[item + 1].startswith("   ")
    nested = lines.index(next(line for line in lines if line.startswith("  - a nested")))
    assert lines[nested + 1].startswith("    ") and not lines[nested + 1].startswith("     ")
    numbered = lines.index(next(line for line in lines if line.startswith("1. a numbered")))
    assert lines[numbered + 1].startswith("   ")
    assert "- Rank A — Attack: 14; Defence: 10;" in out  # too wide: a line per row
    assert "x  y" in lines and "1  2" in lines  # narrow enough: aligned columns


def test_all_bot_table_finishes_and_prints_public_events():
    game = "celestial_emperor"
    script = Script()
    g = play_terminal(game, ["A", "B"], [], 4, read=script.read, write=script.write, auto_seats={0, 1})
    assert g.is_over()
    assert "You committed" not in script.out  # nobody at the terminal: only public texts
    assert "has committed a card." in script.out
    assert g.outcome().summary in script.out
    assert script.asked() == []


def test_end_of_input_leaves_the_game():
    script = Script([])
    g = play_terminal("court_wars", ["A", "B"], [], 4, read=script.read, write=script.write, auto_seats={1})
    assert not g.is_over()
    assert script.out.endswith("Bye.")


def test_play_from_the_command_line_with_bots():
    out = run_cli("play", "court_wars", "--players", "3", "--bots", "2,3", "--seed", "8", stdin="?\n1\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Court Wars — seed 8. Players: Player 1, Player 2 (built-in player, Normal), Player 3 (built-in player, Normal)." \
        in " ".join(out.stdout.split())
    assert "  1. " in out.stdout
    assert "Game left unfinished." in out.stdout
    assert "Pass the terminal" not in out.stdout


def test_start_without_token_plays_in_terminal(tmp_path):
    out = run_cli("start", env={"DECKHAND_DATABASE": str(tmp_path / "x.db")}, stdin="moves\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Gridcannon" in out.stdout
    assert "  1. " in out.stdout


# ----- faults of the command line (issue 16): one clear line, exit status 2 -------------------
def one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_replay_of_deeply_nested_json_is_one_clear_line(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 2000 + "]" * 2000)  # 4 KB
    assert main(["replay", str(deep)]) == 2
    assert "nested too deeply" in one_line(capsys.readouterr().err)


def test_simulate_records_at_a_file_is_one_clear_line(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    assert main(["simulate", "gridcannon", "--games", "1", "--records", str(taken)]) == 2
    assert "is a file" in one_line(capsys.readouterr().err)
    assert taken.read_text() == "not a folder"


def test_simulate_records_at_an_unwritable_path_is_one_clear_line(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main(["simulate", "gridcannon", "--games", "1", "--records", str(taken / "inside")]) == 2
    assert "cannot make the folder" in one_line(capsys.readouterr().err)


def test_simulate_records_in_a_read_only_folder_is_one_clear_line(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    real = Path.write_text

    def refuse(self, *a, **kw):  # root writes anywhere: the refusal a read-only folder gives
        if self.parent == folder:
            raise PermissionError(13, "Permission denied")
        return real(self, *a, **kw)

    monkeypatch.setattr(Path, "write_text", refuse)
    assert main(["simulate", "gridcannon", "--games", "1", "--records", str(folder)]) == 2
    assert "cannot write in the folder" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("games", ["0", "-5"])
def test_simulate_refuses_no_games(games, capsys):
    assert main(["simulate", "gridcannon", "--games", games]) == 2
    captured = capsys.readouterr()
    assert "--games takes a number of games, 1 or more" in one_line(captured.err)
    assert captured.out == ""


@pytest.mark.parametrize("name, value", [
    ("DECKHAND_SWEEP_SECONDS", v) for v in ("1e308", "nan", "inf", "-inf", "-1", "0", "", "soon")
] + [
    ("DECKHAND_IDENTIFY_DELAY", v) for v in ("1e308", "nan", "inf", "-1")
] + [
    ("DECKHAND_PICTURE_WORKERS", v) for v in ("-1", "1e308", "2.5", "nan", "many", "100000")
] + [
    ("DECKHAND_THINK_WORKERS", v) for v in ("-1", "2.5", "many")
] + [
    ("DECKHAND_STRONG_SECONDS", v) for v in ("0", "31", "nan", "soon")
])
def test_every_numeric_setting_refuses_nonsense(name, value, monkeypatch, capsys):
    monkeypatch.setenv(name, value)
    code = main(["simulate", "gridcannon", "--games", "1", "--json"])
    if value == "":  # unset: the default
        assert code == 0
        return
    assert code == 2
    line = one_line(capsys.readouterr().err)
    assert name in line and "from" in line


def test_the_end_animation_is_on_or_off_and_nothing_else():
    from bot.config import ConfigError, Settings

    assert Settings.from_env({}).end_animation and Settings.from_env({"DECKHAND_END_ANIMATION": " ON "}).end_animation
    assert not Settings.from_env({"DECKHAND_END_ANIMATION": "off"}).end_animation
    with pytest.raises(ConfigError, match="DECKHAND_END_ANIMATION takes on or off"):
        Settings.from_env({"DECKHAND_END_ANIMATION": "sometimes"})


# ----- settings: the code, .env.example and --help agree (issue 18 #12) ----------------------
# ``os.environ.get("X", "d")``, ``os.getenv("X")``, ``env["X"]``, ``env.get("X")`` and helpers
# handed the environment, ``_number(env, "X", …)``
READS = re.compile(r"""(?:(?:environ|getenv|env)(?:\.get)?\s*[(\[]|\(env,)\s*["']([A-Z][A-Z0-9_]+)["']"""
                   r"""(?:\s*,\s*["']([^"']*)["'])?""")


def settings_the_code_reads() -> dict[str, set[str]]:
    """Every setting read from the environment anywhere in bot/ and cogs/, with the literal
    defaults written beside the reads."""
    found: dict[str, set[str]] = {}
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        for name, default in READS.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, set())
            if default:
                found[name].add(default)
    return found


def env_example() -> tuple[str, dict[str, str]]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    lines = text.splitlines()
    values = {}
    for i, line in enumerate(lines):
        if line and not line.startswith("#"):
            name, eq, value = line.partition("=")
            assert eq, line
            assert lines[i - 1].startswith("# "), f"{name} has no comment above it"
            values[name] = value
    return text, values


def test_every_setting_the_code_reads_is_in_env_example_and_help_with_the_codes_default():
    from bot.config import SETTINGS, Settings

    read = settings_the_code_reads()
    assert {"DECKHAND_SWEEP_SECONDS", "DECKHAND_PICTURE_WORKERS", "DATABASE_URL"} <= set(read)  # the scan works
    text, example = env_example()
    assert text.endswith("\n")
    assert set(example) == set(read), "settings .env.example lists but the code does not read, or the reverse"
    assert [s.name for s in SETTINGS] == list(example)
    for name, defaults in read.items():  # a default written at the read is the example's value
        assert all(d == example[name] for d in defaults), (name, defaults, example[name])
    # the example's values are the code's defaults: setting them changes nothing
    assert Settings.from_env(dict(example)) == Settings.from_env({})
    help_text = " ".join(run_cli("--help", env={"COLUMNS": "100"}).stdout.split())
    for s in SETTINGS:
        shown = example[s.name] or s.default_note or "unset"
        assert f"{s.name} " in help_text and f"(default: {shown})" in help_text, s.name
        assert " ".join(s.help.split()) in help_text


def test_bench_help_has_a_description(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    text = capsys.readouterr().out
    assert "Print speed figures" in text and "a minimal discord.py bot" in " ".join(text.split())


# ----- terminal play (issue 18 #11): through the program, stdin in, stdout out ------------------
def played_until(game_id: str, names: list[str], seed: int, want: Callable[[Any], bool], limit: int = 400):
    """The built-in player's moves (every seat human) until ``want(game)``, as lines typed at the
    hot seat: an Enter at each hand-over (when the seat to act changes), then the move."""
    s = spec(game_id)
    g = s.state.new(names, seed=seed)
    rng = random.Random(seed)
    lines: list[str] = []
    holder = 0 if len(names) == 1 else None
    while True:
        d = g.decisions()[0]
        if d.seat != holder:
            lines.append("")  # "Pass to …; press Enter"
            holder = d.seat
        if want(g):
            return g, lines
        assert len(lines) < limit and not g.is_over()
        move = str(s.player(g, d.seat, rng))
        g, _ = g.apply(d.seat, move)
        lines.append(move)


def test_a_typo_gets_the_nearest_moves_and_commands():
    out = run_cli("play", "gridcannon", "--seed", "3", stdin="royl\nrulse\nhnit\nquit\n")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Not allowed: Unknown move 'royl'." in text
    assert "Did you mean `royal`?" in text
    assert "Did you mean `rules`?" in text and "Did you mean `hint`?" in text
    assert "Type `?` for your moves, `help` for the rules and the terminal's commands." in text


def test_rules_lists_sections_and_shows_one():
    s = spec("gridcannon")
    sections = s.rules_sections()
    setup = next(i for i, (h, _) in enumerate(sections) if h == "Setup")
    out = run_cli("play", "gridcannon", "--seed", "3", stdin=f"rules\nrules setp\nrules {setup + 1}\nrules zebra\nquit\n",
                  env={"COLUMNS": "80"})
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Sections of the rules: 1. " in text and all(f"{i}. {h}" in text for i, (h, _) in enumerate(sections, 1))
    body = " ".join(sections[setup][1].split()).replace("**", "")
    first_words = " ".join(body.split()[:8])
    assert text.count(first_words) == 2  # `rules setp` (near miss) and `rules 4`: the Setup section, each time
    next_head = sections[setup + 1][0]
    assert f"{next_head} ---" not in text  # one section, not the rest
    assert "No section 'zebra' in the rules." in text


def test_hint_in_the_terminal_is_the_engines_hint():
    from bot.engine.hints import hint_sentence

    g = spec("gridcannon").state.new(["Player"], seed=3)
    out = run_cli("play", "gridcannon", "--seed", "3", stdin="hint\nquit\n", env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    assert f"Hint: {hint_sentence(g, 0)}" in " ".join(out.stdout.split())


def test_refusals_point_to_the_terminals_rules_not_the_discord_command():
    g = spec("gridcannon").state.new(["Player"], seed=3)
    with pytest.raises(Exception) as refused:  # the engine itself cites the Discord command
        g.apply(0, "royal JD T1")
    assert "/game rules section: Setup" in str(refused.value)
    out = run_cli("play", "gridcannon", "--seed", "3", stdin="royal JD T1\nrules Setup\nquit\n")
    text = " ".join(out.stdout.split())
    assert "Not allowed: J♦ cannot go to T1" in text and "(see `rules Setup`)" in text
    assert "/game" not in out.stdout


@pytest.mark.parametrize("game_id, names, verb", [("court_wars", ["Player 1", "Player 2"], "resign"),
                                                  ("gridcannon", ["Player"], "concede")])
def test_resign_and_concede_ask_for_confirmation(game_id, names, verb):
    _, moves = played_until(game_id, names, 3, lambda g: verb in g.choices(g.decisions()[0].seat, ()).tokens())
    args = ["play", game_id, "--seed", "3"] + (["--players", str(len(names))] if len(names) > 1 else [])
    out = run_cli(*args, stdin="\n".join([*moves, verb, "no", "show", verb, "yes", ""]) + "\n",
                  env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    text = out.stdout
    asks = f"{verb.capitalize()}? That ends the game for you and cannot be undone. Type `yes` to confirm:"
    assert text.count(asks) == 2
    assert f"Not done: you did not {verb}." in text
    kept, done = text.split(f"Not done: you did not {verb}.")
    assert asks in kept and asks in done  # asked again after `no`: the game went on
    assert "Game left unfinished." not in text and "Bye." not in text  # `yes` ended it
    g, _ = played_until(game_id, names, 3, lambda g: verb in g.choices(g.decisions()[0].seat, ()).tokens())
    ended = g.apply(g.decisions()[0].seat, verb)[0]
    assert ended.is_over() and ended.outcome().summary in " ".join(done.split())


def test_gridcannon_prints_every_event_and_prompt_once():
    """Gridcannon's view shows the last move's events and the prompt: neither is printed again."""
    s = spec("gridcannon")
    g = s.state.new(["Player"], seed=3)
    rng = random.Random(3)
    moves, expected = [], []
    for _ in range(12):
        move = str(s.player(g, 0, rng))
        g, events = g.apply(0, move)
        moves.append(move)
        expected.append(([e.for_(0) for e in events if e.for_(0)], g.decisions()[0].prompt if g.decisions() else ""))
    out = run_cli("play", "gridcannon", "--seed", "3", stdin="\n".join(moves) + "\nquit\n", env={"COLUMNS": "300"})
    assert out.returncode == 0, out.stderr
    turns = out.stdout.split("Player> ")[1:]  # what follows each line typed
    assert len(turns) == len(moves) + 1
    for (events, prompt), shown in zip(expected, turns, strict=False):
        flat = " ".join(shown.split())
        for text in events:
            assert flat.count(" ".join(text.split())) == 1, (text, shown)
        if prompt:
            assert flat.count(" ".join(prompt.split())) == 1, (prompt, shown)


def test_the_player_chooses_the_bots_levels():
    assert parse_seats("strong", 3) == {1: "strong", 2: "strong"}, "a level alone: every seat but yours"
    assert parse_seats("2:easy,3", 3, "strong") == {1: "easy", 2: "strong"}
    assert parse_seats("all:easy", 2) == {0: "easy", 1: "easy"}
    assert parse_seats("2", 2) == {1: "normal"}
    for bad in ("2:grandmaster", "4", "strong:easy", "x"):
        with pytest.raises(ValueError):
            parse_seats(bad, 3)
    out = run_cli("play", "court_wars", "--players", "3", "--bots", "2:easy,3:strong", "--seed", "8",
                  stdin="quit\n", env={"COLUMNS": "200", "DECKHAND_STRONG_SECONDS": "0.05"})
    assert out.returncode == 0, out.stderr
    assert "Players: Player 1, Player 2 (built-in player, Easy), Player 3 (built-in player, Strong)." in \
        " ".join(out.stdout.split())
    refused = run_cli("play", "court_wars", "--bots", "2:grandmaster", stdin="quit\n")
    assert refused.returncode == 2 and "level" in refused.stderr


def test_a_game_against_strong_and_easy_bots_in_the_terminal_ends(monkeypatch):
    monkeypatch.setenv("DECKHAND_STRONG_SECONDS", "0.02")  # the test's budget: small
    script = Script()
    g = play_terminal("court_wars", ["A", "B", "C"], [], 3, read=script.read, write=script.write,
                      auto_seats={0: "strong", 1: "easy", 2: "normal"})
    assert g.is_over() and g.outcome().summary in script.out
    assert "A (built-in player, Strong), B (built-in player, Easy), C (built-in player, Normal)" in " ".join(script.out.split())


def test_default_names_read_player_1():
    out = run_cli("play", "court_wars", "--bots", "2", "--seed", "1", stdin="quit\n", env={"COLUMNS": "200"})
    assert "Players: Player 1, Player 2 (built-in player, Normal)." in out.stdout
    assert "P1 P1" not in out.stdout and "Player 1 — K♠" in out.stdout


def test_several_moves_on_one_line_are_played_in_a_row_or_not_at_all():
    """`move ; move` plays the seat's moves one by one (each said as it happens); a line with a
    refused move plays none of them."""
    s = spec("maginot_line")
    game = s.state.new(["Ann", "Ben"], seed=4)
    for seat in (0, 1):  # the Aces, A♦ first (its base taps for markers)
        game, _ = game.apply(seat, str(s.player(game, seat, random.Random(seat))))
    seat = min(game.to_act())
    lines = ["tapbase ; tapbase", "tapbase ; done ; done", "quit"]
    script = Script(lines)
    table = HotSeat(s, game, {1 - seat}, script.read, script.write, 80, random.Random(1), clear=False)
    table.run()
    out = script.out
    assert "Not allowed: move 2 (`tapbase`)" in out and "Nothing was played." in out
    assert table.game.move_count == game.move_count + 3  # the second line: three moves, each its own
    assert table.game.phase == "consolidation" and seat in table.game.to_act()
    assert "taps their base" in out


def test_the_terminal_gridcannon_board_names_rows_and_columns_as_moves_name_cells():
    """The board a player reads at the terminal names its rows r1..r3 and columns c1..c3, the way a
    move names a cell (``place r1c2``): the card shown in row r, column c is the one at ``r{r}c{c}``."""
    from bot.engine.cards import pretty

    script = Script(["quit"])
    game = play_terminal("gridcannon", ["Ann"], [], 3, read=script.read, write=script.write, width=80)
    lines = script.out.splitlines()
    assert any(ln.split() == ["c1", "c2", "c3"] for ln in lines), script.out
    tops = {c.cell: c.top for c in game.view(0).grid}
    for r in (1, 2, 3):
        row = next(ln for ln in lines if ln.startswith(f"L{r} ") and f" r{r} " in ln)
        shown = row.partition(f" r{r} ")[2].split()[:3]
        assert shown == [pretty(tops[f"r{r}c{c}"]) for c in (1, 2, 3)], row
