"""Settings, read from the environment (and a ``.env`` file beside the working directory)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = Path("data") / "deckhand.sqlite3"


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
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database=Path(env.get("DECKHAND_DATABASE", "").strip() or DEFAULT_DB),
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=level,
            dev_guild=dev_guild,
            owner_ids=owner_ids,
            database_url=env.get("DATABASE_URL", "").strip() or None,
        )

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
                "(see .env.example), or try `python -m bot play gridcannon` without one."
            )
        return self.token
