"""The Discord layer: payloads made from readers (``payloads``), components (``components``), where
the table message lives (``placement``) and the play loop (``play``). It holds readers only."""

from bot.ui.components import PREFIX, Kind
from bot.ui.payloads import (
    CUSTOM_ID_MAX, LABEL_MAX, STEP, Drafts, Step, TableMessage, cid, confirm_view, decode_tokens, is_forfeit,
    jump_url, picker, table_message,
)

__all__ = ["CUSTOM_ID_MAX", "LABEL_MAX", "PREFIX", "STEP", "Drafts", "Kind", "Step", "TableMessage", "cid",
           "confirm_view", "decode_tokens", "is_forfeit", "jump_url", "picker", "table_message"]
