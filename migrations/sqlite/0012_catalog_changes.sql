-- The catalog's change log, written by the import in its transaction: for each revision it moved,
-- the epoch it moved from and to and whether `catalog_changes` names every record it created,
-- changed or deleted (a large import names none: a node rebuilds its snapshot then). A running
-- node patches its snapshot from the log instead of rebuilding it (`read::update`), and only
-- when the log's chain of epochs starts at the epoch of the snapshot it serves.
CREATE TABLE catalog_revisions (
    revision       INTEGER PRIMARY KEY,
    previous_epoch INTEGER NOT NULL,
    epoch          INTEGER NOT NULL,
    records_logged INTEGER NOT NULL
);

CREATE TABLE catalog_changes (
    revision   INTEGER NOT NULL REFERENCES catalog_revisions (revision) ON DELETE CASCADE,
    table_name TEXT NOT NULL,
    record_id  TEXT NOT NULL,
    PRIMARY KEY (revision, table_name, record_id)
);
