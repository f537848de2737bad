"""``python -m bot`` / ``deckhand``: run the bot, sync commands, or play in a terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.engine.levels import LEVELS

from bot.config import ConfigError, Settings, parse_shards, settings_help
from bot.cli import HelpFormatter, game_list
from bot.engine.registry import GAME_IDS

EPILOG = """examples:
  python -m bot play gridcannon --seed 7          play a game in this terminal
  python -m bot learn maginot_line                a first game that teaches, against the built-in player
  python -m bot simulate gridcannon --games 200 --seed 1 --json
  python -m bot replay data/records/game.json --json
  python -m bot run                               run the Discord bot (needs DISCORD_TOKEN)
  python -m bot sync --guild 123456789            register slash commands in one server
  python -m bot bench                             print speed figures
  python -m bot migrate-store --to postgresql://deckhand@db/deckhand   copy the SQLite file to PostgreSQL
  python -m bot i18n extract                      commands' texts for translators

settings (from the environment, or a .env file in the working folder; see .env.example):
{settings}

games:
{games}"""


PLAY_EPILOG = """examples:
  python -m bot play gridcannon --seed 7                 a solo game
  python -m bot play court_wars --players 3 --bots 2,3   you against two built-in players
  python -m bot play cardchess2 --bots strong            you against the Strong built-in player
  python -m bot play court_wars --players 3 --bots 2:easy,3:strong
  python -m bot play cardchess2                          two people at one keyboard
  python -m bot play court_wars --variant "No Jokers" --variant rounds=30
  python -m bot play cardchess2 --list-variants

in a game, type a move in the game's notation (as /game move on Discord), or:
  ? or moves    choose the move step by step: a number picks an option, a text step
                takes your words as typed; back undoes a step, cancel clears the move
  hint          what the built-in player would do now, and why
  rules         the sections of the rules; rules SECTION shows one (a number or a name)
  help          the game's rules, then these commands
  show          your view again
  quit          leave the game
A typo gets the nearest moves and commands; resign and concede ask you to confirm.

games:
{games}"""

LEARN_EPILOG = """examples:
  python -m bot learn maginot_line
  python -m bot learn gridcannon --name Ana

in the lesson, Enter takes the offered move; type a move of your own, or ? (choose it step by
step), hint, rules SECTION, quit, as at any terminal table.

games:
{games}"""

SIMULATE_EPILOG = """examples:
  python -m bot simulate gridcannon --games 500 --seed 1
  python -m bot simulate court_wars --players 4 --games 200 --json
  python -m bot simulate cardchess2 --games 20 --records data/records
  python -m bot replay data/records/cardchess2-00000.json

The exit status is 1 when any game stopped on an engine error (each is printed on stderr).

games:
{games}"""

REPLAY_EPILOG = """examples:
  python -m bot simulate court_wars --games 3 --records /tmp/rec
  python -m bot replay /tmp/rec/court_wars-00000.json
  python -m bot replay /tmp/rec/court_wars-00000.json --json"""

STRENGTH_EPILOG = """examples:
  python -m bot strength court_wars --games 200 --playouts 40 --workers 2
  python -m bot strength maginot_line --players 2 --games 50 --budget 0.2
  python -m bot strength gridcannon --games 1000 --playouts 20

games:
{games}"""

RUN_EPILOG = """examples:
  python -m bot run                                   one process, every table
  DATABASE_URL=postgresql://deckhand@db/deckhand python -m bot run --shard-count 2 --shards 0
  DATABASE_URL=postgresql://deckhand@db/deckhand python -m bot run --shard-count 2 --shards 1

Discord sends a server's events on shard (server id >> 22) % N and DMs on shard 0. Each process
sweeps the turn limits of its own shards' tables; the process with shard 0 serves the DMs.
Processes share one PostgreSQL database (SQLite is for one process). Start them together: a
process waits DECKHAND_IDENTIFY_DELAY (5 s) x its first shard id before it identifies. Slash
commands are registered once with `python -m bot sync`, not by `run`."""


MIGRATE_EPILOG = """examples:
  python -m bot migrate-store --to postgresql://deckhand:secret@db/deckhand
  python -m bot migrate-store --from postgresql://deckhand@db/deckhand --to data/back.sqlite3
  python -m bot migrate-store --to postgresql://deckhand@db/deckhand --force

Stop the bot first. The source is the configured store (DATABASE_URL, else DECKHAND_DATABASE) unless
--from names another. Every table is copied in batches, one transaction each, and a line is printed
per batch. Killed or interrupted, the same command run again finishes the copy: it resumes after
the last batch that committed (the target notes it with each batch), and nothing is doubled.
At the end every row is compared and every table loaded on the target, its game rebuilt; the exit
status is 1 when anything differs. Then point DATABASE_URL (or DECKHAND_DATABASE) at the target
and start the bot."""


I18N_EPILOG = """examples:
  python -m bot i18n extract          write both templates: commands.pot from the command tree,
                                      messages.pot from the code (Babel's extractor)
  python -m bot i18n extract --check  exit status 1 if either is stale
  python -m bot i18n update           merge them into each language's .po files

Deckhand speaks English, Spanish (es: Discord's es-ES and es-419) and German (de). A translator
edits bot/i18n/locales/<lang>/LC_MESSAGES/commands.po (the slash commands) and messages.po (the
messages, buttons, refusals and pictures' words), with the glossary.md beside them, in any .po
editor or a text editor; the bot reads the .po files when it starts (no compiled .mo), and
`python -m bot sync` sends the translated command names and descriptions to Discord. A text left
empty or marked fuzzy is shown in English."""


def _command(sub: Any, name: str, help: str, about: str, epilog: str | None = None) -> argparse.ArgumentParser:
    """A documented subcommand: its one-line help, ``about`` wrapped as its description, its epilog."""
    return sub.add_parser(name, help=help, formatter_class=HelpFormatter, description=textwrap.fill(about, 78),
                          epilog=epilog)


def parser() -> argparse.ArgumentParser:
    from bot.i18n import LANGUAGES

    p = argparse.ArgumentParser(prog="deckhand", description="Deckhand: card games on Discord and in a terminal.",
                                epilog=EPILOG.format(games=game_list(), settings=settings_help()),
                                formatter_class=HelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("start", help="run the bot if DISCORD_TOKEN is set, else play Gridcannon in this terminal",
                   description="The first-run command: the Discord bot when a token is configured, otherwise a "
                               "terminal game of Gridcannon.")
    r = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)",
                       formatter_class=HelpFormatter,
                       description=textwrap.fill("Connect to Discord and serve every table. Needs DISCORD_TOKEN. "
                                                 "Several processes can share one PostgreSQL database, each running "
                                                 "some of the shards.", 78),
                       epilog=RUN_EPILOG)
    r.add_argument("--shard-count", default=None, metavar="N",
                   help="shards in all, across every process (default: DECKHAND_SHARD_COUNT; unset: one process)")
    r.add_argument("--shards", default=None, metavar="IDS",
                   help="this process's shard ids: 0,1 or 0-3 (default: DECKHAND_SHARD_IDS, else every shard)")

    s = sub.add_parser("sync", help="register the slash commands with Discord",
                       description="Register the slash commands globally (takes up to an hour to show) or in one "
                                   "guild for development (instant). Needs DISCORD_TOKEN.")
    s.add_argument("--guild", type=int, default=None, help="a guild id (default: DECKHAND_DEV_GUILD, else global)")
    s.add_argument("--global", dest="everywhere", action="store_true", help="sync globally even if a dev guild is set")

    games = game_list()
    pl = _command(sub, "play", "play a game in this terminal (hot seat for several players)",
                  "Play a game in this terminal. Several people share the keyboard (hot seat): before a seat's own "
                  "view is shown the screen is cleared and the terminal handed to that player. The built-in player "
                  "can take any seats (--bots).", PLAY_EPILOG.format(games=games))
    pl.add_argument("game", choices=GAME_IDS, metavar="GAME", help="the game's id (listed below)")
    pl.add_argument("--players", type=int, default=None, metavar="N",
                    help="number of players (default: the game's minimum)")
    pl.add_argument("--bots", default="", metavar="SEATS",
                    help="seats the built-in player takes: 1-based numbers, comma-separated (2,3), each with a "
                         "level if wanted (2:strong,3:easy), or 'all'; a level alone (strong) takes every seat "
                         "but yours at that level")
    pl.add_argument("--level", default="normal", choices=LEVELS, metavar="LEVEL",
                    help="the level (easy, normal or strong) of the bot seats --bots names without one "
                         "(default: normal): Easy makes a person's mistakes, Strong thinks about a second a move "
                         "(DECKHAND_STRONG_SECONDS)")
    pl.add_argument("--seed", type=int, default=None, metavar="S",
                    help="the shuffle's seed, to play the same deal again (default: random, printed at the start)")
    pl.add_argument("--variant", "--option", dest="options", action="append", default=[], metavar="V",
                    help="a variant name or a NAME=VALUE setting (repeatable; see --list-variants)")
    pl.add_argument("--names", default=None, metavar="A,B,…", help="comma-separated player names")
    pl.add_argument("--list-variants", action="store_true", help="print the game's variants and settings and stop")
    pl.add_argument("--lang", default=None, choices=("en", *LANGUAGES), metavar="LANG",
                    help="the table's and the rules' language: en, es or de (default: the environment's LANG; "
                         "Gridcannon's table speaks all three so far, the other games' tables English)")

    le = _command(sub, "learn", "learn a game: a short guided game against the built-in player",
                  "A first game that teaches: a fixed deal against the built-in player; each step offers a move "
                  "and says, in a sentence or two, the rule and why the move is good, with the rules section to "
                  "read. Press Enter to take it, or type a move of your own: the lesson says what happened and "
                  "goes on. It ends with what you learned.", LEARN_EPILOG.format(games=games))
    le.add_argument("game", choices=GAME_IDS, metavar="GAME", help="the game's id (listed below)")
    le.add_argument("--name", default=None, metavar="NAME", help="your name at the table")
    le.add_argument("--lang", default=None, choices=("en", *LANGUAGES), metavar="LANG",
                    help="the language of the lesson's words and the rules (en, es or de; default: the "
                         "environment's LANG)")

    sm = _command(sub, "simulate", "play many games with the built-in player and print a summary",
                  "Play G games with the built-in player in every seat and print games, finished, errors, wins, "
                  "losses, mean_score, mean_moves, games_per_s and moves_per_s. Game i is seeded from S and i, so "
                  "the same command plays the same games.", SIMULATE_EPILOG.format(games=games))
    sm.add_argument("game", choices=GAME_IDS, metavar="GAME", help="the game's id (listed below)")
    sm.add_argument("--games", type=int, default=100, metavar="G", help="how many games (default 100)")
    sm.add_argument("--seed", type=int, default=1, metavar="S", help="the seed of the series (default 1)")
    sm.add_argument("--players", type=int, default=None, metavar="N",
                    help="number of players (default: the game's minimum)")
    sm.add_argument("--variant", "--option", dest="options", action="append", default=[], metavar="V",
                    help="a variant name or a NAME=VALUE setting (repeatable)")
    sm.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    sm.add_argument("--records", type=Path, default=None, metavar="DIR",
                    help="write one record file per game into this folder (replay reads them)")

    rp = _command(sub, "replay", "reproduce a game from its record and print the result",
                  "Reproduce a game exactly from its record (made by simulate --records, or the full record kept in "
                  "the bot's database) and print how it ended. A player's redacted export cannot be replayed.",
                  REPLAY_EPILOG)
    rp.add_argument("record", type=Path, metavar="RECORD.json", help="a record file")
    rp.add_argument("--json", action="store_true", help="end with one JSON line: game, finished, winners, score, "
                                                       "moves, summary, players")

    mg = _command(sub, "migrate-store", "copy every table, record and stat to another database (SQLite ⇄ PostgreSQL)",
                  "Copy the whole store (tables and their move logs, records, stats, daily challenge entries, "
                  "drafts, remembered interactions, set-aside rows) into another database, then check the copy: the "
                  "way a community grows from the SQLite file to PostgreSQL (or goes back).", MIGRATE_EPILOG)
    mg.add_argument("--to", required=True, metavar="TARGET",
                    help="a postgresql:// URL or a SQLite file path (created if missing); it must be empty")
    mg.add_argument("--from", dest="source", default=None, metavar="SOURCE",
                    help="copy from this URL or file instead of the configured store")
    mg.add_argument("--force", action="store_true",
                    help="copy into a target that already holds data (same keys overwritten, the rest kept)")
    mg.add_argument("--batch", type=int, default=500, metavar="N",
                    help="rows per transaction and per progress line (default 500; the move log ten times as many)")

    i = _command(sub, "i18n", "the translators' catalogues: extract the template, update each language",
                 "Make the template of every slash-command text (command, option and choice names, descriptions) "
                 "from the command tree and the template of every message from the code, and merge them into "
                 "each language's catalogues.", I18N_EPILOG)
    i_sub = i.add_subparsers(dest="i18n_command", metavar="STEP", required=True)
    ie = i_sub.add_parser("extract", help="write bot/i18n/locales/commands.pot (command tree) and messages.pot (code)",
                          description="Build the bot's command tree (no connection to Discord) and write the "
                                      "template of its texts. Game titles and game groups' names are left out: "
                                      "they stay as their authors wrote them.")
    ie.add_argument("--check", action="store_true", help="write nothing; exit status 1 if the template is stale")
    iu = i_sub.add_parser("update", help="merge the templates into each language's commands.po and messages.po",
                          description="New texts come in empty (or fuzzy, with a guess from a near text); texts "
                                      "gone from the template are dropped; translations are kept.")
    iu.add_argument("--lang", action="append", default=None, metavar="LANG",
                    help="only this language (repeatable; default: every language)")

    st = _command(sub, "strength", "measure the Easy and Strong built-in players against Normal",
                  "Play seeded games with one seat at Easy or Strong and every other seat Normal, the level's seat "
                  "moving round the table from game to game, and print each level's win rate with its 95 % (Wilson) "
                  "interval, for 2 players and for the largest table (or --players). A shared win counts 1/k. "
                  "Gridcannon is solo: each level's win rate alone over the same deals. Strong searches for "
                  "--budget seconds of CPU a move (default DECKHAND_STRONG_SECONDS, else 1) or, reproducibly, "
                  "--playouts playouts a move.", STRENGTH_EPILOG.format(games=games))
    st.add_argument("game", choices=GAME_IDS, metavar="GAME", help="the game's id (listed below)")
    st.add_argument("--games", type=int, default=100, metavar="N", help="games per level and table size (default 100)")
    st.add_argument("--players", type=int, default=None, metavar="P",
                    help="one table size only (default: 2 and the game's largest)")
    how = st.add_mutually_exclusive_group()
    how.add_argument("--budget", type=float, default=None, metavar="S", help="Strong's CPU seconds a move")
    how.add_argument("--playouts", type=int, default=None, metavar="K",
                     help="Strong's playouts a move, no time limit: the same figures every run")
    st.add_argument("--seed", type=int, default=1, metavar="S", help="the seed of the series (default 1)")
    st.add_argument("--workers", type=int, default=1, metavar="W", help="processes playing games at once (default 1)")
    st.add_argument("--level", action="append", choices=("easy", "strong", "normal"), default=None,
                    help="only this level (repeatable; default: Strong and Easy; Gridcannon adds Normal)")

    b = _command(
        sub, "bench", "print engine and interaction-handling speed figures",
        ("Print speed figures beside their targets: each game's engine (actions applied, whole games with the "
         "built-in player, random playouts); each game's picture (CPU of one drawn and encoded); the replay "
         "viewer; the end message's animation of a whole game (CPU, size); and the bot through Discord's road: "
         "the bot in a process of its own, pointed at a Discord "
         "stand-in this command serves, with 200 tables of Court Wars played at once by simulated players "
         "(click to answer, interactions a second, errors, lost updates, the event loop's longest hold, CPU "
         "per interaction beside a minimal discord.py bot's), and the turn-limit sweep of 1,000 tables due at "
         "once. Takes a few minutes (--quick repeats less); an idle machine gives the figures players feel. "
         "Speed is measured here, never asserted in tests."))
    b.add_argument("--quick", action="store_true", help="fewer repetitions")
    b.add_argument("--json", action="store_true", help='end with one JSON line: {"figures": [...]}')
    b.add_argument("--only", default="", metavar="PARTS",
                   help="comma-separated parts to run (engines, pictures, replay, animation, discord; "
                        "default all)")
    b.add_argument("--gridcannon-js", metavar="PATH",
                   help="engines: a copy of the JavaScript Gridcannon engine (engine.mjs of GeekKingCloud/"
                        "gridcannon-omarchy; never downloaded) to time beside Gridcannon's (needs node)")
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
    from bot.engine.levels import LEVELS

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
    return run_bench(quick=args.quick, as_json=args.json, only=only, gridcannon_js=args.gridcannon_js)


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
