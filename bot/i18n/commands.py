"""The slash commands in the players' languages: a discord.py ``Translator`` answering from the
``commands`` catalogues, and the walk of the command tree that says which texts it is asked for.

Each text's gettext context says where it stands, so one English word can read differently where it
means something else (``pass`` in Cardchess2 is "do nothing", in The Knight, the Rogue… "hand on"):

- a top-level command's name: ``/``; a subcommand's name: its parent, ``/game`` or ``/cardchess2``;
- an option's name: ``option``; a choice's name: ``choice``;
- descriptions: no context (a sentence means one thing wherever it stands).

Game titles (the ``game`` options' choices) and the game groups' names (``/court-wars``) stay as the
authors wrote them: they are not in the template, so no language translates them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import COMMANDS, LANGUAGES, messages

# Discord's locales and the catalogue each is served from (Latin American Spanish reads Spain's).
LANGUAGE_OF: dict[discord.Locale, str] = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.german: "de",
}
assert set(LANGUAGE_OF.values()) == set(LANGUAGES)

NAMES = (Where.command_name, Where.group_name, Where.parameter_name, Where.choice_name)
NAME_LIMIT, DESCRIPTION_LIMIT = 32, 100  # Discord's: names 1-32 characters, lowercase; descriptions 1-100


def message_context(where: Where, data: Any) -> str | None:
    """The gettext context of a text of the command tree (see the module's note)."""
    if where in (Where.command_name, Where.group_name):
        parent = data.parent
        return f"/{parent.qualified_name}" if parent is not None else "/"
    if where is Where.parameter_name:
        return "option"
    if where is Where.choice_name:
        return "choice"
    return None


@dataclass(frozen=True)
class Text:
    """One text of the command tree: its English, its context, where it stands, whether a name."""

    english: str
    context: str | None
    place: str  # "/game new · option game"
    is_name: bool


def tree_texts(commands: Iterable[app_commands.Command | app_commands.Group], *, keep_names: frozenset[str],
               keep_choices: frozenset[str | int | float]) -> Iterator[Text]:
    """Every text a translator is asked for when the tree is synced, in the tree's order, less the
    ones kept as written: top-level names in ``keep_names`` and choices whose value is in ``keep_choices``."""

    def text(where: Where, data: Any, english: str, place: str) -> Text:
        return Text(english, message_context(where, data), place, where in NAMES)

    def walk(command: app_commands.Command | app_commands.Group) -> Iterator[Text]:
        path = f"/{command.qualified_name}"
        group = isinstance(command, app_commands.Group)
        if not (command.parent is None and command.name in keep_names):
            yield text(Where.group_name if group else Where.command_name, command, command.name, path)
        yield text(Where.group_description if group else Where.command_description, command, command.description,
                   path)
        if group:
            for sub in command.commands:
                yield from walk(sub)
            return
        for param in command.parameters:
            where = f"{path} · option {param.display_name}"
            yield text(Where.parameter_name, param, param.display_name, where)
            yield text(Where.parameter_description, param, param.description, where)
            for choice in param.choices:
                if choice.value not in keep_choices:
                    yield text(Where.choice_name, choice, choice.name, f"{where} · choice {choice.value}")

    for command in commands:
        yield from walk(command)


class CommandTranslator(app_commands.Translator):
    """Names, descriptions and choices of the slash commands in Spanish and German, from the
    catalogues; anything else (another language, a text not translated) is None: Discord shows English."""

    def __init__(self) -> None:
        self.table: dict[str, dict[tuple[str | None, str], str]] = {}

    async def load(self) -> None:
        self.table = {lang: messages(lang, COMMANDS) for lang in LANGUAGES}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = LANGUAGE_OF.get(locale)
        if lang is None or context.location is Where.other:
            return None
        return self.table[lang].get((message_context(context.location, context.data), string.message))
