"""The bench's service-only figures (no Discord): one interaction at a time on a long table, 200
tables at once, costs flat in the number of stored tables; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.engine.registry import sample_views, spec

from bot.bench import LONG_GAME, MANY_GAME, Backend, Figure, LoopWatch, backends, percentile  # noqa: F401

async def _table(service: Any, channel: int, game_id: str, players: int, seed: int) -> None:
    from bot.tables import Actor

    actors = [Actor(1000 + i, f"P{i + 1}") for i in range(players)]
    await service.new_table(channel, 1, actors[0], game_id, seed=seed)
    for a in actors[1:]:
        await service.join(channel, a)
    if players > 1:
        await service.start(channel, actors[0])


_interaction_ids = iter(range(10**12, 10**13))


async def _next_move(service: Any, channel: int, rng: random.Random) -> tuple[Any, str] | None:
    """The player and move for a table's next action (the bench's own work, not timed)."""
    from bot.tables import Actor
    from bot.tables.games import load_game

    table = await service.require(channel)
    if table.status != "playing":
        return None
    game = load_game(table)
    seat = min(game.to_act())
    user = table.seats[seat]
    return Actor(user.user_id, user.name), str(spec(table.game).player(game, seat, rng))


async def _press(service: Any, channel: int, actor: Any, move: str, picture: bool = False) -> None:
    """One button press, server-side, as the Discord layer handles it: the interaction id
    remembered, the move (load, check, apply, save), the picture drawn off the loop (when asked)
    and the public message built; then the collection due, if one is, as the bot makes it when an
    interaction leaves its turnstile (bot.ui.turnstile.between_presses)."""
    from bot import ui
    from bot.ui.turnstile import between_presses

    from bot.tables.desk import Desk

    desk = Desk(service)
    if not await desk.first_delivery(next(_interaction_ids)):
        raise RuntimeError("a fresh interaction id was taken as seen")
    update = await desk.move(channel, actor, move)
    png = None
    if picture:  # as the Discord layer draws it: cached by view, in the picture processes
        from bot.render import pictures

        png = await pictures.table_picture(update.public.game, update.public.view)
    ui.table_message(update.public, png)
    between_presses()


async def _long_table(service: Any, channel: int, moves: int) -> random.Random:
    """A Maginot Line table ``moves`` moves long (played by the built-in players)."""
    seed = 9
    await _table(service, channel, LONG_GAME, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        nxt = await _next_move(service, channel, rng)
        if nxt is None:
            break
        await service.move(channel, *nxt)
    return rng


async def _timed_presses(service: Any, channel: int, rng: random.Random, n: int, picture: bool,
                         fresh: Callable[[], Any] | None = None) -> list[float]:
    times = []
    for _ in range(n):
        if fresh is not None:
            service = await fresh()
        nxt = await _next_move(service, channel, rng) if fresh is None else await _cold_move(service, channel, rng)
        if nxt is None:
            break
        start = time.perf_counter()
        await _press(service, channel, *nxt, picture=picture)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def _cold_move(service: Any, channel: int, rng: random.Random) -> tuple[Any, str] | None:
    """The next move chosen without leaving the game in any cache (the press then loads cold)."""
    from bot.store.base import TableRow
    from bot.tables import Actor
    from bot.tables.games import GAMES, load_game

    table: TableRow = await service.store.get(channel)
    if table.status != "playing":
        return None
    game = load_game(table)
    GAMES.clear()
    seat = min(game.to_act())
    user = table.seats[seat]
    return Actor(user.user_id, user.name), str(spec(table.game).player(game, seat, rng))


async def interaction_figures(backend: Backend, quick: bool) -> list[Figure]:
    from bot.tables.games import GAMES
    from bot.tables.service import TableService

    tag = f"[{backend.name}]"
    figures: list[Figure] = []
    store = await backend.open("one")
    service = TableService(store)
    try:
        rng = await _long_table(service, 10, 300)
        length = len((await service.require(10)).moves)
        times = await _timed_presses(service, 10, rng, 100 if quick else 400, picture=False)
        figures.append(Figure(f"{tag} one interaction, {length}-move table, no picture: p50",
                              statistics.median(times), "ms"))
        figures.append(Figure(f"{tag} one interaction, {length}-move table, no picture: p99",
                              percentile(times, 99), "ms", 5.0))

        async def fresh() -> Any:  # as after a restart: nothing of the table in memory
            GAMES.clear()
            return TableService(store)

        cold = await _timed_presses(service, 10, rng, 20 if quick else 60, picture=False, fresh=fresh)
        figures.append(Figure(f"{tag} one interaction, cold (load snapshot + replay): p50",
                              statistics.median(cold), "ms"))
        if backend.name == "sqlite":
            from bot.render import pictures

            await pictures.prepare(sample_views())  # the bot starts its picture processes at start-up, not on a move
            pics = await _timed_presses(service, 10, rng, 20 if quick else 60, picture=True)
            figures.append(Figure(f"{tag} one interaction, with its picture: p50", statistics.median(pics), "ms"))
            figures.append(Figure(f"{tag} one interaction, with its picture: p99", percentile(pics, 99), "ms", 25.0))
    finally:
        await store.close()
    return figures


async def many_figures(backend: Backend, quick: bool, tables: int = 200) -> list[Figure]:
    figures = await _many(backend, quick, tables, picture=False)
    if backend.name == "sqlite":  # pictures cost the same on either store: measured once
        figures += await _many(backend, quick, 40, picture=True)
    return figures


async def _many(backend: Backend, quick: bool, tables: int, picture: bool) -> list[Figure]:
    from bot.tables.service import TableService

    if picture:
        from bot.render import pictures

        await pictures.prepare(sample_views())
    tag = f"[{backend.name}]"
    store = await backend.open("many-pictures" if picture else "many")
    service = TableService(store)
    try:
        for i in range(tables):
            await _table(service, 1000 + i, MANY_GAME, 2, seed=i)
        errors = done = 0
        rounds = 4 if quick else 12
        elapsed = 0.0
        worst = worst_cpu = 0.0
        before = {i: (await service.require(1000 + i)).revision for i in range(tables)}
        cpu = 0.0
        for r in range(rounds):
            plans = [await _next_move(service, 1000 + i, random.Random(r * 7919 + i)) for i in range(tables)]
            with LoopWatch() as watch:
                start, cpu_start = time.perf_counter(), time.process_time()
                tasks = []
                for i, p in enumerate(plans):  # one press begun a turn of the loop, as the gateway's events come
                    if p is not None:
                        tasks.append(asyncio.ensure_future(_press(service, 1000 + i, *p, picture=picture)))
                        await asyncio.sleep(0)
                results = await asyncio.gather(*tasks, return_exceptions=True)
                elapsed += time.perf_counter() - start
                cpu += time.process_time() - cpu_start
            worst, worst_cpu = max(worst, watch.worst), max(worst_cpu, watch.worst_cpu)
            errors += sum(1 for x in results if isinstance(x, BaseException))
            done += sum(1 for x in results if not isinstance(x, BaseException))
        after = {i: (await store.get(1000 + i)).revision for i in range(tables)}
        lost = done - sum(after[i] - before[i] for i in range(tables))
    finally:
        await store.close()
    if picture:  # bounded by the picture processes, not by the loop
        return [Figure(f"{tag} {tables} tables at once, each move drawing its picture: interactions/s",
                       done / elapsed, "ops/s"),
                Figure(f"{tag} {tables} tables at once, with pictures: errors", errors, "count", 0),
                Figure(f"{tag} {tables} tables at once, with pictures: event loop blocked at most (wall)", worst * 1000,
                       "ms", 20),
                Figure(f"{tag} {tables} tables at once, with pictures: event loop blocked at most (its thread's CPU)",
                       worst_cpu * 1000, "ms", 20)]
    return [Figure(f"{tag} {tables} tables at once: interactions/s (no pictures)", done / elapsed, "ops/s", 1000,
                   higher_is_better=True),
            Figure(f"{tag} {tables} tables at once: CPU per interaction (all threads of the process)",
                   cpu / max(done, 1) * 1000, "ms"),
            Figure(f"{tag} {tables} tables at once: errors", errors, "count", 0),
            Figure(f"{tag} {tables} tables at once: lost updates", lost, "count", 0),
            Figure(f"{tag} {tables} tables at once: event loop blocked at most (wall)", worst * 1000, "ms", 20),
            Figure(f"{tag} {tables} tables at once: event loop blocked at most (its thread's CPU)", worst_cpu * 1000,
                   "ms", 20)]


# ----- 4. flat with the number of stored tables -------------------------------------------
async def _fill(store: Any, backend: str, template_playing: int, template_finished: int, count: int) -> None:
    """``count`` idle tables cloned from two templates in the database itself: half finished (their
    final state and record), half ongoing (a snapshot, moves in the log, a turn clock far off)."""
    if backend == "sqlite":
        cols = [r[1] for r in await store.execute("PRAGMA table_info(tables)")]
        seq = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) "
        tid = "printf('idle%012d', x)"
        src = "FROM c, tables t WHERE t.channel_id = (CASE x % 2 WHEN 0 THEN ? ELSE ? END)"
        args: tuple[Any, ...] = (count, template_playing, template_finished)
        mseq = seq
        margs: tuple[Any, ...] = (count, template_playing)
    else:
        cols = [r[0] for r in await store.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'tables' "
            "AND table_schema = current_schema() ORDER BY ordinal_position")]
        seq = ""
        tid = "'idle' || lpad(x::text, 12, '0')"
        src = ("FROM generate_series(1, $1) AS c(x), tables t "
               "WHERE t.channel_id = (CASE x % 2 WHEN 0 THEN $2::bigint ELSE $3::bigint END)")
        args = (count, template_playing, template_finished)
        mseq = ""
        margs = (count, template_playing)
    exprs = {c: f"t.{c}" for c in cols}
    exprs["channel_id"] = "1000000000 + x"
    exprs["table_id"] = tid
    exprs["deadline"] = "(CASE WHEN t.deadline IS NULL THEN NULL ELSE t.deadline + 1e7 + x END)"
    if "alarm" in exprs:  # the sweep's index: idle tables fall due far in the future
        exprs["alarm"] = "(CASE WHEN t.alarm IS NULL THEN NULL ELSE t.alarm + 1e7 + x END)"
    await store.execute(f"{seq}INSERT INTO tables ({', '.join(cols)}) SELECT {', '.join(exprs[c] for c in cols)} "
                        f"{src}", args)
    if backend == "sqlite":
        msrc = ("FROM c, moves m WHERE x % 2 = 0 AND m.table_id = (SELECT table_id FROM tables WHERE channel_id = ?)")
    else:
        msrc = ("FROM generate_series(1, $1) AS c(x), moves m WHERE x % 2 = 0 AND "
                "m.table_id = (SELECT table_id FROM tables WHERE channel_id = $2)")
    await store.execute(f"{mseq}INSERT INTO moves (table_id, ply, entry) SELECT {tid}, m.ply, m.entry {msrc}", margs)
    if backend == "postgres":
        await store.execute("ANALYZE")


async def flat_figures(backend: Backend, quick: bool) -> list[Figure]:
    from bot.tables.games import GAMES
    from bot.tables.service import TableService

    tag = f"[{backend.name}]"
    measured: dict[int, tuple[float, float, float]] = {}
    sizes = (10, 100_000)
    for size in sizes:
        db = f"flat{size}"
        store = await backend.open(db)
        service = TableService(store)
        await _table(service, 1, MANY_GAME, 2, seed=1)  # the template of an ongoing table
        rng = random.Random(1)
        for _ in range(12):
            await service.move(1, *(await _next_move(service, 1, rng) or ()))
        await _table(service, 2, "knight_rogue_princess_dragon", 4, seed=2)  # the template of a finished one
        krng = random.Random(2)
        while (nxt := await _next_move(service, 2, krng)) is not None:
            await service.move(2, *nxt)
        await _table(service, 3, LONG_GAME, 2, seed=3)  # the table that is played
        mrng = random.Random(3)
        await _fill(store, backend.name, 1, 2, size - 3)
        await store.close()
        starts = []
        for _ in range(7):  # as a restarted bot: open the store, then the first sweep
            GAMES.clear()
            start = time.perf_counter()
            store = await backend.open(db)
            service = TableService(store)
            await service.check_timeouts()
            starts.append((time.perf_counter() - start) * 1000)
            await store.close()
        startup = statistics.median(starts)
        store = await backend.open(db)
        service = TableService(store)
        try:
            moves = await _timed_presses(service, 3, mrng, 40 if quick else 150, picture=False)
            sweeps = []
            for _ in range(200):
                start = time.perf_counter()
                await service.check_timeouts()
                sweeps.append((time.perf_counter() - start) * 1000)
            count = (await store.execute("SELECT COUNT(*) FROM tables"))[0][0]
        finally:
            await store.close()
        measured[count] = (startup, statistics.median(moves), statistics.median(sweeps))
    (small, a), (big, b) = sorted(measured.items())
    out = []
    for i, what in enumerate(("start-up (open, migrate check, first sweep)", "one interaction p50",
                              "turn-limit sweep p50")):
        out.append(Figure(f"{tag} {what}, {small} tables", a[i], "ms"))
        out.append(Figure(f"{tag} {what}, {big:,} tables", b[i], "ms"))
        out.append(Figure(f"{tag} {what}: {big:,} ÷ {small} tables", b[i] / a[i], "x", 2.0))
    return out


async def store_figures(quick: bool, report: Callable[[Figure], None]) -> None:

    import bot.ui  # noqa: F401  (imported before timing, as in the running bot)
    from bot.app import settle_memory

    settle_memory()  # what the bot does once it has started (see bot.app)
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-") as tmp:
        async with backends(Path(tmp)) as found:
            for backend, why in found:
                if backend is None:
                    for name, unit, target, hib in (
                            ("one interaction, 300-move table, no picture: p99", "ms", 5.0, False),
                            ("200 tables at once: interactions/s (no pictures)", "ops/s", 1000.0, True),
                            ("flat: 100,000 ÷ 10 tables", "x", 2.0, False)):
                        report(Figure(f"[postgres] {name}", float("nan"), unit, target, hib, note=why))
                    continue
                for part in (interaction_figures, many_figures, flat_figures):
                    start = time.perf_counter()
                    for f in await part(backend, quick):
                        report(f)
                    print(f"  ({part.__name__} on {backend.name}: {time.perf_counter() - start:.1f} s)", flush=True)


