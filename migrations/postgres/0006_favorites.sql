-- Favorites: the firearms an account marked, newest first (added_at is unix milliseconds). The
-- firearm is not a foreign key: a firearm the catalog drops simply stops being listed.
CREATE TABLE favorites (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    firearm_id TEXT NOT NULL,
    added_at   BIGINT NOT NULL,
    PRIMARY KEY (account_id, firearm_id)
);
CREATE INDEX favorites_newest ON favorites (account_id, added_at);
