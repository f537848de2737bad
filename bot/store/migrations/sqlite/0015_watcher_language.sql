-- The language a watcher reads their watcher message in (en, es, de: their own Discord language when
-- they started watching). Watchers already here read '' : their table's language, as before.
ALTER TABLE watchers ADD COLUMN lang TEXT NOT NULL DEFAULT '';
