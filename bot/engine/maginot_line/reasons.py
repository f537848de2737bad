"""Why ``/game hint`` suggests a move of each kind, in plain words (phrases: said in the reader's language)."""

from __future__ import annotations

from bot.engine.words import say

REASONS = {
    "aces": say("that order keeps your Aces' strengths where they matter first"),
    "resource": say("a resource card gives you markers every turn from now on"),
    "tap": say("the markers pay for the cards you are building"),
    "tapbase": say("your base gives two markers for your building"),
    "start": say("building that card makes the most of the markers in your pool"),
    "fund": say("it finishes a card you have already started, soonest"),
    "rush": say("K♦ completes a card at once"),
    "queen": say("the queen strengthens the unit (or resource) that gains most from it"),
    "heal": say("K♥ clears a badly wounded unit or Ace"),
    "revive": say("a joker brings a fallen Ace back into your base"),
    "done": say("there is nothing more worth doing in this phase"),
    "attack": say("your patrols are strong enough to hurt their Aces"),
    "engage": say("your guardians can stop the attackers that would do most harm"),
    "seize": say("K♦ wins you the initiative in this battle"),
    "boost": say("J♦'s +3 Initiative decides this battle"),
    "commit": say("those cards and targets do the most damage for what they cost"),
    "move": say("it balances your units between patrol and guard"),
    "assemble": say("a finished heart, spade and club make a unit"),
    "end": say("your turn has nothing more worth doing"),
}

__all__ = ["REASONS"]
