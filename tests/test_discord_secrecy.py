"""Where leaks land: whole games of every hidden-information game through the Discord stand-in,
with people in every seat, and after EVERY step every version of everything the bot showed anyone
checked against what its reader may know.

Read at the wire, not inside the bot: each version of each message (its creation and every edit,
however made: a REST edit, an UPDATE_MESSAGE answer to a press, a webhook edit of an answer or a
follow-up), each ephemeral message (read by the user whose interaction it answered), each modal and
each list of autocomplete choices. Every string in them counts — content, embeds (title,
description, fields, footer, author), components (labels, custom_ids, placeholders, option labels,
values and descriptions), attachments' file names and descriptions, text files' contents. A card the
reader may not know (``game.known(seat)``, the engine's oracle; the public for public messages) must
not be named in any notation the bot uses: codes (``9H``, ``8H@1``) or faces (``9♥``). The log of
what happened may name a card its reader once knew (a discard later shuffled away), as in the
engine's contract, so "may know" is what the reader has known at some point of this game.

Pictures are checked by value, not only by name: a public picture must be byte for byte the picture
of the public view of a state re-dealt so that only cards the public cannot know moved, and a seat's
picture that of the seat's view of a state re-dealt the same way for that seat.

Planted leaks (each put in by hand, seen to fail here, then taken out):
(a) the public table embed lists the deciding seat's private cards (from ``game.view(seat)``):
    caught in celestial_emperor, cardchess2 and maginot_line at the start (Court Wars and the
    Knight/Rogue/Princess/Dragon have no private cards: nothing to leak that way);
(b) a seat's private hand message names three cards of the next seat it cannot know: caught in
    celestial_emperor, cardchess2 and maginot_line at the first private panel;
(c) the table's "My hand" button carries a card the public cannot know in its custom_id: caught
    in all five games at the start;
(d) the public picture drawn from the deciding seat's view instead of the public one: caught by
    the picture check in celestial_emperor, knight_rogue_princess_dragon, cardchess2 and
    maginot_line;
(e) the top card of Court Wars' hidden draw pile in the public embed: caught in court_wars;
(f) an autocomplete choice naming a card the typing seat cannot know: caught in all five games
    (the first autocomplete of a seat to act);
(g) a watcher message (``/game watch``) made from a seat's reader instead of the public one: caught in
    celestial_emperor at the first watcher edit (``test_a_watcher_message_from_a_seat_reader_is_caught``);
(h) the end message's animation drawn from the deciding seat's views instead of the public's:
    caught by the same frame check (tests/render/test_animation.py plants it and sees it caught in
    celestial_emperor, knight_rogue_princess_dragon, cardchess2 and maginot_line);
(i) a "since your last move" line written from the mover's events as the mover read them (its own
    hidden card) instead of as the told seat read them: caught in celestial_emperor, played in English
    and in German (``test_planted_since_line_naming_another_seats_card_is_caught``);
(j) a shared replay moment made from a seat's reader instead of the public one: caught in
    celestial_emperor (``test_planted_moment_from_a_seats_reader_is_caught``).

Watcher messages (one from another channel, one in a DM of a seated player) follow every game here, and
every version of each is read as the public's, whoever receives it: a watcher is a public reader.
An animation (the end message's, the whole game) is checked frame by frame: each frame must be the
picture of the public reader's view of its step, made here from the record through the engine.
"Since your last move" lines are private-panel text like the rest (checked against the seat's own
view; the public ping never carries one); shared moments are public posts, each checked against
what the public may have known by its step and its picture against the public view of that step."""

from __future__ import annotations

import json
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core import Game
from bot.engine.words import encode
from bot.engine.registry import spec
from bot.i18n import LANGUAGES, language_of, words
from bot.render.pictures import InLanguage, draw_seat, draw_table
import bot.tables.lobby as table_module
import bot.tables.since as since_module
from bot.records import FORFEIT
from bot.tables.games import load_game
from tests.contract.harness import card_universe, e_revealed
from tests.discord_helpers import auto_moves, latest_table, make_move
from tests.render.animations import expected_frames, mismatches
from tests.render.pictures import redeal
from bot.standin import Shown

# Card names as a reader could read them: codes (9H, TD, JK, 8H@1) and faces in any of the bot's
# languages (9♥, 10♦, Q♥; German D♥ for the queen, B♠ for the jack).
_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC]|JK2?)(@\d+)?(?![A-Za-z0-9])")
_RANK = {"10": "T", **{words(lang).tp("card rank", r): r for lang in ("en", *LANGUAGES) for r in "AJQK"}}
_FACE = re.compile(rf"(?<![0-9])(10|[2-9]|{'|'.join(sorted(k for k in _RANK if k != '10'))})([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# Discord's own bookkeeping in a stored message: ids, times, the author, who was mentioned, the
# interaction it answered. None of it is written by the bot.
_NOT_WRITTEN = frozenset({"id", "channel_id", "guild_id", "timestamp", "edited_timestamp", "author", "mentions",
                          "mention_roles", "interaction_metadata", "webhook_id", "application_id", "url", "proxy_url",
                          "size", "content_type", "message_reference", "type", "flags"})


def strings(node: Any, out: list[str], top: bool = True) -> list[str]:
    """Every string a reader is shown in ``node`` (a message, modal or choice list), keys included."""
    if isinstance(node, str):
        out.append(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            if top and k in _NOT_WRITTEN:
                continue
            out.append(str(k))
            strings(v, out, top=False)
    elif isinstance(node, (list, tuple)):
        for v in node:
            strings(v, out, top=False)
    return out


def named(text: str) -> set[str]:
    """Cards ``text`` names: codes as written (``8H@1`` keeps its deck) and faces as codes (``9♥`` → ``9H``)."""
    found = {code + (deck or "") for code, deck in _CODE.findall(text)}
    found.update(_RANK.get(r, r) + _SUIT[s] for r, s in _FACE.findall(text))
    return found


def face(card: str) -> str:
    return card.partition("@")[0]


def leaks(text: str, known: set[str], universe: frozenset[str]) -> set[str]:
    """Cards of this game named in ``text`` that its reader may not know. A name without a deck
    (``8H``, ``8♥``) is a leak only when the reader may know no card with that face."""
    cards = named(text)
    if not cards:  # most texts name no card: nothing more to work out
        return set()
    out = set()
    faces = {face(c) for c in universe}
    known_faces = {face(c) for c in known}
    for card in cards:
        if "@" in card:
            if card in universe and card not in known:
                out.add(card)
        elif card in faces and card not in known_faces:
            out.add(card)
    return out


@dataclass
class Watcher:
    """Checks, after every step, everything the bot showed since the step before."""

    standin: Any
    bot: Any
    channel: int
    game_id: str
    seat_of: dict[int, int]  # user id -> seat
    ever: dict[int | None, set[str]] = field(default_factory=dict)  # what each reader has known this game
    universe: frozenset[str] = frozenset()
    mark: int = 0
    pictures_seen: set[str] = field(default_factory=set)  # attachment ids already compared
    counts: dict[str, int] = field(default_factory=dict)
    states: list[Game] = field(default_factory=list)  # the states this step may have shown (before, after)
    history: list[Game] = field(default_factory=list)  # every state checked so far (to explain a failure)
    watch_messages: set[int] = field(default_factory=set)  # watcher messages: the public's, whoever reads them
    _drawn: dict[tuple[int, int | None, str, str], bytes | None] = field(default_factory=dict)  # this step's drawings
    record: dict[str, Any] | None = None  # the finished game's record, once it ends
    animations_checked: set[bytes] = field(default_factory=set)
    lang: str = "en"  # the table's language (its pictures' words; a watcher message's are English still)

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    async def game(self) -> Game | None:
        table = await self.bot.service.get(self.channel)
        return load_game(table) if table is not None and table.state is not None else None

    def learn(self, game: Game, events: list[Any] = ()) -> None:
        """What every reader knows in ``game`` (and what ``events`` revealed as they happened)."""
        if not self.universe:
            self.universe = card_universe(game)
        for r in [None, *range(len(game.players))]:
            mine = self.ever.setdefault(r, set())
            mine.update(game.known(r))
            for e in events:
                if e.for_(r):
                    mine.update(e_revealed(e))

    def reader(self, item: Shown) -> int | None:
        """The seat of the one user who sees ``item``; None: the public (a public message, or a user
        who holds no seat, who may know what the public knows)."""
        if item.reader is None or item.message_id in self.watch_messages:
            return None
        return self.seat_of.get(item.reader)

    async def check(self, what: str, before: Game | None = None, events: list[Any] = ()) -> None:
        """Everything shown since the last check, each against what its reader may know (the watcher
        messages' edits, sent in the background after the table's, once they are all sent)."""
        await self.bot.get_cog("Watch").pacer.drained()
        now = await self.game()
        if now is not None:
            self.learn(now, events)
        self.states = [g for g in (before, now) if g is not None]
        self.history.extend(g for g in self.states if all(g is not h for h in self.history[-2:]))
        self._drawn.clear()  # keyed by id(): only for the states held in self.states
        new = self.standin.shown_since(self.mark)
        self.mark += len(new)
        if any(f.filename.endswith(ANIMATIONS) for item in new for f in item.files):  # the game's end
            self.record = await self.bot.service.last_record(self.channel)
        for item in new:
            self.check_item(item, what)

    def check_item(self, item: Shown, what: str) -> None:
        seat = self.reader(item)
        where = (f"after {what}: {item.kind} ({item.how}) v{item.version} of message {item.message_id}, "
                 f"read by {'the public' if seat is None else f'seat {seat}'}")
        self.count(item.kind + ("" if seat is None else " (private)"))
        texts = strings(item.payload, [])
        for f in item.files:
            if not f.filename.endswith(PICTURES):
                texts.append(f.data.decode("utf-8", "replace"))
        if any(since in json.dumps(item.payload, ensure_ascii=False) for since in SINCE):
            assert seat is not None, f"{where}: a seat's since-your-last-move line in a public message"
            self.count("since (private)")
        if self.universe:
            known = self.ever.get(seat, set())
            for text in texts:
                bad = leaks(text, known, self.universe)
                assert not bad, f"{where} names {sorted(bad)}, which its reader may not know, in {text[:300]!r}"
        if item.kind == "message":
            self.check_pictures(item, seat, where)

    @staticmethod
    def said(view: Any, lang: str) -> Any:
        """A view to draw a picture from, its words in ``lang``."""
        return view if lang == "en" else InLanguage(view, lang)

    def drawn(self, game: Game, seat: int | None, kind: str, lang: str = "en") -> bytes | None:
        """The picture of ``seat``'s view (None: public) of ``game`` with the cards ``seat`` may not
        know re-dealt, its words in ``lang``: what the reader may be shown."""
        key = (id(game), seat, kind, lang)
        if key not in self._drawn:
            other, _ = redeal(game, seat, seed=self.mark + len(self._drawn))
            view = other.view(seat)
            table_view = self.said(view, lang)
            self._drawn[key] = (draw_table if kind == "table" else draw_seat)(self.game_id, table_view)
        return self._drawn[key]

    def explain(self, data: bytes) -> str:
        """Which view, not re-dealt, the picture was drawn from: a leak, or an older or later state
        (every state checked so far is searched, and the picture is kept in the temporary folder)."""
        import tempfile

        kept = Path(tempfile.mkdtemp(prefix="deckhand-secrecy-")) / "picture.png"
        kept.write_bytes(data)
        found = [f"kept as {kept}"]
        for g in [*self.history, *self.states]:
            for r in [None, *range(len(g.players))]:
                tables = (draw_table(self.game_id, self.said(g.view(r), lang)) for lang in {"en", self.lang})
                seats = (draw_seat(self.game_id, self.said(g.view(r), lang)) for lang in {"en", self.lang})
                if data in tables or data in seats:
                    found.append(f"{'public' if r is None else f'seat {r}'} view at move {g.move_count}")
        return "; ".join(found) if len(found) > 1 else f"no view of any state so far draws it; {found[0]}"

    def check_pictures(self, item: Shown, seat: int | None, where: str) -> None:
        by_id = {a["id"]: a for a in item.payload.get("attachments") or []}
        for att, f in zip(by_id.values(), item.files, strict=True):
            if att["id"] in self.pictures_seen or not f.filename.endswith(PICTURES):
                continue
            self.pictures_seen.add(att["id"])
            if f.filename.endswith(ANIMATIONS):
                self.check_animation(f.data, seat, where)
                continue
            assert self.states, f"{where}: a picture before the game began"
            # A public message's picture is the table's; a private one is its reader's own picture
            # (a seat's) or the table's.
            # The candidates are drawn one at a time, the state after the step first (what a step
            # shows, mostly), and the first that fits ends the search: each drawing is a whole
            # picture, and the check is that one fits.
            kinds = ["table"] if seat is None else ["seat", "table"]
            langs = ("en",) if self.lang == "en" else (self.lang, "en")
            fits = any(self.drawn(g, seat if kind == "seat" else None, kind, lang) == f.data
                       for g in reversed(self.states) for kind in kinds for lang in langs)
            assert fits, f"{where}: the picture {f.filename!r} is not the one drawn from its reader's view " \
                         f"with the cards it may not know re-dealt ({self.explain(f.data)})"
            self.count("picture")


    def check_animation(self, data: bytes, seat: int | None, where: str) -> None:
        """The game's end shows the whole game: in public, each frame the picture of the public
        reader's view of its step (made here from the record, through the engine), nothing else."""
        assert seat is None and self.record is not None, f"{where}: an animation only ends a game, in public"
        if data not in self.animations_checked:  # the end message's and each watcher's last edit: one drawing
            public = expected_frames(self.record, lambda step, game: None, self.lang)  # in the table's language
            assert mismatches(self.game_id, data, public) == [], f"{where}: a frame is not the public reader's picture"
            self.animations_checked.add(data)
        self.count("animation")


PICTURES = (".png", ".gif", ".webp")
ANIMATIONS = (".gif", ".webp")
# game id -> (players, variants (quick settings where the game has them), the table's seed); LOCALE: a
# game played at a server (and by players) of another language
GAMES: dict[str, tuple[int, str | None, int]] = {
    "court_wars": (3, None, 11),
    "celestial_emperor": (3, "Seat Order Clans", 5),
    "knight_rogue_princess_dragon": (4, None, 3),
    "cardchess2": (2, ", ".join(spec("cardchess2").quick_options), 2),
    "maginot_line": (2, ", ".join(spec("maginot_line").quick_options), 66),
}
# a game played at a Spanish server's table: a translation must not name a card the English hid
SPANISH = {"maginot_line", "court_wars", "cardchess2"}


def has_choice_option(bot, command: str, verb: str) -> bool:
    group = bot.tree.get_command(command)
    sub = group.get_command(verb) if group is not None else None
    return sub is not None and any(p.name == "choice" for p in sub.parameters)


async def play_and_watch(standin, bot, monkeypatch, game_id: str, lang: str | None = None) -> Watcher:
    """``game_id`` played and watched at a server (and by players) of ``lang`` (None: Spanish for the
    games of :data:`SPANISH`, else English)."""
    n, variants, seed = GAMES[game_id]
    sp = spec(game_id)
    monkeypatch.setattr(table_module, "secrets", types.SimpleNamespace(randbits=lambda bits: seed))
    g = standin.guild()
    lang = lang or ("es" if game_id in SPANISH else "en")
    if lang != "en":
        g.locale = LOCALES[lang]
    users = [standin.user(name=x) for x in ("ana", "ben", "cat", "dee", "eve")[:n]]
    outsider = standin.user(name="zed")
    for u in [*users, outsider]:
        if lang != "en":
            u["locale"] = LOCALES[lang]
        g.add_member(u)
    channel = int(g.channel["id"])
    w = Watcher(standin, bot, channel, game_id, {int(u["id"]): i for i, u in enumerate(users)}, lang=lang)
    args = {"game": game_id, **({"variants": variants} if variants else {})}
    lobby = await standin.slash(bot, "game new", args, user=users[0], guild=g)
    for u in users[1:]:
        await standin.click(bot, lobby.message_id, label=words(lang).t("Join"), user=u)
    await w.check("the lobby")
    await standin.click(bot, lobby.message_id, label=words(lang).t("Start"), user=users[0])
    w.learn(await w.game())
    await w.check("the start")
    # Watchers: the outsider from another channel; the first player privately (a DM), read as the public.
    bot.get_cog("Watch").pacer.pace = 0.0  # every version is checked, at every step
    lounge = g.text_channel("lounge")
    for who, where, private in ((outsider, lounge, False), (users[0], lounge, True)):
        watching = await standin.slash(bot, "game watch", {"table": str(channel), "private": private}, user=who,
                                       guild=g, channel=where)
        mid = watching.message_id if not private else int(watching.content.rpartition("/")[2])
        w.watch_messages.add(mid)
    await w.check("the watchers' start")
    async for i, table, seat, move in auto_moves(bot, channel, 400):
        before = load_game(table)
        verb = move.split()[0]
        if before.choices(seat, (verb,)).kind == "text":
            move = f"{verb} Line {i} by seat {seat}."
        if i % 3 == 0 and has_choice_option(bot, sp.command, verb):
            # What typing the move offers the seat to act, and someone else (nothing, or only theirs).
            for who in (users[seat], users[(seat + 1) % n], outsider):
                await standin.autocomplete(bot, f"{sp.command} {verb}", {"choice": ""}, focused="choice",
                                           user=who, guild=g)
        if i % 4 == 1:  # the seat to act opens its panel: what happened since its last move, if anything
            await standin.slash(bot, "game hand", user=users[seat], guild=g)
        if i % 2 == 0:
            # Someone not acting (by turns, the outsider too) looks at their own hand or view.
            watcher = [*users, outsider][(i // 2) % (n + 1)]
            if watcher is not users[seat]:
                await standin.slash(bot, "game hand", user=watcher, guild=g)
        _, events = before.apply(seat, move)
        await make_move(standin, bot, channel, seat, move, users)
        await w.check(f"move {i} {move!r} by seat {seat}", before, list(events))
    table = await bot.service.get(channel)
    assert table.status == "finished", f"{game_id}: no end after {i + 1} moves"
    # The end: the final table, the story or record files offered, each checked like the rest.
    final = latest_table(standin, channel)
    for label in (words(lang).t("Story file"),):
        if any(lb == label for _, lb, _ in standin.buttons(int(final["id"]))):
            await standin.click(bot, int(final["id"]), label=label, user=users[1 % n])
    await w.check("the end")
    assert w.mark == len(standin.shown), "something shown was never checked"
    return w


# "Since your last move" in each language: a seat's own line, never in a public message
SINCE = tuple(words(lang).t("Since your last move: {lines}.", lines="").partition(":")[0] for lang in ("en", *LANGUAGES))
LOCALES = {"es": "es-ES", "de": "de"}


async def share_and_watch(standin, bot, channel: int, g: Any, user: dict, seat: int | None,
                          steps: list[int] | None = None) -> int:
    """``user`` opens the finished game's replay at a few moves, through ``seat``'s eyes where the
    game allows it, and shares each moment: every public post checked against what the public may
    have known by that step (texts) and the public view of that step (its picture). The viewer's
    own private messages are the replay tests' to check. Returns how many moments were checked."""
    record = await bot.service.last_record(channel)
    game_id, last = record["game"], len(record["moves"])
    key = (await standin.autocomplete(bot, "game replay", focused="game", user=user, guild=g))[0]["value"]
    states, ever, universe = [], set(), frozenset()
    game = spec(game_id).state.new(record["players"], record["options"], seed=record["seed"])
    for i in range(last + 1):
        events: list[Any] = []
        if i:
            mover, move = record["moves"][i - 1]
            game, events = (game.forfeit(mover) if move == FORFEIT else game.apply(mover, move))
        universe = universe or card_universe(game)
        ever = ever | game.known(None) | {c for e in events if e.for_(None) for c in e_revealed(e)}
        states.append((game, frozenset(ever)))
    w = Watcher(standin, bot, channel, game_id, {}, universe=universe, mark=len(standin.shown),
                lang=language_of(getattr(g, "locale", None)))  # a moment is posted in the server's language
    checked = 0
    for step in steps if steps is not None else sorted({0, 1, last // 3, last // 2, last - 1, last}):
        res = await standin.slash(bot, "game replay", {"game": key, "move": step}, user=user, guild=g)
        eyes = next((c for c in components_of(standin, res.message_id) if ":re:" in c["custom_id"]), None)
        if seat is not None and eyes is not None and str(seat) in [o["value"] for o in eyes["options"]]:
            await standin.select(bot, res.message_id, eyes["custom_id"], [str(seat)], user=user)
        share = next(c for c in components_of(standin, res.message_id) if ":rs:" in c["custom_id"])
        w.mark = len(standin.shown)
        await standin.click(bot, res.message_id, share["custom_id"], user=user)
        posts = [item for item in standin.shown_since(w.mark) if item.reader is None]  # its versions
        assert len({item.message_id for item in posts}) == 1, "one public post a moment"
        state, known = states[step]
        w.ever, w.states = {None: set(known)}, [state]
        w._drawn.clear()
        for item in posts:
            w.check_item(item, f"the shared moment at move {step} of {last}")
        checked += 1
    return checked


def components_of(standin, message_id: int) -> list[dict]:
    return [c for row in standin._message(message_id).get("components") or [] for c in row.get("components") or []]


@pytest.mark.end_animation  # it reads the end message's animation
@pytest.mark.parametrize("game_id", list(GAMES))
async def test_nothing_shown_names_a_card_its_reader_may_not_know(standin, bot, monkeypatch, game_id):
    w = await play_and_watch(standin, bot, monkeypatch, game_id)
    assert w.counts.get("since (private)", 0) > 0, w.counts
    table_id = int(latest_table(standin, w.channel)["id"])
    g = standin.guilds[next(iter(standin.guilds))]
    user = next(u for u in standin.users.values() if int(u["id"]) in w.seat_of and w.seat_of[int(u["id"])] == 0)
    assert await share_and_watch(standin, bot, w.channel, g, user, 0) >= 4
    # The live table was edited all game, and every version of it was read, not just the last.
    assert len(standin.message_versions(table_id)) > 5, w.counts
    assert w.counts.get("message (private)", 0) > 5, w.counts
    assert w.counts.get("picture", 0) > 5, w.counts
    for mid in w.watch_messages:  # each watcher message followed the whole game
        assert len(standin.message_versions(mid)) > 5 and not standin._message(mid).get("components")
    # The end message's and each watcher message's last edit: the whole game, as the public saw it.
    assert w.counts.get("animation", 0) == 1 + len(w.watch_messages), w.counts
    if game_id in ("celestial_emperor", "knight_rogue_princess_dragon"):
        assert w.counts.get("modal (private)", 0) > 0, w.counts
    assert w.counts.get("autocomplete (private)", 0) > 0, w.counts


async def test_a_watcher_message_from_a_seat_reader_is_caught(standin, bot, monkeypatch):
    """Planted leak (g): the watcher message made from the first seat's reader, not the public one."""
    from bot.tables.reader import reader_of
    from bot.ui import payloads

    def from_a_seat(reader, picture, link, watchers, *, final=False):
        row = bot.service.cached(reader.table.channel_id)
        msg = payloads.table_message(reader_of(row, load_game(row), 0), picture)
        msg.view = None
        return msg

    monkeypatch.setattr(payloads, "watch_message", from_a_seat)
    with pytest.raises(AssertionError, match="which its reader may not know") as caught:
        await play_and_watch(standin, bot, monkeypatch, "celestial_emperor")
    leaked = int(re.search(r"of message (\d+), read by the public", str(caught.value))[1])
    tables = {int(m["id"]) for m in standin.channel_messages(standin.guilds[next(iter(standin.guilds))].channel["id"])}
    assert leaked not in tables, "caught in a watcher message (another channel, or a DM), not the table's"


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_planted_since_line_naming_another_seats_card_is_caught(standin, bot, monkeypatch, lang):
    """Planted leak (i), in English and in German (a queen is D♥ there, a jack B♠): caught in the line."""
    cards = ("QH", "JS", "TD", "AC")
    assert named(", ".join(words(lang).card(c) for c in cards)) == set(cards)  # each language's card names are read
    real = since_module.noted

    def mover_eyes(series, players, mover, events):  # the told seat reads the mover's own text: a leak
        events = list(events)
        out = real(series, players, mover, events)
        for box in out[since_module.SINCE].values():
            box["lines"] = (box["lines"] + [encode(t) for t in (e.for_(mover) for e in events) if t])[-since_module.KEEP:]
            box["said"] += len(events)
        return out

    monkeypatch.setattr(since_module, "noted", mover_eyes)
    with pytest.raises(AssertionError, match="which its reader may not know") as caught:
        await play_and_watch(standin, bot, monkeypatch, "celestial_emperor", lang)
    assert SINCE[("en", *LANGUAGES).index(lang)] in str(caught.value), "caught in the since-your-last-move line"


async def test_planted_moment_from_a_seats_reader_is_caught(standin, bot, monkeypatch):
    from bot.ui import replay as replay_ui
    from tests.test_discord_replay import finish

    async def from_seat(viewing, step, who, lang="en"):  # the sharer's seat's reader instead of the public one
        msg = replay_ui.frame_message(viewing, step, 0, await replay_ui.picture_of(viewing, step, 0))
        msg["content"] = f"{who} shares move {step}"
        return msg

    g = standin.guild()
    users = [standin.user(name=x) for x in ("ana", "ben", "cat")]
    for u in users:
        g.add_member(u)
    await finish(bot, int(g.channel["id"]), g.id, "celestial_emperor", users, seed=5)
    assert await share_and_watch(standin, bot, int(g.channel["id"]), g, users[0], None, [3]) == 1  # sound as it is
    monkeypatch.setattr(replay_ui, "moment", from_seat)
    with pytest.raises(AssertionError, match="which its reader may not know|is not the one drawn"):
        await share_and_watch(standin, bot, int(g.channel["id"]), g, users[0], None, [3])


def test_leak_finder_reads_every_notation():
    universe = frozenset({"9H", "TD", "KS", "8H@0", "8H@1", "JK"})
    assert leaks("you hold 9H", set(), universe) == {"9H"}
    assert leaks("you hold 9♥ and 10♦", set(), universe) == {"9H", "TD"}
    assert leaks("dh2:abc:3:s:play KS", set(), universe) == {"KS"}
    assert leaks("8H@1", {"8H@0"}, universe) == {"8H@1"}
    assert leaks("8♥", {"8H@0"}, universe) == set()  # the reader knows an 8♥: the face alone says nothing
    assert leaks("8♥", set(), universe) == {"8H"}
    assert leaks("TDX 9HZ x9H A9H 19♥", set(), universe) == set()
    assert leaks("9H and KS", {"9H", "KS"}, universe) == set()
    assert strings({"id": "9H", "content": "KS", "embeds": [{"title": "TD", "url": "x"}]}, []) == \
        ["content", "KS", "embeds", "title", "TD", "url", "x"]


async def test_standin_keeps_every_version_with_its_reader(standin, bot):
    """The history the check above reads: each edit is a new version, the old ones kept as shown;
    ephemeral answers carry their reader."""
    g = standin.guild()
    ana, ben = standin.user(name="ana"), standin.user(name="ben")
    for u in (ana, ben):
        g.add_member(u)
    lobby = await standin.slash(bot, "game new", {"game": "court_wars"}, user=ana, guild=g)
    joined = await standin.click(bot, lobby.message_id, label="Join", user=ben)
    versions = standin.message_versions(lobby.message_id)
    assert len(versions) >= 2 and versions[0].how == "response" and versions[0].reader is None
    assert versions[0].payload["components"] != versions[-1].payload["components"]  # the old revision kept
    assert any(v.how in ("update", "edit", "webhook-edit") for v in versions[1:])
    hand = await standin.slash(bot, "game hand", user=ben, guild=g)
    mine = standin.message_versions(hand.message_id)
    assert mine and all(v.ephemeral and v.reader == int(ben["id"]) for v in mine)
    assert joined.message_id is not None
    assert [s.seq for s in standin.shown] == list(range(len(standin.shown)))
