"""Game records: what PGN is to chess. A record reproduces its game exactly.

A record holds the format version, the game, its options, the players (seat order),
the seed and the moves in order as ``[seat, move]``; a forfeit is the move ``!forfeit``. Its result's
``summary`` is English; ``said`` is the same words as a phrase's JSON (bot.engine.words), to be said
in any language (records from before it was kept have the English only).

A record that is not one raises ValueError whose one argument is a phrase: its English is the
readable line (the command line prints it), and a reader's language says it too.
"""

from __future__ import annotations

from typing import Any, Sequence

from bot.engine.core import Game
from bot.engine.registry import GAME_IDS, spec
from bot.engine.words import Phrase, encode, say

RECORD_FORMAT = 1
FORFEIT = "!forfeit"


def make_record(game: Game, moves: Sequence[Sequence[Any]], status: str = "") -> dict[str, Any]:
    """The record of ``game`` (its current state) reached by ``moves`` from its seed."""
    outcome = game.outcome()
    result = None
    if outcome is not None:
        result = {
            "winners": list(outcome.winners),
            "winner_names": [game.players[s] for s in outcome.winners],
            "score": outcome.score,
            "summary": outcome.summary,
        }
        if isinstance(outcome.summary, Phrase):  # the same words, to be said in the reader's language
            result["said"] = encode(outcome.summary)
    return {
        "format": RECORD_FORMAT,
        "game": game.game_id,
        "title": game.title,
        "options": list(game.options),
        "players": list(game.players),
        "seed": game.seed,
        "moves": [[int(m[0]), str(m[1])] for m in moves],
        "status": status or ("finished" if outcome is not None else "in progress"),
        "result": result,
    }


def redacted(record: dict[str, Any]) -> dict[str, Any]:
    """The record as players may have it: secret choices (committed cards, trick cards) hidden.

    A redacted record cannot be replayed; the full one stays in the bot's database.
    """
    s = spec(record["game"])
    if s.export_seed:
        return record
    game = s.state.new(record["players"], record.get("options", []), seed=int(record["seed"]))
    out = dict(record)
    out["moves"] = [[seat, move if move == FORFEIT else game.redact(seat, move)] for seat, move in record["moves"]]
    out["seed"] = None  # with the seed and the public moves, a replay could not recover the hidden ones anyway
    out["redacted"] = True
    return out


def apply_logged(game: Game, seat: int, move: str) -> Game:
    """Apply one logged move (a forfeit included)."""
    if move == FORFEIT:
        return game.forfeit(seat)[0]
    return game.apply(seat, move)[0]


def check_record(record: Any) -> None:
    """Raise ValueError with one readable line (a phrase) for anything a record must have and lacks."""
    if not isinstance(record, dict):
        raise ValueError(say("not a Deckhand record (a JSON object is expected)"))
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(say("not a Deckhand record (format {format} expected)", format=RECORD_FORMAT))
    if record.get("redacted"):
        raise ValueError(say("this record has its secret choices hidden (a player's copy); it shows the game but "
                             "cannot replay it — the full record is in the bot's database"))
    game = record.get("game")
    if not isinstance(game, str):
        raise ValueError(say("the record names no game"))
    try:
        spec(game)
    except KeyError:
        shown = game if len(game) <= 40 else game[:39] + "…"
        raise ValueError(say("Unknown game {game}. Games: {games}.", game=repr(shown), games=", ".join(GAME_IDS))) \
            from None
    players = record.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise ValueError(say("the record's players must be a list of names"))
    options = record.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise ValueError(say("the record's options must be a list of texts"))
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(say("the record's seed must be a whole number"))
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise ValueError(say("the record's moves must be a list of [seat, move] pairs"))
    for i, m in enumerate(moves, start=1):
        if (not isinstance(m, list) or len(m) != 2 or isinstance(m[0], bool) or not isinstance(m[0], int)
                or not isinstance(m[1], str)):
            raise ValueError(say("move {i} must be a [seat, move] pair", i=i))


def why(error: BaseException) -> Any:
    """An error's words: its phrase when it carries one (to be said in a reader's language), else its text."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Phrase) else str(error)


def not_set_up(error: BaseException) -> ValueError:
    """A record whose game cannot be set up (its players or options refused by the game)."""
    return ValueError(say("the record's game cannot be set up: {error}", error=why(error)))


def illegal(i: int, seat: Any, move: str, error: BaseException) -> ValueError:
    """The ``i``-th move of a record refused by its game."""
    return ValueError(say("move {i} ({move} by seat {seat}) is illegal: {error}", i=i, move=repr(move[:60]), seat=seat,
                          error=why(error)))


def replay(record: dict[str, Any]) -> Game:
    """Reproduce a record's game; raises ValueError (one readable line) on a malformed or
    inconsistent record."""
    check_record(record)
    cls = spec(record["game"]).state
    try:
        game = cls.new(record["players"], record.get("options", []), seed=int(record["seed"]))
    except ValueError as e:
        raise not_set_up(e) from None
    for i, (seat, move) in enumerate(record["moves"], start=1):
        try:
            game = apply_logged(game, int(seat), str(move))
        except ValueError as e:
            raise illegal(i, seat, str(move), e) from None
    return game
