"""The PostgreSQL store's daily challenge, ratings and replay records: mixins of
:class:`bot.store.postgres.PostgresStore`, whose queries and transactions (``_fetch``, ``_run``) they use."""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Mapping, Sequence

import asyncpg

from bot.store.base import (
    DailyEntry, FinishedRecord, PlayerRating, StaleRatings, daily_entry, finished_record, player_rating,
)
from bot.store.base import (LiveTable, PingPref, PingWait, StoredRecord, WatcherRow, live_table, shard_ids,
                            stored_record, watcher_row)


class PostgresDaily:
    """The daily challenge: attempts claimed, given back and finished."""

    # ----- the daily challenge ---------------------------------------------------------------------
    async def daily_claim(self, day: str, user_id: int, name: str, table_id: str, started_at: float) -> bool:
        status = await self._run("take a daily attempt", lambda c: c.execute(
            "INSERT INTO daily (day, user_id, name, table_id, started_at) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (day, user_id) DO NOTHING", day, user_id, name, table_id, started_at))
        return status.endswith(" 1")

    async def daily_release(self, day: str, user_id: int, table_id: str) -> None:
        await self._run("give back a daily attempt", lambda c: c.execute(
            "DELETE FROM daily WHERE day = $1 AND user_id = $2 AND table_id = $3 AND finished_at IS NULL",
            day, user_id, table_id))

    async def daily_finish(self, table_id: str, finished_at: float, won: bool, score: int | None,
                           kills: int | None) -> bool:
        status = await self._run("record a daily result", lambda c: c.execute(
            "UPDATE daily SET finished_at = $1, won = $2, score = $3, kills = $4 "
            "WHERE table_id = $5 AND finished_at IS NULL", finished_at, int(won), score, kills, table_id))
        return not status.endswith(" 0")

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        rows = await self._fetch("read the daily challenge", "SELECT * FROM daily WHERE day = $1", day)
        return [daily_entry(r) for r in rows]


class PostgresRatings:
    """Ratings, leaderboards and the finished games they are computed from."""

    # ----- ratings ---------------------------------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, user_ids: Collection[int]) -> dict[int, PlayerRating]:
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 "
                                 "AND user_id = ANY($3::bigint[])", guild_id, game, ids)
        return {int(r["user_id"]): player_rating(r) for r in rows}

    async def save_ratings(self, key: str, guild_id: int, game: str, rows: Sequence[PlayerRating],
                           expected: Mapping[int, int], rated_at: float) -> bool:
        async def fn(c: asyncpg.Connection) -> bool:
            status = await c.execute("INSERT INTO rated_games (game_key, guild_id, game, rated_at) "
                                     "VALUES ($1, $2, $3, $4) ON CONFLICT (game_key) DO NOTHING",
                                     key, guild_id, game, rated_at)
            if status.endswith(" 0"):
                return False
            ids = sorted(expected)
            found = {r["user_id"]: r["games"] for r in await c.fetch(
                "SELECT user_id, games FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[]) "
                "FOR UPDATE", guild_id, game, ids)}
            for user_id in ids:
                if found.get(user_id, 0) != expected[user_id]:
                    raise StaleRatings(f"the rating of user {user_id} in {game} changed")
            # A player rated for the first time has no row to lock: a game saved at the same moment may
            # insert it first. The upsert then finds that row and updates it only if its games count is
            # still the expected one (checked on the committed row), else nothing: stale.
            for r in rows:
                status = await c.execute(
                    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, last_change, "
                    "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                    "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                    "name = EXCLUDED.name, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal, "
                    "games = EXCLUDED.games, last_change = EXCLUDED.last_change, updated_at = EXCLUDED.updated_at "
                    "WHERE ratings.games = $11",
                    guild_id, game, r.user_id, r.name, r.mu, r.sigma, r.ordinal, r.games, r.last_change, r.updated_at,
                    expected.get(r.user_id, 0))
                if status.endswith(" 0"):
                    raise StaleRatings(f"the rating of user {r.user_id} in {game} changed")
            return True

        return await self._run("save ratings", fn)

    async def is_rated(self, key: str) -> bool:
        return bool(await self._fetch("read rated games", "SELECT 1 FROM rated_games WHERE game_key = $1", key))

    async def leaderboard(self, guild_id: int, game: str, min_games: int = 1, limit: int = 10) -> list[PlayerRating]:
        rows = await self._fetch("read a leaderboard", "SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 "
                                 "AND games >= $3 ORDER BY ordinal DESC, games DESC, user_id LIMIT $4",
                                 guild_id, game, min_games, limit)
        return [player_rating(r) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int, game: str | None = None) -> list[PlayerRating]:
        if game is None:
            rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 "
                                     "ORDER BY game", guild_id, user_id)
        else:
            rows = await self._fetch("read ratings", "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 "
                                     "AND game = $3 ORDER BY game", guild_id, user_id, game)
        return [player_rating(r) for r in rows]

    async def rating_place(self, guild_id: int, game: str, user_id: int, min_games: int = 1) -> int | None:
        rows = await self._fetch(
            "read a leaderboard place",
            "SELECT (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = m.guild_id AND o.game = m.game AND o.games >= $4 "
            "AND (o.ordinal, o.games, -o.user_id) > (m.ordinal, m.games, -m.user_id)) AS above "
            "FROM ratings m WHERE m.guild_id = $1 AND m.game = $2 AND m.user_id = $3 AND m.games >= $4",
            guild_id, game, user_id, min_games)
        return int(rows[0]["above"]) + 1 if rows else None

    async def finished_records(self, after: tuple[float, int] | None, limit: int) -> list[FinishedRecord]:
        where, args = "", []
        if after is not None:
            where, args = "WHERE (r.finished_at, r.id) > ($2, $3)", [float(after[0]), int(after[1])]
        rows = await self._fetch(
            "read finished games",
            "SELECT r.*, (SELECT array_agg(ARRAY[x.user_id::text, x.name, x.outcome]) FROM results x "
            f"WHERE x.record_id = r.id) AS people FROM records r {where} ORDER BY r.finished_at, r.id LIMIT $1",
            limit, *args)
        return [finished_record(r, [(int(u), n, o) for u, n, o in (r["people"] or [])]) for r in rows]


class PostgresReplays:
    """The replay viewer's game records."""

    # ----- the replay viewer ------------------------------------------------------------------------
    _RECORD_COLUMNS = ("SELECT r.id, r.channel_id, r.guild_id, r.table_id, r.game, r.result, r.record, r.finished_at, "
                       "(SELECT d.day FROM daily d WHERE d.table_id = r.table_id LIMIT 1) AS daily, "
                       "(SELECT array_agg(ARRAY[x.user_id::text, x.name, x.outcome] ORDER BY x.ctid) FROM results x "
                       "WHERE x.record_id = r.id) AS people FROM records r ")

    async def recent_records(self, channel_id: int, guild_id: int | None, user_id: int,
                             limit: int = 25) -> list[StoredRecord]:
        rows = await self._fetch(
            "read recent games",
            self._RECORD_COLUMNS + "WHERE r.channel_id = $1 OR (r.guild_id = $2 AND EXISTS (SELECT 1 FROM results x "
            "WHERE x.record_id = r.id AND x.user_id = $3)) ORDER BY r.id DESC LIMIT $4",
            channel_id, guild_id, user_id, limit)
        return [stored_record(r, [(int(u), n, o) for u, n, o in (r["people"] or [])]) for r in rows]

    async def stored_record(self, record_id: int) -> StoredRecord | None:
        rows = await self._fetch("read a game record", self._RECORD_COLUMNS + "WHERE r.id = $1", record_id)
        return stored_record(rows[0], [(int(u), n, o) for u, n, o in (rows[0]["people"] or [])]) if rows else None


class PostgresWatchers:
    """Watchers: messages elsewhere that follow a table, and the codes that invite them."""

    # ----- watchers ----------------------------------------------------------------------------------
    async def live_tables(self, guild_id: int, limit: int = 100) -> list[LiveTable]:
        rows = await self._fetch("list the tables in play",
                                 "SELECT channel_id, table_id, game, seats FROM tables WHERE guild_id = $1 "
                                 "AND status = 'playing' AND damaged IS NULL ORDER BY updated_at DESC LIMIT $2",
                                 guild_id, limit)
        return [t for r in rows if (t := live_table(r)) is not None]

    async def add_watcher(self, table_id: str, table_channel: int, user_id: int, channel_id: int, message_id: int,
                          token: str | None = None, until: float | None = None, shows: int = 0,
                          lang: str = "") -> WatcherRow:
        now = time.time()
        rows = await self._fetch(
            "remember a watcher",
            "INSERT INTO watchers (table_id, table_channel, user_id, channel_id, message_id, token, until, shows, "
            "created_at, lang) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            table_id, table_channel, user_id, channel_id, message_id, token, until, shows, now, lang)
        return WatcherRow(int(rows[0]["id"]), table_id, table_channel, user_id, channel_id, message_id, token, until,
                          shows, now, lang)

    async def watchers(self, table_id: str | None = None) -> list[WatcherRow]:
        if table_id is None:
            rows = await self._fetch("read watchers", "SELECT * FROM watchers ORDER BY id")
        else:
            rows = await self._fetch("read watchers", "SELECT * FROM watchers WHERE table_id = $1 ORDER BY id", table_id)
        return [watcher_row(r) for r in rows]

    async def drop_watchers(self, ids: Collection[int]) -> int:
        todo = sorted({int(i) for i in ids})
        if not todo:
            return 0
        rows = await self._fetch("forget watchers", "WITH d AS (DELETE FROM watchers WHERE id = ANY($1::bigint[]) "
                                 "RETURNING id) SELECT count(*) AS n FROM d", todo)
        return int(rows[0]["n"])

    async def end_watching(self, table_id: str) -> None:
        async def fn(c: asyncpg.Connection) -> None:
            await c.execute("DELETE FROM watchers WHERE table_id = $1", table_id)
            await c.execute("DELETE FROM watch_invites WHERE table_id = $1", table_id)

        await self._run("forget a table's watchers", fn)

    async def mark_watchers_shown(self, shown: Sequence[tuple[int, int]]) -> None:
        rows = [(int(rev), int(wid)) for wid, rev in shown]
        if rows:
            await self._run("record what watchers show", lambda c: c.executemany(
                "UPDATE watchers SET shows = $1 WHERE id = $2 AND shows < $1", rows))

    async def put_watch_invite(self, code: str, table_id: str, table_channel: int, user_id: int) -> None:
        await self._run("remember a watch invite", lambda c: c.execute(
            "INSERT INTO watch_invites (code, table_id, table_channel, user_id, created_at) VALUES ($1, $2, $3, $4, $5)",
            code, table_id, table_channel, user_id, time.time()))

    async def watch_invite(self, code: str) -> tuple[str, int] | None:
        rows = await self._fetch("read a watch invite",
                                 "SELECT table_id, table_channel FROM watch_invites WHERE code = $1", code)
        return (str(rows[0]["table_id"]), int(rows[0]["table_channel"])) if rows else None
class PostgresPings:
    """Turn ping preferences and the pings held back until a turn has waited long enough."""

    async def all_ping_prefs(self) -> list[PingPref]:
        rows = await self._fetch("read ping preferences", "SELECT * FROM ping_prefs")
        return [PingPref(int(r["guild_id"]), int(r["user_id"]), r["mode"], int(r["hours"])) for r in rows]

    async def set_ping_pref(self, pref: PingPref, updated_at: float) -> None:
        if pref.mode == "every":
            await self._run("keep a ping preference", lambda c: c.execute(
                "DELETE FROM ping_prefs WHERE guild_id = $1 AND user_id = $2", pref.guild_id, pref.user_id))
            return
        await self._run("keep a ping preference", lambda c: c.execute(
            "INSERT INTO ping_prefs (guild_id, user_id, mode, hours, updated_at) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = EXCLUDED.mode, hours = EXCLUDED.hours, "
            "updated_at = EXCLUDED.updated_at", pref.guild_id, pref.user_id, pref.mode, pref.hours, updated_at))

    async def put_ping_waits(self, waits: Sequence[PingWait]) -> None:
        if not waits:
            return
        await self._run("hold a turn ping back", lambda c: c.executemany(
            "INSERT INTO ping_waits (channel_id, user_id, guild_id, table_id, turn_since, due_at) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (channel_id, user_id) DO UPDATE SET "
            "guild_id = EXCLUDED.guild_id, table_id = EXCLUDED.table_id, turn_since = EXCLUDED.turn_since, "
            "due_at = EXCLUDED.due_at",
            [(w.channel_id, w.user_id, w.guild_id, w.table_id, w.turn_since, w.due_at) for w in waits]))

    async def due_ping_waits(self, now: float, limit: int = 100, *,
                             shards: tuple[int, Collection[int]] | None = None) -> list[PingWait]:
        where, args = "due_at <= $1", [now, limit]
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where += " AND COALESCE((guild_id >> 22) % $3, 0) = ANY($4::bigint[])"
            args += [mine[0], mine[1]]
        sql = (f"DELETE FROM ping_waits WHERE (channel_id, user_id) IN (SELECT channel_id, user_id FROM ping_waits "
               f"WHERE {where} ORDER BY due_at, channel_id LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING *")
        rows = await self._run("take the due turn pings", lambda c: c.fetch(sql, *args))
        return sorted((PingWait(int(r["channel_id"]), int(r["user_id"]), r["guild_id"], r["table_id"], r["turn_since"],
                                r["due_at"]) for r in rows), key=lambda w: (w.due_at, w.channel_id))


class PostgresLessons:
    """As :class:`bot.store.sqlite_extras.SQLiteLessons`."""

    async def lesson(self, user_id: int, game: str) -> tuple[list[list[str]], int] | None:
        rows = await self._fetch("load a lesson", "SELECT presses, revision FROM lessons WHERE user_id = $1 AND "
                                 "game = $2", user_id, game)
        return None if not rows else (json.loads(rows[0]["presses"]), int(rows[0]["revision"]))

    async def save_lesson(self, user_id: int, game: str, presses: Sequence[Sequence[str]], expected: int | None) -> bool:
        text = json.dumps([list(p) for p in presses])
        if expected is None:
            status = await self._run("keep a lesson", lambda c: c.execute(
                "INSERT INTO lessons (user_id, game, presses, revision, updated_at) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (user_id, game) DO NOTHING", user_id, game, text, len(presses), time.time()))
        else:
            status = await self._run("keep a lesson", lambda c: c.execute(
                "UPDATE lessons SET presses = $3, revision = $4, updated_at = $5 WHERE user_id = $1 AND game = $2 "
                "AND revision = $6", user_id, game, text, len(presses), time.time(), expected))
        return str(status).split()[-1] == "1"

    async def offer_lesson(self, user_id: int, game: str) -> bool:
        status = await self._run("note a lesson offered", lambda c: c.execute(
            "INSERT INTO lesson_offers (user_id, game, offered_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, game) "
            "DO NOTHING", user_id, game, time.time()))
        return str(status).split()[-1] == "1"
