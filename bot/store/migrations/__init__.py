"""Numbered SQL migrations per back end: ``<backend>/NNNN_name.sql``, applied in order."""

from __future__ import annotations

from importlib import resources


# Numbers another change in flight has taken (its migration is not here yet): the only gaps allowed.
# A database this code migrates passes them, so each must be filled before a release.
RESERVED = {"sqlite": frozenset({12}), "postgres": frozenset({11})}  # the watchers' tables


def migrations(backend: str) -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration of ``backend`` ("sqlite" or "postgres"), in order."""
    folder = resources.files(__name__).joinpath(backend)
    out = []
    for item in folder.iterdir():
        if item.name.endswith(".sql"):
            number = int(item.name.split("_", 1)[0])
            out.append((number, item.name, item.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    expected = [n for n in range(1, (numbers[-1] if numbers else 0) + 1) if n in numbers or n not in RESERVED[backend]]
    assert numbers == expected, f"{backend} migrations are not numbered 1..n (but for the reserved {RESERVED[backend]})"
    return out


def statements(sql: str) -> list[str]:
    """The statements of a migration file (no semicolons inside strings there)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
