-- FHIR bulk exports, as SQLite's 0029: shared by every instance over this database, so a status URL, a cancel or a
-- file is answered by any instance. bulk_export_patients lists the patients each export reads, so an erasure deletes
-- those exports. Times are milliseconds since 1970 UTC.
CREATE TABLE bulk_exports (
    id            text COLLATE "C" PRIMARY KEY,
    owner_token   text COLLATE "C" NOT NULL,
    audit_patient text COLLATE "C",
    patient_count integer NOT NULL CHECK (patient_count >= 0),
    request       text NOT NULL,
    base          text NOT NULL,
    phase         text COLLATE "C" NOT NULL CHECK (phase IN ('queued', 'running', 'completed', 'failed')),
    patients_done integer NOT NULL DEFAULT 0,
    resources     bigint NOT NULL DEFAULT 0,
    outcome       bytea NOT NULL DEFAULT '\x',
    created_at    bigint NOT NULL,
    heartbeat_at  bigint NOT NULL,
    expires_at    bigint
);
CREATE INDEX bulk_exports_by_expiry ON bulk_exports (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE bulk_export_patients (
    export_id text COLLATE "C" NOT NULL REFERENCES bulk_exports (id) ON DELETE CASCADE,
    patient   text COLLATE "C" NOT NULL,
    PRIMARY KEY (export_id, patient)
);
CREATE INDEX bulk_export_patients_by_patient ON bulk_export_patients (patient);
