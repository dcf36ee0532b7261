-- 0002: fencing tokens for the cluster (issue 11; see docs/scaling.md).
--
-- In a cluster a table is owned by one node through a Redis lease; each time a node acquires the
-- lease it gets a fencing token (a per-table Redis counter, always increasing). The database, not
-- the node, decides whether a write is allowed:
--
-- - `table_fence` holds each clustered table's current fence. A new owner raises it with
--   `UPDATE table_fence SET fence = $new WHERE table_id = $1 AND fence < $new` (or inserts the
--   row) before it replays the table; a lower or equal token changes nothing.
-- - `table_log.fence` is the token of the owner that appended the entry; `table_log.source` the id
--   of the Redis Stream message that caused it (a new owner resumes reading the stream after it).
-- - the trigger below refuses (SQLSTATE UTF01) an insert whose fence is not the table's current
--   one, and an unfenced insert (a single-node server) on a table a cluster has claimed; it
--   refuses (UTS01) an entry that is not the next seq. The row lock it takes (FOR SHARE) orders an
--   append against a concurrent claim: a claim waits for appends in flight, and an append after
--   the claim sees the new fence. So a paused or partitioned old owner can never write after a
--   new one has claimed the table.
-- Tables never clustered (no `table_fence` row) keep the single-node behaviour unchanged.

ALTER TABLE table_log ADD COLUMN fence BIGINT;
ALTER TABLE table_log ADD COLUMN source TEXT;

CREATE TABLE table_fence (
    table_id TEXT PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    fence BIGINT NOT NULL CHECK (fence >= 1)
);

CREATE FUNCTION table_log_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    current_fence BIGINT;
    last_seq INTEGER;
BEGIN
    SELECT f.fence INTO current_fence FROM table_fence f WHERE f.table_id = NEW.table_id FOR SHARE;
    IF NEW.fence IS NULL THEN
        IF current_fence IS NOT NULL THEN
            RAISE EXCEPTION 'table % is owned by a cluster (fence %): unfenced append refused',
                NEW.table_id, current_fence USING ERRCODE = 'UTF01';
        END IF;
        RETURN NEW;
    END IF;
    IF current_fence IS NULL OR NEW.fence <> current_fence THEN
        RAISE EXCEPTION 'table %: fence % is not the current one (%)', NEW.table_id, NEW.fence,
            current_fence USING ERRCODE = 'UTF01';
    END IF;
    SELECT max(l.seq) INTO last_seq FROM table_log l WHERE l.table_id = NEW.table_id;
    IF NEW.seq <> COALESCE(last_seq, 0) + 1 THEN
        RAISE EXCEPTION 'table %: entry % is not the next one (%)', NEW.table_id, NEW.seq,
            COALESCE(last_seq, 0) + 1 USING ERRCODE = 'UTS01';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER table_log_fenced BEFORE INSERT ON table_log
    FOR EACH ROW EXECUTE FUNCTION table_log_fenced();
