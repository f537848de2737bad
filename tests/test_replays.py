"""Replays of whole seeded games of all six, played by the built-in players: every step of every
replay, through every pair of eyes a viewer is offered, places no card outside what those eyes may
know at that step (``game.known``) — the view, the move's line, the viewer's message (embed,
picker labels, custom_ids). Where a game keeps its secrets after it ends, a viewer is offered the
public view, and a seated player their own, nothing else."""

from __future__ import annotations

import random

import pytest

from bot.engine.registry import GAME_IDS, spec
from bot.records import make_record, redacted
from bot.tables import TableError
from bot.tables.replays import Replay, Replays, Viewing, eyes_for, file_key, seats_of
from bot.ui.payloads import alt_text
from bot.ui.replay import components, frame_message, step_label
from tests.contract.harness import Knowledge, assert_none_leak, card_universe, e_revealed, faces, view_strings
from tests.test_reader_asked import components_of

PLAYOUTS = 3


def played(game_id: str, players: int, seed: int) -> dict:
    """A whole game by the built-in players, as its record."""
    s = spec(game_id)
    game = s.state.new([f"P{i + 1}" for i in range(players)], (), seed=seed)
    rng = random.Random(seed)
    moves = []
    while not game.is_over():
        assert len(moves) < 5000, "the built-in players never finished"
        seat = rng.choice(sorted(game.to_act()))
        move = str(s.player(game, seat, random.Random(rng.random())))
        game, _ = game.apply(seat, move)
        moves.append([seat, move])
    return make_record(game, moves)


def sizes(game_id: str) -> list[int]:
    s = spec(game_id)
    return [min(s.max_players, s.min_players + i % 2) for i in range(PLAYOUTS)]


def message_texts(msg: dict) -> list[str]:
    embed = msg["embed"]
    texts = [msg["content"], embed.title or "", embed.description or "", embed.footer.text or ""]
    texts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return texts


def check_replay(viewing: Viewing) -> int:
    """Every step through every pair of eyes offered; returns how many frames were checked."""
    replay = viewing.replay
    start = spec(replay.game).state.new(list(replay.players), list(replay.options), seed=replay.seed)
    universe = card_universe(start)
    all_faces = frozenset(faces(universe))
    ever: dict[int | None, set[str]] = {eye: set() for eye in viewing.eyes}
    frames = 0
    for step in range(replay.steps):
        revealed = frozenset().union(*(e_revealed(e) for e in replay.events(step)))
        for eye in viewing.eyes:
            known = replay.known(step, eye)
            k = Knowledge(known, universe, all_faces)
            ever[eye] |= known | revealed
            then = Knowledge(frozenset(ever[eye]), universe, all_faces)
            where = f"{replay.game} step {step} through {eye!r}'s eyes"
            reader = viewing.reader(step, eye)
            assert_none_leak(view_strings(reader.view, skip="recent"), k, f"the view at {where}")
            assert_none_leak(reader.view.recent, then, f"the log at {where}")
            assert_none_leak(viewing.line(step, eye), k.with_(revealed), f"the move's line at {where}")
            assert_none_leak([step_label(viewing, step, eye)], k.with_(revealed), f"the picker's label at {where}")
            msg = frame_message(viewing, step, eye, None)
            assert_none_leak([*message_texts(msg), alt_text(reader)], then, f"the viewer's message at {where}")
            ids = [c["custom_id"] for c in components_of(msg["view"])]
            assert_none_leak(ids, Knowledge(frozenset(), universe, all_faces), f"the custom_ids at {where}")
            assert all(len(i) <= 100 for i in ids)
            frames += 1
    return frames


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_frame_of_whole_games_keeps_what_its_eyes_may_not_know(game_id):
    frames = 0
    for i, n in enumerate(sizes(game_id)):
        record = played(game_id, n, seed=1000 + 17 * i)
        replay = Replay(file_key(record), record)
        assert replay.steps == len(record["moves"]) + 1 and replay.finished
        # A seated player (seat 0) looks through the eyes the policy allows them.
        viewing = Viewing(replay, eyes_for(game_id, replay.players, own=(0,)))
        if spec(game_id).export_seed:
            assert viewing.eyes == (None, *range(n)), "a game that tells all: every seat's view"
        else:
            assert viewing.eyes == (None, 0), "a game that keeps its secrets: the public view and one's own"
            assert eyes_for(game_id, replay.players) == (None,), "a stranger: the public view only"
        frames += check_replay(viewing)
    print(f"\n{game_id}: {frames} frames checked over {PLAYOUTS} replays")


def test_a_game_that_keeps_secrets_refuses_other_eyes_and_a_redacted_record():
    record = played("celestial_emperor", 2, seed=3)
    viewing = Viewing(Replay("r1", record), eyes_for("celestial_emperor", record["players"]))
    with pytest.raises(TableError):
        viewing.reader(1, 0)
    assert viewing.line(1, 0) == ()
    ids = [c["custom_id"] for c in components_of(components(viewing, 1, None))]
    assert not any(":re:" in i for i in ids), "no choice of eyes when there is only one"
    replays = Replays(store=None, clock=lambda: 1_700_000_000.0)
    with pytest.raises(TableError, match="cannot be replayed"):
        import asyncio

        asyncio.run(replays.open_file(redacted(record)))


def test_seats_are_matched_to_people_in_order_past_bots():
    players = ["Ana", "Deckhand bot 1", "Ben", "Ana"]
    people = [(7, "Ana", "win"), (8, "Ben", "loss"), (9, "Ana", "loss")]
    assert seats_of(players, people, 7) == (0,)
    assert seats_of(players, people, 8) == (2,)
    assert seats_of(players, people, 9) == (3,)
    assert seats_of(players, people, 5) == ()


def test_the_picker_pages_past_25_moves():
    record = played("maginot_line", 2, seed=8)
    viewing = Viewing(Replay("r2", record), (None,))
    last = viewing.replay.last
    assert last > 60
    for step in (0, 30, last):
        select = next(c for c in components_of(components(viewing, step, None)) if ":rk:" in c["custom_id"])
        values = [o["value"] for o in select["options"]]
        assert len(values) <= 25 and f"s{step}" in values
        assert [o["value"] for o in select["options"] if o["default"]] == [f"s{step}"]
    middle = next(c for c in components_of(components(viewing, 30, None, page=0)) if ":rk:" in c["custom_id"])
    values = [o["value"] for o in middle["options"]]
    assert values[-1] == "p1" and "s30" not in values


def test_every_step_is_the_game_as_it_was_in_any_order_of_visits():
    """Only one state in :attr:`Replay.EVERY` is kept; the others are rebuilt when visited: in
    order, backwards and jumping about, each is the game as a straight replay had it."""
    record = played("maginot_line", 2, seed=8)
    s = spec("maginot_line").state
    game = s.new(record["players"], record["options"], seed=record["seed"])
    truth = [repr(game.view(0))]
    for seat, move in record["moves"]:
        game = game.apply(seat, move)[0]
        truth.append(repr(game.view(0)))
    replay = Replay("r3", record)
    last = replay.last
    order = [*range(last + 1), *range(last, -1, -1), *random.Random(2).sample(range(last + 1), last + 1)]
    for step in order:
        assert repr(replay.reader(step, 0).view) == truth[step], f"step {step}"
