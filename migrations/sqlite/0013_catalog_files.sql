-- The data files the stored catalog was imported from, written by the import in its transaction
-- (`catalog::source_files`): each file's path relative to the folder imported, a digest of its
-- bytes, the records it holds ("kind id" lines) and the build of the binary that validated it.
-- A later import of the folder by the same build parses again only the files whose digest moved.
-- A catalog imported from anything but a folder empties the table.
CREATE TABLE catalog_files (
    path    TEXT PRIMARY KEY,
    digest  TEXT NOT NULL,
    records TEXT NOT NULL,
    build   BIGINT NOT NULL
);
