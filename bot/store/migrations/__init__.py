"""Numbered SQL migrations per back end: ``<backend>/NNNN_name.sql``, applied in order."""

from __future__ import annotations

from importlib import resources


def migrations(backend: str) -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration of ``backend`` ("sqlite" or "postgres"), in order."""
    folder = resources.files(__name__).joinpath(backend)
    out = []
    for item in folder.iterdir():
        if item.name.endswith(".sql"):
            number = int(item.name.split("_", 1)[0])
            out.append((number, item.name, item.read_text(encoding="utf-8")))
    out.sort()
    assert [n for n, _, _ in out] == list(range(1, len(out) + 1)), f"{backend} migrations are not numbered 1..n"
    return out


def statements(sql: str) -> list[str]:
    """The statements of a migration file (no semicolons inside strings there)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
