-- 1: tables and records (the first schema, as Deckhand 0.1 wrote it)
CREATE TABLE tables (
    channel_id   INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    game         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    host_id      INTEGER NOT NULL,
    seats        TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    seed         INTEGER NOT NULL,
    state        TEXT,
    moves        TEXT    NOT NULL,
    events       TEXT    NOT NULL,
    revision     INTEGER NOT NULL,
    turn_limit   INTEGER NOT NULL,
    turn_since   REAL,
    timed_out    INTEGER NOT NULL DEFAULT 0,
    series       TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
CREATE TABLE records (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  INTEGER NOT NULL,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    result      TEXT    NOT NULL,
    record      TEXT    NOT NULL,
    finished_at REAL    NOT NULL
);
CREATE INDEX records_channel ON records (channel_id, finished_at);
CREATE TABLE results (
    record_id INTEGER NOT NULL REFERENCES records (id),
    guild_id  INTEGER,
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    outcome   TEXT    NOT NULL
);
CREATE INDEX results_guild_game ON results (guild_id, game, user_id);
