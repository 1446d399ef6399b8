-- How many patients were taken off care teams (AccessStore.careTeamLeaves): a server on this file compares it every
-- few seconds, so a removal made by another process (the command line) ends the reach it proved to the patient
-- (docs/security.md, "Access"). A one-row counter, raised in the removal's transaction.
CREATE TABLE care_team_leaves (last INTEGER NOT NULL);
INSERT INTO care_team_leaves (last) VALUES (0);
