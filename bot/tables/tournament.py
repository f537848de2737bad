"""A tournament's record and what anyone may see of it: the stored tournament
(:class:`Tournament`), the work a clock step hands the Discord layer (:data:`Work`) and the
read-only :class:`TournamentView`. No store calls and no clock here: :mod:`bot.tables.tournaments`
runs the service, :mod:`bot.tables.tournament_clock` the rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.levels import DEFAULT_LEVEL, LEVELS
from bot.engine.words import Many, say
from bot.engine.registry import spec
from bot.i18n import LANGUAGES
from bot.store.tournaments import TournamentRow
from bot.tables.base import BOT_NAME
from bot.tables.pairing import ELIMINATION, FILL, Board, Entrant, Standing, knocked_out, standings

AHEAD, DRAW = "ahead", "draw"
SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
TRIES = 8  # saves retried on a revision race
MAX_ENTRANTS = 64


@dataclass
class Tournament:
    """A tournament as stored (``TournamentRow.data``), with the row's id and revision."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    revision: int
    organiser_id: int
    organiser: str
    game: str
    format: str
    size: int  # seats a table
    rounds_planned: int  # 0: decided at the start
    round_seconds: int
    turn_limit: int
    bots: int  # built-in players entered
    fill: bool  # built-in players fill short tables
    settle: str  # AHEAD | DRAW
    options: list[str]
    starts_at: float | None
    round_ends: float | None = None
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[list[Board]] = field(default_factory=list)
    posted: int = 0  # rounds whose standings were posted
    message_id: int | None = None
    alarm: float | None = None
    bot_level: str = DEFAULT_LEVEL  # the level built-in players entered (and filling tables) play at
    lang: str = "en"  # the server's language when it was made: its announcements, rounds and results speak it

    # ----- the stored form ----------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        return {
            "v": 1, "organiser": [self.organiser_id, self.organiser], "game": self.game, "format": self.format,
            "size": self.size, "rounds_planned": self.rounds_planned, "round_seconds": self.round_seconds,
            "turn_limit": self.turn_limit, "bots": self.bots, "fill": self.fill, "settle": self.settle,
            "options": self.options, "starts_at": self.starts_at, "round_ends": self.round_ends,
            "entrants": [e.to_json() for e in self.entrants],
            "rounds": [[b.to_json() for b in r] for r in self.rounds], "posted": self.posted,
            "message_id": self.message_id, "bot_level": self.bot_level, "lang": self.lang,
        }

    @classmethod
    def of(cls, row: TournamentRow) -> "Tournament":
        d = row.data
        return cls(row.id, row.guild_id, row.channel_id, row.status, row.revision, int(d["organiser"][0]),
                   str(d["organiser"][1]), d["game"], d["format"], int(d["size"]), int(d["rounds_planned"]),
                   int(d["round_seconds"]), int(d["turn_limit"]), int(d["bots"]), bool(d["fill"]), d["settle"],
                   list(d["options"]), d.get("starts_at"), d.get("round_ends"),
                   [Entrant.from_json(e) for e in d["entrants"]],
                   [[Board.from_json(b) for b in r] for r in d["rounds"]], int(d.get("posted", 0)),
                   d.get("message_id"), row.alarm,
                   d["bot_level"] if d.get("bot_level") in LEVELS else DEFAULT_LEVEL,  # older tournaments: Normal
                   d["lang"] if d.get("lang") in LANGUAGES else "en")  # older tournaments: English

    def row(self) -> TournamentRow:
        return TournamentRow(self.id, self.guild_id, self.channel_id, self.status, self.data(), self.revision,
                             self.alarm, 0.0, 0.0)

    # ----- reading ---------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return spec(self.game).title

    def name_of(self, user_id: int) -> str:
        """A player as the tournament's messages name them (a fill-in: a phrase, said in their language)."""
        for e in self.entrants:
            if e.user_id == user_id:
                return e.name
        return say("{bot} (a fill-in)", bot=BOT_NAME) if user_id <= FILL else str(user_id)

    def seat_name(self, board: Board, user_id: int) -> str:
        """A player's name at their table (kept in its row, the same in every language): a fill-in is
        numbered after the tournament's own bots, as a table numbers the bots seated in its lobby."""
        if user_id > FILL:
            return self.name_of(user_id)
        fills = [u for u in board.players if u <= FILL]
        return f"{BOT_NAME} {sum(1 for e in self.entrants if e.user_id < 0) + fills.index(user_id) + 1}"

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def people(self) -> list[Entrant]:
        return [e for e in self.entrants if e.user_id > 0]

    def standings(self) -> list[Standing]:
        table = standings(self.entrants, self.rounds)
        if self.format == ELIMINATION:
            out = knocked_out(self.entrants, self.rounds)
            for s in table:
                s.out = s.user_id in out
            table.sort(key=lambda s: (s.out, -s.points, -s.rating, s.name.lower(), s.user_id))
        return table

    @property
    def current(self) -> list[Board]:
        return self.rounds[-1] if self.rounds else []

    def board_of(self, user_id: int) -> tuple[int, Board] | None:
        for i, b in enumerate(self.current):
            if user_id in b.players and not b.bye:
                return i, b
        return None

    def next_alarm(self, now: float) -> float | None:
        """When the clock must look next: now while work waits, else the start or the round's end."""
        if self.status == SIGNUP:
            return self.starts_at
        if self.status in (FINISHED, CANCELLED):
            return now if self.posted < len(self.rounds) else None
        if self.posted < len([r for r in self.rounds if all(b.done for b in r)]):
            return now
        for b in self.current:
            people = any(u > 0 for u in b.players)
            if not b.done and (b.channel is None or (people and not b.announced)):
                return now
        return self.round_ends


# ----- the Discord layer's part of a step ---------------------------------------------------------
@dataclass(frozen=True)
class OpenBoard:
    """Open a thread for this table, then call :meth:`Tournaments.open_board` with its id."""

    tournament: int
    round: int
    board: int
    name: str  # the thread's name (a phrase: said in ``lang``, the tournament's language)
    lang: str = "en"


@dataclass(frozen=True)
class Announce:
    """Post the table in its channel and ping its people, then :meth:`Tournaments.announced`."""

    tournament: int
    round: int
    board: int
    channel_id: int
    users: tuple[int, ...]  # the people to ping
    text: str  # a phrase, said in ``lang``
    lang: str = "en"


@dataclass(frozen=True)
class Settled:
    """A table the round's end settled: show it as it ended and say why."""

    channel_id: int
    text: str  # a phrase, said in ``lang``
    lang: str = "en"


@dataclass(frozen=True)
class PostStandings:
    """Post the standings after ``round`` (1-based) in the tournament's channel, then
    :meth:`Tournaments.posted_standings`."""

    tournament: int
    round: int
    final: bool


Work = OpenBoard | Announce | Settled | PostStandings


@dataclass(frozen=True)
class BoardFacts:
    players: tuple[str, ...]
    channel_id: int | None
    done: bool
    bye: bool
    result: str  # "" while it plays; else a phrase (said in the reader's language)


@dataclass(frozen=True)
class TournamentView:
    """What anyone may know of a tournament (the Discord layer's object; no store, no game)."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    status: str
    title: str
    game: str
    format: str
    size: int
    organiser_id: int
    organiser: str
    round: int  # rounds opened so far
    rounds_planned: int
    round_seconds: int
    round_ends: float | None
    starts_at: float | None
    settle: str
    fill: bool
    entrants: tuple[tuple[int, str, bool], ...]  # (user id, name, dropped)
    standings: tuple[Standing, ...]
    boards: tuple[BoardFacts, ...]  # the current round's
    revision: int
    bot_level: str = DEFAULT_LEVEL
    lang: str = "en"  # the tournament's language (its public messages)

    @classmethod
    def of(cls, t: Tournament) -> "TournamentView":
        boards = []
        for b in t.current:
            names = tuple(t.name_of(u) for u in b.players)
            result: str = ""
            if b.bye:
                result = say("a bye")
            elif b.places is not None:
                best = min(b.places)
                win = [names[i] for i, p in enumerate(b.places) if p == best]
                result = say("{name} won", name=win[0]) if len(win) == 1 else say("shared: {names}", names=Many(win))
                if b.how == "settled":
                    result = say("{result} (settled at the round's end)", result=result)
                elif b.how == "abandoned":
                    result = say("{result} (the table was abandoned)", result=result)
            boards.append(BoardFacts(names, b.channel, b.done, b.bye, result))
        return cls(t.id, t.guild_id, t.channel_id, t.message_id, t.status, t.title, t.game, t.format, t.size,
                   t.organiser_id, t.organiser, len(t.rounds), t.rounds_planned, t.round_seconds, t.round_ends,
                   t.starts_at, t.settle, t.fill, tuple((e.user_id, e.name, e.dropped) for e in t.entrants),
                   tuple(t.standings()), tuple(boards), t.revision, t.bot_level, t.lang)


def tag(t: Tournament, r: int, i: int) -> list[int]:
    return [t.id, r, i]


def bot_channel(t: Tournament, r: int, i: int) -> int:
    """The channel of a table of built-in players only: none in Discord (a negative id)."""
    return -(t.id * 1_000_000 + r * 1_000 + i + 1)
