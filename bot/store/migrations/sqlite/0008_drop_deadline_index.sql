-- The turn-limit sweep reads the alarm index (warning, else deadline); nothing reads the deadline
-- index any more, and it cost every save a write.
DROP INDEX IF EXISTS tables_deadline;
