"""The terminal tools: run without a token, play, simulate, replay, --help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli import play_terminal, simulate

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"games", "finished", "errors", "wins", "losses", "mean_score", "mean_moves", "games_per_s", "moves_per_s"}


def run_cli(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DECKHAND_"))}
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=base, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_run_without_token_is_one_clear_line(tmp_path):
    out = run_cli("run", env={"DISCORD_TOKEN": "", "DECKHAND_DATABASE": str(tmp_path / "x.db")})
    assert out.returncode != 0
    assert "DISCORD_TOKEN" in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_help_lists_every_command():
    out = run_cli("--help")
    assert out.returncode == 0
    for cmd in ("start", "run", "sync", "play", "simulate", "replay", "bench"):
        assert cmd in out.stdout


@pytest.mark.parametrize("game,players", [("gridcannon", None), ("court_wars", 3), ("celestial_emperor", 4),
                                          ("knight_rogue_princess_dragon", 4)])
def test_simulate_json_and_records_replay(tmp_path, capsys, game, players):
    args = ["simulate", game, "--games", "3", "--seed", "2", "--json", "--records", str(tmp_path)]
    if players:
        args += ["--players", str(players)]
    assert main(args) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads(last)
    assert set(summary) == KEYS
    assert summary["games"] == 3 and summary["finished"] == 3 and summary["errors"] == 0
    assert summary["wins"] + summary["losses"] == 3
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    assert main(["replay", str(files[0]), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"game", "finished", "winners", "score", "moves"} <= set(result)
    record = json.loads(files[0].read_text())
    assert result["game"] == game and result["finished"] is True
    assert result["moves"] == len(record["moves"])
    assert result["winners"] == record["result"]["winner_names"]


def test_gridcannon_solo_winners_is_name_or_empty(tmp_path, capsys):
    assert main(["simulate", "gridcannon", "--games", "6", "--seed", "5", "--records", str(tmp_path)]) == 0
    capsys.readouterr()
    for f in tmp_path.glob("*.json"):
        main(["replay", str(f), "--json"])
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        record = json.loads(f.read_text())
        won = bool(record["result"]["winners"])
        assert result["winners"] == (["Player"] if won else [])


def test_simulate_is_deterministic():
    a = simulate("gridcannon", 4, 9, progress=False)
    b = simulate("gridcannon", 4, 9, progress=False)
    drop = {"games_per_s", "moves_per_s"}
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def test_replay_rejects_garbage(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "game": "gridcannon", "players": ["P"], "seed": 1, "moves": [[0, "fly"]]}')
    assert main(["replay", str(bad)]) == 2
    assert "illegal" in capsys.readouterr().err


@pytest.mark.parametrize("text, says", [
    ('{"format": 1, "game": "gridcannon", "players": ["P"], "seed": 1, "moves": {"a": 1}}', "moves must be a list"),
    ('{"format": 1, "game": "chess", "players": ["P"], "seed": 1, "moves": []}', "Unknown game 'chess'"),
    ('{"format": 1, "game": "gridcannon", "players": ["P"], "seed": "x", "moves": []}', "seed"),
    ('{"format": 1, "game": "gridcannon", "players": ["P"], "seed": 1, "moves": [[0]]}', "move 1"),
    ('{"format": 1, "game": "gridcannon", "players": "P", "seed": 1, "moves": []}', "players"),
    ('[1, 2]', "not a Deckhand record"),
    ('{"format": 1, "gam', "cannot replay"),
])
def test_every_malformed_record_is_one_clear_line(tmp_path, capsys, text, says):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_play_terminal_scripted():
    lines = iter(["moves", "nonsense words", "help", "quit"])
    out: list[str] = []
    play_terminal("gridcannon", ["Player"], [], 3, read=lambda _: next(lines), write=out.append)
    text = "\n".join(out)
    assert "Gridcannon" in text
    assert "Illegal:" in text
    assert "Game left unfinished." in text


def test_play_terminal_hot_seat_with_bots_finishes():
    out: list[str] = []
    game = play_terminal("court_wars", ["A", "B"], [], 4, read=lambda _: "quit", write=out.append,
                         auto_seats={0, 1})
    assert game.is_over()


def test_start_without_token_plays_in_terminal(tmp_path):
    out = run_cli("start", env={"DECKHAND_DATABASE": str(tmp_path / "x.db")}, stdin="moves\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Gridcannon" in out.stdout
