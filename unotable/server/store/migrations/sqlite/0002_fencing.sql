-- 0002: fencing tokens for the cluster (issue 11), kept column for column with
-- migrations/postgres/0002_fencing.sql. A cluster needs PostgreSQL: the SQLite store refuses the
-- fenced operations (append_fenced, claim), so here the columns and the table stay empty.

ALTER TABLE table_log ADD COLUMN fence INTEGER;
ALTER TABLE table_log ADD COLUMN source TEXT;

CREATE TABLE table_fence (
    table_id TEXT PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    fence INTEGER NOT NULL CHECK (fence >= 1)
);
