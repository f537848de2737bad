"""The two sides of a store copy (``bot.store.migrate``): the same questions asked of either back
end (its tables, columns, keys, rows in key order; an upsert of a batch with the copy's marker), and
the plan of what to copy, in order."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store.base import StoreError, TableStore

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
