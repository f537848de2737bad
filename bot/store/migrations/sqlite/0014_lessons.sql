-- Each player's lesson of a game (bot.tables.lessons): the presses so far (the lesson replays from
-- them: a fixed deal), with a revision a stale button is refused by.
CREATE TABLE lessons (
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    presses    TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, game)
) WITHOUT ROWID;
-- A game's lesson offered once to a player, on the first turn of their first game of it.
CREATE TABLE lesson_offers (
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    offered_at REAL    NOT NULL,
    PRIMARY KEY (user_id, game)
) WITHOUT ROWID;
