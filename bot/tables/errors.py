"""Refusals of the table service."""

from __future__ import annotations

STALE = "That table has moved on since this was posted: use the newest table message (or press **Show table**)."


class TableError(Exception):
    """A refusal to show the user (ephemerally); nothing was changed."""


class AlreadyHandled(Exception):
    """The press was handled already (Discord delivered it twice): nothing was written; say nothing."""


class StaleError(TableError):
    """A button or picker of a revision (or a table) that has moved on: refused, nothing changed."""

    def __init__(self, message: str = STALE):
        super().__init__(message)
