-- When each write committed (docs/fhir.md, "Write times"): one row per write transaction that advanced the change
-- log, keyed by the highest change_log sequence it committed, with its time in milliseconds since 1970 (UTC). A
-- change's write time is that of the first row at or after its sequence; times never decrease along the positions,
-- so an instant maps to the highest position committed before it. A purge of tombstones forgets the rows at or below
-- the purge horizon that date no live sample.
CREATE TABLE commit_times (
    position        INTEGER PRIMARY KEY NOT NULL,
    committed_at_ms INTEGER NOT NULL
);
-- An instant -> position: the last row before a time (the rowid, the position, orders rows of one time).
CREATE INDEX commit_times_time ON commit_times (committed_at_ms);
-- The changes made before this migration have no time of their own: they take the migration's (one row at the head).
INSERT INTO commit_times (position, committed_at_ms)
SELECT seq, CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
  FROM sqlite_sequence WHERE name = 'change_log' AND seq > 0;
