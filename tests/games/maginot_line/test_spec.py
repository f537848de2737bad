"""The spec, the typed options and the rules players read."""

from __future__ import annotations

import re

import pytest

from bot.engine.core import IllegalMove
from bot.engine.maginot_line import GAME, SPEC, auto_move
from bot.engine.maginot_line.model import MaginotOptions


def test_spec_and_options():
    assert SPEC.id == "maginot_line" and (SPEC.min_players, SPEC.max_players) == (2, 6)
    assert SPEC.state is GAME and SPEC.player is auto_move and "Hysong" in SPEC.credit
    names = {i.name for i in MaginotOptions.infos()}
    assert names == {"Mobile defence", "Top only", "Diamond initiative", "Hand limit", "Teams", "rounds"}
    assert all(i.help for i in MaginotOptions.infos())
    assert MaginotOptions.parse(["V1", "v2", "rounds=0"]).dump() == ["Mobile defence", "Top only", "rounds=0"]
    with pytest.raises(IllegalMove):
        GAME.new(["a"])
    with pytest.raises(IllegalMove):
        GAME.new(list("abcdefg"))


def test_rules_text_has_every_ruling_and_the_credit():
    text = SPEC.rules_text()
    heads = [h for h, _ in SPEC.rules_sections()]
    assert {"Setup", "Your turn", "Rulings", "Variants and settings", "Credits"} <= set(heads)
    rulings = dict(SPEC.rules_sections())["Rulings"]
    assert [int(n) for n in re.findall(r"^(\d+)\. ", rulings, re.M)] == list(range(1, 37))
    assert SPEC.credit in text


def test_redacted_record_hides_the_ace_order():
    g = GAME.new(["a", "b"], seed=1)
    assert g.redact(0, "aces AS@0 AH@0 AD@0 AC@0") == "aces …" and g.redact(0, "aces random") == "aces random"
