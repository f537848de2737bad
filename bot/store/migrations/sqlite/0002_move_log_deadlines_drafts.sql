-- 2: a table id per game, an indexed deadline, the move log out of the row, a finished table
-- pointing at its record, set-aside damaged rows, drafts and seen interactions.
-- Existing rows keep their columns byte for byte; their moves move to the log (a row whose
-- moves are not a JSON list keeps them in set_aside-ready form: damaged + raw_moves).
CREATE TABLE tables_v2 (
    channel_id   INTEGER PRIMARY KEY,
    table_id     TEXT    NOT NULL UNIQUE,
    guild_id     INTEGER,
    game         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    host_id      INTEGER NOT NULL,
    seats        TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    seed         INTEGER NOT NULL,
    state        TEXT,
    events       TEXT    NOT NULL,
    revision     INTEGER NOT NULL,
    move_count   INTEGER NOT NULL DEFAULT 0,
    turn_limit   INTEGER NOT NULL,
    turn_since   REAL,
    timed_out    INTEGER NOT NULL DEFAULT 0,
    deadline     REAL,
    series       TEXT    NOT NULL,
    record_id    INTEGER,
    damaged      TEXT,
    raw_moves    TEXT,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
INSERT INTO tables_v2 (channel_id, table_id, guild_id, game, status, host_id, seats, options, seed, state, events,
                       revision, move_count, turn_limit, turn_since, timed_out, deadline, series, record_id, damaged,
                       raw_moves, created_at, updated_at)
SELECT channel_id, lower(hex(randomblob(8))), guild_id, game, status, host_id, seats, options, seed, state, events,
       revision,
       CASE WHEN json_valid(moves) AND json_type(moves) = 'array' THEN json_array_length(moves) ELSE 0 END,
       turn_limit, turn_since, timed_out,
       CASE WHEN status = 'playing' AND NOT timed_out AND turn_since IS NOT NULL THEN turn_since + turn_limit END,
       series, NULL,
       CASE WHEN json_valid(moves) AND json_type(moves) = 'array' THEN NULL ELSE 'its move log is not a JSON list' END,
       CASE WHEN json_valid(moves) AND json_type(moves) = 'array' THEN NULL ELSE moves END,
       created_at, updated_at
FROM tables;
CREATE TABLE moves (
    table_id TEXT    NOT NULL,
    ply      INTEGER NOT NULL,
    entry    TEXT    NOT NULL,
    PRIMARY KEY (table_id, ply)
) WITHOUT ROWID;
INSERT INTO moves (table_id, ply, entry)
SELECT n.table_id, j.key, CASE WHEN j.type IN ('array', 'object') THEN j.value ELSE json_quote(j.value) END
FROM tables AS o
JOIN tables_v2 AS n ON n.channel_id = o.channel_id,
     json_each(CASE WHEN json_valid(o.moves) AND json_type(o.moves) = 'array' THEN o.moves ELSE '[]' END) AS j;
DROP TABLE tables;
ALTER TABLE tables_v2 RENAME TO tables;
CREATE INDEX tables_deadline ON tables (deadline, channel_id) WHERE deadline IS NOT NULL;
CREATE INDEX tables_status ON tables (status);
ALTER TABLE records ADD COLUMN table_id TEXT;
CREATE TABLE set_aside (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL,
    table_id   TEXT,
    reason     TEXT    NOT NULL,
    raw        TEXT    NOT NULL,
    set_at     REAL    NOT NULL
);
CREATE TABLE drafts (
    id           TEXT    PRIMARY KEY,
    table_id     TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    decision_rev INTEGER NOT NULL,
    tokens       TEXT    NOT NULL,
    created_at   REAL    NOT NULL
);
CREATE INDEX drafts_decision ON drafts (table_id, seat, decision_rev);
CREATE TABLE interactions (
    id      TEXT PRIMARY KEY,
    seen_at REAL NOT NULL
) WITHOUT ROWID;
