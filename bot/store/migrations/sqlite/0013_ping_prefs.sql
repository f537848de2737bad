-- Each player's turn pings, per server (guild_id 0: direct messages): every turn (no row), only
-- after ``hours`` of waiting, or never (bot.tables.pings).
CREATE TABLE ping_prefs (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    hours      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
-- A turn ping held back until the turn has waited long enough: sent by the sweep at due_at if the
-- same turn (the table's turn_since) still waits for the user.
CREATE TABLE ping_waits (
    channel_id INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER,
    table_id   TEXT    NOT NULL,
    turn_since REAL    NOT NULL,
    due_at     REAL    NOT NULL,
    PRIMARY KEY (channel_id, user_id)
) WITHOUT ROWID;
CREATE INDEX ping_waits_due ON ping_waits (due_at);
