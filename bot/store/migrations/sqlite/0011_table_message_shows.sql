-- The revision the table's public message last showed (written in batches after its edits): a table
-- whose message is behind its revision (a crash between a move's commit and the message's edit) is
-- edited once the bot is back. Tables already here are taken as shown.
ALTER TABLE tables ADD COLUMN message_shows INTEGER;
UPDATE tables SET message_shows = revision;
