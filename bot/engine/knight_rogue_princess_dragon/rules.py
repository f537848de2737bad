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
  The rulebook's race clock with no play (ruling 15: the table setting ``race_seconds``, 60 by
  default) is each racer's decision clock (:class:`TimedDecision`, ``clock_seconds``), running
  from the last accepted play (``clock_from``: the cards on the story pile, so a pass does not
  start it again): when it runs out the table plays the decision's default, ``pass``; all four
  passed is the ending.
- ``close``: the player who laid the top card of the story pile gives the closing lines
  (``close <text>``, one or two lines). Then the game is over.

Deck order (``deck=``): the 16 cards K, Q, J, A of each suit, in any order (other cards are
ignored); each seat's own pile is the cards of its suit (P1 S, P2 H, P3 D, P4 C) in the order
they appear in the deck, top first.

Forfeit: the game needs exactly four players, so a player leaving ends it with no winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, cast

from bot.engine import core
from bot.engine import options as opt
from bot.engine.cards import parse_card
from bot.engine.core import Action, Choices, Decision, Event, Game, Outcome, Seat, choices_from_actions
from bot.engine.knight_rogue_princess_dragon.actions import (LINES, NOTATION, Close, Flip, Give, Line, Pass, Play, Tell,
                                                              Use)
from bot.engine.knight_rogue_princess_dragon.roles import (
    ALL_CARDS,
    BEATS_LINE,
    CLOSE_MAX,
    RACE_SECONDS,
    ROLES,
    SUITS,
    TEXT_MAX,
    TITLE,
    beats,
    beats_phrase,
    character,
    cn,
    no_dead_end,
    role,
)
from bot.engine.knight_rogue_princess_dragon.view import PHASE_OF, KrpdView, StoryEntry, TimedDecision
from bot.engine.words import Many, Phrase, say

TEXT_STEPS = ("tell", "wrapup", "twist", "close")
_STEP_KINDS = {"flip": (Flip,), "use": (Use,), "pass": (Give,), "priority": (Pass, Play), "race": (Pass, Play)}


IllegalMove = core.IllegalMove  # one refusal class for every layer


@dataclass(frozen=True)
class KrpdOptions(opt.Options):
    """Every variant of the rulebook, and who flips first."""

    title: ClassVar[str] = TITLE

    newest_on_top: bool = opt.variant(
        "Newest on Top", "A received card goes on top of the received pile, not underneath (ruling 4).")
    loose_passing: bool = opt.variant(
        "Loose Passing", "Only the source's two passing conditions (no dead-end test); a teller with nobody "
        "to pass to keeps the card and tells again (ruling 5).")
    open_race: bool = opt.variant(
        "Open Race", "In the ending anyone may play at any time; it ends when everyone has passed since the "
        "last play, or when the race clock (race_seconds, 60 by default) runs out with no play (rulings 8, 15).")
    free_choice: bool = opt.variant(
        "Free Choice", "In the ending, play any card of your received pile, not only the top one (ruling 9).")
    last_word: bool = opt.variant("Last Word", "The closing narrator scores 1 point (ruling 13).")
    opener: int = opt.setting(
        -1, -1, 3, "Who flips first, counted from 0 (0 = P1 … 3 = P4); -1 = chosen at random (ruling 2).")
    race_seconds: int = opt.setting(
        RACE_SECONDS, 15, 600, "Open Race: the race clock, seconds with no play before the ending comes; it "
        "starts again at every accepted play (ruling 15).")

    def check_players(self, n: int) -> None:
        if self.opener >= n:
            raise IllegalMove(say("Setting opener must be from -1 to {last} with {n} players.", last=n - 1, n=n), "options")


@lru_cache(maxsize=64)  # bench: playouts/s — asked at every step (about 40% fewer steps/s without)
def _typed_options(options: tuple[str, ...]) -> KrpdOptions:
    return cast(KrpdOptions, KrpdOptions.parse(options))


@dataclass
class KnightRoguePrincessDragonGame(Game):
    game_id: ClassVar[str] = "knight_rogue_princess_dragon"
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[opt.Options]] = KrpdOptions
    state_version: ClassVar[int] = 2
    credit: ClassVar[str] = ("The Knight, the Rogue, the Princess and the Dragon — Game Poem 24, "
                             "from the Game Poems series (2010)")
    summary: ClassVar[str] = (
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
    transcript: list[dict[str, Any]] = field(default_factory=list)  # {seat, kind, card, text}
    step: str = "flip"  # flip | use | tell | pass | wrapup | priority | race | twist | close | over
    actor: int = -1  # flipper, teller, priority holder, twister or closing narrator
    opener: int = -1
    starter: int = -1
    last_teller: int = -1
    card: str | None = None  # the card being told or handed on
    passes: int = 0  # passes in a row (priority round)
    passed: list[int] = field(default_factory=list)  # Open Race: seats passed since the last play
    ended_early: int | None = None

    @property
    def o(self) -> KrpdOptions:
        """The typed options (parsed once per set of option strings, not once per copied state)."""
        return _typed_options(tuple(self.options))

    @property
    def phase(self) -> str:
        """flip | tell | ending | over (derived from the step)."""
        return "over" if self.ended_early is not None else PHASE_OF[self.step]

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
            cards: list[str] = []
            for raw in deck:
                try:
                    c = parse_card(raw)
                except ValueError:
                    continue
                if c in ALL_CARDS and c not in cards:
                    cards.append(c)
            missing = [c for c in ALL_CARDS if c not in cards]
            if missing:
                raise IllegalMove(say("The deck lacks {cards}: it needs the K, Q, J and A of every suit.",
                                      cards=Many(missing)), "deck")
            piles = [[c for c in cards if c[1] == s] for s in SUITS]
        self.own = piles
        self.showing = [[] for _ in SUITS]
        self.used = [[] for _ in SUITS]
        self.received = [[] for _ in SUITS]
        opener = self.o.opener
        if opener < 0:
            opener = self.rng().randrange(4)
        self.opener = opener
        self.actor = opener
        self.step = "flip"

    # ----- helpers --------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.players[seat]

    def rem(self) -> list[int]:
        return [len(self.own[s]) + len(self.showing[s]) for s in range(4)]

    def recipients(self, teller: int) -> list[int]:
        """Legal recipients for the card ``teller`` has just told with."""
        rem = self.rem()
        if self.o.loose_passing:
            return [y for y in range(4) if y != teller and rem[y] >= 1]
        return [y for y in range(4) if no_dead_end(rem, teller, y)]

    def playable(self, seat: int) -> list[str]:
        """Cards ``seat`` may play onto the story pile now."""
        if not self.story_pile or not self.received[seat]:
            return []
        top = self.story_pile[-1]
        pool = self.received[seat] if self.o.free_choice else self.received[seat][:1]
        return [c for c in pool if beats(c, top)]

    def _receive(self, seat: int, card: str) -> None:
        if self.o.newest_on_top:
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
            self.emit(events, say("{name} flips {card}.", name=self.name(seat), card=cn(card)), kind="flip", data=card)
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
        card = self.card
        assert card is not None
        if sum(self.rem()) == 0:
            self.last_teller = teller
            self.story_pile = [card]
            self.story_by = [teller]
            self.emit(events, say("{name} is the last teller and lays {card} on the story pile.", name=self.name(teller),
                                  card=cn(card)), kind="story_pile", data=card)
            self.card = None
            self.step = "wrapup"
            return
        if self.recipients(teller):
            self.step = "pass"
            return
        # Only under Loose Passing: the teller still has cards and nobody can take this one.
        self._receive(teller, card)
        self.card = None
        self.emit(events, say("{name} has nobody to pass {card} to, keeps it in their received pile and tells again.",
                              name=self.name(teller), card=cn(card)), kind="keep", data=card)
        self._begin_turn(teller, events)

    def _start_round(self, after: int, events: list[Event]) -> None:
        """Priority (or the open race) starts with the player after ``after``."""
        if self.o.open_race:
            self.step = "race"
            self.actor = -1
            self.passed = []
            for i in range(1, 5):
                s = (after + i) % 4
                if not self.playable(s):
                    self.passed.append(s)
                    self.emit(events, say("{name} cannot play and passes.", name=self.name(s)), kind="pass", data=s)
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
            self.emit(events, say("{name} cannot play and passes.", name=self.name(self.actor)), kind="pass",
                      data=self.actor)
            self.passes += 1
            self.actor = (self.actor + 1) % 4
        if self.passes >= 4:
            self._to_close(events)

    def _to_close(self, events: list[Event]) -> None:
        self.step = "close"
        self.actor = self.story_by[-1]
        self.emit(events, say("The ending stands with {card} on top. {name} gives the closing lines.",
                              card=cn(self.story_pile[-1]), name=self.name(self.actor)),
                  kind="ending", data=self.story_pile[-1])

    def _say(self, seat: int, kind: str, card: str | None, text: str) -> None:
        self.transcript.append({"seat": seat, "kind": kind, "card": card, "text": text})

    def _line_label(self) -> Phrase:
        """What the seat to act is asked to write now (a short title: modals allow 45 characters)."""
        if self.step == "tell":
            assert self.card is not None
            if not self.transcript:
                return say("Introduce your Knight ({card})", card=cn(self.card))
            return say("Tell with {character}", character=character(self.card))
        top = self.story_pile[-1]
        if self.step == "wrapup":
            return say("Wrap up: {character} gets its wish", character=character(top))
        if self.step == "twist":
            return say("Twist: {character} turns it", character=character(top))
        return say("Closing lines (one or two)")

    # ----- who acts -------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        if self.step == "over" or self.ended_early is not None:
            return ()
        if self.step == "race":
            top = cn(self.story_pile[-1])
            return tuple(
                TimedDecision(s, "race", True, "pass", say("Play a received card that beats {card}, or pass.", card=top),
                              clock_seconds=self.o.race_seconds, clock_from=len(self.story_pile))
                for s in range(4) if s not in self.passed)
        prompt = {
            "flip": say("Flip the top card of your own pile."),
            "use": say("Choose one of your showing cards to tell with."),
            "pass": say("Hand the card you told with to another player."),
            "priority": say("Play a received card that beats the top of the story pile, or pass."),
        }.get(self.step) or say("{label}.", label=self._line_label())
        return (Decision(self.actor, self.step, True, None, prompt),)

    # ----- actions --------------------------------------------------------------------
    def parse(self, seat: Seat, text: str) -> Action:
        """The typed action written ``text`` for the current step; a verb of another step, or
        a malformed argument, is refused with what is expected now."""
        step = self.step
        kinds = (LINES[step],) if step in TEXT_STEPS else _STEP_KINDS.get(step, ())
        try:
            return NOTATION.parse(text, self, kinds)
        except IllegalMove as e:
            if e.rule in ("usage", "verb"):
                raise IllegalMove(self._expecting(), "turn") from None
            raise

    def _legal_tokens(self, seat: Seat) -> list[tuple[str, ...]]:
        """Every legal action of ``seat`` now as tokens (a text line as its verb alone)."""
        if seat not in self.to_act():
            return []
        step = self.step
        if step in TEXT_STEPS:
            return [(step,)]
        if step == "flip":
            return [("flip",)]
        if step == "use":
            return [("use", c) for c in self.showing[seat]]
        if step == "pass":
            return [("pass", str(y + 1)) for y in self.recipients(seat)]
        if step in ("priority", "race"):
            cards = self.playable(seat)
            plays = [("play", c) for c in cards] if self.o.free_choice else ([("play",)] if cards else [])
            return [*plays, ("pass",)]
        return []

    def _label(self, seat: Seat, tokens: tuple[str, ...]) -> tuple[str, Any]:
        """Plain words and typed data for the last of ``tokens``."""
        verb = tokens[0]
        arg = tokens[1] if len(tokens) > 1 else None
        if verb in TEXT_STEPS:
            return self._line_label(), None
        if verb == "flip":
            return say("Flip the top card of your pile"), None
        if verb == "use":
            if arg is None:
                return say("Choose a showing card to tell with"), None
            return say("Tell with {character}", character=character(arg)), arg
        if verb == "pass" and self.step == "pass":
            assert self.card is not None
            if arg is None:
                return say("Pass {card} to another player", card=cn(self.card)), None
            to = int(arg) - 1
            return say("Pass {card} to {name} (P{seat})", card=cn(self.card), name=self.name(to), seat=str(to + 1)), to
        if verb == "pass":
            return say("Pass (let the ending stand)"), None
        top = self.story_pile[-1]
        if arg is None and self.o.free_choice:
            return say("Play a received card that beats {card}", card=cn(top)), None
        card = arg or self.received[seat][0]
        return say("Play {card} on {top} — {beats}", card=cn(card), top=cn(top), beats=beats_phrase(card, top)), card

    def choices(self, seat: Seat, prefix: Sequence[str] = ()) -> Choices:
        prefix = tuple(prefix)
        legal = self._legal_tokens(seat)
        if prefix and self.step in TEXT_STEPS and (self.step,) in legal and prefix[0].lower() == self.step:
            if len(prefix) == 1:
                limit = CLOSE_MAX if self.step == "close" else TEXT_MAX
                return Choices("text", max_len=limit, prompt=self._line_label(), required=True)
            return Choices(complete=True)
        return choices_from_actions(legal, prefix, lambda t: self._label(seat, t))

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        step = self.step
        events: list[Event] = []
        if isinstance(action, Line) and action.verb == step:
            return self._apply_line(seat, action)
        if isinstance(action, Flip) and step == "flip":
            card = self._flip(seat)
            self.emit(events, say("{name} flips {card}.", name=self.name(seat), card=cn(card)), kind="flip", data=card)
            if card[0] == "K":
                self.starter = seat
                self.emit(events, say("{name} turns up their Knight and starts the story.", name=self.name(seat)),
                          kind="starter", data=seat)
                for i in range(1, 4):
                    s = (seat + i) % 4
                    if not self.showing[s]:
                        c = self._flip(s)
                        self.emit(events, say("{name} flips {card} (catch-up flip).", name=self.name(s), card=cn(c)),
                                  kind="flip", data=c)
                self._use(seat, card)
                self.step = "tell"
            else:
                self.actor = (seat + 1) % 4
            return events
        if isinstance(action, Use) and step == "use":
            if action.card not in self.showing[seat]:
                showing = Many([cn(c) for c in self.showing[seat]])
                raise IllegalMove(say("{card} is not in your showing area ({showing}): you tell with one of your "
                                      "face-up cards (ruling 3 — see /game rules section: Rulings).",
                                      card=cn(action.card), showing=showing), "6.3")
            self._use(seat, action.card)
            self.step = "tell"
            return events
        if isinstance(action, Give) and step == "pass":
            self._check_recipient(seat, action.to)
            card = self.card
            assert card is not None
            self.card = None
            self._receive(action.to, card)
            self.emit(events, say("{name} passes {card} to {other}.", name=self.name(seat), card=cn(card),
                                  other=self.name(action.to)), kind="give", data=(card, action.to))
            self._begin_turn(action.to, events)
            return events
        if isinstance(action, Pass) and step == "race":
            self.passed.append(seat)
            self.passes = len(self.passed)
            self.emit(events, say("{name} passes.", name=self.name(seat)), kind="pass", data=seat)
            if len(self.passed) == 4:
                self._to_close(events)
            return events
        if isinstance(action, Pass) and step == "priority":
            self.passes += 1
            self.emit(events, say("{name} passes.", name=self.name(seat)), kind="pass", data=seat)
            self.actor = (seat + 1) % 4
            self._auto_pass(events)
            return events
        if isinstance(action, Play) and step in ("priority", "race"):
            card = self._check_play(seat, action)
            top = self.story_pile[-1]
            self.received[seat].remove(card)
            self.story_pile.append(card)
            self.story_by.append(seat)
            self.emit(events, say("{name} plays {card} on {top}: {beats}.", name=self.name(seat), card=cn(card),
                                  top=cn(top), beats=beats_phrase(card, top)), kind="play", data=(card, top))
            self.step = "twist"
            self.actor = seat
            self.passes = 0
            self.passed = []
            return events
        raise IllegalMove(self._expecting(), "turn")

    def _apply_line(self, seat: Seat, line: Line) -> list[Event]:
        label = self._line_label()
        text = line.text.strip()
        limit = CLOSE_MAX if line.verb == "close" else TEXT_MAX
        if not text:
            raise IllegalMove(say("{label}: some text is required.", label=label), "5")
        if len(text) > limit:
            raise IllegalMove(say("{label}: at most {limit} characters (got {got}).", label=label, limit=limit,
                                  got=len(text)), "5")
        events: list[Event] = []
        if isinstance(line, Tell):
            kind = "opening" if not self.transcript else "tell"
            self._say(seat, kind, self.card, text)
            self.emit(events, say("{name} tells with {card}: {text}", name=self.name(seat), card=cn(self.card or ""),
                                  text=text), kind=kind, data=self.card)
            self._after_tell(events)
        elif isinstance(line, Close):
            lines = [ln for ln in text.splitlines() if ln.strip()]
            if len(lines) > 2:
                raise IllegalMove(say("Closing lines: one or two lines, not {count}.", count=len(lines)), "4.3")
            self._say(seat, "close", self.story_pile[-1], text)
            self.emit(events, say("{name} closes the story: {text}", name=self.name(seat), text=text), kind="close",
                      data=self.story_pile[-1])
            self.step = "over"
            self.actor = -1
            out = self.outcome()
            assert out is not None
            self.emit(events, out.summary, kind="over")
        else:
            top = self.story_pile[-1]
            self._say(seat, line.verb, top, text)
            said = (say("{name} wraps up with {card}: {text}", name=self.name(seat), card=cn(top), text=text)
                    if line.verb == "wrapup" else
                    say("{name}'s twist with {card}: {text}", name=self.name(seat), card=cn(top), text=text))
            self.emit(events, said, kind=line.verb, data=top)
            self._start_round(seat, events)
        return events

    def _check_recipient(self, seat: int, to: int) -> None:
        card = cn(self.card or "")
        if to == seat:
            raise IllegalMove(say("You cannot pass {card} to yourself: it goes to another player "
                                  "(see /game rules section: The turn).", card=card), "3.2")
        rem = self.rem()
        if rem[to] < 1:
            raise IllegalMove(say("{name} has used all four cards: {card} may only go to a player "
                                  "with unused cards (ruling 5 — see /game rules section: Rulings).",
                                  name=self.name(to), card=card), "6.5")
        if to not in self.recipients(seat):
            total = sum(rem)
            raise IllegalMove(
                say("Passing {card} to {name} would leave a dead end: with {total} cards left to tell, the receiver "
                    "may hold at most {most} and every other player at most {others}. Legal: {legal} "
                    "(ruling 5 — see /game rules section: Rulings).", card=card, name=self.name(to), total=total,
                    most=(total + 1) // 2, others=total // 2, legal=Many([self.name(y) for y in self.recipients(seat)])),
                "6.5")

    def _check_play(self, seat: int, action: Play) -> str:
        pile = self.received[seat]
        top = self.story_pile[-1]
        if not pile:
            raise IllegalMove(say("Your received pile is empty: you can only pass."), "4.2")
        if self.o.free_choice:
            if not action.card:
                raise IllegalMove(say("Say which received card to play, e.g. `play Q♠` (variant Free Choice)."), "6.9")
            card = action.card
            if card not in pile:
                raise IllegalMove(say("{card} is not in your received pile ({pile}).", card=cn(card),
                                      pile=Many([cn(c) for c in pile])), "6.9")
        else:
            card = pile[0]
            if action.card and action.card != card:
                raise IllegalMove(say("Only the top card of your received pile, {card}, may be played "
                                      "(ruling 9 — see /game rules section: Rulings).", card=cn(card)), "6.9")
        if not beats(card, top):
            raise IllegalMove(say("{card} ({role}) does not beat {top} ({top_role}) on the story pile: only {beats} "
                                  "(ruling 10 — see /game rules section: Rulings).", card=cn(card), role=role(card),
                                  top=cn(top), top_role=role(top), beats=BEATS_LINE), "6.10")
        return card

    def _expecting(self) -> Phrase:
        who = self.name(self.actor) if self.actor >= 0 else say("Everyone")
        card = cn(self.card) if self.card else ""
        found = {
            "flip": lambda: say("{who} must flip the top card of their pile.", who=who),
            "use": lambda: say("{who} must choose a showing card to tell with.", who=who),
            "tell": lambda: say("{who} must tell with {card}.", who=who, card=card),
            "pass": lambda: say("{who} must pass {card} to another player.", who=who, card=card),
            "wrapup": lambda: say("{who} must wrap the story up.", who=who),
            "priority": lambda: say("{who} holds priority: they may play a received card that beats the story "
                                    "pile's top, or pass.", who=who),
            "race": lambda: say("Play a card that beats the story pile's top, or pass."),
            "twist": lambda: say("{who} must tell the twist.", who=who),
            "close": lambda: say("{who} must give the closing lines.", who=who),
        }.get(self.step)
        return found() if found else say("The game is over.")

    def _forfeit(self, seat: int) -> list[Event]:
        # The story needs exactly four tellers: it ends here, with no winner.
        self.ended_early = seat
        self.step = "over"
        self.actor = -1
        events: list[Event] = []
        self.emit(events, say("The story ended early because {name} left.", name=self.name(seat)), kind="over")
        return events

    # ----- results --------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        details: dict[str, Any] = {"story": [dict(e) for e in self.transcript], "story_pile": list(self.story_pile)}
        if self.ended_early is not None:
            return Outcome((), None, say("The story ended early because {name} left.", name=self.name(self.ended_early)),
                           {**details, "ended_early": self.ended_early})
        if self.step != "over":
            return None
        top, by = self.story_pile[-1], self.story_by[-1]
        summary = say("The story ends with {character} on top, laid by {name}.", character=character(top),
                      name=self.name(by))
        details.update(top_card=top, top_by=by, narrator=by)
        if self.o.last_word:
            return Outcome((by,), 1, say("{summary} {name} has the last word (1 point).", summary=summary,
                                         name=self.name(by)), details)
        return Outcome((), None, summary, details)

    # ----- what each recipient sees ----------------------------------------------------
    def view(self, seat: Seat | None) -> KrpdView:
        out = self.outcome()
        return KrpdView(
            **self.base_view(seat),
            suits=tuple(SUITS),
            options=tuple(self.options),
            step=self.step if self.ended_early is None else "over",  # type: ignore[arg-type]
            actor=self.actor,
            opener=self.opener,
            starter=self.starter,
            last_teller=self.last_teller,
            card=self.card,
            own_count=tuple(len(p) for p in self.own),
            showing=tuple(tuple(p) for p in self.showing),
            used=tuple(tuple(p) for p in self.used),
            received=tuple(tuple(p) for p in self.received),
            rem=tuple(self.rem()),
            story_pile=tuple(self.story_pile),
            story_by=tuple(self.story_by),
            passes=self.passes,
            passed=tuple(self.passed),
            transcript=tuple(StoryEntry(e["seat"], e["kind"], e["card"], e["text"]) for e in self.transcript),
            ended_early=self.ended_early,
            race_seconds=self.o.race_seconds if self.o.open_race else None,
            winners=out.winners if out else (),
        )

    def known(self, seat: Seat | None) -> frozenset[str]:
        """Every card but the face-down own piles (their order is unknown to all, owner included)."""
        face_down = {c for pile in self.own for c in pile}
        return frozenset(c for c in ALL_CARDS if c not in face_down)

    # ----- stored states --------------------------------------------------------------
    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """v1 → v2: ``phase`` is derived from the step; the log is the core journal (v1 kept
        none in the state); options in their typed written form."""
        if data.get("format") != 1:
            return super().upgrade(data)
        state = dict(data["state"])
        state.pop("phase", None)
        state.setdefault("journal", [])
        state["options"] = cls.Options.parse(state.get("options", [])).dump()
        return {**data, "format": 2, "state": state}


GAME = KnightRoguePrincessDragonGame
