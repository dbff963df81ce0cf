-- The stored catalog records compressed with LZ4 rather than PostgreSQL's default pglz. A firearm
-- row is about 2 KB, so about half of them cross the size at which PostgreSQL compresses the
-- largest value of a row, `record`; with pglz, copying 100,000 firearm rows into the table took
-- 7.3-7.6 s on the development machine, with LZ4 4.2-5.1 s (the same rows, alternated twice).
-- Only new values are compressed the new way. A server built without LZ4 keeps pglz: the change
-- is an optimization, never a reason for the migration to fail.
DO $$
BEGIN
    ALTER TABLE firearms ALTER COLUMN record SET COMPRESSION lz4;
    ALTER TABLE ammunition ALTER COLUMN record SET COMPRESSION lz4;
    ALTER TABLE manufacturers ALTER COLUMN record SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    RAISE NOTICE 'LZ4 compression unavailable; catalog records stay compressed with pglz';
END
$$;
