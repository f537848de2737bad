"""Draft ids: a picker's partial action too long for a custom_id is stored and named by one."""

from bot.store.base import new_draft_id

__all__ = ["new_draft_id"]
