"""Which of Deckhand's languages a locale reads: Discord's (``interaction.locale``, ``guild_locale``)
or a POSIX one (the terminal's ``LANG``). A small mapping of its own, to be reconciled with the
rulebooks' ``language_of`` when both land."""

from __future__ import annotations

from bot.i18n import LANGUAGES

__all__ = ["LANGUAGE_NAMES", "language_of"]

LANGUAGE_NAMES = {"en": "English", "es": "español", "de": "Deutsch"}  # each as its speakers write it


def language_of(locale: object) -> str:
    """Deckhand's language for a Discord locale (``discord.Locale`` or its value) or a POSIX one
    (``de_DE.UTF-8``): ``es`` for ``es-ES`` and ``es-419``, ``de`` for ``de``, else ``en``."""
    value = str(getattr(locale, "value", locale) or "")
    lang = value.replace("_", "-").split(".")[0].split("-")[0].lower()
    return lang if lang in LANGUAGES else "en"
