"""The SQLite store's daily challenge, ratings and replay records: mixins of
:class:`bot.store.sqlite.SQLiteStore`, whose transactions (``_read``, ``_write``) they run in."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot.store.base import (
    DailyEntry, FinishedRecord, PlayerRating, StaleRatings, daily_entry, finished_record, player_rating,
)
from bot.store.base import (LiveTable, PingPref, PingWait, StoredRecord, WatcherRow, live_table, shard_ids,
                            stored_record, watcher_row)


class SQLiteDaily:
    """The daily challenge: attempts claimed, given back and finished."""

    # ----- the daily challenge ---------------------------------------------------------------------
    async def daily_claim(self, day: str, user_id: int, name: str, table_id: str, started_at: float) -> bool:
        cur = await self._write("take a daily attempt", lambda c: c.execute(
            "INSERT OR IGNORE INTO daily (day, user_id, name, table_id, started_at) VALUES (?, ?, ?, ?, ?)",
            (day, user_id, name, table_id, started_at)))
        return cur.rowcount == 1

    async def daily_release(self, day: str, user_id: int, table_id: str) -> None:
        await self._write("give back a daily attempt", lambda c: c.execute(
            "DELETE FROM daily WHERE day = ? AND user_id = ? AND table_id = ? AND finished_at IS NULL",
            (day, user_id, table_id)))

    async def daily_finish(self, table_id: str, finished_at: float, won: bool, score: int | None,
                           kills: int | None) -> bool:
        cur = await self._write("record a daily result", lambda c: c.execute(
            "UPDATE daily SET finished_at = ?, won = ?, score = ?, kills = ? "
            "WHERE table_id = ? AND finished_at IS NULL", (finished_at, int(won), score, kills, table_id)))
        return cur.rowcount > 0

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        rows = await self._read("read the daily challenge", lambda c: c.execute(
            "SELECT * FROM daily WHERE day = ?", (day,)).fetchall())
        return [daily_entry(r) for r in rows]


class SQLiteRatings:
    """Ratings, leaderboards and the finished games they are computed from."""

    # ----- ratings ---------------------------------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, user_ids: Collection[int]) -> dict[int, PlayerRating]:
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        rows = await self._read("read ratings", lambda c: c.execute(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({', '.join('?' * len(ids))})",
            (guild_id, game, *ids)).fetchall())
        return {int(r["user_id"]): player_rating(r) for r in rows}

    async def save_ratings(self, key: str, guild_id: int, game: str, rows: Sequence[PlayerRating],
                           expected: Mapping[int, int], rated_at: float) -> bool:
        def fn(conn: sqlite3.Connection) -> bool:
            cur = conn.execute("INSERT OR IGNORE INTO rated_games (game_key, guild_id, game, rated_at) VALUES (?, ?, ?, ?)",
                               (key, guild_id, game, rated_at))
            if cur.rowcount != 1:
                return False
            for user_id, games in expected.items():
                found = conn.execute("SELECT games FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                                     (guild_id, game, user_id)).fetchone()
                if (found[0] if found else 0) != games:
                    raise StaleRatings(f"the rating of user {user_id} in {game} changed")
            conn.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, last_change, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
                "games = excluded.games, last_change = excluded.last_change, updated_at = excluded.updated_at",
                [(guild_id, game, r.user_id, r.name, r.mu, r.sigma, r.ordinal, r.games, r.last_change, r.updated_at)
                 for r in rows])
            return True

        return await self._write("save ratings", fn)

    async def is_rated(self, key: str) -> bool:
        r = await self._read("read rated games", lambda c: c.execute(
            "SELECT 1 FROM rated_games WHERE game_key = ?", (key,)).fetchone())
        return r is not None

    async def leaderboard(self, guild_id: int, game: str, min_games: int = 1, limit: int = 10) -> list[PlayerRating]:
        rows = await self._read("read a leaderboard", lambda c: c.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games >= ? "
            "ORDER BY ordinal DESC, games DESC, user_id LIMIT ?", (guild_id, game, min_games, limit)).fetchall())
        return [player_rating(r) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int, game: str | None = None) -> list[PlayerRating]:
        where, args = "guild_id = ? AND user_id = ?", [guild_id, user_id]
        if game is not None:
            where += " AND game = ?"
            args.append(game)
        rows = await self._read("read ratings", lambda c: c.execute(
            f"SELECT * FROM ratings WHERE {where} ORDER BY game", args).fetchall())
        return [player_rating(r) for r in rows]

    async def rating_place(self, guild_id: int, game: str, user_id: int, min_games: int = 1) -> int | None:
        def fn(conn: sqlite3.Connection) -> int | None:
            me = conn.execute("SELECT ordinal, games FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                              (guild_id, game, user_id)).fetchone()
            if me is None or me["games"] < min_games:
                return None
            (above,) = conn.execute(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ? AND "
                "(ordinal > ? OR (ordinal = ? AND (games > ? OR (games = ? AND user_id < ?))))",
                (guild_id, game, min_games, me["ordinal"], me["ordinal"], me["games"], me["games"], user_id)).fetchone()
            return int(above) + 1

        return await self._read("read a leaderboard place", fn)

    async def finished_records(self, after: tuple[float, int] | None, limit: int) -> list[FinishedRecord]:
        where, args = "", []
        if after is not None:
            where, args = "WHERE (finished_at, id) > (?, ?)", [float(after[0]), int(after[1])]

        def fn(conn: sqlite3.Connection) -> list[FinishedRecord]:
            rows = conn.execute(f"SELECT * FROM records {where} ORDER BY finished_at, id LIMIT ?",
                                (*args, limit)).fetchall()
            out = []
            for r in rows:
                results = conn.execute("SELECT user_id, name, outcome FROM results WHERE record_id = ? ORDER BY rowid",
                                       (r["id"],)).fetchall()
                out.append(finished_record(r, [tuple(x) for x in results]))
            return out

        return await self._read("read finished games", fn)


class SQLiteReplays:
    """The replay viewer's game records."""

    # ----- the replay viewer ------------------------------------------------------------------------
    _RECORD_COLUMNS = ("SELECT r.id, r.channel_id, r.guild_id, r.table_id, r.game, r.result, r.record, r.finished_at, "
                       "(SELECT d.day FROM daily d WHERE d.table_id = r.table_id LIMIT 1) AS daily FROM records r ")

    @staticmethod
    def _with_people(conn: sqlite3.Connection, rows: list[Any]) -> list[StoredRecord]:
        out = []
        for r in rows:
            people = conn.execute("SELECT user_id, name, outcome FROM results WHERE record_id = ? ORDER BY rowid",
                                  (r["id"],)).fetchall()
            out.append(stored_record(r, [tuple(x) for x in people]))
        return out

    async def recent_records(self, channel_id: int, guild_id: int | None, user_id: int,
                             limit: int = 25) -> list[StoredRecord]:
        def fn(conn: sqlite3.Connection) -> list[StoredRecord]:
            rows = conn.execute(
                self._RECORD_COLUMNS + "WHERE r.channel_id = ? OR (r.guild_id = ? AND EXISTS (SELECT 1 FROM results x "
                "WHERE x.record_id = r.id AND x.user_id = ?)) ORDER BY r.id DESC LIMIT ?",
                (channel_id, guild_id, user_id, limit)).fetchall()
            return self._with_people(conn, rows)

        return await self._read("read recent games", fn)

    async def stored_record(self, record_id: int) -> StoredRecord | None:
        def fn(conn: sqlite3.Connection) -> StoredRecord | None:
            rows = conn.execute(self._RECORD_COLUMNS + "WHERE r.id = ?", (record_id,)).fetchall()
            found = self._with_people(conn, rows)
            return found[0] if found else None

        return await self._read("read a game record", fn)


class SQLiteWatchers:
    """Watchers: messages elsewhere that follow a table, and the codes that invite them."""

    # ----- watchers ----------------------------------------------------------------------------------
    async def live_tables(self, guild_id: int, limit: int = 100) -> list[LiveTable]:
        rows = await self._read("list the tables in play", lambda c: c.execute(
            "SELECT channel_id, table_id, game, seats FROM tables WHERE guild_id = ? AND status = 'playing' "
            "AND damaged IS NULL ORDER BY updated_at DESC LIMIT ?", (guild_id, limit)).fetchall())
        return [t for r in rows if (t := live_table(r)) is not None]

    async def add_watcher(self, table_id: str, table_channel: int, user_id: int, channel_id: int, message_id: int,
                          token: str | None = None, until: float | None = None, shows: int = 0,
                          lang: str = "") -> WatcherRow:
        now = time.time()
        cur = await self._write("remember a watcher", lambda c: c.execute(
            "INSERT INTO watchers (table_id, table_channel, user_id, channel_id, message_id, token, until, shows, "
            "created_at, lang) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, table_channel, user_id, channel_id, message_id, token, until, shows, now, lang)))
        return WatcherRow(int(cur.lastrowid), table_id, table_channel, user_id, channel_id, message_id, token, until,
                          shows, now, lang)

    async def watchers(self, table_id: str | None = None) -> list[WatcherRow]:
        def fn(c: sqlite3.Connection) -> list[Any]:
            if table_id is None:
                return c.execute("SELECT * FROM watchers ORDER BY id").fetchall()
            return c.execute("SELECT * FROM watchers WHERE table_id = ? ORDER BY id", (table_id,)).fetchall()

        return [watcher_row(r) for r in await self._read("read watchers", fn)]

    async def drop_watchers(self, ids: Collection[int]) -> int:
        todo = sorted({int(i) for i in ids})
        if not todo:
            return 0
        cur = await self._write("forget watchers", lambda c: c.execute(
            f"DELETE FROM watchers WHERE id IN ({', '.join('?' * len(todo))})", todo))
        return int(cur.rowcount)

    async def end_watching(self, table_id: str) -> None:
        def fn(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM watchers WHERE table_id = ?", (table_id,))
            c.execute("DELETE FROM watch_invites WHERE table_id = ?", (table_id,))

        await self._write("forget a table's watchers", fn)

    async def mark_watchers_shown(self, shown: Sequence[tuple[int, int]]) -> None:
        rows = [(rev, wid, rev) for wid, rev in shown]
        if rows:
            await self._write("record what watchers show", lambda c: c.executemany(
                "UPDATE watchers SET shows = ? WHERE id = ? AND shows < ?", rows))

    async def put_watch_invite(self, code: str, table_id: str, table_channel: int, user_id: int) -> None:
        await self._write("remember a watch invite", lambda c: c.execute(
            "INSERT INTO watch_invites (code, table_id, table_channel, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
            (code, table_id, table_channel, user_id, time.time())))

    async def watch_invite(self, code: str) -> tuple[str, int] | None:
        r = await self._read("read a watch invite", lambda c: c.execute(
            "SELECT table_id, table_channel FROM watch_invites WHERE code = ?", (code,)).fetchone())
        return None if r is None else (str(r[0]), int(r[1]))
class SQLitePings:
    """Turn ping preferences and the pings held back until a turn has waited long enough."""

    async def all_ping_prefs(self) -> list[PingPref]:
        rows = await self._read("read ping preferences", lambda c: c.execute("SELECT * FROM ping_prefs").fetchall())
        return [PingPref(int(r["guild_id"]), int(r["user_id"]), r["mode"], int(r["hours"])) for r in rows]

    async def set_ping_pref(self, pref: PingPref, updated_at: float) -> None:
        def fn(c: sqlite3.Connection) -> None:
            if pref.mode == "every":
                c.execute("DELETE FROM ping_prefs WHERE guild_id = ? AND user_id = ?", (pref.guild_id, pref.user_id))
            else:
                c.execute("INSERT OR REPLACE INTO ping_prefs (guild_id, user_id, mode, hours, updated_at) "
                          "VALUES (?, ?, ?, ?, ?)", (pref.guild_id, pref.user_id, pref.mode, pref.hours, updated_at))
        await self._write("keep a ping preference", fn)

    async def put_ping_waits(self, waits: Sequence[PingWait]) -> None:
        if not waits:
            return
        await self._write("hold a turn ping back", lambda c: c.executemany(
            "INSERT OR REPLACE INTO ping_waits (channel_id, user_id, guild_id, table_id, turn_since, due_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(w.channel_id, w.user_id, w.guild_id, w.table_id, w.turn_since, w.due_at) for w in waits]))

    async def due_ping_waits(self, now: float, limit: int = 100, *,
                             shards: tuple[int, Collection[int]] | None = None) -> list[PingWait]:
        where, args = "due_at <= ?", [now]
        if (mine := shard_ids(shards)) is not None:  # a DM's guild_id is NULL: shard 0
            where += f" AND COALESCE((guild_id >> 22) % ?, 0) IN ({', '.join('?' * len(mine[1]))})"
            args += [mine[0], *mine[1]]

        def fn(c: sqlite3.Connection) -> list[PingWait]:
            rows = c.execute(f"SELECT * FROM ping_waits WHERE {where} ORDER BY due_at, channel_id LIMIT ?",
                             (*args, limit)).fetchall()
            c.executemany("DELETE FROM ping_waits WHERE channel_id = ? AND user_id = ? AND due_at = ?",
                          [(r["channel_id"], r["user_id"], r["due_at"]) for r in rows])
            return [PingWait(int(r["channel_id"]), int(r["user_id"]), r["guild_id"], r["table_id"], r["turn_since"],
                             r["due_at"]) for r in rows]
        return await self._write("take the due turn pings", fn)


class SQLiteLessons:
    """Each player's lesson of a game (its presses), and the lessons offered once."""

    async def lesson(self, user_id: int, game: str) -> tuple[list[list[str]], int] | None:
        r = await self._read("load a lesson", lambda c: c.execute(
            "SELECT presses, revision FROM lessons WHERE user_id = ? AND game = ?", (user_id, game)).fetchone())
        return None if r is None else (json.loads(r[0]), int(r[1]))

    async def save_lesson(self, user_id: int, game: str, presses: Sequence[Sequence[str]], expected: int | None) -> bool:
        text = json.dumps([list(p) for p in presses])

        def fn(c: sqlite3.Connection) -> bool:
            if expected is None:
                cur = c.execute("INSERT OR IGNORE INTO lessons (user_id, game, presses, revision, updated_at) "
                                "VALUES (?, ?, ?, ?, ?)", (user_id, game, text, len(presses), time.time()))
            else:
                cur = c.execute("UPDATE lessons SET presses = ?, revision = ?, updated_at = ? WHERE user_id = ? "
                                "AND game = ? AND revision = ?", (text, len(presses), time.time(), user_id, game,
                                                                  expected))
            return cur.rowcount == 1
        return await self._write("keep a lesson", fn)

    async def offer_lesson(self, user_id: int, game: str) -> bool:
        cur = await self._write("note a lesson offered", lambda c: c.execute(
            "INSERT OR IGNORE INTO lesson_offers (user_id, game, offered_at) VALUES (?, ?, ?)",
            (user_id, game, time.time())))
        return cur.rowcount == 1
