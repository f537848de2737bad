"""The command line's words: ``python -m bot``'s subcommands, their options, help and examples
(:func:`parser`); ``bot.__main__`` runs what they ask for."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

from bot.cli import HelpFormatter, game_list
from bot.config import settings_help
from bot.engine.levels import LEVELS
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
    b.add_argument("--profile", metavar="DIR",
                   help="discord: leave each bot process's profile (cProfile, its event loop's CPU) in DIR: "
                        "bot0.prof the floor, bot1.prof Deckhand, bot2.prof Deckhand with pictures")
    return p
