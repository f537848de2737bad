"""The Discord layer: payloads made from readers (``payloads``), components (``components``), where
the table message lives (``placement``) and the play loop (``play``). It holds readers only."""
