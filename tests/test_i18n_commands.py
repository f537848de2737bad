"""The slash commands in Spanish and German: the payload `python -m bot sync` sends carries each
language's names and descriptions within Discord's limits, the catalogues are complete, and the
template is what the command tree has."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.app import sync_commands
from bot.engine.registry import GAME_IDS, specs
from bot.i18n import COMMANDS, LANGUAGES, catalog, messages, po_path, template_path, translations
from bot.i18n.commands import LANGUAGE_OF, CommandTranslator
from bot.i18n.extract import _read, command_template, kept_as_written, same_messages

LOCALES = tuple(sorted(locale.value for locale in LANGUAGE_OF))  # Discord's locales served: es-ES, es-419, de
NAME = re.compile(r"[-_'\w]{1,32}")  # Discord's ^[-_'\p{L}\p{N}…]{1,32}$ (Python's \w is Unicode letters and digits)
GAME_GROUPS = {s.command for s in specs()}
TITLES = {s.title for s in specs()}
COMBINED = 4000  # Discord: names, descriptions and values of a command and all its options, per language


def _options(node: dict):
    yield from node.get("options", [])


def _check_names(siblings: list[dict], where: str) -> None:
    """Every sibling's name and description in every language, within Discord's limits, names unique."""
    for locale in LOCALES:
        names = [s.get("name_localizations", {}).get(locale, s["name"]) for s in siblings]
        assert len(set(names)) == len(names), f"{where}: two names alike in {locale}: {sorted(names)}"
    for s in siblings:
        place = f"{where} {s['name']}"
        if s["name"] in GAME_GROUPS and where == "/":
            assert not s.get("name_localizations"), f"{place}: a game's name stays as its authors wrote it"
        else:
            for locale in LOCALES:
                name = s.get("name_localizations", {}).get(locale)
                assert name, f"{place}: no {locale} name"
                assert NAME.fullmatch(name) and name == name.lower(), f"{place}: {name!r} is no Discord name"
        for locale in LOCALES:
            text = s.get("description_localizations", {}).get(locale)
            assert text and 1 <= len(text) <= 100, f"{place}: {locale} description {text!r}"
        for choice in s.get("choices", []):
            spot = f"{place} choice {choice['value']}"
            if choice["value"] in GAME_IDS:
                assert choice["name"] in TITLES and not choice.get("name_localizations"), \
                    f"{spot}: a game's title stays as its authors wrote it"
                continue
            for locale in LOCALES:
                name = choice.get("name_localizations", {}).get(locale)
                assert name and 1 <= len(name) <= 100, f"{spot}: {locale} name {name!r}"
        if s.get("choices"):
            for locale in LOCALES:
                names = [c.get("name_localizations", {}).get(locale, c["name"]) for c in s["choices"]]
                assert len(set(names)) == len(names), f"{place}: two choices alike in {locale}"
        children = list(_options(s))
        if children:
            _check_names(children, place)


def _combined(node: dict, locale: str | None) -> int:
    def pick(field: str) -> str:
        return (node.get(f"{field}_localizations") or {}).get(locale, node.get(field, "")) if locale else \
            node.get(field, "")
    size = len(pick("name")) + len(pick("description")) + (len(str(node["value"])) if "value" in node else 0)
    return size + sum(_combined(c, locale) for key in ("options", "choices") for c in node.get(key, []))


async def test_sync_payload_speaks_spanish_and_german(standin, bot):
    await sync_commands(bot, None)
    _guild, body = standin.command_puts[-1]
    assert len(body) == 8
    _check_names(body, "/")
    for command in body:
        for locale in LOCALES:
            size = _combined(command, locale)
            assert size <= COMBINED, f"/{command['name']} in {locale}: {size} characters (Discord allows {COMBINED})"
    game = next(c for c in body if c["name"] == "game")
    assert game["name_localizations"] == {"es-ES": "partida", "es-419": "partida", "de": "spiel"}
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["description_localizations"]["de"].startswith("Eröffne einen Tisch")
    # Latin American Spanish reads Spain's catalogue; no other language is offered.
    for command in body:
        assert set(command["description_localizations"]) == set(LOCALES)
        assert command["description_localizations"]["es-419"] == command["description_localizations"]["es-ES"]


async def test_translator_asks_only_what_the_template_has(standin, bot):
    """Every text the translator is asked for at sync is in the template, except the game names
    kept as written; every message of the template is asked for (none stale)."""
    asked: set[tuple[str | None, str]] = set()

    class Recording(CommandTranslator):
        async def translate(self, string, locale, context):
            from bot.i18n.commands import message_context

            asked.add((message_context(context.location, context.data), string.message))
            return await super().translate(string, locale, context)

    await bot.tree.set_translator(Recording())
    await sync_commands(bot, None)
    template = {(m.context, m.id) for m in _read(template_path(COMMANDS)) if m.id}
    groups, _values = kept_as_written()
    kept = {("/", g) for g in groups} | {("choice", t) for t in TITLES}
    assert asked - template == kept
    assert template <= asked


async def test_template_is_what_the_tree_has(standin, bot):
    fresh = command_template(bot.tree.get_commands())
    committed = _read(template_path(COMMANDS))
    assert same_messages(fresh, committed), "the template is stale: run python -m bot i18n extract, then update"
    ids = [m.id for m in committed if m.id]
    assert not set(ids) & TITLES, "game titles stay as their authors wrote them"
    assert not {(m.context, m.id) for m in committed if m.context == "/"} & {("/", g) for g in GAME_GROUPS}


def _placeholders(text: str) -> list[str]:
    """What a translation must carry over unchanged: {name} and %s/%(name)s placeholders, and code in
    backticks (the game's notation; a <metavariable> in it may be translated)."""
    found = re.findall(r"\{[^{}]*\}|%(?:\([^)]*\))?[sdif]", text)
    found += [re.sub(r"<[^>]*>", "<>", code) for code in re.findall(r"`[^`]*`", text)]
    return sorted(found)


def _command_paths(lang: str) -> dict[str, str]:
    """English '/game rules' -> the language's '/partida reglas', for the two-level commands."""
    table = messages(lang, COMMANDS)
    paths = {}
    for (context, english) in table:
        if context and context.startswith("/") and context != "/":
            parent = context[1:]
            top = table.get(("/", parent), parent)
            paths[f"/{parent} {english}"] = f"/{top} {table[(context, english)]}"
    return paths


def test_every_message_is_translated_with_its_placeholders():
    template = [m for m in _read(template_path(COMMANDS)) if m.id]
    assert len(template) > 200
    for lang in LANGUAGES:
        translated = messages(lang, COMMANDS)
        paths = _command_paths(lang)
        po = {(m.context, m.id) for m in catalog(lang, COMMANDS) if m.id}
        assert po == {(m.context, m.id) for m in template}, f"{lang}: the .po has stale or missing messages"
        for m in template:
            text = translated.get((m.context, m.id))
            assert text and text.strip(), f"{lang}: {m.context!r} {m.id!r} is not translated (or fuzzy)"
            assert _placeholders(text) == _placeholders(m.id), f"{lang}: {m.id!r} -> {text!r} changes a placeholder"
            for title in TITLES:
                if title in m.id:
                    assert title in text, f"{lang}: {text!r} must keep the title {title!r} as written"
            for ref in re.findall(r"/\w+ \w+", m.id):
                assert paths[ref] in text, f"{lang}: {text!r} should name {ref} as {paths[ref]}"


def test_compiled_catalogue_answers_as_the_po_reads():
    """The catalogue compiled in memory (gettext's form, with the language's plural rule) gives the
    same translations as the .po read directly."""
    for lang in LANGUAGES:
        compiled = translations(lang, COMMANDS)
        for (context, english), text in messages(lang, COMMANDS).items():
            got = compiled.pgettext(context, english) if context else compiled.gettext(english)
            assert got == text
        assert catalog(lang, COMMANDS).plural_forms.startswith("nplurals=")


async def test_translator_falls_back_to_english():
    translator = CommandTranslator()
    await translator.load()
    group = app_commands.Group(name="game", description="Card tables: start, join and play games.")
    where = app_commands.TranslationContext(app_commands.TranslationContextLocation.group_name, group)
    name = app_commands.locale_str("game")
    assert await translator.translate(name, discord.Locale.german, where) == "spiel"
    assert await translator.translate(name, discord.Locale.latin_american_spanish, where) == "partida"
    assert await translator.translate(name, discord.Locale.french, where) is None  # no French catalogue
    assert await translator.translate(app_commands.locale_str("no such text"), discord.Locale.german, where) is None
    other = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(name, discord.Locale.german, other) is None
    assert set(LANGUAGE_OF.values()) == set(LANGUAGES)
    assert {"es-ES", "es-419", "de"} <= set(LOCALES)


def _glossary(lang: str) -> dict[str, list[str]]:
    """The checked terms of a language's glossary.md (its first table): English -> the forms."""
    lines = (po_path(lang, COMMANDS).parent / "glossary.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| English |"))
    terms = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        english, forms = [cell.strip() for cell in line.strip("|").split("|")]
        terms[english] = [f.strip() for f in forms.split(",")]
    return terms


def _has(lang: str, form: str, text: str) -> bool:
    if lang == "de":  # German joins words: "Ressourcenkarte", "Geschichtenstoß"
        return form.lower() in text.lower()
    return re.search(rf"(?:^|[\W_]){re.escape(form)}", text, re.IGNORECASE) is not None


def test_the_glossary_words_are_used_everywhere():
    """Wherever a glossary term stands in an English text (a description, or a name), the translation
    uses the glossary's word for it."""
    template = [m for m in _read(template_path(COMMANDS)) if m.id]
    for lang in LANGUAGES:
        terms = _glossary(lang)
        assert len(terms) > 40 and "royal" in terms and "guard" in terms
        translated = messages(lang, COMMANDS)
        for m in template:
            english = m.id.replace("_", " ")
            for title in TITLES:
                english = english.replace(title, "")
            text = translated[(m.context, m.id)]
            for term, forms in terms.items():
                if re.search(rf"(?<![\w-]){re.escape(term)}(?:s|es)?(?![\w-])", english, re.IGNORECASE):
                    assert any(_has(lang, f, text) for f in forms), \
                        f"{lang}: {m.id!r} has {term!r} but {text!r} has none of {forms}"
