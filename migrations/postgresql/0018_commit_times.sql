-- When each write committed (docs/fhir.md, "Write times"): one row per write transaction that advanced the change
-- log, keyed by the highest sequence it committed (written while it holds the store_head row), with its time in
-- milliseconds since 1970 (UTC). A change's write time is that of the first row at or after its sequence; times never
-- decrease along the positions, so an instant maps to the highest position committed before it. A purge of tombstones
-- forgets the rows at or below the purge horizon that date no live sample.
CREATE TABLE commit_times (
    position        bigint PRIMARY KEY,
    committed_at_ms bigint NOT NULL
);
-- An instant -> position: the last row before a time.
CREATE INDEX commit_times_time ON commit_times (committed_at_ms, position);
-- The changes made before this migration have no time of their own: they take the migration's (one row at the head).
INSERT INTO commit_times (position, committed_at_ms)
SELECT seq, round(extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM store_head WHERE seq > 0;
