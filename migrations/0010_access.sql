-- Patients, care teams, tokens (only a SHA-256 hash of each secret) and the audit log.
-- Times are milliseconds since 1970 UTC.
CREATE TABLE patients (
    id          TEXT PRIMARY KEY NOT NULL,
    time_zone   TEXT NOT NULL,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE care_teams (
    name        TEXT PRIMARY KEY NOT NULL,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE care_team_patients (
    care_team   TEXT NOT NULL REFERENCES care_teams(name),
    patient_id  TEXT NOT NULL REFERENCES patients(id),
    PRIMARY KEY (care_team, patient_id)
) WITHOUT ROWID;
CREATE INDEX care_team_patients_by_patient ON care_team_patients(patient_id, care_team);

CREATE TABLE tokens (
    id          TEXT PRIMARY KEY NOT NULL,
    secret_hash BLOB NOT NULL CHECK (length(secret_hash) = 32),
    role        TEXT NOT NULL CHECK (role IN ('device', 'therapist', 'admin')),
    patient_id  TEXT REFERENCES patients(id),
    source      TEXT NOT NULL,
    read_types  TEXT,            -- comma list; NULL means every type
    write_types TEXT,            -- comma list; NULL means every type
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER,
    revoked_at  INTEGER
) WITHOUT ROWID;

CREATE TABLE token_care_teams (
    token_id    TEXT NOT NULL REFERENCES tokens(id),
    care_team   TEXT NOT NULL REFERENCES care_teams(name),
    PRIMARY KEY (token_id, care_team)
) WITHOUT ROWID;

CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    time        INTEGER NOT NULL,
    token_id    TEXT NOT NULL,
    role        TEXT NOT NULL,
    patient_id  TEXT,
    action      TEXT NOT NULL,
    item_count  INTEGER NOT NULL,
    status      INTEGER NOT NULL
);
CREATE INDEX audit_log_by_patient ON audit_log(patient_id, id);
CREATE INDEX audit_log_by_token ON audit_log(token_id, id);
