-- Erasure of a patient, as SQLite's 0022 (issue 29; docs/security.md "Erasure"). An erased id is remembered so it never
-- names a patient again; the receipt is in the audit log.
CREATE TABLE erased_patients (
    id        text COLLATE "C" PRIMARY KEY,
    erased_at bigint NOT NULL
);

-- The patient a kept Idempotency-Key answer belongs to (NULL: written before this migration, or none).
ALTER TABLE idempotency_records ADD COLUMN patient text COLLATE "C";
CREATE INDEX idempotency_records_by_patient ON idempotency_records (patient) WHERE patient IS NOT NULL;
