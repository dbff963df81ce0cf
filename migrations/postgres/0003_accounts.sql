-- Accounts, API keys and shops. Keys are stored only as a SHA-256 hash of the secret; `prefix` is
-- the first characters of the key, shown to identify it. Every change to these tables also bumps
-- service_state 'access_revision' so that each node reloads its key cache within a second.

CREATE TABLE accounts (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    plan           TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'active',
    paid_until     TEXT,
    staff          BIGINT NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    account_id  TEXT REFERENCES accounts (id),
    key_hash    TEXT NOT NULL UNIQUE,
    prefix      TEXT NOT NULL,
    name        TEXT,
    status      TEXT NOT NULL DEFAULT 'active',
    expires_at  TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE shops (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    name        TEXT NOT NULL,
    approved    BIGINT NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE shop_keys (
    shop_id TEXT NOT NULL REFERENCES shops (id),
    key_id  TEXT NOT NULL REFERENCES api_keys (id),
    PRIMARY KEY (shop_id, key_id)
);

-- Requests counted per account (or per ownerless key) and UTC day, flushed from memory in batches.
CREATE TABLE usage_daily (
    subject TEXT NOT NULL,
    day     TEXT NOT NULL,
    count   BIGINT NOT NULL,
    PRIMARY KEY (subject, day)
);

INSERT INTO service_state (name, value) VALUES ('access_revision', 0);
