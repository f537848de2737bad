"""Warriors of the Celestial Emperor (Game Poem 35): a storytelling duel game for 2–4 players.

Each player is a clan holding the 13 cards of its suit. Duels are fought with face-down
cards committed in turn (the defender never sees the attacker's card), the winner collects
a trick, and at the end the best final card not above one's trick count wins.

Zones (every card is in exactly one): ``hands``, ``committed`` (a duel card, face-down
until both are in, then face-up until the exchange), ``tricks`` (face-down, seen by
nobody), ``finals`` (locked final cards), ``tie_pile`` (face-up, out of the game) and
``out`` (the cards of players who forfeited; never shown).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.engine.base import Event, Game, IllegalMove, Outcome, TextPrompt, Variant
from bot.engine.cards import RANKS, parse_card, pretty

CYCLE = "DHSC"  # order of play: Dragon, Phoenix, White Tiger, Tortoise
CLAN = {"D": "Dragon", "H": "Phoenix", "S": "White Tiger", "C": "Tortoise"}
CLAN_WORD = {"D": "dragon", "H": "phoenix", "S": "tiger", "C": "tortoise"}
WORD_CLAN = {
    "dragon": "D", "phoenix": "H", "tiger": "S", "whitetiger": "S", "tortoise": "C",
    "d": "D", "h": "H", "s": "S", "c": "C",
}
PRIORITY = {"C": 3, "S": 2, "H": 1, "D": 0}  # tie-break: Tortoise > White Tiger > Phoenix > Dragon
NARRATORS = "CSHD"  # the setting is narrated by the Tortoise, else the Tiger, else the Phoenix
MAX_TEXT = 1000

STRICT = "Strict"
LENIENT = "Lenient Descriptions"
SEAT_ORDER = "Seat Order Clans"


def value(card: str) -> int:
    """A = 1, 2–10 at face value, J = 11, Q = 12, K = 13."""
    return RANKS.index(card[0]) + 1


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (CYCLE.index(c[1]), value(c)))


@dataclass
class CelestialEmperorGame(Game):
    game_id = "celestial_emperor"
    title = "Warriors of the Celestial Emperor"
    min_players = 2
    max_players = 4
    secret_moves = True
    variants = (
        Variant(STRICT, "A player qualifies only if their final card is strictly lower than their tricks (v < T)."),
        Variant(LENIENT, "The attack description is optional (the attacker may skip it)."),
        Variant(SEAT_ORDER, "Clans go to seats in order (Dragon, Phoenix, White Tiger, Tortoise) "
                            "instead of at random: sit where your clan is."),
    )
    credit = "Warriors of the Celestial Emperor — Game Poem 35, from the Game Poems series (2010)"
    summary = (
        "**Warriors of the Celestial Emperor** — a storytelling duel game for 2–4 players.\n"
        "- Each player is a clan and holds the 13 cards of its suit: Dragon ♦, Phoenix ♥, "
        "White Tiger ♠, Tortoise ♣. A = 1 … K = 13. Play goes Dragon → Phoenix → Tiger → Tortoise.\n"
        "- The Tortoise (else the Tiger, else the Phoenix) describes where the fight takes place.\n"
        "- On your turn you must attack: pick a target who holds 2+ cards, describe the attack, "
        "commit a card face-down. The defender commits a card without seeing yours.\n"
        "- Both cards are revealed. Equal values: both go to the face-up tie pile (the defender may "
        "tell how the attack came to nothing). Otherwise the higher card wins: the winner tells the "
        "strike or parry, the loser tells how they withdraw.\n"
        "- The two cards are exchanged; then each duellist secretly puts any one card from hand "
        "face-down into the winner's trick pile. The winner's trick count T goes up by 1.\n"
        "- A player left with 1 card locks it as their final card and is out of the fight.\n"
        "- When fewer than two players hold 2+ cards, the battle ends: the one player still holding "
        "several keeps one as final card and discards the rest onto their tricks (+1 T each).\n"
        "- Final cards are revealed. A player qualifies if v ≤ T (*Strict*: v < T). The qualifying "
        "player with the highest v wins; if nobody qualifies, the lowest v wins. Ties: highest T, "
        "then Tortoise > White Tiger > Phoenix > Dragon.\n"
        "- The winner may tell of the victory, the others of returning to fight again.\n\n"
        f"*{credit}*"
    )

    clans: list[str] = field(default_factory=list)  # suit letter per seat
    hands: list[list[str]] = field(default_factory=list)
    committed: list[str | None] = field(default_factory=list)
    tricks: list[list[str]] = field(default_factory=list)
    T: list[int] = field(default_factory=list)
    finals: list[str | None] = field(default_factory=list)
    put_in: list[list[str]] = field(default_factory=list)  # cards each seat put into trick piles
    tie_pile: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    phase: str = "setting"
    narrator: int = 0
    duel: dict[str, Any] | None = None
    duel_number: int = 0
    story: list[dict[str, Any]] = field(default_factory=list)
    keeper: int | None = None
    finals_revealed: bool = False
    scoring: dict[str, Any] | None = None
    winner: int | None = None
    epilogue_done: list[int] = field(default_factory=list)
    end_reason: str = ""

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        n = len(self.players)
        if deck is not None:
            # A stacked deck fixes the clans: seat i takes the i-th distinct suit, top first.
            suits: list[str] = []
            for c in deck:
                s = parse_card(c)
                if not s.startswith("JK") and s[1] not in suits:
                    suits.append(s[1])
            if len(suits) < n:
                raise IllegalMove(f"The deck names only {len(suits)} suits for {n} players.")
            self.clans = suits[:n]
        elif self.has(SEAT_ORDER):
            self.clans = list(CYCLE[:n])
        else:
            self.clans = self.rng().sample(list(CYCLE), n)
        self.hands = [[r + s for r in RANKS] for s in self.clans]
        self.committed = [None] * n
        self.tricks = [[] for _ in range(n)]
        self.T = [0] * n
        self.finals = [None] * n
        self.put_in = [[] for _ in range(n)]
        self.narrator = self._pick_narrator()
        self.phase = "setting"

    # ----- helpers --------------------------------------------------------------------
    def seat_of_clan(self, suit: str) -> int | None:
        return self.clans.index(suit) if suit in self.clans else None

    def who(self, seat: int) -> str:
        return f"the {CLAN[self.clans[seat]]} ({self.players[seat]})"

    def clan_name(self, seat: int) -> str:
        return CLAN[self.clans[seat]]

    def in_game(self, seat: int) -> bool:
        return seat not in self.forfeited

    def is_active(self, seat: int) -> bool:
        """Still in the fight: not forfeited, no locked final card, at least 2 cards in hand."""
        return self.in_game(seat) and self.finals[seat] is None and len(self.hands[seat]) >= 2

    def cycle_seats(self) -> list[int]:
        return sorted(range(len(self.players)), key=lambda s: CYCLE.index(self.clans[s]))

    def _pick_narrator(self) -> int:
        for suit in NARRATORS:
            s = self.seat_of_clan(suit)
            if s is not None and self.in_game(s):
                return s
        return 0

    def _say(self, seat: int | None, kind: str, text: str) -> None:
        self.story.append({"seat": seat, "kind": kind, "text": text})

    def _remaining(self) -> list[int]:
        return [s for s in range(len(self.players)) if self.in_game(s)]

    # ----- whose move -----------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        ph, d = self.phase, self.duel
        if ph == "setting":
            return frozenset({self.narrator})
        if ph == "declare" and d:
            return frozenset({d["atk"]})
        if ph in ("defend", "tie_text") and d:
            return frozenset({d["def"]})
        if ph == "winner_text" and d:
            return frozenset({d["winner"]})
        if ph == "loser_text" and d:
            return frozenset({d["loser"]})
        if ph == "trick" and d:
            return frozenset(s for s in (d["atk"], d["def"]) if s not in d["trick_done"])
        if ph == "keep" and self.keeper is not None:
            return frozenset({self.keeper})
        if ph == "epilogue":
            return frozenset(s for s in self._remaining() if s not in self.epilogue_done)
        return frozenset()

    def waiting_for(self) -> str:
        actors = sorted(self.to_act())
        if not actors:
            return "The game is over."
        names = " and ".join(f"{self.players[s]} ({self.clan_name(s)})" for s in actors)
        return f"Waiting for {names} to {self._task()}."

    def _task(self, seat: int | None = None) -> str:
        ph, d = self.phase, self.duel
        if ph == "setting":
            return "describe where the fight takes place (setting <text>)"
        if ph == "declare" and d:
            if d["def"] is None:
                return "choose a target (target <clan>)"
            if not d["described"]:
                return "describe the attack (describe <text>)"
            return "commit a card face-down (commit <card>)"
        if ph == "defend":
            return "commit a card face-down to defend (commit <card>)"
        if ph == "tie_text":
            return "tell how the attack came to nothing (nullify <text>, or skip)"
        if ph == "winner_text" and d:
            verb = "strike" if d["winner"] == d["atk"] else "parry"
            return f"describe the {verb} ({verb} <text>)"
        if ph == "loser_text":
            return "describe moving away or changing the scene (withdraw <text>)"
        if ph == "trick":
            return "put one card from hand face-down into the trick (trick <card>)"
        if ph == "keep":
            return "choose the final card to keep; the others go onto the trick pile (keep <card>)"
        if ph == "epilogue":
            if seat is not None and seat != self.winner:
                return "tell of returning to fight again (return <text>, or skip)"
            if seat is not None:
                return "tell of the victory (victory <text>, or skip)"
            return "tell the epilogue (victory/return <text>, or skip)"
        return "wait"

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        ph, d = self.phase, self.duel
        hand = sort_cards(self.hands[seat])
        if ph == "declare" and d:
            if d["def"] is None:
                return [f"target {CLAN_WORD[self.clans[s]]}" for s in self._targets(seat)]
            if not d["described"]:
                return ["skip"] if self.has(LENIENT) else []
            return [f"commit {c}" for c in hand]
        if ph == "defend":
            return [f"commit {c}" for c in hand]
        if ph == "trick":
            return [f"trick {c}" for c in hand]
        if ph == "keep":
            return [f"keep {c}" for c in hand]
        if ph in ("tie_text", "epilogue"):
            return ["skip"]
        return []

    def _targets(self, atk: int) -> list[int]:
        return [s for s in self.cycle_seats() if s != atk and self.is_active(s)]

    def prompts(self, seat: int) -> list[TextPrompt]:
        if seat not in self.to_act():
            return []
        ph, d = self.phase, self.duel
        if ph == "setting":
            return [TextPrompt("setting", "Where does the fight take place?", True, MAX_TEXT)]
        if ph == "declare" and d and d["def"] is not None and not d["described"]:
            lenient = self.has(LENIENT)
            return [TextPrompt("describe", "Describe your attack", not lenient, MAX_TEXT,
                               "skip" if lenient else None)]
        if ph == "tie_text":
            return [TextPrompt("nullify", "How did the attack come to nothing?", False, MAX_TEXT, "skip")]
        if ph == "winner_text" and d:
            if d["winner"] == d["atk"]:
                return [TextPrompt("strike", "Describe your strike", True, MAX_TEXT)]
            return [TextPrompt("parry", "Describe your parry", True, MAX_TEXT)]
        if ph == "loser_text":
            return [TextPrompt("withdraw", "Describe moving away or changing the scene", True, MAX_TEXT)]
        if ph == "epilogue":
            if seat == self.winner:
                return [TextPrompt("victory", "Describe your victory", False, MAX_TEXT, "skip")]
            return [TextPrompt("return", "Tell of returning to fight again", False, MAX_TEXT, "skip")]
        return []

    # ----- moves ----------------------------------------------------------------------
    def _card_in_hand(self, seat: int, token: str, what: str) -> str:
        try:
            card = parse_card(token)
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        if card not in self.hands[seat]:
            raise IllegalMove(f"You do not hold {pretty(card)}: you can only {what} a card from your own hand.")
        return card

    def _apply(self, seat: int, move: str) -> list[Event]:
        verb = move.split()[0].lower()
        for p in self.prompts(seat):
            if p.verb == verb:
                text = self.text_of(seat, move, p)
                return self._text(seat, p.verb, text)
        args = move.split()[1:]
        ph, d = self.phase, self.duel
        if verb == "skip":
            if "skip" not in self.legal_moves(seat):
                raise IllegalMove(f"You cannot skip now: {self._task(seat)}.")
            return self._text(seat, "skip", "")
        if verb == "target":
            if ph != "declare" or not d or d["def"] is not None:
                raise IllegalMove(f"You cannot choose a target now: {self._task(seat)}.")
            word = "".join(args).lower()
            if word not in WORD_CLAN:
                raise IllegalMove("Name the target by clan: target dragon, phoenix, tiger or tortoise.")
            target = self.seat_of_clan(WORD_CLAN[word])
            if target is None:
                raise IllegalMove(f"There is no {CLAN[WORD_CLAN[word]]} in this game.")
            if target == seat:
                raise IllegalMove("You cannot attack yourself (rule R1: the target must not be the attacker).")
            if not self.is_active(target):
                raise IllegalMove(f"{self.who(target)} is out of the fight and cannot be attacked "
                                  "(rule R1: the target must hold 2 or more cards; ruling 8).")
            d["def"] = target
            self._say(None, "duel", f"The {self.clan_name(seat)} attacks the {self.clan_name(target)}.")
            return [Event(cap(f"{self.who(seat)} attacks {self.who(target)}."))]
        if verb in ("commit", "trick", "keep"):
            if len(args) != 1:
                raise IllegalMove(f"Write {verb} and one card, e.g. `{verb} 7D`.")
            if verb == "commit":
                return self._commit(seat, args[0])
            if verb == "trick":
                return self._trick(seat, args[0])
            return self._keep(seat, args[0])
        if verb in PLACEHOLDER:
            raise IllegalMove(f"No {verb} text is expected from you now: {self._task(seat)}.")
        raise IllegalMove(f"Unknown move {move.split()[0]!r}: {self._task(seat)}.")

    def _commit(self, seat: int, token: str) -> list[Event]:
        d = self.duel
        if not d or not (
            (self.phase == "declare" and seat == d["atk"] and d["def"] is not None and d["described"])
            or (self.phase == "defend" and seat == d["def"])
        ):
            raise IllegalMove(f"You cannot commit a card now: {self._task(seat)}.")
        card = self._card_in_hand(seat, token, "commit")
        self.hands[seat].remove(card)
        self.committed[seat] = card
        events = [Event(f"{cap(self.who(seat))} has committed a card."),
                  Event(f"You committed {card} face-down.", to=(seat,))]
        if self.phase == "declare":
            self.phase = "defend"
            return events
        return events + self._reveal()

    def _reveal(self) -> list[Event]:
        d = self.duel
        assert d is not None
        atk, dfn = d["atk"], d["def"]
        a, b = self.committed[atk], self.committed[dfn]
        assert a is not None and b is not None
        d["atk_card"], d["def_card"] = a, b
        d["revealed"] = True
        va, vb = value(a), value(b)
        head = f"Reveal: {self.who(atk)} played {a}, {self.who(dfn)} played {b}"
        if va == vb:
            d["tied"] = True
            self.tie_pile += [a, b]
            self.committed[atk] = self.committed[dfn] = None
            self._say(None, "tie", f"{a} and {b} tie: both go to the tie pile. There is no exchange and no trick.")
            self.phase = "tie_text"
            return [Event(f"{head}: a tie ({va} against {vb}). Both cards go to the face-up tie pile; "
                          f"no exchange, no trick. {self.players[dfn]} may tell how the attack came to nothing.")]
        w, lo = (atk, dfn) if va > vb else (dfn, atk)
        d["winner"], d["loser"] = w, lo
        hi_v, lo_v = max(va, vb), min(va, vb)
        self._say(None, "result", f"The {self.clan_name(w)} wins, {hi_v} against {lo_v}.")
        self.phase = "winner_text"
        verb = "strike" if w == atk else "parry"
        return [Event(f"{head}: {self.who(w)} wins ({hi_v} against {lo_v}). "
                      f"{self.players[w]} describes the {verb}.")]

    def _text(self, seat: int, verb: str, text: str) -> list[Event]:
        ph, d = self.phase, self.duel
        told = text and verb != "skip"
        events: list[Event] = []
        if told:
            self._say(seat, verb if verb != "describe" else "attack", text)
            events.append(Event(f"{self.players[seat]} ({self.clan_name(seat)}): {text}"))
        if ph == "setting":
            self.phase = "declare"
            return events + self._start_turn(self.cycle_seats()[0])
        if ph == "declare" and d:
            d["described"] = True
            return events
        if ph == "tie_text":
            return events + self._clean_up()
        if ph == "winner_text":
            self.phase = "loser_text"
            return events
        if ph == "loser_text" and d:
            return events + self._exchange()
        if ph == "epilogue":
            self.epilogue_done.append(seat)
            if not self.to_act():
                self.phase = "over"
                events.append(Event("The tale is told."))
            return events
        raise IllegalMove(f"No text is expected now: {self._task(seat)}.")

    def _exchange(self) -> list[Event]:
        d = self.duel
        assert d is not None
        atk, dfn = d["atk"], d["def"]
        a, b = self.committed[atk], self.committed[dfn]
        assert a is not None and b is not None
        self.hands[dfn].append(a)
        self.hands[atk].append(b)
        self.committed[atk] = self.committed[dfn] = None
        d["exchanged"] = True
        self.phase = "trick"
        return [Event(f"Exchange: {a} goes to {self.who(dfn)}, {b} goes to {self.who(atk)}. "
                      f"Both duellists now put one card face-down into the trick of "
                      f"{self.who(d['winner'])}.")]

    def _trick(self, seat: int, token: str) -> list[Event]:
        d = self.duel
        if self.phase != "trick" or not d or seat in d["trick_done"] or seat not in (d["atk"], d["def"]):
            raise IllegalMove(f"You cannot put a card into a trick now: {self._task(seat)}.")
        card = self._card_in_hand(seat, token, "put into the trick")
        w = d["winner"]
        self.hands[seat].remove(card)
        self.tricks[w].append(card)
        self.put_in[seat].append(card)
        d["trick_done"].append(seat)
        d["trick_cards"][str(seat)] = card
        events = [Event(f"{cap(self.who(seat))} has put a card face-down into the trick."),
                  Event(f"You put {card} into the trick of {self.who(w)}.", to=(seat,))]
        if len(d["trick_done"]) < 2:
            return events
        self.T[w] += 1
        line = f"The {self.clan_name(w)} takes the trick: T = {self.T[w]}."
        self._say(None, "trick", f"T {self.T[w]} for the {self.clan_name(w)}.")
        events.append(Event(line))
        return events + self._clean_up()

    def _clean_up(self) -> list[Event]:
        """R6: lock the final card of a duellist left with 1 card; the turn passes on."""
        d = self.duel
        assert d is not None
        events = self._lock([d["atk"], d["def"]])
        self.duel = None
        return events + self._start_turn(self._after(d["atk"]))

    def _lock(self, seats: list[int]) -> list[Event]:
        events = []
        for s in seats:
            if s is not None and self.in_game(s) and self.finals[s] is None and len(self.hands[s]) == 1:
                card = self.hands[s].pop()
                self.finals[s] = card
                line = f"The {self.clan_name(s)} holds a single card and locks it as the final card."
                self._say(None, "lock", f"The {self.clan_name(s)} locks a final card.")
                events += [Event(line), Event(f"Your locked final card is {card}.", to=(s,))]
        return events

    def _after(self, seat: int) -> int:
        order = self.cycle_seats()
        return order[(order.index(seat) + 1) % len(order)]

    def _start_turn(self, seat: int) -> list[Event]:
        """R0: the endgame when fewer than two are active, else the next active clan attacks."""
        if len([s for s in range(len(self.players)) if self.is_active(s)]) < 2:
            return self._endgame()
        order = self.cycle_seats()
        i = order.index(seat)
        for k in range(len(order)):
            s = order[(i + k) % len(order)]
            if self.is_active(s):
                self.duel_number += 1
                self.duel = {
                    "number": self.duel_number, "atk": s, "def": None, "described": False,
                    "revealed": False, "tied": False, "atk_card": None, "def_card": None,
                    "winner": None, "loser": None, "exchanged": False, "trick_done": [],
                    "trick_cards": {},
                }
                self.phase = "declare"
                return [Event(f"Duel {self.duel_number}: {self.who(s)} must attack.")]
        return self._endgame()  # unreachable: two active seats exist

    def _endgame(self) -> list[Event]:
        self.duel = None
        events = [Event("Fewer than two warriors can still fight: the battle ends.")]
        self._say(None, "end", "The battle ends.")
        events += self._lock(self._remaining())
        many = [s for s in self._remaining() if len(self.hands[s]) > 1]
        if many:
            self.keeper = many[0]
            self.phase = "keep"
            events.append(Event(f"{cap(self.who(self.keeper))} still holds "
                                f"{len(self.hands[self.keeper])} cards and chooses one to keep."))
            return events
        return events + self._final_reveal()

    def _keep(self, seat: int, token: str) -> list[Event]:
        if self.phase != "keep" or seat != self.keeper:
            raise IllegalMove(f"You cannot keep a card now: {self._task(seat)}.")
        card = self._card_in_hand(seat, token, "keep")
        others = [c for c in self.hands[seat] if c != card]
        self.hands[seat] = []
        self.finals[seat] = card
        self.tricks[seat] += others
        self.put_in[seat] += others
        self.T[seat] += len(others)
        self.keeper = None
        line = (f"The {self.clan_name(seat)} keeps a final card and discards {len(others)} "
                f"onto the trick pile: T = {self.T[seat]}.")
        self._say(None, "keep", line)
        return [Event(line), Event(f"You keep {card} as your final card.", to=(seat,))] + self._final_reveal()

    def _final_reveal(self) -> list[Event]:
        """E2–E4: reveal every final card and pick the one winner."""
        self.finals_revealed = True
        self.scoring = score(
            [(s, self.clans[s], self.finals[s], self.T[s]) for s in self._remaining() if self.finals[s]],
            strict=self.has(STRICT),
            names=self.players,
        )
        self.winner = self.scoring["winner"]
        self._say(None, "score", f"The {self.clan_name(self.winner)} wins the battle.")
        self.phase = "epilogue"
        return [Event("Final cards revealed.\n" + "\n".join(self.scoring["steps"]))]

    # ----- forfeits -------------------------------------------------------------------
    def _forfeit(self, seat: int) -> list[Event]:
        """The seat leaves the fight: its cards leave the game (the hidden ``out`` zone), a duel it
        is in is called off, it is never targeted again; one player left wins."""
        events: list[Event] = []
        if self.phase == "epilogue":
            # The scoring stands and the final cards stay revealed; only the line is skipped.
            if seat not in self.epilogue_done:
                self.epilogue_done.append(seat)
            if not self.to_act():
                self.phase = "over"
            return events
        d = self.duel
        resume: int | None = None  # the seat whose turn begins after a called-off duel
        if self.phase in ("declare", "defend", "tie_text", "winner_text", "loser_text", "trick") and d \
                and seat in (d["atk"], d["def"]):
            other = d["def"] if seat == d["atk"] else d["atk"]
            if d["tied"]:
                # The tie is already settled; only the defender's optional text was pending.
                self._lock([other])
                resume = self._after(d["atk"])
            else:
                if other is not None:
                    self._call_off(other)
                resume = self._after(seat) if seat == d["atk"] else d["atk"]
                events.append(Event("The duel is called off."))
            self.duel = None
        # The seat's cards leave the game.
        self.out += self.hands[seat] + self.tricks[seat]
        self.hands[seat], self.tricks[seat] = [], []
        for zone in (self.committed, self.finals):
            if zone[seat] is not None:
                self.out.append(zone[seat])
                zone[seat] = None
        left = self._remaining()
        if len(left) == 1:
            self.winner = left[0]
            self.phase = "over"
            self.duel = None
            self.keeper = None
            self.end_reason = "forfeit"
            line = f"Only {self.who(left[0])} remains and wins the battle."
            self._say(None, "end", line)
            return events + [Event(cap(line))]
        if self.phase == "setting":
            self.narrator = self._pick_narrator()
            return events
        if self.phase == "keep" and seat == self.keeper:
            self.keeper = None
            return events + self._final_reveal()
        if resume is not None:
            return events + self._start_turn(resume)
        if d and self.phase == "declare" and d["def"] is None and len([s for s in left if self.is_active(s)]) < 2:
            self.duel = None
            return events + self._endgame()
        return events

    def _call_off(self, seat: int) -> None:
        """Undo the duel for the remaining duellist ``seat``: hand back to its size at R1."""
        d = self.duel
        assert d is not None
        if self.committed[seat] is not None:
            self.hands[seat].append(self.committed[seat])
            self.committed[seat] = None
        mine = d["trick_cards"].get(str(seat))
        if mine is not None:
            self.tricks[d["winner"]].remove(mine)
            self.put_in[seat].remove(mine)
            self.hands[seat].append(mine)
        theirs = [c for s, c in d["trick_cards"].items() if int(s) != seat]
        for c in theirs:  # the leaver's trick card leaves with them
            self.tricks[d["winner"]].remove(c)
            self.out.append(c)
        self._lock([seat])

    # ----- results --------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != "over" or self.winner is None:
            return None
        w = self.winner
        if self.scoring is not None:
            row = next(r for r in self.scoring["rows"] if r["seat"] == w)
            summary = (f"{self.players[w]} ({self.clan_name(w)}) wins with {pretty(row['card'])} "
                       f"(v {row['v']}, T {row['T']}).")
        else:
            summary = f"{self.players[w]} ({self.clan_name(w)}) wins: everyone else left."
        return Outcome(
            winners=(w,),
            score=None,
            summary=summary,
            details={"scoring": self.scoring, "story": list(self.story), "clans": list(self.clans),
                     "reason": self.end_reason or "scoring"},
        )

    # ----- what each seat sees --------------------------------------------------------
    def all_cards(self) -> list[str]:
        return [r + s for s in self.clans for r in RANKS]

    def _known_publicly(self) -> set[str]:
        known = set(self.tie_pile)
        d = self.duel
        if d and d["revealed"] and not d["tied"]:
            for holder, card in ((d["def"], d["atk_card"]), (d["atk"], d["def_card"])):
                # Face-up until the exchange, then known in the receiver's hand until they
                # choose their trick card (it might be the one they put in).
                if not d["exchanged"] or holder not in d["trick_done"]:
                    known.add(card)
        if self.finals_revealed:
            known |= {c for c in self.finals if c}
        return known

    def _own(self, seat: int | None) -> set[str]:
        if seat is None or not 0 <= seat < len(self.players):
            return set()
        own = set(self.hands[seat]) | set(self.put_in[seat])
        own |= {c for c in (self.committed[seat], self.finals[seat]) if c}
        return own

    def hidden_cards(self, seat: int | None) -> set[str]:
        return set(self.all_cards()) - self._known_publicly() - self._own(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        hidden = self.hidden_cards(seat)

        def show(card: str | None) -> str | None:
            return card if card and card not in hidden else None

        acting = self.to_act()
        players = []
        for s in range(len(self.players)):
            players.append({
                "seat": s,
                "name": self.players[s],
                "clan": self.clan_name(s),
                "suit": self.clans[s],
                "hand_size": len(self.hands[s]),
                "tricks": self.T[s],
                "locked": self.finals[s] is not None,
                "active": self.is_active(s),
                "forfeited": s in self.forfeited,
                "committed": self.committed[s] is not None,
                "narrator": s == self.narrator,
                "to_act": s in acting,
            })
        duel = None
        d = self.duel
        if d:
            duel = {
                "number": d["number"],
                "attacker": d["atk"],
                "defender": d["def"],
                "described": d["described"],
                "committed": [s for s in (d["atk"], d["def"]) if s is not None and self.committed[s]],
                "revealed": d["revealed"],
                "attacker_card": show(d["atk_card"] if d["revealed"] else self.committed[d["atk"]]),
                "defender_card": show(d["def_card"] if d["revealed"] else
                                      (self.committed[d["def"]] if d["def"] is not None else None)),
                "result": None if not d["revealed"] else ("tie" if d["tied"] else "win"),
                "winner": d["winner"],
                "loser": d["loser"],
                "exchanged": d["exchanged"],
                "trick_done": list(d["trick_done"]),
            }
        out = self.outcome()
        view: dict[str, Any] = {
            "game": self.game_id,
            "title": self.title,
            "options": list(self.options),
            "seat": seat,
            "players": players,
            "phase": self.phase,
            "to_act": sorted(acting),
            "waiting": self.waiting_for(),
            "duel": duel,
            "duels_fought": self.duel_number - (1 if d else 0),
            "tie_pile": list(self.tie_pile),
            "story": list(self.story),
            "finals": ([{"seat": s, "card": c} for s, c in enumerate(self.finals) if c]
                       if self.finals_revealed else None),
            "scoring": self.scoring,
            "winner": self.winner,
            "over": out is not None,
            # The details (story, scoring) are in the view already.
            "outcome": None if out is None else {
                "winners": list(out.winners), "score": out.score, "summary": out.summary,
            },
        }
        if seat is not None and 0 <= seat < len(self.players):
            view["hand"] = sort_cards(self.hands[seat])
            view["committed"] = self.committed[seat]
            view["final"] = self.finals[seat]
            view["put_in_tricks"] = list(self.put_in[seat])
            view["your_move"] = self._task(seat) if seat in acting else None
            view["legal_moves"] = self.legal_moves(seat)
        return view

    # ----- copying and JSON (fast paths: the story grows long) -------------------------
    # ----- labels ---------------------------------------------------------------------
    def describe(self, seat: int, move: str) -> str:
        parts = move.split()
        if not parts:
            return move
        verb = parts[0].lower()
        try:
            if verb == "target" and len(parts) > 1:
                s = self.seat_of_clan(WORD_CLAN["".join(parts[1:]).lower()])
                if s is not None:
                    return f"Attack the {self.clan_name(s)} ({self.players[s]})"
            if verb == "commit" and len(parts) == 2:
                return f"Commit {pretty(parse_card(parts[1]))} face-down"
            if verb == "trick" and len(parts) == 2:
                return f"Put {pretty(parse_card(parts[1]))} into the trick"
            if verb == "keep" and len(parts) == 2:
                return f"Keep {pretty(parse_card(parts[1]))} as the final card"
        except (KeyError, ValueError):
            return move
        if verb == "skip":
            return "Skip the text"
        return move

    def redact(self, seat: int, move: str) -> str:
        verb = move.split()[0].lower() if move.split() else ""
        if verb in ("commit", "trick", "keep"):
            return f"{verb} (hidden)"
        return move


def score(rows_in: list[tuple[int, str, str, int]], strict: bool = False,
          names: list[str] | None = None) -> dict[str, Any]:
    """E2–E4 for ``(seat, suit, final card, T)`` rows: the scoring, step by step, and the winner."""
    sign = "<" if strict else "≤"
    rows = []
    steps = []
    for seat, suit, card, t in rows_in:
        v = value(card)
        q = v < t if strict else v <= t
        rows.append({"seat": seat, "clan": CLAN[suit], "suit": suit, "card": card, "v": v, "T": t,
                     "qualifies": q})
        who = CLAN[suit] + (f" ({names[seat]})" if names else "")
        steps.append(f"{who}: final card {card} (v {v}), T {t}: "
                     f"{'qualifies' if q else 'does not qualify'} ({v} {sign if q else ('≥' if strict else '>')} {t}).")
    qual = [r for r in rows if r["qualifies"]]
    if qual:
        pool, best = qual, max(r["v"] for r in qual)
        method = "highest qualifying card"
        steps.append(f"Qualifying (v {sign} T): {', '.join(r['clan'] for r in qual)}; the highest v is {best}.")
    else:
        pool, best = rows, min(r["v"] for r in rows)
        method = "lowest card (nobody qualifies)"
        steps.append(f"Nobody qualifies (v {sign} T): the lowest v wins, {best}.")
    cands = [r for r in pool if r["v"] == best]
    tie_breaks: list[str] = []
    if len(cands) > 1:
        tie_breaks.append("tricks")
        top_t = max(r["T"] for r in cands)
        steps.append(f"Tied on v {best}: {', '.join(r['clan'] for r in cands)}; the highest T is {top_t}.")
        cands = [r for r in cands if r["T"] == top_t]
        if len(cands) > 1:
            tie_breaks.append("priority")
            cands = sorted(cands, key=lambda r: -PRIORITY[r["suit"]])
            steps.append(f"Still tied: {', '.join(r['clan'] for r in cands)}; clan priority "
                         "(Tortoise > White Tiger > Phoenix > Dragon) decides.")
    win = cands[0]
    steps.append(f"The {win['clan']}" + (f" ({names[win['seat']]})" if names else "") + " wins.")
    return {"rule": f"v {sign} T", "rows": rows, "method": method, "tie_breaks": tie_breaks,
            "winner": win["seat"], "steps": steps}


GAME = CelestialEmperorGame

PLACEHOLDER = {
    "setting": "A misty mountain pass under the Emperor's banners.",
    "describe": "The warrior strikes.",
    "nullify": "The blow meets only air.",
    "strike": "The blade finds its mark.",
    "parry": "The attack is turned aside.",
    "withdraw": "The warrior falls back into the mist.",
    "victory": "The banners rise in triumph.",
    "return": "I will return to fight again.",
}


def auto_move(game: Game, seat: int, rng: random.Random) -> str:
    """A simple built-in warrior: short lines, a middling attack, a cheap-but-firm defence,
    low cards into tricks, and the best final card it can qualify with."""
    assert isinstance(game, CelestialEmperorGame)
    prompts = game.prompts(seat)
    if prompts:
        p = prompts[0]
        return f"{p.verb} {PLACEHOLDER.get(p.verb, 'The warrior fights on.')}"
    moves = game.legal_moves(seat)
    if not moves:
        raise IllegalMove("Nothing to do now.")
    hand = sorted(game.hands[seat], key=value)
    ph = game.phase
    if ph == "declare" and moves[0].startswith("target"):
        # Attack someone with many cards (the most dangerous, the one with most to lose).
        most = max(len(game.hands[game.seat_of_clan(WORD_CLAN[m.split()[1]])]) for m in moves)
        best = [m for m in moves if len(game.hands[game.seat_of_clan(WORD_CLAN[m.split()[1]])]) == most]
        return rng.choice(best)
    if ph == "declare" and moves[0].startswith("commit"):
        i = min(len(hand) - 1, max(0, len(hand) // 2 + rng.choice((-1, 0, 0, 1))))
        return f"commit {hand[i]}"
    if ph == "defend":
        i = min(len(hand) - 1, max(0, (len(hand) * 3) // 5 + rng.choice((-1, 0, 1))))
        return f"commit {hand[i]}"
    if ph == "trick":
        return f"trick {hand[0]}"
    if ph == "keep":
        t_after = game.T[seat] + len(hand) - 1
        strict = game.has(STRICT)
        ok = [c for c in hand if (value(c) < t_after if strict else value(c) <= t_after)]
        return f"keep {(ok[-1] if ok else hand[0])}"
    return moves[0]
