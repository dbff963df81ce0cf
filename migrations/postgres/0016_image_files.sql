-- Image files added to the catalog under `data/` (an image record's `file`), kept by their
-- content's SHA-256 so that every node serves the same bytes and a file used twice is stored
-- once (`catalog::image_files`). An image names its file by `file` (the path under the data
-- folder, as written) and `file_digest`.
ALTER TABLE images ADD COLUMN file TEXT;
ALTER TABLE images ADD COLUMN file_digest TEXT;
CREATE TABLE image_files (
    digest       TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    bytes        BYTEA NOT NULL
);
