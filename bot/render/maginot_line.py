"""Renders of The Maginot Line (views only): the words (``maginot_words``: panel, terminal text,
alt text) and the picture (``maginot_picture``), found here by the renderer lookup."""

from bot.render.maginot_picture import TAPPED, picture, seat_picture
from bot.render.maginot_words import CREDIT, TITLE, alt_text, board_text, card, panel, status, text

__all__ = ["CREDIT", "TAPPED", "TITLE", "alt_text", "board_text", "card", "panel", "picture", "seat_picture", "status",
           "text"]
