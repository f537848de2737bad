"""Copy one store into another (``python -m bot migrate-store``): SQLite to PostgreSQL when a
community outgrows one file, or back.

* Every table of the schema is copied row for row, in primary-key order (byte order for text
  keys on both back ends), in batches; each batch is one transaction on the target, written as an
  upsert by primary key. ``results`` has no key of its own: it travels with its ``records`` batch
  (that batch's results are replaced whole). A table the copy does not know is copied too when it
  has a primary key; one without a key stops the copy before anything is written.
* A marker table in the target (``deckhand_copy``) says a copy is under way. Run again after a
  kill, the copy resumes after the last key the target holds for each table: nothing is doubled
  and nothing skipped. A target that holds data without the marker is refused unless ``force``
  (then every row is written again, the target's other rows kept).
* The copy ends with a check: every table's rows compared between source and target, and every
  game table loaded through the target store, compared with the source's and its game rebuilt
  (its snapshot plus the moves after it replayed), as the table service loads it. The marker is
  dropped only when the check passes.

Stop the bot while it runs: rows changed in the source during a copy may be missed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.base import DamagedTable, StoreError, TableRow, TableStore

MARKER = "deckhand_copy"
NOT_COPIED = {MARKER, "deckhand_schema"}  # the schema version is the target's own (its migrations)
ORDER = ("tables", "moves", "records", "daily", "drafts", "interactions", "set_aside")  # known tables first
CHILDREN = {"results": ("records", "record_id", "id")}  # table: (parent, its column, the parent's key)
BATCH = 500  # rows a transaction (the move log: ten times as many)


class MigrateError(StoreError):
    """The copy cannot start or cannot go on; the message says why and what to do."""


@dataclass
class Plan:
    """How one table is copied: its columns, its key, and the table whose batches carry it."""

    name: str
    columns: list[str]
    key: list[str]
    children: list["Plan"] = field(default_factory=list)
    parent_column: str = ""  # for a child: its column that holds the parent's key


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)  # rows written by this run, per table
    totals: dict[str, int] = field(default_factory=dict)  # rows in the source, per table
    resumed: bool = False
    seconds: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    games_checked: int = 0


# ----- one side of the copy: the same questions asked of either back end ------------------------
class _Side:
    backend = ""

    def __init__(self, store: TableStore):
        self.store = store

    async def table_names(self) -> list[str]: ...

    async def columns(self, table: str) -> list[tuple[str, str]]: ...  # (name, type) in order

    async def key(self, table: str) -> list[str]: ...

    async def count(self, table: str) -> int: ...

    async def last_key(self, table: str, key: Sequence[str]) -> tuple[Any, ...] | None: ...

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]: ...

    async def rows_in(self, table: str, columns: Sequence[str], column: str, lo: Any, hi: Any) -> list[tuple[Any, ...]]:
        """Rows whose ``column`` is above ``lo`` (None: no bound) and at most ``hi``."""

    async def rows_between(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                           last: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows whose key is above ``after`` (None: no bound) and at most ``last``, in key order."""

    async def write(self, plan: Plan, rows: list[tuple[Any, ...]],
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]]) -> None:
        """Upsert ``rows`` and replace each child's rows in (lo, hi], in one transaction."""

    async def marker(self) -> tuple[str, bool] | None: ...

    async def set_marker(self, source: str, force: bool) -> None: ...

    async def drop_marker(self) -> None: ...

    async def after_copy(self, plans: Sequence[Plan]) -> None:
        """What the back end needs once rows were written with their own ids (sequences)."""


def _upsert_sql(table: str, columns: Sequence[str], key: Sequence[str], mark: Callable[[int], str]) -> str:
    rest = [c for c in columns if c not in key]
    action = (f"DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in rest)}" if rest else "DO NOTHING")
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(mark(i) for i in range(len(columns)))}) "
            f"ON CONFLICT ({', '.join(key)}) {action}")


class _SQLite(_Side):
    backend = "sqlite"

    async def _read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        return await self.store._read("read rows to copy", fn)  # type: ignore[attr-defined]

    async def _write(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        return await self.store._write("write copied rows", fn)  # type: ignore[attr-defined]

    async def table_names(self) -> list[str]:
        return [r[0] for r in await self._read(lambda c: c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall())]

    async def _info(self, table: str) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self._read(lambda c: c.execute(f"PRAGMA table_info({table})").fetchall())]

    async def columns(self, table: str) -> list[tuple[str, str]]:
        return [(r[1], str(r[2]).lower()) for r in await self._info(table)]

    async def key(self, table: str) -> list[str]:
        return [r[1] for r in sorted((r for r in await self._info(table) if r[5]), key=lambda r: r[5])]

    async def count(self, table: str) -> int:
        return (await self._read(lambda c: c.execute(f"SELECT COUNT(*) FROM {table}").fetchone()))[0]

    async def last_key(self, table: str, key: Sequence[str]) -> tuple[Any, ...] | None:
        r = await self._read(lambda c: c.execute(
            f"SELECT {', '.join(key)} FROM {table} ORDER BY {', '.join(f'{k} DESC' for k in key)} LIMIT 1").fetchone())
        return None if r is None else tuple(r)

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]:
        where = f"WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})" if after is not None else ""
        sql = f"SELECT {', '.join(columns)} FROM {table} {where} ORDER BY {', '.join(key)} LIMIT ?"
        return [tuple(r) for r in await self._read(lambda c: c.execute(sql, (*(after or ()), limit)).fetchall())]

    async def rows_between(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                           last: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        k = f"({', '.join(key)})"
        marks = f"({', '.join('?' * len(key))})"
        where = f"{k} <= {marks}" + ("" if after is None else f" AND {k} > {marks}")
        sql = f"SELECT {', '.join(columns)} FROM {table} WHERE {where} ORDER BY {', '.join(key)}"
        return [tuple(r) for r in await self._read(lambda c: c.execute(sql, (*last, *(after or ()))).fetchall())]

    async def rows_in(self, table: str, columns: Sequence[str], column: str, lo: Any, hi: Any) -> list[tuple[Any, ...]]:
        where, args = (f"{column} <= ?", [hi]) if lo is None else (f"{column} > ? AND {column} <= ?", [lo, hi])
        sql = f"SELECT {', '.join(columns)} FROM {table} WHERE {where} ORDER BY rowid"
        return [tuple(r) for r in await self._read(lambda c: c.execute(sql, args).fetchall())]

    async def write(self, plan: Plan, rows: list[tuple[Any, ...]],
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]]) -> None:
        sql = _upsert_sql(plan.name, plan.columns, plan.key, lambda i: "?")

        def fn(c: sqlite3.Connection) -> None:
            c.executemany(sql, rows)
            for child, lo, hi, child_rows in children:
                col = child.parent_column
                if lo is None:
                    c.execute(f"DELETE FROM {child.name} WHERE {col} <= ?", (hi,))
                else:
                    c.execute(f"DELETE FROM {child.name} WHERE {col} > ? AND {col} <= ?", (lo, hi))
                c.executemany(f"INSERT INTO {child.name} ({', '.join(child.columns)}) "
                              f"VALUES ({', '.join('?' * len(child.columns))})", child_rows)

        await self._write(fn)

    async def marker(self) -> tuple[str, bool] | None:
        def fn(c: sqlite3.Connection) -> tuple[str, bool] | None:
            if c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MARKER,)).fetchone() is None:
                return None
            r = c.execute(f"SELECT source, force FROM {MARKER}").fetchone()
            return None if r is None else (r[0], bool(r[1]))

        return await self._read(fn)

    async def set_marker(self, source: str, force: bool) -> None:
        def fn(c: sqlite3.Connection) -> None:
            c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER} (source TEXT NOT NULL, force INTEGER NOT NULL, "
                      "started_at REAL NOT NULL)")
            c.execute(f"DELETE FROM {MARKER}")
            c.execute(f"INSERT INTO {MARKER} VALUES (?, ?, ?)", (source, int(force), time.time()))

        await self._write(fn)

    async def drop_marker(self) -> None:
        await self._write(lambda c: c.execute(f"DROP TABLE IF EXISTS {MARKER}"))

    async def after_copy(self, plans: Sequence[Plan]) -> None:
        return None  # AUTOINCREMENT follows the largest id written


class _Postgres(_Side):
    backend = "postgres"

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self.store._fetch("read rows to copy", sql, *args)  # type: ignore[attr-defined]

    async def table_names(self) -> list[str]:
        return [r[0] for r in await self._fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE' ORDER BY table_name")]

    async def columns(self, table: str) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in await self._fetch(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = $1 ORDER BY ordinal_position", table)]

    async def key(self, table: str) -> list[str]:
        return [r[0] for r in await self._fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary "
            "ORDER BY array_position(i.indkey::int2[], a.attnum)", table)]

    async def _keys(self, table: str, key: Sequence[str]) -> list[str]:
        """The key's columns, text ones in byte order (SQLite's order): a resumed copy and the
        check walk both back ends in the same order."""
        types = dict(await self.columns(table))
        return [f'{k} COLLATE "C"' if types.get(k) == "text" else k for k in key]

    async def count(self, table: str) -> int:
        return (await self._fetch(f"SELECT COUNT(*) FROM {table}"))[0][0]

    async def last_key(self, table: str, key: Sequence[str]) -> tuple[Any, ...] | None:
        keys = await self._keys(table, key)
        rows = await self._fetch(f"SELECT {', '.join(key)} FROM {table} ORDER BY "
                                 f"{', '.join(f'{k} DESC' for k in keys)} LIMIT 1")
        return tuple(rows[0]) if rows else None

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]:
        keys = await self._keys(table, key)
        n = len(key)
        where = f"WHERE ({', '.join(keys)}) > ({', '.join(f'${i + 1}' for i in range(n))})" if after is not None else ""
        args = [*(after or ()), limit]
        sql = f"SELECT {', '.join(columns)} FROM {table} {where} ORDER BY {', '.join(keys)} LIMIT ${len(args)}"
        return [tuple(r) for r in await self._fetch(sql, *args)]

    async def rows_between(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                           last: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        keys = await self._keys(table, key)
        n = len(key)
        k = f"({', '.join(keys)})"
        where = f"{k} <= ({', '.join(f'${i + 1}' for i in range(n))})"
        if after is not None:
            where += f" AND {k} > ({', '.join(f'${n + i + 1}' for i in range(n))})"
        sql = f"SELECT {', '.join(columns)} FROM {table} WHERE {where} ORDER BY {', '.join(keys)}"
        return [tuple(r) for r in await self._fetch(sql, *last, *(after or ()))]

    async def rows_in(self, table: str, columns: Sequence[str], column: str, lo: Any, hi: Any) -> list[tuple[Any, ...]]:
        if lo is None:
            rows = await self._fetch(f"SELECT {', '.join(columns)} FROM {table} WHERE {column} <= $1 ORDER BY ctid", hi)
        else:
            rows = await self._fetch(f"SELECT {', '.join(columns)} FROM {table} WHERE {column} > $1 AND {column} <= $2 "
                                     "ORDER BY ctid", lo, hi)
        return [tuple(r) for r in rows]

    async def _types(self, table: str) -> list[str]:
        return [t for _, t in await self.columns(table)]

    async def write(self, plan: Plan, rows: list[tuple[Any, ...]],
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]]) -> None:
        convert = _converter(dict(await self.columns(plan.name)), plan.columns)
        sql = _upsert_sql(plan.name, plan.columns, plan.key, lambda i: f"${i + 1}")
        kids = []
        for child, lo, hi, child_rows in children:
            kid_convert = _converter(dict(await self.columns(child.name)), child.columns)
            kids.append((child, lo, hi, [kid_convert(r) for r in child_rows]))
        values = [convert(r) for r in rows]

        async def fn(c: Any) -> None:
            await c.executemany(sql, values)
            for child, lo, hi, child_rows in kids:
                col = child.parent_column
                if lo is None:
                    await c.execute(f"DELETE FROM {child.name} WHERE {col} <= $1", hi)
                else:
                    await c.execute(f"DELETE FROM {child.name} WHERE {col} > $1 AND {col} <= $2", lo, hi)
                await c.executemany(f"INSERT INTO {child.name} ({', '.join(child.columns)}) "
                                    f"VALUES ({', '.join(f'${i + 1}' for i in range(len(child.columns)))})", child_rows)

        await self.store._run("write copied rows", fn)  # type: ignore[attr-defined]

    async def marker(self) -> tuple[str, bool] | None:
        if not await self._fetch("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                                 "AND table_name = $1", MARKER):
            return None
        rows = await self._fetch(f"SELECT source, force FROM {MARKER}")
        return (rows[0][0], bool(rows[0][1])) if rows else None

    async def set_marker(self, source: str, force: bool) -> None:
        async def fn(c: Any) -> None:
            await c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER} (source TEXT NOT NULL, force BOOLEAN NOT NULL, "
                            "started_at DOUBLE PRECISION NOT NULL)")
            await c.execute(f"DELETE FROM {MARKER}")
            await c.execute(f"INSERT INTO {MARKER} VALUES ($1, $2, $3)", source, force, time.time())

        await self.store._run("mark the copy", fn)  # type: ignore[attr-defined]

    async def drop_marker(self) -> None:
        await self.store._run("unmark the copy", lambda c: c.execute(f"DROP TABLE IF EXISTS {MARKER}"))  # type: ignore

    async def after_copy(self, plans: Sequence[Plan]) -> None:
        """Rows came with their own ids: each id sequence moves past the largest, so the next
        record or set-aside row the bot writes gets a new id."""
        for plan in plans:
            for p in (plan, *plan.children):
                for (seq,) in await self._fetch(
                        "SELECT pg_get_serial_sequence($1, column_name) FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = $1 AND column_default LIKE 'nextval(%'",
                        p.name):
                    if seq:
                        col = await self._fetch("SELECT column_name FROM information_schema.columns WHERE "
                                                "table_schema = current_schema() AND table_name = $1 AND "
                                                "pg_get_serial_sequence($1, column_name) = $2", p.name, seq)
                        await self._fetch(f"SELECT setval($1, COALESCE(MAX({col[0][0]}), 0) + 1, false) FROM {p.name}",
                                          seq)


def _converter(types: dict[str, str], columns: Sequence[str]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """Values from SQLite as PostgreSQL's columns take them (0/1 as booleans, and so on)."""
    fns: list[Callable[[Any], Any] | None] = []
    for c in columns:
        t = types.get(c, "")
        if t == "boolean":
            fns.append(bool)
        elif t in ("bigint", "integer", "smallint"):
            fns.append(int)
        elif t in ("double precision", "real", "numeric"):
            fns.append(float)
        else:
            fns.append(None)

    def convert(row: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(v if f is None or v is None else f(v) for f, v in zip(fns, row, strict=True))

    return convert


def side(store: TableStore) -> _Side:
    backend = getattr(store, "backend", "")
    if backend == "sqlite":
        return _SQLite(store)
    if backend == "postgres":
        return _Postgres(store)
    raise MigrateError(f"migrate-store does not know the {backend or type(store).__name__} back end.")


# ----- the copy -----------------------------------------------------------------------------------
async def plans(source: _Side, target: _Side) -> list[Plan]:
    """What to copy, in order (parents before the children that travel with them)."""
    names = [n for n in await source.table_names() if n not in NOT_COPIED]
    there = set(await target.table_names())
    missing = [n for n in names if n not in there]
    if missing:
        raise MigrateError(f"The target has no table {', '.join(missing)}: it was made by another Deckhand version.")
    out: dict[str, Plan] = {}
    kids = []
    for name in sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n)):
        columns = [c for c, _ in await source.columns(name)]
        target_columns = {c for c, _ in await target.columns(name)}
        if not set(columns) <= target_columns:
            raise MigrateError(f"The target's table {name} lacks columns {sorted(set(columns) - target_columns)}: "
                               "it was made by another Deckhand version.")
        if name in CHILDREN:
            parent, column, _ = CHILDREN[name]
            kids.append((parent, Plan(name, columns, [], parent_column=column)))
            continue
        key = await source.key(name)
        if not key:
            raise MigrateError(f"The table {name} has no primary key: migrate-store cannot copy it without doubling "
                               "rows on a second run. Nothing was copied.")
        out[name] = Plan(name, columns, key)
    for parent, kid in kids:
        if parent not in out:
            raise MigrateError(f"The table {kid.name} travels with {parent}, which is missing.")
        out[parent].children.append(kid)
    return list(out.values())


async def held(target: _Side, plan_list: Sequence[Plan]) -> dict[str, int]:
    """Rows the target holds, per table (non-empty ones only)."""
    out = {}
    for plan in plan_list:
        for p in (plan, *plan.children):
            n = await target.count(p.name)
            if n:
                out[p.name] = n
    return out


def label(store: TableStore) -> str:
    """A store's name for messages and the marker (a URL without its password, or a file's path)."""
    if getattr(store, "backend", "") == "postgres":
        from bot.store.postgres import safe_dsn

        schema = getattr(store, "schema", None)
        return safe_dsn(getattr(store, "dsn", "")) + (f"#{schema}" if schema else "")
    return str(Path(getattr(store, "path", "")).resolve())


async def copy_store(source_store: TableStore, target_store: TableStore, *, force: bool = False, batch: int = BATCH,
                     say: Callable[[str], None] = print, verify: bool = True) -> Report:
    """Copy every row of ``source_store`` into ``target_store`` (see the module's notes)."""
    if batch < 1:
        raise MigrateError(f"The batch size must be 1 or more, not {batch}.")
    source, target = side(source_store), side(target_store)
    source_name = label(source_store)
    if source_name == label(target_store) and source.backend == target.backend:
        raise MigrateError("The source and the target are the same database.")
    plan_list = await plans(source, target)
    report = Report()
    marker = await target.marker()
    resume = False
    if marker is not None:
        if marker[0] != source_name and not force:
            raise MigrateError(f"The target holds an unfinished copy from {marker[0]}, not from {source_name}: "
                               "finish that one, or give --force to copy this source over it.")
        resume = not marker[1] and not force and marker[0] == source_name
        forced = marker[1] or force
        report.resumed = True
        say(f"Resuming the unfinished copy from {source_name}" + ("" if resume else " (every row written again)") + ".")
    else:
        there = await held(target, plan_list)
        if there and not force:
            what = ", ".join(f"{n:,} {t}" for t, n in there.items())
            raise MigrateError(f"The target already holds data ({what}). Copy into an empty database, or give --force "
                               "to copy into it anyway (rows with the same keys are overwritten, the others kept).")
        forced = force or bool(there)
        await target.set_marker(source_name, forced)
    started = time.perf_counter()
    for plan in plan_list:
        total = await source.count(plan.name)
        report.totals[plan.name] = total
        for kid in plan.children:
            report.totals[kid.name] = await source.count(kid.name)
        after = await target.last_key(plan.name, plan.key) if resume else None
        done = 0
        if after is not None:  # rows up to here committed in an earlier run (one transaction a batch)
            done = await _count_upto(source, plan, after)
        size = batch * 10 if plan.name == "moves" else batch
        report.copied[plan.name] = 0
        for kid in plan.children:
            report.copied[kid.name] = 0
        if not total:
            continue
        key_at = [plan.columns.index(k) for k in plan.key]
        while True:
            rows = await source.page(plan.name, plan.columns, plan.key, after, size)
            if not rows:
                break
            last = tuple(rows[-1][i] for i in key_at)
            children = []
            for kid in plan.children:  # the children of this batch's keys: (after, last]
                lo = None if after is None else after[0]
                kid_rows = await source.rows_in(kid.name, kid.columns, kid.parent_column, lo, last[0])
                children.append((kid, lo, last[0], kid_rows))
                report.copied[kid.name] += len(kid_rows)
            await target.write(plan, rows, children)
            after = last
            done += len(rows)
            report.copied[plan.name] += len(rows)
            say(f"{plan.name}: {done:,} of {total:,} copied")
    await target.after_copy(plan_list)
    report.seconds = time.perf_counter() - started
    counts = ", ".join(f"{report.totals[t]:,} {t}" for t in report.totals)
    say(f"Copied {counts} in {report.seconds:.1f} s"
        + (f" (this run wrote {sum(report.copied.values()):,} rows)." if report.resumed else "."))
    if verify:
        say("Checking: every row compared, every table loaded on the target and its game rebuilt…")
        report.mismatches, report.games_checked = await check(source_store, target_store, plan_list, exact=not forced)
        for m in report.mismatches[:20]:
            say(f"MISMATCH: {m}")
        if report.mismatches:
            more = len(report.mismatches) - 20
            say(f"{len(report.mismatches):,} mismatches" + (f" ({more:,} more not shown)" if more > 0 else "")
                + ": the copy is kept unfinished (run again to retry).")
            return report
        say(f"Checked: every row is the same on both sides; {report.games_checked:,} tables load and their games "
            "rebuild on the target.")
    await target.drop_marker()
    return report


async def _count_upto(source: _Side, plan: Plan, last: tuple[Any, ...]) -> int:
    """How many source rows sort at or before ``last`` (for the progress of a resumed copy)."""
    n, after = 0, None
    while True:
        rows = await source.page(plan.name, plan.key, plan.key, after, 20_000)
        if not rows:
            return n
        for r in rows:
            if _after(tuple(r), last):
                return n
            n += 1
        after = tuple(rows[-1])


def _after(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return tuple(_sort_key(v) for v in a) > tuple(_sort_key(v) for v in b)


def _sort_key(v: Any) -> Any:
    return v.encode() if isinstance(v, str) else v


# ----- the check ------------------------------------------------------------------------------------
def _same(v: Any) -> Any:
    """A value as both back ends agree on it (a boolean as 0/1, a whole float as an int)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


async def check(source_store: TableStore, target_store: TableStore, plan_list: Sequence[Plan] | None = None,
                page: int = 5000, exact: bool = True) -> tuple[list[str], int]:
    """Every row of every copied table compared, in key order; then every game table loaded
    through the target store, compared with the source's, and its game rebuilt. ``exact``: the
    target holds nothing else (else: it holds every source row, and may hold others — a forced
    copy). Returns the mismatches (empty: the copy is whole) and how many tables were checked."""
    source, target = side(source_store), side(target_store)
    if plan_list is None:
        plan_list = await plans(source, target)
    out: list[str] = []
    for plan in plan_list:
        after: tuple[Any, ...] | None = None
        key_at = [plan.columns.index(k) for k in plan.key]
        kept: set[Any] = set()  # the parent keys the source has (a forced copy's children are checked for these)

        def key_of(r: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(r[i] for i in key_at)  # noqa: B023 (used in this loop only)

        while True:
            a = await source.page(plan.name, plan.columns, plan.key, after, page)
            if not a:
                break
            last = key_of(a[-1])
            b = await target.rows_between(plan.name, plan.columns, plan.key, after, last)
            if not exact:
                mine = {key_of(r) for r in a}
                b = [r for r in b if key_of(r) in mine]
            if plan.children:
                kept.update(key_of(r)[0] for r in a)
            if [[_same(v) for v in r] for r in a] != [[_same(v) for v in r] for r in b]:
                keys_b = {key_of(r) for r in b}
                missing = [key_of(r) for r in a if key_of(r) not in keys_b]
                if missing:
                    out.append(f"{plan.name}: {len(missing):,} rows missing on the target (first: key {missing[0]})")
                else:
                    by_key = {key_of(r): r for r in b}
                    first = next(key_of(r) for r in a if [_same(v) for v in r] != [_same(v) for v in by_key[key_of(r)]])
                    out.append(f"{plan.name}: rows differ on the target (first: key {first})"
                               if len(a) == len(b) else f"{plan.name}: the target holds rows the source lacks")
                break
            after = last
        if exact and not out and await target.page(plan.name, plan.key, plan.key, after, 1):
            out.append(f"{plan.name}: the target holds rows the source lacks" + (f" (after key {after})" if after else ""))
        for kid in plan.children:
            rows_a = await source.rows_in(kid.name, kid.columns, kid.parent_column, None, 2 ** 62)
            rows_b = await target.rows_in(kid.name, kid.columns, kid.parent_column, None, 2 ** 62)
            if not exact:
                at = kid.columns.index(kid.parent_column)
                rows_b = [r for r in rows_b if r[at] in kept]
            if sorted(repr([_same(v) for v in r]) for r in rows_a) != sorted(repr([_same(v) for v in r]) for r in rows_b):
                out.append(f"{kid.name}: {len(rows_b):,} rows on the target differ from the source's {len(rows_a):,}")
    games = 0
    if any(p.name == "tables" for p in plan_list):
        bad, games = await check_games(source_store, target_store, exact)
        out += bad
    return out, games


async def check_games(source_store: TableStore, target_store: TableStore, exact: bool = True) -> tuple[list[str], int]:
    """Every table loaded on both sides through the store (as the bot loads it): the same row,
    and on the target its game rebuilt from the snapshot and the moves after it."""
    loaded = await asyncio.gather(source_store.tables(), target_store.tables())  # two threads or servers at once
    a, b = ({t.channel_id: t for t in rows} for rows in loaded)
    out = []
    for channel in sorted(set(a) | set(b) if exact else set(a)):
        if channel not in b:
            out.append(f"table {channel}: loads in the source but not on the target ({await _why(target_store, channel)})")
            continue
        if channel not in a:
            out.append(f"table {channel}: on the target but not in the source")
            continue
        ta, tb = a[channel], b[channel]
        if ta != tb:
            fields = [f for f in TableRow.__dataclass_fields__ if getattr(ta, f) != getattr(tb, f)]
            out.append(f"table {channel}: loads differently on the target ({', '.join(fields)})")
            continue
        try:
            rebuild(tb)
        except Exception as e:  # any failure to rebuild is what the check is for
            out.append(f"table {channel}: its game cannot be rebuilt on the target ({type(e).__name__}: {e})")
    return out, len(b) if exact else len(a)


async def _why(store: TableStore, channel: int) -> str:
    try:
        return "missing" if await store.get(channel) is None else "it loads alone"
    except DamagedTable as e:
        return e.reason


def rebuild(row: TableRow) -> Any:
    """The row's game as ``bot.tables.load_game`` makes it: the snapshot, then the moves after it."""
    if row.state is None:
        return None
    from bot.engine.registry import spec
    from bot.records import apply_logged

    game = spec(row.game).state.from_json(row.state)
    if row.state_ply is not None:  # None: the state holds every move
        for seat, move, *_ in row.moves[row.state_ply:]:
            game = apply_logged(game, int(seat), str(move))
    return game
