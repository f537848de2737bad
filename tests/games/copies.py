"""The check every hand-written state copy passes at every step of a game: ``copy()`` and
``_state()`` equal the core's marshal copy (field for field, in order) and share no list or dict
with the original, so a later move changes only the copy."""

from __future__ import annotations

from typing import Any

from bot.engine.core import Game


def mutables(value: Any, out: list[Any]) -> list[Any]:
    """Every list and dict in ``value``, nested ones too."""
    if isinstance(value, (list, dict)):
        out.append(value)
        for item in (value.values() if isinstance(value, dict) else value):
            mutables(item, out)
    return out


def shared_mutables(a: Any, b: Any, fields: list[str]) -> set[int]:
    """The ids of lists and dicts that ``a``'s and ``b``'s ``fields`` hold both."""
    mine = {id(v) for name in fields for v in mutables(getattr(a, name), [])}
    return mine & {id(v) for name in fields for v in mutables(getattr(b, name), [])}


def assert_copy_is_the_cores(game: Game, *, same_core: bool = True, shared: tuple[str, ...] = ()) -> Game:
    """``game.copy()`` and ``game._state()`` checked against the core's; the twin. ``same_core``:
    the engine's own ``_state`` is also the core's (field order too); ``shared``: fields the copy
    may share (never changed once made)."""
    twin = game.copy()
    state = game._state()
    assert type(twin) is type(game) and twin.to_json() == game.to_json()
    if same_core:
        core = Game._state(game)  # the core's marshal copy
        assert state == core and list(state) == list(core) and Game._state(twin) == core
        fields = {name: getattr(game, name) for name in state if name not in shared}
        assert not {id(v) for v in mutables(fields, [])} & {id(v) for v in mutables(state, [])}
    else:
        assert twin._state() == state
    names = [name for name in state if name not in shared]
    assert not shared_mutables(game, twin, names)
    return twin
