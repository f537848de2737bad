"""Cardchess2's typed options: variants V1–V9 and the table settings of the rulebook."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.options import Options, choice, setting, variant


@dataclass(frozen=True)
class Cardchess2Options(Options):
    title = "Cardchess2"

    own_decks: bool = variant(
        "Own decks", "V1: each player uses their own 52-card deck for the out-of-play cards, the deal and every "
        "draw; the out-of-play pile is shared.", aliases=("V1",))
    short_range: bool = variant(
        "Short range", "V2: line attacks reach adjacent cells only.", aliases=("V2",))
    pawn_march: bool = variant(
        "Pawn march", "V3: ordinary moves go only 1 cell straight towards the goal row; the 4's jump and the "
        "5's extra step still apply.", aliases=("V3",))
    optional_step: bool = variant(
        "Optional step", "V4: a face-down attacker may attack without stepping first.", aliases=("V4",))
    special_first: bool = variant(
        "Powers before suits", "V5: the 2's 20 and the 3's 15 replace the rank before the suit multiplier.",
        aliases=("V5",))
    wide_powers: bool = variant(
        "Wide powers", "V6: the 2's and the 3's powers reach all 8 neighbouring cells (they may attack any "
        "neighbour with them).", aliases=("V6",))
    remote_enforcement: bool = variant(
        "Remote enforcement", "V7: any face-down card of the defender may enforce, wherever it stands.",
        aliases=("V7",))
    matched_reinforcement: bool = variant(
        "Matched reinforcement", "V8: at most as many reinforcements as there were enforcers.", aliases=("V8",))
    sudden_goal: bool = variant(
        "Sudden goal", "V9: you also win at the end of your own turn if you have a card on your goal row "
        "(tested before the usual goal test, so you win even if the waiting player has one there too).",
        aliases=("V9",))
    out_of_play: int = choice(5, (5, 14), "Cards put face down out of play at the start: 5 or 14 "
                                          "(with Own decks, from each deck).")
    turn_cap: int = setting(300, 1, 10000, "The game is a draw after this many turns in total.")
