-- The service's own content (changelog entries, blog posts, notices), written by the catalog
-- import from `data/content/` (`catalog::content::store`): one row per item, with the digest of
-- its served record as its version; `updated_at` moves only when the record changed. Times are
-- 'YYYY-MM-DD HH:MM:SS' UTC. `content_revision` moves with every import that changed an item,
-- and nodes follow it as they follow the catalog revision.
CREATE TABLE content_items (
    kind       TEXT NOT NULL,
    id         TEXT NOT NULL,
    version    TEXT NOT NULL,
    record     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
INSERT INTO service_state (name, value) VALUES ('content_revision', 0);
