"""Rows for the store tests."""

from __future__ import annotations

from bot.store import Seat, TableRow


def row(channel: int = 1, rev: int = 1, **kw) -> TableRow:
    base = dict(channel_id=channel, guild_id=None, game="gridcannon", status="lobby", host_id=7,
                seats=[Seat(7, "Ana")], options=["No Jokers"], seed=42, revision=rev)
    base.update(kw)
    return TableRow(**base)


def playing(channel: int = 1, rev: int = 1, since: float = 1000.0, limit: int = 60, **kw) -> TableRow:
    return row(channel, rev, status="playing", state={"game": "gridcannon", "turn": 0}, turn_since=since,
               turn_limit=limit, **kw)
