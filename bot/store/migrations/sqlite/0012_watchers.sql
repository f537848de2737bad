-- Watchers (bot.tables.watching): one message each that follows a table from elsewhere (another
-- channel, a DM). table_id is the table watched (a new game in its channel is not followed);
-- token and until: the interaction's token when the message can only be edited through its webhook
-- (an ephemeral message, a channel the bot is not in), and when that token stops working; shows:
-- the revision the message last showed (a message behind is edited when the bot starts again).
CREATE TABLE watchers (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id      TEXT    NOT NULL,
    table_channel INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER NOT NULL,
    token         TEXT,
    until         REAL,
    shows         INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL
);
CREATE INDEX watchers_table ON watchers (table_id);
-- Codes a player of a table in a DM gives friends so they may watch it: each names one table.
CREATE TABLE watch_invites (
    code          TEXT    PRIMARY KEY,
    table_id      TEXT    NOT NULL,
    table_channel INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    created_at    REAL    NOT NULL
);
