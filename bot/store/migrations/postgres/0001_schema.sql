-- 1: the whole schema (PostgreSQL starts where SQLite's migration 2 ends). JSON is kept as
-- TEXT so a state reads back byte for byte as written.
CREATE TABLE tables (
    channel_id   BIGINT  PRIMARY KEY,
    table_id     TEXT    NOT NULL UNIQUE,
    guild_id     BIGINT,
    game         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    host_id      BIGINT  NOT NULL,
    seats        TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    seed         BIGINT  NOT NULL,
    state        TEXT,
    events       TEXT    NOT NULL,
    revision     BIGINT  NOT NULL,
    move_count   INTEGER NOT NULL DEFAULT 0,
    turn_limit   BIGINT  NOT NULL,
    turn_since   DOUBLE PRECISION,
    timed_out    BOOLEAN NOT NULL DEFAULT FALSE,
    deadline     DOUBLE PRECISION,
    series       TEXT    NOT NULL,
    record_id    BIGINT,
    damaged      TEXT,
    raw_moves    TEXT,
    created_at   DOUBLE PRECISION NOT NULL,
    updated_at   DOUBLE PRECISION NOT NULL
);
CREATE INDEX tables_deadline ON tables (deadline, channel_id) WHERE deadline IS NOT NULL;
CREATE INDEX tables_status ON tables (status);
CREATE TABLE moves (
    table_id TEXT    NOT NULL,
    ply      INTEGER NOT NULL,
    entry    TEXT    NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE TABLE records (
    id          BIGSERIAL PRIMARY KEY,
    channel_id  BIGINT NOT NULL,
    table_id    TEXT,
    guild_id    BIGINT,
    game        TEXT   NOT NULL,
    result      TEXT   NOT NULL,
    record      TEXT   NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX records_channel ON records (channel_id, finished_at);
CREATE TABLE results (
    record_id BIGINT NOT NULL REFERENCES records (id),
    guild_id  BIGINT,
    game      TEXT   NOT NULL,
    user_id   BIGINT NOT NULL,
    name      TEXT   NOT NULL,
    outcome   TEXT   NOT NULL
);
CREATE INDEX results_guild_game ON results (guild_id, game, user_id);
CREATE TABLE set_aside (
    id         BIGSERIAL PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    table_id   TEXT,
    reason     TEXT   NOT NULL,
    raw        TEXT   NOT NULL,
    set_at     DOUBLE PRECISION NOT NULL
);
CREATE TABLE drafts (
    id           TEXT    PRIMARY KEY,
    table_id     TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    decision_rev BIGINT  NOT NULL,
    tokens       TEXT    NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL
);
CREATE INDEX drafts_decision ON drafts (table_id, seat, decision_rev);
CREATE TABLE interactions (
    id      TEXT PRIMARY KEY,
    seen_at DOUBLE PRECISION NOT NULL
);
