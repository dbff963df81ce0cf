-- PostgreSQL's 0010 sets how catalog records are compressed; SQLite never compresses values, so
-- nothing changes here. Kept so both backends' migrations share their numbering.
SELECT 1;
