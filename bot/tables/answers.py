"""What a reader is told in words about what it may do and what it did, made from the reader alone
(the Discord layer turns these into its payloads): what an action did, why nothing may be chosen, the
autocomplete's entries, why no line may be said now, the forfeit's question."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import pretty_text
from bot.engine.words import Many
from bot.i18n import words
from bot.i18n.lang import LANGUAGE_NAMES
from bot.render.panel import clip, plain
from bot.tables.reader import FORFEIT_TOKENS, Reader

__all__ = ["LINE_MAX", "NOTHING", "completions", "did", "forfeit_question", "language_set", "no_line_now",
           "nothing_to_choose"]


LINE_MAX = 1100  # characters of one part of what an action did: a story line is said whole (its engine's limit, 1000)


def did(labels: Sequence[str], secret: bool = False, lang: str = "en") -> str:
    """What an action did, in one sentence from the labels of its tokens (the reader's plain words):
    "Done: you chose royal K♣, then T2." (a secret choice is said only to its chooser, privately)."""
    w = words(lang)
    parts = [clip(pretty_text(" ".join(str(x).split())), LINE_MAX) for x in labels if str(x).strip()]
    if not parts:
        return w.t("Done.")
    said = parts[0] if len(parts) == 1 else w.t("{steps}, then {last}", steps=", ".join(parts[:-1]), last=parts[-1])
    if secret:
        return clip(w.t("Done: your secret choice is in — {said}.", said=plain(said)), 1800)
    return clip(w.t("Done: you chose {said}.", said=plain(said)), 1800)


def language_set(lang: str) -> str:
    """What ``/game language`` says to the channel, in the table's new language."""
    return words(lang).t("This table speaks {language} now.", language=LANGUAGE_NAMES.get(lang, lang))


NOTHING = "∅"  # the value of the autocomplete's one entry saying why nothing may be chosen (refused if sent)


def nothing_to_choose(reader: Reader, verb: str | None = None) -> str | None:
    """Why this reader may choose nothing now (with ``verb``: no move of that verb), in one
    sentence from what it may know; None when something may be chosen."""
    w = reader.words
    if reader.table.status != "playing":
        return w.t("There is no game in progress at this table.")
    if reader.seat is None:
        return w.t("You are not playing at this table.")
    if reader.has_left:
        return w.t("You have left this game.")
    if not reader.acting:
        return reader.waiting_for
    if verb is None or not reader.choices((verb,)).empty:
        return None
    others = [o.label or o.token for o in reader.choices(()).options if o.token not in FORFEIT_TOKENS]
    if w.english:
        return pretty_text(f"No {verb} is possible now" + (f"; you may: {'; '.join(others)}." if others else "."))
    return w.t("No {verb} is possible now; you may: {moves}.", verb=verb, moves=Many(others, "; ")) if others \
        else w.t("No {verb} is possible now.", verb=verb)


def completions(reader: Reader, current: str, verb: str | None = None) -> list[tuple[str, str]]:
    """The autocomplete's entries (name, value) from the reader's choices: the next tokens after what
    is typed, in plain words (at most 25)."""
    typed = current[:200].split()
    ends_with_space = current.endswith(" ")
    done = tuple(typed if ends_with_space else typed[:-1])
    partial = "" if ends_with_space or not typed else typed[-1].lower()
    if verb is not None:
        done = (verb, *done) if not done or done[0] != verb else done
    c = reader.choices(done)
    out: list[tuple[str, str]] = []
    head = " ".join(done)
    if c.complete and done and not partial:
        label = " → ".join(reader.so_far(done))
        out.append((clip(pretty_text(label) + " ✓", 100), head[:100]))
    if c.kind == "range":
        options = [(str(i), str(i)) for i in range(c.lo, c.hi + 1)]
    else:
        options = [(o.token, o.label or o.token) for o in c.options]
    for token, label in options:
        if partial and partial not in token.lower() and partial not in label.lower():
            continue
        value = f"{head} {token}".strip()
        shown = value if verb is None else value.partition(" ")[2] or value
        text = f"{pretty_text(label)} ({shown})" if label != token else shown
        out.append((clip(text, 100), value[:100]))
        if len(out) == 25:
            break
    return out




def no_line_now(reader: Reader) -> str:
    """Why /game say cannot be a line now: the step the game asks of this seat first (its
    decision's prompt, else its choices' words), or whose turn it is."""
    decision = reader.decision if reader.acting else None
    if decision is None:
        return clip(reader.words.t("The game is not asking you for a line right now. {waiting}",
                                   waiting=reader.waiting_for), 1900)
    step = decision.prompt or reader.words.list([o.label or o.token for o in reader.choices(()).options], "or")
    return clip(reader.words.t("The game is not asking you for a line yet. First: {step}", step=pretty_text(step)), 1900)


def forfeit_question(reader: Reader, tokens: tuple[str, ...]) -> str:
    what = pretty_text(" → ".join(reader.so_far(tokens)))
    return clip(reader.words.t("Are you sure you want to **{what}**? It gives the game up for you and cannot be undone.",
                               what=what), 2000)
