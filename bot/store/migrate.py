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

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.base import TableStore
from bot.store.migrate_check import _same, _why, check, check_games, rebuild  # noqa: F401 — imported from here too
from bot.store.migrate_sides import (  # noqa: F401 — imported from here too
    BATCH, CHILDREN, MARKER, NOT_COPIED, ORDER, MigrateError, Plan, _converter, _Postgres, _Side, _SQLite, _upsert_sql,
    plans, side,
)


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)  # rows written by this run, per table
    totals: dict[str, int] = field(default_factory=dict)  # rows in the source, per table
    resumed: bool = False
    seconds: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    games_checked: int = 0


# ----- the copy -----------------------------------------------------------------------------------
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
