"""Building Maginot Line positions by hand for the rule tests (every card stays in one place)."""

from __future__ import annotations

from bot.engine.maginot_line import GAME, MaginotLine

NAMES = ["Ana", "Ben", "Cat", "Dee", "Eve", "Fay"]
ZONES = ("deck", "hand", "discard", "finished", "fallen")


def begin(n: int = 2, options=(), seed: int = 1, aces: dict[int, str] | None = None, first: int = 0,
          phase: str = "construction") -> MaginotLine:
    """A game past setup: seats clockwise 0..n-1, ``first`` to act in ``phase``, empty hands."""
    g = GAME.new(NAMES[:n], list(options), seed=seed)
    for s in range(n):
        order = (aces or {}).get(s, "ADACASAH")
        codes = [f"{order[i:i + 2]}@{s}" for i in range(0, 8, 2)]
        g, _ = g.apply(s, "aces " + " ".join(codes))
    g = g.copy()
    for b in g.boards:
        b["deck"] += b["hand"]
        b["hand"] = []
        b["deck"].sort()
    g.journal = []  # the deal it reports is undone above
    g.order = list(range(n))
    g.current = first
    g.round_start = first
    g.phase = phase
    g.pool = 0
    return g


def take(g: MaginotLine, code: str) -> str:
    b = g.boards[int(code.split("@")[1])]
    for z in ZONES:
        if code in b[z]:
            b[z].remove(code)
            return code
    raise AssertionError(f"{code} is not free to take")


def hand(g: MaginotLine, seat: int, *faces: str) -> None:
    for f in faces:
        g.boards[seat]["hand"].append(take(g, f"{f}@{seat}"))


def unit(g: MaginotLine, seat: int, h: str, s: str, c: str, zone: str = "patrol", queen: str | None = None,
         wounds: int = 0, tapped: bool = False) -> str:
    codes = [take(g, f"{x}@{seat}") for x in (h, s, c)]
    q = take(g, f"{queen}@{seat}") if queen else None
    g.boards[seat]["units"].append({"h": codes[0], "s": codes[1], "c": codes[2], "queen": q, "wounds": wounds,
                                    "tapped": tapped, "zone": zone, "new": False})
    return codes[0]


def resource(g: MaginotLine, seat: int, card: str, tapped: bool = False, queen: str | None = None) -> None:
    g.boards[seat]["resources"].append({"card": take(g, f"{card}@{seat}"), "tapped": tapped,
                                        "queen": take(g, f"{queen}@{seat}") if queen else None})


def finished(g: MaginotLine, seat: int, *faces: str) -> None:
    for f in faces:
        g.boards[seat]["finished"].append(take(g, f"{f}@{seat}"))


def act(g: MaginotLine, seat: int, move: str):
    return g.apply(seat, move)


def fight(g: MaginotLine, declare: str, engage: str | None = None, seat: int = 0, defender: int = 1):
    """Straight into the battle phase: ``seat`` declares (``attack …``), then, given ``engage``, the
    ``defender`` engages. The game and the events of the last of them."""
    g.phase = "battle"
    g.current = seat
    g, events = act(g, seat, declare)
    return (g, events) if engage is None else act(g, defender, engage)


def public(events) -> str:
    return "\n".join(e.for_(None) or "" for e in events)


def check_cards(g: MaginotLine) -> None:
    cards = g.all_cards()
    assert len(cards) == 54 * len(g.players)
    assert len(set(cards)) == len(cards)
