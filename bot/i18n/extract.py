"""``python -m bot i18n extract`` and ``update``: the commands' template made from the command tree,
the messages' template extracted from the code by Babel's extractor, and each template merged into
each language's ``.po`` file (Babel's ``Catalog`` and ``write_po``)."""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path
from typing import Iterable

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.i18n import COMMANDS, DOMAINS, LANGUAGES, LOCALES, MESSAGES, po_path, template_path
from bot.i18n.commands import DESCRIPTION_LIMIT, NAME_LIMIT, Text, tree_texts

PROJECT = "Deckhand"
WIDTH = 100  # the .po files' line width
TEMPLATE_HEADER = ("# Deckhand's slash commands: every command, option and choice name and description.\n"
                   "# Made from the command tree by `python -m bot i18n extract`; do not edit by hand.\n#")
LANGUAGE_HEADER = ("# Deckhand's slash commands in {language}. Keep the words of glossary.md beside this file;\n"
                   "# `python -m bot i18n update` brings in new texts from the template.\n#")
MESSAGES_HEADER = ("# Deckhand's messages: every word a player reads besides the slash commands (messages, buttons,\n"
                   "# refusals, the words in pictures). Extracted from the code by `python -m bot i18n extract`;\n"
                   "# do not edit by hand. A {name} in braces is filled in by the bot: keep it as it is.\n#")
MESSAGES_LANGUAGE_HEADER = ("# Deckhand's messages in {language}. Keep the words of glossary.md beside this file and every\n"
                            "# {{placeholder}} as it is; `python -m bot i18n update` brings in new texts from the template.\n#")
PLACES_SHOWN = 4  # a text used in many places lists the first few
# The calls the extractor finds: the engines' ``say``/``say_n`` (bot.engine.words) and the render and
# Discord layers' ``Words.t``/``n``/``tp`` (bot.i18n); and the help text of each variant and setting a
# game declares (bot.engine.options: ``variant(name, help)``, ``setting(default, lo, hi, help)``,
# ``choice(default, values, help)``), said where it is shown (``/game new``, ``/game rules``).
KEYWORDS = {"say": None, "say_n": (1, 2), "t": None, "n": (1, 2), "tp": ((1, "c"), 2),
            "variant": (2,), "setting": (4,), "choice": (3,)}
SOURCE = Path(__file__).resolve().parent.parent  # the bot package
TRANSLATOR_TAG = "TRANSLATORS:"  # a comment so begun, just above a call, is shown to the translator

__all__ = ["KEYWORDS", "command_template", "extract", "extract_messages", "kept_as_written", "message_template",
           "same_messages", "speaking_files", "tree_commands", "update"]


def kept_as_written() -> tuple[frozenset[str], frozenset[str]]:
    """The game groups' names and the game choices' values: game names stay as their authors wrote them."""
    from bot.engine.registry import GAME_IDS, specs

    return frozenset(s.command for s in specs()), frozenset(GAME_IDS)


def command_template(commands: Iterable) -> Catalog:
    """The template of every text of these slash commands (a message per text and context, each with
    where it stands and Discord's limit for it as comments for the translator)."""
    names, choices = kept_as_written()
    places: dict[tuple[str | None, str], list[Text]] = {}
    for text in tree_texts(commands, keep_names=names, keep_choices=choices):
        places.setdefault((text.context, text.english), []).append(text)
    template = Catalog(domain=COMMANDS, project=PROJECT, fuzzy=False, header_comment=TEMPLATE_HEADER)
    for (context, english), texts in places.items():
        if texts[0].is_name:
            rule = f"a name: lowercase, no spaces, 1-{NAME_LIMIT} characters, unlike its siblings'"
        else:
            rule = f"a description: 1-{DESCRIPTION_LIMIT} characters"
        shown = [t.place for t in texts[:PLACES_SHOWN]]
        if len(texts) > PLACES_SHOWN:
            shown.append(f"and {len(texts) - PLACES_SHOWN} more")
        template.add(english, context=context, auto_comments=[rule, *shown])
    return template


async def tree_commands() -> list:
    """The command tree of a bot that never connects: built and set up (cogs loaded) on a throwaway
    database, as ``python -m bot sync`` builds it."""
    from bot.app import DeckhandBot

    with tempfile.TemporaryDirectory(prefix="deckhand-i18n-") as folder:
        bot = DeckhandBot(Path(folder) / "tree.sqlite3", run_timeouts=False)
        async with bot:  # the bot's loop and start-up, then its close (login would do both online)
            await bot.setup_hook()
            return bot.tree.get_commands()


def same_messages(a: Catalog, b: Catalog) -> bool:
    """The same messages (ids, contexts, comments) in the same order; headers and dates aside."""
    def key(c: Catalog) -> list:
        return [(m.context, m.id, list(m.auto_comments)) for m in c if m.id]
    return key(a) == key(b)


def _write(path: Path, catalog: Catalog) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, ignore_obsolete=True, include_previous=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def _read(path: Path, lang: str | None = None, domain: str = COMMANDS) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def speaking_files(source: Path = SOURCE) -> list[Path]:
    """The modules that say things through the catalogue: those importing ``bot.engine.words`` or
    ``bot.i18n``, or asking a reader for its ``words`` (the extractor reads only them: another module's
    ``t(…)`` or ``say(…)`` is not a message); and the engines' modules declaring their options."""
    marks = ("from bot.engine.words import", "from bot.i18n import", "reader.words", "self.w.t(",
             "from bot.engine.options import", "from bot.engine import options")
    cogs = source.parent / "cogs"  # the Discord commands' answers, beside the bot package
    found = [p for p in source.rglob("*.py") if p.relative_to(source).as_posix() == "i18n/__init__.py"
             or ("i18n" not in p.relative_to(source).parts and any(m in p.read_text(encoding="utf-8") for m in marks))]
    if source == SOURCE and cogs.is_dir():
        found += [p for p in cogs.glob("*.py") if any(m in p.read_text(encoding="utf-8") for m in marks)]
    return found


def message_template(source: Path = SOURCE) -> Catalog:
    """The template of every message the code says through ``say``/``say_n`` (engines) and
    ``t``/``n``/``tp`` (renders, the Discord layer, the terminal), found by Babel's Python extractor;
    each message with the files and lines it stands on, and the comments left for translators."""
    template = Catalog(domain=MESSAGES, project=PROJECT, fuzzy=False, header_comment=MESSAGES_HEADER)
    found = []
    for path in sorted(speaking_files(source)):
        for lineno, message, comments, context in extract_from_file(
                "python", path, keywords=KEYWORDS, comment_tags=(TRANSLATOR_TAG,), strip_comment_tags=True):
            found.append((path.relative_to(source.parent).as_posix(), lineno, message, comments, context))
    for filename, lineno, message, comments, context in found:
        where = (filename, lineno)
        if isinstance(message, tuple | list):
            message = tuple(message)
        known = template.get(message if isinstance(message, str) else message[0], context=context)
        if known is not None:
            known.locations.append(where)
            known.auto_comments.extend(c for c in comments if c not in known.auto_comments)
            continue
        template.add(message, locations=[where], auto_comments=comments, context=context,
                     flags=("python-brace-format",) if "{" in (message if isinstance(message, str) else message[0])
                     else ())
    return template


def _same_messages(a: Catalog, b: Catalog) -> bool:
    """The same messages, plural forms and comments (places and dates aside: lines move as code changes)."""
    def key(c: Catalog) -> list:
        return sorted(((m.context or "", str(m.id), list(m.auto_comments)) for m in c if m.id))
    return key(a) == key(b)


def _fresh(domain: str) -> Catalog:
    return command_template(asyncio.run(tree_commands())) if domain == COMMANDS else message_template()


def extract_messages(*, check: bool = False, root: Path = LOCALES) -> tuple[bool, Path]:
    """:func:`extract` of the messages' template alone (no command tree to build)."""
    return _extract(MESSAGES, check, root)


def _extract(domain: str, check: bool, root: Path) -> tuple[bool, Path]:
    path = template_path(domain, root)
    fresh = _fresh(domain)
    same = same_messages if domain == COMMANDS else _same_messages
    if path.exists() and same(_read(path, domain=domain), fresh):
        return False, path
    if not check:
        _write(path, fresh)
    return True, path


def extract(*, check: bool = False, root: Path = LOCALES, domain: str = COMMANDS) -> tuple[bool, Path]:
    """Write the domain's template (the commands' from the tree, the messages' from the code);
    ``(changed, path)``. An unchanged template is not rewritten (its date stays). ``check``: write
    nothing, only say whether it is stale."""
    return _extract(domain, check, root)


def update(langs: Iterable[str] = LANGUAGES, root: Path = LOCALES,
           domains: Iterable[str] = DOMAINS) -> list[tuple[str, Path, int, int]]:
    """Merge each domain's template into each language's ``.po`` (made if missing): new texts come in
    empty (or fuzzy, with a guess from a near text), texts gone from the template are dropped,
    translations kept. Returns ``(lang, path, messages, untranslated)`` per language and domain."""
    report = []
    for domain in domains:
        tpath = template_path(domain, root)
        if not tpath.exists():
            continue
        template = _read(tpath, domain=domain)
        for lang in langs:
            path = po_path(lang, domain, root)
            if path.exists():
                catalog = _read(path, lang, domain)
            else:
                catalog = Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False, language_team=lang)
                header = LANGUAGE_HEADER if domain == COMMANDS else MESSAGES_LANGUAGE_HEADER
                catalog.header_comment = header.format(language=catalog.locale.english_name)
            catalog.update(template, update_creation_date=False)
            _write(path, catalog)
            entries = [m for m in catalog if m.id]
            untranslated = sum(1 for m in entries if not m.string or m.fuzzy
                               or (isinstance(m.string, tuple) and not all(m.string)))
            report.append((lang, path, len(entries), untranslated))
    return report
