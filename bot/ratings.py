"""Ratings: one per player, per game, per server, updated when a game ends.

The model is the ``openskill`` library's Weng-Lin Plackett-Luce model with its default
parameters (a new player is μ = 25, σ = 25/3; β = 25/6; τ = 25/300): it rates free-for-all
finishes of any number of players, shared places (ties) and teams. Nothing here computes a
rating itself; this module only says who finished where and stores what the library answers.

**The finishing order** of a game comes from its :class:`~bot.engine.core.Outcome`: the winners
first, then the others as the rulebook ranks them where it does (:func:`finishing_places`),
otherwise sharing a place. A seat that forfeited (left, or was removed when its time ran out)
finishes last, below everyone who stayed; of several, the first to leave is the lowest. In The
Maginot Line's V5 (teams) each team shares a place; a teammate who left is rated on their own,
last.

**Bots.** A bot seat (negative user id) plays as the game's built-in player: a fixed-strength
opponent with one rating per game (:data:`BOT_MU`, :data:`BOT_SIGMA`), never updated, so a game
against bots still counts for the people in it.

**Not rated:** games in DMs (no server), games for one (Gridcannon, the daily deal), a table of
the daily challenge, abandoned games, and a game with fewer than two sides or no person.

**The number players see** is conservative: ``1000 + 40 × (μ − 3σ)``, rounded (:func:`display`).
A new player shows 1,000 (μ − 3σ = 0: the model is 99.9 % sure the skill is at least that). It
climbs as the games make the rating surer (σ shrinks) and as the player wins: the first game
between newcomers moves it by +138 / −73, a game at σ = 3 by some ±25, a settled one (σ ≈ 1.5,
after a few hundred games) by ±7; an even player settles near 1,800 (μ 25, σ 1.5), a player one
β stronger near 1,970. The leaderboard ranks by the same number and lists only players with at
least :data:`MIN_GAMES` games.

**Once per game.** :func:`record_result` keys each rated game by its table id (a rematch is a new
table) and the store writes the new ratings and that key in one transaction, refusing a key it
has seen: running it twice, or the history replay after it, never counts a game twice.
:func:`rate_history` rates the games finished before ratings existed, oldest first, once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.engine.core import Game, Outcome
from bot.engine.registry import spec
from bot.records import FORFEIT, replay
from bot.store.base import PlayerRating, StaleRatings, StoreError, TableRow

__all__ = ["MIN_GAMES", "NEW", "PlayerRating", "RatingChange", "bot_skill", "display", "is_bot", "rate_history",
           "rateable", "record_result"]

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # the conservative value is mu - Z * sigma
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
MIN_GAMES = 5  # games a player needs to appear on a leaderboard
BOT_MU: dict[str, float] = {}  # the built-in player's fixed mean per game; a game not listed: the default
BOT_SIGMA = MODEL.sigma / 3  # a known strength: much surer than a newcomer
HISTORY_JOB = "rate_history"
SAVE_TRIES = 5


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


def display(mu: float, sigma: float) -> int:
    """The conservative number players see: ``1000 + 40 × (μ − 3σ)``, rounded (a newcomer: 1,000)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


def bot_skill(game_id: str) -> Skill:
    """The built-in player's fixed rating in ``game_id``."""
    return Skill(BOT_MU.get(game_id, MODEL.mu), BOT_SIGMA)


def is_bot(user_id: int) -> bool:
    return user_id < 0


@dataclass(frozen=True)
class RatingChange:
    """What one game did to one person's rating (display numbers)."""

    user_id: int
    name: str
    before: int
    after: int
    games: int  # games rated, this one included

    @property
    def delta(self) -> int:
        return self.after - self.before


# ----- who finished where -------------------------------------------------------------------
def finishing_places(game_id: str, outcome: Outcome, n: int, forfeited: Sequence[int] = (),
                     view: Any = None) -> list[int]:
    """Each seat's place (0 is first; equal places are shared) from a finished game.

    Winners first. The others as the rulebook ranks them where it does: Court Wars by living
    stacks, then total Defence (ruling 18's order); Warriors of the Celestial Emperor by the
    scoring rule applied again to those left (qualifying players by highest card then most
    tricks, then the others by lowest card then most tricks); The Maginot Line's survivors of
    the round limit by Aces, then Ace life (ruling 24), above the eliminated (``view``: the final
    public view). Otherwise they share a place. Forfeited seats come last, the first to leave
    lowest."""
    gone = [s for s in dict.fromkeys(forfeited) if 0 <= s < n]
    winners = {s for s in outcome.winners if 0 <= s < n and s not in gone}
    rest = [s for s in range(n) if s not in winners and s not in gone]
    key = _rest_key(game_id, outcome, n, view)
    # Descending keys: a larger key finishes higher; equal keys share a place.
    tiers: list[list[int]] = [sorted(winners)] if winners else []
    for k in sorted({key(s) for s in rest}, reverse=True):
        tiers.append([s for s in rest if key(s) == k])
    tiers += [[s] for s in reversed(gone)]  # the last to leave above the first
    places = [0] * n
    place = 0
    for tier in tiers:
        for s in tier:
            places[s] = place
        place += 1
    return places


def _rest_key(game_id: str, outcome: Outcome, n: int, view: Any) -> Any:
    d = outcome.details or {}
    if game_id == "court_wars" and view is not None:
        names = list(getattr(view, "players", ()))
        stacks, defence = d.get("living_stacks") or {}, d.get("total_defence") or {}
        if len(names) == n and len(set(names)) == n:  # the details are keyed by name: only when names are unique
            return lambda s: (stacks.get(names[s], 0), defence.get(names[s], 0))
    if game_id == "celestial_emperor":
        rows = {r["seat"]: r for r in (d.get("scoring") or {}).get("rows", ())}
        if rows:
            def ce(s: int) -> tuple[int, int, int]:
                r = rows.get(s)
                if r is None:
                    return (-1, 0, 0)
                if r["qualifies"]:
                    return (1, r["v"], r["T"])
                return (0, -r["v"], r["T"])
            return ce
    if game_id == "maginot_line" and view is not None:
        boards = {b.seat: b for b in getattr(view, "boards", ())}
        if boards:
            def ml(s: int) -> tuple[int, int, int]:
                b = boards.get(s)
                if b is None or b.out:
                    return (0, 0, 0)
                return (1, len(b.base), sum(a.life for a in b.base))
            return ml
    return lambda s: 0


def teams_of(game_id: str, options: Sequence[str], n: int, view: Any = None) -> list[list[int]] | None:
    """The seats of each team, or None for every player for themselves. The Maginot Line's V5:
    the teams the engine played (its public view's ``team`` per board), else the rulebook's
    (ruling 30: with 4 players seats 1 & 3 v 2 & 4; with 6, 1 & 4, 2 & 5, 3 & 6)."""
    try:
        opts = spec(game_id).options.parse(list(options))
    except Exception:  # an unknown game or options: every player for themselves
        return None
    if not getattr(opts, "teams", False):
        return None
    boards = getattr(view, "boards", None)
    if boards and len(boards) == n:
        groups: dict[int, list[int]] = {}
        for b in boards:
            groups.setdefault(b.team, []).append(b.seat)
        return [sorted(g) for g in groups.values()]
    half = n // 2
    return [[s for s in range(n) if s % half == t] for t in range(half)] if half else None


# ----- the model ----------------------------------------------------------------------------
def new_ratings(game_id: str, places: Sequence[int], user_ids: Sequence[int], current: Mapping[int, Skill],
                teams: Sequence[Sequence[int]] | None = None,
                forfeited: Sequence[int] = ()) -> dict[int, Skill]:
    """The people's ratings after a game: ``places`` per seat (0 first, equal places shared),
    ``user_ids`` per seat (negative: a bot, rated at its fixed strength and not updated),
    ``current`` ratings by user id (missing: a newcomer), ``teams`` as seat lists (None: every
    player for themselves; a forfeited seat plays on its own). Returns the new rating of every
    person seated; nothing when there is nothing to rate (fewer than two sides, nobody but
    bots, someone seated twice)."""
    n = len(user_ids)
    people = [u for u in user_ids if not is_bot(u)]
    if len(places) != n or not people or len(set(people)) != len(people):
        return {}
    gone = set(forfeited)
    if teams:
        sides = [[s for s in team if s not in gone] for team in teams]
        sides = [side for side in sides if side] + [[s] for s in range(n) if s in gone]
        covered = sorted(s for side in sides for s in side)
        if covered != list(range(n)):
            raise ValueError(f"the teams {teams!r} do not cover the {n} seats once each")
    else:
        sides = [[s] for s in range(n)]
    if len(sides) < 2:
        return {}
    bot = bot_skill(game_id)

    def skill(s: int) -> Skill:
        u = user_ids[s]
        return bot if is_bot(u) else current.get(u, NEW)

    rated = MODEL.rate([[MODEL.rating(skill(s).mu, skill(s).sigma) for s in side] for side in sides],
                       ranks=[float(min(places[s] for s in side)) for side in sides])
    out: dict[int, Skill] = {}
    for side, new in zip(sides, rated, strict=True):
        for s, r in zip(side, new, strict=True):
            if not is_bot(user_ids[s]):
                out[user_ids[s]] = Skill(r.mu, r.sigma)
    return out


def rateable(table: TableRow) -> bool:
    """Whether a finished table's game counts for ratings at all (see the module's notes)."""
    return (table.guild_id is not None and not table.series.get("daily") and len(table.seats) >= 2
            and any(not is_bot(s.user_id) for s in table.seats))


# ----- recording a finished game ------------------------------------------------------------
async def record_result(store: Any, table: TableRow, game: Game) -> list[RatingChange]:
    """Rate a finished game once (call it after the game was saved). Returns each person's
    change in seat order; empty when the game is not rated or was rated already."""
    outcome = game.outcome()
    if outcome is None or table.status != "finished" or not rateable(table):
        return []
    seats = [(s.user_id, s.name) for s in table.seats]
    try:
        view = game.view(None)
    except Exception:  # the order falls back to winners first, the others sharing a place
        log.exception("no final view of table %s for its finishing order", table.table_id)
        view = None
    return await _rate(store, table.table_id, table.guild_id, table.game, list(table.options), seats,
                       outcome, list(game.forfeited), view, time.time())


async def _rate(store: Any, key: str, guild_id: int, game_id: str, options: list[str],
                seats: list[tuple[int, str]], outcome: Outcome, forfeited: list[int], view: Any,
                now: float) -> list[RatingChange]:
    n = len(seats)
    user_ids = [u for u, _ in seats]
    places = finishing_places(game_id, outcome, n, forfeited, view)
    teams = teams_of(game_id, options, n, view)
    people = [(u, name) for u, name in seats if not is_bot(u)]
    for _ in range(SAVE_TRIES):
        stored = await store.ratings(guild_id, game_id, [u for u, _ in people])
        current = {u: Skill(r.mu, r.sigma) for u, r in stored.items()}
        after = new_ratings(game_id, places, user_ids, current, teams, forfeited)
        if not after:
            return []
        rows, changes = [], []
        for u, name in people:
            old = current.get(u, NEW)
            new = after[u]
            games = (stored[u].games if u in stored else 0) + 1
            rows.append(PlayerRating(guild_id, game_id, u, name, new.mu, new.sigma, new.ordinal, games,
                                     new.display - old.display, now))
            changes.append(RatingChange(u, name, old.display, new.display, games))
        expected = {u: (stored[u].games if u in stored else 0) for u, _ in people}
        try:
            if not await store.save_ratings(key, guild_id, game_id, rows, expected, now):
                return []  # rated before
        except StaleRatings:
            continue  # another game of the same players was rated meanwhile: again, from the new ratings
        return changes
    raise StoreError(f"could not rate table {key}: its players' ratings kept changing")


async def rate_history(store: Any, *, page: int = 200) -> int:
    """Rate every finished game the store holds that is not rated yet, oldest first, and mark the
    work done so later calls return at once. Returns the number of games rated. Safe to run again
    (each game is rated once); run it before the bot takes new games so the order is the date
    order."""
    if await store.job_done(HISTORY_JOB):
        return 0
    rated = 0
    after: tuple[float, int] | None = None
    while True:
        batch = await store.finished_records(after, page)
        if not batch:
            break
        for rec in batch:
            after = (rec.finished_at, rec.id)
            try:
                rated += bool(await _rate_record(store, rec))
            except StoreError:
                raise
            except Exception:  # one unreadable record is left unrated; the others go on
                log.exception("record %s could not be rated", rec.id)
    await store.mark_job_done(HISTORY_JOB)
    return rated


async def _rate_record(store: Any, rec: Any) -> list[RatingChange]:
    record = rec.record
    if rec.guild_id is None or rec.result != "finished" or not isinstance(record, dict):
        return []
    players = [str(p) for p in record.get("players", [])]
    if len(players) < 2:
        return []
    game_id = rec.game
    try:
        game = replay(record)
        outcome, forfeited, view = game.outcome(), list(game.forfeited), game.view(None)
    except ValueError:  # a record that no longer replays: its stored result, without the rulebook's order
        result = record.get("result") or {}
        outcome = Outcome(tuple(result.get("winners") or ()))
        forfeited = [int(m[0]) for m in record.get("moves", []) if len(m) == 2 and m[1] == FORFEIT]
        view = None
    if outcome is None:
        return []
    seats = seat_users(players, outcome, rec.results)
    if seats is None:
        log.warning("record %s: its players cannot be matched to their results; not rated", rec.id)
        return []
    key = rec.table_id or f"record:{rec.id}"
    return await _rate(store, key, rec.guild_id, game_id, list(record.get("options", [])), seats, outcome,
                       forfeited, view, rec.finished_at)


def seat_users(players: Sequence[str], outcome: Outcome, results: Sequence[tuple[int, str, str]]
               ) -> list[tuple[int, str]] | None:
    """A record's seats as (user id, name): a record keeps only names, its results the people's
    ids (bots have none). Each result goes to a seat of the same name whose win agrees; the seats
    left over are bots (given the ids -1, -2, …). None when that is ambiguous."""
    won = set(outcome.winners)
    seats: list[tuple[int, str] | None] = [None] * len(players)
    for user_id, name, res in results:
        fits = [i for i, p in enumerate(players) if seats[i] is None and p == name and (i in won) == (res == "win")]
        if not fits:
            return None
        others = [u for u, nm, r in results if nm == name and (r == "win") == (res == "win")]
        if len(others) > 1 and len(fits) > 1:  # two people of one name and one result: cannot tell them apart
            return None
        seats[fits[0]] = (int(user_id), name)
    bot = 0
    out = []
    for i, s in enumerate(seats):
        if s is None:
            bot -= 1
            s = (bot, players[i])
        out.append(s)
    return out
