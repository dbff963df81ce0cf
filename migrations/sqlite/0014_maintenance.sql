-- Maintenance mode (`armory maintenance on|off`, `access::maintenance`): one row. While `active`
-- is 1 every keyed operation answers 503 MAINTENANCE with Retry-After `retry_after` seconds and
-- `message` (a default sentence when null). `since` is when the current state was set, null
-- before the first switch. A switch also bumps service_state 'access_revision' in its transaction,
-- so each node's key cache (which polls that number every 250 ms) reloads this row with the keys.
CREATE TABLE maintenance (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    active       INTEGER NOT NULL DEFAULT 0,
    retry_after  INTEGER,
    message      TEXT,
    since        TEXT
);
INSERT INTO maintenance (id, active) VALUES (1, 0);
