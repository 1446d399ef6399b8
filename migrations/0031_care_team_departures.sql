-- When each patient was last taken off each care team (AccessStore.careTeamDepartures): the team's monthly worksheet
-- still lists a patient for the months through the one they left in, with their figures as they stood when they left
-- (docs/monitoring.md). Written in the removal's transaction; erased with the patient. Milliseconds since 1970 UTC.
CREATE TABLE care_team_departures (
    care_team   TEXT NOT NULL REFERENCES care_teams(name),
    patient_id  TEXT NOT NULL REFERENCES patients(id),
    left_at     INTEGER NOT NULL,
    PRIMARY KEY (care_team, patient_id)
) WITHOUT ROWID;
CREATE INDEX care_team_departures_by_patient ON care_team_departures(patient_id);
