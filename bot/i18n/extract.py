"""``python -m bot i18n extract`` and ``update``: the commands' template made from the command tree,
and the template merged into each language's ``.po`` file (Babel's ``Catalog`` and ``write_po``)."""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path
from typing import Iterable

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.i18n import COMMANDS, LANGUAGES, LOCALES, po_path, template_path
from bot.i18n.commands import DESCRIPTION_LIMIT, NAME_LIMIT, Text, tree_texts

PROJECT = "Deckhand"
WIDTH = 100  # the .po files' line width
TEMPLATE_HEADER = ("# Deckhand's slash commands: every command, option and choice name and description.\n"
                   "# Made from the command tree by `python -m bot i18n extract`; do not edit by hand.\n#")
LANGUAGE_HEADER = ("# Deckhand's slash commands in {language}. Keep the words of glossary.md beside this file;\n"
                   "# `python -m bot i18n update` brings in new texts from the template.\n#")
PLACES_SHOWN = 4  # a text used in many places lists the first few

__all__ = ["command_template", "extract", "kept_as_written", "same_messages", "tree_commands", "update"]


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


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=COMMANDS)


def extract(*, check: bool = False, root: Path = LOCALES) -> tuple[bool, Path]:
    """Write the commands' template from the tree; ``(changed, path)``. An unchanged template is not
    rewritten (its date stays). ``check``: write nothing, only say whether it is stale."""
    path = template_path(COMMANDS, root)
    fresh = command_template(asyncio.run(tree_commands()))
    if path.exists() and same_messages(_read(path), fresh):
        return False, path
    if not check:
        _write(path, fresh)
    return True, path


def update(langs: Iterable[str] = LANGUAGES, root: Path = LOCALES) -> list[tuple[str, Path, int, int]]:
    """Merge the template into each language's ``.po`` (made if missing): new texts come in empty (or
    fuzzy, with a guess from a near text), texts gone from the template are dropped, translations kept.
    Returns ``(lang, path, messages, untranslated)`` per language."""
    template = _read(template_path(COMMANDS, root))
    report = []
    for lang in langs:
        path = po_path(lang, COMMANDS, root)
        if path.exists():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=COMMANDS, project=PROJECT, fuzzy=False, language_team=lang)
            catalog.header_comment = LANGUAGE_HEADER.format(language=catalog.locale.english_name)
        catalog.update(template, update_creation_date=False)
        _write(path, catalog)
        entries = [m for m in catalog if m.id]
        untranslated = sum(1 for m in entries if not m.string or m.fuzzy)
        report.append((lang, path, len(entries), untranslated))
    return report
