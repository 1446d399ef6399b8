-- The CareSync store on PostgreSQL: the same tables as SQLite's migrations 0001–0012, in one file.
-- Times are bigint milliseconds since 1970 (UTC); uuids are `uuid`; values are in the type's canonical unit.
-- Every table lives in the connection's schema (search_path), so one database can hold several stores.
-- Text columns use the "C" collation: they sort bytewise, as SQLite and the reference model do, whatever
-- the database's locale.

-- Store identity: 'store_id' (anchors carry it; replicated with the data, so a failover keeps it).
CREATE TABLE store_meta (
    key   text COLLATE "C" PRIMARY KEY,
    value text COLLATE "C" NOT NULL
);
INSERT INTO store_meta (key, value) VALUES ('store_id', replace(gen_random_uuid()::text, '-', ''));

-- The change feed's head: the highest sequence taken, and the purge horizon (anchors below it are expired).
-- One row. Every write transaction locks it first (SELECT … FOR UPDATE) and raises `seq` before it
-- commits, so sequences are taken in commit order: docs/store.md, "The ordering scheme".
CREATE TABLE store_head (
    singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    seq           bigint NOT NULL DEFAULT 0,
    purge_horizon bigint NOT NULL DEFAULT 0
);
INSERT INTO store_head DEFAULT VALUES;

-- Earlier identities of this store (a restored backup): anchors of `store_id` up to `valid_through` stay valid.
CREATE TABLE store_lineage (
    store_id      text COLLATE "C" PRIMARY KEY,
    valid_through bigint NOT NULL
);

-- Live samples. `seq` is the sequence of the change that stored it.
CREATE TABLE samples (
    seq          bigint PRIMARY KEY,
    patient      text COLLATE "C" NOT NULL,
    uuid         uuid NOT NULL,
    type         text COLLATE "C" NOT NULL,
    value        double precision NOT NULL,
    start_ms     bigint NOT NULL,
    end_ms       bigint NOT NULL,
    sync_id      text COLLATE "C",
    sync_version bigint,
    source       text COLLATE "C" NOT NULL,
    metadata     text COLLATE "C",
    -- metadata's wasUserEntered == true (the statistics filter `excludeUserEntered`).
    user_entered boolean NOT NULL DEFAULT false
);
-- HealthKit's key: one live sample per (patient, source, syncIdentifier).
CREATE UNIQUE INDEX samples_sync_key ON samples (patient, source, sync_id) WHERE sync_id IS NOT NULL;
CREATE UNIQUE INDEX samples_uuid ON samples (uuid);
-- The change feed, in sequence order per patient.
CREATE INDEX samples_feed ON samples (patient, seq);
-- Statistics: an index-only range scan in start order.
CREATE INDEX samples_span ON samples (patient, type, start_ms) INCLUDE (end_ms, value, source, user_entered);

-- Deleted samples (HKDeletedObject). `seq` is the sequence of the deletion.
CREATE TABLE tombstones (
    seq           bigint PRIMARY KEY,
    patient       text COLLATE "C" NOT NULL,
    uuid          uuid NOT NULL,
    type          text COLLATE "C" NOT NULL,
    start_ms      bigint NOT NULL,
    end_ms        bigint NOT NULL,
    sync_id       text COLLATE "C",
    sync_version  bigint,
    source        text COLLATE "C" NOT NULL,
    deleted_at_ms bigint NOT NULL,
    -- The sequence of the deleted sample's insert (replica checksums as of an earlier anchor).
    inserted_seq  bigint NOT NULL
);
CREATE INDEX tombstones_feed ON tombstones (patient, seq);
CREATE UNIQUE INDEX tombstones_uuid ON tombstones (uuid);
CREATE INDEX tombstones_deleted_at ON tombstones (deleted_at_ms);

-- The longest `end_ms - start_ms` stored for (patient, type): bounds a cumulative statistics scan below.
-- It only grows; deletes leave it as it is (a larger bound only scans more rows).
CREATE TABLE sample_spans (
    patient         text COLLATE "C" NOT NULL,
    type            text COLLATE "C" NOT NULL,
    max_duration_ms bigint NOT NULL,
    PRIMARY KEY (patient, type)
);

-- Replica checksums (docs/api.md "Replica checksums"): per (patient, type), the number of live samples and
-- the sum modulo 2^64 of their digests (stored as the bigint with the same bits), kept in the write transaction.
CREATE TABLE checksums (
    patient text COLLATE "C" NOT NULL,
    type    text COLLATE "C" NOT NULL,
    count   bigint NOT NULL,
    sum     bigint NOT NULL,
    PRIMARY KEY (patient, type)
);

-- Weekly reports: the current version of each (patient, source, report syncIdentifier). `keys` is a
-- JSON array of the current version's sample keys; the samples are the live samples of
-- (patient, source, '<sync_id>/<key>').
CREATE TABLE weekly_reports (
    patient       text COLLATE "C" NOT NULL,
    source        text COLLATE "C" NOT NULL,
    sync_id       text COLLATE "C" NOT NULL,
    sync_version  bigint NOT NULL,
    week_start    text COLLATE "C" NOT NULL,
    time_zone     text COLLATE "C" NOT NULL,
    keys          text COLLATE "C" NOT NULL,
    updated_at_ms bigint NOT NULL,
    PRIMARY KEY (patient, source, sync_id)
);
CREATE INDEX weekly_reports_by_id ON weekly_reports (patient, sync_id);
CREATE INDEX weekly_reports_by_week ON weekly_reports (patient, week_start);

-- Idempotency-Key records: the first answer to a write, replayed for a retry with the same key.
CREATE TABLE idempotency_records (
    scope         text COLLATE "C" NOT NULL,
    key           text COLLATE "C" NOT NULL,
    request_hash  bytea NOT NULL,
    status        integer NOT NULL,
    response      bytea NOT NULL,
    created_at_ms bigint NOT NULL,
    expires_at_ms bigint NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at_ms);

-- Patients, care teams, tokens (only a SHA-256 hash of each secret) and the audit log.
CREATE TABLE patients (
    id         text COLLATE "C" PRIMARY KEY,
    time_zone  text COLLATE "C" NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE care_teams (
    name       text COLLATE "C" PRIMARY KEY,
    created_at bigint NOT NULL
);

CREATE TABLE care_team_patients (
    care_team  text COLLATE "C" NOT NULL REFERENCES care_teams (name),
    patient_id text COLLATE "C" NOT NULL REFERENCES patients (id),
    PRIMARY KEY (care_team, patient_id)
);
CREATE INDEX care_team_patients_by_patient ON care_team_patients (patient_id, care_team);

CREATE TABLE tokens (
    id          text COLLATE "C" PRIMARY KEY,
    secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
    role        text COLLATE "C" NOT NULL CHECK (role IN ('device', 'therapist', 'admin')),
    patient_id  text COLLATE "C" REFERENCES patients (id),
    source      text COLLATE "C" NOT NULL,
    read_types  text COLLATE "C",            -- comma list; NULL means every type
    write_types text COLLATE "C",            -- comma list; NULL means every type
    created_at  bigint NOT NULL,
    expires_at  bigint,
    revoked_at  bigint
);

CREATE TABLE token_care_teams (
    token_id  text COLLATE "C" NOT NULL REFERENCES tokens (id),
    care_team text COLLATE "C" NOT NULL REFERENCES care_teams (name),
    PRIMARY KEY (token_id, care_team)
);

CREATE TABLE audit_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time        bigint NOT NULL,
    token_id    text COLLATE "C" NOT NULL,
    role        text COLLATE "C" NOT NULL,
    patient_id  text COLLATE "C",
    action      text COLLATE "C" NOT NULL,
    item_count  integer NOT NULL,
    status      integer NOT NULL
);
CREATE INDEX audit_log_by_patient ON audit_log (patient_id, id);
CREATE INDEX audit_log_by_token ON audit_log (token_id, id);
