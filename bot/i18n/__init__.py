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
MESSAGES = "messages"  # every other word a player reads: messages, buttons, refusals, pictures' words
DOMAINS: tuple[str, ...] = (COMMANDS, MESSAGES)

__all__ = ["COMMANDS", "DOMAINS", "LANGUAGES", "LOCALES", "MESSAGES", "Words", "catalog", "language_of", "messages",
           "po_path", "template_path", "translations", "words"]


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


def words(lang: str | None) -> "Words":
    """The words of one language (an unsupported one, or ``None``: English). One object a language."""
    return _words(lang if lang in LANGUAGES else "en")


@functools.cache
def _words(lang: str) -> "Words":
    return Words(lang)


class Words:
    """Gettext-style calls for one language (``words("de")``). The English text is the message id itself.

    ``t(msg, **kw)`` a message with named placeholders; ``n(single, plural, n, **kw)`` one with plural
    forms (the language's rule; ``{n}`` is the count); ``tp(context, msg)`` one told apart by a context;
    ``num(x)`` a number and ``list(items)`` a list as the language writes them; ``card(code)`` a card's
    name (the glossary's ranks); ``say(text)`` an engine's :class:`~bot.engine.words.Phrase` (or plain
    text) in this language, a :class:`~bot.engine.words.Typed` (a person's words) as written;
    ``line(text)`` the same, begun with a capital (a log line).
    Placeholder values are said in the language too (a phrase, a card, a list, a number); a plain text is put
    in as it is (a name someone typed, a cell, a slot), never looked up.
    ``python -m bot i18n extract`` finds the calls ``t``, ``n`` and ``tp``.
    """

    def __init__(self, lang: str):
        self.lang = lang
        self.english = lang == "en"
        self._tr = None if self.english else translations(lang, MESSAGES)
        self._locale = "en" if self.english else lang

    def _fill(self, template: str, kw: dict) -> str:
        if not kw:
            return template
        # a plain text value is language-neutral (a name someone typed, a cell, a slot): never looked up
        return template.format(**{k: v if type(v) is str else self.say(v) for k, v in kw.items()})

    def t(self, msg: str, /, **kw: object) -> str:
        return self._fill(msg if self._tr is None else self._tr.gettext(msg), kw)

    def n(self, single: str, plural: str, n: int, /, **kw: object) -> str:
        found = (single if n == 1 else plural) if self._tr is None else self._tr.ngettext(single, plural, n)
        return self._fill(found, {"n": n, **kw})

    def tp(self, context: str, msg: str, /, **kw: object) -> str:
        return self._fill(msg if self._tr is None else self._tr.pgettext(context, msg), kw)

    def num(self, x: float) -> str:
        if self.english:
            return str(x)
        from babel.numbers import format_decimal

        return format_decimal(x, locale=self._locale)

    def list(self, items, style: str = "standard") -> str:
        """``style``: Babel's ``standard`` (and) or ``or``."""
        items = [x if type(x) is str else self.say(x) for x in items]  # a plain text as it is (a name)
        if self.english:
            if not items:
                return ""
            sep = " or " if style == "or" else " and "
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + sep + items[-1]
        from babel.lists import format_list

        return format_list(items, style=style, locale=self._locale)

    def card(self, code: str | None) -> str:
        from bot.engine.cards import pretty

        if not code:
            return "—"
        english = pretty(code)
        if self.english or code.startswith("JK") or code[0] not in "AJQK":
            return english
        ranks = {"A": self.tp("card rank", "A"), "J": self.tp("card rank", "J"), "Q": self.tp("card rank", "Q"),
                 "K": self.tp("card rank", "K")}  # the glossary's ranks (German: B for J, D for Q)
        return ranks[code[0]] + english[1:]

    def say(self, text: object) -> str:
        """An engine's words in this language: a phrase translated with its arguments said too, a card
        by this language's name, a list as the language lists, a number as it writes numbers."""
        from bot.engine.words import CardName, Many, Phrase, Typed

        if self.english or isinstance(text, Typed):  # (what a person wrote: as written)
            return str(text)
        if isinstance(text, Phrase):
            if text.plural is not None:
                return self.n(text.msgid, text.plural, text.args.get("n", 0),
                              **{k: v for k, v in text.args.items() if k != "n"})
            return self.t(text.msgid, **text.args)
        if isinstance(text, CardName):
            return self.card(text.code)
        if isinstance(text, Many):
            joined = text.joined.strip()
            if joined in ("and", "or"):  # as this language lists things ("T1, T2 o T3")
                return self.list(text.items, "standard" if joined == "and" else "or")
            return text.joined.join(x if type(x) is str else self.say(x) for x in text.items)
        if isinstance(text, bool):
            return str(text)
        if isinstance(text, int | float):
            return self.num(text)
        text = str(text)
        if not text:  # nothing to say (gettext's "" is the catalogue's header)
            return text
        # plain text: a message without placeholders is still looked up (a line an older state wrote)
        return text if not text or "{" in text or self._tr is None else self._tr.gettext(text)  # ("": the header)

    def line(self, text: object) -> str:
        said = self.say(text)
        return said[0].upper() + said[1:] if said[:1].islower() else said
