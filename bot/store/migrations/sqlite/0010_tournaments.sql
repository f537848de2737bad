-- Tournaments (bot.tables.tournaments): one row each. data is the whole tournament as JSON
-- (entrants, rounds, boards, results); revision guards every write; alarm is the next time the
-- tournament clock must look at it (a start time, a round's end, or now: work waiting), indexed
-- so the clock reads only what is due.
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    status     TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    alarm      REAL,
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);
CREATE INDEX tournaments_alarm ON tournaments (alarm) WHERE alarm IS NOT NULL;
CREATE INDEX tournaments_channel ON tournaments (channel_id, id);
