"""``python -m bot`` / ``deckhand``: run the bot, sync commands, or play in a terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

from bot.config import ConfigError, Settings
from bot.engine import GAME_IDS

EPILOG = """examples:
  python -m bot play gridcannon --seed 7          play a game in this terminal
  python -m bot simulate gridcannon --games 200 --seed 1 --json
  python -m bot replay data/records/game.json --json
  python -m bot run                               run the Discord bot (needs DISCORD_TOKEN)
  python -m bot sync --guild 123456789            register slash commands in one server
  python -m bot bench                             print speed figures
settings come from the environment or .env: DISCORD_TOKEN, DECKHAND_DATABASE, DISCORD_API_BASE,
DISCORD_GATEWAY_URL, DECKHAND_LOG_LEVEL, DECKHAND_DEV_GUILD, DECKHAND_OWNER_IDS (see README)."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="deckhand", description="Deckhand: card games on Discord and in a terminal.",
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("start", help="run the bot if DISCORD_TOKEN is set, else play Gridcannon in this terminal",
                   description="The first-run command: the Discord bot when a token is configured, otherwise a "
                               "terminal game of Gridcannon.")
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)",
                   description="Connect to Discord and serve every table. Needs DISCORD_TOKEN.")

    s = sub.add_parser("sync", help="register the slash commands with Discord",
                       description="Register the slash commands globally (takes up to an hour to show) or in one "
                                   "guild for development (instant). Needs DISCORD_TOKEN.")
    s.add_argument("--guild", type=int, default=None, help="a guild id (default: DECKHAND_DEV_GUILD, else global)")
    s.add_argument("--global", dest="everywhere", action="store_true", help="sync globally even if a dev guild is set")

    pl = sub.add_parser("play", help="play a game in this terminal (hot seat for several players)")
    pl.add_argument("game", choices=GAME_IDS)
    pl.add_argument("--seed", type=int, default=None, help="the shuffle's seed (printed at the start)")
    pl.add_argument("--variant", "--option", dest="options", action="append", default=[],
                    help="a variant or NAME=VALUE setting (repeatable); see /game rules")
    pl.add_argument("--players", type=int, default=None, help="number of players (default: the game's minimum)")
    pl.add_argument("--names", default=None, help="comma-separated player names")
    pl.add_argument("--bots", default="", help="comma-separated seat numbers (1-based) the built-in player takes")

    sm = sub.add_parser("simulate", help="play many games with the built-in player and print a summary")
    sm.add_argument("game", choices=GAME_IDS)
    sm.add_argument("--games", type=int, default=100)
    sm.add_argument("--seed", type=int, default=1)
    sm.add_argument("--players", type=int, default=None)
    sm.add_argument("--variant", "--option", dest="options", action="append", default=[])
    sm.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    sm.add_argument("--records", type=Path, default=None, help="write one record file per game into this folder")

    rp = sub.add_parser("replay", help="reproduce a game from its record and print the result")
    rp.add_argument("record", type=Path)
    rp.add_argument("--json", action="store_true", help="end with one JSON line")

    b = sub.add_parser("bench", help="print engine and interaction-handling speed figures")
    b.add_argument("--quick", action="store_true", help="fewer repetitions")
    b.add_argument("--json", action="store_true", help='end with one JSON line: {"figures": [...]}')
    return p


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
    token = settings.require_token()
    from bot.app import build

    bot = build(settings)
    bot.run(token, log_handler=None)
    return 0


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
    from bot.cli import default_players, play_terminal

    names = [n.strip() for n in args.names.split(",")] if args.names else default_players(args.game, args.players)
    bots = {int(s) - 1 for s in args.bots.split(",") if s.strip()}
    from bot.engine.core import IllegalMove

    try:
        play_terminal(args.game, names, args.options, args.seed, auto_seats=bots)
    except IllegalMove as e:
        print(f"deckhand: {e}", file=sys.stderr)
        return 2
    return 0


def cmd_simulate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli import simulate
    from bot.engine.core import IllegalMove

    try:
        summary = simulate(args.game, args.games, args.seed, args.players, args.options, args.records)
    except IllegalMove as e:
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
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
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


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    from bot.bench import run_bench

    return run_bench(quick=args.quick, as_json=args.json)


COMMANDS = {"start": cmd_start, "run": cmd_run, "sync": cmd_sync, "play": cmd_play, "simulate": cmd_simulate,
            "replay": cmd_replay, "bench": cmd_bench}

if __name__ == "__main__":
    sys.exit(main())
