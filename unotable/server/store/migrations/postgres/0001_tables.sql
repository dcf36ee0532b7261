-- 0001: the tables and their logs (PostgreSQL: JSON kept as JSONB).
--
-- The same schema as migrations/sqlite/0001_tables.sql, column for column; only the JSON type
-- differs. One row in `tables` per table ever created, one row in `table_log` per accepted command,
-- in the order the table's single writer accepted them (seq 1, 2, 3, ... per table). The primary key
-- on (table_id, seq) is what refuses a second writer's duplicate append.
--
-- Later (the cluster issue): fencing tokens arrive as a new numbered migration, e.g.
--   ALTER TABLE table_log ADD COLUMN fence BIGINT;   -- the owner's token, checked on append
--   ALTER TABLE tables ADD COLUMN owner TEXT;         -- the node that holds the table
-- Nothing here anticipates them; both are cheap nullable additions in both backends.

CREATE TABLE tables (
    table_id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
    doc JSONB NOT NULL
);

-- unfinished() (status = 'open' ORDER BY created) and delete_older_than() (status, created < cutoff).
CREATE INDEX tables_status_created ON tables (status, created);

CREATE TABLE table_log (
    table_id TEXT NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    entry JSONB NOT NULL,
    PRIMARY KEY (table_id, seq)
);
