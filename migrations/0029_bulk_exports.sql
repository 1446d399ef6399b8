-- FHIR bulk exports, shared by every instance over this database: a status URL, a cancel or a file is answered by any
-- instance, and a finished export outlives a restart until expires_at. The instance running an export writes its
-- phase and progress and beats heartbeat_at; outcome is the server's JSON of the manifest's facts or of the error (no
-- patient data). bulk_export_patients lists the patients each export reads, so an erasure deletes those exports.
-- Times are milliseconds since 1970 UTC.
CREATE TABLE bulk_exports (
    id            TEXT PRIMARY KEY,
    owner_token   TEXT NOT NULL,
    audit_patient TEXT,
    patient_count INTEGER NOT NULL CHECK (patient_count >= 0),
    request       TEXT NOT NULL,
    base          TEXT NOT NULL,
    phase         TEXT NOT NULL CHECK (phase IN ('queued', 'running', 'completed', 'failed')),
    patients_done INTEGER NOT NULL DEFAULT 0,
    resources     INTEGER NOT NULL DEFAULT 0,
    outcome       BLOB NOT NULL DEFAULT x'',
    created_at    INTEGER NOT NULL,
    heartbeat_at  INTEGER NOT NULL,
    expires_at    INTEGER
) WITHOUT ROWID;
CREATE INDEX bulk_exports_by_expiry ON bulk_exports (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE bulk_export_patients (
    export_id TEXT NOT NULL REFERENCES bulk_exports (id) ON DELETE CASCADE,
    patient   TEXT NOT NULL,
    PRIMARY KEY (export_id, patient)
) WITHOUT ROWID;
CREATE INDEX bulk_export_patients_by_patient ON bulk_export_patients (patient);
