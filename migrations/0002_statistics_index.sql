-- Statistics reads: a covering time index, and the longest sample per (patient, type).
--
-- `samples_time (patient, type, start_ms)` made every statistics row a table lookup by rowid; the
-- covering index `samples_span` answers the statistics query from the index alone (start, end, value,
-- source, user-entered flag). It replaces samples_time, which nothing else used (the feed pins
-- samples_feed / tombstones_feed, reports read samples_sync_key).
DROP INDEX samples_time;

-- 1 when the sample's metadata has wasUserEntered == true (the `excludeUserEntered` filter), written
-- by SyncWriter with the row. A plain column, not a generated one: SQLite 3.40 does not count a
-- generated column or an expression in an index as covering (EXPLAIN QUERY PLAN), and indexing
-- `metadata` itself would copy every sample's metadata into the index.
ALTER TABLE samples ADD COLUMN user_entered INTEGER NOT NULL DEFAULT 0 CHECK (user_entered IN (0, 1));
UPDATE samples SET user_entered = 1
    WHERE metadata IS NOT NULL AND json_type(metadata, '$.wasUserEntered') IS 'true';

CREATE INDEX samples_span ON samples (patient, type, start_ms, end_ms, value, source, user_entered);

-- The longest `end_ms - start_ms` stored for (patient, type). A sample overlapping [from, to) then
-- starts after `from - max_duration_ms`, which bounds a cumulative scan below. It only ever grows
-- (raised once per write transaction by SyncWriter); deletes leave it as it is, which is safe: a
-- larger bound only scans more rows.
CREATE TABLE sample_spans (
    patient         TEXT NOT NULL,
    type            TEXT NOT NULL,
    max_duration_ms INTEGER NOT NULL,
    PRIMARY KEY (patient, type)
) WITHOUT ROWID;
INSERT INTO sample_spans (patient, type, max_duration_ms)
    SELECT patient, type, max(0, max(end_ms - start_ms)) FROM samples GROUP BY patient, type;
