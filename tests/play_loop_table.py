"""The play loop measured for all six games: ``python -m tests.play_loop_table`` prints a Markdown
table. Each game is played whole (or up to a cap of turns) through the Discord stand-in by the
play-loop driver (``tests.play_loop``), people in every seat, each table dealt from a fixed seed.

Per game: interactions a turn (median / max), private panels posted a turn (max), pings a person
gets a turn change (max; and how often the player who had just acted was pinged), public messages
a move, and the table message's height as a phone shows it — lines of its text (content and embed,
wrapped at ``PHONE_COLUMNS``) and its picture's height in pixels when drawn 800 px wide (median /
max over the table messages seen at the end of each turn).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.discord_helpers import latest_table
from tests.play_loop import play_turn, seeded

PHONE_COLUMNS = 40  # characters a line of an embed holds on a phone held upright (about 360 pt wide)
PICTURE_WIDTH = 800

# (game, seats, variants, turn cap): whole games; Maginot with its quick option (a 6-round safeguard)
GAMES = [
    ("court_wars", 2, "", 200),
    ("knight_rogue_princess_dragon", 4, "", 200),
    ("maginot_line", 2, "rounds=6", 200),
    ("gridcannon", 1, "", 200),
    ("celestial_emperor", 3, "", 200),
    ("cardchess2", 2, "", 200),
]


@dataclass
class Row:
    game: str
    seats: int
    turns: int
    moves: int
    ended: bool
    interactions: list[int]
    panels: list[int]
    pings_max: int
    actor_pinged: int
    public: int
    lines: list[int]
    picture: list[int]


def phone_lines(text: str) -> int:
    """Lines ``text`` takes on a phone: each line wrapped at ``PHONE_COLUMNS``."""
    return sum(max(1, math.ceil(len(line) / PHONE_COLUMNS)) for line in text.splitlines()) if text else 0


def message_lines(msg: dict) -> int:
    """Lines of a message's content and embeds (title, description, each field's name and value, footer)."""
    n = phone_lines(msg.get("content") or "")
    for e in msg.get("embeds") or []:
        n += phone_lines(e.get("title") or "") + phone_lines(e.get("description") or "")
        for f in e.get("fields") or []:
            n += phone_lines(f.get("name") or "") + phone_lines(f.get("value") or "")
        n += phone_lines((e.get("footer") or {}).get("text") or "")
    return n


def picture_height(standin, msg: dict) -> int:
    """The height of the message's picture drawn ``PICTURE_WIDTH`` wide (0: no picture)."""
    from PIL import Image

    for a in msg.get("attachments") or []:
        f = standin.attachments.get(int(a["id"]))
        if f is not None and (a.get("filename") or "").endswith(".png"):
            w, h = Image.open(io.BytesIO(f.data)).size
            return round(h * PICTURE_WIDTH / w)
    return 0


async def measure(standin, bot, game: str, seats: int, variants: str, cap: int) -> Row:
    from tests.play_loop import open_game

    _, users, channel, _ = await open_game(standin, bot, game, seats, variants)
    uid = [int(u["id"]) for u in users]
    turns = []
    lines, picture = [], []
    for i in range(cap):
        if (await bot.service.get(channel)).status != "playing":
            break
        turn = await play_turn(standin, bot, channel, users, i)
        turns.append(turn)
        table = latest_table(standin, channel)
        lines.append(message_lines(table))
        picture.append(picture_height(standin, table))
    ended = (await bot.service.get(channel)).status != "playing"
    return Row(game, seats, len(turns), sum(len(t.moves) for t in turns), ended,
               [t.interactions for t in turns], [t.panels for t in turns],
               max((max(t.pings.values(), default=0) for t in turns), default=0),
               sum(1 for t in turns if uid[t.seat] in t.pings), sum(t.public for t in turns), lines, picture)


def _mm(xs: list[int]) -> str:
    return f"{statistics.median(xs):g} / {max(xs)}" if xs else "–"


def markdown(rows: list[Row]) -> str:
    out = ["| game (seats) | turns (moves) | interactions/turn median / max | panels/turn max | "
           "pings/person/turn change max (actor pinged) | public msgs/move | table lines median / max | "
           "picture px @800 median / max |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        whole = "" if r.ended else ", cap"
        out.append(f"| {r.game} ({r.seats}) | {r.turns} ({r.moves}{whole}) | {_mm(r.interactions)} | "
                   f"{max(r.panels, default=0)} | {r.pings_max} ({r.actor_pinged}) | "
                   f"{r.public / max(r.moves, 1):.2f} | {_mm(r.lines)} | {_mm(r.picture)} |")
    return "\n".join(out)


async def main(games: list[str], seed: int) -> list[Row]:
    from bot.app import DeckhandBot
    from tests.discord_helpers import no_deferral_deadline
    from bot.standin import GUILD_READY_TIMEOUT, logged_in, running_standin

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (game, seats, variants, cap) in enumerate(GAMES):
            if games and game not in games:
                continue
            async with running_standin() as standin:
                bot = no_deferral_deadline(DeckhandBot(str(Path(tmp) / f"{game}.db"), run_timeouts=False,
                                                             guild_ready_timeout=GUILD_READY_TIMEOUT))
                async with logged_in(bot):
                    with seeded(seed + k):
                        rows.append(await measure(standin, bot, game, seats, variants, cap))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all six)")
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    started = time.process_time()
    print(markdown(asyncio.run(main(args.games, args.seed))))
    print(f"\n(seed {args.seed}; {time.process_time() - started:.1f} s CPU)")
