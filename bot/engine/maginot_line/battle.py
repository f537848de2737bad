"""BATTLE (§2.3): declare, B1 engagement (the defender's decision), B2 initiative and SEIZE,
B3/B4 commits (revealed as each comes in), B5 outcome all at once, B6 cleanup; ruling 27's abort."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from bot.engine.core import Choices, Event, IllegalMove, Option, Progress

from bot.engine.words import Many, say

from .actions import Boost, Commit, Declare, Engage, Seize
from .model import (ACE_LIFE, BATTLE_CARDS, CLASS_NAME, ace_token, can_engage, card_name, face, owner,
                    parse_ace_token, suit, unit_armor, unit_attack, unit_class, unit_life, unit_text, value)

if TYPE_CHECKING:
    from .rules import MaginotLine

TAP_WORD = {"C": say("+2 Attack"), "S": say("+2 Armor"), "H": say("+2 temporary life")}


# ----- who and what is in the battle -------------------------------------------------------
def defenders(g: "MaginotLine", seat: int) -> list[int]:
    """Opponents P may attack: in the game, with at least one Ace, not a teammate (V5)."""
    from .turn import team_of

    out = []
    mine = None  # the seat's team, worked out once (and only when a board is a candidate)
    for d in g.order:
        b = g.boards[d]
        if d != seat and not b["out"] and b["base"]:
            if mine is None:
                mine = team_of(g, seat)
            if team_of(g, d) != mine:
                out.append(d)
    return out


def ready_patrols(g: "MaginotLine", seat: int) -> list[dict]:
    return [u for u in g.boards[seat]["units"] if u["zone"] == "patrol" and not u["tapped"]]


def may_engage(g: "MaginotLine", gu: dict, au: dict) -> bool:
    """B1 with ruling 4 and V1: untapped guardians by the speed table; V1 adds untapped patrols,
    which obey the table like any engagement (ruling 33), and lets guardians alone ignore it."""
    if gu["tapped"]:
        return False
    if gu["zone"] == "guardian":
        return True if g.opts.mobile_defence else can_engage(unit_class(gu), unit_class(au))
    return g.opts.mobile_defence and can_engage(unit_class(gu), unit_class(au))


def attackers(g: "MaginotLine") -> list[dict]:
    bt = g.battle
    return [g.unit(bt["attacker"], uid) for uid, _ in bt["attacks"]]


def guardians_of(g: "MaginotLine", aid: str) -> list[str]:
    """The units engaging ``aid``, in the order the defender's units are listed."""
    bt = g.battle
    ids = {gid for gid, a in bt["engaged"] if a == aid}
    return [u["h"] for u in g.boards[bt["defender"]]["units"] if u["h"] in ids]


def split_slots(g: "MaginotLine") -> list[tuple[str, str]]:
    """(attacker, guardian) for each guardian of an attacker engaged by 2 or more, in order."""
    out = []
    for aid, _ in g.battle["attacks"]:
        gs = guardians_of(g, aid)
        if len(gs) >= 2:
            out += [(aid, gid) for gid in gs]
    return out


def in_battle(g: "MaginotLine", seat: int) -> list[str]:
    bt = g.battle
    if seat == bt["attacker"]:
        return [uid for uid, _ in bt["attacks"]]
    return [u["h"] for u in g.boards[seat]["units"] if u["h"] in {gid for gid, _ in bt["engaged"]}]


def targeted_aces(g: "MaginotLine") -> list[str]:
    seen: list[str] = []
    for _, tok in g.battle["attacks"]:
        if tok not in seen:
            seen.append(tok)
    return seen


def card_targets(g: "MaginotLine", seat: int, card: str) -> list[str]:
    """Ruling 26 and §2.6: where a battle card may go."""
    bt = g.battle
    f = face(card)
    mine = in_battle(g, seat)
    other = bt["defender"] if seat == bt["attacker"] else bt["attacker"]
    is_def = seat == bt["defender"]
    if f == "JC":
        return mine
    if f in ("JS", "JH", "KS"):
        return mine + (targeted_aces(g) if is_def else [])
    if f == "KC":
        return in_battle(g, other) + ([] if is_def else targeted_aces(g))
    if f == "KH":
        b = g.boards[seat]
        return [u["h"] for u in b["units"]] + [ace_token(i + 1, seat) for i in range(len(b["base"]))]
    return []


def tap_kind(g: "MaginotLine", seat: int) -> str | None:
    """AC/AS/AH base tap in a commit (ruling 17), if the base is untapped."""
    b = g.boards[seat]
    if not b["base"] or b["base_tapped"]:
        return None
    s = suit(b["base"][0]["ace"])
    return s if s in "CSH" else None


def battle_cards(g: "MaginotLine", seat: int) -> list[str]:
    return sorted(c for c in g.boards[seat]["hand"] if face(c) in BATTLE_CARDS and card_targets(g, seat, c))


def final_attack(g: "MaginotLine", uid: str, plays, tap: str | None, kind: str | None) -> int:
    u = g.unit(owner(uid), uid)
    bonus = sum(3 for c, t in plays if t == uid and face(c) == "JC")
    return unit_attack(u) + bonus + (2 if tap == uid and kind == "C" else 0)


def target_label(g: "MaginotLine", tok: str) -> str:
    pos = parse_ace_token(tok)
    if pos:
        return say("{player}'s Ace #{position}", player=g.players[pos[1]], position=pos[0])
    u = g.unit(owner(tok), tok)
    return unit_text(u) if u else card_name(tok)


def committing(g: "MaginotLine") -> int:
    bt = g.battle
    first = bt["defender"] if bt["holder"] == bt["attacker"] else bt["attacker"]
    return first if not bt["commits"] else bt["holder"]


def needs_split(g: "MaginotLine", seat: int) -> bool:
    return seat == g.battle["attacker"] and bool(split_slots(g))


def default_split(g: "MaginotLine", plays=(), tap=None, kind=None) -> list[int]:
    """Ruling 25: as evenly as possible, the remainder one each in the defender's listing order."""
    out = []
    for aid, _ in g.battle["attacks"]:
        gs = guardians_of(g, aid)
        if len(gs) >= 2:
            atk = final_attack(g, aid, plays, tap, kind)
            q, r = divmod(atk, len(gs))
            out += [q + (1 if i < r else 0) for i in range(len(gs))]
    return out


def default_commit(g: "MaginotLine", seat: int) -> str:
    return str(Commit((), None, tuple(default_split(g) if needs_split(g, seat) else ())))


# ----- declare ------------------------------------------------------------------------------
def apply_declare(g: "MaginotLine", seat: int, action: Declare, events: list[Event]) -> None:
    d = action.defender
    if d not in defenders(g, seat):
        raise IllegalMove(say("Attack an opponent still in the game with at least one Ace, not a teammate.")
                          if g.opts.teams else say("Attack an opponent still in the game with at least one Ace."), "6")
    if not action.attacks:
        raise IllegalMove(say("Name at least one attacking unit."), "2.3")
    ready = {u["h"] for u in ready_patrols(g, seat)}
    ids = [uid for uid, _ in action.attacks]
    if len(set(ids)) != len(ids) or any(uid not in ready for uid in ids):
        raise IllegalMove(say("Attack only with your untapped Patrol units, each once."), "4")
    n = len(g.boards[d]["base"])
    for _, tok in action.attacks:
        pos = parse_ace_token(tok)
        if not pos or pos[1] != d or not 1 <= pos[0] <= n:
            raise IllegalMove(say("Name a position in {player}'s base, #1 to #{n}.", player=g.players[d], n=n), "9")
        if g.opts.top_only and pos[0] != 1:
            raise IllegalMove(say("With Top only, every attacker targets Ace #1."), "V2")
    listed = [u["h"] for u in g.boards[seat]["units"]]
    attacks = sorted(action.attacks, key=lambda p: listed.index(p[0]))
    for uid, _ in attacks:
        g.unit(seat, uid)["tapped"] = True
    g.battle = {"attacker": seat, "defender": d, "attacks": [list(p) for p in attacks], "step": "engage",
                "engaged": [], "init": [0, 0], "holder": seat, "seized": False, "boosted": [], "commits": [],
                "played": []}
    lines = Many([say("{unit} at Ace #{position}", unit=unit_text(g.unit(seat, uid)), position=parse_ace_token(t)[0])
                  for uid, t in attacks], ", ")
    g.emit(events, say("{attacker} attacks {defender}: {lines}.", attacker=g.players[seat], defender=g.players[d],
                       lines=lines), kind="declare")
    advance(g, events)


def _attackable(g: "MaginotLine", seat: int) -> tuple[list[str], list[int]]:
    """The seat's ready patrols (ids) and whom it may attack with them (none without patrols)."""
    ready = [u["h"] for u in ready_patrols(g, seat)]
    return ready, (defenders(g, seat) if ready else [])


def declare_choices(g: "MaginotLine", seat: int, rest: tuple[str, ...]) -> Choices:
    # bench: playouts/s — every step of a move asks it (Maginot Line: ~20% fewer steps/s without these)
    ready, ds = g._kept(("attackable", seat), _attackable, g, seat)
    if not rest:
        return Choices("token", tuple(Option(f"@{d}", say("Attack {player}", player=g.players[d]), d) for d in ds),
                       prompt=say("Attack whom?"))
    if rest[0] not in {f"@{d}" for d in ds}:
        return Choices()
    d = int(rest[0][1:])
    n = len(g.boards[d]["base"])
    pairs = rest[1:]
    last = -1
    for i in range(0, len(pairs), 2):
        if pairs[i] not in ready or ready.index(pairs[i]) <= last:
            return Choices()
        last = ready.index(pairs[i])
        if i + 1 < len(pairs):
            pos = parse_ace_token(pairs[i + 1])
            if not pos or pos[1] != d or not 1 <= pos[0] <= (1 if g.opts.top_only else n):
                return Choices()
    if len(pairs) % 2:
        unit = g.unit(seat, pairs[-1])
        opts = [Option(ace_token(p, d), say("Ace #{position} ({card}), {life} life", position=p,
                                            card=card_name(g.boards[d]["base"][0]["ace"]),
                                            life=ACE_LIFE - g.boards[d]["base"][p - 1]["wounds"]) if p == 1 else
                       say("Ace #{position}, {life} life", position=p, life=ACE_LIFE - g.boards[d]["base"][p - 1]["wounds"]),
                       p)
                for p in range(1, (1 if g.opts.top_only else n) + 1)]
        return Choices("token", tuple(opts), prompt=say("Which Ace does {unit} attack?", unit=unit_text(unit)))
    opts = [Option(uid, say("{unit} {cls}", unit=unit_text(g.unit(seat, uid)),
                            cls=CLASS_NAME[unit_class(g.unit(seat, uid))]), uid)
            for uid in ready[last + 1:]]
    return Choices("token", tuple(opts), complete=bool(pairs), prompt=say("Add an attacking unit, or declare."))


# ----- B1 engagement ------------------------------------------------------------------------
def engagers(g: "MaginotLine") -> dict[str, list[str]]:
    """Each defender unit that may engage → the attackers it may engage."""
    bt = g.battle
    atks = attackers(g)
    out: dict[str, list[str]] = {}
    for u in g.boards[bt["defender"]]["units"]:
        ok = [a["h"] for a in atks if may_engage(g, u, a)]
        if ok:
            out[u["h"]] = ok
    return out


def apply_engage(g: "MaginotLine", seat: int, action: Engage, events: list[Event]) -> None:
    bt = g.battle
    table = engagers(g)
    gs = [gid for gid, _ in action.pairs]
    if len(set(gs)) != len(gs):
        raise IllegalMove(say("Each of your units engages at most one attacker."), "B1")
    mobile = g.opts.mobile_defence
    for gid, aid in action.pairs:
        gu = g.unit(seat, gid)
        may_try = gu is not None and not gu["tapped"] and (gu["zone"] == "guardian" or mobile)
        if gid not in table and not may_try:
            raise IllegalMove(say("Engage with your untapped guardians and patrols only.") if mobile
                              else say("Engage with your untapped guardians only."), "4")
        if aid not in table.get(gid, ()):
            patrol = gu["zone"] == "patrol"  # V1 (ruling 33): a patrol that engages obeys the speed table
            raise IllegalMove(say("{unit} may not engage that attacker (a patrol engages its own class or a slower one).",
                                  unit=unit_text(gu)) if patrol else
                              say("{unit} may not engage that attacker (a guardian engages its own class or a slower "
                                  "one).", unit=unit_text(gu)), "33" if patrol else "3")
    listed = [u["h"] for u in g.boards[seat]["units"]]
    bt["engaged"] = [list(p) for p in sorted(action.pairs, key=lambda p: listed.index(p[0]))]
    if bt["engaged"]:
        lines = Many([say("{unit} on {target}", unit=unit_text(g.unit(seat, gid)),
                          target=unit_text(g.unit(bt["attacker"], aid))) for gid, aid in bt["engaged"]], ", ")
        g.emit(events, say("{player} engages: {lines}.", player=g.players[seat], lines=lines), kind="engage")
    else:
        g.emit(events, say("{player} engages no attacker.", player=g.players[seat]), kind="engage")
    start_commits(g, events)


def engage_choices(g: "MaginotLine", seat: int, rest: tuple[str, ...]) -> Choices:
    table = engagers(g)
    order = list(table)
    last = -1
    for i in range(0, len(rest), 2):
        if rest[i] not in table or order.index(rest[i]) <= last:
            return Choices()
        last = order.index(rest[i])
        if i + 1 < len(rest) and rest[i + 1] not in table[rest[i]]:
            return Choices()
    bt = g.battle
    if len(rest) % 2:
        gu = g.unit(seat, rest[-1])
        return Choices("token", tuple(Option(a, say("on {target}", target=unit_text(g.unit(bt["attacker"], a))), a)
                                      for a in table[rest[-1]]),
                       prompt=say("{unit} engages which attacker?", unit=unit_text(gu)))
    opts = tuple(Option(gid, unit_text(g.unit(seat, gid)), gid) for gid in order[last + 1:])
    return Choices("token", opts, complete=True, prompt=say("Add a unit to engage with, or confirm."))


# ----- B2 initiative ------------------------------------------------------------------------
def initiative(g: "MaginotLine", seat: int) -> int:
    total = 0
    for r in g.boards[seat]["resources"]:
        total += value(r["card"])
    return total


def start_commits(g: "MaginotLine", events: list[Event]) -> None:
    bt = g.battle
    a, d = bt["attacker"], bt["defender"]
    bt["step"] = "commit"
    bt["init"] = [initiative(g, a), initiative(g, d)]
    bt["holder"] = a if bt["init"][0] >= bt["init"][1] else d
    g.emit(events, say("Initiative: {attacker} {a}, {defender} {d}; {holder} holds it.", attacker=g.players[a],
                       a=bt["init"][0], defender=g.players[d], d=bt["init"][1], holder=g.players[bt["holder"]]),
           kind="initiative")
    advance(g, events)


def may_boost(g: "MaginotLine", seat: int) -> bool:
    """Ruling 28 (V3): in B2, before any SEIZE and the first commit, the player without
    initiative may discard J♦ for +3 Initiative, once per battle each."""
    bt = g.battle
    return (g.opts.jack_initiative and not bt["commits"] and not bt["seized"] and seat != bt["holder"]
            and seat not in bt.get("boosted", ()) and f"JD@{seat}" in g.boards[seat]["hand"])


def apply_seize(g: "MaginotLine", seat: int, action: Seize | Boost, events: list[Event]) -> None:
    bt = g.battle
    b = g.boards[seat]
    if bt["commits"] or seat == bt["holder"]:
        raise IllegalMove(say("Only the player without initiative may do that, before the first commit."), "11")
    if bt["seized"]:
        raise IllegalMove(say("The initiative was already seized in this battle."), "11")
    if isinstance(action, Seize):
        kd = f"KD@{seat}"
        if kd not in b["hand"]:
            raise IllegalMove(say("Seizing needs K♦ in your hand."), "11")
        b["hand"].remove(kd)
        b["discard"].append(kd)
        bt["seized"] = True
        bt["holder"] = seat
        g.emit(events, say("{player} discards K♦ and seizes the initiative.", player=g.players[seat]), kind="seize")
    else:
        jd = f"JD@{seat}"
        if not g.opts.jack_initiative:
            raise IllegalMove(say("J♦ adds to Initiative only with the Diamond initiative variant."), "V3")
        if seat in bt.get("boosted", ()):
            raise IllegalMove(say("You have already used J♦ for Initiative in this battle."), "28")
        if jd not in b["hand"]:
            raise IllegalMove(say("Boosting needs J♦ in your hand."), "V3")
        b["hand"].remove(jd)
        b["discard"].append(jd)
        bt.setdefault("boosted", []).append(seat)
        i = 0 if seat == bt["attacker"] else 1
        bt["init"][i] += 3
        bt["holder"] = bt["attacker"] if bt["init"][0] >= bt["init"][1] else bt["defender"]
        g.emit(events, say("{player} discards J♦ for +3 Initiative: {attacker} {a}, {defender} {d}; {holder} holds it.",
                           player=g.players[seat], attacker=g.players[bt["attacker"]], a=bt["init"][0],
                           defender=g.players[bt["defender"]], d=bt["init"][1], holder=g.players[bt["holder"]]),
               kind="seize")
    advance(g, events)


# ----- B3/B4 commits ------------------------------------------------------------------------
def check_commit(g: "MaginotLine", seat: int, c: Commit) -> str | None:
    """The tap kind, or raise IllegalMove."""
    b = g.boards[seat]
    cards = [card for card, _ in c.plays]
    if len(set(cards)) != len(cards) or any(card not in b["hand"] for card in cards):
        raise IllegalMove(say("Play cards from your hand, each once."), "B3")
    for card, tgt in c.plays:
        if face(card) not in BATTLE_CARDS:
            raise IllegalMove(say("{card} is not a battle card ({cards}).", card=card_name(card),
                                  cards=Many([card_name(c) for c in BATTLE_CARDS], " ")), "2.6")
        if tgt not in card_targets(g, seat, card):
            raise IllegalMove(say("{card} cannot go on {target}.", card=card_name(card), target=target_label(g, tgt)),
                              "26")
    kind = None
    if c.tap is not None:
        kind = tap_kind(g, seat)
        if kind is None:
            raise IllegalMove(say("Your base must be untapped with A♣, A♠ or A♥ as Ace #1."), "17")
        if c.tap not in in_battle(g, seat):
            raise IllegalMove(say("The base tap helps one of your units in this battle."), "17")
    if needs_split(g, seat):
        slots = split_slots(g)
        if len(c.split) != len(slots):
            raise IllegalMove(say("Split your attack among {n} guardians (one number each).", n=len(slots)), "10")
        for aid, _ in g.battle["attacks"]:
            amounts = [n for (a, _), n in zip(slots, c.split, strict=True) if a == aid]
            if amounts and sum(amounts) != final_attack(g, aid, c.plays, c.tap, kind):
                raise IllegalMove(say("The split of {unit} must add up to its Attack, {attack}.",
                                      unit=unit_text(g.unit(seat, aid)),
                                      attack=final_attack(g, aid, c.plays, c.tap, kind)), "10")
    elif c.split:
        raise IllegalMove(say("You have no attack to split."), "10")
    return kind


def apply_commit(g: "MaginotLine", seat: int, action: Commit, events: list[Event]) -> None:
    bt = g.battle
    kind = check_commit(g, seat, action)
    b = g.boards[seat]
    for card, _ in action.plays:
        b["hand"].remove(card)
        bt["played"].append(card)
    if action.tap is not None:
        b["base_tapped"] = True
    bt["commits"].append({"seat": seat, "plays": [list(p) for p in action.plays], "tap": action.tap,
                          "kind": kind, "split": list(action.split)})
    parts = [say("{card} on {target}", card=card_name(card), target=target_label(g, t)) for card, t in action.plays]
    if action.tap:
        parts.append(say("base tap ({ace} {bonus}) on {target}", ace=card_name(b["base"][0]["ace"]), bonus=TAP_WORD[kind],
                         target=target_label(g, action.tap)))
    if action.split:
        slots = split_slots(g)
        shares = zip(slots, action.split, strict=True)
        each = Many([say("{n} to {target}", n=n, target=target_label(g, gid)) for (_, gid), n in shares], ", ")
        parts.append(say("split {shares}", shares=each))
    what = Many(parts, "; ") if parts else say("nothing")
    first = len(bt["commits"]) == 1
    g.emit(events, say("{player}'s first commit: {what}.", player=g.players[seat], what=what) if first else
           say("{player}'s second commit: {what}.", player=g.players[seat], what=what), kind="commit")
    advance(g, events)


def commit_root(g: "MaginotLine", seat: int) -> list[Option]:
    bt = g.battle
    out = [Option("commit", say("Commit"))]
    first = not bt["commits"] and seat != bt["holder"]
    if first and not bt["seized"]:
        if f"KD@{seat}" in g.boards[seat]["hand"]:
            out.append(Option("seize", say("Seize the initiative with K♦")))
        if may_boost(g, seat):
            out.append(Option("boost", say("J♦: +3 Initiative")))
    return out


def commit_choices(g: "MaginotLine", seat: int, rest: tuple[str, ...]) -> Choices:
    hand_cards = battle_cards(g, seat)
    kind = tap_kind(g, seat)
    mine = in_battle(g, seat)
    can_tap = kind is not None and bool(mine)
    plays: list[tuple[str, str]] = []
    tap = None
    i = 0
    while i < len(rest) and rest[i] not in ("tap", "split"):
        card = rest[i]
        if card not in hand_cards or (plays and card <= plays[-1][0]):
            return Choices()
        targets = card_targets(g, seat, card)
        if i + 1 == len(rest):
            return Choices("token", tuple(Option(t, target_label(g, t), t) for t in targets),
                           prompt=say("{card} on what?", card=card_name(card)))
        if rest[i + 1] not in targets:
            return Choices()
        plays.append((card, rest[i + 1]))
        i += 2
    tapped = False
    if i < len(rest) and rest[i] == "tap":
        if not can_tap:
            return Choices()
        if i + 1 == len(rest):
            return Choices("token", tuple(Option(t, say("{target} {bonus}", target=target_label(g, t), bonus=TAP_WORD[kind]), t)
                                          for t in mine),
                           prompt=say("The base tap helps which unit?"))
        if rest[i + 1] not in mine:
            return Choices()
        tap = rest[i + 1]
        tapped = True
        i += 2
    split_needed = needs_split(g, seat)
    if i == len(rest):
        opts = []
        if not tapped:
            last = plays[-1][0] if plays else ""
            opts += [Option(c, say("Play {card}", card=card_name(c)), c) for c in hand_cards if c > last]
            if can_tap:
                opts.append(Option("tap", say("Tap your base ({ace}: {bonus})", ace=card_name(g.boards[seat]["base"][0]["ace"]),
                                                 bonus=TAP_WORD[kind])))
        if split_needed:
            opts.append(Option("split", say("Split your attack")))
        return Choices("token", tuple(opts), complete=not split_needed,
                       prompt=say("Add a battle card or the base tap, or confirm.") if not split_needed
                       else say("Add a battle card or the base tap, then split your attack."))
    if rest[i] != "split" or not split_needed:
        return Choices()
    amounts = rest[i + 1:]
    slots = split_slots(g)
    if len(amounts) > len(slots) or any(not a.isdigit() for a in amounts):
        return Choices()
    given: dict[str, int] = defaultdict(int)
    for (aid, _), a in zip(slots, amounts, strict=False):
        given[aid] += int(a)
    for k, (aid, _) in enumerate(slots[:len(amounts)]):
        atk = final_attack(g, aid, plays, tap, kind)
        if given[aid] > atk:
            return Choices()
        last_of = k + 1 == len(slots) or slots[k + 1][0] != aid
        if last_of and given[aid] != atk:
            return Choices()
    if len(amounts) == len(slots):
        return Choices(complete=True)
    aid, gid = slots[len(amounts)]
    atk = final_attack(g, aid, plays, tap, kind)
    left = atk - given[aid]
    last_of = len(amounts) + 1 == len(slots) or slots[len(amounts) + 1][0] != aid
    lo = left if last_of else 0
    return Choices("range", lo=lo, hi=left,
                   prompt=say("Attack of {unit} ({attack}) to {target}?", unit=target_label(g, aid), attack=atk,
                              target=target_label(g, gid)),
                   progress=Progress("Σ", given[aid], atk))


# ----- B5 outcome and B6 cleanup -----------------------------------------------------------
class Bonuses:
    """This battle's bonuses from the commits revealed so far (all of them at B5)."""

    def __init__(self, g: "MaginotLine") -> None:
        self.attack: dict[str, int] = defaultdict(int)
        self.armor: dict[str, int] = defaultdict(int)
        self.temp: dict[str, int] = defaultdict(int)
        self.shielded: set[str] = set()
        self.no_armor: set[str] = set()
        self.healed: list[str] = []
        self.split: list[int] = []
        bt = g.battle
        for c in bt["commits"]:
            for card, t in c["plays"]:
                f = face(card)
                if f == "JC":
                    self.attack[t] += 3
                elif f == "JS":
                    self.armor[t] += 3
                elif f == "JH":
                    self.temp[t] += 3
                elif f == "KS":
                    self.shielded.add(t)
                elif f == "KC":
                    self.no_armor.add(t)
                elif f == "KH":
                    self.healed.append(t)
            if c["tap"]:
                {"C": self.attack, "S": self.armor, "H": self.temp}[c["kind"]][c["tap"]] += 2
            if c["seat"] == bt["attacker"]:
                self.split = c["split"]

    def unit_attack(self, g: "MaginotLine", uid: str) -> int:
        return unit_attack(g.unit(owner(uid), uid)) + self.attack[uid]

    def armor_of(self, g: "MaginotLine", key: str) -> int:
        """Armor as B5 uses it: S number (+2 QS) or 0 for an Ace, + bonuses; 0 under K♣."""
        if key in self.no_armor:
            return 0
        base = 0 if parse_ace_token(key) else unit_armor(g.unit(owner(key), key))
        return base + self.armor[key]


def hit_aces(g: "MaginotLine") -> list[str]:
    """The Aces this battle's unengaged attackers hit (Ace #1 only with Top only)."""
    d_seat = g.battle["defender"]
    out: list[str] = []
    for _, tok in g.battle["attacks"]:
        t = tok if not g.opts.top_only else ace_token(1, d_seat)
        if t not in out:
            out.append(t)
    return out


def battle_values(g: "MaginotLine") -> list[tuple[str, int, int, int, bool]]:
    """Ruling 32: for each unit in the battle (attackers, then guardians) and each targeted Ace,
    (key, Attack, Armor, TempLife, K♠) with the bonuses of the commits revealed so far, as B5
    uses them. An Ace's Attack is 0."""
    bt = g.battle
    bonus = Bonuses(g)
    keys = in_battle(g, bt["attacker"]) + in_battle(g, bt["defender"])
    out = [(k, bonus.unit_attack(g, k), bonus.armor_of(g, k), bonus.temp[k], k in bonus.shielded) for k in keys]
    for tok in (hit_aces(g) if g.opts.top_only else targeted_aces(g)):
        out.append((tok, 0, bonus.armor_of(g, tok), bonus.temp[tok], tok in bonus.shielded))
    return out


def resolve(g: "MaginotLine", events: list[Event]) -> None:
    bt = g.battle
    d_seat = bt["defender"]
    bonus = Bonuses(g)
    temp, shielded = bonus.temp, bonus.shielded
    split = bonus.split
    # KH takes effect before the battle's damage (ruling 16).
    for t in bonus.healed:
        pos = parse_ace_token(t)
        if pos:
            g.boards[pos[1]]["base"][pos[0] - 1]["wounds"] = 0
        else:
            g.unit(owner(t), t)["wounds"] = 0

    def attack(uid: str) -> int:
        return bonus.unit_attack(g, uid)

    dmg: dict[str, int] = defaultdict(int)
    slots = split_slots(g)
    by_slot = dict(((a, gid), n) for (a, gid), n in zip(slots, split, strict=False))
    for aid, tok in bt["attacks"]:
        gs = guardians_of(g, aid)
        if not gs:
            dmg[tok if not g.opts.top_only else ace_token(1, d_seat)] += attack(aid)
            continue
        for gid in gs:
            dmg[gid] += by_slot[(aid, gid)] if len(gs) >= 2 else attack(aid)
            dmg[aid] += attack(gid)
    lines: list[Any] = []
    dead_units: list[str] = []
    dead_aces: list[int] = []

    def hit(key: str, incoming: int, life: int, rec: dict, label: str) -> tuple[bool, int]:
        """Apply ``incoming`` to ``rec``: (destroyed, wounds beyond life — for V2)."""
        if key in shielded:
            lines.append(say("{label} takes {incoming}, K♠: no wounds", label=label, incoming=incoming))
            return False, 0
        armor = bonus.armor_of(g, key)
        net = max(0, incoming - armor)
        soak = min(net, temp[key])
        rec["wounds"] += net - soak
        dead = rec["wounds"] >= life
        args = {"label": label, "incoming": incoming, "armor": armor, "net": net - soak, "total": rec["wounds"],
                "life": life}
        line = (say("{label} takes {incoming} − armor {armor}, {soak} absorbed → {net} wounds ({total} of {life})",
                    soak=soak, **args) if soak else
                say("{label} takes {incoming} − armor {armor} → {net} wounds ({total} of {life})", **args))
        lines.append(say("{line}: destroyed", line=line) if dead else line)
        return dead, (rec["wounds"] - life if dead else 0)

    for key in list(dmg):
        if parse_ace_token(key):
            continue
        u = g.unit(owner(key), key)
        dead, _ = hit(key, dmg[key], unit_life(u), u, unit_text(u))
        if dead:
            dead_units.append(key)
    base = g.boards[d_seat]["base"]
    aces = sorted((parse_ace_token(k)[0], k) for k in dmg if parse_ace_token(k))
    carry = 0
    for p, key in aces:
        incoming = dmg[key]
        while True:
            rec = base[p - 1]
            ace = say("{player}'s Ace #{position}", player=g.players[d_seat], position=p)
            shown = card_name(rec["ace"]) if p == 1 or rec["shown"] else say("an Ace")
            dead, surplus = hit(key, incoming + carry, ACE_LIFE, rec,
                                say("{ace} ({card})", ace=ace, card=shown) if p == 1 else ace)
            carry = 0
            if not dead:
                break
            dead_aces.append(p)
            if g.opts.top_only and surplus > 0 and p < len(base):
                p, key, incoming, carry = p + 1, ace_token(p + 1, d_seat), 0, surplus
                continue
            break
    if not lines:
        lines.append(say("no damage is dealt"))
    g.emit(events, say("Outcome: {lines}.", lines=Many(lines, "; ")), kind="outcome")
    # B6 cleanup
    for uid in dead_units:
        s = owner(uid)
        u = g.unit(s, uid)
        g.boards[s]["units"].remove(u)
        g.boards[s]["discard"] += [u["h"], u["s"], u["c"]] + ([u["queen"]] if u["queen"] else [])
    if dead_aces:
        fallen = [base[p - 1] for p in sorted(set(dead_aces))]
        for rec in fallen:
            base.remove(rec)
            g.boards[d_seat]["fallen"].append(rec["ace"])
        names = Many([card_name(r["ace"]) for r in fallen], " ")
        player = g.players[d_seat]
        line = (say("{player} loses {aces}. New Ace #1: {card}.", player=player, aces=names, card=card_name(base[0]["ace"]))
                if base else say("{player} loses {aces}. {player}'s base is empty.", player=player, aces=names))
        if base:
            base[0]["shown"] = True
        g.emit(events, line, kind="aces")
    for card in bt["played"]:
        g.boards[owner(card)]["discard"].append(card)
    g.battle = None


def abort(g: "MaginotLine", events: list[Event]) -> None:
    """Ruling 27: the battle ends with no outcome; played battle cards are discarded."""
    bt = g.battle
    for card in bt["played"]:
        g.boards[owner(card)]["discard"].append(card)
    g.battle = None
    g.emit(events, say("The battle ends with no outcome."))


def advance(g: "MaginotLine", events: list[Event]) -> None:
    """Resolve every step whose answer the public view already fixes."""
    while g.battle is not None:
        bt = g.battle
        if bt["step"] == "engage":
            if engagers(g):
                return
            g.emit(events, say("{player} has no unit that may engage.", player=g.players[bt["defender"]]), kind="engage")
            start_commits(g, events)
            return
        if len(bt["commits"]) == 2:
            resolve(g, events)
            return
        seat = committing(g)
        if g.boards[seat]["hand"] or (tap_kind(g, seat) and in_battle(g, seat)) or needs_split(g, seat):
            return
        apply_commit(g, seat, Commit(), events)
        return


__all__ = ["apply_declare", "apply_engage", "apply_commit", "apply_seize", "declare_choices", "engage_choices",
           "commit_choices", "commit_root", "committing", "default_commit", "abort", "advance", "resolve"]
