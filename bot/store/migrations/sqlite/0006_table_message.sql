-- The table's one public message (edited in place by every action), and the table (table_id) it
-- was recorded for: a new table in the channel starts without one.
ALTER TABLE tables ADD COLUMN message_id INTEGER;
ALTER TABLE tables ADD COLUMN message_table TEXT;
