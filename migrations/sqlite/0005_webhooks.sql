-- Webhooks: the endpoints accounts register, one delivery row per (outbox event, endpoint), and the
-- fan-out cursor. Times the worker compares (next_attempt_at, claimed_until) are unix milliseconds
-- so that both backends order and compare them the same way; served times are text in their wire
-- forms (created_at 'YYYY-MM-DD HH:MM:SS', updated_at ISO 8601).

CREATE TABLE webhook_endpoints (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    url         TEXT NOT NULL,
    events      TEXT NOT NULL,            -- JSON array of event types
    description TEXT,
    enabled     INTEGER NOT NULL DEFAULT 1,
    secret      TEXT NOT NULL,
    -- Events recorded before this moment (ISO 8601, like catalog_events.created_at) are never
    -- delivered here: set at creation and on every resume, so resuming does not replay.
    receives_from TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

-- state: pending (due at next_attempt_at), delivered, abandoned (retries used up) or dropped (the
-- endpoint was paused before it was sent). `body` is rendered once at fan-out so that every retry
-- sends, and signs, the same bytes.
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    body            TEXT NOT NULL,
    state           TEXT NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claimed_until   INTEGER,
    last_status     INTEGER,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);

-- The last catalog_events.seq turned into deliveries. One row, locked by the node that fans out,
-- so each event fans out once however many nodes run a worker.
CREATE TABLE webhook_fanout (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    last_seq INTEGER NOT NULL
);
INSERT INTO webhook_fanout (id, last_seq) VALUES (1, 0);
