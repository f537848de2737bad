"""``python -m bot`` / ``deckhand``: run the bot, sync commands, or play in a terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path

from bot.arguments import parser
from bot.config import ConfigError, Settings, parse_shards
from bot.engine.levels import LEVELS

def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command is None:
        parser().print_help()
        return 2
    try:
        settings = Settings.from_env()
    except ConfigError as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return COMMANDS[args.command](args, settings)
    except ConfigError as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    count, ids = getattr(args, "shard_count", None), getattr(args, "shards", None)
    if count is not None or ids is not None:  # flags win over the environment
        shard_count, shard_ids = parse_shards(count if count is not None else str(settings.shard_count or ""),
                                              ids if ids is not None else "")
        settings = replace(settings, shard_count=shard_count, shard_ids=shard_ids)
    token = settings.require_token()
    from bot.app import build

    if settings.shard_ids is not None and len(settings.shard_ids) < (settings.shard_count or 1) \
            and not settings.database_url:
        logging.getLogger("bot").warning("this process runs some of the shards on the SQLite file %s: several "
                                         "processes should share PostgreSQL (DATABASE_URL)", settings.database)
    if settings.log_level != "DEBUG":  # its only INFO line is "logging in using static token"
        logging.getLogger("discord.client").setLevel(logging.WARNING)
    bot = build(settings)
    from bot.loop import fast_event_loop

    fast_event_loop()
    try:
        bot.run(token, log_handler=None)
    except Exception as e:  # every failure to start is one line, never a traceback (others are raised)
        message = run_failure(e, settings)
        if message is None:
            raise
        print(f"deckhand: {message}", file=sys.stderr)
        return 2
    return 0


def run_failure(e: BaseException, settings: Settings) -> str | None:
    """The one line that explains why ``run`` could not start (None: not a start-up failure)."""
    import aiohttp
    import discord

    from bot.store import StoreError

    api = settings.api_base or "https://discord.com/api"
    if isinstance(e, discord.LoginFailure):
        return ("Discord refused the token in DISCORD_TOKEN: copy the bot's token again from the developer "
                "portal (Bot → Reset Token).")
    if isinstance(e, discord.PrivilegedIntentsRequired):
        return "Discord refused the connection: the bot asked for a privileged intent that is not enabled."
    if isinstance(e, discord.ConnectionClosed):
        return f"Discord closed the gateway connection (code {e.code}{': ' + e.reason if e.reason else ''})."
    if isinstance(e, discord.GatewayNotFound):
        return f"Discord's gateway could not be found (is {api} really Discord?)."
    if isinstance(e, discord.HTTPException):
        return f"Discord answered {e.status} {getattr(e.response, 'reason', '') or ''} at {api}: {e.text or 'no details'}."
    if isinstance(e, StoreError):
        return str(e)
    if isinstance(e, (aiohttp.ClientError, OSError, asyncio.TimeoutError)):
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        return f"Cannot reach Discord at {api}: {why}."
    return None


def cmd_start(args: argparse.Namespace, settings: Settings) -> int:
    if settings.token:
        return cmd_run(args, settings)
    print("No DISCORD_TOKEN set, so here is Gridcannon in the terminal (see README: Creating the Discord "
          "application). Type `help` for the rules, `moves` for your options.")
    return cmd_play(parser().parse_args(["play", "gridcannon"]), settings)


def cmd_sync(args: argparse.Namespace, settings: Settings) -> int:
    token = settings.require_token()
    from bot.app import build, sync_commands

    guild = None if args.everywhere else (args.guild or settings.dev_guild)

    async def go() -> int:
        bot = build(settings, run_timeouts=False)
        async with bot:
            await bot.login(token)  # runs setup_hook: store and cogs
            return await sync_commands(bot, guild)

    n = asyncio.run(go())
    where = f"guild {guild}" if guild else "globally (may take up to an hour to appear)"
    print(f"Synced {n} commands {where}.")
    return 0


def cmd_play(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli import default_players, game_spec, options_text
    from bot.terminal import play_terminal
    from bot.engine.core import IllegalMove

    if args.list_variants:
        print(options_text(game_spec(args.game)))
        return 0
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if args.players is not None and args.players != len(names):
            print(f"deckhand: --names gives {len(names)} names but --players says {args.players}.", file=sys.stderr)
            return 2
    try:
        if not args.names:
            names = default_players(args.game, args.players)
        bots = parse_seats(args.bots, len(names), args.level)
        play_terminal(args.game, names, args.options, args.seed, auto_seats=bots, lang=args.lang)
    except (IllegalMove, ValueError) as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2
    return 0


def cmd_learn(args: argparse.Namespace, settings: Settings) -> int:
    from bot.engine.lessons import has_lesson, lesson_games
    from bot.lesson_terminal import learn_terminal

    if not has_lesson(args.game):
        print(f"deckhand: {args.game} has no lesson yet; lessons: {', '.join(lesson_games())}.", file=sys.stderr)
        return 2
    learn_terminal(args.game, name=args.name, lang=args.lang)
    return 0


def parse_seats(text: str, n: int, level: str = "normal") -> dict[int, str]:
    """``--bots`` -> 0-based seats and their levels: 1-based seat numbers (``2,3``), each with a level
    if wanted (``2:strong,3:easy``), ``all``, or a level alone (``strong``: every seat but the first).
    A seat named without a level plays at ``level`` (``--level``)."""

    def checked(word: str) -> str:
        word = word.strip().lower()
        if word not in LEVELS:
            raise ValueError(f"a bot's level is one of {', '.join(LEVELS)}, not {word[:20]!r}.")
        return word

    level = checked(level)
    seats: dict[int, str] = {}
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        where, _, named = part.partition(":")
        at = checked(named) if named else level
        if where == "all":
            seats.update({s: at for s in range(n)})
        elif where in LEVELS and not named:
            seats.update({s: where for s in range(1, n)})
        elif where.isdigit() and 1 <= int(where) <= n:
            seats[int(where) - 1] = at
        else:
            raise ValueError(f"--bots takes seat numbers from 1 to {n} (or 'all'), each with a level if wanted "
                             f"(2:strong), or a level for every seat but yours (strong), not {part[:20]!r}.")
    return seats


def cmd_simulate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli import simulate
    from bot.engine.core import IllegalMove

    try:
        summary = simulate(args.game, args.games, args.seed, args.players, args.options, args.records)
    except (IllegalMove, ValueError, OSError) as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k:>12}: {v}")
    return 0 if summary["errors"] == 0 else 1


def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli import replay_summary

    try:
        summary = replay_summary(args.record)
    except (OSError, ValueError, RecursionError) as e:  # json.JSONDecodeError is a ValueError
        print(f"deckhand: cannot replay {args.record}: {str(e).splitlines()[0] if str(e) else type(e).__name__}",
              file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        state = "finished" if summary["finished"] else "unfinished"
        print(f"{summary['game']}: {state} after {summary['moves']} moves — {summary['summary']}")
        if summary["winners"]:
            print(f"winners: {', '.join(summary['winners'])}")
    return 0


def store_name(text: str, flag: str) -> str:
    """``--to``/``--from``: a postgresql:// URL or a SQLite path; anything else is one clear line."""
    from bot.store import is_postgres_url

    text = text.strip()
    if not text:
        raise ConfigError(f"{flag} takes a postgresql:// URL or a SQLite file path, not an empty text.")
    if "://" in text and not is_postgres_url(text):
        raise ConfigError(f"{flag} takes a postgresql:// URL or a SQLite file path, not {text.split('://')[0]}://….")
    if not is_postgres_url(text) and Path(text).is_dir():
        raise ConfigError(f"{flag}: {text} is a folder; name the SQLite file.")
    return text


def cmd_migrate_store(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store import StoreError, is_postgres_url, open_store
    from bot.store.migrate import copy_store

    if args.batch < 1:
        raise ConfigError(f"--batch takes a number of rows, 1 or more, not {args.batch}.")
    target_name = store_name(args.to, "--to")
    source_name = store_name(args.source, "--from") if args.source is not None else \
        (settings.database_url or str(settings.database))
    if args.source is not None and not is_postgres_url(source_name) and not Path(source_name).exists():
        raise ConfigError(f"--from: there is no database file {source_name}.")
    if args.source is None and not settings.database_url and not settings.database.exists():
        raise ConfigError(f"There is no database file {settings.database} to copy (set DECKHAND_DATABASE or "
                          "DATABASE_URL, or give --from).")

    def say(line: str) -> None:
        print(line, flush=True)

    async def go() -> int:
        source = await open_store(source_name)
        try:
            target = await open_store(target_name)
            try:
                report = await copy_store(source, target, force=args.force, batch=args.batch, say=say)
            finally:
                await target.close()
        finally:
            await source.close()
        return 1 if report.mismatches else 0

    try:
        return asyncio.run(go())
    except StoreError as e:
        print(f"deckhand: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2


def cmd_strength(args: argparse.Namespace, settings: Settings) -> int:
    from bot.strength import run

    try:
        return run(args)
    except ValueError as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    from bot.bench import SECTIONS, run_bench
    from bot.loop import fast_event_loop

    fast_event_loop()  # as `run` does
    only = tuple(x.strip() for x in args.only.split(",") if x.strip()) or SECTIONS
    return run_bench(quick=args.quick, as_json=args.json, only=only, gridcannon_js=args.gridcannon_js,
                     profile=args.profile)


def cmd_i18n(args: argparse.Namespace, settings: Settings) -> int:
    from bot.i18n import DOMAINS, LANGUAGES
    from bot.i18n.extract import extract, update

    if args.i18n_command == "extract":
        stale = False
        for domain in DOMAINS:
            changed, path = extract(check=args.check, domain=domain)
            stale = stale or changed
            if args.check:
                print(f"{path}: {'stale: run python -m bot i18n extract' if changed else 'up to date'}.")
            else:
                print(f"{path}: {'written' if changed else 'already up to date'}.")
        return 1 if args.check and stale else 0
    langs = args.lang or list(LANGUAGES)
    if unknown := [lang for lang in langs if lang not in LANGUAGES]:
        raise ConfigError(f"--lang takes one of {', '.join(LANGUAGES)}, not {unknown[0][:20]!r} (a new language "
                          "is added to LANGUAGES in bot/i18n/__init__.py first).")
    for _lang, path, count, untranslated in update(langs):
        print(f"{path}: {count} messages, {untranslated} to translate.")
    return 0


COMMANDS = {"start": cmd_start, "run": cmd_run, "sync": cmd_sync, "play": cmd_play, "learn": cmd_learn,
            "simulate": cmd_simulate, "replay": cmd_replay, "bench": cmd_bench, "strength": cmd_strength,
            "migrate-store": cmd_migrate_store, "i18n": cmd_i18n}

if __name__ == "__main__":
    sys.exit(main())
