"""Copy one store into another (``python -m bot migrate-store``): SQLite to PostgreSQL when a
community outgrows one file, or back.

* Every table of the schema is copied row for row, in the source's primary-key order, in
  batches; each batch is one transaction on the target, written as an upsert by primary key
  together with how far the copy got (the last key copied, in the marker table). ``results``
  has no key of its own: it travels with its ``records`` batch
  (that batch's results are replaced whole). A table the copy does not know is copied too when it
  has a primary key; one without a key stops the copy before anything is written.
* A marker table in the target (``deckhand_copy``) says a copy is under way and how far it got.
  Run again after a kill, the copy resumes after the last batch that committed: nothing is doubled
  and nothing skipped. A target that holds data without the marker is refused unless ``force``
  (then the source's rows are written over it, the target's other rows kept).
* The copy ends with a check: every table's rows compared between source and target, and every
  game table loaded through the target store, compared with the source's and its game rebuilt
  (its snapshot plus the moves after it replayed), as the table service loads it. The marker is
  dropped only when the check passes.

Stop the bot while it runs: rows changed in the source during a copy may be missed.
"""

from __future__ import annotations

import asyncio
import json
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

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]: ...

    async def rows_in(self, table: str, columns: Sequence[str], column: str, lo: Any, hi: Any) -> list[tuple[Any, ...]]:
        """Rows whose ``column`` is above ``lo`` (None: no bound) and at most ``hi``."""

    async def rows_with_keys(self, table: str, columns: Sequence[str], key: Sequence[str],
                             keys: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The rows with these keys (in no particular order)."""

    async def write(self, plan: Plan, rows: list[tuple[Any, ...]],
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]], progress: str) -> None:
        """Upsert ``rows``, replace each child's rows in (lo, hi] and note ``progress`` (the
        marker's line for this table), in one transaction."""

    async def marker(self) -> dict[str, str] | None:
        """The unfinished copy's marker: "" → the copy's source, each table → its progress."""

    async def set_marker(self, value: str) -> None:
        """Start a copy's marker (its source), dropping any progress noted before."""

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

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]:
        where = f"WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})" if after is not None else ""
        sql = f"SELECT {', '.join(columns)} FROM {table} {where} ORDER BY {', '.join(key)} LIMIT ?"
        return [tuple(r) for r in await self._read(lambda c: c.execute(sql, (*(after or ()), limit)).fetchall())]

    async def rows_with_keys(self, table: str, columns: Sequence[str], key: Sequence[str],
                             keys: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            row = f"({', '.join('?' * len(key))})"
            # the keys first (CROSS JOIN keeps that order): a lookup in the key's index each
            on = " AND ".join(f"t.{k} = k.column{i + 1}" for i, k in enumerate(key))
            sql = (f"SELECT {', '.join(f't.{c}' for c in columns)} FROM (VALUES {', '.join([row] * len(part))}) AS k "
                   f"CROSS JOIN {table} AS t ON {on}")
            args = [v for k in part for v in k]
            out += [tuple(r) for r in await self._read(lambda c, sql=sql, args=args: c.execute(sql, args).fetchall())]
        return out

    async def rows_in(self, table: str, columns: Sequence[str], column: str, lo: Any, hi: Any) -> list[tuple[Any, ...]]:
        where, args = (f"{column} <= ?", [hi]) if lo is None else (f"{column} > ? AND {column} <= ?", [lo, hi])
        sql = f"SELECT {', '.join(columns)} FROM {table} WHERE {where} ORDER BY rowid"
        return [tuple(r) for r in await self._read(lambda c: c.execute(sql, args).fetchall())]

    async def write(self, plan: Plan, rows: list[tuple[Any, ...]],
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]], progress: str) -> None:
        sql = _upsert_sql(plan.name, plan.columns, plan.key, lambda i: "?")

        def fn(c: sqlite3.Connection) -> None:
            c.executemany(sql, rows)
            c.execute(f"INSERT INTO {MARKER} (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                      "SET value = excluded.value", (plan.name, progress))
            for child, lo, hi, child_rows in children:
                col = child.parent_column
                if lo is None:
                    c.execute(f"DELETE FROM {child.name} WHERE {col} <= ?", (hi,))
                else:
                    c.execute(f"DELETE FROM {child.name} WHERE {col} > ? AND {col} <= ?", (lo, hi))
                c.executemany(f"INSERT INTO {child.name} ({', '.join(child.columns)}) "
                              f"VALUES ({', '.join('?' * len(child.columns))})", child_rows)

        await self._write(fn)

    async def marker(self) -> dict[str, str] | None:
        def fn(c: sqlite3.Connection) -> dict[str, str] | None:
            if c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MARKER,)).fetchone() is None:
                return None
            return {r[0]: r[1] for r in c.execute(f"SELECT name, value FROM {MARKER}")}

        return await self._read(fn)

    async def set_marker(self, value: str) -> None:
        def fn(c: sqlite3.Connection) -> None:
            c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER} (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            c.execute(f"DELETE FROM {MARKER}")
            c.execute(f"INSERT INTO {MARKER} (name, value) VALUES ('', ?)", (value,))

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
        cache = self.__dict__.setdefault("_columns", {})  # asked for every batch: read once
        if table not in cache:
            cache[table] = [(r[0], r[1]) for r in await self._fetch(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = $1 ORDER BY ordinal_position", table)]
        return cache[table]

    async def key(self, table: str) -> list[str]:
        return [r[0] for r in await self._fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary "
            "ORDER BY array_position(i.indkey::int2[], a.attnum)", table)]

    async def count(self, table: str) -> int:
        return (await self._fetch(f"SELECT COUNT(*) FROM {table}"))[0][0]

    async def page(self, table: str, columns: Sequence[str], key: Sequence[str], after: tuple[Any, ...] | None,
                   limit: int) -> list[tuple[Any, ...]]:
        n = len(key)
        where = f"WHERE ({', '.join(key)}) > ({', '.join(f'${i + 1}' for i in range(n))})" if after is not None else ""
        args = [*(after or ()), limit]
        sql = f"SELECT {', '.join(columns)} FROM {table} {where} ORDER BY {', '.join(key)} LIMIT ${len(args)}"
        return [tuple(r) for r in await self._fetch(sql, *args)]

    async def rows_with_keys(self, table: str, columns: Sequence[str], key: Sequence[str],
                             keys: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        types = dict(await self.columns(table))
        convert = _converter(types, key)
        wanted = [convert(k) for k in keys]
        arrays = [f"${i + 1}::{types[k]}[]" for i, k in enumerate(key)]
        sql = (f"SELECT {', '.join(f't.{c}' for c in columns)} FROM {table} t JOIN unnest({', '.join(arrays)}) "
               f"AS k({', '.join(f'k{i}' for i in range(len(key)))}) ON "
               + " AND ".join(f"t.{k} = k.k{i}" for i, k in enumerate(key)))
        return [tuple(r) for r in await self._fetch(sql, *([w[i] for w in wanted] for i in range(len(key))))]

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
                    children: list[tuple[Plan, Any, Any, list[tuple[Any, ...]]]], progress: str) -> None:
        convert = _converter(dict(await self.columns(plan.name)), plan.columns)
        sql = _upsert_sql(plan.name, plan.columns, plan.key, lambda i: f"${i + 1}")
        kids = []
        for child, lo, hi, child_rows in children:
            kid_convert = _converter(dict(await self.columns(child.name)), child.columns)
            kids.append((child, lo, hi, [kid_convert(r) for r in child_rows]))
        values = [convert(r) for r in rows]

        async def fn(c: Any) -> None:
            await c.executemany(sql, values)
            await c.execute(f"INSERT INTO {MARKER} (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE "
                            "SET value = excluded.value", plan.name, progress)
            for child, lo, hi, child_rows in kids:
                col = child.parent_column
                if lo is None:
                    await c.execute(f"DELETE FROM {child.name} WHERE {col} <= $1", hi)
                else:
                    await c.execute(f"DELETE FROM {child.name} WHERE {col} > $1 AND {col} <= $2", lo, hi)
                await c.executemany(f"INSERT INTO {child.name} ({', '.join(child.columns)}) "
                                    f"VALUES ({', '.join(f'${i + 1}' for i in range(len(child.columns)))})", child_rows)

        await self.store._run("write copied rows", fn)  # type: ignore[attr-defined]

    async def marker(self) -> dict[str, str] | None:
        if not await self._fetch("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                                 "AND table_name = $1", MARKER):
            return None
        return {r[0]: r[1] for r in await self._fetch(f"SELECT name, value FROM {MARKER}")}

    async def set_marker(self, value: str) -> None:
        async def fn(c: Any) -> None:
            await c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER} (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            await c.execute(f"DELETE FROM {MARKER}")
            await c.execute(f"INSERT INTO {MARKER} (name, value) VALUES ('', $1)", value)

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
    noted = json.loads(marker[""]) if marker and marker.get("") else None
    if noted is not None and noted.get("source") == source_name:
        forced = bool(noted.get("force")) or force
        progress = {name: json.loads(value) for name, value in marker.items() if name}
        report.resumed = True
        say(f"Resuming the unfinished copy from {source_name}.")
    else:
        if noted is not None and not force:
            raise MigrateError(f"The target holds an unfinished copy from {noted.get('source')}, not from "
                               f"{source_name}: finish that one, or give --force to copy this source over it.")
        there = await held(target, plan_list)
        if there and not force:
            what = ", ".join(f"{n:,} {t}" for t, n in there.items())
            raise MigrateError(f"The target already holds data ({what}). Copy into an empty database, or give --force "
                               "to copy into it anyway (rows with the same keys are overwritten, the others kept).")
        forced = force or bool(there)
        progress = {}
        await target.set_marker(json.dumps({"source": source_name, "force": forced}))
    started = time.perf_counter()
    for plan in plan_list:
        total = await source.count(plan.name)
        report.totals[plan.name] = total
        for kid in plan.children:
            report.totals[kid.name] = await source.count(kid.name)
        mine = progress.get(plan.name)  # the last batch an earlier run committed (with it, atomically)
        after: tuple[Any, ...] | None = tuple(mine["after"]) if mine else None
        done = int(mine["done"]) if mine else 0
        size = batch * 10 if plan.name == "moves" else batch
        report.copied[plan.name] = 0
        for kid in plan.children:
            report.copied[kid.name] = 0
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
            done += len(rows)
            await target.write(plan, rows, children, json.dumps({"after": list(last), "done": done}))
            after = last
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


# ----- the check ------------------------------------------------------------------------------------
def _same(v: Any) -> Any:
    """A value as both back ends agree on it (a boolean as 0/1, a whole float as an int)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


async def check(source_store: TableStore, target_store: TableStore, plan_list: Sequence[Plan] | None = None,
                page: int = 2000, exact: bool = True) -> tuple[list[str], int]:
    """Every row of every copied table compared (each source page with the target's rows of the
    same keys); then every game table loaded through the target store, compared with the
    source's, and its game rebuilt. ``exact``: the target holds nothing else (else: it holds
    every source row and may hold others — a forced copy). Returns the mismatches (empty: the
    copy is whole) and how many tables were checked."""
    source, target = side(source_store), side(target_store)
    if plan_list is None:
        plan_list = await plans(source, target)
    out: list[str] = []
    for plan in plan_list:
        after: tuple[Any, ...] | None = None
        key_at = [plan.columns.index(k) for k in plan.key]
        kept: set[Any] = set()  # the source's parent keys (a forced copy's children are checked for these)
        seen, whole = 0, True
        while True:
            a = await source.page(plan.name, plan.columns, plan.key, after, page)
            if not a:
                break
            keys = [tuple(r[i] for i in key_at) for r in a]
            b = {tuple(_same(r[i]) for i in key_at): r
                 for r in await target.rows_with_keys(plan.name, plan.columns, plan.key, keys)}
            missing = [k for k in keys if tuple(_same(v) for v in k) not in b]
            differ = [k for k, r in zip(keys, a, strict=True) if tuple(_same(v) for v in k) in b
                      and [_same(v) for v in r] != [_same(v) for v in b[tuple(_same(v) for v in k)]]]
            if missing:
                out.append(f"{plan.name}: rows missing on the target (first: key {missing[0]})")
            if differ:
                out.append(f"{plan.name}: rows differ on the target (first: key {differ[0]})")
            if missing or differ:
                whole = False
                break
            if plan.children:
                kept.update(k[0] for k in keys)
            seen += len(a)
            after = keys[-1]
        there = await target.count(plan.name)
        if exact and whole and there != seen:
            out.append(f"{plan.name}: the target holds {there:,} rows where the source has {seen:,}")
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
