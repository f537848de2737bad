"""Which of Deckhand's languages a locale reads: Discord's (``interaction.locale``, ``guild_locale``)
or a POSIX one (the terminal's ``LANG``): ``language_of``, kept in ``bot.i18n``, and each language's own
name."""

from __future__ import annotations

from bot.i18n import language_of

__all__ = ["LANGUAGE_NAMES", "language_of"]

LANGUAGE_NAMES = {"en": "English", "es": "español", "de": "Deutsch"}  # each as its speakers write it
