"""K♠, J♠ and J♥ on units and on targeted Aces: what B5 does with each (P = Ana attacks, D = Ben)."""

from __future__ import annotations

from .helpers import act, begin, hand, public, unit


def _defend(card: str | None, wounds: int = 0, options=()):
    g = begin(options=options)
    g.boards[1]["base"][0]["wounds"] = wounds
    a = unit(g, 0, "8H", "8S", "TC")
    if card:
        hand(g, 1, card)
    g.phase = "battle"
    g, ev = act(g, 0, f"attack @1 {a} #1@1")
    events = list(ev)
    if card:
        assert g.decisions()[0].seat == 1  # Ben, without initiative, commits first
        g, ev = act(g, 1, f"commit {card}@1 #1@1")
        events += ev
    return g, public(events)


def test_ks_on_an_ace_takes_no_wounds_and_the_ace_stays():
    for wounds in (0, 10):
        g, text = _defend("KS", wounds)
        base = g.boards[1]["base"]
        assert len(base) == 4 and base[0]["ace"] == "AD@1" and base[0]["wounds"] == wounds
        assert "K♠: no wounds" in text and "loses" not in text and g.boards[1]["fallen"] == []
    g, text = _defend(None, 10)  # without K♠, 10 more wounds destroy it
    assert g.boards[1]["fallen"] == ["AD@1"] and "loses A♦" in text


def test_ks_on_ace_one_with_top_only_passes_nothing_on():
    g, text = _defend("KS", 10, options=["Top only"])
    assert [a["wounds"] for a in g.boards[1]["base"]] == [10, 0, 0, 0]
    assert "loses" not in text


def test_js_on_an_ace_is_three_armor():
    g, text = _defend("JS", 0)
    assert g.boards[1]["base"][0]["wounds"] == 7 and "armor 3" in text
    g, _ = _defend("JS", 9)
    assert g.boards[1]["fallen"] == ["AD@1"]  # 9 + 7 = 16: destroyed


def test_jh_on_an_ace_absorbs_three_and_wears_off():
    g, text = _defend("JH", 0)
    assert g.boards[1]["base"][0]["wounds"] == 7 and "3 absorbed" in text
    g, _ = _defend("JH", 8)
    assert g.boards[1]["base"][0]["wounds"] == 15 and g.boards[1]["fallen"] == []


def _unit_fight(d_card: str | None):
    """Ana's [6♥ 5♠ 7♣] engaged by Ben's [4♥ 3♠ 4♣]; Ben plays ``d_card`` on his guardian."""
    g = begin()
    a = unit(g, 0, "6H", "5S", "7C")
    gd = unit(g, 1, "4H", "3S", "4C", zone="guardian")
    if d_card:
        hand(g, 1, d_card)
    g.phase = "battle"
    g, _ = act(g, 0, f"attack @1 {a} #1@1")
    g, ev = act(g, 1, f"engage {gd} {a}")
    events = list(ev)
    if d_card:  # without a card neither side has anything to commit: the battle resolves at once
        g, ev = act(g, 1, f"commit {d_card}@1 {gd}")
        events += ev
    return g, gd, public(events)


def test_ks_js_jh_on_a_unit():
    g, gd, _ = _unit_fight(None)
    assert g.unit(1, gd) is None  # 7 − 3 = 4 ≥ 4: destroyed
    g, gd, text = _unit_fight("KS")
    assert g.unit(1, gd)["wounds"] == 0 and "K♠: no wounds" in text
    g, gd, _ = _unit_fight("JS")
    assert g.unit(1, gd)["wounds"] == 1  # 7 − 6
    g, gd, text = _unit_fight("JH")
    assert g.unit(1, gd)["wounds"] == 1 and "3 absorbed" in text  # 4 net, 3 absorbed
