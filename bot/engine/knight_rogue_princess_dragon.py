"""The Knight, the Rogue, the Princess and the Dragon (Game Poem 24): a cooperative story for 4.

The engine referees who tells when and where each card goes; the story itself is free text,
kept in the state as the transcript (it is part of the game record).

State machine (``step``):

- ``flip``: Phase 1. The flipper plays ``flip``; a Knight makes them the starter, then the
  catch-up flips happen automatically (events), in seat order from the player after the starter.
- ``use`` / ``tell`` / ``pass``: Phase 2. ``use QS`` chooses the showing card (asked only when
  two or more are showing; a single showing card is chosen automatically), ``tell <text>``
  narrates, ``pass 3`` hands the card to player 3 (only legal recipients are offered). A
  recipient with an empty showing area flips automatically on receiving.
- ``wrapup``: the last teller lays the card on the story pile and narrates (``wrapup <text>``).
- ``priority``: the priority round. The holder plays ``play`` (Free Choice: ``play QS``) or
  ``pass``; a holder with no legal play passes automatically; four passes in a row end it.
  After a play, ``twist <text>`` is required from the player who played.
- ``race`` (variant Open Race): every player who has not passed since the last play may
  ``play`` or ``pass`` in any order; the ending comes when all four have passed since the
  last play (a pass stands until the next play; players with no legal play pass automatically).
  The table's 60-second timer is modelled by the players passing.
- ``close``: the player who laid the top card of the story pile gives the closing lines
  (``close <text>``, one or two lines). Then the game is over.

Deck order (``deck=``): the 16 cards K, Q, J, A of each suit, in any order (other cards are
ignored); each seat's own pile is the cards of its suit (P1 S, P2 H, P3 D, P4 C) in the order
they appear in the deck, top first.

Forfeit: the game needs exactly four players, so a player leaving ends it with no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.engine.base import Event, Game, IllegalMove, Outcome, TextPrompt, Variant
from bot.engine.cards import parse_card, pretty

SUITS = "SHDC"  # seat i owns suit SUITS[i]
ROLES = "KQJA"
ROLE_NAME = {"K": "Knight", "Q": "Princess", "J": "Rogue", "A": "Dragon"}
BEATS = {"K": "A", "A": "Q", "Q": "J", "J": "K"}
VERB = {"K": "slays", "A": "captures", "Q": "charms", "J": "deceives"}
BEATS_LINE = "Knight slays Dragon · Dragon captures Princess · Princess charms Rogue · Rogue deceives Knight"
ALL_CARDS = [r + s for s in SUITS for r in ROLES]

NEWEST_ON_TOP = "Newest on Top"
LOOSE_PASSING = "Loose Passing"
OPEN_RACE = "Open Race"
FREE_CHOICE = "Free Choice"
LAST_WORD = "Last Word"

TEXT_STEPS = {"tell": "tell", "wrapup": "wrapup", "twist": "twist", "close": "close"}


def role(card: str) -> str:
    """``"QS"`` → ``"Princess"``."""
    return ROLE_NAME[card[0]]


def beats(card: str, other: str) -> bool:
    """True when ``card`` beats ``other`` (Knight slays Dragon, ...)."""
    return BEATS[card[0]] == other[0]


def beats_phrase(card: str, other: str) -> str:
    """``("KH", "AS")`` → ``"Knight slays Dragon"``."""
    return f"{role(card)} {VERB[card[0]]} {role(other)}"


def no_dead_end(rem: list[int], teller: int, to: int) -> bool:
    """The §3 test: the remaining tellings can start with ``to`` and never repeat a teller."""
    total = sum(rem)
    if to == teller or rem[to] < 1 or rem[to] > (total + 1) // 2:
        return False
    return all(rem[z] <= total // 2 for z in range(len(rem)) if z != to)


@dataclass
class KnightRoguePrincessDragonGame(Game):
    game_id = "knight_rogue_princess_dragon"
    title = "The Knight, the Rogue, the Princess and the Dragon"
    min_players = 4
    max_players = 4
    variants = (
        Variant(NEWEST_ON_TOP, "A received card goes on top of the received pile, not underneath."),
        Variant(LOOSE_PASSING, "Only the source's two passing conditions (no dead-end test); a teller "
                "with nobody to pass to keeps the card and tells again."),
        Variant(OPEN_RACE, "In the ending anyone may play at any time; it ends when everyone has "
                "passed since the last play."),
        Variant(FREE_CHOICE, "In the ending, play any card of your received pile, not only the top one."),
        Variant(LAST_WORD, "The closing narrator scores 1 point."),
    )
    credit = "The Knight, the Rogue, the Princess and the Dragon — Game Poem 24, from the Game Poems series (2010)"
    settings: ClassVar[dict[str, tuple[int, int, int]]] = {"opener": (-1, -1, 3)}
    summary = (
        "**A cooperative storytelling game for exactly 4 players.** Nobody wins: you tell a tale together.\n"
        "Each player owns the K (Knight), Q (Princess), J (Rogue) and A (Dragon) of one suit "
        "(P1 ♠, P2 ♥, P3 ♦, P4 ♣), shuffled face-down.\n"
        "**1. Finding the starter.** From the opening flipper (setting `opener`, else random), players "
        "`flip` their top card in turn until someone turns up their Knight: the starter. Everyone still "
        "without a face-up card then flips one.\n"
        "**2. Telling.** The starter introduces the Knight (`tell <text>`), then hands it on "
        "(`pass <player>`). The receiver puts it under their received pile, flips a card if none is "
        "showing, chooses a showing card (`use QD`), tells how that character meets the story, and "
        "passes that card on. A card may go only to another player with unused cards, and never so "
        "that someone would be left with cards and nobody to tell between (the bot offers only the "
        "legal players). Every card is told: 16 tellings, 4 each.\n"
        "**3. The ending.** The last teller lays their card as the story pile and wraps up "
        "(`wrapup <text>`). Then, in seat order, each player may `play` the top card of their "
        "received pile if it beats the top of the story pile, adding a twist (`twist <text>`), or "
        "`pass`. Four passes in a row end it; whoever laid the top card gives the closing lines "
        "(`close <text>`).\n"
        f"Beats: {BEATS_LINE}.\n"
        "Variants: Newest on Top, Loose Passing, Open Race, Free Choice, Last Word.\n\n"
        "*The Knight, the Rogue, the Princess and the Dragon — Game Poem 24, "
        "from the Game Poems series (2010)*"
    )

    own: list[list[str]] = field(default_factory=list)  # face-down, top first
    showing: list[list[str]] = field(default_factory=list)  # in the order flipped
    used: list[list[str]] = field(default_factory=list)  # own cards told with, in order
    received: list[list[str]] = field(default_factory=list)  # top first
    story_pile: list[str] = field(default_factory=list)  # bottom to top
    story_by: list[int] = field(default_factory=list)  # who laid each story card
    transcript: list[dict[str, Any]] = field(default_factory=list)
    phase: str = "flip"  # flip | tell | ending | over
    step: str = "flip"  # flip | use | tell | pass | wrapup | priority | race | twist | close | over
    actor: int = -1  # flipper, teller, priority holder, twister or closing narrator
    opener: int = -1
    starter: int = -1
    last_teller: int = -1
    card: str | None = None  # the card being told or handed on
    passes: int = 0  # passes in a row (priority round)
    passed: list[int] = field(default_factory=list)  # Open Race: seats passed since the last play
    ended_early: int | None = None

    # ----- setup ----------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        if deck is None:
            rng = self.rng()
            piles = []
            for s in SUITS:
                pile = [r + s for r in ROLES]
                rng.shuffle(pile)
                piles.append(pile)
        else:
            cards = []
            for raw in deck:
                try:
                    c = parse_card(raw)
                except ValueError:
                    continue
                if c in ALL_CARDS and c not in cards:
                    cards.append(c)
            missing = [c for c in ALL_CARDS if c not in cards]
            if missing:
                raise IllegalMove(f"The deck lacks {', '.join(missing)}: it needs the K, Q, J and A of every suit.")
            piles = [[c for c in cards if c[1] == s] for s in SUITS]
        self.own = piles
        self.showing = [[] for _ in SUITS]
        self.used = [[] for _ in SUITS]
        self.received = [[] for _ in SUITS]
        opener = self.setting("opener")
        if opener < 0:
            opener = self.rng().randrange(4)
        self.opener = opener
        self.actor = opener
        self.phase = "flip"
        self.step = "flip"

    # ----- helpers --------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.players[seat]

    def rem(self) -> list[int]:
        return [len(self.own[s]) + len(self.showing[s]) for s in range(4)]

    def recipients(self, teller: int) -> list[int]:
        """Legal recipients for the card ``teller`` has just told with."""
        rem = self.rem()
        if self.has(LOOSE_PASSING):
            return [y for y in range(4) if y != teller and rem[y] >= 1]
        return [y for y in range(4) if no_dead_end(rem, teller, y)]

    def playable(self, seat: int) -> list[str]:
        """Cards ``seat`` may play onto the story pile now."""
        if not self.story_pile or not self.received[seat]:
            return []
        top = self.story_pile[-1]
        pool = self.received[seat] if self.has(FREE_CHOICE) else self.received[seat][:1]
        return [c for c in pool if beats(c, top)]

    def _receive(self, seat: int, card: str) -> None:
        if self.has(NEWEST_ON_TOP):
            self.received[seat].insert(0, card)
        else:
            self.received[seat].append(card)

    def _flip(self, seat: int) -> str:
        card = self.own[seat].pop(0)
        self.showing[seat].append(card)
        return card

    def _begin_turn(self, seat: int, events: list[Event]) -> None:
        """``seat`` becomes the teller: flip if nothing is showing, choose the card if only one."""
        self.actor = seat
        if not self.showing[seat]:
            card = self._flip(seat)
            events.append(Event(f"{self.name(seat)} flips {card}."))
        if len(self.showing[seat]) == 1:
            self._use(seat, self.showing[seat][0])
            self.step = "tell"
        else:
            self.step = "use"

    def _use(self, seat: int, card: str) -> None:
        self.showing[seat].remove(card)
        self.used[seat].append(card)
        self.card = card

    def _after_tell(self, events: list[Event]) -> None:
        teller = self.actor
        if sum(self.rem()) == 0:
            self.last_teller = teller
            self.story_pile = [self.card]
            self.story_by = [teller]
            events.append(Event(f"{self.name(teller)} is the last teller and lays {self.card} "
                                "on the story pile."))
            self.card = None
            self.phase = "ending"
            self.step = "wrapup"
            return
        if self.recipients(teller):
            self.step = "pass"
            return
        # Only under Loose Passing: the teller still has cards and nobody can take this one.
        card = self.card
        self._receive(teller, card)
        self.card = None
        events.append(Event(f"{self.name(teller)} has nobody to pass {card} to, keeps it in their "
                            "received pile and tells again."))
        self._begin_turn(teller, events)

    def _start_round(self, after: int, events: list[Event]) -> None:
        """Priority (or the open race) starts with the player after ``after``."""
        if self.has(OPEN_RACE):
            self.step = "race"
            self.actor = -1
            self.passed = []
            for i in range(1, 5):
                s = (after + i) % 4
                if not self.playable(s):
                    self.passed.append(s)
                    events.append(Event(f"{self.name(s)} cannot play and passes."))
            self.passes = len(self.passed)
            if len(self.passed) == 4:
                self._to_close(events)
            return
        self.step = "priority"
        self.passes = 0
        self.actor = (after + 1) % 4
        self._auto_pass(events)

    def _auto_pass(self, events: list[Event]) -> None:
        while self.passes < 4 and not self.playable(self.actor):
            events.append(Event(f"{self.name(self.actor)} cannot play and passes."))
            self.passes += 1
            self.actor = (self.actor + 1) % 4
        if self.passes >= 4:
            self._to_close(events)

    def _to_close(self, events: list[Event]) -> None:
        self.step = "close"
        self.actor = self.story_by[-1]
        events.append(Event(f"The ending stands with {self.story_pile[-1]} on top. "
                            f"{self.name(self.actor)} gives the closing lines."))

    def _say(self, seat: int, kind: str, card: str | None, text: str) -> None:
        self.transcript.append({"seat": seat, "kind": kind, "card": card, "text": text})

    def _seat_token(self, token: str) -> int:
        if token.isdigit() and 1 <= int(token) <= 4:
            return int(token) - 1
        for i, p in enumerate(self.players):
            if p.lower() == token.lower():
                return i
        raise IllegalMove(f"{token!r} is not a player: write the player's number, 1 to 4.")

    # ----- the contract ---------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        if self.step == "over" or self.ended_early is not None:
            return frozenset()
        if self.step == "race":
            return frozenset(s for s in range(4) if s not in self.passed)
        return frozenset({self.actor})

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self.step == "flip":
            return ["flip"]
        if self.step == "use":
            return [f"use {c}" for c in self.showing[seat]]
        if self.step == "pass":
            return [f"pass {y + 1}" for y in self.recipients(seat)]
        if self.step in ("priority", "race"):
            cards = self.playable(seat)
            plays = [f"play {c}" for c in cards] if self.has(FREE_CHOICE) else (["play"] if cards else [])
            return plays + ["pass"]
        return []

    def prompts(self, seat: int) -> list[TextPrompt]:
        if seat not in self.to_act() or self.step not in TEXT_STEPS:
            return []
        if self.step == "tell":
            what = "Introduce your Knight" if not self.transcript else f"Tell with the {role(self.card)}"
            return [TextPrompt("tell", f"{what} ({self.card})", True, 1000)]
        top = self.story_pile[-1]
        if self.step == "wrapup":
            return [TextPrompt("wrapup", f"Wrap up: the {role(top)} ({top}) gets its wish", True, 1000)]
        if self.step == "twist":
            return [TextPrompt("twist", f"Twist: the {role(top)} ({top}) turns it", True, 1000)]
        return [TextPrompt("close", "Closing lines (one or two)", True, 500)]

    def _apply(self, seat: int, move: str) -> list[Event]:
        verb, _, rest = move.partition(" ")
        verb = verb.lower()
        rest = rest.strip()
        step = self.step
        events: list[Event] = []
        if step in TEXT_STEPS:
            if verb != TEXT_STEPS[step]:
                raise IllegalMove(self._expecting())
            prompt = self.prompts(seat)[0]
            text = self.text_of(seat, move, prompt)
            return self._apply_text(seat, step, text)
        if step == "flip":
            if verb != "flip" or rest:
                raise IllegalMove(self._expecting())
            card = self._flip(seat)
            events.append(Event(f"{self.name(seat)} flips {card}."))
            if card[0] == "K":
                self.starter = seat
                events.append(Event(f"{self.name(seat)} turns up their Knight and starts the story."))
                for i in range(1, 4):
                    s = (seat + i) % 4
                    if not self.showing[s]:
                        events.append(Event(f"{self.name(s)} flips {self._flip(s)} (catch-up flip)."))
                self.phase = "tell"
                self._use(seat, card)
                self.step = "tell"
            else:
                self.actor = (seat + 1) % 4
            return events
        if step == "use":
            if verb != "use" or not rest:
                raise IllegalMove(self._expecting())
            card = self._card(rest)
            if card not in self.showing[seat]:
                showing = ", ".join(self.showing[seat])
                raise IllegalMove(f"{card} is not in your showing area ({showing}): you tell with one "
                                  "of your face-up cards (ruling 3).")
            self._use(seat, card)
            self.step = "tell"
            return events
        if step == "pass":
            if verb != "pass" or not rest or " " in rest:
                raise IllegalMove(self._expecting())
            to = self._seat_token(rest)
            self._check_recipient(seat, to)
            card = self.card
            self.card = None
            self._receive(to, card)
            events.append(Event(f"{self.name(seat)} passes {card} to {self.name(to)}."))
            self._begin_turn(to, events)
            return events
        if step in ("priority", "race"):
            if verb == "pass" and not rest:
                if step == "race":
                    self.passed.append(seat)
                    self.passes = len(self.passed)
                    events.append(Event(f"{self.name(seat)} passes."))
                    if len(self.passed) == 4:
                        self._to_close(events)
                    return events
                self.passes += 1
                events.append(Event(f"{self.name(seat)} passes."))
                self.actor = (seat + 1) % 4
                self._auto_pass(events)
                return events
            if verb == "play":
                card = self._check_play(seat, rest)
                top = self.story_pile[-1]
                self.received[seat].remove(card)
                self.story_pile.append(card)
                self.story_by.append(seat)
                events.append(Event(f"{self.name(seat)} plays {card} on {top}: {beats_phrase(card, top)}."))
                self.step = "twist"
                self.actor = seat
                self.passes = 0
                self.passed = []
                return events
            raise IllegalMove(self._expecting())
        raise IllegalMove(self._expecting())

    def _apply_text(self, seat: int, step: str, text: str) -> list[Event]:
        events: list[Event] = []
        if step == "tell":
            kind = "opening" if not self.transcript else "tell"
            self._say(seat, kind, self.card, text)
            events.append(Event(f"{self.name(seat)} tells with {self.card}: {text}"))
            self._after_tell(events)
        elif step == "wrapup":
            self._say(seat, "wrapup", self.story_pile[-1], text)
            events.append(Event(f"{self.name(seat)} wraps up with {self.story_pile[-1]}: {text}"))
            self._start_round(seat, events)
        elif step == "twist":
            self._say(seat, "twist", self.story_pile[-1], text)
            events.append(Event(f"{self.name(seat)}'s twist with {self.story_pile[-1]}: {text}"))
            self._start_round(seat, events)
        else:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            if len(lines) > 2:
                raise IllegalMove(f"Closing lines: one or two lines, not {len(lines)}.")
            self._say(seat, "close", self.story_pile[-1], text)
            events.append(Event(f"{self.name(seat)} closes the story: {text}"))
            self.step = "over"
            self.phase = "over"
            self.actor = -1
            events.append(Event(self.outcome().summary))
        return events

    def _card(self, token: str) -> str:
        try:
            return parse_card(token)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None

    def _check_recipient(self, seat: int, to: int) -> None:
        card = self.card
        if to == seat:
            raise IllegalMove(f"You cannot pass {card} to yourself: it goes to another player (§3).")
        rem = self.rem()
        if rem[to] < 1:
            raise IllegalMove(f"{self.name(to)} has used all four cards: {card} may only go to a player "
                              "with unused cards (ruling 5).")
        if to not in self.recipients(seat):
            total = sum(rem)
            raise IllegalMove(
                f"Passing {card} to {self.name(to)} would leave a dead end (ruling 5): with {total} cards "
                f"left to tell, the receiver may hold at most {(total + 1) // 2} and every other player at "
                f"most {total // 2}. Legal: " + ", ".join(self.name(y) for y in self.recipients(seat)) + "."
            )

    def _check_play(self, seat: int, rest: str) -> str:
        pile = self.received[seat]
        top = self.story_pile[-1]
        if not pile:
            raise IllegalMove("Your received pile is empty: you can only pass.")
        if self.has(FREE_CHOICE):
            if not rest:
                raise IllegalMove("Say which received card to play, e.g. `play QS` (Free Choice).")
            card = self._card(rest)
            if card not in pile:
                raise IllegalMove(f"{card} is not in your received pile ({', '.join(pile)}).")
        else:
            card = pile[0]
            if rest and self._card(rest) != card:
                raise IllegalMove(f"Only the top card of your received pile, {card}, may be played (ruling 9).")
        if not beats(card, top):
            raise IllegalMove(f"{card} ({role(card)}) does not beat {top} ({role(top)}) on the story pile: "
                              f"only {BEATS_LINE} (ruling 10).")
        return card

    def _expecting(self) -> str:
        who = self.name(self.actor) if self.actor >= 0 else "Everyone"
        return {
            "flip": f"{who} must flip: `flip`.",
            "use": f"{who} must choose a showing card to tell with: `use <card>`.",
            "tell": f"{who} must tell with {self.card}: `tell <text>`.",
            "pass": f"{who} must pass {self.card} to another player: `pass <player number>`.",
            "wrapup": f"{who} must wrap the story up: `wrapup <text>`.",
            "priority": f"{who} holds priority: `play` or `pass`.",
            "race": "Play a card that beats the story pile's top (`play`) or `pass`.",
            "twist": f"{who} must tell the twist: `twist <text>`.",
            "close": f"{who} must give the closing lines: `close <text>`.",
        }.get(self.step, "The game is over.")

    def _forfeit(self, seat: int) -> list[Event]:
        # The story needs exactly four tellers: it ends here, with no winner.
        self.ended_early = seat
        self.phase = "over"
        self.step = "over"
        self.actor = -1
        return [Event(f"The story ended early because {self.name(seat)} left.")]

    def outcome(self) -> Outcome | None:
        details = {"story": [dict(e) for e in self.transcript], "story_pile": list(self.story_pile)}
        if self.ended_early is not None:
            return Outcome((), None, f"The story ended early because {self.name(self.ended_early)} left.",
                           {**details, "ended_early": self.ended_early})
        if self.step != "over":
            return None
        top, by = self.story_pile[-1], self.story_by[-1]
        summary = f"The story ends with the {role(top)} ({pretty(top)}) on top, laid by {self.name(by)}."
        details.update(top_card=top, top_by=by, narrator=by)
        if self.has(LAST_WORD):
            return Outcome((by,), 1, summary + f" {self.name(by)} has the last word (1 point).", details)
        return Outcome((), None, summary, details)

    def view(self, seat: int | None) -> dict[str, Any]:
        out = self.outcome()
        return {
            "game": self.game_id,
            "players": list(self.players),
            "suits": list(SUITS),
            "options": list(self.options),
            "to_act": sorted(self.to_act()),
            "over": out is not None,
            "outcome": None if out is None else {
                "winners": list(out.winners), "score": out.score, "summary": out.summary,
            },
            "phase": self.phase,
            "step": self.step,
            "actor": self.actor,
            "flipper": self.actor if self.step == "flip" else None,
            "teller": self.actor if self.step in ("use", "tell", "pass") else None,
            "priority": self.actor if self.step == "priority" else None,
            "opener": self.opener,
            "starter": self.starter,
            "last_teller": self.last_teller,
            "card": self.card,
            "own_count": [len(p) for p in self.own],
            "showing": [list(p) for p in self.showing],
            "used": [list(p) for p in self.used],
            "received": [list(p) for p in self.received],
            "rem": self.rem(),
            "story_pile": list(self.story_pile),
            "story_by": list(self.story_by),
            "passes": self.passes,
            "passed": list(self.passed),
            "transcript": [dict(e) for e in self.transcript],
            "ended_early": self.ended_early,
        }

    def hidden_cards(self, seat: int | None) -> set[str]:
        return {c for pile in self.own for c in pile}

    def describe(self, seat: int, move: str) -> str:
        verb, _, rest = move.partition(" ")
        if verb == "flip":
            return "Flip the top card of your pile"
        if verb == "use":
            return f"Tell with the {role(rest)} ({pretty(rest)})"
        if verb == "pass" and rest and self.card:
            to = self._seat_token(rest)
            return f"Pass {pretty(self.card)} to {self.name(to)} (P{to + 1})"
        if verb == "pass":
            return "Pass (let the ending stand)"
        if verb == "play" and self.story_pile:
            card = rest or (self.received[seat][0] if self.received[seat] else "")
            if card:
                top = self.story_pile[-1]
                return f"Play {pretty(card)} on {pretty(top)} — {beats_phrase(card, top)}"
        return move


GAME = KnightRoguePrincessDragonGame

_LINES = {
    "tell": "The {role} enters the tale.",
    "wrapup": "And so the {role} gets what they wanted.",
    "twist": "But the {role} turns the tables!",
    "close": "And that is how the tale was told.",
}


def auto_move(game: KnightRoguePrincessDragonGame, seat: int, rng: Any) -> str:
    """A built-in teller: flips, picks a showing card, writes a placeholder line, passes on, and in
    the ending plays a legal card two times out of three."""
    for p in game.prompts(seat):
        card = game.card or (game.story_pile[-1] if game.story_pile else "KS")
        return f"{p.verb} " + _LINES[p.verb].format(role=role(card))
    moves = game.legal_moves(seat)
    plays = [m for m in moves if m.startswith("play")]
    if plays:
        return rng.choice(plays) if rng.random() < 2 / 3 else "pass"
    return rng.choice(moves)
