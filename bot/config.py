"""Settings, read from the environment (and a ``.env`` file beside the working directory)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = Path("data") / "deckhand.sqlite3"


@dataclass(frozen=True)
class Setting:
    """One setting the code reads: its name, its default as written in ``.env.example`` (empty:
    unset) and what it does. ``--help`` and ``.env.example`` list exactly these."""

    name: str
    default: str
    help: str
    default_note: str = ""  # what an empty default means, when it means something


SETTINGS: tuple[Setting, ...] = (
    Setting("DISCORD_TOKEN", "", "The bot token from the Discord developer portal (Bot → Reset Token). "
            "Required for `run` and `sync`.", "none: `start` plays in the terminal"),
    Setting("DECKHAND_DATABASE", str(DEFAULT_DB.as_posix()), "Where the SQLite database lives (created on first run)."),
    Setting("DATABASE_URL", "", "PostgreSQL instead of the SQLite file (needed for several processes), "
            "e.g. postgresql://user:pass@host/db.", "the SQLite file"),
    Setting("DECKHAND_DEV_GUILD", "", "A guild (server) id for development: `python -m bot sync` registers "
            "commands there instantly.", "global sync"),
    Setting("DECKHAND_OWNER_IDS", "", "User ids (comma-separated) allowed to use owner-only commands.", "nobody"),
    Setting("DECKHAND_LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING or ERROR."),
    Setting("DISCORD_API_BASE", "", "A REST proxy or a local Discord stand-in, "
            "e.g. http://127.0.0.1:8080/api/v10.", "Discord's"),
    Setting("DISCORD_GATEWAY_URL", "", "A gateway proxy or stand-in, e.g. ws://127.0.0.1:8080/gateway.", "Discord's"),
    Setting("DECKHAND_SHARD_COUNT", "", "Several processes: shards in all, across every process.",
            "one process, unsharded"),
    Setting("DECKHAND_SHARD_IDS", "", "Several processes: this process's shard ids (0,1 or 0-3).", "every shard"),
    Setting("DECKHAND_IDENTIFY_DELAY", "5", "Seconds per shard id a process waits before its first IDENTIFY "
            "(processes started together take turns); 0 to 600."),
    Setting("DECKHAND_SWEEP_SECONDS", "5", "How often (seconds) turn limits are checked; 0.1 to 3600."),
    Setting("DECKHAND_PICTURE_WORKERS", "", "Processes that draw table pictures (0: draw in threads instead); "
            "0 to 256.", "one per core but one (at least one)"),
    Setting("DECKHAND_PICTURE_WAIT", "2", "Seconds an answer waits for its table's new picture; a picture not "
            "drawn by then follows in an edit of the table message (the answer keeps the one before); 0 to 10."),
    Setting("DECKHAND_END_ANIMATION", "on", "The end message's animation of the whole game: on or off (off saves "
            "the second or two of CPU it takes to draw a game, on a small machine)."),
    Setting("DECKHAND_THINK_WORKERS", "", "Processes where Strong bot seats think over their moves (0: think in "
            "threads instead); 0 to 256.", "one per core but one (at least one)"),
    Setting("DECKHAND_STRONG_SECONDS", "", "Seconds of CPU a Strong bot seat may think over a move; 0.01 to 30.",
            "1"),
    Setting("DECKHAND_PG_BIN", "/usr/lib/postgresql/15/bin", "The tests only: where PostgreSQL's server programs "
            "are, for the throw-away servers the store tests start (else pg_ctl on PATH)."),
)


def settings_help() -> str:
    """The settings for ``--help``: one entry each, with its default."""
    lines = []
    for s in SETTINGS:
        default = s.default or s.default_note or "unset"
        lines.append(f"  {s.name:<26}{s.help} (default: {default})")
    return "\n".join(lines)


class ConfigError(Exception):
    """A setting is missing or wrong; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: Path
    api_base: str | None
    gateway_url: str | None
    log_level: str
    dev_guild: int | None
    owner_ids: frozenset[int]
    database_url: str | None = None  # postgresql://… to use PostgreSQL instead of the SQLite file
    shard_count: int | None = None  # several processes: how many shards in all (None: one process, no sharding)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: every shard)
    identify_delay: float = 5.0  # seconds between IDENTIFYs of shard clusters: a process waits this × its first shard id
    sweep_seconds: float = 5.0  # how often the turn-limit sweep runs (an indexed read of due tables)
    picture_workers: int | None = None  # picture processes (0: threads; None: the default), read by bot.render.pictures
    end_animation: bool = True  # the end message carries the whole game as an animation
    picture_wait: float = 2.0  # seconds an answer waits for its new picture (Discord allows 3 for an answer)
    think_workers: int | None = None  # thinking processes (0: threads; None: the default), read by bot.tables.thinking
    strong_seconds: float | None = None  # a Strong move's budget (None: the default), read by bot.tables.thinking

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, load_dotenv: bool = True) -> "Settings":
        if env is None:
            if load_dotenv:
                from dotenv import load_dotenv as _load

                _load(override=False)
            env = dict(os.environ)
        guild = env.get("DECKHAND_DEV_GUILD", "").strip()
        owners = env.get("DECKHAND_OWNER_IDS", "").replace(",", " ").split()
        try:
            dev_guild = int(guild) if guild else None
            owner_ids = frozenset(int(o) for o in owners)
        except ValueError as e:
            raise ConfigError(f"DECKHAND_DEV_GUILD and DECKHAND_OWNER_IDS take numeric ids ({e}).") from None
        level = env.get("DECKHAND_LOG_LEVEL", "INFO").strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(f"DECKHAND_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        shard_count, shard_ids = parse_shards(env.get("DECKHAND_SHARD_COUNT", ""), env.get("DECKHAND_SHARD_IDS", ""))
        identify_delay = _number(env, "DECKHAND_IDENTIFY_DELAY", 5.0, least=0.0, most=600.0, unit="seconds")
        sweep_seconds = _number(env, "DECKHAND_SWEEP_SECONDS", 5.0, least=0.1, most=3600.0, unit="seconds")
        picture_workers = _number(env, "DECKHAND_PICTURE_WORKERS", None, least=0, most=256, unit="processes",
                                  whole=True)
        end_animation = env.get("DECKHAND_END_ANIMATION", "on").strip().lower() or "on"
        if end_animation not in ("on", "off"):
            raise ConfigError(f"DECKHAND_END_ANIMATION takes on or off, not {end_animation[:20]!r}.")
        picture_wait = _number(env, "DECKHAND_PICTURE_WAIT", 2.0, least=0.0, most=10.0, unit="seconds")
        think_workers = _number(env, "DECKHAND_THINK_WORKERS", None, least=0, most=256, unit="processes", whole=True)
        strong_seconds = _number(env, "DECKHAND_STRONG_SECONDS", None, least=0.01, most=30.0, unit="seconds")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database=Path(env.get("DECKHAND_DATABASE", "").strip() or DEFAULT_DB),
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=level,
            dev_guild=dev_guild,
            owner_ids=owner_ids,
            database_url=env.get("DATABASE_URL", "").strip() or None,
            shard_count=shard_count,
            shard_ids=shard_ids,
            identify_delay=identify_delay,
            sweep_seconds=sweep_seconds,
            picture_workers=None if picture_workers is None else int(picture_workers),
            end_animation=end_animation == "on",
            picture_wait=picture_wait,
            think_workers=None if think_workers is None else int(think_workers),
            strong_seconds=strong_seconds,
        )

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
                "(see .env.example), or try `python -m bot play gridcannon` without one."
            )
        return self.token


def _number(env: dict[str, str], name: str, default: float | None, *, least: float, most: float, unit: str,
            whole: bool = False) -> float | None:
    """A numeric setting, refused (one line naming it and its range) unless a finite number
    from ``least`` to ``most``; the same rule for every numeric setting."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = float("nan")
    if not least <= value <= most:  # NaN fails both comparisons; inf and 1e308 fail the bound
        kind = "a whole number of" if whole else "a number of"
        raise ConfigError(f"{name} takes {kind} {unit} from {least:g} to {most:g}, not {text[:20]!r}.")
    return value


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``DECKHAND_SHARD_COUNT`` and ``DECKHAND_SHARD_IDS`` (``0,1`` or ``0-3`` or both mixed):
    (None, None) for one unsharded process; (count, None) for every shard in this process."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError("DECKHAND_SHARD_IDS needs DECKHAND_SHARD_COUNT (the number of shards in all).")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 10_000:
        raise ConfigError(f"DECKHAND_SHARD_COUNT takes a number of shards (1 or more), not {count_text[:20]!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: set[int] = set()
    for part in ids_text.replace(" ", ",").split(","):
        if not part:
            continue
        lo, dash, hi = part.partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise ConfigError(f"DECKHAND_SHARD_IDS takes shard ids like 0,1 or 0-3, not {part[:20]!r}.")
        first, last = int(lo), int(hi) if dash else int(lo)
        if not first <= last < count:
            raise ConfigError(f"DECKHAND_SHARD_IDS: shard ids run from 0 to {count - 1} "
                              f"(DECKHAND_SHARD_COUNT is {count}), not {part[:20]!r}.")
        ids.update(range(first, last + 1))
    if not ids:
        raise ConfigError("DECKHAND_SHARD_IDS names no shard.")
    return count, tuple(sorted(ids))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard a guild's events come on (Discord's rule); DMs come on shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count
