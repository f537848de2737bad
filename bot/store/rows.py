"""A table row's columns as the store writes and reads them, shared by both back ends: the
encoding of a :class:`bot.store.base.TableRow` (:func:`encode_row`), its decoding with the damage it
may hold named (:func:`decode_row`), and the read models of the other tables' rows (ratings,
finished and stored records, daily entries, watchers, ping preferences and held pings). Imported from ``bot.store.base`` too."""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.jsontext import dumps
from bot.store.base import (
    STATUSES, DailyEntry, DamagedTable, FinishedRecord, MoveLog, PlayerRating, Seat, StoredRecord, TableRow, new_table_id,
    unpacked,
)


# ----- the read models of the other tables' rows --------------------------------------------------
def player_rating(r: Mapping[str, Any]) -> PlayerRating:
    return PlayerRating(int(r["guild_id"]), str(r["game"]), int(r["user_id"]), str(r["name"]), float(r["mu"]),
                        float(r["sigma"]), float(r["ordinal"]), int(r["games"]), int(r["last_change"]),
                        float(r["updated_at"]))


def finished_record(r: Mapping[str, Any], results: Sequence[tuple[int, str, str]]) -> FinishedRecord:
    try:
        record = json.loads(r["record"])
    except (TypeError, ValueError):
        record = None
    return FinishedRecord(int(r["id"]), r["table_id"], r["guild_id"], str(r["game"]), str(r["result"]), record,
                          float(r["finished_at"]), tuple((int(u), str(n), str(o)) for u, n, o in results))


def stored_record(r: Mapping[str, Any], people: Sequence[tuple[int, str, str]]) -> StoredRecord:
    try:
        record = json.loads(r["record"])
    except (TypeError, ValueError):
        record = None
    return StoredRecord(int(r["id"]), int(r["channel_id"]), r["guild_id"], r["table_id"], str(r["game"]),
                        str(r["result"]), record, float(r["finished_at"]),
                        tuple((int(u), str(n), str(o)) for u, n, o in people), r["daily"])


def daily_entry(r: Mapping[str, Any]) -> DailyEntry:
    return DailyEntry(str(r["day"]), int(r["user_id"]), str(r["name"]), str(r["table_id"]), float(r["started_at"]),
                      None if r["finished_at"] is None else float(r["finished_at"]),
                      None if r["won"] is None else bool(r["won"]), r["score"], r["kills"])


# ----- encoding, shared by both back ends -------------------------------------------------------
_OPTIONS_TEXT = "_options_text"  # beside a row (not a field): its options as last written, and their text


def _options_text(t: TableRow) -> str:
    """The options' JSON text, kept beside the row while they are the same texts (a table's options
    never change once it is made, and a move writes every column): a copy of the list and its text,
    used again only while the row's options equal that copy, each an exact ``str``."""
    options = t.options
    if type(options) is list:
        if not options:
            return "[]"
        kept = t.__dict__.get(_OPTIONS_TEXT)
        if kept is not None and options == kept[0]:
            return kept[1]
    text = dumps(options)
    if type(options) is list and all(type(o) is str for o in options):
        t.__dict__[_OPTIONS_TEXT] = (list(options), text)
    return text


def seat_form(s: Seat) -> list[Any]:
    """A seat's stored form: ``[user_id, name]``, with a bot's level after them when it has one."""
    return [s.user_id, s.name] if s.level is None else [s.user_id, s.name, s.level]


def seat_of_form(raw: Any) -> Seat:
    """A seat from its stored form (a row written before levels has no third item: None)."""
    if not isinstance(raw, list) or len(raw) not in (2, 3):
        raise ValueError("not a seat")
    level = None if len(raw) == 2 or raw[2] is None else str(raw[2])
    return Seat(int(raw[0]), str(raw[1]), level)


def encode_row(t: TableRow, snapshot: tuple[dict[str, Any] | None, int] | None = None) -> dict[str, Any]:
    """The ``tables`` columns of a row (without the move log). ``state`` is there only when
    ``snapshot`` (see :meth:`TableRow.snapshot_due`) is given: a move without one leaves the
    stored state alone (``state_ply`` is always written: a row migrated with NULL, "every move",
    must say how many moves its state holds once moves are appended after it)."""
    cols = {
        "channel_id": t.channel_id, "table_id": t.table_id, "guild_id": t.guild_id, "game": t.game,
        "status": t.status, "host_id": t.host_id, "seats": dumps([seat_form(s) for s in t.seats]),
        "options": _options_text(t), "seed": t.seed,
        "events": dumps(t.events), "revision": t.revision, "move_count": len(t.moves), "turn_limit": t.turn_limit,
        "turn_since": t.turn_since, "timed_out": bool(t.timed_out), "deadline": t.deadline,
        "game_clock": t.game_clock, "warned_for": t.warned_for, "alarm": t.alarm,
        "series": "{}" if type(t.series) is dict and not t.series else dumps(t.series),
        "created_at": t.created_at, "updated_at": t.updated_at,
        "state_ply": t.state_ply,
    }
    if snapshot is not None:
        state, ply = snapshot
        cols["state"] = None if state is None else dumps(unpacked(state))
        cols["state_ply"] = ply
    return cols


def prepare_save(t: TableRow, expected_revision: int | None) -> tuple[tuple[dict[str, Any] | None, int] | None,
                                                                     dict[str, Any]]:
    """Before a save: the row stamped (its time; a new table its id) and its columns, the state among
    them when a snapshot is due or the row is new (``expected_revision`` None). The snapshot written
    (for :func:`wrote_snapshot`) and the columns."""
    t.updated_at = time.time()
    if expected_revision is None and not t.table_id:
        t.table_id = new_table_id()
    snap = t.snapshot_due()
    if snap is None and expected_revision is None:
        snap = (t.state, t.state_ply or 0)
    return snap, encode_row(t, snap)


def wrote_snapshot(t: TableRow, snapshot: tuple[dict[str, Any] | None, int] | None) -> None:
    """After a save: the row says what the store now holds."""
    t.saved_moves = len(t.moves)
    t.stored_warned = (t.warned_for,)
    t.snapshot_unsaved = False
    if snapshot is not None:
        t.state, t.state_ply = snapshot
        if t.state is None:
            t.state_ply = None


ROW_COLUMNS: tuple[str, ...] = tuple(encode_row(TableRow(0, None, "", "lobby", 0, [], [], 0), (None, 0)))


class _Damage(Exception):
    pass


def _json(text: Any, what: str) -> Any:
    if not isinstance(text, str):
        raise _Damage(f"its {what} is missing")
    try:
        return json.loads(text)
    except ValueError:
        raise _Damage(f"its {what} is cut short or is not JSON") from None


def _move_log(entries: Sequence[str]) -> MoveLog:
    """The move log as its entries' texts (a :class:`MoveLog`), each checked to be JSON in one
    parse of them all (a long log costs one C-level parse, not one call a move); entry by entry
    only to name a damaged one. A log already held (:func:`known_log`) is copied as it is."""
    if isinstance(entries, MoveLog):
        return MoveLog.of(entries)
    if entries and all(isinstance(e, str) for e in entries):
        try:
            moves = json.loads("[" + ",".join(entries) + "]")
        except ValueError:
            moves = None
        if isinstance(moves, list) and len(moves) == len(entries):
            return MoveLog.of_texts(entries)
    return MoveLog(_json(e, "move log") for e in entries)


def known_log(r: Mapping[str, Any], known: TableRow | None) -> MoveLog | None:
    """The move log of ``known`` (a row of this channel the caller holds) when it is the stored
    row's own: the same table at the same revision with as many moves — every write of a log bumps
    the revision, so the log is the same and need not be read (or checked) again."""
    if known is None or not isinstance(known.moves, MoveLog) or r["record_id"] is not None:
        return None
    if known.table_id != r["table_id"] or known.revision != r["revision"] or len(known.moves) != r["move_count"]:
        return None
    return known.moves


def warned_guard(t: TableRow) -> tuple[bool, float | None]:
    """The arguments of a save's second check beside the revision: (whether the stored
    ``warned_for`` is known, that value). A save is refused as stale when it is known and the
    store's differs (the sweep marked the turn warned at the same revision since it was read)."""
    known = t.stored_warned
    return (True, known[0]) if known is not None else (False, None)


def move_texts(moves: Sequence[Any], start: int) -> list[str]:
    """The JSON text of a log's entries from ``start`` on, as the store writes them."""
    return moves.texts(start) if isinstance(moves, MoveLog) else [dumps(m) for m in moves[start:]]


def decode_row(r: Mapping[str, Any], move_entries: Sequence[str], record_text: str | None,
               games: Collection[str]) -> TableRow:
    """A TableRow from its columns, its move-log entries (or the :class:`MoveLog` already held,
    see :func:`known_log`) and (for a table with a record) the record's text; raises DamagedTable
    naming what is wrong."""
    damaged = r["damaged"]
    if damaged is not None and (r["status"] != "abandoned" or r["raw_moves"] is not None):
        raise DamagedTable(r["channel_id"], damaged)  # flagged (by a migration), not set aside yet
    try:
        if damaged is None and r["game"] not in games:  # a set-aside row keeps its game name, known or not
            raise _Damage(f"its game {str(r['game'])[:40]!r} is unknown")
        if r["status"] not in STATUSES:
            raise _Damage(f"its status {str(r['status'])[:20]!r} is unknown")
        raw_seats = _json(r["seats"], "seats")
        try:
            seats = [seat_of_form(s) for s in raw_seats]
        except (TypeError, ValueError):
            raise _Damage("its seats are not a list of players") from None
        options = _json(r["options"], "options")
        state = None if r["state"] is None else _json(r["state"], "game state")
        events = _json(r["events"], "recent events")
        series = _json(r["series"], "series")
        if not isinstance(options, list) or not isinstance(events, list):
            raise _Damage("its options or recent events are not lists")
        if state is not None and not isinstance(state, dict):
            raise _Damage("its game state is not a game state")
        if not isinstance(series, dict):
            raise _Damage("its series is not a series")
        if record_text is not None:
            record = _json(record_text, "record")
            moves = MoveLog([int(m[0]), str(m[1]), None] for m in record.get("moves", []))
        else:
            moves = _move_log(move_entries)
            if len(moves) != r["move_count"]:
                raise _Damage(f"its move log has {len(moves)} moves where {r['move_count']} were saved")
        state_ply = r["state_ply"]
        if state is None:
            state_ply = None
        elif state_ply is None or record_text is not None:
            state_ply = len(moves)
        elif not 0 <= state_ply <= len(moves):
            raise _Damage(f"its state holds {state_ply} moves of a log of {len(moves)}")
    except _Damage as e:
        raise DamagedTable(r["channel_id"], str(e)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise DamagedTable(r["channel_id"], f"it cannot be read ({type(e).__name__})") from None
    row = TableRow(
        channel_id=r["channel_id"], guild_id=r["guild_id"], game=r["game"], status=r["status"], host_id=r["host_id"],
        seats=seats, options=options, seed=r["seed"], state=state, moves=moves, events=events,
        revision=r["revision"], turn_limit=r["turn_limit"], turn_since=r["turn_since"], timed_out=bool(r["timed_out"]),
        series=series, created_at=r["created_at"], updated_at=r["updated_at"], table_id=r["table_id"],
        damaged=r["damaged"], game_clock=r["game_clock"], warned_for=r["warned_for"], state_ply=state_ply,
    )
    row.saved_moves = r["move_count"] if record_text is None else None
    row.stored_warned = (row.warned_for,)
    keys = r.keys() if hasattr(r, "keys") else ()
    if "message_id" in keys and "message_table" in keys and r["message_table"] == r["table_id"]:
        row.message_id = r["message_id"]  # read with the row: a press needs no second trip for it
    return row


@dataclass(frozen=True)
class WatcherRow:
    """A message that follows table ``table_id`` (in ``table_channel``) from ``channel_id``. ``token``:
    the interaction's token when the message is edited through its webhook (an ephemeral message, a
    channel the bot is not in), usable until ``until`` (unix time); else None (edited in its channel)."""

    id: int
    table_id: str
    table_channel: int
    user_id: int
    channel_id: int
    message_id: int
    token: str | None = None
    until: float | None = None
    shows: int = 0  # the table revision the message last showed
    created_at: float = 0.0
    lang: str = ""  # the watcher's language (en, es, de); "": the table's (watchers from before it was kept)


@dataclass(frozen=True)
class LiveTable:
    """A table in play as a server's member may pick it to watch: where, which game, who plays."""

    channel_id: int
    table_id: str
    game: str
    players: tuple[str, ...]


def watcher_row(r: Any) -> WatcherRow:
    return WatcherRow(int(r["id"]), str(r["table_id"]), int(r["table_channel"]), int(r["user_id"]),
                      int(r["channel_id"]), int(r["message_id"]), r["token"],
                      None if r["until"] is None else float(r["until"]), int(r["shows"]), float(r["created_at"]),
                      str(r["lang"] or ""))


def live_table(r: Any) -> LiveTable | None:
    """A row of ``live_tables`` (None when its seats cannot be read: a damaged table is not offered)."""
    try:
        players = tuple(str(s[1]) for s in json.loads(r["seats"]))
    except (TypeError, ValueError, IndexError, KeyError):
        return None
    return LiveTable(int(r["channel_id"]), str(r["table_id"]), str(r["game"]), players)


@dataclass(frozen=True)
class PingPref:
    """How a player wants turn pings on one server (``guild_id`` 0: direct messages): ``mode``
    ``every`` (the default, no row), ``after`` (only once the turn has waited ``hours``) or ``never``."""

    guild_id: int
    user_id: int
    mode: str
    hours: int = 0


@dataclass(frozen=True)
class PingWait:
    """A turn ping held back until ``due_at``; sent then only if the table (``table_id``) still
    waits on the same turn (its ``turn_since``) for the user."""

    channel_id: int
    user_id: int
    guild_id: int | None
    table_id: str
    turn_since: float
    due_at: float
