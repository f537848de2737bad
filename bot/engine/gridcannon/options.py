"""Gridcannon's typed options: every named variant of the rulebook (§7, §10, §11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.engine.core import IllegalMove
from bot.engine.options import Options, variant

MEMORY_AID = "Memory Aid"
LOWEST_HEALTH = "Lowest Health"
PLOYS_FIRST = "Ploys First"
SOURCE_THRESHOLDS = "Source Thresholds"
EXACT = "Exact"
KEEP_PLOYS = "Keep Ploys"
DRAW_ORDER = "Draw Order"
STASH_ONLY = "Stash Only"
CLASSIC = "Classic (Old Version)"
REVISED_OLD = "Revised Old Version"
NO_JOKERS = "No Jokers"


@dataclass(frozen=True)
class GridcannonOptions(Options):
    title: ClassVar[str] = "Gridcannon"

    memory_aid: bool = variant(MEMORY_AID, "The table lists the cards you knowingly sent to the bottom of the deck.")
    lowest_health: bool = variant(LOWEST_HEALTH, "Armour goes to the royal with the lowest current health, not rank.")
    ploys_first: bool = variant(PLOYS_FIRST, "You may armour only when your stash holds no unspent ploy.")
    source_thresholds: bool = variant(SOURCE_THRESHOLDS,
                                      "Natural loss at J/Q health 20+, K 19+ (the source's numbers).")
    exact: bool = variant(EXACT, "Natural loss when the two best unarmoured qualifying cards cannot reach the health.")
    keep_ploys: bool = variant(KEEP_PLOYS, "Aces and jokers met in a search go to your stash.")
    draw_order: bool = variant(DRAW_ORDER, "Setup royals are placed in the order drawn.")
    stash_only: bool = variant(STASH_ONLY, "Score = unspent ploys in your stash only.")
    classic: bool = variant(CLASSIC, "The Old Version: empty centre, aces/jokers reset stacks, shame pile score.",
                            aliases=("classic", "old version", "old"))
    revised_old: bool = variant(REVISED_OLD, "Out of cards with no unspent ace: lost at once, jokers or not.",
                                aliases=("revised",))
    no_jokers: bool = variant(NO_JOKERS, "52 cards, no jokers; the maximum score is 4.")

    def validate(self) -> None:
        if self.classic and self.revised_old:  # ruling 23
            raise IllegalMove("Classic (Old Version) and Revised Old Version cannot be combined: Classic has no "
                              "stashed ploys for the Revised Old Version's rule to read.", "options")
