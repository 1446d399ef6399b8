-- When each patient was last taken off each care team (AccessStore.careTeamDepartures), as SQLite's 0031: the team's
-- monthly worksheet still lists a patient for the months through the one they left in. Written in the removal's
-- transaction; erased with the patient. Milliseconds since 1970 UTC.
CREATE TABLE care_team_departures (
    care_team  text COLLATE "C" NOT NULL REFERENCES care_teams (name),
    patient_id text COLLATE "C" NOT NULL REFERENCES patients (id),
    left_at    bigint NOT NULL,
    PRIMARY KEY (care_team, patient_id)
);
CREATE INDEX care_team_departures_by_patient ON care_team_departures (patient_id);
