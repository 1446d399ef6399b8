-- The sync store: samples, tombstones, the change log, store identity and purge horizon.
-- Times are INTEGER milliseconds since 1970 (UTC); uuids are 16-byte BLOBs; values are in the
-- type's canonical unit.

-- Store identity and settings: 'store_id' (anchors carry it), 'purge_horizon' (anchors with a
-- lower sequence are expired).
CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO store_meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
INSERT INTO store_meta (key, value) VALUES ('purge_horizon', '0');

-- Earlier identities of this store (a restored backup): anchors of `store_id` up to `valid_through` stay valid.
CREATE TABLE store_lineage (
    store_id      TEXT PRIMARY KEY NOT NULL,
    valid_through INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per change, in commit order. The sequence is AUTOINCREMENT, taken by the INSERT inside the
-- write transaction, so it is never reused and orders every change. kind: 0 sample stored, 1 tombstone.
-- The head of the log is sqlite_sequence's value for this table (it survives pruning).
CREATE TABLE change_log (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    patient TEXT NOT NULL,
    kind    INTEGER NOT NULL CHECK (kind IN (0, 1)),
    uuid    BLOB NOT NULL
);

-- Live samples. `seq` is the change_log sequence of the insert (also the rowid, so rows lie in feed order).
CREATE TABLE samples (
    seq          INTEGER PRIMARY KEY,
    patient      TEXT NOT NULL,
    uuid         BLOB NOT NULL,
    type         TEXT NOT NULL,
    value        REAL NOT NULL,
    start_ms     INTEGER NOT NULL,
    end_ms       INTEGER NOT NULL,
    sync_id      TEXT,
    sync_version INTEGER,
    source       TEXT NOT NULL,
    metadata     TEXT
);
-- HealthKit's key: one live sample per (patient, source, syncIdentifier).
CREATE UNIQUE INDEX samples_sync_key ON samples (patient, source, sync_id) WHERE sync_id IS NOT NULL;
CREATE UNIQUE INDEX samples_uuid ON samples (uuid);
-- The change feed: (patient, seq) since seq is the rowid.
CREATE INDEX samples_feed ON samples (patient);
-- Time-range queries (statistics, reports).
CREATE INDEX samples_time ON samples (patient, type, start_ms);

-- Deleted samples (HKDeletedObject). `seq` is the change_log sequence of the deletion.
CREATE TABLE tombstones (
    seq           INTEGER PRIMARY KEY,
    patient       TEXT NOT NULL,
    uuid          BLOB NOT NULL,
    type          TEXT NOT NULL,
    start_ms      INTEGER NOT NULL,
    end_ms        INTEGER NOT NULL,
    sync_id       TEXT,
    sync_version  INTEGER,
    source        TEXT NOT NULL,
    deleted_at_ms INTEGER NOT NULL
);
CREATE INDEX tombstones_feed ON tombstones (patient);
CREATE UNIQUE INDEX tombstones_uuid ON tombstones (uuid);
CREATE INDEX tombstones_deleted_at ON tombstones (deleted_at_ms);

-- Weekly reports: the current version of each (patient, source, report syncIdentifier).
-- `keys` is a JSON array of the current version's sample keys; the samples themselves are the live
-- samples of (patient, source, '<sync_id>/<key>').
CREATE TABLE weekly_reports (
    patient       TEXT NOT NULL,
    source        TEXT NOT NULL,
    sync_id       TEXT NOT NULL,
    sync_version  INTEGER NOT NULL,
    week_start    TEXT NOT NULL,
    time_zone     TEXT NOT NULL,
    keys          TEXT NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (patient, source, sync_id)
) WITHOUT ROWID;
CREATE INDEX weekly_reports_by_id ON weekly_reports (patient, sync_id);
CREATE INDEX weekly_reports_by_week ON weekly_reports (patient, week_start);

-- Idempotency-Key records: the first answer to a write, replayed for a retry with the same key.
-- `scope` is the caller (e.g. token id), so two callers' keys never collide.
CREATE TABLE idempotency_records (
    scope         TEXT NOT NULL,
    key           TEXT NOT NULL,
    request_hash  BLOB NOT NULL,
    status        INTEGER NOT NULL,
    response      BLOB NOT NULL,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at_ms);
