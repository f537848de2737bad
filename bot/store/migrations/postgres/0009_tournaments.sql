-- Tournaments (bot.tables.tournaments): one row each. data is the whole tournament as JSON
-- (entrants, rounds, boards, results); revision guards every write; alarm is the next time the
-- tournament clock must look at it (a start time, a round's end, or now: work waiting), indexed
-- so the clock reads only what is due.
CREATE TABLE tournaments (
    id         BIGSERIAL PRIMARY KEY,
    guild_id   BIGINT,
    channel_id BIGINT  NOT NULL,
    status     TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    alarm      DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournaments_alarm ON tournaments (alarm) WHERE alarm IS NOT NULL;
CREATE INDEX tournaments_channel ON tournaments (channel_id, id);
