"""Refusals of the table service."""

from __future__ import annotations

STALE = "That table has moved on since this was posted: use the newest table message (or press **Show table**)."


class TableError(Exception):
    """A refusal to show the user (ephemerally); nothing was changed. ``str()`` is the refusal as given:
    an engine's phrase stays one (the Discord layer says it in the reader's language)."""

    def __str__(self) -> str:
        return self.args[0] if len(self.args) == 1 and isinstance(self.args[0], str) else super().__str__()


class AlreadyHandled(Exception):
    """The press was handled already (Discord delivered it twice): nothing was written; say nothing."""


class StaleError(TableError):
    """A button or picker of a revision (or a table) that has moved on: refused, nothing changed."""

    def __init__(self, message: str = STALE):
        super().__init__(message)
