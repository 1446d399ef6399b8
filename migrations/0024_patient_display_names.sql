-- The name people see for a patient, set by an admin (docs/api.md, PATCH /v1/patients/{patientId}); empty when none.
ALTER TABLE patients ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
