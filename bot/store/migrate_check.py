"""The check that ends a store copy (``bot.store.migrate``): every copied row compared between
source and target, and every game table loaded through the target and its game rebuilt."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.store.base import DamagedTable, TableRow, TableStore
from bot.store.migrate_sides import Plan, plans, side


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
