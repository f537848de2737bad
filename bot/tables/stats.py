"""Stats: games played, won and lost per player and game, ranked so one lucky game cannot top the board."""

from __future__ import annotations

import math
from typing import Any


class Stats:
    """Stats (a mixin of :class:`~bot.tables.service.TableService`)."""

    # ----- stats -----------------------------------------------------------------------
    async def stats(self, guild_id: int | None, game: str | None = None, user_id: int | None = None) -> list[dict[str, Any]]:
        rows = await self.store.stats(guild_id, game, user_id)
        for r in rows:
            r["rating"] = wilson_lower_bound(r["won"], r["played"])
        rows.sort(key=lambda r: (r["game"], -r["rating"], -r["played"], r["name"]))
        return rows



def wilson_lower_bound(wins: int, games: int, z: float = 1.96) -> float:
    """A win rate that one lucky game cannot top: the 95% Wilson score lower bound."""
    if games == 0:
        return 0.0
    p = wins / games
    denom = 1 + z * z / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / denom


