"""`python -m bot i18n extract` and `update`: the template from the command tree, merged into each
language's .po (translations kept, new texts empty, texts gone dropped)."""

from __future__ import annotations

import shutil

import pytest
from babel.messages.pofile import read_po

from bot.__main__ import main, parser
from bot.i18n import COMMANDS, LANGUAGES, LOCALES, po_path, template_path
from bot.i18n.extract import extract, update


def test_committed_template_is_up_to_date(capsys):
    assert main(["i18n", "extract", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_extract_writes_a_missing_template_and_leaves_a_fresh_one_alone(tmp_path):
    changed, path = extract(root=tmp_path)
    assert changed and path == template_path(COMMANDS, tmp_path)
    assert path.read_bytes().count(b"msgid ") == template_path(COMMANDS).read_bytes().count(b"msgid ")
    before = path.read_bytes()
    assert extract(root=tmp_path) == (False, path)
    assert path.read_bytes() == before


def _po(root, lang):
    with po_path(lang, COMMANDS, root).open("rb") as f:
        return read_po(f, locale=lang)


def test_update_keeps_translations_brings_new_texts_and_drops_gone_ones(tmp_path):
    root = tmp_path / "locales"
    shutil.copytree(LOCALES, root)
    es = po_path("es", COMMANDS, root)
    text = es.read_text()
    # a text the tree no longer has, and one of the tree's texts missing from the file
    text = text.replace('msgctxt "/game"\nmsgid "hint"\nmsgstr "pista"\n',
                        'msgctxt "/game"\nmsgid "hint-gone"\nmsgstr "pista"\n')
    es.write_text(text)
    report = update(["es"], root=root, domains=[COMMANDS])
    assert [(lang, count, todo) for lang, _, count, todo in report] == \
        [("es", len([m for m in _po(LOCALES, "es") if m.id]), 1)]
    merged = _po(root, "es")
    assert merged.get("hint-gone", context="/game") is None
    back = merged.get("hint", context="/game")
    assert back is not None and (not back.string or back.fuzzy)  # to translate again (fuzzy: a guess)
    assert merged.get("join", context="/game").string == "unirse"  # translations kept


def test_update_makes_a_new_language_file(tmp_path):
    root = tmp_path / "locales"
    root.mkdir()
    shutil.copy(template_path(COMMANDS), template_path(COMMANDS, root))
    (_, path, count, todo), = update(["de"], root=root, domains=[COMMANDS])
    assert path.exists() and count == todo > 200
    assert "nplurals=2" in path.read_text()  # German's plural rule, from Babel's locale data


def test_update_refuses_an_unknown_language(capsys):
    assert main(["i18n", "update", "--lang", "fr"]) == 2
    assert "--lang takes one of es, de" in capsys.readouterr().err


def test_help_says_which_files_a_translator_edits(capsys):
    with pytest.raises(SystemExit):
        parser().parse_args(["i18n", "--help"])
    out = capsys.readouterr().out
    assert "LC_MESSAGES/commands.po" in out and "extract" in out and "update" in out
    assert set(LANGUAGES) == {"es", "de"}
