"""The terminal side of Deckhand: play, simulate and replay games without Discord."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, TextIO

from bot.engine import auto_player, game_class
from bot.engine.core import Game, IllegalMove
from bot.engine.cards import pretty_text
from bot.engine.registry import spec
from bot.records import make_record, replay
from bot.render import renderer


class Progress:
    """A one-line progress counter on a terminal (stderr); silent when not a terminal."""

    def __init__(self, total: int, label: str, stream: TextIO = sys.stderr):
        self.total, self.label, self.stream = total, label, stream
        self.enabled = stream.isatty()
        self._last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.2 or done == self.total):
            self._last = now
            self.stream.write(f"\r{self.label}: {done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def default_players(game_id: str, count: int | None) -> list[str]:
    cls = game_class(game_id)
    n = count if count is not None else cls.min_players
    if not cls.min_players <= n <= cls.max_players:
        raise SystemExit(f"{cls.title} takes {cls.min_players}–{cls.max_players} players, not {n}.")
    return ["Player"] if n == 1 else [f"P{i + 1}" for i in range(n)]


def play_auto(game: Game, rng: random.Random, max_moves: int = 20_000) -> tuple[Game, list[list[Any]]]:
    """Play ``game`` to the end with the built-in player in every seat."""
    choose = auto_player(game.game_id)
    moves: list[list[Any]] = []
    while not game.is_over():
        if len(moves) >= max_moves:
            raise RuntimeError(f"no end after {max_moves} moves")
        seat = min(game.to_act())
        move = str(choose(game, seat, rng))
        game, _ = game.apply(seat, move)
        moves.append([seat, move])
    return game, moves


def simulate(game_id: str, games: int, seed: int, players: int | None = None, options: list[str] | None = None,
             records: Path | None = None, progress: bool = True) -> dict[str, Any]:
    """Play ``games`` games with the built-in player; the summary ``simulate --json`` prints."""
    names = default_players(game_id, players)
    cls = game_class(game_id)
    cls.check_options(options or [])
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    finished = errors = wins = losses = total_moves = 0
    scores: list[float] = []
    bar = Progress(games, f"simulate {game_id}") if progress else None
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        try:
            game = cls.new(names, options or [], seed=game_seed)
            game, moves = play_auto(game, random.Random(game_seed))
        except Exception as e:  # a simulation reports engine errors instead of stopping
            errors += 1
            print(f"game {i} (seed {game_seed}): error: {e!r}", file=sys.stderr)
            continue
        finished += 1
        total_moves += len(moves)
        outcome = game.outcome()
        assert outcome is not None
        if outcome.winners:
            wins += 1
        else:
            losses += 1
        if outcome.score is not None:
            scores.append(outcome.score)
        if records is not None:
            (records / f"{game_id}-{i:05d}.json").write_text(json.dumps(make_record(game, moves), indent=1))
        if bar:
            bar.update(i + 1)
    if bar:
        bar.close()
    elapsed = max(time.perf_counter() - started, 1e-9)
    return {
        "games": games,
        "finished": finished,
        "errors": errors,
        "wins": wins,
        "losses": losses,
        "mean_score": round(sum(scores) / len(scores), 3) if scores else None,
        "mean_moves": round(total_moves / finished, 2) if finished else 0,
        "games_per_s": round(finished / elapsed, 2),
        "moves_per_s": round(total_moves / elapsed, 1),
    }


def replay_summary(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text())
    game = replay(record)
    outcome = game.outcome()
    return {
        "game": game.game_id,
        "finished": outcome is not None,
        "winners": [game.players[s] for s in outcome.winners] if outcome else [],
        "score": outcome.score if outcome else None,
        "moves": len(record["moves"]),
        "summary": outcome.summary if outcome else "in progress",
        "players": game.players,
    }


def _event_text(event: Any, seat: int | None) -> str | None:
    """What ``seat`` (``None``: the public) reads of an event: a v2 event's own text for that
    recipient, or a v1 event's text when it may see it."""
    if hasattr(event, "for_"):
        return event.for_(seat)
    return event.text if event.visible_to(None) or event.visible_to(seat) else None


def play_terminal(game_id: str, players: list[str], options: list[str], seed: int | None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                  auto_seats: set[int] | None = None) -> Game:
    """A hot-seat terminal table: shows each player's view, reads moves in the shared notation."""
    cls = game_class(game_id)
    game = cls.new(players, options, seed=seed)
    render = renderer(game_id)
    rng = random.Random(seed)
    write(f"{cls.title} — seed {game.seed}. Type a move, `moves` for the legal moves, `help`, or `quit`.")
    shown_to: int | None = -1
    while not game.is_over():
        seat = min(game.to_act())
        if auto_seats and seat in auto_seats:
            game, events = game.apply(seat, str(auto_player(game_id)(game, seat, rng)))
            for e in events:
                shown = _event_text(e, None)
                if shown:
                    write(pretty_text(shown))
            continue
        if shown_to != seat:
            who = f" ({game.players[seat]})" if len(players) > 1 else ""
            write("")
            write(render.text(game.view(seat)) + who)
            shown_to = seat
        prompts = [o for o in game.choices(seat, ()).options if game.choices(seat, (o.token,)).kind == "text"]
        hint = "; ".join(f"{p.token} <text>: {p.label}" for p in prompts)
        try:
            line = read(f"{game.players[seat]}> " if not hint else f"{game.players[seat]} [{hint}]> ").strip()
        except EOFError:
            write("Bye.")
            return game
        if not line:
            continue
        if line in ("quit", "exit"):
            write("Game left unfinished.")
            return game
        if line in ("moves", "?"):
            for m in game.legal_moves(seat):
                write(f"  {m:<24} {pretty_text(game.describe(seat, m))}")
            for p in prompts:
                write(f"  {p.token} <text>{'':<17} {p.label}")
            continue
        if line == "help":
            write(spec(game_id).summary)
            continue
        if line == "show":
            write(render.text(game.view(seat)))
            continue
        try:
            game, events = game.apply(seat, line)
        except IllegalMove as e:
            write(f"Illegal: {e}")
            continue
        shown_to = -1
        for e in events:
            shown = _event_text(e, seat)
            if shown:
                write(pretty_text(shown))
    write("")
    write(render.text(game.view(None)))
    outcome = game.outcome()
    if outcome:
        write(pretty_text(outcome.summary))
    return game
