"""Draw the README's table pictures: each game's public picture at the picture tests' position
(``tests/render/pictures.py``), scaled to 400 px wide as a phone shows it, into docs/pictures.

    PYTHONPATH=. python -m tests.render.docs_pictures [game …]
"""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

from PIL import Image

from tests.render.pictures import POSITIONS, positions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "pictures"
WIDTH = 400


def draw(game_id: str) -> Path:
    render = importlib.import_module(f"bot.render.{game_id}")
    img = Image.open(io.BytesIO(render.picture(positions(game_id)[-1].view(None)))).convert("RGB")
    small = img.resize((WIDTH, round(img.height * WIDTH / img.width)), Image.Resampling.LANCZOS)
    path = DOCS / f"{game_id}.png"
    small.save(path, optimize=True)
    return path


if __name__ == "__main__":
    for game_id in sys.argv[1:] or list(POSITIONS):
        print(draw(game_id))
