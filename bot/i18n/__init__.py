"""Deckhand's message catalogues: one gettext ``.po`` file per language and domain, read with Babel.

English is the source language (the messages' ids); each other language has
``locales/<lang>/LC_MESSAGES/<domain>.po`` beside this file, and ``locales/<domain>.pot`` is the template
they are made from (``python -m bot i18n extract``, then ``python -m bot i18n update``). No compiled
``.mo`` file is kept: each ``.po`` is read with Babel's ``read_po`` when it is first asked for, once a process.
A message whose translation is empty or marked fuzzy is not served: the reader gets English.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).parent / "locales"
LANGUAGES: tuple[str, ...] = ("es", "de")  # besides English, the source
COMMANDS = "commands"  # the slash commands' domain: names, descriptions, option and choice names
DOMAINS: tuple[str, ...] = (COMMANDS,)

__all__ = ["COMMANDS", "DOMAINS", "LANGUAGES", "LOCALES", "catalog", "language_of", "messages", "po_path",
           "template_path", "translations"]


def language_of(locale: object) -> str:
    """The language Deckhand speaks to a reader: ``"en"``, ``"es"`` or ``"de"``, from a Discord
    locale (``es-ES``, ``es-419``, ``de``, a ``discord.Locale``) or a ``LANG`` value
    (``de_DE.UTF-8``); English for anything else (``C``, ``fr``, none).

    >>> language_of("es-419"), language_of("de_AT.UTF-8"), language_of("en-GB"), language_of(None)
    ('es', 'de', 'en', 'en')
    """
    text = str(getattr(locale, "value", locale) or "")
    base = text.split(".")[0].split("@")[0].replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else "en"


def template_path(domain: str, root: Path = LOCALES) -> Path:
    return root / f"{domain}.pot"


def po_path(lang: str, domain: str, root: Path = LOCALES) -> Path:
    return root / lang / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def catalog(lang: str, domain: str) -> Catalog:
    """The language's catalogue for the domain, as its ``.po`` file reads (read once a process); an
    empty one while the language has no file yet (``python -m bot i18n update`` makes it)."""
    if lang not in LANGUAGES or domain not in DOMAINS:
        raise ValueError(f"no catalogue for language {lang!r} and domain {domain!r}")
    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(locale=lang, domain=domain)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


@functools.cache
def messages(lang: str, domain: str) -> dict[tuple[str | None, str], str]:
    """(context, English) -> translation: the catalogue's translated messages, fuzzy ones left out."""
    return {(m.context, m.id): m.string for m in catalog(lang, domain)
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy}


@functools.cache
def translations(lang: str, domain: str) -> Translations:
    """The catalogue compiled in memory into gettext's form (``pgettext``, ``npgettext`` with the
    language's plural rule from Babel's locale data), for the texts that have plurals."""
    compiled = io.BytesIO()
    write_mo(compiled, catalog(lang, domain))  # fuzzy messages left out, as gettext does
    compiled.seek(0)
    return Translations(compiled, domain=domain)
