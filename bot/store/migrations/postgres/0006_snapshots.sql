-- Snapshots: the row's state is written every few moves (and when the game ends), not on every
-- move. state_ply is how many moves of the log the stored state already holds; a load replays
-- the moves after it. NULL (every row written before this) means the state holds every move.
ALTER TABLE tables ADD COLUMN state_ply INTEGER;
