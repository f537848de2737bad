"""The rulebooks and lessons in Spanish and German (``rules.<lang>.md``, ``lesson.<lang>.toml`` beside
each engine): every one there, shaped like the English, nothing left in English, the authors' credits
as they wrote them; the loader falls back to English; ``/game rules`` answers in the reader's language."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources

import pytest

from bot.engine.lessons import WORDS_FIELDS, has_lesson, lesson
from bot.engine.registry import GAME_IDS, spec
from bot.i18n import LANGUAGES, language_of

PAIRS = [(g, lang) for lang in LANGUAGES for g in GAME_IDS]

# The names, titles and licences of each game's credits, which stay as their authors wrote them.
CREDITED = {
    "gridcannon": ["Gridcannon", "Tom Francis"],
    "court_wars": ["Court Wars", "Kroc Camen", "Prenuntius", "CC BY 3.0"],
    "celestial_emperor": ["Warriors of the Celestial Emperor", "Game Poem 35", "Game Poems", "2010"],
    "knight_rogue_princess_dragon": ["The Knight, the Rogue, the Princess and the Dragon", "Game Poem 24",
                                     "Game Poems", "2010"],
    "cardchess2": ["Cardchess2"],
    "maginot_line": ["The Maginot Line", '"Complicated Free Card Game"', "Joshua Hysong", "Benjamin Wright",
                     "CC BY 3.0"],
}
# Words no Spanish or German sentence holds: found outside names, notation and bold or italic terms
# (variant names are typed as they are), they are English left over.
ENGLISH = re.compile(r"\b(the|and|with|your|which|when|then|must|may not|each|its|is|are|of)\b", re.I)


def _raw(game_id: str, name: str) -> str:
    return resources.files(f"bot.engine.{game_id}").joinpath(name).read_text(encoding="utf-8")


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) at each ``## `` heading, the part before the first one included (its heading
    the ``# `` title), nothing dropped."""
    parts = re.split(r"^## (.*)$", text, flags=re.M)
    title, _, intro = parts[0].strip().partition("\n")
    out = [(title, intro)]
    out += [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]
    return [(h, b.strip()) for h, b in out]


def _credits(sections: list[tuple[str, str]]) -> str:
    return sections[-1][1]  # the Credits section closes every rulebook


def _words(text: str, game_id: str) -> str:
    """The text without what is never translated: notation, links' addresses, bold and italic terms,
    the credited names, the card names."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"\*\*[^*]+\*\*|\*[^*\n]+\*", " ", text)
    for name in CREDITED[game_id] + [spec(game_id).title]:
        text = text.replace(name, " ")
    return text


def test_a_locale_is_one_of_three_languages() -> None:
    assert [language_of(x) for x in ("es-ES", "es-419", "de", "de_DE.UTF-8", "es_AR.UTF-8", "en-US", "en-GB",
                                      "fr", "pt-BR", "C", "C.UTF-8", "", None)] == \
        ["es", "es", "de", "de", "es", "en", "en", "en", "en", "en", "en", "en", "en"]


def test_an_unknown_language_reads_english() -> None:
    s = spec("court_wars")
    assert s.rules_text("fr") == s.rules_text("en") == s.rules_text() == _raw("court_wars", "rules.md")
    assert s.rules_text("../x") == s.rules_text()
    assert lesson("court_wars", "fr").lang == "en"
    assert lesson("court_wars", "fr").intro == lesson("court_wars").intro


@pytest.mark.parametrize(("game_id", "lang"), PAIRS)
def test_the_rulebook_is_translated_section_by_section(game_id: str, lang: str) -> None:
    name = f"rules.{lang}.md"
    assert resources.files(f"bot.engine.{game_id}").joinpath(name).is_file(), f"{game_id}/{name} is missing"
    english, translated = _sections(_raw(game_id, "rules.md")), _sections(_raw(game_id, name))
    assert len(translated) == len(english), [h for h, _ in translated]
    assert translated[0][0] == english[0][0] == f"# {spec(game_id).title}"  # the title as the authors wrote it
    for (head, body), (en_head, en_body) in zip(translated, english, strict=True):
        assert bool(body) == bool(en_body), f"{game_id}/{name}: section {head!r} is empty"
        assert head and en_head
        if en_body:
            assert body != en_body, f"{game_id}/{name}: section {head!r} is the English one"
            left = ENGLISH.findall(_words(body, game_id))
            assert not left, f"{game_id}/{name}: section {head!r} has English left: {left[:8]}"
    # The reader's sections: the same count and order as the English, each heading its own.
    s = spec(game_id)
    assert len(s.rules_sections(lang)) == len(s.rules_sections())
    assert (s.rules_sections(lang)[0][0] == s.title) == (s.rules_sections()[0][0] == s.title)  # an intro, or none


@pytest.mark.parametrize(("game_id", "lang"), PAIRS)
def test_the_markdown_keeps_its_shape(game_id: str, lang: str) -> None:
    """Numbered rulings keep their numbers, lists their items, and the card symbols are kept."""
    english, translated = _sections(_raw(game_id, "rules.md")), _sections(_raw(game_id, f"rules.{lang}.md"))
    for (head, body), (_, en_body) in zip(translated, english, strict=True):
        numbers = re.findall(r"^(\d+)\. ", body, flags=re.M)
        assert numbers == re.findall(r"^(\d+)\. ", en_body, flags=re.M), f"{game_id}: {head!r} numbering"
        assert len(re.findall(r"^\s*- ", body, flags=re.M)) == len(re.findall(r"^\s*- ", en_body, flags=re.M)), \
            f"{game_id}: {head!r} list items"
        for symbol in "♠♥♦♣":
            assert (symbol in body) == (symbol in en_body), f"{game_id}: {head!r} {symbol}"


@pytest.mark.parametrize(("game_id", "lang"), PAIRS)
def test_the_credits_stay_as_the_authors_wrote_them(game_id: str, lang: str) -> None:
    english = _credits(_sections(_raw(game_id, "rules.md")))
    translated = _credits(_sections(_raw(game_id, f"rules.{lang}.md")))
    for name in CREDITED[game_id]:
        assert name in english  # the list above is the English credits' own
        assert name in translated, f"{game_id}/rules.{lang}.md: credits lost {name!r}"
    for link in re.findall(r"\]\(([^)]+)\)|(https?://\S+)", english):
        assert "".join(link) in translated


@pytest.mark.parametrize(("game_id", "lang"), [(g, lang) for g, lang in PAIRS if has_lesson(g)])
def test_the_lesson_words_follow_the_lesson(game_id: str, lang: str) -> None:
    name = f"lesson.{lang}.toml"
    assert resources.files(f"bot.engine.{game_id}").joinpath(name).is_file(), f"{game_id}/{name} is missing"
    data, words = tomllib.loads(_raw(game_id, "lesson.toml")), tomllib.loads(_raw(game_id, name))
    assert set(words) == {"intro", "summary", "step"}, "only the lesson's words: the moves stay in lesson.toml"
    assert len(words["step"]) == len(data["step"])
    assert len(words["summary"]) == len(data["summary"])
    assert all(set(step) == set(WORDS_FIELDS) for step in words["step"])
    english, translated = lesson(game_id), lesson(game_id, lang)
    assert translated.lang == lang
    assert (translated.seed, translated.players, translated.options, translated.seat) == \
        (english.seed, english.players, english.options, english.seat)
    assert [s.moves for s in translated.steps] == [s.moves for s in english.steps]
    assert [s.rule for s in translated.steps] == [s.rule for s in english.steps]
    texts = [(translated.intro, english.intro)] + list(zip(translated.summary, english.summary, strict=True))
    texts += [(t.say, e.say) for t, e in zip(translated.steps, english.steps, strict=True)]
    for text, en in texts:
        assert text and text != en, f"{game_id}/{name}: {en[:60]!r} not translated"
        left = ENGLISH.findall(_words(text, game_id))
        assert not left, f"{game_id}/{name}: English left in {text[:60]!r}: {left[:8]}"
    assert all(1 <= len(s.say.split(". ")) <= 3 for s in translated.steps)  # a sentence or two, as in English
    # Each step links the section at the English one's place, by its heading in the lesson's language.
    heads, en_heads = [h for h, _ in spec(game_id).rules_sections(lang)], [h for h, _ in spec(game_id).rules_sections()]
    for t, e in zip(translated.steps, english.steps, strict=True):
        assert heads.index(t.section) == en_heads.index(e.section)
        assert spec(game_id).section_index(t.section, lang) == spec(game_id).section_index(e.section, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_section_is_found_by_number_or_by_heading_in_either_language(lang: str) -> None:
    s = spec("gridcannon")
    for i, ((head, _), (en_head, _)) in enumerate(zip(s.rules_sections(lang), s.rules_sections(), strict=True)):
        assert s.section_index(str(i + 1), lang) == i
        assert s.section_index(head.upper(), lang) == i
        assert s.section_index(en_head, lang) == i
    assert s.section_index("0", lang) is None and s.section_index("nowhere", lang) is None


async def test_game_rules_answers_a_spanish_reader_in_spanish(standin, bot) -> None:
    ana = standin.user(name="ana")
    s = spec("court_wars")
    es, en = s.rules_sections("es"), s.rules_sections()
    offered = await standin.autocomplete(bot, "game rules", {"game": "court_wars", "section": ""}, focused="section",
                                         user=ana, locale="es-ES")
    assert [c["name"] for c in offered] == [h for h, _ in es]
    assert [c["value"] for c in offered] == [str(i) for i in range(1, len(es) + 1)]  # chosen by place, not by words
    rulings = next(i for i, (h, _) in enumerate(en) if h == "Rulings")
    res = await standin.slash(bot, "game rules", {"game": "court_wars", "section": str(rulings + 1)}, user=ana,
                              locale="es-ES")
    assert res.ephemeral and res.embed["title"] == f"Court Wars — {es[rulings][0]}"
    assert es[rulings][1].split()[1] in res.embed["description"] and "Kroc Camen" in json.dumps(res.embed)
    latin = await standin.slash(bot, "game rules", {"game": "court_wars", "section": es[1][0]}, user=ana,
                                locale="es-419")  # a heading typed in Spanish
    assert latin.embed["title"] == f"Court Wars — {es[1][0]}"
    english = await standin.slash(bot, "game rules", {"game": "court_wars", "section": en[1][0]}, user=ana)
    assert english.embed["title"] == f"Court Wars — {en[1][0]}"
    overview = await standin.slash(bot, "game rules", {"game": "court_wars"}, user=ana, locale="es-ES")
    fields = {f["name"]: f["value"] for f in overview.embed["fields"]}
    assert any(value == ", ".join(h for h, _ in es) for value in fields.values())
    assert overview.embed["description"].split()[:6] == es[0][1].split()[:6]  # the rulebook's own opening
    assert (await standin.slash(bot, "game rules", {"game": "court_wars"}, user=ana)).embed["description"] == s.summary


def test_the_terminal_shows_the_rules_in_the_language_asked_or_the_environments() -> None:
    from tests.test_cli import run_cli

    s = spec("gridcannon")
    es, en = s.rules_sections("es"), s.rules_sections()
    setup = next(i for i, (h, _) in enumerate(en) if h == "Setup")
    first_words = " ".join(" ".join(es[setup][1].split()).replace("**", "").split()[:6])
    plain = {"COLUMNS": "100", "LC_ALL": "", "LC_MESSAGES": ""}
    asked = run_cli("play", "gridcannon", "--seed", "3", "--lang", "es",
                    stdin=f"rules\nrules {es[setup][0]}\nrules Setup\nrules {setup + 1}\nquit\n", env=plain | {"LANG": "C"})
    assert asked.returncode == 0, asked.stderr
    text = " ".join(asked.stdout.split())
    assert all(f"{i}. {h}" in text for i, (h, _) in enumerate(es, 1))
    assert text.count(first_words) == 3  # by its Spanish heading, its English one and its number
    from_env = run_cli("play", "gridcannon", "--seed", "3", stdin=f"rules {setup + 1}\nquit\n",
                       env=plain | {"LANG": "es_ES.UTF-8"})
    assert first_words in " ".join(from_env.stdout.split())
    english = run_cli("play", "gridcannon", "--seed", "3", "--lang", "en", stdin=f"rules {setup + 1}\nquit\n",
                      env=plain | {"LANG": "es_ES.UTF-8"})
    assert first_words not in " ".join(english.stdout.split())
    assert " ".join(en[setup][1].split()[:6]).replace("**", "") in " ".join(english.stdout.split()).replace("**", "")


def test_the_terminal_language_is_the_option_else_the_environments(monkeypatch) -> None:
    from bot.terminal import terminal_language

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert terminal_language() == "en"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert terminal_language() == "de" and terminal_language("es") == "es"
    monkeypatch.setenv("LC_ALL", "es_MX.UTF-8")  # LC_ALL before LANG, as every POSIX program reads them
    assert terminal_language() == "es"


def test_a_spanish_lesson_in_the_terminal_links_its_sections_in_spanish() -> None:
    from bot.lesson_terminal import learn_terminal
    from tests.test_cli import Script

    term = Script(answer=lambda prompt: "")
    les = lesson("court_wars", "es")
    walk = learn_terminal("court_wars", term.read, term.write, width=100, lang="es")
    assert walk.finished and walk.lesson.lang == "es"
    out = " ".join(term.out.split())
    assert " ".join(les.intro.split()[:6]) in out and " ".join(les.steps[0].say.split()[:6]) in out
    assert f"`rules {les.steps[0].section}`" in out and les.steps[0].section == "Preparación"
