-- The daily Gridcannon challenge: one attempt per player per UTC day, and how it ended.
-- won/score/kills/finished_at stay NULL until the attempt's game ends (an abandoned one: won = 0).
CREATE TABLE daily (
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    table_id    TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    won         INTEGER,
    score       INTEGER,
    kills       INTEGER,
    PRIMARY KEY (day, user_id)
);
CREATE INDEX daily_table ON daily (table_id);
