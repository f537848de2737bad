"""Typed options: every named variant and numeric setting of a rulebook, parsed and validated once.

A game declares a frozen dataclass subclassing :class:`Options`; each field is made with
:func:`variant` (a named rulebook variant, a ``bool``), :func:`setting` (a whole number in a
range) or :func:`choice` (a whole number out of the few the rulebook allows). The stored and
typed form is a list of strings — variant names and ``name=value`` — which is what tables and
records have always kept, so old rows parse unchanged.

    @dataclass(frozen=True)
    class CourtWarsOptions(Options):
        no_jokers: bool = variant("No Jokers", "Play with 52 cards: no jokers.")
        rounds: int = setting(20, 0, 1000, "Full rounds without a defeat before the game ends (0 = off).")
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

MAX_OPTION_TEXT = 100


def variant(name: str, help: str, *, aliases: tuple[str, ...] = ()) -> Any:
    """A named rulebook variant (off by default)."""
    return dataclasses.field(default=False, metadata={"variant": name, "help": help, "aliases": aliases})


def setting(default: int, lo: int, hi: int, help: str) -> Any:
    """A numeric table setting written ``name=value``."""
    return dataclasses.field(default=default, metadata={"setting": (lo, hi), "help": help})


def choice(default: int, values: tuple[int, ...], help: str) -> Any:
    """A numeric table setting written ``name=value`` that takes one of ``values`` only (offered as
    those values, not as a range)."""
    assert default in values and list(values) == sorted(set(values)), "the values, in order, and the default among them"
    return dataclasses.field(default=default, metadata={"setting": (values[0], values[-1]), "values": tuple(values),
                                                        "help": help})


def norm(text: str) -> str:
    """Variant names match ignoring case, spaces, hyphens, underscores and punctuation."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass(frozen=True)
class OptionInfo:
    """One option as shown to players (``/game new`` autocomplete, ``/game rules``)."""

    key: str  # the field name
    name: str  # the rulebook's name (variants) or the setting's name
    help: str
    is_variant: bool
    lo: int = 0
    hi: int = 0
    default: int = 0
    values: tuple[int, ...] = ()  # a setting that takes these values only (:func:`choice`); empty: lo..hi

    def written(self) -> str:
        """How it is written in the options: a variant by its name, a setting as ``name=<values>``."""
        if self.is_variant:
            return self.name
        allowed = "|".join(map(str, self.values)) if self.values else f"{self.lo}..{self.hi}"
        return f"{self.name}=<{allowed}>"

    def usage(self) -> str:
        return self.name if self.is_variant else f"{self.written()} (default {self.default})"

    def allowed(self) -> str:
        """The values a setting takes, in words (a phrase): ``5 or 14``, ``from 0 to 1000``."""
        from bot.engine.words import Many, say

        if not self.values:
            return say("from {lo} to {hi}", lo=self.lo, hi=self.hi)
        return Many(self.values, "or")

    def admits(self, number: int) -> bool:
        return number in self.values if self.values else self.lo <= number <= self.hi


@dataclass(frozen=True)
class Options:
    """Base of a game's typed options. Subclasses add fields made with variant()/setting()."""

    title: ClassVar[str] = "This game"

    @classmethod
    def infos(cls) -> list[OptionInfo]:
        out = []
        for f in dataclasses.fields(cls):
            md = f.metadata
            if "variant" in md:
                out.append(OptionInfo(f.name, md["variant"], md["help"], True))
            elif "setting" in md:
                lo, hi = md["setting"]
                out.append(OptionInfo(f.name, f.name, md["help"], False, lo, hi, f.default, md.get("values", ())))
        return out

    @classmethod
    def parse(cls, options: Iterable[str]) -> "Options":
        """Typed options from their written form. Raises IllegalMove with a short reason."""
        from bot.engine.core import IllegalMove
        from bot.engine.words import Typed, say

        infos = cls.infos()
        by_variant: dict[str, OptionInfo] = {}
        for f in dataclasses.fields(cls):
            if "variant" in f.metadata:
                info = next(i for i in infos if i.key == f.name)
                for n in (f.metadata["variant"], *f.metadata.get("aliases", ())):
                    by_variant[norm(n)] = info
        settings = {i.name: i for i in infos if not i.is_variant}
        values: dict[str, Any] = {}
        for raw in options:
            raw = str(raw)
            shown = raw if len(raw) <= 40 else raw[:39] + "…"
            if len(raw) > MAX_OPTION_TEXT:
                raise IllegalMove(say("The option “{option}” is too long.", option=Typed(shown)), "options")
            if "=" in raw:
                name, _, value = raw.partition("=")
                name = name.strip().lower()
                info = settings.get(name)
                if info is None:
                    if not settings:
                        raise IllegalMove(say("{title} has no settings.", title=Typed(cls.title)), "options")
                    raise IllegalMove(say("{title} has no setting “{name}”. Settings: {names}.", title=Typed(cls.title),
                                          name=Typed(name[:40]), names=Typed(", ".join(settings))), "options")
                try:
                    number = int(value.strip())
                except ValueError:
                    raise IllegalMove(say("Setting {name} needs a whole number, not “{value}”.", name=Typed(name),
                                          value=Typed(value.strip()[:20])), "options") from None
                if not info.admits(number):
                    raise IllegalMove(say("Setting {name} must be {allowed}.", name=Typed(name), allowed=info.allowed()),
                                      "options")
                values[info.key] = number
                continue
            if not norm(raw):
                continue
            info = by_variant.get(norm(raw))
            if info is None:
                names = [i.name for i in infos if i.is_variant]
                if not names:
                    raise IllegalMove(say("{title} has no variants.", title=Typed(cls.title)), "options")
                raise IllegalMove(say("{title} has no variant “{variant}”. Variants: {names}.", title=Typed(cls.title),
                                      variant=Typed(shown), names=Typed(", ".join(names))), "options")
            values[info.key] = True
        opts = cls(**values)
        opts.validate()
        return opts

    def validate(self) -> None:
        """Check combinations of options (override); raise IllegalMove."""

    def check_players(self, n: int) -> None:
        """Check options against the number of players (override); raise IllegalMove."""

    def dump(self) -> list[str]:
        """The written form: variant names (in declaration order), then non-default settings."""
        out: list[str] = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if "variant" in f.metadata and v:
                out.append(f.metadata["variant"])
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if "setting" in f.metadata and v != f.default:
                out.append(f"{f.name}={v}")
        return out

    def __str__(self) -> str:
        return ", ".join(self.dump()) or "the rulebook's defaults"
