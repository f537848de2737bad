-- A rulebook's own clock on the open decision (KRPD's Open Race: 60 s), shorter than the turn limit.
ALTER TABLE tables ADD COLUMN game_clock DOUBLE PRECISION;
