"""Engine words that a render layer can say in another language.

An engine writes what happened, what is asked and why a move is refused in English, the source
language, as a :class:`Phrase`: a ``str`` (the English text, so every English reader and test
reads it as before) that also remembers how it was made, a catalogue message id (a template with
named placeholders, ``"{card} placed on {cell}."``) and its arguments. The render and Discord
layers translate the template for one reader's language (``bot.i18n.words``) and fill in the
arguments, themselves said in that language: a :class:`CardName` by the language's card names, a
:class:`Many` as the language lists things, a nested phrase translated in turn; a plain ``str``
or number is language-neutral (a cell ``r1c2``, a slot ``T1``, a count); a :class:`Typed` is what a
person wrote (a display name), said as written even where it reads like one of the bot's words.

A phrase keeps the same JSON form whatever the language (``to_json``/``from_json``), so a journal
written in a game started in German reads in Spanish. Only the standard library is used here: the
engines stay pure.

Extraction: ``say("…")`` and ``say_n("…", "…", n=…)`` are the calls ``python -m bot i18n extract``
finds (Babel's extractor, keywords ``say`` and ``say_n``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["CardName", "Many", "Phrase", "Typed", "decode", "encode", "forget_cards", "say", "say_n"]


class CardName(str):
    """A card named in a phrase: its English name (``10♦``), and its code (``TD``) for other languages."""

    code: str

    def __new__(cls, code: str, english: str) -> "CardName":
        self = super().__new__(cls, english)
        self.code = code
        return self

    def __reduce__(self):  # copies and pickles keep the card (a str subclass would copy only the text)
        return (CardName, (self.code, str(self)))


class Typed(str):
    """Words said as written in every language, never looked up in a catalogue: what a person wrote (a
    display name: a player called "Join" stays "Join"), or words already said in the reader's language."""

    def __reduce__(self):
        return (Typed, (str(self),))


class Many(str):
    """A list in a phrase: its items, and how they are joined (``and``, ``or``, or a separator kept
    as it is in every language: ``", "``, ``" "``, ``"; "``)."""

    items: tuple[Any, ...]
    joined: str

    def __new__(cls, items: Iterable[Any], joined: str = ", ") -> "Many":
        items = tuple(items)
        sep = {"and": " and ", "or": " or "}.get(joined, joined)
        if joined in ("and", "or") and len(items) > 2:
            english = ", ".join(items[:-1]) + sep + str(items[-1])
        else:
            english = sep.join(str(x) for x in items)
        self = super().__new__(cls, english)
        self.items, self.joined = items, joined
        return self

    def __reduce__(self):
        return (Many, (self.items, self.joined))


class Phrase(str):
    """English words made from a catalogue message: ``msgid`` (``plural`` too when the message has
    plural forms, chosen by the argument ``n``) and ``args``. ``str`` is the English text."""

    msgid: str
    plural: str | None
    args: Mapping[str, Any]

    def __new__(cls, msgid: str, plural: str | None = None, args: Mapping[str, Any] | None = None,
                cap: bool = False) -> "Phrase":
        args = dict(args or {})
        template = plural if plural is not None and args.get("n") != 1 else msgid
        text = template.format(**args) if args else template
        if cap and text[:1].islower():  # a sentence of its own (a log line): "A card placed on r1c2."
            text = text[0].upper() + text[1:]
        self = super().__new__(cls, text)
        self.msgid, self.plural, self.args = msgid, plural, args
        return self

    def __reduce__(self):  # copies and pickles keep the phrase (a str subclass would copy only the text)
        return (_phrase, (self.msgid, self.plural, dict(self.args), str(self)))


def _phrase(msgid: str, plural: str | None, args: Mapping[str, Any], text: str) -> Phrase:
    """A phrase copied (its English kept as it was: a log line's capital)."""
    found = Phrase(msgid, plural, args)
    return found if str(found) == text else Phrase(msgid, plural, args, True)


def say(msgid: str, **args: Any) -> Phrase:
    """The phrase of the catalogue message ``msgid`` with these arguments."""
    return Phrase(msgid, None, args)


def say_n(singular: str, plural: str, **args: Any) -> Phrase:
    """A phrase with plural forms, chosen by the argument ``n`` (``say_n("{n} card", "{n} cards", n=3)``)."""
    return Phrase(singular, plural, args)


# ----- JSON: the same in every language -------------------------------------------------------
def encode(value: Any) -> Any:
    """A phrase (or one of its arguments) as JSON: a plain text stays a string."""
    if isinstance(value, Phrase):
        out: dict[str, Any] = {"m": value.msgid}
        if value.plural is not None:
            out["p"] = value.plural
        if value.args:
            out["a"] = {k: encode(v) for k, v in value.args.items()}
        return out
    if isinstance(value, CardName):
        return {"c": value.code, "e": str(value)}
    if isinstance(value, Many):
        return {"l": [encode(x) for x in value.items], "j": value.joined}
    if isinstance(value, Typed):
        return {"w": str(value)}
    return value


def decode(value: Any, cap: bool = False) -> Any:
    """The value :func:`encode` wrote (a string or number as it is); ``cap``: a sentence of its own
    (a log line), its English begun with a capital."""
    if isinstance(value, dict):
        if "m" in value:
            return Phrase(value["m"], value.get("p"), {k: decode(v) for k, v in (value.get("a") or {}).items()}, cap)
        if "c" in value:
            return CardName(value["c"], value["e"])
        if "l" in value:
            return Many([decode(x) for x in value["l"]], value["j"])
        if "w" in value:
            return Typed(value["w"])
    return value


def forget_cards(value: Any, names: frozenset[str], instead: Phrase, cap: bool = False) -> Any:
    """``value`` with every card whose English name is in ``names`` said as ``instead`` (the player
    no longer knows where it is: "a card"); ``cap`` as for :func:`decode`."""
    if isinstance(value, CardName):
        return instead if str(value) in names else value
    if isinstance(value, Many):
        return Many([forget_cards(x, names, instead) for x in value.items], value.joined)
    if isinstance(value, Phrase):
        if not value.args:
            return value
        args = {k: forget_cards(v, names, instead) for k, v in value.args.items()}
        if all(args[k] is v for k, v in value.args.items()):
            return value
        return Phrase(value.msgid, value.plural, args, cap)
    return value
