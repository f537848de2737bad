-- Each player's turn pings, per server (guild_id 0: direct messages): every turn (no row), only
-- after ``hours`` of waiting, or never (bot.tables.pings).
CREATE TABLE ping_prefs (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    mode       TEXT    NOT NULL,
    hours      INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
-- A turn ping held back until the turn has waited long enough: sent by the sweep at due_at if the
-- same turn (the table's turn_since) still waits for the user.
CREATE TABLE ping_waits (
    channel_id BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    guild_id   BIGINT,
    table_id   TEXT    NOT NULL,
    turn_since DOUBLE PRECISION NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX ping_waits_due ON ping_waits (due_at);
