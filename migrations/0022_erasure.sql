-- Erasure of a patient (issue 29; docs/security.md "Erasure"). An erased id is remembered so it never names a patient
-- again; nothing else of the patient is kept here (the receipt is in the audit log). Times are milliseconds since 1970.
CREATE TABLE erased_patients (
    id        TEXT PRIMARY KEY NOT NULL,
    erased_at INTEGER NOT NULL
) WITHOUT ROWID;

-- The patient a kept Idempotency-Key answer belongs to (NULL: a record written before this migration, or none), so an
-- erasure removes every kept answer about the patient, whichever token wrote it.
ALTER TABLE idempotency_records ADD COLUMN patient TEXT;
CREATE INDEX idempotency_records_by_patient ON idempotency_records (patient) WHERE patient IS NOT NULL;
