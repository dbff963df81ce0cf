-- Shared collections: a named set of firearms an account publishes under an unguessable share id
-- (read without a key), and the display name shown as its owner (never the e-mail).
ALTER TABLE accounts ADD COLUMN display_name TEXT;

CREATE TABLE collections (
    share_id    TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    firearm_ids TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX collections_account ON collections (account_id);
