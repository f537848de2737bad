-- Ratings (bot.ratings): one per (guild, game, user). ordinal (mu - 3 sigma) orders the
-- leaderboard; last_change is the display points the last rated game moved it.
CREATE TABLE ratings (
    guild_id    BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    last_change INTEGER NOT NULL DEFAULT 0,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal DESC);
CREATE INDEX ratings_user ON ratings (guild_id, user_id);
-- Every rated game, by its key (its table id): written with its ratings, so a game is rated once.
CREATE TABLE rated_games (
    game_key TEXT    PRIMARY KEY,
    guild_id BIGINT  NOT NULL,
    game     TEXT    NOT NULL,
    rated_at DOUBLE PRECISION NOT NULL
);
-- One-off jobs done (the rating of the games finished before ratings existed).
CREATE TABLE jobs (
    name    TEXT PRIMARY KEY,
    done_at DOUBLE PRECISION NOT NULL
);
-- The history replay reads the records in the order they finished.
CREATE INDEX records_finished ON records (finished_at, id);
CREATE INDEX results_record ON results (record_id);
