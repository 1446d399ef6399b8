-- The order in which patients join care teams (AccessStore.careTeamMembers): a Group bulk export's next `_since`
-- marks the last membership it saw, so the next export sends a later member's whole history (docs/fhir.md).
-- Numbers come from a one-row counter (the table has no rowid), so a number is never given twice, even after erasure.
ALTER TABLE care_team_patients ADD COLUMN joined INTEGER NOT NULL DEFAULT 0;
CREATE TABLE care_team_joins (last INTEGER NOT NULL);
INSERT INTO care_team_joins (last) VALUES (0);
