-- The turn-limit sweep's alarm: the next time a playing table needs the sweep (the warning when a
-- quarter of the turn limit is left, else the deadline), indexed, so the sweep reads only what is due.
-- warned_for is the turn (its turn_since) whose warning was sent: one warning per turn. A turn in
-- progress at this upgrade counts as warned, so its alarm is its deadline.
ALTER TABLE tables ADD COLUMN warned_for DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN alarm DOUBLE PRECISION;
UPDATE tables SET warned_for = turn_since, alarm = deadline WHERE deadline IS NOT NULL;
CREATE INDEX tables_alarm ON tables (alarm, channel_id) WHERE alarm IS NOT NULL;
