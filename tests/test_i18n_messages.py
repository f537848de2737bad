"""The messages' catalogue (every word a player reads besides the slash commands): complete in every
language, placeholders kept, said through ``bot.i18n.words``; engine phrases language-neutral in the
state and its JSON; a whole seeded game of each game that speaks them (Gridcannon, The Knight, the
Rogue…) in the terminal in Spanish and in German with no English message left."""

from __future__ import annotations

import io
import json
import random
import re
import string

import pytest
from babel.messages.pofile import read_po

from bot.__main__ import main
from bot.terminal import terminal_language
from bot.engine.registry import spec
from bot.engine.words import CardName, Many, Phrase, decode, encode, say, say_n
from bot.i18n import LANGUAGES, MESSAGES, catalog, po_path, template_path, words
from bot.i18n.lang import language_of
from bot.i18n.extract import SOURCE, message_template, speaking_files
from bot.render import renderer
from bot.terminal import play_terminal

FRAGMENT = 12  # a piece of a message this long (letters in it) is a sentence's worth of English


def _template():
    with template_path(MESSAGES).open("rb") as f:
        return read_po(f)


def _ids(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


def _strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# ----- the catalogue --------------------------------------------------------------------------
def test_the_committed_messages_template_is_what_the_code_says():
    fresh = {(m.context, tuple(_ids(m))) for m in message_template() if m.id}
    committed = {(m.context, tuple(_ids(m))) for m in _template() if m.id}
    assert fresh == committed, "run python -m bot i18n extract, then update"
    assert len(committed) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_not_fuzzy_with_the_same_placeholders(lang):
    template = _template()
    with po_path(lang, MESSAGES).open("rb") as f:
        translated = read_po(f, locale=lang)
    nplurals = translated.num_plurals
    for m in template:
        if not m.id:
            continue
        t = translated.get(_ids(m)[0], context=m.context)
        assert t is not None, f"{lang}: missing {m.id!r}"
        assert not t.fuzzy, f"{lang}: fuzzy {m.id!r}"
        forms = _strings(t)
        assert all(forms), f"{lang}: empty {m.id!r}"
        if isinstance(m.id, tuple | list):
            assert len(forms) == nplurals, f"{lang}: {m.id!r} needs {nplurals} plural forms"
        fields = set().union(*(_fields(i) for i in _ids(m)))
        for form in forms:
            assert _fields(form) == fields, f"{lang}: placeholders of {m.id!r} differ in {form!r}"


def test_the_extractor_reads_only_modules_that_speak_through_the_catalogue():
    names = {p.relative_to(SOURCE.parent).as_posix() for p in speaking_files()}
    assert {"bot/engine/gridcannon/rules.py", "bot/render/gridcannon.py", "bot/terminal.py", "bot/i18n/__init__.py",
            "cogs/tables.py"} <= names  # the cogs' answers too
    assert "bot/store/migrate.py" not in names  # its own ``t(…)`` is no message


# ----- the words of one language -------------------------------------------------------------
def test_words_numbers_lists_plurals_and_cards_as_each_language_writes_them():
    de, es, en = words("de"), words("es"), words("en")
    assert de.num(1000) == "1.000" and es.num(1234567) == "1.234.567" and en.num(1000) == "1000"
    assert es.n("{n} card", "{n} cards", 2) == "2 cartas" and de.n("{n} card", "{n} cards", 1) == "1 Karte"
    assert de.list(["r1c1", "r2c2", "r3c3"], "or") == "r1c1, r2c2 oder r3c3"
    assert es.list(["A", "B", "C"]) == "A, B y C" and en.list(["A", "B", "C"]) == "A, B and C"
    assert [de.card(c) for c in ("QH", "JS", "KD", "AC", "TD", "JK1")] == ["D♥", "B♠", "K♦", "A♣", "10♦", "🃏"]
    assert es.card("QH") == "Q♥" and en.card("QH") == "Q♥"
    assert words("fr") is en and words(None) is en  # an unsupported language reads English
    assert en.t("Draw.") == "Draw." and es.t("Draw.") == "Roba." and de.t("Draw.") == "Zieh."


def test_discord_and_posix_locales_map_to_the_bots_languages():
    assert [language_of(x) for x in ("es-ES", "es-419", "de", "en-US", "fr", "de_DE.UTF-8", "", None)] == \
        ["es", "es", "de", "en", "en", "de", "en", "en"]
    assert terminal_language("es") == "es" and terminal_language("xx") == "en"


def test_a_phrase_is_english_and_says_itself_in_another_language_with_its_arguments():
    royal = CardName("QH", "Q♥")
    line = say("{card} armours {royal} (health {health}).", card=CardName("7C", "7♣"), royal=royal, health=19)
    assert line == "7♣ armours Q♥ (health 19)." and isinstance(line, str)
    assert words("de").say(line) == "7♣ rüstet D♥ (Leben 19)."
    assert words("es").say(line) == "7♣ da armadura a Q♥ (vida 19)."
    slots = say("Place {card} at {slots}.", card=royal, slots=Many(["T1", "L2", "R3"], " or "))
    assert slots == "Place Q♥ at T1 or L2 or R3." and words("de").say(slots) == "Leg D♥ auf T1, L2 oder R3."
    counted = say_n("{n} card", "{n} cards", n=3)
    assert counted == "3 cards" and words("es").say(counted) == "3 cartas"
    assert decode(json.loads(json.dumps(encode(slots)))) == slots  # the JSON keeps everything
    assert words("de").say(decode(encode(slots))) == "Leg D♥ auf T1, L2 oder R3."
    from bot.engine.words import Typed as Written  # (this module's Typed is a terminal's typist)

    joined = say("{name} joined.", name=Written("Join"))  # a name a person typed: as typed, even a button's word
    assert words("es").say(decode(json.loads(json.dumps(encode(joined))))) == "Join se unió." != words("es").say("Join")
    plain = say("{name} joined.", name="Join")  # an engine's plain text placeholder (a player's name) too
    assert words("es").say(plain) == "Join se unió." and words("es").list(["Join", "Leave"]) == "Join y Leave"
    assert words("de").say(Many(["Join", CardName("QH", "Q♥")], "and")) == "Join und D♥"


# ----- records stay language-neutral ----------------------------------------------------------
# game id -> (players, options) of the seeded games played here in every language
TABLES = {"gridcannon": (["Ana"], []), "maginot_line": (["Ana", "Ben"], ["Mobile defence", "rounds=3"]),
          "court_wars": (["Ana", "Ben"], ["rounds=6"]), "celestial_emperor": (["Ana", "Ben", "Cai"], []),
          "knight_rogue_princess_dragon": (["Ana", "Ben", "Cat", "Dee"], []), "cardchess2": (["Ana", "Ben"], [])}
STORY_LINES = ("tell", "wrapup", "twist", "close")  # a story game's players write their own words


def _seeded_game(seed: int, moves: int | None = None, game_id: str = "gridcannon", lang: str = "en"):
    """A game the built-in player plays for every seat, asked in the terminal's order (the first decision)."""
    s = spec(game_id)
    players, options = TABLES[game_id]
    g = s.state.new(players, options, seed=seed)
    rng = random.Random(seed)
    played = []
    while not g.is_over() and (moves is None or len(played) < moves):
        seat = g.decisions()[0].seat
        move = str(s.player(g, seat, rng))
        if move.split()[0] in STORY_LINES and lang != "en":  # in the language they play in
            move = move.split()[0] + " " + {"es": "Y así siguió el cuento.", "de": "Und so ging es weiter."}[lang]
        g, _ = g.apply(seat, move)
        played.append(move)
    return s, g, played


def test_a_game_is_stored_the_same_whatever_its_readers_language_and_reads_in_any_of_them():
    s, g, played = _seeded_game(5, 30)
    stored = json.dumps(g.to_json(), ensure_ascii=False)
    back = s.state.from_json(json.loads(stored))
    assert json.dumps(back.to_json(), ensure_ascii=False) == stored
    again = s.state.new(["Ana"], seed=5)
    for move in played:  # the record is notation only: replayed, the same state
        again, _ = again.apply(0, move)
    assert json.dumps(again.to_json(), ensure_ascii=False) == stored
    view = back.view(0)
    german, spanish = renderer("gridcannon").said("text", view, "de"), renderer("gridcannon").said("text", view, "es")
    assert german != spanish and "Bildkarten:" in german and "Figuras:" in spanish
    assert not re.search(r"Bildkarte|Figura|Mazo|Stapel", stored)  # no translated word in the stored state


# ----- the terminal, a whole game in each language -------------------------------------------
def english_fragments(lang: str) -> dict[str, str]:
    """Every piece of an English message (between its placeholders) long enough to be a phrase,
    unless the language's translation keeps it as it is (a variant's name, a rulebook section)."""
    found = {}
    for m in catalog(lang, MESSAGES):
        if not m.id:
            continue
        kept = " ".join(_strings(m))
        for english in _ids(m):
            for piece in re.split(r"\{[^}]*\}", english):
                piece = piece.strip(" .,:;()—·")
                if len(re.sub(r"[^A-Za-z]", "", piece)) >= FRAGMENT and piece not in kept:
                    found[piece] = english
    return found


def english_left(text: str, lang: str) -> list[str]:
    flat = " ".join(text.split())
    return sorted({f"{piece!r} (from {msg!r})" for piece, msg in english_fragments(lang).items() if piece in flat})


class Typed:
    """A terminal that types the given lines, asking for the choices (``?``) before each move."""

    def __init__(self, moves):
        self.lines = []
        for move in moves:  # a story's line is written straight away (``?`` would ask for its words)
            self.lines += [move] if move.split()[0] in STORY_LINES else ["?", "cancel", move]
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        if not prompt.rstrip().endswith(">"):  # the hot seat handed to the next player: Enter
            return ""
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, text: str) -> None:
        self.out.append(text)


WRONG = {"gridcannon": "place r9c9", "maginot_line": "attack @9", "court_wars": "attack K 9 9:Q 9",
         "celestial_emperor": "target unicorn", "knight_rogue_princess_dragon": "pass 9",
         "cardchess2": "bench r9c9"}  # a refusal first, in the language too
SEEDS = {"gridcannon": (3, 11), "maginot_line": (4,), "court_wars": (4,), "celestial_emperor": (6,),
         "knight_rogue_princess_dragon": (3,), "cardchess2": (3,)}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", list(TABLES))
def test_a_whole_seeded_game_in_the_terminal_leaves_no_english_message(lang, game_id):
    seen_refusal = False
    for seed in SEEDS[game_id]:
        s, g, played = _seeded_game(seed, game_id=game_id, lang=lang)
        assert g.is_over()
        typed = Typed([WRONG[game_id], *played])
        players, options = TABLES[game_id]
        end = play_terminal(game_id, players, options, seed, read=typed.read, write=typed.write, width=100,
                            clear=False, lang=lang)
        assert end.is_over() and end.move_count == g.move_count  # the whole game, every move taken
        out = "\n".join(typed.out)
        assert english_left(out, lang) == []
        seen_refusal = seen_refusal or {"es": "No se puede:", "de": "Nicht erlaubt:"}[lang] in out
        assert (s.title in out) and (str(g.outcome().summary) not in out)  # the end said in the language
    assert seen_refusal


def test_the_check_finds_english_when_there_is_some():
    english = renderer("gridcannon").said("text", _seeded_game(3, 10)[1].view(0), "en")
    assert english_left(english, "de"), "the English text of a table must be caught"


def test_python_m_bot_play_takes_the_language(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "gridcannon", "--seed", "3", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Startwert 3" in out and "Bildkarten:" in out
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "gridcannon", "--seed", "3"]) == 0
    assert "semilla 3" in capsys.readouterr().out


def test_a_phrase_class_round_trips_its_json_for_every_line_of_a_game():
    _, g, _ = _seeded_game(7)
    lines = [decode(entry[0], True) for entry in g.journal]
    assert lines and all(isinstance(x, Phrase) for x in lines)
    assert all(decode(encode(x), True) == x for x in lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminals_own_frame_and_a_lessons_leave_no_english_message(lang):
    """A table with a bot (the commands, the rules' sections, a hint, the choices, refusals, leaving) and
    a lesson's frame (its steps, what is offered, a refusal), in the terminal, in Spanish and German."""
    from bot.lesson_terminal import learn_terminal

    out: list[str] = []
    typed = iter(["help", "rules", "rules zzz", "hint", "?", "cancel", "zzz", "show", "quit"])

    def read(prompt: str) -> str:
        out.append(prompt)
        return next(typed)

    play_terminal("court_wars", ["Ana", "Ben"], [], 3, read=read, write=out.append, auto_seats={1: "easy"},
                  width=100, clear=False, lang=lang)
    typed = iter(["", "zzz", "", "quit"])
    learn_terminal("gridcannon", read=read, write=out.append, width=100, lang=lang)
    text = "\n".join(out)
    assert english_left(text, lang) == []
    w = words(lang)
    assert w.t("Hint: {hint}", hint="💡").split("💡")[0] in text and w.t("Game left unfinished.") in text
    assert w.t("Offered: {label} — press Enter to take it.", label="💡").split("💡")[0] in text  # the lesson's frame
    assert words("en").say("") == w.say("") == ""  # an empty text is no catalogue message (the header)
